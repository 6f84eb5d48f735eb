"""Work-done progress (`$/progress`) for one long job, such as indexing, reported from any
thread: every message goes through the loop, and nothing is sent before the client has answered
`window/workDoneProgress/create` (nor at all to a client that does not support progress)."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol

from lsprotocol import types
from pygls.progress import Progress as PyglsProgress
from pygls.protocol import JsonRPCProtocol

log = logging.getLogger("evalyaml.lsp")


class ProgressHost(Protocol):
    """What a `Progress` needs of the server (`session.EvalServer` is one)."""

    @property
    def protocol(self) -> JsonRPCProtocol: ...
    @property
    def work_done_progress(self) -> PyglsProgress: ...
    def supports(self, dotted: str) -> bool: ...
    def post(self, fn: Callable[..., None], *args: Any) -> None: ...


class Progress:
    """Work-done progress for one long job, reported from any thread."""

    _ids = itertools.count(1)

    def __init__(self, server: ProgressHost, title: str) -> None:
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
