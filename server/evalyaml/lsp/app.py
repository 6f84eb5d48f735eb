"""The language server proper, on pygls 2 (`server.run` starts it).

This module wires LSP messages to the engine and the feature modules. It owns the things only
the event loop may touch: the documents' text, the diagnostics reports, and every message sent
to the client. Every request handler is guarded: an exception is logged (to stderr, never
stdout) and the client gets an empty answer, so a bug in one feature cannot take the server
down.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import os
from collections.abc import Awaitable, Callable, Generator, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.exceptions import (
    JsonRpcContentModified,
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.protocol.language_server import lsp_method
from pygls.uris import from_fs_path
from pygls.workspace import Workspace as PyglsWorkspace

from evalyaml import __version__
from evalyaml.analysis.kinds import FileKind, Kind
from evalyaml.lsp import bootstrap, convert
from evalyaml.lsp.documents import Document, DocumentStore, path_to_uri, uri_to_path
from evalyaml.lsp.engine import Engine, Report
from evalyaml.lsp.features import actions, completion, hover, navigation
from evalyaml.lsp.positions import Encoding, PositionMapper, choose_encoding
from evalyaml.lsp.settings import SECTION, Settings
from evalyaml.workspace.discovery import EVAL_SUFFIXES
from evalyaml.workspace.index import normalize

log = logging.getLogger("evalyaml.lsp")

T = TypeVar("T")

CONFIG_FILES = ("evalyaml.toml", "pyproject.toml")
WATCHERS = ("**/*.{" + ",".join(s.lstrip(".") for s in EVAL_SUFFIXES) + "}",
            "**/evalyaml.toml", "**/pyproject.toml")
SHOW_REFERENCES = bootstrap.SHOW_REFERENCES
# Test hook: `EVALYAML_LSP_FAIL=textDocument/hover,analysis` makes those handlers raise, to prove
# that a failing feature is logged and answered empty without taking the server down.
INJECTED_FAILURES = frozenset(
    m.strip() for m in os.environ.get("EVALYAML_LSP_FAIL", "").split(",") if m.strip())


class Current(NamedTuple):
    """A document's text and the report computed for exactly that text (None: no analysis)."""

    doc: Document
    report: Report | None


@dataclass(frozen=True, slots=True)
class _Unreadable:
    """A message that could not be structured (its params do not deserialize): a request is
    answered with `error` (pygls would raise before it knows the id, and answer nothing)."""

    method: str
    msg_id: int | str | None
    request: bool
    error: JsonRpcException


