"""The indexer thread: a complete index of the workspace, built in the background.

One thread per (re)index. It first gives the engine the processor until the documents the client
opened with the workspace are analysed and published, then adopts their analyses (when made with
the same options, they are not read or analysed again), indexes every other file (in worker
processes for a large workspace: `index.index_workers`) while reporting progress, and hands the
index to the engine as a task. The engine installs it unless a newer index was started meanwhile
(`IndexJob.generation`). The indexer sees the engine through `IndexerHost` only.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Protocol

from evalyaml.core.incremental import CaseResult
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.lsp import early
from evalyaml.lsp.index import EditorWorkspace, index_workers
from evalyaml.lsp.settings import Settings
from evalyaml.parallel import CasePool
from evalyaml.workspace.loading import Pause

log = logging.getLogger("evalyaml.lsp.engine")  # the engine's log, as it always was

Snapshot = list[tuple[Path, str, FileAnalysis | None, Options]]
"""Open documents as last analysed: path, text, analysis, and the options it was made with."""


@dataclass(slots=True)
class IndexJob:
    """One (re)index: its roots and settings, and its place in the order of re-indexes."""

    roots: list[Path]
    settings: Settings
    generation: int
    token: str = field(default="")


class ProgressSink(Protocol):
    """Progress of one long job, from any thread (`progress.Progress`)."""

    def report(self, done: int, total: int) -> None: ...
    def done(self, message: str) -> None: ...


class IndexerHost(Protocol):
    """What the indexer needs of the engine (`engine.Engine`)."""

    @property
    def today(self) -> date | None: ...
    @property
    def case_pool(self) -> CasePool: ...
    def map_cases(self, texts: list[str], options: Options, lines: list[int]
                  ) -> list[CaseResult | None]: ...
    def idle(self) -> bool: ...
    def documents_pending(self) -> bool: ...
    def open_paths(self) -> set[Path]: ...
    def task(self, job: Callable[[], None]) -> None: ...
    def open_snapshot(self) -> Snapshot: ...
    def install(self, job: IndexJob, workspace: EditorWorkspace) -> None: ...


OPEN_GRACE = 0.6
"""Seconds from the start of an index before it reads a large file: an editor restoring its
tabs opens them right after `initialized`, and a large file is likely one of them."""


def yielding(engine: IndexerHost, started: float) -> Pause:
    """The index's pause between chunks of files (`loading.load_yielding`): wait while open
    documents are queued or analysed, so that they are published before the index is
    complete; before a large file, until `OPEN_GRACE` too. Returns the paths open then, which
    the index leaves to the editor's analysis (`Engine.install` takes it)."""
    def pause(large_next: bool) -> set[Path]:
        deadline = time.monotonic() + 30
        grace = started + OPEN_GRACE if large_next else 0.0
        while time.monotonic() < deadline and (
                engine.documents_pending() or time.monotonic() < grace):
            time.sleep(0.01)
        return engine.open_paths()
    return pause


def start(engine: IndexerHost, job: IndexJob,
          progress_reporter: Callable[[str], ProgressSink]) -> None:
    """Index in a new thread; the engine gets the index as a task when it is complete."""
    thread = threading.Thread(target=_index, args=(engine, job, progress_reporter),
                              name="evalyaml-indexer", daemon=True)
    thread.start()


def _index(engine: IndexerHost, job: IndexJob,
           progress_reporter: Callable[[str], ProgressSink]) -> None:
    progress = progress_reporter("Indexing eval files")
    begun = time.monotonic()
    try:
        # Open documents first: give the engine the processor until the documents the
        # client opened with the workspace are analysed and published.
        time.sleep(0.05)
        deadline = time.monotonic() + 30
        while not engine.idle() and time.monotonic() < deadline:
            time.sleep(0.02)
        log.debug("indexing starts (engine idle: %s)", engine.idle())
        early.resume_collector()  # off since the import: the first documents are published
        started = time.perf_counter()
        workers, large_file = index_workers(job.roots)
        if large_file:
            engine.case_pool.start()  # warm by the time the large file is analysed
        workspace = EditorWorkspace(job.roots, job.settings, engine.today,
                                    workers=workers, mapper=engine.map_cases)
        snapshot: Future[Snapshot] = Future()
        engine.task(lambda: snapshot.set_result(engine.open_snapshot()))
        try:
            adopted = snapshot.result(timeout=60)
        except TimeoutError:
            adopted = []  # the engine is stuck on something big: index them twice
        count = 0
        for path, text, analysis, options in adopted:
            if workspace.options(path) == options:  # same settings: still valid
                workspace.adopt(path, text, analysis)  # not read or analysed again
                count += 1
        log.debug("adopted %d open documents", count)
        workspace.index_all(progress=progress.report, pause=yielding(engine, begun))
        log.info("indexed %d files in %.2f s", len(workspace.paths()),
                 time.perf_counter() - started)
    except Exception:
        log.exception("indexing failed")
        progress.done("indexing failed")
        return
    progress.done(f"{len(workspace.eval_files())} eval files")
    engine.task(lambda: engine.install(job, workspace))
