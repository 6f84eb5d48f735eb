"""Where the cursor is, in YAML terms, worked out from the lines of text alone.

Completion and hover must work on half-typed text that does not parse (`kind: re`, `rubric_ref:
rubric/fa`, a key with no colon yet), so this module needs no tree: it reads indentation upwards
from the cursor, the way a person does, to find the chain of keys and list items that leads to
the cursor (`["checks", ITEM, "kind"]`), whether the cursor is on a key or a value, the text
typed so far, and the sibling keys already present in the same mapping. It covers block YAML,
which is what eval files are written in; in flow collections it gives up quietly.

Scanning upwards skips whole runs of deeper lines with one regular-expression search over the
text before the cursor, so the cost does not grow with the number of cases above the cursor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from evalyaml.ide.outline import Outline, next_line_below, previous_line_below
from evalyaml.syntax.text import LineIndex

ITEM = 0  # a list item in a path (its index does not matter for schemas)
PathPart = str | int

_KEY_LINE = re.compile(
    r"^(?P<indent>[ ]*)(?P<dashes>(?:-[ ]+)*)"
    r"(?P<key>\"[^\"]*\"|'[^']*'|[^\s#:'\"\-{\[][^:#]*?|-[^\s:#][^:#]*?)"
    r"[ ]*:(?:[ ]+(?P<rest>.*)|$)")
_DASHES = re.compile(r"^(?P<indent>[ ]*)(?P<dashes>(?:-(?:[ ]+|$))+)(?P<rest>.*)$")
_BLOCK_SCALAR = re.compile(r"^[|>][0-9+-]*[ ]*(?:#.*)?$")
_WORD = re.compile(r"[A-Za-z0-9_$.\-]")


@dataclass(frozen=True, slots=True)
class LineShape:
    indent: int  # leading spaces
    dash_cols: tuple[int, ...]  # columns of the `-` indicators that start the line
    key: str | None  # the key, when the line holds `key:`
    key_col: int  # where the content after the dashes starts (the key, if any)
    rest: str  # the text after `key:` (or after the dashes)
    rest_col: int  # where `rest` starts
    colon_col: int = -1  # where the key's colon is


def _unquote(key: str) -> str:
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "'\"":
        return key[1:-1]
    return key


@lru_cache(maxsize=4096)
def shape(line: str) -> LineShape | None:
    """The block structure of one line; None for blank lines, comments and tab-indented
    lines (which YAML does not allow)."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#") or line.startswith("\t"):
        return None
    match = _KEY_LINE.match(line)
    if match:
        indent = len(match.group("indent"))
        dashes = match.group("dashes")
        dash_cols = tuple(indent + i for i, c in enumerate(dashes) if c == "-")
        rest = match.group("rest")
        rest_col = match.start("rest") if rest is not None else len(line)
        colon = line.index(":", match.end("key"))
        return LineShape(indent, dash_cols, _unquote(match.group("key").rstrip()),
                         indent + len(dashes), (rest or "").rstrip(), rest_col, colon)
    dash = _DASHES.match(line)
    if dash:
        indent = len(dash.group("indent"))
        dashes = dash.group("dashes")
        dash_cols = tuple(indent + i for i, c in enumerate(dashes) if c == "-")
        col = indent + len(dashes)
        return LineShape(indent, dash_cols, None, col, dash.group("rest").rstrip(), col)
    indent = len(line) - len(line.lstrip(" "))
    return LineShape(indent, (), None, indent, line[indent:].rstrip(), indent)


def is_block_scalar_header(rest: str) -> bool:
    return bool(_BLOCK_SCALAR.match(rest.strip()))


@dataclass(slots=True)
class Context:
    """What the cursor is on.

    For a key (`in_key`), `path` leads to the mapping that holds it; for a value (`in_value`),
    `path` ends with the key whose value it is; inside a `|`/`>` block scalar
    (`in_block_scalar`), `path` ends with the block's key.
    """

    path: list[PathPart]
    in_key: bool = False
    in_value: bool = False
    in_block_scalar: bool = False
    prefix: str = ""  # the key or value typed so far, up to the cursor
    start_col: int = 0  # where that text starts on the cursor line (code points)
    end_col: int = 0  # where the word under the cursor ends
    quote: str = ""  # the opening quote of a quoted value
    key_col: int = 0  # the column of the keys of the cursor's mapping
    siblings: dict[str, str] = field(default_factory=dict)  # other keys there -> inline value
    item_start: bool = False  # the cursor's mapping starts on the cursor line (`- key`)
    block_line: int = -1  # for a block scalar: the line of its key


