"""Every item's facts laid end to end, one list per field, kept across edits: after a keystroke
in one item of 10,000 (the others' placed results are the same objects as the last time), only
that item's stretch of each list is replaced, instead of 10,000 items' facts gathered again
(AgentV's `bytest._Sums`, for any format's items or rows). After a line added or removed
(every item below the edit placed anew) the lists are kept above the first changed item and
gathered again from there.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")


class Joined(Generic[T]):
    """`fields(item)`: the item's sequences, one per field, `width` of them."""

    def __init__(self, fields: Callable[[T], Sequence[Sequence[object]]], width: int) -> None:
        self.fields = fields
        self.width = width
        self._items: list[T] = []
        self._counts: list[list[int]] = []  # per field, per item
        self._lists: list[list[object]] = []  # per field

    def update(self, items: list[T]) -> list[list[object]]:
        """The joined lists of `items` (copies: the caller may keep or change them)."""
        last = self._items
        changed: list[int] | None = None
        if self._counts and len(last) == len(items):
            changed = [i for i, (a, b) in enumerate(zip(last, items, strict=True))
                       if a is not b]
        if changed is not None and len(changed) <= 1:
            if changed:
                self._splice(changed[0], items[changed[0]])
        elif changed is not None:  # a line added or removed: the items from the first changed
            self._rejoin(changed[0], items)  # one on moved, those above are as they were
        else:
            self._counts = [[] for _ in range(self.width)]
            self._lists = [[] for _ in range(self.width)]
            self._rejoin(0, items)
        self._items = list(items)
        return [list(joined) for joined in self._lists]

    def _rejoin(self, first: int, items: list[T]) -> None:
        """Each field's list kept up to the item `first`, gathered again from there."""
        parts = [self.fields(item) for item in items[first:]]
        for n in range(self.width):
            count = self._counts[n]
            joined = self._lists[n]
            del joined[sum(count[:first]):]
            del count[first:]
            count.extend([len(p[n]) for p in parts])
            joined.extend(itertools.chain.from_iterable([p[n] for p in parts]))

    def _splice(self, index: int, item: T) -> None:
        for n, part in enumerate(self.fields(item)):
            count = self._counts[n]
            start = sum(count[:index])
            joined = self._lists[n]
            joined[start : start + count[index]] = part
            count[index] = len(part)
