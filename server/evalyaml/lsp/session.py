"""The server's state for one session with one client, and the few things every handler uses.

`EvalServer` owns what only the event loop may touch: the open documents' text, the diagnostics
reports, the requests waiting for an analysis, and every message sent to the client. It holds no
handler: `handlers` lists and registers every LSP method, and the policies live in their own
modules (`consistency`: which text an answer is about; `diagnostics`: delivering reports;
`protocol`: pygls patches; `progress`). Threads reach the loop through `post` only.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types

from evalyaml import __version__
from evalyaml.lsp import publish
from evalyaml.lsp.consistency import Waiters
from evalyaml.lsp.diagnostics import Diagnostics
from evalyaml.lsp.documents import Document, DocumentStore, path_to_uri
from evalyaml.lsp.engine import Engine
from evalyaml.lsp.guard import guard_call
from evalyaml.lsp.positions import Encoding, PositionMapper
from evalyaml.lsp.progress import Progress
from evalyaml.lsp.protocol import BaseServer, EvalProtocol
from evalyaml.lsp.reports import Report
from evalyaml.lsp.settings import Settings
from evalyaml.workspace.index import normalize

T = TypeVar("T")


class EvalServer(BaseServer):
    """pygls' `LanguageServer` with evalyaml's session state (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__("evalyaml", __version__, protocol_cls=EvalProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.store = DocumentStore()
        """The open documents, by uri: the only copy of their text (pygls' workspace holds none)."""
        self.encoding = Encoding.UTF16
        """The position encoding negotiated in `initialize` (`protocol.EvalProtocol`)."""
        self.engine: Engine | None = None
        """The analysis engine, created in `initialize`."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The event loop, set in `initialize`; `post` needs it."""
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="evalyaml-request")
        """The request pool: features run here, so a request never blocks the loop."""
        self.reports: dict[str, Report] = {}
        """uri -> the last published report: every open file, and closed files with findings
        (or that had some). Read by pull requests and by `consistency.wait_current`."""
        self.waiters = Waiters()
        """Requests waiting for an analysis of their text or a newer one (`consistency`)."""
        self.diagnostics = Diagnostics(self)
        """Delivery of the engine's reports: publish or refresh, result ids (`diagnostics`)."""
        self.roots: list[Path] = []
        """The workspace folders, normalised."""
        self.initial_settings = Settings()
        """Settings from `initializationOptions`, used until `workspace/configuration` answers."""
        self.related_support = True
        """Whether diagnostics carry related information: every client we know shows it."""
        self.client_name = ""
        """`clientInfo.name` from `initialize` (completion retriggers for VS Code-like clients)."""
        self.exit_code: int | None = None
        """Set by `exit`: 0 after `shutdown`, else 1; `server.run` returns it."""

    # ------------------------------------------------------------------ client facts
    def supports(self, dotted: str) -> bool:
        """Whether the client declared the capability at this dotted path (snake_case)."""
        node: Any = self.client_capabilities
        for part in dotted.split("."):
            node = getattr(node, part, None)
            if node is None:
                return False
        return bool(node)

    @property
    def pull(self) -> bool:
        """Whether the client pulls diagnostics (else they are pushed)."""
        text_document = self.client_capabilities.text_document
        return text_document is not None and text_document.diagnostic is not None

    def publish_payload(self, uri: str, payload: bytes, version: int | None) -> None:
        """`textDocument/publishDiagnostics` with diagnostics already serialised (`publish`):
        the same bytes `text_document_publish_diagnostics` would write, without the cattrs
        round trip (event loop only)."""
        protocol = self.protocol
        assert isinstance(protocol, EvalProtocol)
        protocol.send_parts(publish.notification_parts(uri, payload, version))

    # ------------------------------------------------------------------ threads -> loop
    def post(self, fn: Callable[..., None], *args: Any) -> None:
        """Run `fn(*args)` on the loop, guarded; from any thread. Dropped once the loop is gone."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(guard_call, fn, *args)

    def progress_reporter(self, title: str) -> Progress:
        """Work-done progress for a new long job (from any thread)."""
        return Progress(self, title)

    async def in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in the request pool, awaited on the loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, functools.partial(fn, *args))

    # ------------------------------------------------------------------ documents and files
    def mapper(self, doc: Document) -> PositionMapper:
        """Positions in `doc`'s text, in the client's encoding."""
        return doc.mapper(self.encoding)

    def uri_for(self, path: Path) -> str:
        """The uri of an open document at `path`, else the file's own uri."""
        doc = self.store.by_path(normalize(path))
        return doc.uri if doc is not None else path_to_uri(path)

    def version_for(self, uri: str) -> int | None:
        """The editor's version of an open document (None for a closed file)."""
        doc = self.store.get(uri)
        return doc.version if doc is not None else None
