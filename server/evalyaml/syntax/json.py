"""Strict RFC 8259 JSON to the same tree YAML produces, with every deviation a located finding.

Why not ruamel (the YAML parser reads JSON too): it accepts `{"a": 1,}`, reads `NaN` as the
string "NaN" and leaves `"\\ud83d\\ude00"` as two lone surrogates. Why not `json.loads`: it has
no positions, and it accepts `NaN`, `Infinity` and duplicate keys, which strict consumers reject
or read differently. So this is a small reader of our own, built for speed on stdlib C pieces:
- A few compiled regexes, one per parser state, each taking the whitespace before a token and
  as much as it can of the common case: a member's name, colon and scalar value, or an array's
  comma and next scalar, in one C call. A string needs decoding only when it holds a backslash.
- `json.decoder.scanstring` (C) for strings with escapes: it returns the decoded value and its
  end offset, and it pairs `\\ud83d\\ude00` escapes into one character. The slow decoder of our
  own runs only when scanstring refuses a string or the value holds a lone surrogate, to place
  each problem exactly.
- Numbers by our own patterns, not `json.scanner.NUMBER_RE`: its `\\d` also matches non-ASCII
  digits (Arabic-Indic digits after a 1, which `int` then reads), which the C scanner refuses.
- What is left is the cost of a Python object per node (two per object member), so the reader
  is several times slower than `json.loads` (about 4x for string-heavy text, 10-15x for many
  small objects) and several times faster than composing the same text with ruamel's C parser.
  Like every parse here, it wants the cyclic collector paused by its caller (the engine, the
  index and the CLI workers do): the nodes live on, and rescanning them triples the time.

Decisions:
- One iterative loop with an explicit stack, so nesting cannot raise RecursionError; nesting past
  `MAX_DEPTH` (as for YAML) is EY105, since the tree's consumers recurse.
- Recover where the intent is unambiguous, so later findings and the rest of the tree survive:
  trailing commas, duplicate keys (both pairs kept in order, as YAML does), non-finite numbers,
  comments, single-quoted strings, unquoted member names, bad escapes (kept as written),
  control characters (kept), lone surrogates (kept), lax numbers (`01`, `+1`, `.5`, `1.`),
  whitespace JSON does not allow, a missing comma or colon between well-formed tokens, and
  extra data after a complete root (the root is kept). Anything else stops the parse with one
  finding at the offending character, naming what was expected and what was found.
- `ok` says the tree is complete (every value of the text is in it); findings say whether the
  text is strict JSON. On a stop, `documents` is empty, as for a YAML syntax error.
- A leading U+FEFF is skipped without a finding: `decode` has already dropped a UTF-8
  byte-order mark from file bytes, and RFC 8259 lets a parser ignore one. Anywhere else it is
  whitespace JSON does not allow.
- Duplicate keys get their own code, not YAML's EY102: YAML's message says the first counts,
  but JSON readers disagree (Python's `json` keeps the last), and that is what a user must hear.
- Lone surrogate escapes are valid RFC 8259 grammar, but the value cannot be written as UTF-8
  (digests, LSP messages), so they are reported; the value keeps them, as `json.loads` does.
"""

from __future__ import annotations

import json.decoder
import re
import unicodedata
from collections.abc import Callable
from typing import NoReturn, cast

from evalyaml.core.findings import FindingSink, Fix, Related, TextEdit
from evalyaml.syntax.parsed import MAX_DEPTH, ParsedText
from evalyaml.syntax.recover import Hole, Mask, blank, max_holes
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

# (value, end offset) of the string whose opening quote is just before the offset; C code.
_scanstring: Callable[[str, int, bool], tuple[str, int]] = \
    json.decoder.scanstring  # type: ignore[attr-defined]  # typeshed leaves it out

_CORE = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, MAP, SEQ = (
    _CORE + name for name in ("str", "int", "float", "bool", "null", "map", "seq"))

SYNTAX, DUPLICATE_KEY, NON_FINITE, TRAILING_COMMA, NESTING = (
    "EY110", "EY111", "EY112", "EY113", "EY105")

