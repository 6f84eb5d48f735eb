"""A JSONL file of records checked row by row, each row's result cached by its text, so that a
keystroke in one row of a 10,000-row cases file re-checks that row only.

A format gives `RowRules`: what one row says (its parse, the format's "must be an object" and
its rules, all from the row's own text on line 0, as `jsonl.parse_lone_row` reads it) and how
to move its facts down. A row's result is relative to its line and is placed on it by a shift,
as a dataset case's is; it serves the same text on any line, unless it quotes its place (a
message naming "line 12", a test labelled "test 3": `RowRules.quotes_place`), when it serves
only that place. Placed results are remembered by (result, line), so rows that did not move
build no new spans.

After an edit inside one line (no line added or removed, the line neither blank before nor
after) the last analysis is reused with that line's result replaced: no split, no look-up per
row. Anything else walks every line through the cache. The findings come row by row rather than
syntax first (`parse_jsonl` then `require_objects`): the front ends sort them (`sort_unique`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from evalyaml.syntax.lines import LineResult, split_lines
from evalyaml.syntax.yaml.segments import changed_region

T = TypeVar("T")
_BLANK = " \t"  # what `lines.analyze_lines` skips: a row of only these is no row


class RowRules(Protocol[T]):
    """One format's rows. `context`: whatever else a row's result depends on (the mode)."""

    @property
    def context(self) -> Hashable: ...

    def check(self, text: str, *, first: bool, index: int, line: int) -> LineResult[T]:
        """One row's text (no line break); `first`: the file's first line; `index`: its place
        among the non-blank rows; `line`: its line in the file. Positions on line 0."""

    def quotes_place(self, result: LineResult[T]) -> bool:
        """Whether `result` reads `index` or `line` (then it serves that place only)."""

    def shift(self, facts: T, lines: int) -> T:
        """A row's facts `lines` further down."""


@dataclass(frozen=True, slots=True)
class _Last(Generic[T]):
    text: str
    placed: list[LineResult[T] | None]  # per line; None for a blank one
    context: Hashable


class RowState(Generic[T]):
    """One open document's rows (`CaseCache.format_state`): results by row text, least recently
    used dropped first, each result's last placement, and the last analysis."""

    def __init__(self, capacity: int = 250_000) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[tuple[Hashable, bool, int, int, str], LineResult[T]] = \
            OrderedDict()
        self._placed: dict[int, tuple[LineResult[T], int, LineResult[T]]] = {}
        self._last: _Last[T] | None = None
        self.checked = 0  # rows checked, not found in the cache (for the tests)

    def result(self, rules: RowRules[T], text: str, index: int, line: int) -> LineResult[T]:
        context, first = rules.context, line == 0
        key = (context, first, -1, -1, text)
        found = self._entries.get(key)
        if found is None:
            key = (context, first, index, line, text)
            found = self._entries.get(key)
        if found is None:
            found = rules.check(text, first=first, index=index, line=line)
            self.checked += 1
            key = (context, first, index, line, text) if rules.quotes_place(found) else \
                (context, first, -1, -1, text)
            self._entries[key] = found
            if len(self._entries) > self.capacity:
                _, dropped = self._entries.popitem(last=False)
                self._placed.pop(id(dropped), None)
        else:
            self._entries.move_to_end(key)
        return self._place(rules, found, line)

    def _place(self, rules: RowRules[T], result: LineResult[T], line: int) -> LineResult[T]:
        if not line:
            return result
        known = self._placed.get(id(result))
        if known is not None and known[0] is result and known[1] == line:
            return known[2]
        findings = result.findings  # most rows have none: no generator, no tuple
        if findings:
            findings = tuple([f.shifted(line) for f in findings])
        placed = LineResult(findings, rules.shift(result.facts, line))
        self._placed[id(result)] = (result, line, placed)
        return placed

    def _trim(self) -> None:
        if len(self._placed) > 2 * len(self._entries) + 1024:
            live = {id(result) for result in self._entries.values()}
            self._placed = {k: v for k, v in self._placed.items() if k in live}


def analyze_rows(text: str, rules: RowRules[T], state: RowState[T] | None
                 ) -> list[LineResult[T]]:
    """Every non-blank row's result, placed on its line, in file order."""
    state = state if state is not None else RowState()
    last = state._last
    placed = _after_edit(text, rules, state, last) if last is not None else None
    if placed is None:
        placed = []
        index = 0
        for number, line in enumerate(split_lines(text)):
            if not line.strip(_BLANK):
                placed.append(None)
                continue
            placed.append(state.result(rules, line, index, number))
            index += 1
        state._trim()
        state._last = _Last(text, placed, rules.context)
    return [result for result in placed if result is not None]


def _after_edit(text: str, rules: RowRules[T], state: RowState[T], last: _Last[T]
                ) -> list[LineResult[T] | None] | None:
    """The last analysis with one line's result replaced, when `text` differs from the last
    text inside one non-blank line that stays one non-blank line; else None."""
    if last.context != rules.context:
        return None
    old = last.text
    if text == old:
        return last.placed
    start, old_end, new_end = changed_region(old, text)
    if any(c in old[start:old_end] or c in text[start:new_end] for c in "\r\n"):
        return None
    number = old.count("\n", 0, start)
    if "\r" in text or number >= len(last.placed) or last.placed[number] is None:
        return None
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", new_end)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    if not line.strip(_BLANK):
        return None
    index = sum(1 for result in last.placed[:number] if result is not None)
    placed = list(last.placed)
    placed[number] = state.result(rules, line, index, number)
    state._last = _Last(text, placed, rules.context)
    return placed