class EvalProtocol(LanguageServerProtocol):
    """pygls' protocol with these changes: the position encoding is ours to choose (UTF-8 when
    the client offers it); open documents live in our `DocumentStore` rather than in pygls'
    workspace (one copy of each text, edited in place of a rescan); a request whose params do
    not deserialize gets an error answer (-32602) and one after `shutdown` gets InvalidRequest
    (-32600), where pygls answers neither."""

    _server: EvalServer

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:  # logged by pygls, with the traceback
            msg_id = data.get("id")
            if isinstance(msg_id, bool) or not isinstance(msg_id, (int, str)):
                msg_id = None
            method = data.get("method")
            return _Unreadable(method if isinstance(method, str) else "", msg_id,
                               "id" in data and "method" in data, error)

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any,
                         args: tuple[Any, ...] | None = None,
                         kwargs: dict[str, Any] | None = None) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        # pygls files the future of every coroutine, thread or generator handler under its id
        # but only pops it when it answers a client's request: a notification handled by a
        # generator (every didOpen/didChange/didClose, through the builtin handlers above) or
        # a handler run from a generator is filed under a fresh uuid and never removed, about
        # 2 KB (a Future, its Condition and lock) per keystroke. Forget it once it is done.
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(functools.partial(self._done, msg_id))

    def _done(self, msg_id: Any, future: Any) -> None:
        # Later, on the loop: a callback may run inside pygls' own walk over the futures
        # (`shutdown` cancels the pending ones), which must not see the dict change.
        loop = self._server.loop
        if loop is None:
            with contextlib.suppress(RuntimeError):
                loop = asyncio.get_running_loop()
        if loop is None or loop.is_closed():
            self._forget(msg_id, future)
            return
        with contextlib.suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(self._forget, msg_id, future)

    def _forget(self, msg_id: Any, future: Any) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Unreadable):
            if message.request:
                error = JsonRpcInvalidRequest("the server is shut down") if self._shutdown \
                    else message.error
                self._send_data(types.ResponseErrorMessage(  # id null if it was unreadable
                    id=message.msg_id, error=error.to_response_error()))
            elif not message.method and message.msg_id is not None:
                # A response to one of our requests that does not deserialize: fail it, so
                # that whatever waits for it does not wait forever.
                future = self._request_futures.pop(message.msg_id, None)
                if future is not None and not future.done():
                    future.set_exception(message.error)
            else:
                log.warning("dropped a %s message that does not deserialize",
                            message.method or "malformed")
            return
        if self._shutdown and isinstance(message, RPCRequest) and message.method != types.EXIT \
                and getattr(message, "jsonrpc", None) == self.VERSION:
            self._send_response(message.id, None, JsonRpcInvalidRequest(
                f"the server is shut down: {message.method} after shutdown").to_response_error())
            return
        super().handle_message(message)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams
                       ) -> Generator[Any, Any, types.InitializeResult]:
        self._server.process_id = params.process_id
        self.client_capabilities = params.capabilities
        general = params.capabilities.general
        encoding = choose_encoding(
            list(general.position_encodings) if general and general.position_encodings
            else None)
        self._server.encoding = encoding
        root_uri = params.root_uri
        if params.root_path is not None and root_uri is None:
            root_uri = from_fs_path(params.root_path)
        self._workspace = PyglsWorkspace(root_uri, types.TextDocumentSyncKind.Incremental,
                                         params.workspace_folders or [], encoding.lsp)
        if (handler := self.fm.features.get(types.INITIALIZE)) is not None:
            yield handler, (params,), None
        self.server_capabilities = ServerCapabilitiesBuilder(  # type: ignore[no-untyped-call]
            self.client_capabilities,
            set({**self.fm.features, **self.fm.builtin_features}.keys()),
            self.fm.feature_options,
            list(self.fm.commands.keys()),
            types.TextDocumentSyncKind.Incremental,
            None,
            encoding.lsp,
        ).build()
        return types.InitializeResult(capabilities=self.server_capabilities,
                                      server_info=self.server_info)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams
                                    ) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams
                                      ) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams
                                     ) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