_WORD_ONLY = re.compile(r"^[A-Za-z0-9_$.\-]*$")


class Reader:
    """Reads the block structure around a cursor; see the module docstring."""

    def __init__(self, lines: LineIndex, outline: Outline | None = None) -> None:
        self.lines = lines
        self.outline = outline

    def shape(self, n: int) -> LineShape | None:
        return shape(self.lines.line_text(n))

    def above(self, n: int, limit: int, *, equal_unless_item: bool = False) -> int:
        return previous_line_below(self.lines, n, limit, equal_unless_item=equal_unless_item,
                                   outline=self.outline)

    def parents(self, line_no: int, col: int, *, item: bool
                ) -> tuple[list[PathPart], bool] | None:
        """The path above a key at column `col` of `line_no` (or, with `item`, above a list
        item whose dash is at `col`): the path of the mapping (or list) that holds it.

        Returns (path, in_block_scalar), or None when the lines above do not read as block
        YAML."""
        path: list[PathPart] = []
        need = col
        n = line_no
        while True:
            if not item and need == 0:
                return path, False
            n = self.above(n, need, equal_unless_item=item)
            if n < 0:
                return None
            info = self.shape(n)
            if info is None:  # pragma: no cover - the search skips such lines
                return None
            if not item:
                # A line indented less than our key: it opens our mapping.
                if info.key_col == need and info.dash_cols:
                    path[:0] = [ITEM] * len(info.dash_cols)
                    need, item = info.dash_cols[0], True
                    continue
                if info.key is None:
                    if info.dash_cols and not info.rest and info.key_col <= need:
                        path[:0] = [ITEM] * len(info.dash_cols)  # `-` alone, mapping below
                        need, item = info.dash_cols[0], True
                        continue
                    return None  # plain text at a lower indentation
                if info.key_col > need:
                    return None
                if info.rest and is_block_scalar_header(info.rest):
                    owner = self.parents_of_line(n, info)
                    return ([*owner, info.key], True) if owner is not None else None
                if info.rest:
                    return None  # `key: value` cannot hold a mapping below it
                path.insert(0, info.key)
                if info.dash_cols:
                    path[:0] = [ITEM] * len(info.dash_cols)
                    need, item = info.dash_cols[0], True
                else:
                    need = info.key_col
                continue
            # item: the owner of the list whose dashes are at `need`
            if info.key is None or info.key_col > need or info.rest:
                return None
            path.insert(0, info.key)
            if info.dash_cols:
                path[:0] = [ITEM] * len(info.dash_cols)
                need = info.dash_cols[0]
            else:
                need, item = info.key_col, False

    def parents_of_line(self, line_no: int, info: LineShape) -> list[PathPart] | None:
        """The path of the mapping that holds the key on `line_no`."""
        if info.dash_cols:
            found = self.parents(line_no, info.dash_cols[0], item=True)
            if found is None or found[1]:
                return None
            return [*found[0], *([ITEM] * len(info.dash_cols))]
        found = self.parents(line_no, info.key_col, item=False)
        return found[0] if found is not None and not found[1] else None

    def siblings(self, line_no: int, key_col: int, *, starts_here: bool) -> dict[str, str]:
        """Keys (with inline values) of the mapping whose keys sit at `key_col` around
        `line_no`, the cursor line itself left out. Jumps over deeper lines."""
        found: dict[str, str] = {}
        n = line_no
        while not starts_here:
            n = self.above(n, key_col + 1)
            if n < 0:
                break
            info = self.shape(n)
            if info is None:  # pragma: no cover
                break
            if info.dash_cols and info.dash_cols[0] == key_col:
                continue  # a compact list (`key:` then `- item` at the same column)
            if info.key_col != key_col:
                break
            if info.key is not None:
                found.setdefault(info.key, info.rest)
            if info.dash_cols:
                break  # the first line of a list item: the mapping starts here
        n = line_no
        while True:
            n = next_line_below(self.lines, n, key_col + 1, outline=self.outline)
            if n < 0:
                break
            info = self.shape(n)
            if info is None:  # pragma: no cover
                break
            if info.dash_cols and info.dash_cols[0] == key_col:
                continue
            if info.indent < key_col or info.key_col != key_col or info.key is None:
                break
            found.setdefault(info.key, info.rest)
        return found

    def block_scalar_owner(self, line_no: int) -> tuple[list[PathPart], int] | None:
        """When `line_no` is inside a `key: |` (or `>`) block scalar: (path to that key, its
        line)."""
        line = self.lines.line_text(line_no)
        own = len(line) - len(line.lstrip(" ")) if line.strip() else len(line)
        n = line_no
        while own > 0:
            n = self.above(n, own)
            if n < 0:
                return None
            info = self.shape(n)
            if info is None:  # pragma: no cover
                return None
            if info.key is not None and info.rest and is_block_scalar_header(info.rest):
                owner = self.parents_of_line(n, info)
                return ([*owner, info.key], n) if owner is not None else None
            if info.key is None and not info.dash_cols:
                return None  # plain text: a multi-line plain scalar, not ours to read
            own = info.indent
        return None

    def context(self, line_no: int, col: int) -> Context | None:
        """The YAML context at a cursor; None where completion and hover have nothing to offer
        (comments, flow collections, lines that do not read as block YAML)."""
        lines = self.lines
        if line_no < 0 or line_no >= lines.line_count:
            return None
        line = lines.line_text(line_no)
        col = max(0, min(col, len(line)))
        before = line[:col]
        block = self.block_scalar_owner(line_no)
        if block is not None:
            start = col
            while start > 0 and _WORD.match(line[start - 1]):
                start -= 1
            end = col
            while end < len(line) and _WORD.match(line[end]):
                end += 1
            return Context(block[0], in_block_scalar=True, prefix=line[start:col],
                           start_col=start, end_col=end, block_line=block[1])
        if line.startswith("\t") or _comment_before(before):
            return None
        info = shape(line)
        if info is None:
            if before.strip():
                return None
            return self._key_context(line_no, col, "", col, item=False)
        if info.key is not None and col > info.colon_col:
            return self._value_context(line_no, col, info)
        # a key being typed: `  ke|`, `  - ke|`, `  ke|y: value`
        if info.key is None and info.rest and not _WORD_ONLY.match(info.rest):
            return None
        key_start = info.key_col
        if col < key_start:
            if before.strip(" -"):
                return None
            key_start = col
        typed = line[key_start:col]
        if typed and not _WORD_ONLY.match(typed):
            return None
        end = col
        while end < len(line) and _WORD.match(line[end]):
            end += 1
        return self._key_context(line_no, key_start, typed, end,
                                 item=bool(info.dash_cols) and key_start == info.key_col)

    def _value_context(self, line_no: int, col: int, info: LineShape) -> Context | None:
        assert info.key is not None
        line = self.lines.line_text(line_no)
        typed = line[info.colon_col + 1:col].lstrip(" ")
        rest_col = col - len(typed)
        quote = typed[:1] if typed[:1] in ("'", '"') else ""
        if not quote and any(c in typed for c in "[]{}"):
            return None
        start = rest_col + len(quote)
        end = col
        stop = quote or " \t#"
        while end < len(line) and line[end] not in stop:
            end += 1
        owner = self.parents_of_line(line_no, info)
        if owner is None:
            return None
        ctx = Context([*owner, info.key], in_value=True, prefix=line[start:col],
                      start_col=start, end_col=end, quote=quote, key_col=info.key_col,
                      item_start=bool(info.dash_cols))
        ctx.siblings = self.siblings(line_no, info.key_col, starts_here=bool(info.dash_cols))
        return ctx

    def _key_context(self, line_no: int, key_col: int, typed: str, end: int, *, item: bool
                     ) -> Context | None:
        info = self.shape(line_no)
        if item and info is not None and info.dash_cols:
            found = self.parents(line_no, info.dash_cols[0], item=True)
            if found is None or found[1]:
                return None
            path: list[PathPart] = [*found[0], *([ITEM] * len(info.dash_cols))]
        else:
            found = self.parents(line_no, key_col, item=False)
            if found is None or found[1]:
                return None
            path = found[0]
        ctx = Context(path, in_key=True, prefix=typed, start_col=key_col, end_col=end,
                      key_col=key_col, item_start=item)
        ctx.siblings = self.siblings(line_no, key_col, starts_here=item)
        return ctx


def context_at(lines: LineIndex, line_no: int, col: int, outline: Outline | None = None
               ) -> Context | None:
    return Reader(lines, outline).context(line_no, col)


def _comment_before(before: str) -> bool:
    quote = ""
    for index, char in enumerate(before):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or before[index - 1].isspace()):
            return True
    return False
