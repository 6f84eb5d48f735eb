"""Read and analyse files for the index, in this process or, for a cold index, in several.

Analysis is pure (text in, `FileAnalysis` out) and dominated by schema validation, so a cold
index of thousands of files scales with the number of processors. Worker processes are started
with `spawn`, never `fork`: the language server has threads, and forking a threaded process can
deadlock. Starting workers costs a few hundred milliseconds, so small workspaces are analysed in
this process; if workers cannot be started at all, everything falls back to this process.
"""

from __future__ import annotations

import gc
import hashlib
import os
import stat
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_bytes
from evalyaml.formats import claim, format_of
from evalyaml.formats.base import HEAD_BYTES, Refusal
from evalyaml.syntax.decode import decode
from evalyaml.syntax.text import Span

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseMapper

# Below this many files, starting worker processes costs more than it saves.
PARALLEL_THRESHOLD = 400
_BATCH = 64


@dataclass(frozen=True, slots=True)
class Job:
    path: Path
    options: Options
    explicit: bool = False
    forced_kind: Kind | None = None


@dataclass(slots=True)
class Loaded:
    path: Path
    analysis: FileAnalysis | None
    error: str | None = None  # why the file could not be read
    digest: bytes | None = None  # `digest_of` the text analysed (None: not analysed as text)


@dataclass(slots=True)
class Entry:
    """One path in the index's file table."""

    analysis: FileAnalysis | None  # None: the file (or folder) could not be read
    problem: Finding | None = None  # EY311
    text: str | None = None  # the editor's buffer while the file is open
    digest: bytes | None = None  # `digest_of` the disk text analysed, if one was


def unreadable(message: str) -> Finding:
    """EY311 at the start of a file or folder that could not be read."""
    sink = FindingSink(strict=False)
    sink.add("EY311", message, Span.point(0, 0))
    return sink.findings[0]


def entry_of(loaded: Loaded) -> Entry:
    if loaded.error is not None:
        return Entry(None, unreadable(f"cannot read this file ({loaded.error}); anything "
                                      "it defines is missing from the workspace"))
    return Entry(loaded.analysis, digest=loaded.digest)


def digest_of(text: str) -> bytes:
    """A fingerprint of a text: an editor buffer with the digest of the disk text the index
    analysed gets the index's analysis instead of a second one (`Workspace.open_unchanged`)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def load(job: Job, mapper: CaseMapper | None = None) -> Loaded:
    """`mapper` spreads one large dataset's cases over processes (the CLI's, in-process only).

    Only regular files are read (a FIFO named `x.yaml` would block the read forever), and no
    more of a file than the size limit needs (a 10 GB file is not loaded to be refused)."""
    limit = job.options.max_file_bytes
    try:
        info = job.path.stat()
        if not stat.S_ISREG(info.st_mode):
            return Loaded(job.path, None, "not a regular file")
        with job.path.open("rb") as handle:
            data = handle.read(HEAD_BYTES if info.st_size > limit else limit + 1)
    except OSError as err:
        reason = err.strerror or str(err)
        if job.path.is_symlink() and not job.path.exists():
            reason = "a broken or looping symbolic link"
        return Loaded(job.path, None, reason)
    if info.st_size > limit and job.forced_kind is None:
        streamed = _stream(job, data)
        if streamed is not None:
            return Loaded(job.path, streamed)
    analysis = analyze_bytes(data, str(job.path), job.options, explicit=job.explicit,
                             forced_kind=job.forced_kind, mapper=mapper,
                             size=info.st_size if info.st_size > limit else None)
    digest = None
    if info.st_size <= limit:
        text, problem = decode(data)  # what analyze_bytes gave analyze_text
        if problem is None:
            digest = digest_of(text)
    return Loaded(job.path, analysis, digest=digest)


def _stream(job: Job, head: bytes) -> FileAnalysis | None:
    """A file over the size limit whose format reads it as a stream (`analyze_stream`: line
    files such as an Every Eval Ever samples file), in bounded memory; None: EY107 as before."""
    verdict = claim(head.decode("utf-8", errors="replace"), str(job.path), job.options.root)
    if verdict is None or isinstance(verdict, Refusal):
        return None
    fmt = format_of(verdict.kind)
    try:
        with job.path.open("rb") as handle:
            found = fmt.analyze_stream(handle, str(job.path), verdict.kind, job.options)
    except OSError:
        return None
    return found


def _load_batch(jobs: Sequence[Job]) -> list[Loaded]:
    gc.disable()  # a worker only builds results; the collector would rescan them for nothing
    return [load(job) for job in jobs]


def default_workers(count: int) -> int:
    if count < PARALLEL_THRESHOLD:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8))


def load_all(jobs: Sequence[Job], *, workers: int | None = None,
             progress: Callable[[int], None] | None = None,
             mapper: CaseMapper | None = None) -> list[Loaded]:
    """Every job's result, in order; `progress(n)` after each `n` more files are done."""
    count = default_workers(len(jobs)) if workers is None else max(1, workers)
    if count > 1:
        try:
            return _parallel(jobs, count, progress)
        except (OSError, RuntimeError):  # BrokenProcessPool is a RuntimeError
            pass  # no processes here (sandbox, frozen app...): do it ourselves
    out: list[Loaded] = []
    for job in jobs:
        out.append(load(job, mapper))
        if progress is not None:
            progress(1)
    return out


def _parallel(jobs: Sequence[Job], count: int, progress: Callable[[int], None] | None
              ) -> list[Loaded]:
    import multiprocessing  # here: a one-file check never starts a pool
    from concurrent.futures import ProcessPoolExecutor

    batches = [list(jobs[i : i + _BATCH]) for i in range(0, len(jobs), _BATCH)]
    single_threaded = threading.active_count() == 1
    method = "fork" if single_threaded and "fork" in multiprocessing.get_all_start_methods() \
        else "spawn"
    context = multiprocessing.get_context(method)
    out: list[Loaded] = []
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        for batch in pool.map(_load_batch, batches):
            out.extend(batch)
            if progress is not None:
                progress(len(batch))
    return out