class Progress:
    """Work-done progress for one long job, reported from any thread."""

    _ids = itertools.count(1)

    def __init__(self, server: EvalServer, title: str) -> None:
        self.server = server
        self.title = title
        self.token = f"evalyaml-{next(self._ids)}"
        self.started = False
        self.finished: str | None = None
        self.enabled = server.supports("window.work_done_progress")
        self.last = -1
        if self.enabled:
            server.post(self._create)

    def _create(self) -> None:
        def created(_: object = None) -> None:
            self.started = True
            self.server.work_done_progress.begin(self.token, types.WorkDoneProgressBegin(
                title=self.title, percentage=0, cancellable=False))
            if self.finished is not None:
                self._end()

        def answered(future: Future[Any]) -> None:
            if not future.cancelled() and future.exception() is None:
                self.server.post(created)

        try:
            self.server.protocol.send_request(
                types.WINDOW_WORK_DONE_PROGRESS_CREATE,
                types.WorkDoneProgressCreateParams(token=self.token)).add_done_callback(answered)
        except Exception:  # pragma: no cover - a client that refuses progress
            log.exception("cannot create progress")

    def report(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        percent = int(done * 100 / total) if total else 100
        if percent == self.last:
            return
        self.last = percent

        def send() -> None:
            if self.started and self.finished is None:
                self.server.work_done_progress.report(self.token, types.WorkDoneProgressReport(
                    message=f"{done}/{total} files", percentage=percent))

        self.server.post(send)

    def done(self, message: str) -> None:
        if not self.enabled:
            return

        def finish() -> None:
            self.finished = message
            if self.started:
                self._end()

        self.server.post(finish)

    def _end(self) -> None:
        self.server.work_done_progress.end(self.token,
                                           types.WorkDoneProgressEnd(message=self.finished))


class EvalServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("evalyaml", __version__, protocol_cls=EvalProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.store = DocumentStore()
        self.encoding = Encoding.UTF16
        self.engine: Engine | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="evalyaml-request")
        self.reports: dict[str, Report] = {}
        self.nonempty: set[str] = set()  # uris with non-empty pushed diagnostics
        self.roots: list[Path] = []
        self.initial_settings = Settings()
        self.related_support = True  # every client we know shows related information
        self._result_ids = itertools.count(1)
        self._waiters: dict[str, list[tuple[int, asyncio.Future[Report | None]]]] = {}
        self._refresh_pending = False
        self.client_name = ""
        self.exit_code: int | None = None  # set by `exit`: 0 after `shutdown`, else 1

    # ------------------------------------------------------------------ client facts
    def supports(self, dotted: str) -> bool:
        node: Any = self.client_capabilities
        for part in dotted.split("."):
            node = getattr(node, part, None)
            if node is None:
                return False
        return bool(node)

    @property
    def pull(self) -> bool:
        text_document = self.client_capabilities.text_document
        return text_document is not None and text_document.diagnostic is not None

    # ------------------------------------------------------------------ threads -> loop
    def post(self, fn: Callable[..., None], *args: Any) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(_guard_call, fn, *args)

    def progress_reporter(self, title: str) -> Progress:
        return Progress(self, title)

    async def in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, functools.partial(fn, *args))

    # ------------------------------------------------------------------ diagnostics
    def deliver(self, report: Report) -> None:
        """A report from the engine; runs on the loop, so the version check here is final."""
        doc = self.store.get(report.uri)
        if not report.open and doc is not None:
            return  # opened meanwhile: its own analysis reports
        previous = self.reports.get(report.uri)
        report.key = hash((report.key, tuple(
            (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
            for d in report.diagnostics)))
        same = previous is not None and previous.key == report.key
        report.result_id = previous.result_id if same and previous else str(next(self._result_ids))
        if report.open and (doc is None or doc.serial != report.serial):
            # Computed for a text since replaced (or closed): never published, but a request
            # made against that text or an older one is answered from it. Each analysis reads
            # the latest text, so under nonstop typing the request's own text may never be
            # analysed, and waiting for the current one would mean waiting for a pause.
            self._wake(report.uri, report)
            return
        if report.findings or report.open or (previous is not None and previous.findings) \
                or report.uri in self.nonempty:
            self.reports[report.uri] = report
        elif previous is not None:
            self.reports.pop(report.uri, None)
        if not self.pull:
            if report.open or report.findings or report.uri in self.nonempty:
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                    uri=report.uri, diagnostics=report.diagnostics,
                    version=report.version if report.open else None))
            if report.findings:
                self.nonempty.add(report.uri)
            else:
                self.nonempty.discard(report.uri)
        elif not same and (not report.open or report.dependent):
            self.request_refresh()
        self._wake(report.uri, report)

    def _wake(self, uri: str, report: Report | None) -> None:
        """Answers the requests this report satisfies: those made against its text or an older
        one. None or a closed file's report releases every waiter (the document is gone)."""
        waiting = self._waiters.get(uri)
        if not waiting:
            return
        serial = report.serial if report is not None and report.open else None
        keep: list[tuple[int, asyncio.Future[Report | None]]] = []
        for wanted, future in waiting:
            if serial is None or serial >= wanted:
                if not future.done():
                    future.set_result(report if serial is not None else None)
            else:
                keep.append((wanted, future))
        if keep:
            self._waiters[uri] = keep
        else:
            self._waiters.pop(uri, None)

    async def wait_current(self, doc: Document, *, at_line: int | None = None,
                           timeout: float = 10.0) -> Current:
        """The analysis of the request's text or a newer one, paired with the text analysed:
        positions in the answer go through that text, so they match the findings. A request
        that carries a position gives its line: see `same_place`."""
        report = self.reports.get(doc.uri)
        if report is None or report.serial is None or report.serial < doc.serial:
            future: asyncio.Future[Report | None] = asyncio.get_running_loop().create_future()
            entry = (doc.serial, future)
            self._waiters.setdefault(doc.uri, []).append(entry)
            try:
                report = await asyncio.wait_for(future, timeout)
            except TimeoutError:
                log.warning("no analysis of %s v%s after %.0f s", doc.uri, doc.version, timeout)
                report = self.reports.get(doc.uri)
            finally:  # a request cancelled or timed out leaves no waiter behind
                waiting = self._waiters.get(doc.uri)
                if waiting is not None and entry in waiting:
                    waiting.remove(entry)
                    if not waiting:
                        del self._waiters[doc.uri]
        if report is None or report.document is None:
            return Current(doc, None)
        if at_line is not None:
            self.same_place(doc, report.document, at_line)
        return Current(report.document, report)

    @staticmethod
    def same_place(asked: Document, analysed: Document, line: int) -> None:
        """A position the client gave in `asked` names the same place in `analysed` only when
        the texts agree up to the end of its line. Otherwise the answer would be about whatever
        moved there: the client is told the content changed, and asks again."""
        if asked.serial == analysed.serial:
            return
        lines = asked.lines
        end = lines.line_start(line + 1) if line + 1 < lines.line_count else len(asked.text)
        whole_line = end < len(asked.text) or end == len(analysed.text) or \
            analysed.text[end] in "\r\n"
        if not (whole_line and analysed.text.startswith(asked.text[:end])):
            raise JsonRpcContentModified("the document changed above the position")

    def analysed_serials(self) -> dict[str, int]:
        """uri -> the serial of the open text the engine's index holds (a copy, taken at once)."""
        analyses = dict(self.engine.analyses) if self.engine is not None else {}
        return {uri: serial for uri, (serial, _) in analyses.items()}

    def check_settled(self, before: dict[str, int], uris: Iterable[str]) -> None:
        """Ranges in an open file come from the index's text of it and are mapped through the
        editor's current text: both must be the same text, and stay it while the answer was
        computed (`before` was taken when it started)."""
        now = self.analysed_serials()
        for uri in uris:
            doc = self.store.get(uri)
            if doc is not None and not before.get(uri) == now.get(uri) == doc.serial:
                raise JsonRpcContentModified(f"{uri} changed while the answer was computed")

    async def wait_index(self, timeout: float = 10.0) -> None:
        """Until the first full index is installed: a definition asked for right after start-up
        would otherwise find nothing in the files not yet indexed and answer empty."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.engine is not None and not self.engine.ready:
            if asyncio.get_running_loop().time() > deadline:
                log.warning("answering before the index is in, after %.0f s", timeout)
                return
            await asyncio.sleep(0.05)

    def request_refresh(self) -> None:
        if self._refresh_pending or not self.supports("workspace.diagnostics.refresh_support"):
            return
        self._refresh_pending = True

        def send() -> None:
            self._refresh_pending = False
            try:
                self.workspace_diagnostic_refresh(None)
            except Exception:
                log.exception("workspace/diagnostic/refresh failed")

        assert self.loop is not None
        self.loop.call_later(0.05, _guard_call, send)

    def index_installed(self) -> None:
        if self.pull:
            self.request_refresh()
        if self.supports("workspace.code_lens.refresh_support"):
            try:
                self.workspace_code_lens_refresh(None)
            except Exception:
                log.exception("workspace/codeLens/refresh failed")

    # ------------------------------------------------------------------ helpers for features
    def mapper(self, doc: Document) -> PositionMapper:
        return doc.mapper(self.encoding)

    def uri_for(self, path: Path) -> str:
        doc = self.store.by_path(normalize(path))
        return doc.uri if doc is not None else path_to_uri(path)

    def version_for(self, uri: str) -> int | None:
        doc = self.store.get(uri)
        return doc.version if doc is not None else None

    def nav(self) -> navigation.Nav:
        assert self.engine is not None
        return navigation.Nav(self.engine.workspace, self.engine.mapper_for, self.uri_for,
                              self.version_for)

    def kind_of(self, doc: Document) -> Kind | None:
        assert self.engine is not None
        analysed = self.engine.analyses.get(doc.uri)
        kind = analysed[1].kind if analysed and analysed[1] is not None else None
        return completion.file_kind(doc, kind)


def _guard_call(fn: Callable[..., None], *args: Any) -> None:
    try:
        fn(*args)
    except Exception:
        log.exception("evalyaml: %s failed", getattr(fn, "__name__", fn))


class _RoutineAnswers(logging.Filter):
    """pygls logs every error answer with a traceback. ContentModified (the user typed on) and
    InvalidParams (a new name that is not an id) are answers, not server errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, JsonRpcContentModified | JsonRpcInvalidParams)