# --- tokens -------------------------------------------------------------------------------------
# Each state has one pattern that takes the whitespace before a token and as much as it can of
# the common case in one C call: in an object, ', "name": value' for a scalar value; in an
# array, ', value'. Whatever a pattern does not take goes to a slow path that explains it.
_WS = r"[ \t\n\r]*"
_BODY = r'[^"\\\x00-\x1f\ud800-\udfff]*'  # a string needing no decoding and no check
_INT = r"-?(?:0|[1-9][0-9]*)"
_NUMBER_END = r"(?![.eE0-9])"
# Six groups for a scalar: string, int, float, true, false, null.
_SCALAR = (rf'"({_BODY})"|({_INT}){_NUMBER_END}'
           rf"|({_INT}(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?){_NUMBER_END}|(true)|(false)|(null)")
_NAME = rf'"({_BODY})":({_WS})'  # the space after the colon places the name
_OPEN = r"(\{)|(\[)"
# Where a value must come: 1-6 a scalar, 7 {, 8 [, 9 a string to decode, 10 ] (an empty
# array, or after a trailing comma).
_VALUE = re.compile(_WS + rf'(?:{_SCALAR}|{_OPEN}|(")|(\]))')
# After an array item: 1-6 ', scalar', 7 ', {', 8 ', [', 9 ',', 10 ], 11 }.
_ITEM_NEXT = re.compile(_WS + rf"(?:,{_WS}(?:{_SCALAR}|{_OPEN})|(,)|(\])|(\}}))")
# The two member patterns agree on 1-11: 1 a name, 2 the space after its colon, then its value
# when it is a scalar (3-8) or opens a container (9 {, 10 [); 11 a name and colon, before a
# value of another kind.
# Where a member must come (after '{' or ','): 12 } (an empty object, or after a trailing
# comma), 13 a name without its colon, 14 a name to decode.
_MEMBER = re.compile(
    _WS + rf'(?:{_NAME}(?:{_SCALAR}|{_OPEN})|"({_BODY})":|(\}})|"({_BODY})"|("))')
# After a member: 12 ',', 13 }, 14 ].
_MEMBER_NEXT = re.compile(
    _WS + rf'(?:,{_WS}{_NAME}(?:{_SCALAR}|{_OPEN})|,{_WS}"({_BODY})":|(,)|(\}})|(\]))')
_COLON = re.compile(_WS + ":")
_TAGS = (STR, INT, FLOAT, BOOL, BOOL, NULL)  # by scalar group

_SURROGATE = re.compile("[\ud800-\udfff]")
_LAX_NUMBER = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_NON_FINITE = re.compile(r"[-+]?(?:NaN|Infinity)")
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_WORD_TAIL = re.compile(r"[A-Za-z0-9_$.+-]*")
_STRING_RUN = {'"': re.compile(r'[^"\\\x00-\x1f\ud800-\udfff]+'),
               "'": re.compile(r"[^'\\\x00-\x1f\ud800-\udfff]+")}
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
            "t": "\t"}
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_JSON_WS = frozenset(" \t\n\r")
_OTHER_SPACE = frozenset("\ufeff\u200b\u2060\u180e")
_CONTROL_NAMES = {"\t": "tab", "\x0b": "vertical tab", "\x0c": "form feed", "\x00": "NUL",
                  "\x85": "NEXT LINE"}
_LITERAL_HINTS = {"True": "true", "False": "false", "None": "null", "nil": "null",
                  "undefined": "null", "TRUE": "true", "FALSE": "false", "NULL": "null"}


_Related = tuple[tuple[int, int, str], ...]  # (start, end, message)
_Fixes = tuple[tuple[str, int, int, str], ...]  # (title, start, end, new text)
_Note = tuple[str, str, int, int, _Related, _Fixes]  # a finding in offsets: code, message, span


class _Stop(Exception):
    """A hard syntax error: the parse ends with this one finding."""

    def __init__(self, start: int, end: int, message: str, *,
                 related: _Related = (), code: str = SYNTAX) -> None:
        super().__init__(message)
        self.code = code
        self.start = start
        self.end = end
        self.message = message
        self.related = related



def parse_json(text: str, sink: FindingSink, *, base_line: int = 0) -> ParsedText:
    """Parse one JSON text; findings go to `sink`, `base_line` lines further down.

    Node offsets are code points into `text`. `documents` is `[root]`, or `[]` when the text
    is empty or the parse stopped (then `ok` is False). After a stop in a document of several
    lines the broken line is blanked and the rest read again (`_recover`): then `documents`
    holds the tree around it, `holes` says what was blanked, and `sink` gets the mask that
    keeps the blank's own consequences out of the findings.
    """
    lines = LineIndex(text)
    root, notes, stop = _read(text)
    _emit(notes, sink, lines, base_line)
    if root is None and stop is not None and stop.code == SYNTAX and not base_line:
        recovered = _recover(text, lines, stop.start, sink)
        if recovered is not None:
            return recovered
    return ParsedText(text, lines, [root] if root is not None else [], ok=root is not None)


