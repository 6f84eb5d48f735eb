"""Lifecycle: `initialize`, `initialized`, `shutdown`, `exit`.

pygls answers `initialize` and `shutdown` itself (`protocol.EvalProtocol` chooses the position
encoding); these handlers set up and stop our side: the roots, the settings, the engine.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from lsprotocol import types

from evalyaml import __version__
from evalyaml.lsp.documents import uri_to_path
from evalyaml.lsp.engine import Engine
from evalyaml.lsp.handlers.workspace import pull_settings, register_watchers
from evalyaml.lsp.session import EvalServer
from evalyaml.lsp.settings import Settings
from evalyaml.workspace.index import normalize

log = logging.getLogger("evalyaml.lsp")


def initialize(ls: EvalServer, params: types.InitializeParams) -> None:
    ls.loop = asyncio.get_running_loop()
    folders = params.workspace_folders or []
    roots = [uri_to_path(f.uri) for f in folders]
    if not roots and params.root_uri:
        roots = [uri_to_path(params.root_uri)]
    elif not roots and params.root_path:
        roots = [Path(params.root_path)]
    ls.roots = [normalize(r) for r in roots if r is not None]
    ls.initial_settings = Settings.parse(params.initialization_options)
    if params.client_info is not None:
        ls.client_name = params.client_info.name
    ls.engine = Engine(ls)
    ls.engine.settings = ls.initial_settings
    log.info("evalyaml %s: roots %s, %s positions, %s diagnostics", __version__,
             [str(r) for r in ls.roots], ls.encoding.value, "pull" if ls.pull else "push")


async def initialized(ls: EvalServer, params: types.InitializedParams) -> None:
    assert ls.engine is not None
    settings = ls.initial_settings
    try:
        if ls.supports("workspace.configuration"):
            settings = await pull_settings(ls) or settings
        if ls.supports("workspace.did_change_watched_files.dynamic_registration"):
            await register_watchers(ls)
    except Exception:
        log.exception("initialized: settings or watchers failed")
    ls.engine.reindex(ls.roots, settings)


def shutdown(ls: EvalServer, params: None) -> None:
    if ls.engine is not None:
        ls.engine.stop()


def exit_(ls: EvalServer, params: None) -> None:
    # pygls' own `exit` runs after this and raises SystemExit, which `start_io` swallows:
    # `server.run` returns this code instead (the LSP specification: 1 without `shutdown`).
    ls.exit_code = 0 if ls.protocol._shutdown else 1
    if ls.engine is not None:
        ls.engine.stop()  # exit without shutdown: stop the engine (and its worker) too
