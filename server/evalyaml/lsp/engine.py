"""The analysis engine: one worker thread that owns every call that changes the index.

Threading model (ARCHITECTURE.md, "Threading model"):

- The asyncio event loop (pygls) receives messages, keeps the open documents' text
  (`DocumentStore`), answers requests and sends everything to the client. It never analyses.
- The engine thread (this module) takes work from three queues, highest priority first:
  tasks (settings, configuration, an installed index), open documents to analyse, and closed
  files to re-read from disk. Document work is coalesced per document and always reads the
  *latest* text when it starts, so a burst of keystrokes costs one analysis, and a result for
  a version that has meanwhile been superseded is dropped before it is published.
- The indexer thread (`indexing`) builds a complete index in the background (progress is
  reported to the client) and hands it to the engine as a task (`Engine.install`); until then
  the open documents are analysed against a small index of their own and get their own
  findings at once, without cross-file findings that an unfinished index would get wrong.

Results go back to the event loop through `loop.call_soon_threadsafe`; only the loop writes to
the client. The engine sees the server through `EngineHost` only (a fake host will do in a test).
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from datetime import date
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from evalyaml.core.findings import Finding
from evalyaml.core.incremental import CaseCache
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_text
from evalyaml.lsp import early, indexing
from evalyaml.lsp.documents import Document, path_to_uri
from evalyaml.lsp.guard import INJECTED_FAILURES
from evalyaml.lsp.index import EditorWorkspace
from evalyaml.lsp.indexing import IndexJob, Snapshot
from evalyaml.lsp.positions import PositionMapper
from evalyaml.lsp.publish import Fragments, LazyDiagnostics
from evalyaml.lsp.reopen import ClosedDocuments
from evalyaml.lsp.reports import EngineHost, Report
from evalyaml.lsp.settings import Settings
from evalyaml.lsp.texts import DiskTexts
from evalyaml.syntax.yaml.segments import forget_ahead
from evalyaml.workspace.index import normalize
from evalyaml.workspace.suppress import finalise_file

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseResult
    from evalyaml.parallel import Received

log = logging.getLogger(__name__)

LARGE_TEXT = early.LARGE_TEXT
WARM_DELAY = 1.0  # seconds from an adopted open to warming its case cache (`_warm_up`)


def today_override() -> date | None:
    """`EVALYAML_TODAY=YYYY-MM-DD` pins the clock (tests, reproducible demos)."""
    raw = os.environ.get("EVALYAML_TODAY")
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        log.warning("EVALYAML_TODAY=%r is not a date (YYYY-MM-DD); using today", raw)
        return None


class Engine:
    """The engine thread, its queues, and the index it owns (see the module docstring)."""

    def __init__(self, server: EngineHost) -> None:
        self.server = server
        self.today = today_override()
        self.settings = Settings()
        self.roots: list[Path] = []
        # Large documents are analysed half here, half in a warm worker process.
        self.case_pool = early.case_pool()  # perhaps already at work (`lsp.early`)
        self._rendering: Received | None = None  # see `map_cases`
        self.workspace = EditorWorkspace([], self.settings, self.today, mapper=self.map_cases)
        self.ready = False  # the full index is installed
        self.generation = 0  # bumped by every re-index; an older index is never installed
        self._cond = threading.Condition()
        self._tasks: list[Callable[[], None]] = []
        self._docs: dict[str, bool] = {}  # uri -> forced
        self._paths: dict[Path, None] = {}
        self._to_report: dict[Path, None] = {}  # low priority: report after an install
        # Lowest priority: documents opened with the index's analysis (`_adopt`), whose case
        # cache is still empty; analysed again, quietly, so the first edit costs one case.
        self._warm: dict[str, None] = {}
        self._warm_after = 0.0  # not before: a document closed at once is not warmed for nothing
        self._caches: dict[str, CaseCache] = {}
        self._fragments: dict[str, Fragments] = {}  # uri -> its last publish (open documents)
        self._analysed: dict[str, int] = {}  # uri -> Document.serial analysed
        self.analyses: dict[str, tuple[int, FileAnalysis | None]] = {}  # uri -> (serial, ...)
        self._open_paths: dict[Path, str] = {}  # normalised path -> uri of open documents
        self._disk = DiskTexts()
        self._closed = ClosedDocuments()  # what closed documents left, for a re-open
        self._stopped = False
        self._busy = False
        self._on_document = False  # analysing an open document (the indexer yields to it)
        self._thread = threading.Thread(target=self._run, name="evalyaml-engine", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ scheduling (any thread)
    def analyse(self, uri: str, *, force: bool = False) -> None:
        with self._cond:
            self._docs[uri] = self._docs.get(uri, False) or force
            self._cond.notify()

    def refresh(self, path: Path) -> None:
        with self._cond:
            self._paths[normalize(path)] = None
            self._cond.notify()

    def task(self, job: Callable[[], None]) -> None:
        with self._cond:
            self._tasks.append(job)
            self._cond.notify()

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify()
        self.case_pool.shutdown()

    def idle(self) -> bool:
        with self._cond:
            return not (self._tasks or self._docs or self._paths or self._to_report
                        or self._warm or self._busy)

    def documents_pending(self) -> bool:
        """Whether open documents wait for an analysis or are being analysed (any thread)."""
        with self._cond:
            return bool(self._docs) or self._on_document

    def open_paths(self) -> set[Path]:
        """The normalised paths of the documents open in the editor (any thread)."""
        return {normalize(doc.path) for doc in self.server.store.all() if doc.path is not None}

    def _report_one(self, path: Path) -> None:
        self._report_paths({path})

    # ------------------------------------------------------------------ the worker
    def _run(self) -> None:
        while True:
            with self._cond:
                while not (self._tasks or self._docs or self._paths or self._to_report or (
                        self._warm and time.monotonic() >= self._warm_after)) and not self._stopped:
                    self._busy = self._on_document = False
                    self._cond.wait(WARM_DELAY / 4 if self._warm else None)
                if self._stopped:
                    return
                self._busy = True
                self._on_document = not self._tasks and bool(self._docs)
                job: Callable[[], None]
                if self._tasks:
                    job = self._tasks.pop(0)
                elif self._docs:
                    uri = next(iter(self._docs))
                    forced = self._docs.pop(uri)
                    job = partial(self._analyse_document, uri, forced)
                elif self._paths:
                    path = next(iter(self._paths))
                    del self._paths[path]
                    job = partial(self._refresh_path, path)
                elif self._to_report:
                    path = next(iter(self._to_report))
                    del self._to_report[path]
                    job = partial(self._report_one, path)
                else:
                    uri = next(iter(self._warm))
                    del self._warm[uri]
                    job = partial(self._warm_up, uri, True)
            try:
                job()
            except Exception:  # a failing job must never stop the engine
                log.exception("evalyaml engine job failed")

    def _options(self) -> Options:
        return Options(strict=bool(self.settings.strict),
                       freshness_days=self.settings.freshness_days or 90,
                       today=self.today or date.today())

    def _analyse_document(self, uri: str, forced: bool, *, quiet: bool = False) -> None:
        doc = self.server.store.get(uri)
        if doc is None:
            return
        if not forced and self._analysed.get(uri) == doc.serial:
            return  # this very text was analysed (whatever version number the client gave)
        try:
            self._analyse_current(uri, doc, quiet=quiet)
        except Exception:
            # Log it and answer empty for this version, so that nobody waits forever.
            log.exception("analysing %s failed", uri)
            self._analysed[uri] = doc.serial
            self.analyses[uri] = (doc.serial, None)
            self._deliver(self._report(uri, doc.path, doc, [], None))

    def _analyse_current(self, uri: str, doc: Document, *, quiet: bool = False) -> None:
        if "analysis" in INJECTED_FAILURES:
            raise RuntimeError("injected failure in analysis")
        collecting = gc.isenabled()
        gc.disable()  # an analysis builds many objects that live on: don't rescan them now
        try:
            self._analyse_now(uri, doc, quiet=quiet)
        finally:
            if collecting:
                gc.enable()
                if len(doc.text) > LARGE_TEXT:
                    gc.freeze()  # a large document's results are long-lived

    def _adopt(self, uri: str, key: Path, doc: Document, cache: CaseCache,
               restored: bool) -> bool:
        """A document just opened whose text is what the index analysed from disk: take that
        analysis (its findings are published at once) and warm the case cache later, unless
        it is the cache this very text left when it was closed (`restored`)."""
        if not self.ready or (cache.used and not restored) or uri in self._analysed or \
                not self.workspace.open_unchanged(key, doc.text):
            return False
        if not cache.used:
            with self._cond:
                self._warm[uri] = None
                self._warm_after = time.monotonic() + WARM_DELAY
        return True

    def _warm_up(self, uri: str, forced: bool) -> None:
        """Analyse an adopted document again with its case cache (engine thread, when idle):
        the same findings, published only if they differ from what the client has."""
        doc = self.server.store.get(uri)
        cache = self._caches.get(uri)
        if doc is None or cache is None or cache.used or self._analysed.get(uri) != doc.serial:
            return  # closed, or edited meanwhile (that analysis filled the cache)
        self._analyse_document(uri, forced, quiet=True)

    def _analyse_now(self, uri: str, doc: Document, *, quiet: bool = False) -> None:
        started = time.perf_counter()
        if len(doc.text) > LARGE_TEXT:
            self.case_pool.start()  # for this document's next full analysis, if not this one
        restored = False
        if uri not in self._caches and uri not in self._analysed:  # just opened
            kept = self._closed.take(uri, doc.text)
            if kept is not None:
                self._caches[uri] = kept.cache or CaseCache()
                self._fragments[uri] = kept.fragments
                restored = True
        cache = self._caches.setdefault(uri, CaseCache())
        changed: set[Path] = set()
        analysis: FileAnalysis | None
        if doc.path is None:
            analysis = analyze_text(doc.text, None, self._options(), cache)
            findings = list(analysis.findings)
        else:
            key = normalize(doc.path)
            self._open_paths[key] = uri
            if self._adopt(uri, key, doc, cache, restored):
                changed = set()
            else:
                if len(doc.text) > LARGE_TEXT:
                    self._rendering = partial(self._prerender, uri, doc)
                try:
                    changed = self.workspace.set_text(key, doc.text, cache)
                finally:
                    self._rendering = None
            analysis = self.workspace.analysis(key)
            findings = self._findings(key)
        self.case_pool.drop_prefetched(uri)  # sent ahead (`lsp.early`) and not taken: forget it
        forget_ahead(doc.text)  # the split kept from then, likewise
        self._analysed[uri] = doc.serial
        self.analyses[uri] = (doc.serial, analysis)
        report = self._report(uri, doc.path, doc, findings, analysis)
        report.quiet = quiet
        self._deliver(report)
        log.debug("analysed %s v%s in %.1f ms", uri, doc.version,
                  (time.perf_counter() - started) * 1000)
        if doc.path is not None:
            self._report_paths(changed - {normalize(doc.path)})

    def _refresh_path(self, path: Path) -> None:
        if path in self._open_paths:
            return  # the editor's buffer wins over the disk
        changed = self.workspace.refresh(path)
        self._report_paths(changed | {path})

    def closed(self, uri: str, path: Path | None, doc: Document | None = None) -> None:
        """The editor closed a document: the disk copy takes over, and what its last analysis
        left is kept for a re-open (`reopen`; engine thread)."""
        cache, fragments = self._caches.pop(uri, None), self._fragments.pop(uri, None)
        if doc is not None and self._analysed.get(uri) == doc.serial:
            self._closed.keep(uri, doc.text, cache, fragments)
        with self._cond:
            self._warm.pop(uri, None)
        self._analysed.pop(uri, None)
        self.analyses.pop(uri, None)
        if path is None:
            return
        key = normalize(path)
        self._open_paths.pop(key, None)
        changed = self.workspace.close(key)
        self._report_paths(changed | {key})

    # ------------------------------------------------------------------ findings and reports
    def _findings(self, key: Path) -> list[Finding]:
        if self.ready:
            return self.workspace.findings(key)
        # Before the full index is in, cross-file findings would be wrong (an id defined in a
        # file not yet read looks unknown): give the file's own findings only.
        analysis = self.workspace.analysis(key)
        own = list(analysis.findings) if analysis is not None else []
        problem = self.workspace.problem(key)
        if problem is not None:
            own.insert(0, problem)
        return finalise_file(self.workspace, key, sorted(own, key=_order), analysis,
                             complete=False)

    def map_cases(self, texts: list[str], options: Options, lines: list[int]
                  ) -> list[CaseResult | None]:
        """The index's `CaseMapper`: the case pool's. While this thread analyses a large open
        document, each share of its cases also has its findings rendered as it comes in
        (`_prerender`), between this thread's own shares, while the worker still works on
        others: 17,000 findings had taken 120-190 ms to render after the last share, with the
        worker idle. The indexer's maps, in its own thread, only map."""
        if self._rendering is None or threading.current_thread() is not self._thread:
            return self.case_pool.map(texts, options, lines)
        # Once: the document's own cases are the first map of its `set_text`, before the
        # files it adopts, whose findings are not this document's to render.
        rendering, self._rendering = self._rendering, None
        return self.case_pool.map(texts, options, lines, received=rendering)

    def _prerender(self, uri: str, doc: Document, results: list[CaseResult | None]) -> None:
        """A speed-up that may not fail the analysis: `CasePool.map` logs an error here once
        and shows it no more shares, and the publish renders what was not rendered ahead."""
        if "render-ahead" in INJECTED_FAILURES:
            raise RuntimeError("injected failure in rendering ahead")
        self._document_fragments(uri).prerender(
            (f for result in results if result is not None for f in result.findings),
            doc.mapper(self.server.encoding), uri, self.mapper_for,
            related_support=self.server.related_support)

    def _document_fragments(self, uri: str) -> Fragments:
        fragments = self._fragments.get(uri)
        if fragments is None:
            fragments = self._fragments[uri] = Fragments()
        return fragments

    def _report(self, uri: str, path: Path | None, doc: Document | None,
                findings: list[Finding], analysis: FileAnalysis | None) -> Report:
        encoding = self.server.encoding
        mapper = doc.mapper(encoding) if doc is not None else (
            self.mapper_for(path) if path is not None else PositionMapper("", encoding))
        related = self.server.related_support
        fragments = self._document_fragments(uri) if doc is not None else \
            self._closed.fragments(uri) or Fragments()
        parts, payload = fragments.render(findings, mapper, uri, self.mapper_for,
                                          related_support=related)
        diagnostics: Sequence[types.Diagnostic] = LazyDiagnostics(parts)
        return Report(uri, path, doc.version if doc is not None else None, findings,
                      diagnostics, hash(payload), payload, analysis=analysis,
                      open=doc is not None, serial=doc.serial if doc is not None else None,
                      document=doc)

    def _report_paths(self, paths: set[Path]) -> None:
        """Reports for files other than the one just analysed (dependents, closed files)."""
        for path in sorted(paths):
            uri = self._open_paths.get(path)
            if uri is not None:
                doc = self.server.store.get(uri)
                if doc is None or self._analysed.get(uri) != doc.serial:
                    continue  # an analysis of the newer version is queued and will report
                report = self._report(uri, doc.path, doc, self._findings(path),
                                      self.workspace.analysis(path))
                report.dependent = True
                self._deliver(report)
                continue
            analysis = self.workspace.analysis(path)
            findings = self._findings(path) if analysis is not None or \
                self.workspace.problem(path) is not None else []
            report = self._report(path_to_uri(path), path, None, findings, analysis)
            report.dependent = True
            self._deliver(report)

    def _deliver(self, report: Report) -> None:
        self.server.post(self.server.diagnostics.deliver, report)

    def mapper_for(self, path: Path) -> PositionMapper:
        """Positions in another file: its open buffer, else its text on disk."""
        key = normalize(path)
        uri = self._open_paths.get(key)
        doc = self.server.store.get(uri) if uri else None
        if doc is not None:
            return doc.mapper(self.server.encoding)
        return self._disk.mapper(key, self.server.encoding)

    # ------------------------------------------------------------------ indexing
    def reindex(self, roots: list[Path], settings: Settings) -> None:
        """Build a new index in the background; install it when complete (any thread)."""
        with self._cond:
            self.generation += 1
            job = IndexJob(list(roots), settings, self.generation)
            self.roots = list(roots)
        if not self.ready and settings != self.settings:
            self.task(lambda: self._early_settings(settings))
        indexing.start(self, job, self.server.progress_reporter)

    def open_snapshot(self) -> Snapshot:
        """The open documents as last analysed, with the options they were analysed with
        (engine thread)."""
        out: Snapshot = []
        for path, uri in self._open_paths.items():
            doc = self.server.store.get(uri)
            analysed = self.analyses.get(uri)
            if doc is not None and analysed is not None and analysed[0] == doc.serial:
                out.append((path, doc.text, analysed[1], self.workspace.options(path)))
        return out

    def install(self, job: IndexJob, workspace: EditorWorkspace) -> None:
        """Make a complete index the live one, unless a newer one is on its way (engine thread)."""
        if job.generation != self.generation:
            return  # settings changed again while indexing: a newer index is on its way
        interim, first = self.workspace, not self.ready  # the open documents' own index
        forget_ahead()  # a split kept by `lsp.early` for a document never analysed (closed)
        before = set(interim.reported_files())
        self.settings = job.settings
        self.workspace = workspace
        self.ready = True
        for path in workspace.skipped - self.open_paths():
            workspace.refresh(path)  # left out as open, closed since: read it now
        for path, uri in list(self._open_paths.items()):
            doc = self.server.store.get(uri)
            if doc is None:
                continue
            serial, analysis = self.analyses.get(uri, (None, None))
            if serial == doc.serial and workspace.is_open(path) and \
                    workspace.analysis(path) is analysis:
                continue  # adopted at this very version
            if first and serial == doc.serial and analysis is not None and \
                    interim.options(path) == workspace.options(path):
                workspace.adopt(path, doc.text, analysis)  # opened while indexing
            else:
                workspace.set_text(path, doc.text, self._caches.setdefault(uri, CaseCache()))
            self._analysed[uri] = doc.serial
            self.analyses[uri] = (doc.serial, workspace.analysis(path))
        for doc in self.server.store.all():
            if doc.path is None:
                self.analyse(doc.uri, force=True)
        after = set(workspace.reported_files())
        self._report_paths(set(self._open_paths))  # the open documents first, at once
        with self._cond:  # then every other file, one job each, after any editing work
            self._to_report.clear()
            for path in sorted((before | after) - set(self._open_paths)):
                self._to_report[path] = None
            self._cond.notify()
        if gc.isenabled():
            gc.freeze()  # the index is long-lived: keep the collector from rescanning it
        self.server.post(self.server.diagnostics.index_installed)

    def _early_settings(self, settings: Settings) -> None:
        """Settings that arrive before the first index: the open documents' interim index
        takes them at once (engine thread)."""
        if self.ready:
            return
        self.settings = settings
        self.workspace = EditorWorkspace([], settings, self.today, mapper=self.map_cases)
        for uri in list(self._open_paths.values()):
            self.analyse(uri, force=True)

    def configure(self, settings: Settings) -> None:
        """New editor settings: re-index with them (settings change rarely)."""
        self.reindex(self.roots, settings)

    def reload(self) -> None:
        """The configuration file changed."""
        self.reindex(self.roots, self.settings)


def _order(finding: Finding) -> tuple[int, int, int, int, str, str]:
    """(start, end, code, message) as flat ints and strings: compared in C (see
    `workspace.index.sort_unique`)."""
    start, end = finding.span.start, finding.span.end
    return start.line, start.character, end.line, end.character, finding.code, finding.message
