"""Read and analyse files for the index, in this process or, for a cold index, in several.

Analysis is pure (text in, `FileAnalysis` out) and dominated by schema validation, so a cold
index of thousands of files scales with the number of processors. Worker processes are started
with `spawn`, never `fork`: the language server has threads, and forking a threaded process can
deadlock. Starting workers costs a few hundred milliseconds, so small workspaces are analysed in
this process; if workers cannot be started at all, everything falls back to this process.
"""

from __future__ import annotations

import contextlib
import gc
import os
import stat
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
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
from evalyaml.syntax.record import mutable_record, record
from evalyaml.syntax.text import Span

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseMapper

# Below this many files, starting worker processes costs more than it saves.
PARALLEL_THRESHOLD = 400
_BATCH = 64
LARGE_FILE = 1_000_000
"""Bytes: a file this large (about 1,500 cases) is analysed on its own, last (`load_yielding`)."""
_CHUNK_FILES = 8
_CHUNK_BYTES = 200_000

Pause = Callable[[bool], Collection[Path]]
"""Called by a yielding index between chunks of files (True: a large file is next): returns
once the documents open in the editor have had the processor, with the paths open at that
moment (normalised)."""


@record
class Job:
    path: Path
    options: Options
    explicit: bool = False
    forced_kind: Kind | None = None


@mutable_record
class Loaded:
    path: Path
    analysis: FileAnalysis | None
    error: str | None = None  # why the file could not be read
    digest: bytes | None = None  # `digest_of` the text analysed (None: not analysed as text)


@mutable_record
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


try:  # hashlib's own blake2b, without the OpenSSL library `import hashlib` loads (issue #27)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b


def digest_of(text: str) -> bytes:
    """A fingerprint of a text: an editor buffer with the digest of the disk text the index
    analysed gets the index's analysis instead of a second one (`Workspace.open_unchanged`)."""
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


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


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a cold index analyses: it would otherwise rescan
    the growing index over and over (DESIGN §4)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _size(job: Job) -> int:
    try:
        return job.path.stat().st_size
    except OSError:
        return 0


def load_yielding(jobs: Sequence[Job], pause: Pause | None, *, workers: int | None,
                  progress: Callable[[int], None] | None = None,
                  mapper: CaseMapper | None = None) -> tuple[list[Loaded], set[Path]]:
    """`load_all` for the language server's cold index, which must not delay the documents the
    editor opens meanwhile (issue #27): files are read in small chunks, smallest first, and
    `pause` runs before each chunk, so an open document is analysed between two chunks instead
    of after the whole index. A file open in the editor is not read at all: its buffer's
    analysis is the one the index takes. Large files come last and one at a time: they are the
    ones an editor restoring its tabs is about to open. Many files still go to `workers`
    processes (the large ones kept back). Returns the results and the paths skipped as open.
    Without `pause`, this is `load_all` (the CLI, a re-index).
    """
    if pause is None:
        return load_all(jobs, workers=workers, progress=progress, mapper=mapper), set()
    workers = workers or default_workers(len(jobs))
    sized = sorted(((_size(job), job) for job in jobs), key=lambda pair: pair[0])
    small = [job for size, job in sized if size < LARGE_FILE]
    large = [job for size, job in sized if size >= LARGE_FILE]
    skipped: set[Path] = set()
    out: list[Loaded] = []

    def drop_open(pending: list[Job], large_next: bool = False) -> list[Job]:
        opened = pause(large_next)
        kept = [job for job in pending if job.path not in opened]
        if len(kept) < len(pending):
            skipped.update(job.path for job in pending if job.path in opened)
            if progress is not None:
                progress(len(pending) - len(kept))
        return kept

    small = drop_open(small)
    if workers > 1 and len(small) >= PARALLEL_THRESHOLD:
        out += load_all(small, workers=workers, progress=progress)
        small = []
    while small:
        chunk: list[Job] = []
        total = 0
        while small and len(chunk) < _CHUNK_FILES and total < _CHUNK_BYTES:
            job = small.pop(0)
            chunk.append(job)
            total += _size(job)
        out += load_all(chunk, workers=1, progress=progress, mapper=mapper)
        small = drop_open(small)
    while large:
        large = drop_open(large, True)
        if large:
            out += load_all([large.pop(0)], workers=1, progress=progress, mapper=mapper)
    return out, skipped


def disk_holds(path: Path, text: str, options: Options) -> bytes | None:
    """`digest_of(text)` when the file holds `text` as `load` would analyse it (a regular
    file within the size limit, decoded to that very text), else None."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > options.max_file_bytes:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) > options.max_file_bytes:
        return None
    found, problem = decode(data)
    return digest_of(text) if problem is None and found == text else None