def read_json(text: str, sink: FindingSink, *, base_line: int = 0,
              lines: LineIndex | None = None) -> Node | None:
    """`parse_json` without the `ParsedText` and without recovery: the root, or None when the
    parse stopped.

    For callers that keep only the tree and the findings (a JSONL row: one line, nothing to
    recover around): the `LineIndex` is built only when there is a finding to place.
    """
    root, notes, _ = _read(text)
    if notes:
        _emit(notes, sink, lines or LineIndex(text), base_line)
    return root


def _read(text: str) -> tuple[Node | None, list[_Note], _Stop | None]:
    reader = _Reader(text)
    try:
        return reader.read(), reader.notes, None
    except _Stop as stop:
        reader.notes.append((stop.code, stop.message, stop.start, stop.end, stop.related, ()))
        return None, reader.notes, stop


def _emit(notes: list[_Note], sink: FindingSink, index: LineIndex, base_line: int) -> None:
    for code, message, start, end, related, fixes in notes:
        sink.add(
            code, message, index.span(start, end).shifted(base_line),
            related=tuple(Related(None, index.span(s, e).shifted(base_line), m)
                          for s, e, m in related),
            fixes=tuple(Fix(title, (TextEdit(index.span(s, e).shifted(base_line), new),),
                            preferred=True) for title, s, e, new in fixes),
        )


_JOINT_CODES = frozenset({SYNTAX, TRAILING_COMMA})
"""What a blanked member leaves next to it: the comma before it now trails."""


def _recover(text: str, lines: LineIndex, at: int, sink: FindingSink) -> ParsedText | None:
    """The stop's line (and what it opens, through its closing line) blanked, up to
    `max_holes` times; None when the document does not recover. Findings of the recovered read
    that the first read did not give go through the mask."""
    holes: list[Hole] = []
    work = text
    for _ in range(max_holes(text)):
        hole = _json_hole(LineIndex(work) if holes else lines, at, holes)
        if hole is None:
            return None
        holes.append(hole)
        work = blank(work, hole)
        root, notes, stop = _read(work)
        if root is not None:
            body = text.strip(" \t\r\n\ufeff")
            opened = len(text) - len(text.lstrip(" \t\r\n\ufeff"))
            if not isinstance(root, (Mapping, Sequence)) or root.start != opened or \
                    root.end != opened + len(body):
                return None  # the document's own brackets were in the hole: nothing is sure
            mask = Mask(lines, tuple(holes), joints=_JOINT_CODES)
            trial = FindingSink(strict=sink.strict)
            trial.mask = mask.hides
            _emit(notes, trial, lines, 0)
            known = set(sink.findings)
            sink.findings.extend(f for f in trial.findings if f not in known)
            sink.mask = mask.hides
            return ParsedText(text, lines, [root], ok=False, holes=tuple(holes))
        if stop is None or stop.code != SYNTAX:
            return None
        at = stop.start
    return None


def _json_hole(lines: LineIndex, at: int, holes: list[Hole]) -> Hole | None:
    """The line of `at`, with the lines indented under it and, when it opens an object or
    array, the line that closes it at its own indentation. None for a one-line document or
    a line already blanked."""
    if lines.line_count < 2:
        return None
    first = lines.position(at).line
    if any(h.first_line <= first <= h.last_line for h in holes):
        return None
    head = lines.line_text(first)
    indent = len(head) - len(head.lstrip(" \t"))
    if not head.strip():
        return None
    last = first
    for line in range(first + 1, lines.line_count):
        below = lines.line_text(line)
        if not below.strip():
            continue
        depth = len(below) - len(below.lstrip(" \t"))
        if depth > indent:
            last = line
            continue
        if depth == indent and below.lstrip()[:1] in ("}", "]") and \
                head.rstrip().endswith(("{", "[")):
            last = line  # the closing line of what the broken line opened
        break
    if first == 0 and last >= lines.line_count - 1:
        return None  # the whole document: nothing around it to keep
    return Hole(lines.line_start(first), lines.line_end(last), first, last, indent, False,
                False)