_ROUTINE = _RoutineAnswers()


def create_server() -> EvalServer:
    server = EvalServer()
    json_rpc_log = logging.getLogger("pygls.protocol.json_rpc")
    if _ROUTINE not in json_rpc_log.filters:
        json_rpc_log.addFilter(_ROUTINE)

    def feature(name: str, options: Any = None, default: Callable[[], Any] = lambda: None
                ) -> Callable[[Callable[..., Awaitable[Any]]], Callable[..., Awaitable[Any]]]:
        """Register a guarded handler: errors are logged and answered with `default()`."""
        def register(fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
            @functools.wraps(fn)
            async def guarded(ls: EvalServer, params: Any) -> Any:
                try:
                    if name in INJECTED_FAILURES:
                        raise RuntimeError(f"injected failure in {name}")
                    return await fn(ls, params)
                except JsonRpcException:
                    raise
                except Exception:
                    log.exception("%s failed", name)
                    return default()

            server.feature(name, options)(guarded)
            return guarded
        return register

    def notification(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
        def register(fn: Callable[..., None]) -> Callable[..., None]:
            @functools.wraps(fn)
            def guarded(ls: EvalServer, params: Any) -> None:
                try:
                    if name in INJECTED_FAILURES:
                        raise RuntimeError(f"injected failure in {name}")
                    fn(ls, params)
                except Exception:
                    log.exception("%s failed", name)

            server.feature(name)(guarded)
            return guarded
        return register

    # ---------------------------------------------------------------- lifecycle
    @server.feature(types.INITIALIZE)
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

    @server.feature(types.INITIALIZED)
    async def initialized(ls: EvalServer, params: types.InitializedParams) -> None:
        assert ls.engine is not None
        settings = ls.initial_settings
        try:
            if ls.supports("workspace.configuration"):
                settings = await _pull_settings(ls) or settings
            if ls.supports("workspace.did_change_watched_files.dynamic_registration"):
                await _register_watchers(ls)
        except Exception:
            log.exception("initialized: settings or watchers failed")
        ls.engine.reindex(ls.roots, settings)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: EvalServer, params: None) -> None:
        if ls.engine is not None:
            ls.engine.stop()

    @server.feature(types.EXIT)
    def exit_(ls: EvalServer, params: None) -> None:
        # pygls' own `exit` runs after this and raises SystemExit, which `start_io` swallows:
        # `server.run` returns this code instead (the LSP specification: 1 without `shutdown`).
        ls.exit_code = 0 if ls.protocol._shutdown else 1
        if ls.engine is not None:
            ls.engine.stop()  # exit without shutdown: stop the engine (and its worker) too

    # ---------------------------------------------------------------- documents
    @notification(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: EvalServer, params: types.DidOpenTextDocumentParams) -> None:
        doc = ls.store.open(params.text_document)
        assert ls.engine is not None
        ls.engine.analyse(doc.uri, force=True)

    @notification(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: EvalServer, params: types.DidChangeTextDocumentParams) -> None:
        doc = ls.store.change(params, ls.encoding)
        if doc is not None and ls.engine is not None:
            ls.engine.analyse(doc.uri)

    @notification(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: EvalServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = ls.store.close(uri)
        ls.reports.pop(uri, None)
        ls._wake(uri, None)  # requests waiting for an analysis of it answer now
        engine = ls.engine
        if doc is not None and engine is not None:
            path = doc.path
            engine.task(lambda: engine.closed(uri, path))

    # ---------------------------------------------------------------- diagnostics (pull)
    @feature(types.TEXT_DOCUMENT_DIAGNOSTIC,
             types.DiagnosticOptions(identifier="evalyaml", inter_file_dependencies=True,
                                     workspace_diagnostics=True),
             default=lambda: types.RelatedFullDocumentDiagnosticReport(items=[]))
    async def document_diagnostic(ls: EvalServer, params: types.DocumentDiagnosticParams
                                  ) -> types.DocumentDiagnosticReport:
        uri = params.text_document.uri
        doc = ls.store.get(uri)
        report = (await ls.wait_current(doc)).report if doc is not None \
            else ls.reports.get(uri)
        if report is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if params.previous_result_id == report.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=report.result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=report.diagnostics,
                                                         result_id=report.result_id)

    @feature(types.WORKSPACE_DIAGNOSTIC,
             default=lambda: types.WorkspaceDiagnosticReport(items=[]))
    async def workspace_diagnostic(ls: EvalServer, params: types.WorkspaceDiagnosticParams
                                   ) -> types.WorkspaceDiagnosticReport:
        previous = {p.uri: p.value for p in params.previous_result_ids}
        items: list[types.WorkspaceDocumentDiagnosticReport] = []
        for uri, report in list(ls.reports.items()):
            version = report.version if report.open else None
            if previous.get(uri) == report.result_id:
                items.append(types.WorkspaceUnchangedDocumentDiagnosticReport(
                    uri=uri, version=version, result_id=report.result_id))
            else:
                items.append(types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, version=version, items=report.diagnostics,
                    result_id=report.result_id))
        return types.WorkspaceDiagnosticReport(items=items)

    # ---------------------------------------------------------------- completion and hover
    @feature(types.TEXT_DOCUMENT_COMPLETION,
             types.CompletionOptions(trigger_characters=bootstrap.TRIGGER_CHARACTERS),
             default=lambda: types.CompletionList(is_incomplete=False, items=[]))
    async def complete(ls: EvalServer, params: types.CompletionParams
                       ) -> types.CompletionList:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return types.CompletionList(is_incomplete=False, items=[])
        return await ls.in_thread(_complete, ls, doc, params.position)

    @feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: EvalServer, params: types.HoverParams) -> types.Hover | None:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return None
        return await ls.in_thread(_hover, ls, doc, params.position)

    # ---------------------------------------------------------------- navigation
    @feature(types.TEXT_DOCUMENT_DEFINITION, default=list)
    async def definition(ls: EvalServer, params: types.DefinitionParams
                         ) -> list[types.Location]:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return []
        pos = ls.mapper(doc).core_position(params.position)
        await ls.wait_index()
        before = ls.analysed_serials()
        found = await ls.in_thread(navigation.definition, ls.nav(), doc, pos)
        ls.check_settled(before, {location.uri for location in found})
        return found

    @feature(types.TEXT_DOCUMENT_REFERENCES, default=list)
    async def references(ls: EvalServer, params: types.ReferenceParams
                         ) -> list[types.Location]:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return []
        doc, report = await ls.wait_current(doc, at_line=params.position.line)
        await ls.wait_index()
        pos = ls.mapper(doc).core_position(params.position)
        before = ls.analysed_serials()
        found = await ls.in_thread(navigation.references, ls.nav(), doc,
                                   report.analysis if report else None, pos,
                                   params.context.include_declaration)
        ls.check_settled(before, {location.uri for location in found})
        return found

    @feature(types.TEXT_DOCUMENT_DOCUMENT_LINK, default=list)
    async def document_links(ls: EvalServer, params: types.DocumentLinkParams
                             ) -> list[types.DocumentLink]:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return []
        doc, report = await ls.wait_current(doc)
        return await ls.in_thread(navigation.document_links, ls.nav(), doc,
                                  report.analysis if report else None, ls.mapper(doc),
                                  ls.supports("text_document.document_link.tooltip_support"))

    @feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, default=list)
    async def document_symbols(ls: EvalServer, params: types.DocumentSymbolParams
                               ) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return []
        doc, report = await ls.wait_current(doc)
        hierarchical = ls.supports(
            "text_document.document_symbol.hierarchical_document_symbol_support")
        # In the pool: 10,000 cases take ~0.15 s, which would hold up every message meanwhile.
        return await ls.in_thread(navigation.document_symbols, doc,
                                  report.analysis if report else None, ls.mapper(doc),
                                  hierarchical)

    @feature(types.WORKSPACE_SYMBOL, default=list)
    async def workspace_symbols(ls: EvalServer, params: types.WorkspaceSymbolParams
                                ) -> list[types.SymbolInformation]:
        await ls.wait_index()
        return await ls.in_thread(navigation.workspace_symbols, ls.nav(), params.query)

    @feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(ls: EvalServer, params: types.PrepareRenameParams
                             ) -> types.PrepareRenamePlaceholder | None:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return None
        doc, report = await ls.wait_current(doc, at_line=params.position.line)
        pos = ls.mapper(doc).core_position(params.position)
        target = await ls.in_thread(navigation.rename_target, ls.nav(), doc,
                                    report.analysis if report else None, pos)
        if target is None:
            return None
        return types.PrepareRenamePlaceholder(range=ls.mapper(doc).range(target.span),
                                              placeholder=target.id)

    @feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
    async def rename(ls: EvalServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return None
        from evalyaml.lsp.features.lookup import valid_id

        doc, report = await ls.wait_current(doc, at_line=params.position.line)
        await ls.wait_index()  # a rename must reach every reference, closed files included
        pos = ls.mapper(doc).core_position(params.position)
        before = ls.analysed_serials()
        nav = ls.nav()
        target = await ls.in_thread(navigation.rename_target, nav, doc,
                                    report.analysis if report else None, pos)
        if target is None:
            return None
        if not valid_id(params.new_name, target.kind):
            raise JsonRpcInvalidParams(
                f"'{params.new_name}' is not a valid id: use snake_case (lowercase letters, "
                "digits and '_', starting with a letter)" if isinstance(target.kind, FileKind)
                else f"'{params.new_name}' is not a valid {target.kind.noun}: no surrounding "
                "spaces, quotes or line breaks")
        edits = await ls.in_thread(navigation.rename_edits, nav, target, params.new_name)
        changes: dict[str, tuple[int | None, list[types.TextEdit]]] = {}
        for path, spans in edits.items():
            uri = ls.uri_for(path)
            mapper = nav.mapper_for(path)
            changes[uri] = (ls.version_for(uri), [types.TextEdit(mapper.range(s), text)
                                                  for s, text in spans])
        ls.check_settled(before, changes)  # the versions named are those the edits are for
        return convert.workspace_edit(
            changes, document_changes=ls.supports("workspace.workspace_edit.document_changes"))

    @feature(types.TEXT_DOCUMENT_CODE_LENS, default=list)
    async def code_lens(ls: EvalServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return []
        doc, report = await ls.wait_current(doc)
        return await ls.in_thread(navigation.code_lenses, ls.nav(), doc,
                                  report.analysis if report else None, ls.mapper(doc))

    @server.command(SHOW_REFERENCES)
    def show_references(ls: EvalServer, *args: Any) -> None:
        """The code lens' command: editors that know how show the references themselves."""
        return

    # ---------------------------------------------------------------- quick fixes
    @feature(types.TEXT_DOCUMENT_CODE_ACTION,
             types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
             default=list)
    async def code_action(ls: EvalServer, params: types.CodeActionParams
                          ) -> list[types.CodeAction]:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return []
        doc, report = await ls.wait_current(doc, at_line=params.range.end.line)
        if report is None:
            return []
        mapper = ls.mapper(doc)
        wanted = mapper.core_span(params.range)
        return actions.code_actions(
            report.findings, report.diagnostics, wanted, uri=doc.uri, version=doc.version,
            lines=doc.lines, mapper=mapper,
            document_changes=ls.supports("workspace.workspace_edit.document_changes"),
            only=[str(o) for o in params.context.only] if params.context.only else None)

    # ---------------------------------------------------------------- settings and files
    @feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: EvalServer,
                                       params: types.DidChangeConfigurationParams) -> None:
        assert ls.engine is not None
        settings: Settings | None = None
        if ls.supports("workspace.configuration"):
            settings = await _pull_settings(ls)
        if settings is None:
            raw = params.settings
            settings = Settings.parse(raw.get(SECTION, raw) if isinstance(raw, dict) else raw)
        if settings != ls.engine.settings:
            log.info("settings changed: %s", settings)
            ls.engine.configure(settings)

    @notification(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: EvalServer,
                                 params: types.DidChangeWatchedFilesParams) -> None:
        assert ls.engine is not None
        reload = False
        for change in params.changes:
            path = uri_to_path(change.uri)
            if path is None:
                continue
            if path.name in CONFIG_FILES:
                reload = True
            elif path.suffix.lower() in EVAL_SUFFIXES:
                ls.engine.refresh(path)
        if reload:
            ls.engine.reload()

    @notification(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def did_change_folders(ls: EvalServer,
                           params: types.DidChangeWorkspaceFoldersParams) -> None:
        assert ls.engine is not None
        removed = {uri_to_path(f.uri) for f in params.event.removed}
        roots = [r for r in ls.roots if r not in removed]
        roots += [normalize(p) for f in params.event.added if (p := uri_to_path(f.uri))]
        ls.roots = roots
        ls.engine.reindex(roots, ls.engine.settings)

    return server


async def _pull_settings(ls: EvalServer) -> Settings | None:
    try:
        result = await asyncio.wait_for(ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])), 5)
    except Exception:
        log.warning("workspace/configuration failed; keeping the current settings")
        return None
    return Settings.parse(result[0] if result else None)


