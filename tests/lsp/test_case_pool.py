"""The language server's case worker: a speed-up that may never change a finding or fail an
analysis. Real spawned processes, no mocks."""

from __future__ import annotations

import os
import runpy
import signal
import subprocess
import sys
import time
from datetime import date

import pytest

from evalyaml.core.incremental import CaseResult, PlacedCase, place
from evalyaml.core.options import Options
from evalyaml.formats.contract.dataset import analyze_case_texts
from evalyaml.parallel import PARALLEL_FROM, SHARE_CASES, CasePool

OPTIONS = Options(today=date(2026, 11, 21))


def lines_of(texts: list[str]) -> list[int]:
    """Each case's line in a file where they follow a two-line header."""
    lines, line = [], 2
    for text in texts:
        lines.append(line)
        line += text.count("\n")
    return lines


def mapped(pool: CasePool, texts: list[str], options: Options = OPTIONS
           ) -> list[PlacedCase | None]:
    """The pool's results placed on their lines, as the dataset analysis places them (a
    mapper may hand back a result on its case's line or on line 0)."""
    lines = lines_of(texts)
    return placed(pool.map(texts, options, lines), lines)


def placed(results: list[CaseResult | None], lines: list[int]) -> list[PlacedCase | None]:
    return [None if r is None else place(r, line) for r, line in zip(results, lines, strict=True)]


def here(texts: list[str], options: Options = OPTIONS) -> list[PlacedCase | None]:
    """What one pass in this process gives, placed."""
    return placed(analyze_case_texts(texts, options), lines_of(texts))


def case_texts(count: int) -> list[str]:
    bodies = [
        "  - id: c{n}\n    input: What is {n}+{n}? 😀 東京\n    rubric_ref: rubric/tone@1.0.0\n",
        "  - id: c{n}\n    input: x\n    expecteed_facts: [a]\n",
        "  - id: c{n}\n    criteria: no input\n",
        "  - id: c{n}\n    input: \"unclosed\n",
    ]
    return [bodies[n % len(bodies)].format(n=n) for n in range(count)]


@pytest.fixture
def pool() -> CasePool:
    started = CasePool()
    started.start()
    deadline = time.monotonic() + 60
    while not started.ready and time.monotonic() < deadline:
        time.sleep(0.02)
    assert started.ready, "the worker did not start"
    yield started  # type: ignore[misc]
    started.shutdown()


def test_the_worker_gives_the_same_results_as_this_process(pool: CasePool) -> None:
    texts = case_texts(PARALLEL_FROM + 101)
    expected = here(texts)
    assert any(r is not None and r.findings for r in expected)  # something to compare
    lines = lines_of(texts)
    results = pool.map(texts, OPTIONS, lines)
    assert placed(results, lines) == expected
    shown: list[CaseResult | None] = []
    again = pool.map(texts, OPTIONS, lines, received=shown.extend)
    assert again == results
    # each result shown once, in the share it came in
    assert sorted(map(id, shown)) == sorted(map(id, again))
    # every result comes back on its line already, whichever side made it: placing is free
    assert [r.line for r in results if r is not None] == \
        [line for r, line in zip(results, lines, strict=True) if r is not None]


def test_a_worker_still_starting_gives_the_same_results() -> None:
    """The engine does not wait for a cold worker: it takes back the shares not yet reached."""
    cold = CasePool()
    cold.start()
    try:
        texts = case_texts(PARALLEL_FROM * 2 + 3)
        assert mapped(cold, texts) == here(texts)
    finally:
        cold.shutdown()


def test_a_dead_worker_costs_time_never_results(pool: CasePool) -> None:
    texts = case_texts(PARALLEL_FROM + 7)
    processes = pool._pool._processes  # type: ignore[union-attr]
    assert processes, "a warm pool has its worker"
    for process in list(processes.values()):
        process.kill()
        process.join()
    # The executor's own thread notices the death a moment later; until then a map may take
    # every share back on the claim board and never read a failure (right results, later give up).
    deadline = time.monotonic() + 10
    while not pool._pool._broken and time.monotonic() < deadline:  # type: ignore[union-attr]
        time.sleep(0.01)
    assert mapped(pool, texts) == here(texts)
    assert not pool.ready  # given up: later analyses stay in this process
    assert mapped(pool, texts[:10]) == here(texts[:10])