def describe(text: str, pos: int) -> str:
    """The character at `pos` as a message shows it."""
    if pos >= len(text):
        return "the end of the input"
    char = text[pos]
    if char in "\n\r":
        return "the end of the line"
    if char.isprintable() and not char.isspace():
        word = _WORD.match(text, pos)
        shown = word.group() if word and len(word.group()) <= 20 else char
        return f"'{shown}'"
    name = _CONTROL_NAMES.get(char) or unicodedata.name(char, "a control character")
    return f"U+{ord(char):04X} ({name})"


class _Reader:
    __slots__ = ("n", "notes", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.notes: list[_Note] = []

    def note(self, code: str, message: str, start: int, end: int, *,
             related: _Related = (), fixes: _Fixes = ()) -> None:
        self.notes.append((code, message, start, end, related, fixes))

    def read(self) -> Node | None:
        """The loop: one state variable, the open containers on a stack, the hot paths inline.

        States: 0 a value, 1 a member (after '{' or ','), 2 after an array item, 3 the colon
        after a name written apart from it, 4 after a member, 5 after the root.
        """
        text = self.text
        value_match, item_next, member_match, member_next, colon_match = (
            _VALUE.match, _ITEM_NEXT.match, _MEMBER.match, _MEMBER_NEXT.match, _COLON.match)
        tags, scalar, str_tag = _TAGS, Scalar, STR
        holder = Sequence(SEQ, 0, 0, True)  # the root's parent
        stack: list[Mapping | Sequence] = [holder]
        items: list[Node] = holder.items  # of the innermost open array
        pairs: list[tuple[Node, Node]] = []  # of the innermost open object
        in_map = False
        key = Scalar(STR, 0, 0, "", '"')  # the name whose value comes next
        comma = -1  # offset of the comma just read, while a value or name may still follow it
        pos = 1 if text.startswith("\ufeff") else 0
        state = 0
        node: Node
        while True:
            # Each branch either goes round again, or leaves `opens` set: 1 or 2 when a '{' or
            # '[' ends at `end`, 0 when the innermost container closes at `pos`.
            if state in (1, 4):  # a member (after '{' or ','), or after one
                m = (member_next if state == 4 else member_match)(text, pos)
                if m is None:
                    if state == 4:
                        state, pos = self._after_slow(pos, stack, in_map=True)
                        comma = -1
                    else:
                        state, pos, found_key = self._key_slow(pos, comma)
                        if found_key is not None:
                            key = found_key
                    continue
                group = m.lastindex or 0
                end = m.end()
                if group <= 10:  # a name and a scalar value or an opening: the common case
                    parts = m.groups()
                    if group <= 8:
                        value = parts[group - 1]
                        if group == 3:
                            start = end - len(value) - 2
                            node = scalar(str_tag, start, end, value, '"')
                        else:
                            start = end - len(value)
                            node = scalar(tags[group - 3], start, end, value, "")
                    else:
                        start = end - 1
                    name = parts[0]
                    start -= len(parts[1]) + 1
                    key = scalar(str_tag, start - len(name) - 2, start, name, '"')
                    if group <= 8:
                        pairs.append((key, node))
                        pos, state = end, 4
                        continue
                    opens = group - 8
                elif group == 11:  # a name and colon
                    name = m.group(11)
                    start = m.start(11) - 1
                    key = scalar(str_tag, start, start + len(name) + 2, name, '"')
                    pos, state = end, 0
                    continue
                elif state == 4:
                    if group == 12:  # ','
                        comma = end - 1
                        pos, state = end, 1
                        continue
                    if group == 14:
                        self._bad_closer(end - 1, stack, in_map=True)
                    pos, opens = end, 0  # '}'
                elif group == 13:  # a name, then space before its colon
                    name = m.group(13)
                    key = scalar(str_tag, end - len(name) - 2, end, name, '"')
                    pos, state = end, 3
                    continue
                elif group == 14:
                    key = self._string(end - 1)
                    pos, state = key.end, 3
                    continue
                else:  # '}'
                    if comma >= 0:
                        self._trailing_comma(comma, "}")
                    pos, opens = end, 0
            elif state == 2:  # after an array item: ', scalar' or ',' or ']'
                m = item_next(text, pos)
                if m is None:
                    state, pos = self._after_slow(pos, stack, in_map=False)
                    comma = -1
                    continue
                group = m.lastindex or 0
                end = m.end()
                if group <= 6:
                    value = m.group(group)
                    items.append(scalar(str_tag, end - len(value) - 2, end, value, '"')
                                 if group == 1
                                 else scalar(tags[group - 1], end - len(value), end, value, ""))
                    pos = end
                    continue
                if group <= 8:
                    opens = group - 6
                elif group == 9:
                    comma = end - 1
                    pos, state = end, 0
                    continue
                else:
                    if group == 11:
                        self._bad_closer(end - 1, stack, in_map=False)
                    pos, opens = end, 0  # ']'
            elif state == 0:  # a value
                m = value_match(text, pos)
                if m is None:
                    state, pos, found = self._value_slow(pos, stack, comma)
                    if found is None:
                        continue
                    node = found
                else:
                    group = m.lastindex or 0
                    end = m.end()
                    if group <= 6:
                        value = m.group(group)
                        node = scalar(str_tag, end - len(value) - 2, end, value, '"') \
                            if group == 1 \
                            else scalar(tags[group - 1], end - len(value), end, value, "")
                        pos = end
                    elif group == 9:
                        node = self._string(end - 1)
                        pos = node.end
                    elif group <= 8:
                        opens = group - 6
                    else:  # ']': closes an empty array, or follows a trailing comma
                        if in_map or len(stack) == 1:
                            raise _Stop(end - 1, end, "expected a value, found ']'")
                        if comma >= 0:
                            self._trailing_comma(comma, "]")
                        pos, opens = end, 0
                if m is None or group <= 6 or group == 9:
                    if in_map:
                        pairs.append((key, node))
                        state = 4
                    else:
                        items.append(node)
                        state = 2 if len(stack) > 1 else 5
                    continue
            elif state == 3:  # the colon after a name written apart from it
                m = colon_match(text, pos)
                if m is None:
                    state, pos = self._colon_slow(pos, key)
                else:
                    pos, state = m.end(), 0
                continue
            else:  # state 5: after the root
                self._end(pos)
                return holder.items[0]
            if opens:
                if len(stack) > MAX_DEPTH:
                    raise _Stop(end - 1, end, f"nesting deeper than {MAX_DEPTH} starts here; "
                                "evalyaml does not parse JSON nested this deep", code=NESTING)
                container: Mapping | Sequence = (
                    Mapping(MAP, end - 1, end) if opens == 1 else Sequence(SEQ, end - 1, end, True))
                if in_map:
                    pairs.append((key, container))
                else:
                    items.append(container)
                stack.append(container)
                if isinstance(container, Mapping):
                    in_map, pairs, state = True, container.pairs, 1
                else:
                    in_map, items, state = False, container.items, 0
                pos, comma = end, -1
                continue
            closed = stack.pop()
            closed.end = pos
            if in_map and len(pairs) > 1:
                self._check_keys(pairs)
            top = stack[-1]
            if isinstance(top, Mapping):
                in_map, pairs, state = True, top.pairs, 4
            else:
                in_map, items, state = False, top.items, (2 if len(stack) > 1 else 5)

    # --- the rare paths -------------------------------------------------------------------------

    def _check_keys(self, pairs: list[tuple[Node, Node]]) -> None:
        named = cast("list[tuple[Scalar, Node]]", pairs)  # every name here is a string Scalar
        if len({k.text for k, _ in named}) == len(named):
            return
        first: dict[str, Scalar] = {}
        for key, _ in named:
            earlier = first.setdefault(key.text, key)
            if earlier is key:
                continue
            shown = _shown(key.text)
            self.note(DUPLICATE_KEY,
                      f"duplicate key '{shown}': JSON readers disagree on which value counts "
                      f"(Python's json keeps the last, evalyaml checks the first); keep one",
                      key.start, key.end,
                      related=((earlier.start, earlier.end, f"first '{shown}' is here"),))

    def _trailing_comma(self, comma: int, closer: str) -> None:
        self.note(TRAILING_COMMA, f"trailing comma before '{closer}': JSON allows no comma "
                  "after the last item", comma, comma + 1,
                  fixes=(("Remove the trailing comma", comma, comma + 1, ""),))

    def _extra_data(self, pos: int) -> None:
        self.note(SYNTAX, f"expected the end of the input after the JSON value, found "
                  f"{describe(self.text, pos)}; a JSON text holds exactly one value",
                  pos, min(pos + 1, self.n))

    def _bad_closer(self, pos: int, stack: list[Mapping | Sequence], *, in_map: bool
                    ) -> NoReturn:
        opener = stack[-1]
        expected = "',' or '}' after a member" if in_map else "',' or ']' after an item"
        raise _Stop(pos, pos + 1, f"expected {expected}, found {describe(self.text, pos)}",
                    related=((opener.start, opener.start + 1,
                              f"the {'object' if in_map else 'array'} starts here"),))

    def skip(self, pos: int) -> int:
        """Past JSON whitespace, and past comments and other whitespace, which are reported."""
        text, n = self.text, self.n
        while pos < n:
            char = text[pos]
            if char in _JSON_WS:
                pos += 1
            elif char == "/" and text.startswith("//", pos):
                end = pos + 2
                while end < n and text[end] not in "\r\n":
                    end += 1
                self._comment(pos, end)
                pos = end
            elif char == "/" and text.startswith("/*", pos):
                close = text.find("*/", pos + 2)
                if close < 0:
                    raise _Stop(pos, pos + 2, "this comment is never closed: expected '*/' "
                                "(and JSON allows no comments)")
                self._comment(pos, close + 2)
                pos = close + 2
            elif char.isspace() or char in _OTHER_SPACE:
                end = pos + 1
                while end < n and (text[end].isspace() or text[end] in _OTHER_SPACE) \
                        and text[end] not in _JSON_WS:
                    end += 1
                self.note(SYNTAX, f"{describe(text, pos)} is not whitespace in JSON; only "
                          "spaces, tabs and line breaks may separate tokens", pos, end)
                pos = end
            else:
                break
        return pos

    def _comment(self, start: int, end: int) -> None:
        self.note(SYNTAX, "JSON allows no comments; remove it (or move the note into a "
                  "string value)", start, end)

    def _after_slow(self, pos: int, stack: list[Mapping | Sequence], *, in_map: bool
                    ) -> tuple[int, int]:
        """After an item or member, where the fast pattern found no ',' or closer: returns the
        state and offset to go on from, or raises."""
        value_end = pos
        pos = self.skip(pos)
        text, n = self.text, self.n
        if pos > value_end and pos < n and text[pos] in ",]}":
            return (4 if in_map else 2), pos  # past comments: the fast pattern again
        self._check_number_tail(value_end, pos)
        opener = stack[-1]
        what = "object" if in_map else "array"
        expected = "',' or '}' after a member" if in_map else "',' or ']' after an item"
        if pos < n and (text[pos] == '"' if in_map else self._value_starts(pos)):
            # Two well-formed items in a row: a comma is missing, and where is unambiguous.
            self.note(SYNTAX, f"expected {expected}, found {describe(text, pos)}: a ',' is "
                      "missing", value_end, value_end,
                      fixes=(("Insert the missing ','", value_end, value_end, ","),))
            return (1 if in_map else 0), pos
        raise _Stop(pos, min(pos + 1, n), f"expected {expected}, found {describe(text, pos)}",
                    related=((opener.start, opener.start + 1, f"the {what} starts here"),))

    def _value_starts(self, pos: int) -> bool:
        """Whether a well-formed value starts at `pos`: then a missing ',' or ':' before it is
        the only reading, and the parse can go on."""
        m = _VALUE.match(self.text, pos)
        return m is not None and m.lastindex != 10  # not ']'

    def _end(self, pos: int) -> None:
        """After the root: only whitespace may follow."""
        value_end = pos
        pos = self.skip(pos)
        if pos < self.n:
            self._check_number_tail(value_end, pos)
            self._extra_data(pos)

    def _check_number_tail(self, value_end: int, pos: int) -> None:
        """`0x1F`, `1_000`, `1e`: a number the fast patterns stopped short of."""
        text = self.text
        if pos != value_end or pos >= self.n or not text[pos - 1].isdigit():
            return
        tail = _tail(text, pos)
        if tail == pos:
            return
        start = pos - 1
        while start > 0 and text[start - 1] in "0123456789.eE+-":
            start -= 1
        raise _Stop(pos, pos + 1, f"invalid number '{_shown(text[start:tail])}': a JSON number "
                    "is decimal digits with an optional '-', fraction and exponent")

    def _colon_slow(self, pos: int, key: Scalar) -> tuple[int, int]:
        pos = self.skip(pos)
        text = self.text
        if pos < self.n and text[pos] == ":":
            return 0, pos + 1
        found = describe(text, pos)
        if self._value_starts(pos):
            self.note(SYNTAX, f"expected ':' after the member name, found {found}: a ':' is "
                      "missing", key.end, key.end,
                      fixes=(("Insert the missing ':'", key.end, key.end, ":"),))
            return 0, pos
        raise _Stop(pos, min(pos + 1, self.n), f"expected ':' after the member name, found "
                    f"{found}")

    def _key_slow(self, pos: int, comma: int) -> tuple[int, int, Scalar | None]:
        """Where a member name or '}' must come: returns (state, pos, the name if read)."""
        start = pos
        pos = self.skip(pos)
        if pos > start:
            return 1, pos, None  # the fast pattern gets another go
        text = self.text
        found = describe(text, pos)
        if pos < self.n and text[pos] == "'":
            key = self._quoted(pos, "'")
            self.note(SYNTAX, "member names must be in double quotes, not single quotes",
                      key.start, key.end)
            return 3, key.end, key
        word = _WORD.match(text, pos)
        if word is not None and _COLON.match(text, word.end()):
            name = word.group()
            self.note(SYNTAX, f"member names must be strings in double quotes: write "
                      f"'\"{name}\"'", pos, word.end(),
                      fixes=(("Quote the name", pos, word.end(), f'"{name}"'),))
            return 3, word.end(), Scalar(STR, pos, word.end(), name, '"')
        expected = "a member name in double quotes" if comma >= 0 else \
            "a member name in double quotes or '}'"
        raise _Stop(pos, min(pos + 1, self.n), f"expected {expected}, found {found}")

    def _value_slow(self, pos: int, stack: list[Mapping | Sequence], comma: int
                    ) -> tuple[int, int, Node | None]:
        """Where a value must come: returns (state, pos, the value if read)."""
        start = pos
        pos = self.skip(pos)
        if pos > start:
            return 0, pos, None
        text, n = self.text, self.n
        if pos >= n:
            if len(stack) == 1:
                raise _Stop(pos, pos, "expected a JSON value, found the end of the input"
                            + (" (the text is empty)" if not text.strip() else ""))
            opener = stack[-1]
            what = "object" if isinstance(opener, Mapping) else "array"
            raise _Stop(pos, pos, "expected a value, found the end of the input",
                        related=((opener.start, opener.start + 1, f"the {what} starts here"),))
        char = text[pos]
        if char == "'":
            node = self._quoted(pos, "'")
            self.note(SYNTAX, "strings must be in double quotes, not single quotes",
                      node.start, node.end)
            return 2, node.end, node
        non_finite = _NON_FINITE.match(text, pos)
        if non_finite is not None and _tail(text, non_finite.end()) == non_finite.end():
            raw = non_finite.group()
            self.note(NON_FINITE, f"'{raw}' is not a JSON number: JSON has no NaN or infinity "
                      "(Python's json reads them, most other readers refuse); write null or a "
                      "string", pos, non_finite.end())
            return 2, non_finite.end(), Scalar(FLOAT, pos, non_finite.end(), raw, "")
        number = _LAX_NUMBER.match(text, pos)
        if number is not None or char in "-+":
            end = number.end() if number is not None else pos + 1
            tail = _tail(text, end)
            raw = text[pos:tail]
            if number is None or tail > end:
                bad = end if number is not None else pos + 1
                raise _Stop(bad, min(bad + 1, n), f"invalid number '{_shown(raw)}': a JSON "
                            "number is decimal digits with an optional '-', fraction and "
                            "exponent")
            self.note(SYNTAX, f"invalid number '{raw}': {_lax_number_problem(raw)}; Python's "
                      "json and other strict readers refuse it", pos, end)
            tag = FLOAT if any(c in raw for c in ".eE") else INT
            return 2, end, Scalar(tag, pos, end, raw, "")
        word = _WORD.match(text, pos)
        hint = ""
        if word is not None:
            literal = _LITERAL_HINTS.get(word.group())
            hint = f" (JSON writes this {literal})" if literal else \
                " (strings must be in double quotes)"
        raise _Stop(pos, pos + 1, f"expected a value, found {describe(text, pos)}{hint}")

    def _string(self, start: int) -> Scalar:
        """A double-quoted string at `start` that the fast pattern did not take."""
        text = self.text
        try:
            value, end = _scanstring(text, start + 1, True)
        except ValueError:
            return self._quoted(start, '"')
        if _SURROGATE.search(value):
            return self._quoted(start, '"')  # again, to place the lone surrogates
        return Scalar(STR, start, end, value, '"')

    def _quoted(self, start: int, quote: str) -> Scalar:
        """Decode a string by hand, reporting each problem at its place and keeping going."""
        text, n = self.text, self.n
        run = _STRING_RUN[quote].match
        parts: list[str] = []
        pos = start + 1
        while True:
            m = run(text, pos)
            if m is not None:
                parts.append(m.group())
                pos = m.end()
            if pos >= n or text[pos] in "\r\n":
                raise _Stop(pos, pos, f"this string is not closed: expected '{quote}' before "
                            f"{describe(text, pos)}", related=((start, start + 1,
                                                                "the string starts here"),))
            char = text[pos]
            if char == quote:
                return Scalar(STR, start, pos + 1, "".join(parts), '"')
            if char == "\\":
                pos = self._escape(pos, quote, parts)
            elif char < " ":
                self.note(SYNTAX, f"{describe(text, pos)} must be escaped inside a string "
                          f"(write {_escaped(char)})", pos, pos + 1,
                          fixes=(("Escape the character", pos, pos + 1, _escaped(char)),))
                parts.append(char)
                pos += 1
            else:  # a lone surrogate in the text itself
                self.note(SYNTAX, f"lone surrogate U+{ord(char):04X} in a string: it is not a "
                          "Unicode character and cannot be written as UTF-8", pos, pos + 1)
                parts.append(char)
                pos += 1

    def _escape(self, pos: int, quote: str, parts: list[str]) -> int:
        """The escape at `pos` (a backslash): appends its value, returns the offset after it."""
        text = self.text
        if pos + 1 >= self.n or text[pos + 1] in "\r\n":
            return pos + 1  # the caller reports the unclosed string
        esc = text[pos + 1]
        simple = _ESCAPES.get(esc)
        if simple is not None:
            parts.append(simple)
            return pos + 2
        if esc == quote:  # \' inside a single-quoted string, which is reported as a whole
            parts.append(esc)
            return pos + 2
        if esc != "u":
            shown = describe(text, pos + 1) if not esc.isprintable() else f"'\\{esc}'"
            self.note(SYNTAX, f"invalid escape {shown}: JSON knows \\\" \\\\ \\/ \\b \\f \\n "
                      "\\r \\t and \\uXXXX; write '\\\\' for a backslash", pos, pos + 2)
            parts.append(text[pos:pos + 2])  # kept as written
            return pos + 2
        if not _HEX4.match(text, pos + 2):
            end = pos + 2
            while end < pos + 6 and end < self.n and text[end] in "0123456789abcdefABCDEF":
                end += 1
            self.note(SYNTAX, f"invalid escape '{text[pos:end]}': \\u needs four hexadecimal "
                      "digits", pos, end)
            parts.append(text[pos:end])
            return end
        code = int(text[pos + 2:pos + 6], 16)
        if 0xD800 <= code <= 0xDBFF and text.startswith("\\u", pos + 6) \
                and _HEX4.match(text, pos + 8):
            low = int(text[pos + 8:pos + 12], 16)
            if 0xDC00 <= low <= 0xDFFF:
                parts.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
                return pos + 12
        if 0xD800 <= code <= 0xDFFF:
            advice = "pair it with a low surrogate" if code <= 0xDBFF else \
                "it must follow a high surrogate"
            self.note(SYNTAX, f"lone surrogate escape '{text[pos:pos + 6]}': it is not a "
                      f"Unicode character, so the value cannot be written as UTF-8; {advice} "
                      "or write the character itself", pos, pos + 6)
        parts.append(chr(code))
        return pos + 6


def _lax_number_problem(raw: str) -> str:
    digits = raw.lstrip("+-")
    if raw.startswith("+"):
        return "a JSON number cannot start with '+'"
    if digits.startswith("."):
        return "a JSON number needs a digit before '.'"
    mantissa = digits.split("e")[0].split("E")[0]
    if mantissa.endswith("."):
        return "a JSON number needs a digit after '.'"
    if len(mantissa) > 1 and mantissa[0] == "0" and mantissa[1] != ".":
        return "a JSON number cannot have leading zeros"
    return "not a JSON number"  # pragma: no cover - _LAX_NUMBER admits nothing else


def _tail(text: str, pos: int) -> int:
    """The end of the letters, digits and signs that stick to a token ending at `pos`."""
    m = _WORD_TAIL.match(text, pos)
    return m.end() if m is not None else pos


def _escaped(char: str) -> str:
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
    return named.get(char, f"\\u{ord(char):04x}")


def _shown(text: str) -> str:
    """A value short enough for a message."""
    return text if len(text) <= 60 else text[:57] + "..."