async def _register_watchers(ls: EvalServer) -> None:
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCHERS])
    await asyncio.wait_for(ls.client_register_capability_async(types.RegistrationParams(
        registrations=[types.Registration(id="evalyaml-watchers",
                                          method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                          register_options=options)])), 5)


# ---------------------------------------------------------------------- feature bodies
def _complete(ls: EvalServer, doc: Document, position: types.Position) -> types.CompletionList:
    kind = ls.kind_of(doc)
    empty = types.CompletionList(is_incomplete=False, items=[])
    if kind is None or ls.engine is None:
        return empty
    mapper = ls.mapper(doc)
    req = completion.Request(
        doc=doc, kind=kind, mapper=mapper, line=position.line, workspace=ls.engine.workspace,
        snippets=ls.supports("text_document.completion.completion_item.snippet_support"),
        retrigger="code" in ls.client_name.lower(),
        bundles=lambda: _bundle_names(ls, doc),
        markdown=True)
    ctx = completion.context_for(req, position.character)
    if ctx is None:
        return empty
    return types.CompletionList(is_incomplete=False, items=completion.complete(req, ctx))


def _bundle_names(ls: EvalServer, doc: Document) -> list[str]:
    assert ls.engine is not None
    workspace = ls.engine.workspace
    names: dict[str, None] = {}
    if doc.path is not None:
        for name in sorted(workspace.root_for(doc.path).bundles.schemas):
            names[name] = None
    for path in workspace.eval_files():
        analysis = workspace.analysis(path)
        if analysis is not None and analysis.kind is FileKind.DATASET:
            for case in analysis.cases:
                if case.bundle:
                    names.setdefault(case.bundle, None)
    return list(names)


def _hover(ls: EvalServer, doc: Document, position: types.Position) -> types.Hover | None:
    kind = ls.kind_of(doc)
    if kind is None or ls.engine is None:
        return None
    mapper = ls.mapper(doc)
    pos = mapper.core_position(position)
    workspace = ls.engine.workspace
    today = workspace.options(doc.path).today if doc.path else None
    return hover.hover(doc, kind, pos, mapper=mapper, workspace=workspace, today=today)
