"""A long open document's line-start table, edited at the cost of one block, wherever the edit.

An edit moves the start of every line below it, so splicing one flat table costs an integer per
line below the edit: 40,000 of them rebuilt at Python speed in the middle of a 10,000-test
suite, 7 ms of a 50 ms keystroke. Here the table is cut into blocks of about `BLOCK` lines, each
with a shift added to all its starts: an edit rebuilds the block it falls in and adds to the
shift of each block below (a few hundred of them, not tens of thousands of lines). Blocks are
never changed once made, so the next table shares every block the edit did not touch, and the
document before the edit keeps answering for its own text. `tests/lsp/test_lines.py` holds every
answer equal to a fresh `LineIndex` of the same text, after edits anywhere.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right

from evalyaml.syntax.text import LineIndex, Position

COMPACT_LINES = 4096
"""A document with more lines keeps its table as a `BlockLineIndex`, in `array('q')` blocks (8
bytes a line instead of a list slot and an int object, 40)."""

BLOCK = 512
"""Lines a block starts with; an edit that grows a block past twice this cuts it again."""

_new = tuple.__new__


class BlockLineIndex(LineIndex):
    """`LineIndex` over blocks: line `firsts[b] + i` starts at `blocks[b][i] + shifts[b]`, and
    block `b`'s first line at `heads[b]` (kept apart so that an offset finds its block by
    `bisect`). `_starts` is not used: `line_end`, `offset` and the rest of `LineIndex` read the
    table through the three methods below."""

    __slots__ = ("_blocks", "_firsts", "_heads", "_shifts")
    _blocks: list[array[int]]
    _firsts: list[int]
    _heads: list[int]
    _shifts: list[int]

    @classmethod
    def of(cls, lines: LineIndex) -> BlockLineIndex:
        starts = lines._starts
        cuts = range(0, len(starts), BLOCK)
        return cls._made(lines.text, [array("q", starts[at : at + BLOCK]) for at in cuts],
                         list(cuts), [starts[at] for at in cuts], [0] * len(cuts))

    @classmethod
    def _made(cls, text: str, blocks: list[array[int]], firsts: list[int], heads: list[int],
              shifts: list[int]) -> BlockLineIndex:
        index = cls.__new__(cls)
        index.text, index._starts = text, []
        index._blocks, index._firsts, index._heads, index._shifts = blocks, firsts, heads, shifts
        return index

    def edited(self, text: str, first: int, last: int, inserted: list[int]) -> BlockLineIndex:
        """The table of `text`, where lines `first`..`last` of this one became line `first`
        followed by lines starting at `inserted` (offsets in `text`)."""
        blocks, firsts, heads, shifts = self._blocks, self._firsts, self._heads, self._shifts
        low = bisect_right(firsts, first) - 1
        high = bisect_right(firsts, last) - 1
        starts = [start + shifts[b] for b in range(low, high + 1) for start in blocks[b]]
        delta = len(text) - len(self.text)
        kept = last + 1 - firsts[low]
        starts[first - firsts[low] + 1 :] = [*inserted, *(s + delta for s in starts[kept:])]
        size = BLOCK if len(starts) > 2 * BLOCK else len(starts)
        cuts = range(0, len(starts), size)
        lines_moved = len(inserted) - (last - first)
        after = high + 1
        return self._made(
            text,
            [*blocks[:low], *(array("q", starts[at : at + size]) for at in cuts),
             *blocks[after:]],
            [*firsts[:low], *(firsts[low] + at for at in cuts),
             *(f + lines_moved for f in firsts[after:])],
            [*heads[:low], *(starts[at] for at in cuts), *(h + delta for h in heads[after:])],
            [*shifts[:low], *(0 for _ in cuts), *(s + delta for s in shifts[after:])])

    @property
    def line_count(self) -> int:
        return self._firsts[-1] + len(self._blocks[-1])

    def line_start(self, line: int) -> int:
        line = min(max(line, 0), self.line_count - 1)
        b = bisect_right(self._firsts, line) - 1
        return self._blocks[b][line - self._firsts[b]] + self._shifts[b]

    def position(self, offset: int) -> Position:
        length = len(self.text)
        if offset <= 0:
            offset = 0
        elif offset > length:
            offset = length
        b = bisect_right(self._heads, offset) - 1
        line = self._firsts[b] + bisect_right(self._blocks[b], offset - self._shifts[b]) - 1
        end = self.line_end(line)
        return _new(Position, (line, (offset if offset < end else end) - self.line_start(line)))


def compact(lines: LineIndex) -> LineIndex:
    """`lines` as a `BlockLineIndex` when the document is long (a 10,000-case dataset has
    160,000 lines), else as it is."""
    if not isinstance(lines, BlockLineIndex) and len(lines._starts) > COMPACT_LINES:
        return BlockLineIndex.of(lines)
    return lines
