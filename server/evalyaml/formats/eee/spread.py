"""Batches of a streamed samples file's rows checked on every core, in order.

A 100,000-row file is about 5 s of row checks on one core, and each row is checked from its
text alone, so the CLI hands batches of lines to forked workers while it reads the next ones.
Forking is only safe in a process with one thread that is not itself a worker: the CLI. The
language server has threads and reads a large file on one core, as before. At most two batches
per worker are in flight, so memory stays bounded however long the file is.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future

T = TypeVar("T")
R = TypeVar("R")

BATCH_ROWS = 2_000
"""Rows a worker checks at a time: enough that sending them costs little beside checking."""


def workers() -> int:
    """How many processes may check rows here: 1 where forking is not safe or cannot help.
    (The process modules are imported here, when a samples file is met, not at start-up.)"""
    import multiprocessing

    if threading.active_count() != 1 or multiprocessing.parent_process() is not None \
            or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def map_in_order(work: Callable[[list[T]], list[R]], batches: Iterable[list[T]],
                 count: int) -> Iterator[list[R]]:
    """`work(batch)` for each batch, in forked processes, yielded in the batches' order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        pending: deque[Future[list[R]]] = deque()
        for batch in batches:
            pending.append(pool.submit(work, batch))
            if len(pending) >= 2 * count:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
