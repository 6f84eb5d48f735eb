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

from evalyaml.core.findings import FindingSink, Fix, Related, TextEdit
from evalyaml.syntax.json_slow import ReaderBase
from evalyaml.syntax.json_tokens import (
    _COLON,
    _ITEM_NEXT,
    _MEMBER,
    _MEMBER_NEXT,
    _TAGS,
    _VALUE,
    BOOL,
    DUPLICATE_KEY,
    FLOAT,
    INT,
    MAP,
    NESTING,
    NON_FINITE,
    NULL,
    SEQ,
    STR,
    SYNTAX,
    TRAILING_COMMA,
    _Note,
    _Stop,
    describe,
)
from evalyaml.syntax.parsed import MAX_DEPTH, ParsedText
from evalyaml.syntax.recover import Hole, Mask, blank, max_holes
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

__all__ = ["BOOL", "DUPLICATE_KEY", "FLOAT", "INT", "MAP", "NESTING", "NON_FINITE", "NULL",
           "SEQ", "STR", "SYNTAX", "TRAILING_COMMA", "describe", "parse_json", "read_json"]


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


class _Reader(ReaderBase):
    __slots__ = ()

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
