"""Spread a large dataset's cases over the CPU cores.

The CLI is single-threaded, so it forks: workers start in milliseconds with everything already
imported. The language server has threads and never forks; it keeps one spawned worker warm
instead (`CasePool`). The process machinery is imported when a list is long enough to spread,
not with this module: `evalyaml check` of a small workspace never pays for it.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from evalyaml import claims
from evalyaml.core.options import Options
from evalyaml.formats import ANALYZE_ITEMS as analyze_case_texts
from evalyaml.formats import ITEMS_KEY as items_key
from evalyaml.syntax.record import record

if TYPE_CHECKING:
    import logging
    from concurrent.futures import Future, ProcessPoolExecutor

    from evalyaml.core.incremental import CaseMapper, CaseResult
    from evalyaml.core.kinds import Kind

PARALLEL_FROM = 2_000
"""Below this many cases a second process costs more than it saves."""

WORKER_TIMEOUT = 120.0
"""Seconds the language server waits for its case worker before doing the work itself."""

SHARE_CASES = 250
"""Cases per share of a large document (`CasePool.map`): small enough that the two sides finish
within a share of each other, large enough that a share's round trip is a small part of it."""

def _workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def case_mapper() -> CaseMapper | None:
    """A mapper over all cores, or None where that would not help (one core)."""
    if _workers() < 2:
        return None
    return _map_in_processes


def _map_in_processes(texts: list[str], options: Options, lines: list[int]
                      ) -> list[CaseResult | None]:
    """Forks only for a long list, where fork exists (else one case after another). Each
    process places its results on their lines (`CaseResult.at`), in parallel."""
    workers = _workers()
    if len(texts) < PARALLEL_FROM:
        return analyze_case_texts(texts, options)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return analyze_case_texts(texts, options)
    size = -(-len(texts) // workers)
    chunks = [(texts[i : i + size], lines[i : i + size]) for i in range(0, len(texts), size)]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=len(chunks), mp_context=context) as pool:
        futures = [pool.submit(_placed_share, *chunk, options) for chunk in chunks[1:]]
        results = _placed_share(*chunks[0], options)  # this process works too
        for future in futures:
            results.extend(future.result())
    return results


def _placed_share(texts: list[str], lines: list[int], options: Options
                  ) -> list[CaseResult | None]:
    return _at_lines(analyze_case_texts(texts, options), lines)


def _at_lines(results: list[CaseResult | None], lines: list[int]) -> list[CaseResult | None]:
    return [None if result is None else result.at(line)
            for result, line in zip(results, lines, strict=True)]


Shipped = tuple[bytes, list["Kind"]] | list["CaseResult | None"] | str
"""A share's results as the worker sends them: `core.wire`'s encoding, or the objects; or
`claims.SKIPPED`, for a share the server took (`claims`)."""


def _analyse_in_worker(texts: list[str], options: Options, slot: int | None = None
                       ) -> Shipped:
    """A share's results, encoded for the trip back (`core.wire`: a third of the worker's
    time went to pickling them)."""
    from evalyaml.core.wire import encode

    if not claims.start(slot):
        return claims.SKIPPED
    collecting = gc.isenabled()
    gc.disable()  # the job only builds results: the collector would rescan them for nothing
    try:
        results = analyze_case_texts(texts, options)
        return encode(results) or results
    finally:
        if collecting:
            gc.enable()


def _received(shipped: Shipped, texts: list[str], lines: list[int], options: Options
              ) -> list[CaseResult | None]:
    """A share's results from the worker, placed on `lines`; analysed here if it skipped them
    (see `claims`)."""
    if isinstance(shipped, str):
        return _placed_share(texts, lines, options)
    if isinstance(shipped, tuple):
        from evalyaml.core.wire import decode

        return decode(shipped, lines)
    return _at_lines(shipped, lines)


PREFETCHED = 4
"""Documents whose cases may wait, sent ahead, for their analysis (tabs restored at start)."""

PARENT_POLL = 1.0
"""Seconds between a worker's looks at whether the server that spawned it is still there."""


def _start_worker(server: int, board: object) -> None:
    """A worker's initializer: the claim board (`claims`), and a watch on its server."""
    claims.attach(board)
    _exit_with(server)


def _exit_with(server: int) -> None:
    """Exit when the server is gone. A server killed outright (an editor's SIGKILL, a crash)
    never shuts its pool down, and its worker, waiting for work on a pipe nobody writes to,
    would otherwise stay for good."""
    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_POLL)
        os._exit(0)

    threading.Thread(target=watch, name="evalyaml-parent-watch", daemon=True).start()


WARM_CASE = ("  - id: warm\n    input: up\n    expected: not a mapping\n"
             "    expected_facts: not a list\n    expected_tools: 1\n"
             "    rubric_ref: rubric/Not-Snake@x\n    criteria: [1]\n    bundle: 2\n")
"""A case with a mistake in each field: what it takes to build jsonschema's validators, each
property's own (`contract.schemas.PropertyDescent`) and the reporter's paths."""


