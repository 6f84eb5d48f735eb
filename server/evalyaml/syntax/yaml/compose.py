"""ruamel.yaml's composers (C, else pure) for what the fast path declines: text to our tree,
every failure an EY1xx finding. `parse.py` imports this module only for such a text, so a
workspace of simple block YAML never loads ruamel (issue #27, start-up).

Two facts shape this module:
- The C composer recurses per nesting level and segfaults somewhere past 50,000 levels, and the
  C scanner is quadratic in flow depth. So a cheap scan refuses over-deep text *before* parsing.
- The C parser counts offsets after a byte-order mark, the pure one before it. `parse.py` strips
  the BOM and passes the rest with its length (`base`), so offsets agree whichever parser runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.tokens import (
    FlowMappingEndToken,
    FlowMappingStartToken,
    FlowSequenceEndToken,
    FlowSequenceStartToken,
)

from evalyaml.core.findings import FindingSink, Related
from evalyaml.syntax.parsed import MAX_DEPTH, ParsedText
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import MERGE_TAG, Mapping, Node, Scalar, Sequence
from evalyaml.syntax.yaml import pureyaml
from evalyaml.syntax.yaml.resolver import FastResolver

try:  # The C parser; absent on PyPy or a broken install.
    from ruamel.yaml.cyaml import CParser as _CParser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - exercised only where ruamel.yaml.clib is missing
    _CParser = None


_FLOW_STARTS = (FlowSequenceStartToken, FlowMappingStartToken)
_FLOW_ENDS = (FlowSequenceEndToken, FlowMappingEndToken)
# Literal "\n" first, so the regex engine jumps between line starts instead of trying every
# character; the first line is checked with `match`.
_INDENT_STEP = r"(?:[ \t]|[-?:][ \t])"
_DEEP_BLOCK = re.compile(_INDENT_STEP + f"{{{MAX_DEPTH}}}")
_DEEP_BLOCK_AFTER_LF = re.compile(r"\n" + _INDENT_STEP + f"{{{MAX_DEPTH}}}")
# The parser also starts lines after CR, and after NEL, LS and PS when they are not masked.
_OTHER_BREAKS = "\r\x85\u2028\u2029"
_DEEP_BLOCK_AFTER_OTHER = re.compile(f"[{_OTHER_BREAKS}]" + _INDENT_STEP + f"{{{MAX_DEPTH}}}")
_ANCHOR_NAME = re.compile(r"&([^\s,\[\]{}]*)")
_UNSAFE_TAG = re.compile(
    r"^tag:yaml\.org,2002:python/|^!!?python/|^tag:yaml\.org,2002:(?:set|omap|pairs)$"
)


if _CParser is not None:

    class _CLoader(_CParser, FastResolver):  # type: ignore[misc]
        """The C parser with the YAML 1.2 resolver: composes nodes, constructs nothing."""

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            FastResolver.__init__(self)


def c_parser_available() -> bool:
    return _CParser is not None


def find_depth_overflow(text: str, *, pure: bool = False) -> int | None:
    """Offset where nesting first exceeds MAX_DEPTH, found before the parser gets there.

    Flow depth: fewer brackets than MAX_DEPTH cannot nest deeper, which settles almost every
    file at C speed. Past that, brackets say little (one inside a string opens nothing, and a
    quoted `]` closes nothing: a dataset of broken JSON snippets, `input: '{"a": [1, 2'`, has
    thousands), so YAML's own tokens are counted, in a scan that stops at the first token past
    MAX_DEPTH and so never pays the scanner's cost of great depth. Block depth is bounded by
    the indentation plus the compact `- `/`? `/`: ` indicators that start a line.
    """
    if text.count("[") + text.count("{") > MAX_DEPTH:
        where = _flow_overflow(text, pure=pure)
        if where is not None:
            return where
    deep = _DEEP_BLOCK.match(text) or _DEEP_BLOCK_AFTER_LF.search(text)
    if deep is None and any(ch in text for ch in _OTHER_BREAKS):
        deep = _DEEP_BLOCK_AFTER_OTHER.search(text)
    return deep.end() - 1 if deep else None


def _flow_overflow(text: str, *, pure: bool) -> int | None:
    """The start of the first flow collection deeper than MAX_DEPTH, by the scanner's tokens.
    A syntax error before that is left to the parse, which stops at the same token."""
    tokens: Iterator[Any] = (iter(_CParser(text).get_token, None)
                             if not pure and _CParser is not None
                             else pureyaml.tokens(text))
    depth = 0
    try:
        for token in tokens:
            if isinstance(token, _FLOW_STARTS):
                depth += 1
                if depth > MAX_DEPTH:
                    return int(token.start_mark.index)
            elif isinstance(token, _FLOW_ENDS) and depth:
                depth -= 1
    except YAMLError:
        return None
    return None



def compose_text(text: str, lines: LineIndex, body: str, base: int, sink: FindingSink, *,
                 pure: bool) -> ParsedText:
    """`text` parsed by ruamel; `body` is `text` without its byte-order mark, `base` the length
    of that mark (0 or 1)."""
    unmasked = body
    body, masked = _mask_unicode_breaks(body)  # first: the guard scans what the parser will
    too_deep = find_depth_overflow(body, pure=pure or _CParser is None)
    if too_deep is not None:
        where = too_deep + base
        sink.add(
            "EY105",
            f"nesting or indentation deeper than {MAX_DEPTH} starts here; evalyaml does not "
            "parse files nested this deep",
            lines.span(where, min(where + 1, lines.line_end(lines.position(where).line))),
        )
        return ParsedText(text, lines, [], ok=False)
    try:
        raw_docs = _compose_all(body, pure=pure or _CParser is None)
    except MarkedYAMLError as err:
        if not pure and _old_libyaml_refusal(err, body):
            return compose_text(text, lines, unmasked, base, sink, pure=True)
        at, left_open = _report_syntax(err, text, lines, base, sink)
        return ParsedText(text, lines, [], ok=False, error_at=at, error_open=left_open)
    except (YAMLError, RecursionError, ValueError) as err:  # unmarked: place on line 1
        sink.add("EY101", f"YAML could not be parsed: {err}", lines.span(0, lines.line_end(0)))
        return ParsedText(text, lines, [], ok=False)
    converter = _Converter(lines, base, sink, masked, has_anchors="&" in body)
    docs = [converter.convert(doc) if doc is not None else None for doc in raw_docs]
    return ParsedText(text, lines, docs, ok=True)


def _old_libyaml_refusal(err: MarkedYAMLError, body: str) -> bool:
    """The libyaml inside ruamel.yaml.clib predates 0.2.5: inside a flow collection it refuses
    a ':' in plain text (`providers: [openai:gpt-4o]`) and ends plain text at a '?' (`[why?]`,
    `{q: Comment ça va ?}`), both of which libyaml 0.2.5 (lm-eval's loader), js-yaml (promptfoo)
    and the `yaml` package (AgentV) read as one string. Such a text is read by the pure parser,
    which reads it as libyaml 0.2.5 does (`pureyaml._LibyamlScanner.scan_plain`); where the old
    libyaml was right, the pure parser gives the same error."""
    if err.problem == "found unexpected ':'":
        return True
    mark = err.problem_mark
    return mark is not None and (err.problem or "").startswith("did not find expected ','") \
        and body[mark.index : mark.index + 1] == "?"


def _compose_all(body: str, *, pure: bool) -> list[Any]:
    if pure:  # ruamel's pure parser, reading as libyaml does (see pureyaml.py)
        return pureyaml.compose_all(body)
    loader = _CLoader(body)
    docs: list[Any] = []
    while loader.check_node():
        docs.append(loader.get_node())
    return docs


# ruamel follows YAML 1.1 and breaks lines at NEL, LS and PS; YAML 1.2 and LSP treat them as
# ordinary characters. Each is swapped for a private-use stand-in of the same length before
# parsing and swapped back in scalar text, so offsets never move.
_UNICODE_BREAKS = {"\x85": "\ue085", "\u2028": "\ue028", "\u2029": "\ue029"}
_MASK = str.maketrans(_UNICODE_BREAKS)
_UNMASK = str.maketrans({v: k for k, v in _UNICODE_BREAKS.items()})


def _mask_unicode_breaks(body: str) -> tuple[str, bool]:
    if not any(ch in body for ch in _UNICODE_BREAKS):
        return body, False
    if any(ch in body for ch in _UNICODE_BREAKS.values()):
        return body, False  # the stand-ins are taken: parse as is, rather than guess
    return body.translate(_MASK), True


_CORE = "tag:yaml.org,2002:"
# Tags that never need a second look (`_UNSAFE_TAG` decides for the rest).
_ORDINARY_TAGS = frozenset(_CORE + name for name in (
    "str", "int", "float", "bool", "null", "map", "seq", "merge", "timestamp", "binary"))


class _Converter:
    """ruamel nodes to our nodes: shares aliased nodes, reports duplicate keys and unsafe tags.

    This runs for every node of every case (a 10,000-case dataset has about 230,000), so it
    is written for speed: one attribute read per field, no alias memo for text without an
    anchor (there can be no alias to resolve), and one set lookup to pass ordinary tags.
    """

    __slots__ = ("_base", "_lines", "_masked", "_seen", "_sink")

    def __init__(self, lines: LineIndex, base: int, sink: FindingSink, masked: bool,
                 *, has_anchors: bool = True) -> None:
        self._lines = lines
        self._base = base
        self._sink = sink
        self._masked = masked
        self._seen: dict[int, Node] | None = {} if has_anchors else None

    def convert(self, raw: Any) -> Node:
        seen = self._seen
        if seen is not None:
            known = seen.get(id(raw))
            if known is not None:
                return known  # an alias: the same node, expanded later under a budget
        base = self._base
        start, end = raw.start_mark.index + base, raw.end_mark.index + base
        ctag = raw.ctag  # `raw.tag` builds a new string through a property on every access
        suffix = ctag.suffix
        tag = suffix if ctag.handle is None and isinstance(suffix, str) else str(ctag)
        node: Node
        raw_type = type(raw)
        if raw_type is ScalarNode:
            value = raw.value.translate(_UNMASK) if self._masked else raw.value
            node = Scalar(tag, start, end, value, raw.style or "")
        elif raw_type is SequenceNode:
            node = Sequence(tag, start, end, bool(raw.flow_style))
        elif raw_type is MappingNode:
            node = Mapping(tag, start, end)
        else:  # pragma: no cover - compose() yields only these three
            raise TypeError(raw_type.__name__)
        if seen is not None:
            seen[id(raw)] = node
        if tag not in _ORDINARY_TAGS:
            self._check_tag(tag, start, end)
        if raw_type is ScalarNode:
            return node
        if isinstance(node, Sequence):
            convert = self.convert
            items = node.items = [convert(item) for item in raw.value]
            if items and not node.flow:
                node.end = items[-1].end  # not the next line's indentation
        elif isinstance(node, Mapping):
            self._convert_pairs(node, raw.value)
            if node.pairs and not raw.flow_style:
                node.end = node.pairs[-1][1].end
        return node

    def _place_empty_value(self, key: Node, value: Scalar) -> None:
        """An empty value sits right after its key's ':' (the C parser's choice; the pure
        parser puts it at the next token, often on the next line)."""
        colon = self._lines.text.find(":", key.end, value.start + 1)
        if colon != -1 and colon + 1 < value.start:
            value.start = value.end = colon + 1

    def _check_tag(self, tag: str, start: int, end: int) -> None:
        if _UNSAFE_TAG.match(tag):
            self._sink.add(
                "EY108",
                f"tag '{_short_tag(tag)}' is ignored: evalyaml never constructs objects from "
                "tags; remove the tag",
                self._lines.span(start, end),
            )

    def _convert_pairs(self, mapping: Mapping, raw_pairs: list[tuple[Any, Any]]) -> None:
        convert = self.convert
        pairs = mapping.pairs
        for raw_key, raw_value in raw_pairs:
            key = convert(raw_key)
            value = convert(raw_value)
            if isinstance(value, Scalar) and not value.text and not value.style:
                self._place_empty_value(key, value)
            pairs.append((key, value))
        texts = [k.text for k, _ in pairs if isinstance(k, Scalar) and k.tag != MERGE_TAG]
        if len(set(texts)) != len(texts):
            self._report_duplicates(pairs)

    def _report_duplicates(self, pairs: list[tuple[Node, Node]]) -> None:
        first_seen: dict[str, Scalar] = {}
        for key, _ in pairs:
            if not isinstance(key, Scalar) or key.tag == MERGE_TAG:
                continue
            earlier = first_seen.get(key.text)
            if earlier is None:
                first_seen[key.text] = key
                continue
            # No line number in the message: inside a dataset this text is one case, and its
            # lines are not the file's. The related location carries the place.
            self._sink.add(
                "EY102",
                f"duplicate key '{key.text}': only the first '{key.text}' in this mapping "
                "counts, this one is ignored",
                self._lines.span(key.start, key.end),
                related=(
                    Related(None, self._lines.span(earlier.start, earlier.end),
                            f"first '{key.text}' is here"),
                ),
            )


def _short_tag(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")


_FRIENDLY = (
    ("mapping values are not allowed", "a ': ' inside a plain value starts a mapping here; "
     "quote the whole value"),
    ("did not find expected key", "expected a key at this indentation; check how far this line "
     "is indented"),
    ("did not find expected '-' indicator", "expected a '- ' list item at this indentation"),
    ("did not find expected ',' or ']'", "this [ list ] is not closed: expected ',' or ']'"),
    ("did not find expected ',' or '}'", "this { mapping } is not closed: expected ',' or '}'"),
    ("found unexpected end of stream", "this quoted string is never closed"),
    ("found unknown escape character", "unknown escape sequence in a double-quoted string; "
     "use single quotes or escape the backslash"),
    ("did not find expected hexdecimal number", "a \\x, \\u or \\U escape in a double-quoted "
     "string needs hexadecimal digits; use single quotes or escape the backslash"),
    ("could not find expected ':'", "expected ':' after this key"),
    ("expected a comment or a line break", "unexpected text after a value"),
    ("found undefined tag handle", "unknown tag handle"),
)


# Errors about something left open: the place it was opened (the context mark) is where the
# author must look, not where the parser gave up.
_UNCLOSED = ("did not find expected ',' or", "found unexpected end of stream",
             "could not find expected ':'")


def _report_syntax(
    err: MarkedYAMLError, text: str, lines: LineIndex, base: int, sink: FindingSink
) -> tuple[int, bool]:
    """Reports the error; returns the offset it was reported at (where recovery starts) and
    whether it is something left open (a string, a flow collection) rather than a bad line."""
    problem = (err.problem or str(err)).strip()
    mark = err.problem_mark or err.context_mark
    offset = (mark.index + base) if mark is not None else 0
    offset = min(offset, len(text))
    if "undefined alias" in problem:
        alias_end = offset
        while alias_end < len(text) and not text[alias_end].isspace() \
                and text[alias_end] not in ",]}":
            alias_end += 1
        name = text[offset:alias_end]
        sink.add("EY103", f"alias '{name}' names no anchor defined before it",
                 lines.span(offset, alias_end))
        return offset, False
    if offset < len(text) and text[offset] == "\t":
        line_start = lines.line_start(lines.position(offset).line)
        if not text[line_start:offset].strip():
            sink.add("EY106", "tab used for indentation; YAML indents with spaces only",
                     lines.span(offset, offset + 1))
            return offset, False
    context = (err.context or "").strip()
    if "duplicate anchor" in context:
        # libyaml's message names no anchor: read it where the second one is written.
        written = _ANCHOR_NAME.match(text, offset)
        anchor = written.group(1) if written else ""
        problem = f"anchor '&{anchor}' is defined twice; give the second one another name"
    message = next((nice for key, nice in _FRIENDLY if key in problem), problem)
    context_mark = err.context_mark
    at_end = offset >= len(text.rstrip())
    unclosed = any(key in problem for key in _UNCLOSED)
    left_open = (at_end or unclosed) and context_mark is not None
    if left_open and context_mark is not None:
        # An unclosed construct: point at where it was opened, not at the end of the file.
        offset = min(context_mark.index + base, len(text))
    pos = lines.position(offset)
    line_end = lines.line_end(pos.line)
    end = line_end if line_end > offset else min(offset + 1, len(text))
    sink.add("EY101", f"YAML syntax error: {message}", lines.span(offset, end))
    return offset, left_open
