"""Positions in the core: (line, code-point column), with LSP's idea of a line.

YAML parsers also break lines at NEL, LS and PS (U+0085, U+2028, U+2029); LSP clients do not.
So the core never trusts a parser's line numbers: it takes the parser's code-point *offset* and
maps it through `LineIndex`, which breaks lines only at LF, CRLF and CR, as every LSP client does.
Conversion to UTF-16 or UTF-8 columns happens later, in `evalyaml.lsp.positions`.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from itertools import accumulate
from typing import NamedTuple

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


_new = tuple.__new__  # a NamedTuple's own __new__ is a Python function: twice the cost


class Position(NamedTuple):
    """A tuple, not a dataclass: the parser, every finding and every case summary make them by
    the hundred thousand, and an inserted line in a 10,000-case dataset moves tens of thousands
    (`Span.shifted`). A tuple is built at C speed (a frozen dataclass pays `object.__setattr__`
    per field), pickles as a constructor call, and orders by (line, character) as before."""

    line: int
    character: int  # code points from the start of the line


class Span(NamedTuple):
    start: Position
    end: Position

    def shifted(self, lines: int) -> Span:
        """The same span `lines` further down; used when a cached case moves."""
        if lines == 0:
            return self
        (start_line, start_character), (end_line, end_character) = self
        return _new(Span, (_new(Position, (start_line + lines, start_character)),
                           _new(Position, (end_line + lines, end_character))))

    def contains(self, pos: Position) -> bool:
        return self.start <= pos <= self.end

    @staticmethod
    def on_line(line: int, start: int, end: int) -> Span:
        """Characters `start` to `end` of `line`, built at C speed: a JSONL file's rows are
        placed anew, every one below, when a line is added above them."""
        return _new(Span, (_new(Position, (line, start)), _new(Position, (line, end))))

    @staticmethod
    def point(line: int, character: int) -> Span:
        p = Position(line, character)
        return Span(p, p)


class LineIndex:
    """Maps code-point offsets to positions and back, in O(log lines)."""

    __slots__ = ("_starts", "text")

    # A list; the language server keeps a large open document's table as an `array` (see
    # `lsp.documents.compact`): the same answers, a fifth of the memory.
    _starts: list[int] | array[int]

    def __init__(self, text: str) -> None:
        self.text = text
        if "\r" in text:
            starts = [0]
            starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
        else:  # the common case, at C speed: cumulative lengths of the lines
            starts = [0, *accumulate(len(line) + 1 for line in text.split("\n"))]
            starts.pop()
        self._starts = starts

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_start(self, line: int) -> int:
        return self._starts[min(max(line, 0), len(self._starts) - 1)]

    def line_end(self, line: int) -> int:
        """Offset of the end of `line`'s content, before its line break. Through `line_count`
        and `line_start`, as `offset` is: a subclass that keeps its table otherwise
        (`lsp.lines.BlockLineIndex`) overrides those two and `position`."""
        if line + 1 < self.line_count:
            end = self.line_start(line + 1)
            if self.text[end - 2 : end] == "\r\n":
                return end - 2
            return end - 1
        return len(self.text)

    def line_text(self, line: int) -> str:
        return self.text[self.line_start(line) : self.line_end(line)]

    def position(self, offset: int) -> Position:
        # Inlined `line_end`, tuples built at C speed: the parser asks this of every node of
        # every case, about 120,000 times for a 10,000-case dataset.
        text, starts = self.text, self._starts
        if offset <= 0:
            offset = 0
        elif offset > len(text):
            offset = len(text)
        line = bisect_right(starts, offset) - 1
        if line + 1 < len(starts):
            end = starts[line + 1] - 1
            if end and text[end - 1] == "\r" and text[end] == "\n":
                end -= 1
        else:
            end = len(text)
        # An offset between CR and LF belongs to the end of the line.
        return _new(Position, (line, (offset if offset < end else end) - starts[line]))

    def offset(self, pos: Position) -> int:
        if pos.line >= self.line_count:
            return len(self.text)
        line = max(pos.line, 0)
        return min(self.line_start(line) + max(pos.character, 0), self.line_end(line))

    def span(self, start: int, end: int) -> Span:
        return _new(Span, (self.position(start), self.position(end)))
