"""Which text an answer is about: the answer-consistency rule, the subtlest rule in the server.

The user types on while a request is answered, and the engine analyses the *latest* text when a
job starts, so under nonstop typing the current text may never be the one analysed. The rule:

1. **A request is answered from the analysis of its own text or a newer one** (`wait_current`),
   never by waiting for the current one, which would mean waiting for a pause. A request made
   against serial *n* waits until a report for serial >= *n* is delivered (`Waiters`); a report
   computed for a text since replaced is never published, but it still answers such requests.
2. **Positions go through the text analysed.** `wait_current` pairs the report with the
   `Document` it was computed for (`Current`); every position in the answer, in or out, is
   mapped through that text, so it matches the findings.
3. **A position the client gave names the same place only if the texts agree up to the end of
   its line** (`same_place`). Otherwise the answer would be about whatever moved there.
4. **Ranges from the index for open files** (definition, references, rename edits and the
   versions they name) need the index to hold each file's current editor text, from the start
   to the end of the computation (`check_settled`, with `analysed_serials` taken at the start).
5. **Cross-file answers wait for the first full index** (`wait_index`), or a definition asked
   for right after start-up would find nothing in the files not yet read.

When 3 or 4 fails the answer is ContentModified (-32801): editors drop it silently and ask
again (`guard` keeps pygls' traceback for it out of the log). Serials, not the client's version
numbers, are compared throughout: a buggy client may repeat a version or send it backwards.
Everything here runs on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import NamedTuple, Protocol

from pygls.exceptions import JsonRpcContentModified

from evalyaml.lsp.documents import Document, DocumentStore
from evalyaml.lsp.engine import Engine
from evalyaml.lsp.reports import Report

log = logging.getLogger("evalyaml.lsp")


class Current(NamedTuple):
    """A document's text and the report computed for exactly that text (None: no analysis)."""

    doc: Document
    report: Report | None


class Waiters:
    """Requests waiting for an analysis: per uri, the serial each one needs and its future."""

    def __init__(self) -> None:
        self._by_uri: dict[str, list[tuple[int, asyncio.Future[Report | None]]]] = {}

    def wake(self, uri: str, report: Report | None) -> None:
        """Answers the requests this report satisfies: those made against its text or an older
        one. None or a closed file's report releases every waiter (the document is gone)."""
        waiting = self._by_uri.get(uri)
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
            self._by_uri[uri] = keep
        else:
            self._by_uri.pop(uri, None)

    async def wait(self, doc: Document, timeout: float) -> Report | None:
        """The first report for `doc`'s text or a newer one (TimeoutError after `timeout`)."""
        future: asyncio.Future[Report | None] = asyncio.get_running_loop().create_future()
        entry = (doc.serial, future)
        self._by_uri.setdefault(doc.uri, []).append(entry)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:  # a request cancelled or timed out leaves no waiter behind
            waiting = self._by_uri.get(doc.uri)
            if waiting is not None and entry in waiting:
                waiting.remove(entry)
                if not waiting:
                    del self._by_uri[doc.uri]


class Host(Protocol):
    """What the rule reads of the server (`session.EvalServer` is one)."""

    @property
    def store(self) -> DocumentStore: ...
    @property
    def reports(self) -> dict[str, Report]: ...
    @property
    def waiters(self) -> Waiters: ...
    @property
    def engine(self) -> Engine | None: ...


async def wait_current(host: Host, doc: Document, *, at_line: int | None = None,
                       timeout: float = 10.0) -> Current:
    """The analysis of the request's text or a newer one, paired with the text analysed:
    positions in the answer go through that text, so they match the findings. A request
    that carries a position gives its line: see `same_place`."""
    report = host.reports.get(doc.uri)
    if report is None or report.serial is None or report.serial < doc.serial:
        try:
            report = await host.waiters.wait(doc, timeout)
        except TimeoutError:
            log.warning("no analysis of %s v%s after %.0f s", doc.uri, doc.version, timeout)
            report = host.reports.get(doc.uri)
    if report is None or report.document is None:
        return Current(doc, None)
    if at_line is not None:
        same_place(doc, report.document, at_line)
    return Current(report.document, report)


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


def analysed_serials(host: Host) -> dict[str, int]:
    """uri -> the serial of the open text the engine's index holds (a copy, taken at once)."""
    analyses = dict(host.engine.analyses) if host.engine is not None else {}
    return {uri: serial for uri, (serial, _) in analyses.items()}


def check_settled(host: Host, before: dict[str, int], uris: Iterable[str]) -> None:
    """Ranges in an open file come from the index's text of it and are mapped through the
    editor's current text: both must be the same text, and stay it while the answer was
    computed (`before` was taken when it started)."""
    now = analysed_serials(host)
    for uri in uris:
        doc = host.store.get(uri)
        if doc is not None and not before.get(uri) == now.get(uri) == doc.serial:
            raise JsonRpcContentModified(f"{uri} changed while the answer was computed")


async def wait_index(host: Host, timeout: float = 30.0) -> None:
    """Until the first full index is installed: a definition asked for right after start-up
    would otherwise find nothing in the files not yet indexed and answer empty. An empty
    answer reads as "this reference is broken", so the wait is long (the client shows the
    index's progress meanwhile): 10 s was too short for 1,500 files on a busy 2-core machine."""
    deadline = asyncio.get_running_loop().time() + timeout
    while host.engine is not None and not host.engine.ready:
        if asyncio.get_running_loop().time() > deadline:
            log.warning("answering before the index is in, after %.0f s", timeout)
            return
        await asyncio.sleep(0.05)
