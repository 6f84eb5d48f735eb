"""Syntax error recovery: blank the broken lines, parse the rest, hide what the blanks cause.

A YAML syntax error used to cost every other finding of its document (a dataset case, a rubric,
a whole file). `parse.parse_text` now answers such an error as before (one EY101, EY103 or
EY106) and then asks this module for a *hole*: the smallest run of lines the error covers (the
broken line and the lines indented under it; an unclosed flow collection or quote is followed
to the next line at the same or lower indentation, one hole at a time). The hole is replaced by
spaces, line breaks kept, so every offset, line and column of the rest is unchanged, and the
text is parsed again, up to `MAX_HOLES` times.

What the blanks remove must not become findings: the author's keys may sit on the broken line.
`Mask` (installed on the document's `FindingSink`) therefore drops
- every finding on a line of a hole (the error itself is reported before the mask exists);
- on the lines next to a hole (the key lines of the mappings and lists it sits in, the
  document's first line, the sibling keys of its own mapping, the first line of a list item
  whose `- ` stayed), every finding but those about one key or value as written
  (codes whose `Recovery`, declared with each code, is `Scope.LOCAL`), and of those a
  missing-items count and a wrong type on an empty value.
A key whose whole block value falls in a hole joins the hole, so no empty value is invented.
A finding elsewhere is about text the parser read exactly as it was written, so it stays. Where
the structure around the error is unclear the hole is larger (recover less, never invent).
"""

from __future__ import annotations

from evalyaml.core.codes import Recovery, Scope, recovery_of
from evalyaml.core.suggest import rank
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.record import record
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

MAX_HOLES = 12
"""Parses a broken document may cost at most (each a fresh parse of its text)."""

RECOVERY_CHARACTERS = 4_000_000
"""And at most this many characters parsed again: a 6 MB dataset that cannot be split into
cases gets two tries, a case or a rubric all twelve."""


