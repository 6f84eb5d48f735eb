"""Diagnostics to the client: the engine's reports, pushed or pulled, with stable result ids.

The engine posts every `Report` to `Diagnostics.deliver` on the event loop, so the version check
there is final: a report for a text since replaced is never published (it still answers the
requests made against its text: see `consistency`). Clients that declare
`textDocument.diagnostic` pull (`document_diagnostic`, `workspace_diagnostic`, with
`workspace/diagnostic/refresh` when another file's edit changed a report); the others get
`publishDiagnostics`, with the document version for open files and an empty list once a file's
findings went away. A result id is a hash of the findings and their ranges: the same findings
keep their id, and a pull for an unchanged id is answered `Unchanged`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from concurrent.futures import Future
from typing import Protocol

from lsprotocol import types

from evalyaml.lsp import consistency
from evalyaml.lsp.guard import guard_call
from evalyaml.lsp.publish import RawResult, full_report, workspace_report
from evalyaml.lsp.reports import Report

log = logging.getLogger("evalyaml.lsp")


class Host(consistency.Host, Protocol):
    """What delivery needs of the server (`session.EvalServer` is one)."""

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None: ...
    @property
    def pull(self) -> bool: ...
    def supports(self, dotted: str) -> bool: ...
    def publish_payload(self, uri: str, payload: bytes, version: int | None) -> None: ...
    def workspace_diagnostic_refresh(self, params: None,
                                     callback: Callable[[None], None] | None = None
                                     ) -> Future[None]: ...
    def workspace_code_lens_refresh(self, params: None,
                                    callback: Callable[[None], None] | None = None
                                    ) -> Future[None]: ...


class Diagnostics:
    """Delivery of the engine's reports (event loop only)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.nonempty: set[str] = set()
        """uris with non-empty pushed diagnostics (push clients only)."""
        self._result_ids = itertools.count(1)
        self._refresh_pending = False

    def deliver(self, report: Report) -> None:
        """A report from the engine; runs on the loop, so the version check here is final."""
        host = self.host
        doc = host.store.get(report.uri)
        if not report.open and doc is not None:
            return  # opened meanwhile: its own analysis reports
        previous = host.reports.get(report.uri)
        same = previous is not None and previous.key == report.key
        report.result_id = previous.result_id if same and previous else str(next(self._result_ids))
        if report.open and (doc is None or doc.serial != report.serial):
            # Computed for a text since replaced (or closed): never published, but a request
            # made against that text or an older one is answered from it. Each analysis reads
            # the latest text, so under nonstop typing the request's own text may never be
            # analysed, and waiting for the current one would mean waiting for a pause.
            host.waiters.wake(report.uri, report)
            return
        if report.findings or report.open or (previous is not None and previous.findings) \
                or report.uri in self.nonempty:
            host.reports[report.uri] = report
        elif previous is not None:
            host.reports.pop(report.uri, None)
        if not host.pull:
            version = report.version if report.open else None
            again = report.quiet and same and previous is not None and \
                previous.version == version and previous.payload == report.payload
            if (report.open or report.findings or report.uri in self.nonempty) and not again:
                host.publish_payload(report.uri, report.payload, version)
            if report.findings:
                self.nonempty.add(report.uri)
            else:
                self.nonempty.discard(report.uri)
        elif not same and (not report.open or report.dependent):
            self.request_refresh()
        host.waiters.wake(report.uri, report)

    def request_refresh(self) -> None:
        """`workspace/diagnostic/refresh`, at most one in flight per 50 ms."""
        if self._refresh_pending or not self.host.supports("workspace.diagnostics.refresh_support"):
            return
        self._refresh_pending = True

        def send() -> None:
            self._refresh_pending = False
            try:
                self.host.workspace_diagnostic_refresh(None)
            except Exception:
                log.exception("workspace/diagnostic/refresh failed")

        assert self.host.loop is not None
        self.host.loop.call_later(0.05, guard_call, send)

    def index_installed(self) -> None:
        """A full index is in: pull clients and code lenses ask again."""
        if self.host.pull:
            self.request_refresh()
        if self.host.supports("workspace.code_lens.refresh_support"):
            try:
                self.host.workspace_code_lens_refresh(None)
            except Exception:
                log.exception("workspace/codeLens/refresh failed")


# ---------------------------------------------------------------------- the two pull handlers
# Full reports are answered with the push payload itself (`publish.RawResult`): the fragments
# kept between publishes, joined once, never rebuilt as `Diagnostic` objects for cattrs.
async def document_diagnostic(ls: consistency.Host, params: types.DocumentDiagnosticParams
                              ) -> types.DocumentDiagnosticReport | RawResult:
    uri = params.text_document.uri
    doc = ls.store.get(uri)
    report = (await consistency.wait_current(ls, doc)).report if doc is not None \
        else ls.reports.get(uri)
    if report is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    if params.previous_result_id == report.result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=report.result_id)
    return full_report(report.payload, report.result_id)


async def workspace_diagnostic(ls: consistency.Host, params: types.WorkspaceDiagnosticParams
                               ) -> RawResult:
    previous = {p.uri: p.value for p in params.previous_result_ids}
    return workspace_report([
        (uri, report.version if report.open else None, report.result_id,
         None if previous.get(uri) == report.result_id else report.payload)
        for uri, report in list(ls.reports.items())])
