"""Spread a large dataset's cases over the CPU cores, for the command line.

Only the CLI uses this: it is single-threaded, so forking is safe and workers start in
milliseconds with everything already imported. The language server never forks.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from evalyaml.analysis.dataset import CaseMapper, CaseResult, analyze_case_texts
from evalyaml.analysis.options import Options

PARALLEL_FROM = 2_000
"""Below this many cases a second process costs more than it saves."""


def _workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def case_mapper() -> CaseMapper | None:
    """A mapper over all cores, or None where that would not help (one core, no fork)."""
    if _workers() < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    return _map_in_processes


def _map_in_processes(texts: list[str], options: Options) -> list[CaseResult | None]:
    workers = _workers()
    if len(texts) < PARALLEL_FROM:
        return analyze_case_texts(texts, options)
    size = -(-len(texts) // workers)
    chunks = [texts[i : i + size] for i in range(0, len(texts), size)]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=len(chunks), mp_context=context) as pool:
        futures = [pool.submit(analyze_case_texts, chunk, options) for chunk in chunks[1:]]
        results = analyze_case_texts(chunks[0], options)  # this process works too
        for future in futures:
            results.extend(future.result())
    return results
