"""Settings and files: `workspace/didChangeConfiguration`, `didChangeWatchedFiles`,
`didChangeWorkspaceFolders`; and pulling settings and registering the file watchers, which
`initialized` does too.

A key the editor sets wins over `evalyaml.toml`; changed settings, a changed configuration file
or changed folders re-index in the background. A changed eval file is re-read (an open buffer
wins over the disk) and its dependents are re-checked.
"""

from __future__ import annotations

import asyncio
import logging

from lsprotocol import types

from evalyaml.formats import PROSE_SUFFIXES
from evalyaml.lsp.documents import uri_to_path
from evalyaml.lsp.session import EvalServer
from evalyaml.lsp.settings import SECTION, Settings
from evalyaml.workspace.discovery import EVAL_SUFFIXES
from evalyaml.workspace.index import normalize

log = logging.getLogger("evalyaml.lsp")

CONFIG_FILES = ("evalyaml.toml", "pyproject.toml")
# Prose an eval file names and the workspace adopts or checks for (an AgentV grader prompt,
# `prompt: file://x.md`): without a watcher, a prompt edited, deleted or created on disk would
# keep its old findings, and so would the suite that names it, until the next edit. Events for
# such a file that nothing names cost a dictionary lookup in the index.
NAMED_SUFFIXES = tuple(sorted(PROSE_SUFFIXES))
WATCHED_SUFFIXES = EVAL_SUFFIXES + NAMED_SUFFIXES
WATCHERS = ("**/*.{" + ",".join(s.lstrip(".") for s in EVAL_SUFFIXES) + "}",
            "**/*.{" + ",".join(s.lstrip(".") for s in NAMED_SUFFIXES) + "}",
            "**/evalyaml.toml", "**/pyproject.toml")


async def did_change_configuration(ls: EvalServer,
                                   params: types.DidChangeConfigurationParams) -> None:
    assert ls.engine is not None
    settings: Settings | None = None
    if ls.supports("workspace.configuration"):
        settings = await pull_settings(ls)
    if settings is None:
        raw = params.settings
        settings = Settings.parse(raw.get(SECTION, raw) if isinstance(raw, dict) else raw)
    if settings != ls.engine.settings:
        log.info("settings changed: %s", settings)
        ls.engine.configure(settings)


def did_change_watched_files(ls: EvalServer, params: types.DidChangeWatchedFilesParams) -> None:
    assert ls.engine is not None
    reload = False
    for change in params.changes:
        path = uri_to_path(change.uri)
        if path is None:
            continue
        if path.name in CONFIG_FILES:
            reload = True
        elif path.suffix.lower() in WATCHED_SUFFIXES:
            ls.engine.refresh(path)
    if reload:
        ls.engine.reload()


def did_change_folders(ls: EvalServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    assert ls.engine is not None
    removed = {uri_to_path(f.uri) for f in params.event.removed}
    roots = [r for r in ls.roots if r not in removed]
    roots += [normalize(p) for f in params.event.added if (p := uri_to_path(f.uri))]
    ls.roots = roots
    ls.engine.reindex(roots, ls.engine.settings)


async def pull_settings(ls: EvalServer) -> Settings | None:
    """The `evalyaml` section from `workspace/configuration` (None if the client fails)."""
    try:
        result = await asyncio.wait_for(ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])), 5)
    except Exception:
        log.warning("workspace/configuration failed; keeping the current settings")
        return None
    return Settings.parse(result[0] if result else None)


async def register_watchers(ls: EvalServer) -> None:
    """Ask the client to watch eval files and configuration files (dynamic registration)."""
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCHERS])
    await asyncio.wait_for(ls.client_register_capability_async(types.RegistrationParams(
        registrations=[types.Registration(id="evalyaml-watchers",
                                          method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                          register_options=options)])), 5)