def max_holes(text: str) -> int:
    return max(2, min(MAX_HOLES, RECOVERY_CHARACTERS // max(len(text), 1)))

_QUOTED = lazy_re(r"'([^']*)'")

_KEY = lazy_re(r"""(?:"([^"\\]*)"|'([^']*)'"""  # quoted
                  r"""|([^\s#&*!|>'"%@`\[\]{},?:-][^:#]*?|-[^\s:#][^:#]*?))"""  # plain
                  r"[ \t]*:(?:[ \t]|$)")
"""A block mapping key at a line's content column: plain (no `: ` or ` #` inside) or quoted."""

_BLOCK_HEADER = lazy_re(r":[ \t]+[|>][-+0-9]*$")


@record
class Hole:
    """A blanked range of a text: offsets `start`-`end`, lines `first_line`-`last_line`.
    `column` is where the broken line's content starts (after any `- ` kept, see `kept_dash`);
    for a whole list item blanked (`item`), the column of its `-`."""

    start: int
    end: int
    first_line: int
    last_line: int
    column: int
    kept_dash: bool
    item: bool
    tabbed: bool = False  # a tab-indented line: `column` is the deepest it may have been meant
    key: str | None = None  # the mapping key that starts the hole, when unambiguous: the only
    # key the blanks removed (its value went with it)


@record
class _Shape:
    indent: int  # leading spaces
    content: int  # after the leading spaces and any `- ` indicators
    tabbed: bool = False  # a tab in the indentation: how deep the author meant is unknown


def _shape(lines: LineIndex, line: int) -> _Shape | None:
    """None for a blank or comment-only line. Columns as the parser counts them (a BOM at the
    start of the text is not indentation)."""
    text = lines.line_text(line)
    if line == 0 and text.startswith("\ufeff"):
        text = text[1:]
    indent = len(text) - len(text.lstrip(" "))
    if indent == len(text) or text[indent] == "#":
        return None
    if text[indent] == "\t":
        rest = text.lstrip(" \t")
        if not rest or rest[0] == "#":
            return None
        return _Shape(indent, len(text) - len(rest), tabbed=True)
    content = indent
    while text.startswith("-", content) and (content + 1 == len(text)
                                             or text[content + 1] in " \t"):
        content += 1
        while content < len(text) and text[content] in " \t":
            content += 1
    return _Shape(indent, content)


def _column_offset(lines: LineIndex, line: int, column: int) -> int:
    bom = 1 if line == 0 and lines.text.startswith("\ufeff") else 0
    return lines.line_start(line) + bom + column


def hole_at(lines: LineIndex, offset: int, holes: list[Hole]) -> Hole | None:
    """The lines to blank for a syntax error reported at `offset`; None when there is nothing
    left to blank there (the error lies in a hole already: recovery gives up)."""
    first = lines.position(offset).line
    opened = _quote_opened_above(lines, first)
    if not any(h.first_line <= opened <= h.last_line for h in holes):
        first = opened
    if any(h.first_line <= first <= h.last_line for h in holes):
        return None
    shape = _shape(lines, first)
    if shape is None:
        return None
    if shape.tabbed:
        return _tabbed_hole(lines, first, shape)
    last = first
    line = first + 1
    following: _Shape | None = None
    while line < lines.line_count:  # the lines indented under the broken one belong to it
        below = _shape(lines, line)
        if below is not None:
            if below.indent <= shape.content:
                following = below
                break
            last = line
        line += 1
    while (parent := _bare_parent(lines, first, shape)) is not None and \
            (following is None or following.indent <= parent[1].content):
        # The hole is the whole block value of the key above (`expected:` and its one broken
        # child): take the key too rather than leave it an empty value it never had.
        first, shape = parent
    kept_dash = shape.content > shape.indent and following is not None and \
        following.indent >= shape.content
    item = shape.content > shape.indent and not kept_dash
    start = _column_offset(lines, first, shape.content if kept_dash else 0)
    return Hole(start, lines.line_end(last), first, last,
                shape.indent if item else shape.content, kept_dash, item,
                key=None if item else _key_at(lines, first, shape.content))


def _key_at(lines: LineIndex, line: int, column: int) -> str | None:
    """The block mapping key that starts `line` at `column` (`key: value`, `"key":`), or None
    when the line does not start with one the parser would certainly read as a key."""
    text = lines.line_text(line)
    if line == 0 and text.startswith("\ufeff"):
        text = text[1:]
    found = _KEY.match(text, column)
    if found is None:
        return None
    name = next(g for g in found.groups() if g is not None)
    return name.rstrip() if found.group(3) is not None else name


def _odd_quotes(text: str) -> bool:
    return (text.count('"') - text.count('\\"')) % 2 == 1


def _quote_opened_above(lines: LineIndex, line: int) -> int:
    """A double-quoted string left open runs on to the next '"', and the parser stumbles on
    the line after it: `question: "I forgot` ... `answer: "Use the link."`. The line to blank
    is the one that opened it: the nearest line above with an odd number of '"' when this line
    has some and every line between has none."""
    if '"' not in lines.line_text(line):
        return line
    for above in range(line - 1, max(line - 200, -1), -1):
        text = lines.line_text(above)
        if '"' not in text:
            continue
        return above if _odd_quotes(text) else line
    return line


def _tabbed_hole(lines: LineIndex, first: int, shape: _Shape) -> Hole:
    """A tab-indented line: how deep it was meant is unknown, so any deeper line after it may
    be its own. The hole runs to the next line at the root's indentation (in a dataset, to the
    end of the case), and takes a key above with no value of its own (`key:`, `key: |`) too.
    Blanking more is the price of never joining its lines to another mapping."""
    last = first
    for line in range(first + 1, lines.line_count):
        below = _shape(lines, line)
        if below is None:
            continue
        if below.indent == 0:
            break
        last = line
    deepest = 0
    while True:  # the keys above whose whole value now lies in the hole go with it
        above_line = next((n for n in range(first - 1, -1, -1) if _shape(lines, n) is not None),
                          None)
        above = _shape(lines, above_line) if above_line is not None else None
        if above_line is None or above is None:
            break
        deepest = max(deepest, above.content + 1)
        if not _is_bare_key(lines, above_line):
            break
        first = above_line
    return Hole(lines.line_start(first), lines.line_end(last), first, last, deepest, False,
                False, tabbed=True)


def _is_bare_key(lines: LineIndex, line: int) -> bool:
    """`key:` or `key: |` (a block scalar header): the value is the lines below."""
    text = lines.line_text(line).split(" #", 1)[0].rstrip()
    return text.endswith(":") or _BLOCK_HEADER.search(text) is not None


def _bare_parent(lines: LineIndex, line: int, shape: _Shape) -> tuple[int, _Shape] | None:
    """The line above when it is a key with no value of its own (`key:`) that `line` is
    indented under."""
    for above in range(line - 1, -1, -1):
        found = _shape(lines, above)
        if found is None:
            continue
        if found.content >= shape.indent or found.tabbed:
            return None
        return (above, found) if _is_bare_key(lines, above) else None
    return None


def blank(text: str, hole: Hole) -> str:
    """`text` with the hole's characters replaced by spaces, line breaks kept: same offsets."""
    inner = text[hole.start : hole.end]
    spaced = "".join(ch if ch in "\r\n" else " " for ch in inner)
    return text[: hole.start] + spaced + text[hole.end :]


class Mask:
    """Decides which findings a recovered document must not report (see the module doc)."""

    __slots__ = ("_after", "_hole_lines", "_joint_codes", "_joints", "_keys", "_loose",
                 "_owners", "_siblings", "holes")

    def __init__(self, lines: LineIndex, holes: tuple[Hole, ...], *,
                 joints: frozenset[str] = frozenset(),
                 documents: list[Node | None] | None = None) -> None:
        """`joints`: codes hidden on the lines just before and after a hole too (JSON: the
        comma before a blanked member now trails). `documents`: the recovered tree, without
        which no hole's key counts as known (see `_every_key_read`)."""
        self.holes = holes
        self._hole_lines = frozenset(
            line for h in holes for line in range(h.first_line, h.last_line + 1))
        self._owners: set[int] = set()
        self._siblings: set[int] = set()
        self._loose: set[int] = set()  # owners whose sibling keys a hole may hold
        self._joint_codes = joints
        self._joints: set[int] = set()
        keys = tuple(h.key for h in holes)  # every hole's own key, or None when one is unknown
        self._keys: tuple[str, ...] | None = (
            None if any(k is None or h.tabbed for k, h in zip(keys, holes, strict=True))
            else tuple(k for k in keys if k is not None))
        if self._keys is not None and (documents is None or
                                       not self._every_key_read(lines, documents)):
            self._keys = None
        self._after = {self._next_content(lines, hole.last_line + 1) for hole in holes}
        for hole in holes:
            self._surroundings(lines, hole)
            if joints:
                self._joints.update(self._neighbours(lines, hole))

    def _every_key_read(self, lines: LineIndex, documents: list[Node | None]) -> bool:
        """Whether every line outside the holes that starts with a block key (or a flow
        collection) starts a node of the recovered tree. A quote or bracket opened above a
        hole may have swallowed the lines after it (`input: 'it is` ... `more: x'`): then the
        blanks removed more than their own keys."""
        starts: set[int] = set()
        literal: set[int] = set()  # the lines of block scalars: text, not keys
        seen: set[int] = set()
        stack = [d for d in documents if d is not None]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            starts.add(node.start)
            if isinstance(node, Mapping):
                for key, value in node.pairs:
                    stack += (key, value)
            elif isinstance(node, Sequence):
                stack += node.items
            elif isinstance(node, Scalar) and node.style in ("|", ">"):
                literal.update(range(lines.position(node.start).line + 1,
                                     lines.position(max(node.start, node.end - 1)).line + 1))
        for line in range(lines.line_count):
            shape = self._shape(lines, line)
            if shape is None or shape.tabbed or line in literal:
                continue
            text = lines.line_text(line)
            if line == 0 and text.startswith("\ufeff"):
                text = text[1:]
            opens_flow = text[shape.content : shape.content + 1] in ("{", "[")
            if (opens_flow or _key_at(lines, line, shape.content) is not None) and \
                    _column_offset(lines, line, shape.content) not in starts:
                return False
        return True

    def _next_content(self, lines: LineIndex, line: int) -> int:
        """The first line from `line` on that is neither blanked, blank nor a comment."""
        while line < lines.line_count and self._shape(lines, line) is None:
            line += 1
        return line

    def _neighbours(self, lines: LineIndex, hole: Hole) -> list[int]:
        found = []
        for step, start in ((-1, hole.first_line - 1), (1, hole.last_line + 1)):
            line = start
            while 0 <= line < lines.line_count and (line in self._hole_lines or
                                                     not lines.line_text(line).strip()):
                line += step
            if 0 <= line < lines.line_count:
                found.append(line)
        return found

    def hides(self, code: str, message: str, span: Span) -> bool:
        """Whether a finding of `code` is one the blanks may have caused: each code's
        `Recovery` (declared with the code, `core.codes`) says what it may have read."""
        start, end = span.start.line, span.end.line
        if start in self._hole_lines or end in self._hole_lines:
            return True
        if code in self._joint_codes and (start in self._joints or end in self._joints):
            return True
        if start in self._owners or start in self._siblings:
            recovery = recovery_of(code)
            if recovery.scope is Scope.VALUE and start in self._siblings and \
                    span.start != span.end and (start not in self._owners or (
                        self._keys is not None and "has no '" not in message)):
                return False  # a sibling's value as written (on `- id: 7311` too)
            if start in self._siblings and start not in self._owners and \
                    self._reads_no_hole(recovery.reads):
                return False
            if self._absent_elsewhere(recovery, message, start):
                return False
            if recovery.scope is Scope.KEY and start not in self._siblings and \
                    start not in self._loose:
                return False
            if recovery.scope is not Scope.LOCAL:
                local = recovery.local_when
                return local is None or local.search(message) is None
            if recovery.hidden_when is not None and recovery.hidden_when.search(message):
                return True
            if recovery.hide_empty and span.start == span.end:
                return True  # an empty value: its lines may have been the hole
        return False

    def _reads_no_hole(self, reads: tuple[str, ...] | None) -> bool:
        return reads is not None and self._keys is not None and not any(
            name == key or rank(key, [name]) or rank(name, [key])
            for name in reads for key in self._keys)

    def _absent_elsewhere(self, recovery: Recovery, message: str, line: int) -> bool:
        """A "missing key" finding about keys none of which may be a hole's own key."""
        if self._keys is None or recovery.missing is None or line in self._after:
            return False
        names = _QUOTED.findall(message)
        return recovery.missing.search(message) is not None and bool(names) and not any(
            name == key or rank(key, [name]) or rank(name, [key])
            for name in (*names, *recovery.silenced_by) for key in self._keys)

    def _first_content(self, lines: LineIndex) -> list[int]:
        """The root mapping's first line (where its own findings go)."""
        for line in range(lines.line_count):
            if self._shape(lines, line) is not None:
                return [line]
        return []

    def _shape(self, lines: LineIndex, line: int) -> _Shape | None:
        return None if line in self._hole_lines else _shape(lines, line)

    def _surroundings(self, lines: LineIndex, hole: Hole) -> None:
        column = hole.column
        if hole.tabbed:  # it may belong at any level above: every key line up there is near
            for line in range(hole.first_line - 1, -1, -1):
                shape = self._shape(lines, line)
                if shape is None:
                    continue
                if shape.indent < column:
                    self._owners.add(line)
            self._owners.add(0)
            self._owners.update(self._first_content(lines))
            self._loose.update(self._owners)
            return
        if hole.item:  # a whole list item: the list owns it, the other items are not siblings
            self._above(lines, hole.first_line - 1, column, in_list=True, own_run=False)
            return
        # Below: the rest of the hole's own mapping, and the item a kept `- ` starts.
        line = hole.last_line + 1
        first_below = True
        while line < lines.line_count:
            shape = self._shape(lines, line)
            line += 1
            if shape is None:
                continue
            if shape.indent < column:
                break
            if hole.kept_dash and first_below:
                self._owners.add(line - 1)
                self._loose.add(line - 1)  # the blanked line's own mapping goes on here
            first_below = False
            if shape.indent == column:
                self._siblings.add(line - 1)
        self._above(lines, hole.first_line - 1, column, in_list=False, own_run=True)

    def _above(self, lines: LineIndex, line: int, column: int, *, in_list: bool,
               own_run: bool) -> None:
        """Siblings, then each line that owns the mapping or list around the hole."""
        topmost: int | None = None
        while line >= 0:
            shape = self._shape(lines, line)
            line -= 1
            if shape is None:
                continue
            here = line + 1
            topmost = here
            if shape.indent > column or (shape.indent == column and
                                         (shape.content > shape.indent or not in_list)):
                if own_run and shape.indent == column:
                    self._siblings.add(here)
                continue
            # A shallower line, or a key at a list's own column: it owns what lies below.
            self._owners.add(here)
            if own_run and shape.content == column:
                self._siblings.add(here)  # `- key:` opening the hole's own mapping
            own_run = False
            in_list = shape.content > shape.indent
            column = shape.indent if in_list else shape.content
            if column == 0 and not in_list:  # a root key: nothing above owns more
                topmost = next(iter(self._first_content(lines)), None)
                break
        if topmost is not None:
            self._owners.add(topmost)  # the root's first line: the root's own findings
        self._owners.add(0)  # where a document that lost everything says it is empty
