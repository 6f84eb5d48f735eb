"""pygls' protocol, patched where pygls would leave a message unanswered or keep it forever.

`EvalProtocol` changes four things: the position encoding is ours to choose (UTF-8 when the
client offers it); open documents live in our `DocumentStore` rather than in pygls' workspace
(one copy of each text, edited in place of a rescan), so the document-sync builtins only forward
to our handlers; a request whose params do not deserialize gets an error answer (-32602) and one
after `shutdown` gets InvalidRequest (-32600), where pygls answers neither; and the future pygls
files for every notification handled by a generator is forgotten once it is done (about 2 KB a
keystroke otherwise: `tests/lsp/test_bookkeeping.py`).

This module sees the server only as a `BaseServer`, so it does not import `session`, which builds
on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.protocol.language_server import lsp_method
from pygls.uris import from_fs_path
from pygls.workspace import Workspace as PyglsWorkspace

from evalyaml.lsp.positions import Encoding, choose_encoding
from evalyaml.lsp.publish import RawResult, response_parts

log = logging.getLogger("evalyaml.lsp")


class BaseServer(LanguageServer):
    """The server as `EvalProtocol` sees it: the two attributes it reads or sets besides pygls'
    own. `session.EvalServer` is the one subclass."""

    loop: asyncio.AbstractEventLoop | None
    """The event loop, once `initialize` has run (None before, and in unit tests)."""
    encoding: Encoding
    """The position encoding negotiated in `initialize`."""


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

    _server: BaseServer

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

    def send_parts(self, parts: Sequence[bytes]) -> None:
        """Frame and write a message already serialised, given in parts that join into its JSON
        (`publish.notification_parts`), as `_send_data` would after its `json.dumps`: one
        write of one frame: a payload of megabytes is copied once, into the frame."""
        if self.writer is None:
            log.error("Unable to send data, no available transport!")
            return
        try:
            chunks = list(parts)
            if self._include_headers:
                length = sum(len(chunk) for chunk in chunks)
                chunks.insert(0, (f"Content-Length: {length}\r\nContent-Type: "
                                  f"{self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
                                  ).encode(self.CHARSET))
            data = b"".join(chunks)
            del chunks
            written = self.writer.write(data)
            if inspect.isawaitable(written):
                asyncio.ensure_future(written)  # noqa: RUF006 - as pygls does
        except BrokenPipeError:
            log.exception("Error sending data. BrokenPipeError")
            raise
        except Exception as error:
            log.exception("Error sending data")
            self._server._report_server_error(error, JsonRpcInternalError)

    def _send_response(self, msg_id: Any, result: Any | None = None,
                       error: types.ResponseError | None = None) -> None:
        """A handler's `RawResult` (pull diagnostics) is written as it is, framed once."""
        if error is None and isinstance(result, RawResult):
            self._result_types.pop(msg_id, None)
            self.send_parts(response_parts(msg_id, result))
            return
        super()._send_response(msg_id, result, error)

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any,
                         args: tuple[Any, ...] | None = None,
                         kwargs: dict[str, Any] | None = None) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        # pygls files the future of every coroutine, thread or generator handler under its id
        # but only pops it when it answers a client's request: a notification handled by a
        # generator (every didOpen/didChange/didClose, through the builtin handlers below) or
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
