"""The one place where core positions meet the client's: code points <-> UTF-16 / UTF-8 units.

Inside evalyaml a position is (line, code-point column) with lines broken only at LF, CRLF and
CR (`syntax.text.LineIndex`). LSP columns count in the encoding negotiated at `initialize`:
UTF-16 code units unless the client offers UTF-8 (or UTF-32, which is code points). Every range
the server sends or receives goes through `PositionMapper`, so emoji (two UTF-16 units, four
UTF-8 bytes), CJK (one UTF-16 unit, three UTF-8 bytes), tabs (one unit each) and CRLF line ends
(never part of a line) are handled once.

A client column that falls inside a character (half of a surrogate pair, the middle of a UTF-8
sequence) rounds down to the start of that character; a column past the end of a line clamps to
its end, and a line past the end of the text to the end of the text, as the LSP specification
asks.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from lsprotocol import types

from evalyaml.lsp import bootstrap
from evalyaml.syntax.text import LineIndex, Position, Span


class Encoding(Enum):
    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"

    @property
    def lsp(self) -> types.PositionEncodingKind:
        return types.PositionEncodingKind(self.value)


def choose_encoding(offered: list[Any] | None) -> Encoding:
    """UTF-8 when the client offers it (our text is UTF-8 on disk), else UTF-16, the LSP
    default every client must support. UTF-32 alone is taken too: it is code points."""
    return Encoding(bootstrap.choose_encoding([str(getattr(e, "value", e)) for e in offered or []]))


def char_units(char: str, encoding: Encoding) -> int:
    point = ord(char)
    if encoding is Encoding.UTF16:
        return 2 if point > 0xFFFF else 1
    if encoding is Encoding.UTF8:
        if point < 0x80:
            return 1
        if point < 0x800:
            return 2
        return 3 if point < 0x10000 else 4
    return 1


def units_in(text: str, encoding: Encoding) -> int:
    """How long `text` is in the client's units."""
    if encoding is Encoding.UTF32 or text.isascii():
        return len(text)
    if encoding is Encoding.UTF16:
        return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)
    return len(text.encode("utf-8", errors="surrogatepass"))


def to_units(line: str, column: int, encoding: Encoding) -> int:
    """Code-point column on `line` -> client column."""
    column = min(max(column, 0), len(line))
    if encoding is Encoding.UTF32 or line.isascii():
        return column
    return units_in(line[:column], encoding)


def from_units(line: str, units: int, encoding: Encoding) -> int:
    """Client column on `line` -> code-point column (rounded down inside a character)."""
    units = max(units, 0)
    if encoding is Encoding.UTF32 or line.isascii():
        return min(units, len(line))
    seen = 0
    for index, char in enumerate(line):
        width = char_units(char, encoding)
        if seen + width > units:
            return index
        seen += width
    return len(line)


class PositionMapper:
    """Converts positions and ranges for one text, in one encoding."""

    __slots__ = ("encoding", "lines")

    def __init__(self, text: str | LineIndex, encoding: Encoding) -> None:
        self.lines = text if isinstance(text, LineIndex) else LineIndex(text)
        self.encoding = encoding

    @property
    def text(self) -> str:
        return self.lines.text

    # core -> client -----------------------------------------------------------------------
    def position(self, pos: Position) -> types.Position:
        line, character = self.units(pos)
        return types.Position(line, character)

    def units(self, pos: Position) -> tuple[int, int]:
        """(line, column in the client's units) of a core position: `position` without the
        `lsprotocol` object (`publish` writes JSON directly)."""
        lines = self.lines
        if pos.line >= lines.line_count:
            last = lines.line_count - 1
            return last, units_in(lines.line_text(last), self.encoding)
        line = max(pos.line, 0)
        if self.encoding is Encoding.UTF32:
            return line, max(pos.character, 0)
        return line, to_units(lines.line_text(line), pos.character, self.encoding)

    def json_range(self, span: Span) -> str:
        """`span` as the JSON of an LSP `Range`, as pygls writes it. `publish` asks this of
        every finding of a document (17,000 for a large dataset), so the common case, both
        ends on lines within the text, is worked out here without `units`' calls."""
        (start_line, start_character), (end_line, end_character) = span
        lines = self.lines
        count = lines.line_count
        if 0 <= start_line < count and 0 <= end_line < count and \
                self.encoding is not Encoding.UTF32:
            start_character = self._column(start_line, start_character)
            end_character = self._column(end_line, end_character)
        else:
            start_line, start_character = self.units(span.start)
            end_line, end_character = self.units(span.end)
        return (f'{{"start": {{"line": {start_line}, "character": {start_character}}}, '
                f'"end": {{"line": {end_line}, "character": {end_character}}}}}')

    def _column(self, line: int, character: int) -> int:
        """`units`' column for a line within the text (not UTF-32)."""
        lines = self.lines
        start = lines.line_start(line)
        length = lines.line_end(line) - start
        column = character if 0 <= character <= length else (0 if character < 0 else length)
        before = lines.text[start : start + column]
        return column if before.isascii() else units_in(before, self.encoding)

    def range(self, span: Span) -> types.Range:
        return types.Range(self.position(span.start), self.position(span.end))

    def end(self) -> types.Position:
        last = self.lines.line_count - 1
        return types.Position(last, units_in(self.lines.line_text(last), self.encoding))

    # client -> core -----------------------------------------------------------------------
    def core_position(self, pos: types.Position) -> Position:
        if pos.line >= self.lines.line_count:
            last = self.lines.line_count - 1
            return Position(last, len(self.lines.line_text(last)))
        line = max(pos.line, 0)
        return Position(line, from_units(self.lines.line_text(line), pos.character,
                                         self.encoding))

    def core_span(self, rng: types.Range) -> Span:
        return Span(self.core_position(rng.start), self.core_position(rng.end))

    def offset(self, pos: types.Position) -> int:
        """Code-point offset into the text of a client position."""
        return self.lines.offset(self.core_position(pos))


def apply_change(text: str, lines: LineIndex | None, rng: types.Range, new_text: str,
                 encoding: Encoding) -> str:
    """One incremental `didChange` edit applied to `text` (whose LineIndex may be given)."""
    mapper = PositionMapper(lines if lines is not None and lines.text is text else text,
                            encoding)
    start = mapper.offset(rng.start)
    end = mapper.offset(rng.end)
    if end < start:
        start, end = end, start
    return text[:start] + new_text + text[end:]
