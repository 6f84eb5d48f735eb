"""The outline of a YAML text: the line numbers of its shallow lines, by indentation and by
whether they start a list item, kept current across edits (`Outline.spliced`); and the upward
and downward searches for a parent line that it answers (`previous_line_below`,
`next_line_below`), by a regex search in chunks where it cannot.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

from evalyaml.syntax.text import LineIndex

_CHUNK = 1 << 16

OUTLINE_DEPTH = 4  # indentations 0..3 are kept in the outline


class Outline:
    """Line numbers of the shallow lines of a text, by indentation and by whether they start
    a list item: what an upward search for a parent needs, without reading the lines between.

    In a 10,000-case dataset the parent of a case is `questions:` at the top; finding it by
    reading lines upwards would cost the size of the file on every keystroke. The outline
    answers it with a bisection, and `spliced` keeps it current after an edit at the cost of
    the edited lines (plus shifting the line numbers below them).
    """

    __slots__ = ("rows",)

    def __init__(self, rows: list[list[int]]) -> None:
        # rows[indent * 2 + is_item] = sorted line numbers
        self.rows = rows

    @staticmethod
    def build(lines: LineIndex) -> Outline:
        rows: list[list[int]] = [[] for _ in range(OUTLINE_DEPTH * 2)]
        text = lines.text
        if text.count("\r") != text.count("\r\n"):  # old Mac line ends: read line by line
            for n in range(lines.line_count):
                _classify(rows, n, lines.line_text(n))
            return Outline(rows)
        _classify(rows, 0, lines.line_text(0))
        line, at = 0, 0
        count = text.count
        for match in _SHALLOW_AFTER_BREAK.finditer(text):
            start = match.start()
            line += count("\n", at, start + 1)
            at = start + 1
            rows[len(match.group(1)) * 2 + (match.group(2) is not None)].append(line)
        return Outline(rows)

    def spliced(self, first: int, old_last: int, new_last: int, lines: LineIndex) -> Outline:
        """The outline after lines first..old_last were replaced by first..new_last."""
        delta = new_last - old_last
        rows: list[list[int]] = []
        fresh: list[list[int]] = [[] for _ in range(OUTLINE_DEPTH * 2)]
        for n in range(first, new_last + 1):
            _classify(fresh, n, lines.line_text(n))
        for row, new in zip(self.rows, fresh, strict=True):
            low = bisect_left(row, first)
            high = bisect_right(row, old_last)
            tail = row[high:]
            if delta:
                tail = [n + delta for n in tail]
            rows.append(row[:low] + new + tail if (new or low != high or delta) else row)
        return Outline(rows)

    def previous(self, line_no: int, limit: int, *, equal_unless_item: bool) -> int | None:
        """Like `previous_line_below`, or None when the outline is too shallow to say."""
        if limit > OUTLINE_DEPTH or (equal_unless_item and limit >= OUTLINE_DEPTH):
            return None
        best = -1
        for indent in range(limit):
            for item in (0, 1):
                row = self.rows[indent * 2 + item]
                at = bisect_left(row, line_no)
                if at and row[at - 1] > best:
                    best = row[at - 1]
        if equal_unless_item:
            row = self.rows[limit * 2]
            at = bisect_left(row, line_no)
            if at and row[at - 1] > best:
                best = row[at - 1]
        return best

    def following(self, line_no: int, limit: int) -> int | None:
        """The first line after `line_no` indented less than `limit` (-1: none), or None when
        the outline is too shallow to say."""
        if limit > OUTLINE_DEPTH:
            return None
        best = -1
        for indent in range(limit):
            for item in (0, 1):
                row = self.rows[indent * 2 + item]
                at = bisect_right(row, line_no)
                if at < len(row) and (best < 0 or row[at] < best):
                    best = row[at]
        return best


_SHALLOW = re.compile(rf"^( {{0,{OUTLINE_DEPTH - 1}}})(?:(-(?= |$))|[^ \r\n#])",
                      re.MULTILINE)


_SHALLOW_AFTER_BREAK = re.compile(
    rf"\n( {{0,{OUTLINE_DEPTH - 1}}})(?:(-(?= |\r?\n|$))|[^ \r\n#])")


def _classify(rows: list[list[int]], n: int, line: str) -> None:
    match = _SHALLOW.match(line)
    if match:
        rows[len(match.group(1)) * 2 + (match.group(2) is not None)].append(n)


def previous_line_below(lines: LineIndex, line_no: int, limit: int, *,
                        equal_unless_item: bool = False, outline: Outline | None = None) -> int:
    """The nearest line above `line_no` that is not blank or a comment and is indented less
    than `limit` (or exactly `limit` without starting with `- `, if `equal_unless_item`);
    -1 when there is none. Answered from the outline when there is one; else a backwards regex
    search in chunks."""
    if limit <= 0 and not equal_unless_item:
        return -1
    if outline is not None:
        found = outline.previous(line_no, limit, equal_unless_item=equal_unless_item)
        if found is not None:
            return found
    text = lines.text
    stop = lines.line_start(line_no)
    less = f"[ ]{{0,{limit - 1}}}[^ \\r\\n#]" if limit > 0 else None
    equal = f"[ ]{{{limit}}}(?!-(?:[ ]|\\r?\\n|$))[^ \\r\\n#]" if equal_unless_item else None
    body = "|".join(p for p in (less, equal) if p)
    pattern = _pattern(body)
    overlap = limit + 8
    boundary = stop  # matches must start before this
    chunk = 1024  # parents are usually close: start small, then double
    while boundary > 0:
        start = max(0, boundary - chunk)
        chunk = min(chunk * 2, _CHUNK)
        last = None
        for match in pattern.finditer(text, start, min(stop, boundary + overlap)):
            if match.start() >= boundary:
                break
            last = match
        if last is not None:
            return lines.position(last.start() + 1).line
        boundary = start
    if stop > 0 and _first_line(body).match(text, 0, stop):
        return 0
    return -1


def next_line_below(lines: LineIndex, line_no: int, limit: int, *,
                    outline: Outline | None = None) -> int:
    """The first line after `line_no` that is not blank or a comment and is indented less
    than `limit`; -1 when there is none."""
    if limit <= 0:
        return -1
    if outline is not None:
        found = outline.following(line_no, limit)
        if found is not None:
            return found
    if line_no + 1 >= lines.line_count:
        return -1
    start = lines.line_start(line_no + 1) - 1
    match = _pattern(f"[ ]{{0,{limit - 1}}}[^ \\r\\n#]").search(lines.text, max(start, 0))
    return lines.position(match.start() + 1).line if match else -1


@lru_cache(maxsize=64)
def _pattern(body: str) -> re.Pattern[str]:
    return re.compile(f"\\n(?:{body})")


@lru_cache(maxsize=64)
def _first_line(body: str) -> re.Pattern[str]:
    return re.compile(f"(?:{body})")
