"""A JSON document that is an array of items (a promptfoo tests file as JSON), item by item: each
item's text, from the start of its first line, is checked alone (line 0) and cached by that
text, so a keystroke inside one item of 10,000 re-reads and re-checks that item only.

The first analysis (and any edit this cannot follow) parses the whole file: it must parse as
written with no finding, and each item must start on a line of its own and end on a line
before the next item starts; else the caller analyses the file whole. Each item is checked on
the whole parse's tree, moved to count from its first line (`jsonsplit.rebased`), not read
again. The items' places are
kept. After an edit that lies inside one item's text (its first line's indentation included)
and leaves that text one JSON value with no finding, the whole-file parser would read every
other byte as before, so the last results are reused with that item's replaced, the ones below
moved by the lines it gained or lost.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from evalyaml.core.findings import FindingSink
from evalyaml.syntax.json import parse_json, read_json
from evalyaml.syntax.jsonsplit import rebased
from evalyaml.syntax.lines import LineResult
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Node, Sequence
from evalyaml.syntax.yaml.segments import changed_region

T = TypeVar("T")


class ItemRules(Protocol[T]):
    @property
    def context(self) -> Hashable: ...

    def check(self, parsed: ParsedText, item: Node, index: int) -> LineResult[T]:
        """One item: `parsed` is its text alone (from its line's start), `item` its tree."""

    def quotes_place(self, result: LineResult[T]) -> bool:
        """Whether `result` reads the item's index (then it serves that index only)."""

    def shift(self, facts: T, lines: int) -> T: ...


@dataclass(frozen=True, slots=True)
class _Last(Generic[T]):
    text: str
    context: Hashable
    starts: list[int]  # each item's text: from its first line's start ...
    ends: list[int]  # ... to just past its value
    lines: list[int]  # its first line
    placed: list[LineResult[T]]


class ItemsState(Generic[T]):
    """One open document's items (`CaseCache.format_state`)."""

    def __init__(self, capacity: int = 50_000) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[tuple[Hashable, int, str], LineResult[T]] = OrderedDict()
        self._last: _Last[T] | None = None
        self.checked = 0  # items checked, not found in the cache (for the tests)

    def result(self, rules: ItemRules[T], text: str, index: int, tree: Node | None
               ) -> LineResult[T] | None:
        """`text`'s result (relative); None when it is not one JSON value with no finding."""
        found = self._entries.get((rules.context, -1, text)) or \
            self._entries.get((rules.context, index, text))
        if found is not None:
            return found
        if tree is None:
            sink = FindingSink(strict=False)
            tree = read_json(text, sink)
            if tree is None or sink.findings:
                return None
        found = rules.check(ParsedText(text, LineIndex(text), [tree], ok=True), tree, index)
        self.checked += 1
        self._entries[(rules.context, index if rules.quotes_place(found) else -1, text)] = found
        if len(self._entries) > self.capacity:
            self._entries.popitem(last=False)
        return found


def analyze_json_items(text: str, rules: ItemRules[T], state: ItemsState[T] | None
                       ) -> list[LineResult[T]] | None:
    """Every item's result placed in the file, in order; None: analyse the file whole."""
    state = state if state is not None else ItemsState()
    last = state._last
    if last is not None and last.context == rules.context:
        if text == last.text:
            return last.placed
        after = _after_edit(text, rules, state, last)
        if after is not None:
            return after
    state._last = None
    return _all(text, rules, state)


def _all(text: str, rules: ItemRules[T], state: ItemsState[T]) -> list[LineResult[T]] | None:
    sink = FindingSink(strict=False)
    parsed = parse_json(text, sink)
    root = parsed.documents[0] if parsed.documents else None
    if not parsed.ok or sink.findings or not isinstance(root, Sequence):
        return None
    lines = parsed.lines
    starts, ends, firsts, placed = [], [], [], []
    below = -1  # the last line of the item before
    for index, item in enumerate(root.items):
        line = lines.position(item.start).line
        start = lines.line_start(line)
        if line <= below or text[start : item.start].strip(" \t"):
            return None
        end = item.end
        result = state.result(rules, text[start:end], index, rebased(item, start))
        if result is None:
            return None
        starts.append(start)
        ends.append(end)
        firsts.append(line)
        placed.append(_placed(rules, result, line))
        below = lines.position(end).line
    state._last = _Last(text, rules.context, starts, ends, firsts, placed)
    return placed


def _after_edit(text: str, rules: ItemRules[T], state: ItemsState[T], last: _Last[T]
                ) -> list[LineResult[T]] | None:
    old = last.text
    start, old_end, new_end = changed_region(old, text)
    index = bisect_right(last.starts, start) - 1
    if index < 0 or old_end > last.ends[index]:
        return None
    grown = new_end - old_end
    item_text = text[last.starts[index] : last.ends[index] + grown]
    if "\r" in item_text or "\r" in old[start:old_end]:
        return None
    result = state.result(rules, item_text, index, None)
    if result is None:
        return None
    lines = item_text.count("\n") - old[last.starts[index] : last.ends[index]].count("\n")
    placed = list(last.placed)
    placed[index] = _placed(rules, result, last.lines[index])
    starts, ends, firsts = last.starts, list(last.ends), last.lines
    ends[index] += grown
    if grown:
        starts = [*starts[: index + 1], *(s + grown for s in starts[index + 1 :])]
        ends = [*ends[: index + 1], *(e + grown for e in ends[index + 1 :])]
    if lines:
        firsts = [*firsts[: index + 1], *(n + lines for n in firsts[index + 1 :])]
        for n in range(index + 1, len(placed)):
            placed[n] = LineResult(tuple(f.shifted(lines) for f in placed[n].findings),
                                   rules.shift(placed[n].facts, lines))
    state._last = _Last(text, rules.context, starts, ends, firsts, placed)
    return placed


def _placed(rules: ItemRules[T], result: LineResult[T], line: int) -> LineResult[T]:
    if not line:
        return result
    return LineResult(tuple(f.shifted(line) for f in result.findings),
                      rules.shift(result.facts, line))