def _warm_up() -> None:
    """Import everything and build the validators, so the first real job pays for neither (a
    valid case would build none: the precheck vouches for it). Measured: a first share of 250
    findings-heavy cases took 222 ms after the old warm-up of a valid case, 72 ms after this
    one; the next share takes 57 ms."""
    _analyse_in_worker([WARM_CASE], Options())


class CasePool:
    """One worker process the language server keeps warm for large documents: their cases are
    analysed partly in the engine thread, partly in the worker, in shares both sides draw from
    the two ends of the document (`map`).

    Spawned, never forked: the server has threads, and forking a threaded process can deadlock.
    A spawned interpreter needs about 0.4 s to import evalyaml, so the pool is started ahead
    of need (when the workspace holds large files); a worker still starting only takes fewer
    shares, and when it breaks every case is analysed in the calling thread: the pool can make
    an analysis faster, never fail it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._warm: Future[None] | None = None
        self._broken = False
        self._board: claims.Board | None = None
        self._prefetched: list[_Prefetch] = []  # oldest first, at most `PREFETCHED`

    def start(self) -> None:
        """Start the worker in the background (any thread; later calls do nothing)."""
        with self._lock:
            if self._pool is not None or self._broken or _workers() < 2:
                return
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context("spawn")
            try:
                board: claims.Board | None = claims.Board(context)
            except OSError:  # no shared memory here: handed shares are waited for, as before
                board = None
            try:
                self._pool = ProcessPoolExecutor(
                    max_workers=1, mp_context=context, initializer=_start_worker,
                    initargs=(os.getpid(), board.shared if board is not None else None))
                self._warm = self._pool.submit(_warm_up)
                self._board = board
            except (OSError, RuntimeError):  # no processes here (sandbox): work in-thread
                self._pool, self._broken = None, True

    @property
    def ready(self) -> bool:
        warm = self._warm
        return self._pool is not None and warm is not None and warm.done() and \
            warm.exception() is None

    def prefetch(self, texts: list[str], options: Options, owner: str = "") -> None:
        """Start the worker on a document's cases before anyone asks for them: the language
        server does this for a large document the editor opens while the server itself is
        still being imported (`lsp.early`). A `map` of the same texts, for options the cases
        read the same, takes over whatever the worker has done or started by then; a map of
        the same texts read otherwise drops it, and so does `drop_prefetched(owner)` (the
        document, `owner`, was analysed without it). Other maps leave it be: the indexer or a
        small tab may come first. A guess: when it is wrong, the worker did some work for
        nothing, and no result ever comes from it."""
        if len(texts) < PARALLEL_FROM:
            return
        self.start()
        pool = self._pool
        if pool is None:
            return
        shares = _shares(texts)
        try:
            sent = self._send_from_the_end(pool, shares, options)
        except RuntimeError:
            self._give_up()
            return
        with self._lock:
            self._prefetched.append(_Prefetch(texts, _items_key(options), shares, sent, owner))
            dropped = self._prefetched[:-PREFETCHED]
            del self._prefetched[:-PREFETCHED]
        for old in dropped:
            old.cancel()

    def drop_prefetched(self, owner: str) -> None:
        """Forget cases sent ahead for `owner` that its analysis did not take (its text turned
        out not to be a dataset read with these options): their texts and results are not kept
        for the rest of the session."""
        with self._lock:
            dropped = [p for p in self._prefetched if p.owner == owner]
            self._prefetched = [p for p in self._prefetched if p.owner != owner]
        for old in dropped:
            old.cancel()

    def _take_prefetched(self, texts: list[str], options: Options) -> _Prefetch | None:
        """What was sent ahead for these very texts, taken out; None when nothing was, or it
        was read with other options (then it is dropped: these texts are being analysed)."""
        with self._lock:
            found = next((p for p in self._prefetched if p.texts == texts), None)
            if found is None:
                return None
            self._prefetched.remove(found)
        if found.key != _items_key(options):
            found.cancel()
            return None
        return found

    def map(self, texts: list[str], options: Options, lines: list[int], *,
            received: Received | None = None) -> list[CaseResult | None]:
        """A `CaseMapper`: the tail of a large list goes to the worker when it is warm. Every
        share's results are placed on their lines while the other side still works: this
        thread's as it makes them, the worker's as they arrive (between this thread's own
        shares), so that almost nothing is left to do once both sides are done. `received`,
        if given, is shown each share's placed results as they come, in this thread (the
        language server renders their findings then); a list this map does not spread (too
        short, no worker) is not shown."""
        pool, warm = self._pool, self._warm
        taken = self._take_prefetched(texts, options) \
            if self._prefetched and len(texts) >= PARALLEL_FROM else None
        if pool is None or warm is None or len(texts) < PARALLEL_FROM or \
                (warm.done() and warm.exception() is not None):
            if taken is not None:
                taken.cancel()
            return analyze_case_texts(texts, options)
        # A worker still starting is not waited for: this thread starts at once, and takes
        # back every share the worker has not reached by the time it gets there.
        if taken is not None:
            shares, sent = taken.shares, taken.sent
        else:
            shares = _shares(texts)
            try:
                sent = self._send_from_the_end(pool, shares, options)
            except RuntimeError:  # BrokenProcessPool is one
                self._give_up()
                return analyze_case_texts(texts, options)
        started = time.perf_counter()
        shown = _Shown(received)
        share_lines = [lines[i : i + SHARE_CASES] for i in range(0, len(lines), SHARE_CASES)]
        done: list[list[CaseResult | None] | None] = [None] * len(shares)
        theirs_next = len(shares) - 1  # the worker's next share to receive: it works backwards
        here = len(shares)
        board = self._board
        failed = False
        for index, share in enumerate(shares):
            while not failed and theirs_next > index and _arrived(sent.get(theirs_next)):
                try:
                    results = _received(sent[theirs_next][0].result(), shares[theirs_next],
                                        share_lines[theirs_next], options)
                except Exception:  # its share is done below, here; the worker is not used again
                    failed = self._failed()
                    break
                done[theirs_next] = shown(results)
                theirs_next -= 1
            theirs = sent.get(index)
            if theirs is not None and not theirs[0].cancel() and \
                    (board is None or not board.take(theirs[1])):
                here = index
                break  # the worker has started this share, so every share after it too
            done[index] = shown(_placed_share(share, share_lines[index], options))
        mine = time.perf_counter() - started
        for index in range(here, theirs_next + 1):
            try:
                results = _received(sent[index][0].result(timeout=WORKER_TIMEOUT), shares[index],
                                    share_lines[index], options)
            except Exception:  # a dead or stuck worker: do its share here, and stop using it
                failed = failed or self._failed()
                results = _placed_share(shares[index], share_lines[index], options)
            done[index] = shown(results)
        _logger().debug("%d cases: %d shares here in %.0f ms, %d by the worker%s, all after "
                        "%.0f ms", len(texts), here, mine * 1000, len(shares) - here,
                        " (sent ahead)" if taken is not None else "",
                        (time.perf_counter() - started) * 1000)
        return [result for share in done if share is not None for result in share]

    def _send_from_the_end(self, pool: ProcessPoolExecutor, shares: list[list[str]],
                           options: Options) -> Sent:
        """Queue every share but the first for the worker, last share first: the worker works
        from the end of the document towards this thread, which works from the start and
        takes back each share the worker has not started (it cancels the share, or takes it on
        the claim board: `claims`). Both finish together, however the cost of a case is split
        between analysing it and sending its findings back (a document full of findings pays
        far more for the second)."""
        board = self._board
        sent: Sent = {}
        for index in reversed(range(1, len(shares))):
            slot = board.slot() if board is not None else None
            sent[index] = (pool.submit(_analyse_in_worker, shares[index], options, slot), slot)
        return sent

    def _failed(self) -> bool:
        """Called in the `except` of a share the worker failed (dead, stuck or raising)."""
        _logger().warning("case worker failed; analysing in the server from now on",
                          exc_info=True)
        self._give_up()
        return True

    def _give_up(self) -> None:
        with self._lock:
            self._broken = True
        self.shutdown()

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


Received = Callable[[list["CaseResult | None"]], None]
"""Shown each share's placed results as `CasePool.map` gets them."""


