"""A large open document's line-start table, edited at the cost of the distance between edits.

An edit moves the start of every line below it, so splicing a plain table costs one integer
per line below the edit: 40,000 of them rebuilt at Python speed in the middle of a 10,000-test
suite, 7 ms of a 50 ms keystroke. Here the lines below the last edit are kept as their start
minus the text's length (their distance from the end, negated), which an edit above them does
not change. An edit converts only the lines between the last edit's place and its own, so
typing in one place costs the same whatever the file's length. `tests/lsp/test_lines.py` holds
every answer equal to a fresh `LineIndex` of the same text, after edits anywhere.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right

from evalyaml.syntax.text import LineIndex, Position

COMPACT_LINES = 4096
"""A document with more lines keeps its table as a `SplitLineIndex`: an `array('q')` (8 bytes
a line instead of a list slot and an int object, 40) in the split form below."""

_new = tuple.__new__


class SplitLineIndex(LineIndex):
    """`LineIndex` with the line starts from `_split` on stored as start - len(text).

    Both halves are ascending, so each is searched with `bisect` as it stands. Immutable like
    the `Document` holding it: an edit builds the next table and leaves this one as it was."""

    __slots__ = ("_split",)
    _starts: array[int]
    _split: int

    @classmethod
    def of(cls, lines: LineIndex) -> SplitLineIndex:
        """`lines` in this form, every start absolute (the first edit sets the split)."""
        return cls._made(lines.text, array("q", lines._starts), len(lines._starts))

    @classmethod
    def _made(cls, text: str, starts: array[int], split: int) -> SplitLineIndex:
        index = cls.__new__(cls)
        index.text, index._starts, index._split = text, starts, split
        return index

    def edited(self, text: str, first: int, last: int, inserted: list[int]) -> SplitLineIndex:
        """The table of `text`, where lines `first`..`last` of this one became line `first`
        followed by lines starting at `inserted` (offsets in `text`). The lines above the edit
        keep their starts and those below their distance from the end, so only the lines
        between this table's split and the edit change form."""
        old, split, length = self._starts, self._split, len(self.text)
        head = old[: first + 1]
        if split < first + 1:  # lines split..first, stored from the end: absolute now
            head[split:] = array("q", map(length.__add__, head[split:]))
        head.extend(inserted)
        tail = old[last + 1:]
        if split > last + 1:  # lines last+1..split-1, absolute: from the end now
            moved = split - last - 1
            tail[:moved] = array("q", map((-length).__add__, tail[:moved]))
        head.extend(tail)
        return self._made(text, head, first + 1 + len(inserted))

    def line_start(self, line: int) -> int:
        starts = self._starts
        line = min(max(line, 0), len(starts) - 1)
        return starts[line] if line < self._split else starts[line] + len(self.text)

    def line_end(self, line: int) -> int:
        if line + 1 < len(self._starts):
            end = self.line_start(line + 1)
            if self.text[end - 2 : end] == "\r\n":
                return end - 2
            return end - 1
        return len(self.text)

    def position(self, offset: int) -> Position:
        text, starts, split = self.text, self._starts, self._split
        length = len(text)
        if offset <= 0:
            offset = 0
        elif offset > length:
            offset = length
        if split < len(starts) and offset >= starts[split] + length:
            line = bisect_right(starts, offset - length, split) - 1
        else:
            line = bisect_right(starts, offset, 0, split) - 1
        end = self.line_end(line)
        return _new(Position, (line, (offset if offset < end else end) - self.line_start(line)))

    def offset(self, pos: Position) -> int:
        if pos.line >= len(self._starts):
            return len(self.text)
        line = max(pos.line, 0)
        return min(self.line_start(line) + max(pos.character, 0), self.line_end(line))


def compact(lines: LineIndex) -> LineIndex:
    """`lines` as a `SplitLineIndex` when the document is long (a 10,000-case dataset has
    160,000 lines), else as it is."""
    if len(lines._starts) > COMPACT_LINES and not isinstance(lines, SplitLineIndex):
        return SplitLineIndex.of(lines)
    return lines
