"""A pure-Python fast path from text to our tree, for the simple block YAML most cases are.

Why: a 10,000-case dataset is parsed case by case, and for each case ruamel's C composer builds
Python node, Tag and Mark objects (about 0.7 s in all) that `parse._Converter` then turns into
ours (about 0.3 s). Cases are nearly always the same few shapes: `key: value` lines, nested
block mappings and sequences, one-line plain or quoted scalars, one-line flow lists of scalars,
and `|` / `>` block scalars. `fast_parse` builds our tree for exactly that subset, line by line,
with no intermediate objects, in about 40% of the time (measured on the `check_bench` cases).

The contract is strict: for every text it accepts, the tree equals the one the ruamel path
builds (classes, tags, offsets after the converter's adjustments, text, style, flow, order). It
never reports anything: whatever is outside the subset, or could need a finding (syntax errors,
duplicate keys, tags, anchors, nesting past the depth guard, ...), or that it is not certain
of, returns None and the ruamel path decides. Plain scalars are tagged by the table the ruamel
composers resolve with (`tags.plain_tag`, through `resolver.FastResolver`), so tags agree by
construction, and a file this path accepts never imports ruamel.
`tests/core/test_fastparse.py` holds it to this on generated, real and truncated texts.

The subset (anything else returns None):
- no tab, CR, BOM, NEL/LS/PS, or character libyaml would refuse, anywhere in the text;
- lines are blank, comments, `KEY: VALUE`, `KEY:`, `- VALUE`, `- KEY: VALUE`, `- KEY:`, at
  indentations that line up exactly with an open collection;
- keys are plain words (`[A-Za-z_$][A-Za-z0-9_.$/-]*`) that resolve to strings, unique per
  mapping;
- `KEY:` is followed by a more indented block mapping or block sequence, or by nothing (null);
  a sequence at the key's own indentation (`key:` then `- a`) is refused;
- values are one-line plain scalars (no indicator first, no `: `, no trailing `:`), one-line
  quoted scalars without escapes or inner quotes, one-line flow lists of such scalars, and
  block scalars `|`, `|-`, `>`, `>-` with no leading blank line (literal ones may have more
  indented lines, folded ones may not); the one tag is `!function` before a one-line plain
  scalar (lm-eval's).
"""
from __future__ import annotations

import re
from typing import Any

from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.parsed import MAX_DEPTH
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence
from evalyaml.syntax.yaml.tags import MAP, MAYBE_NOT_STR, NULL, SEQ, STR, plain_tag

_STR = STR  # quoted and block scalars
_MAP = MAP
_SEQ = SEQ

_TAG_CACHE_SIZE = 4096
_plain_tags: dict[str, str] = {}


def _resolve_plain(value: str) -> str:
    """The tag of a plain scalar, memoized: only values that may be something other than a
    string get here, and datasets repeat them (numbers, booleans, dates). Bounded: cleared
    when full, so a file of distinct numbers cannot grow it without limit."""
    tag = _plain_tags.get(value)
    if tag is None:
        if len(_plain_tags) >= _TAG_CACHE_SIZE:
            _plain_tags.clear()
        tag = _plain_tags[value] = plain_tag(value)
    return tag


_NULL = NULL

# Characters outside the subset send the text to ruamel: libyaml refuses control characters;
# tab, CR and BOM change indentation, line or offset rules; `parse_text` masks NEL/LS/PS;
# surrogates cannot be encoded; libyaml refuses U+FFFE and U+FFFF. Most texts are ASCII, where
# a byte table finds the control characters at memory speed; the rest pay for a regex scan.
_ASCII_CONTROLS = bytes(1 if (code < 0x20 and code != 0x0A) or code == 0x7F else 0
                        for code in range(256))
_UNSAFE = "[^\n -~\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
"""Compiled with the first non-ASCII text (`re` caches it): its Unicode ranges cost 3 ms to
compile, which a check of ASCII files need not pay at start."""
# Every line of the text, split by one `findall`: (indentation)(`- ` of an item)(a key)(its ':'
# and the spaces after it)(the rest: the value, or a comment). Possessive repeats: nothing here
# needs backtracking, and not trying costs a third less.
_LINES = re.compile(r"^( *+)(-(?: ++|$))?(?:([A-Za-z_$][A-Za-z0-9_.$/-]*+)(:(?: ++|$)))?(.*)$",
                    re.MULTILINE)