class _Shown:
    """Each share's results shown to `received` on their way into the map: what it does with
    them is a speed-up, so its failure is logged once and it is shown nothing more."""

    def __init__(self, received: Received | None) -> None:
        self._received = received

    def __call__(self, results: list[CaseResult | None]) -> list[CaseResult | None]:
        received = self._received
        if received is not None:
            try:
                received(results)
            except Exception:
                _logger().exception("showing a share's results failed; the rest go unshown")
                self._received = None
        return results


Sent = dict[int, tuple["Future[Shipped]", "int | None"]]
"""The shares sent to the worker, by index: each one's future and its slot on the claim board."""


def _arrived(sent: tuple[Future[Shipped], int | None] | None) -> bool:
    """Whether the worker has sent this share's results (its failure is met when waited for)."""
    if sent is None:
        return False
    future = sent[0]
    return future.done() and not future.cancelled() and future.exception() is None


def _shares(texts: list[str]) -> list[list[str]]:
    return [texts[i : i + SHARE_CASES] for i in range(0, len(texts), SHARE_CASES)]


def _items_key(options: Options) -> str:
    """What the cases' findings read of the options (`formats.ITEMS_KEY`)."""
    return items_key(options)


@record
class _Prefetch:
    """Shares of one list of cases sent to the worker ahead of its `map` (`CasePool.prefetch`)."""

    texts: list[str]
    key: str
    shares: list[list[str]]
    sent: Sent
    owner: str  # the document they were sent for (`drop_prefetched`)

    def cancel(self) -> None:
        for future, _ in self.sent.values():
            future.cancel()


def _logger() -> logging.Logger:
    """`logging` is imported when a list is spread over processes, not with every check."""
    import logging

    return logging.getLogger(__name__)