def test_a_share_handed_to_a_busy_worker_but_not_started_is_analysed_here(pool: CasePool
                                                                         ) -> None:
    """The executor hands the worker its next share before the current one is done, and that
    share can no longer be cancelled. The analysis takes it back on the claim board instead of
    waiting for it: here the worker is busy for 10 s, and the map does not wait."""
    busy = pool._pool.submit(time.sleep, 10)  # type: ignore[union-attr]
    try:
        texts = case_texts(PARALLEL_FROM + 3 * SHARE_CASES)
        assert mapped(pool, texts) == here(texts)
        assert not busy.done(), "the analysis waited for the busy worker"
    finally:
        busy.result(timeout=60)  # not killed: a pool shut down over a dead worker races itself


def test_a_share_the_worker_skipped_is_analysed_here(pool: CasePool) -> None:
    """A share the worker skips (its slot on the board says the server took it, though this
    map did not) comes back as skipped, and the map analyses it itself."""
    busy = pool._pool.submit(time.sleep, 0.5)  # type: ignore[union-attr]
    texts = case_texts(PARALLEL_FROM + 5)
    pool.prefetch(texts, OPTIONS)
    handed = pool._prefetched[0].sent  # the last share was sent first: the worker's next
    last = max(handed)
    assert pool._board is not None and pool._board.take(handed[last][1])
    busy.result(timeout=30)
    assert mapped(pool, texts) == here(texts)


def test_cases_sent_ahead_are_taken_over_by_the_analysis_that_asks_for_them() -> None:
    """`prefetch` (a large tab opened while the server is imported) starts the worker on the
    cases; the engine's `map` of the same cases takes its shares, done or not, and the results
    are those of one pass here."""
    early = CasePool()
    try:
        texts = case_texts(PARALLEL_FROM * 2 + 3)
        early.prefetch(texts, Options())  # the bootstrap's guess: default options
        small = case_texts(3)  # a small dataset analysed first (the indexer, a small tab)
        assert mapped(early, small) == here(small)
        assert early._prefetched  # left for the document it was sent for
        assert mapped(early, texts) == here(texts)
        assert not early._prefetched  # taken, not left for a later analysis
    finally:
        early.shutdown()


@pytest.mark.parametrize("other", ["strict", "other texts"])
def test_cases_sent_ahead_for_a_wrong_guess_are_dropped(other: str) -> None:
    """Read with other options, or other texts asked for: the shares sent ahead give nothing."""
    early = CasePool()
    try:
        texts = case_texts(PARALLEL_FROM + 11)
        early.prefetch(texts, Options())
        if other == "strict":
            strict = Options(strict=True, today=OPTIONS.today)
            expected = here(texts, strict)
            assert expected != here(texts)  # strict reads differently
            assert mapped(early, texts, strict) == expected
            assert not early._prefetched  # the same texts read otherwise: dropped
        else:
            changed = [*texts[:-1], "  - id: last\n    input: changed\n"]
            assert mapped(early, changed) == here(changed)
            assert early._prefetched  # another text's: left for its own analysis
            early.drop_prefetched("")
    finally:
        early.shutdown()


def test_a_spawned_worker_importing_the_main_module_starts_no_command() -> None:
    # `python -m evalyaml lsp` spawns workers that import evalyaml.__main__ as __mp_main__;
    # without the guard each would start a second server on the same stdin.
    namespace = runpy.run_module("evalyaml.__main__", run_name="__mp_main__")
    assert "main" in namespace


HOLDER = """
import sys, time
from evalyaml.parallel import CasePool
if __name__ == "__main__":
    pool = CasePool()
    pool.start()
    while not pool.ready:
        time.sleep(0.02)
    print(*pool._pool._processes, flush=True)
    time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_worker_leaves_when_its_server_is_killed(tmp_path: object) -> None:
    """An editor that kills the server outright (SIGKILL: no shutdown, no pool clean-up) must
    not leave its case worker behind, waiting on a pipe for good."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        worker = int(holder.stdout.readline().split()[0])
        assert _alive(worker)
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        deadline = time.monotonic() + 15
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(worker), "the worker outlived its server"
    finally:
        holder.kill()


def test_cases_sent_ahead_for_a_document_analysed_without_them_are_forgotten() -> None:
    """A document whose analysis did not take what was sent ahead for it (not a dataset after
    all) drops it; another document's analysis leaves it be."""
    early = CasePool()
    try:
        texts = case_texts(PARALLEL_FROM + 5)
        early.prefetch(texts, Options(), owner="file:///w/big.yaml")
        early.drop_prefetched("file:///w/other.yaml")
        assert early._prefetched
        early.drop_prefetched("file:///w/big.yaml")
        assert not early._prefetched
        assert mapped(early, texts) == here(texts)
    finally:
        early.shutdown()