# libyaml refuses implicit keys longer than 1,024 characters; this keeps well away from that.
_MAX_KEY = 500
# `parse_text` runs the fast path before its depth guard (`find_depth_overflow`, a regex search
# that costs a tenth of a case's parse), so the fast path declines whatever the guard might
# refuse: more than MAX_DEPTH brackets, or MAX_DEPTH indentation steps (` `, `- `, `? `, `: `)
# at a line start. Indentation and an item's `-   ` stay under half of that without a run of
# MAX_DEPTH // 2 spaces; block scalar text that starts with indicators is checked on its own.
_DEEP_SPACES = " " * (MAX_DEPTH // 2)
# One-line quoted scalars without escapes, then the end of the line or a comment.
_DOUBLE = lazy_re(r'"([^"\\]*)"(?: *$| +#)')
_SINGLE = lazy_re(r"'([^']*)'(?: *$| +#)")
# One item of a one-line flow list, with the ',' or ']' after it: a plain scalar (no
# indicator first; none of `,[]{}#` or quotes inside; a ':' only before more text, as libyaml
# 0.2.5 reads `[openai:gpt-4o]`; a '?' anywhere after the first character, as in `[why?]`), or
# a quoted scalar as above. A ':' before a blank (a mapping) or before `,?[]{}` (libyaml's
# error) is left to the full parser.
_FLOW_PLAIN = (r"(?:[^ ,\[\]{}#:'\"&*!|>%@`?\-]|-(?=[^ ,\[\]{}#:'\"?]))"
               r"(?:(?:[^,\[\]{}#:'\"]|:(?=[^ \t,?\[\]{}#'\"]))*[^ ,\[\]{}#:'\"])?")
_FLOW_ITEM = lazy_re(rf" *(?:({_FLOW_PLAIN})|'([^']*)'|\"([^\"\\]*)\") *([,\]])")
_FLOW_EMPTY = lazy_re(r"\[ *\]")
_FLOW_WORD = r"[A-Za-z0-9_][A-Za-z0-9_.$/@+-]*+"
_FLOW_WORDS = lazy_re(rf"\[{_FLOW_WORD}(?:, {_FLOW_WORD})*+\]")
_TAIL = lazy_re(r" *$| +#")
# First characters of a value that are not simply the start of a plain scalar.
_SPECIAL_START = frozenset("-?:,[]{}#&*!|>'\"%@`")
_BLOCK_HEADERS = frozenset(("|", "|-", ">", ">-"))


def _plain(rest: str, start: int) -> Scalar | None:
    """A one-line plain scalar, up to a comment; None if it holds a mapping indicator."""
    cut = rest.find(" #")
    value = (rest[:cut] if cut != -1 else rest).rstrip(" ")
    if value[-1] == ":" or ": " in value:
        return None  # a mapping inside the value: a syntax error, or not what it looks like
    tag = _resolve_plain(value) if value[0] in MAYBE_NOT_STR else _STR
    return Scalar(tag, start, start + len(value), value, "")


def _special_value(rest: str, start: int) -> Node | None:
    """A one-line value whose first character is in `_SPECIAL_START` (block scalars aside)."""
    first = rest[0]
    if first == '"':
        m = _DOUBLE.match(rest)
        return None if m is None else Scalar(_STR, start, start + m.end(1) + 1, m.group(1), '"')
    if first == "'":
        m = _SINGLE.match(rest)
        return None if m is None else Scalar(_STR, start, start + m.end(1) + 1, m.group(1), "'")
    if first == "[":
        return _flow_sequence(rest, start)
    if first == "-" and len(rest) > 1 and rest[1] != " ":
        return _plain(rest, start)  # `-1`, `-x`
    if rest.startswith(_FUNCTION_TAG + " "):
        return _function(rest, start)
    return None  # other tags, anchors, aliases, flow mappings, reserved indicators, `? `, `: `


_FUNCTION_TAG = "!function"


def _function(rest: str, start: int) -> Scalar | None:
    """`!function utils.process_docs`, lm-eval's local tag on a plain scalar (most of its task
    files hold one): ruamel keeps the tag as written and the span from the `!`."""
    body = rest[len(_FUNCTION_TAG):].lstrip(" ")
    if not body or body[0] in _SPECIAL_START:
        return None
    inner = _plain(body, start + len(rest) - len(body))
    if inner is None:
        return None
    return Scalar(_FUNCTION_TAG, start, inner.end, inner.text, "")


def _flow_sequence(rest: str, start: int) -> Sequence | None:
    """A one-line `[a, 'b', "c"]` of scalars."""
    if _FLOW_WORDS.fullmatch(rest) is not None:  # the common `[a, b]`: no regex per item
        seq = Sequence(_SEQ, start, start + len(rest), True)
        items = seq.items
        at = start + 1
        for word in rest[1:-1].split(", "):
            tag = _resolve_plain(word) if word[0] in MAYBE_NOT_STR else _STR
            items.append(Scalar(tag, at, at + len(word), word, ""))
            at += len(word) + 2
        return seq
    empty = _FLOW_EMPTY.match(rest)
    if empty is not None:
        end = empty.end()
        if _TAIL.match(rest, end) is None:
            return None
        return Sequence(_SEQ, start, start + end, True)
    seq = Sequence(_SEQ, start, 0, True)
    items = seq.items
    at = 1
    match = _FLOW_ITEM.match
    while True:
        m = match(rest, at)
        if m is None:
            return None
        plain, single, double, after = m.groups()
        if plain is not None:
            tag = _resolve_plain(plain) if plain[0] in MAYBE_NOT_STR else _STR
            items.append(Scalar(tag, start + m.start(1), start + m.end(1), plain, ""))
        elif single is not None:
            items.append(Scalar(_STR, start + m.start(2) - 1, start + m.end(2) + 1, single, "'"))
        else:
            items.append(Scalar(_STR, start + m.start(3) - 1, start + m.end(3) + 1, double, '"'))
        at = m.end()
        if after == "]":
            break
    if _TAIL.match(rest, at) is None:
        return None
    seq.end = start + at
    return seq


_Line = tuple[str, str, str, str, str]  # what `_LINES.findall` gives for each line


def _too_deep(indent: int, content: str) -> bool:
    """Whether the depth guard might count MAX_DEPTH steps at the start of a line of block
    scalar text (`- - - ...`); an over-estimate: every space, `-`, `?` and `:` counts."""
    return indent + len(content) - len(content.lstrip(" ?:-")) >= MAX_DEPTH


def _block_scalar(lines: list[_Line], index: int, pos: int, *, header: str, start: int,
                  owner: int) -> tuple[Scalar, int, int] | None:
    """The block scalar whose header `header` starts at offset `start`; its lines start at
    `lines[index]`, at offset `pos`, and `owner` is the column of the collection holding it.
    Returns the scalar, and the index and offset of the first line after it.

    Blank lines inside are kept (folded: each is a line break; literal: each adds one), and a
    literal scalar keeps the extra spaces of a more indented line; a folded one with such a
    line is declined (libyaml stops folding around it). libyaml ends a block scalar after the
    last line break before the next non-blank line, so trailing blank lines belong to its span,
    but not a last line that has no line break.
    """
    count = len(lines)
    if index >= count:
        return None  # an empty scalar at the end of the text
    spaces, dash, key, colon, rest = lines[index]
    content = rest if not dash and not key else dash + key + colon + rest
    indent = len(spaces)
    if not content or indent <= owner:
        return None  # leading blank lines, or an empty scalar
    if content[0] in "-?:" and _too_deep(indent, content):
        return None
    literal = header[0] == "|"
    fold = "\n" if literal else " "
    parts = [content]
    pos += indent + len(content) + 1
    index += 1
    end_index, end = index, pos  # just after the last line of text
    last = count - 1
    blanks = 0  # blank lines since then
    while index < count:
        spaces, dash, key, colon, rest = lines[index]
        width = len(spaces)
        if not dash and not key and not rest:  # a blank line
            if width > indent:
                return None  # spaces beyond the indentation are text
            if index == last:
                break  # the last line, without a line break: the span stops before it
            blanks += 1
            pos += width + 1
            index += 1
            continue
        if width < indent:
            break  # less indented: the scalar is over
        content = rest if not dash and not key else dash + key + colon + rest
        pos += width + len(content) + 1
        if width > indent:
            if not literal:
                return None  # a more indented line in a folded scalar: not in the subset
            content = spaces[indent:] + content
        if content[0] in " -?:" and _too_deep(indent, content):
            return None
        if blanks:
            parts.append("\n" * (blanks + 1) if literal else "\n" * blanks)
            blanks = 0
        else:
            parts.append(fold)
        parts.append(content)
        index += 1
        end_index, end = index, pos
    value = "".join(parts)
    if end_index == count:  # the last text line ends the text, without a line break
        return Scalar(_STR, start, end - 1, value, header[0]), index, end - 1
    if header[-1] != "-":
        value += "\n"
    return Scalar(_STR, start, pos, value, header[0]), index, pos


def fast_parse(text: str) -> Node | None:
    """The tree of `text` if it lies in the simple subset (see the module docstring), else
    None. Never raises, whatever the text.

    One `findall` splits every line into its parts; the open collections are a stack whose
    innermost entry lives in local variables. A block collection's end is set when it closes
    (its last child's end, as `_Converter` sets it).
    """
    if text.isascii():
        if b"\x01" in text.encode("ascii").translate(_ASCII_CONTROLS):
            return None
    elif re.search(_UNSAFE, text) is not None:
        return None
    if _DEEP_SPACES in text or text.count("[") + text.count("{") > MAX_DEPTH:
        return None  # what the depth guard might refuse (see `_DEEP_SPACES`)
    lines: list[_Line] = _LINES.findall(text)
    count = len(lines)
    maybe_not_str = MAYBE_NOT_STR
    special = _SPECIAL_START
    str_tag = _STR
    plain_tags = _plain_tags
    max_key = _MAX_KEY
    # The innermost open collection: its column, node, keys (None for a sequence) and the list
    # its children go to (pairs or items). Outer ones wait on `stack`.
    column = -1
    node: Any = None
    keys: set[str] | None = None
    children: list[Any] = []
    stack: list[tuple[int, Any, set[str] | None, list[Any]]] = []
    root: Node | None = None
    # A `KEY:` whose value is not known yet: the key, its mapping's pairs, the mapping's column.
    pending: tuple[Scalar, list[Any], int] | None = None
    index = 0
    pos = 0  # offset of lines[index]
    while index < count:
        spaces, dash, key_text, colon, rest = lines[index]
        index += 1
        if not dash and not key_text and (not rest or rest[0] == "#"):
            pos += len(spaces) + len(rest) + 1  # a blank line or a comment
            continue
        indent = len(spaces)
        line_start = pos
        start = pos + indent + len(dash)  # of the key, or of an item's value
        after = start + len(key_text) + len(colon) if key_text else start  # of the value
        pos = after + len(rest) + 1
        if pending is not None:
            pending_key, pairs, key_column = pending
            pending = None
            if indent > key_column:  # the value is the block collection that starts here
                stack.append((column, node, keys, children))
                column = indent
                if dash:
                    node = Sequence(_SEQ, line_start + indent, 0, False)
                    keys = None
                    children = node.items
                else:
                    node = Mapping(_MAP, start, 0)
                    keys = set()
                    children = node.pairs
                pairs.append((pending_key, node))
            else:  # (`- item` at the key's own column is refused below: not a key)
                empty = pending_key.end + 1  # right after the ':' (see `_place_empty_value`)
                pairs.append((pending_key, Scalar(_NULL, empty, empty, "", "")))
        if indent != column:
            if root is None:
                column = indent
                if dash:
                    root = node = Sequence(_SEQ, line_start + indent, 0, False)
                    keys = None
                    children = node.items
                else:
                    root = node = Mapping(_MAP, start, 0)
                    keys = set()
                    children = node.pairs
            else:
                while indent < column:
                    node.end = children[-1].end if keys is None else children[-1][1].end
                    if not stack:
                        return None  # text after the root node, less indented than it
                    column, node, keys, children = stack.pop()
                if indent != column:
                    return None  # indentation that does not line up
        key: Scalar | None = None
        if keys is None:  # a sequence item
            if not dash:
                return None
            if key_text:  # `- KEY: ...`: a mapping starts at the key's column
                stack.append((column, node, keys, children))
                column = start - line_start
                node = Mapping(_MAP, start, 0)
                children.append(node)
                keys = set()
                children = node.pairs
            elif not rest or rest[0] == "#":
                return None  # an empty item
        elif dash or not key_text:
            return None
        if key_text:
            assert keys is not None
            if key_text in keys or len(key_text) > max_key:
                return None  # a duplicate key (EY102 is for ruamel's path to report)
            keys.add(key_text)
            if key_text[0] in maybe_not_str and _resolve_plain(key_text) != str_tag:
                return None
            key = Scalar(str_tag, start, start + len(key_text), key_text, "")
            if not rest or rest[0] == "#":
                pending = (key, children, column)
                continue
        first = rest[0]
        value: Node | None
        if first in special:
            if first in "|>":
                header = rest.rstrip(" ")
                if header not in _BLOCK_HEADERS:
                    return None
                # `column` is the block scalar's parent: the mapping, or the sequence.
                block = _block_scalar(lines, index, pos, header=header, start=after,
                                      owner=column)
                if block is None:
                    return None
                value, index, pos = block
                children.append(value if key is None else (key, value))
                continue
            value = _special_value(rest, after)
            if value is None:
                return None
        else:  # a plain scalar: the common case, inline
            if " #" in rest:
                rest = rest[:rest.find(" #")]
            if rest[-1] == " ":
                rest = rest.rstrip(" ")
            if rest[-1] == ":" or ": " in rest:
                return None  # a mapping inside the value: an error, or not what it looks like
            value = Scalar((plain_tags.get(rest) or _resolve_plain(rest))
                           if first in maybe_not_str else str_tag,
                           after, after + len(rest), rest, "")
        children.append(value if key is None else (key, value))
    if root is None:
        return None  # nothing but comments and blank lines
    if pending is not None:
        pending_key, pairs, _ = pending
        empty = pending_key.end + 1
        pairs.append((pending_key, Scalar(_NULL, empty, empty, "", "")))
    while True:
        node.end = children[-1].end if keys is None else children[-1][1].end
        if not stack:
            return root
        column, node, keys, children = stack.pop()
