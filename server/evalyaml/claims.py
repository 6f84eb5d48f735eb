"""Who analyses a share of cases: the language server's case worker, or the server itself.

`concurrent.futures` hands a process worker its next call before the current one is done (the
call queue holds one more than there are workers) and marks that call running, so it can no
longer be cancelled. Where the server's engine thread meets the worker in a large document
(`parallel.CasePool.map`), the share the worker has been handed but not started could only be
waited for: one whole share, 60-75 ms, after the engine had run out of work. A claim board in
shared memory settles it instead: the worker marks a share started as it starts it, and skips
a share the server has marked taken; the server takes a share only if it is not started.

No lock: the two marks may cross (each side reads the other's slot empty, then writes its own),
and then both analyse the share. The server uses its own results and never waits for a share
it took, so a crossing costs the worker one share of work, and nothing else.

Slots go round a fixed board (`SLOTS`); a share's slot is cleared when it is given out, long
after any share that had it last was done (a map waits for its shares; `SLOTS` is many maps).
A share the worker skipped but the server did not take (a slot given out again meanwhile) comes
back as `SKIPPED`, and the server analyses it itself.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from multiprocessing.context import SpawnContext

SLOTS: Final = 4096
"""Shares that can be out at once: a 10,000-case document has 40."""

_FREE, _STARTED, _TAKEN = 0, 1, 2

SKIPPED: Final = "skipped: the server took this share"
"""What the worker returns for a share the board says the server took."""


class Board:
    """The server's side: hands out slots, and takes shares the worker has not started."""

    def __init__(self, context: SpawnContext) -> None:
        # Raw: each slot is one byte, written whole by one side; no lock (see the module).
        self.shared: Any = context.RawArray("b", SLOTS)
        self._next = 0
        self._lock = threading.Lock()  # slots are given out from the engine and indexer threads

    def slot(self) -> int:
        """A cleared slot for the next share sent to the worker."""
        with self._lock:
            slot, self._next = self._next, (self._next + 1) % SLOTS
        self.shared[slot] = _FREE
        return slot

    def take(self, slot: int | None) -> bool:
        """Whether the server may analyse this share itself: the worker has not started it,
        and will skip it if it gets to it (a share sent with no slot is never taken)."""
        if slot is None or self.shared[slot] != _FREE:
            return False
        self.shared[slot] = _TAKEN
        return True


_worker_board: list[Any] = []  # the worker's view of the board, set by `attach`


def attach(shared: Any) -> None:
    """In the worker, at start: the board its shares are marked on (None: there is none, and
    the worker analyses every share it is handed)."""
    _worker_board[:] = [shared] if shared is not None else []


def start(slot: int | None) -> bool:
    """In the worker, before a share: whether to analyse it (False: the server took it)."""
    if slot is None or not _worker_board:
        return True
    shared = _worker_board[0]
    if shared[slot] == _TAKEN:
        return False
    shared[slot] = _STARTED
    return True
