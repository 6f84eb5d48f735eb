"""The strict JSON reader (`syntax.json`): json.loads's values, exact code-point spans, and a
located finding for every deviation from RFC 8259, never an exception.

Spans are written (start_line, start_col, end_line, end_col), 0-based code points.
"""

from __future__ import annotations

import gc
import json
import math
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.syntax.json import parse_json, read_json
from evalyaml.syntax.parsed import MAX_DEPTH
from evalyaml.syntax.text import LineIndex, Position, Span
from evalyaml.syntax.tree import Budget, Mapping, Node, PyValue, Scalar, Sequence, to_python

JSON_CODES = {"EY105", "EY110", "EY111", "EY112", "EY113"}


def parse(text: str) -> tuple[Node | None, list[Finding]]:
    sink = FindingSink(strict=False)
    parsed = parse_json(text, sink)
    assert parsed.ok == bool(parsed.documents) or (parsed.holes and not parsed.ok)
    return (parsed.documents[0] if parsed.ok else None), sink.findings


def value_of(node: Node) -> PyValue:
    return to_python(node, Budget(10**7))


def same(a: object, b: object) -> bool:
    """Equal, and of the same types all the way down (True is not 1, 1.0 is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


def spans(findings: list[Finding]) -> list[tuple[str, tuple[int, int, int, int], str]]:
    return [(f.code, (f.span.start.line, f.span.start.character, f.span.end.line,
                      f.span.end.character), f.message) for f in findings]


def span(sl: int, sc: int, el: int, ec: int) -> Span:
    return Span(Position(sl, sc), Position(el, ec))


# --- values ---------------------------------------------------------------------------------

def test_values_tags_and_styles() -> None:
    root, findings = parse('{"s": "x\\n", "i": -0, "e": 1e5, "f": 2.5, "b": [true, false], '
                           '"n": null, "big": 123456789012345678901234567890}')
    assert findings == []
    assert isinstance(root, Mapping)
    assert same(value_of(root), {"s": "x\n", "i": 0, "e": 100000.0, "f": 2.5,
                                 "b": [True, False], "n": None,
                                 "big": 123456789012345678901234567890})
    assert root.tag == "tag:yaml.org,2002:map"
    nodes = {k.text: v for k, v in root.pairs if isinstance(k, Scalar)}
    assert [(k.tag, k.style) for k in root.key_nodes()] == [("tag:yaml.org,2002:str", '"')] * 7
    s, i, e = nodes["s"], nodes["i"], nodes["e"]
    assert isinstance(s, Scalar) and (s.tag, s.style, s.text) == ("tag:yaml.org,2002:str", '"',
                                                                   "x\n")
    assert isinstance(i, Scalar) and (i.tag, i.style, i.text) == ("tag:yaml.org,2002:int", "",
                                                                   "-0")
    assert isinstance(e, Scalar) and (e.tag, e.text) == ("tag:yaml.org,2002:float", "1e5")
    seq = nodes["b"]
    assert isinstance(seq, Sequence) and seq.flow and seq.tag == "tag:yaml.org,2002:seq"
    assert [(n.tag, n.text) for n in seq.items if isinstance(n, Scalar)] == [
        ("tag:yaml.org,2002:bool", "true"), ("tag:yaml.org,2002:bool", "false")]
    null = nodes["n"]
    assert isinstance(null, Scalar) and null.tag == "tag:yaml.org,2002:null"


def test_surrogate_pairs_are_joined_by_scanstring_and_by_the_slow_decoder() -> None:
    # scanstring (the fast path) pairs an escaped surrogate pair into one character ...
    root, findings = parse('["\\ud83d\\ude00", "\\uD83D\\uDE00"]')
    assert findings == [] and root is not None and value_of(root) == ["😀", "😀"]
    # ... and so does our own decoder, which takes over when a string has another problem.
    root, findings = parse('"\\ud83d\\ude00\\q"')
    assert root is not None and value_of(root) == "😀\\q"
    assert [f.code for f in findings] == ["EY110"]


@pytest.mark.parametrize(("text", "value", "where"), [
    ('"\\ud83d"', "\ud83d", (0, 1, 0, 7)),  # high, then the end
    ('"\\ud83dx"', "\ud83dx", (0, 1, 0, 7)),  # high, then not a low
    ('"\\ude00"', "\ude00", (0, 1, 0, 7)),  # a low alone
    ('"\\ud83d\\u0041"', "\ud83dA", (0, 1, 0, 7)),  # high, then an escape that is not a low
    ('"\ud800"', "\ud800", (0, 1, 0, 2)),  # a lone surrogate in the text itself
])
def test_lone_surrogates_are_reported_and_kept(text: str, value: str,
                                               where: tuple[int, int, int, int]) -> None:
    root, findings = parse(text)
    assert root is not None and value_of(root) == value  # as json.loads keeps it
    assert [(f.code, s) for f, (_, s, _) in zip(findings, spans(findings), strict=True)] == [
        ("EY110", where)]
    assert "surrogate" in findings[0].message


def test_reversed_surrogate_escapes_are_two_findings() -> None:
    _, findings = parse('"\\ude00\\ud83d"')
    assert [s for _, s, _ in spans(findings)] == [(0, 1, 0, 7), (0, 7, 0, 13)]


# --- spans ----------------------------------------------------------------------------------

def test_spans_are_code_points_with_emoji_cjk_crlf_and_tabs() -> None:
    text = '{\r\n\t"😀": "中文",\r\n\t"k":\t"\\ud83d\\ude00 😀",\r\n\t"n": [1, 2.5]\r\n}'
    root, findings = parse(text)
    assert findings == [] and isinstance(root, Mapping)
    (k1, v1), (k2, v2), (_, v3) = root.pairs
    assert (k1.start, k1.end, v1.start, v1.end) == (4, 7, 9, 13)
    assert text[k2.start:k2.end] == '"k"' and text[v2.start:v2.end] == '"\\ud83d\\ude00 😀"'
    assert isinstance(v2, Scalar) and v2.text == "😀 😀"
    assert isinstance(v3, Sequence) and text[v3.start:v3.end] == "[1, 2.5]"
    assert (root.start, root.end) == (0, len(text))
    lines = LineIndex(text)
    assert lines.span(k2.start, v2.end) == span(2, 1, 2, 22)  # the emoji is one code point
    assert lines.position(v3.items[1].start) == Position(3, 10)


def _check_spans(text: str, root: Node) -> None:
    """Every node's text re-parses, with json.loads, to the node's value; names to their text."""
    for node in root.walk():
        assert same(json.loads(text[node.start:node.end]), value_of(node)), (node.start,
                                                                             node.end)
    for node in root.walk():
        if isinstance(node, Mapping):
            for key in node.key_nodes():
                assert json.loads(text[key.start:key.end]) == key.text


# --- differential against json.loads ---------------------------------------------------------

_CHARS = st.one_of(st.characters(codec="utf-8"), st.sampled_from(
    list('"\\/\b\f\n\r\t\x00\x1f\x7f\u2028\u2029\x85\ufeff😀中文é{}[],:')))
_TEXT = st.text(_CHARS, max_size=8)
_SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(-(10**30), 10**30)
            | st.floats(allow_nan=False, allow_infinity=False) | _TEXT)
JSON_VALUES = st.recursive(
    _SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_TEXT, children,
                                                                       max_size=4),
    max_leaves=16)
_WS = st.text(st.sampled_from(" \t\n\r"), max_size=3)


@st.composite
def json_texts(draw: st.DrawFn) -> tuple[str, object]:
    value = draw(JSON_VALUES)
    indent = draw(st.sampled_from([None, 0, 1, 2, "\t", " \t"]))
    item_sep = draw(_WS) + "," + draw(_WS)
    key_sep = draw(_WS) + ":" + draw(_WS)
    text = json.dumps(value, indent=indent, separators=(item_sep, key_sep),
                      ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")  # only whitespace holds a line break
    return draw(_WS) + text + draw(_WS), value


@settings(max_examples=200, deadline=None)
@given(json_texts())
def test_same_values_as_json_loads_and_exact_spans(case: tuple[str, object]) -> None:
    text, value = case
    root, findings = parse(text)
    assert findings == []
    assert root is not None
    assert same(value_of(root), json.loads(text))
    assert same(value_of(root), value)
    _check_spans(text, root)


def _loads_strictly(text: str) -> tuple[object, bool]:
    """json.loads's value, and whether it took something strict JSON forbids that json.loads
    accepts: NaN or Infinity, a duplicate name, a lone surrogate."""
    lax = False

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        nonlocal lax
        if len({k for k, _ in items}) != len(items):
            lax = True
        out: dict[str, object] = {}
        for k, v in items:
            out.setdefault(k, v)  # the first wins, as in our tree
        return out

    def constant(name: str) -> float:
        nonlocal lax
        lax = True
        return float(name)

    value = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    if _has_surrogate(value):
        lax = True
    return value, lax


def _has_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return re.search("[\ud800-\udfff]", value) is not None
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    return False


_MUTATIONS = st.sampled_from([
    *'{}[],:"\'\\/* \n\r\t0123456789.eE+-aflnrstuNI\x00\x01\u00a0\ufeff😀中',
    "true", "null", "NaN", "//", "/*", "*/", "\\u", "\\ud83d", "\\ude00", '"a":'])


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text, _ = draw(json_texts())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(_MUTATIONS)
        if action == "insert":
            text = text[:at] + piece + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 3)):]
        else:
            text = text[:at] + piece + text[at + 1:]
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_text_agrees_with_json_loads(text: str) -> None:
    root, findings = parse(text)
    assert {f.code for f in findings} <= JSON_CODES
    # A byte-order mark at the start is ignored (RFC 8259 allows it; `decode` drops it from
    # files anyway); json.loads refuses it in a str.
    body = text[1:] if text.startswith("\ufeff") else text
    try:
        value, lax = _loads_strictly(body)
    except (ValueError, RecursionError):
        event("json.loads refuses")
        assert findings, "json.loads refuses this text, so must we"
        return
    if lax:
        event("json.loads accepts what strict JSON forbids")
        assert findings, "NaN, duplicate names and lone surrogates are reported"
        return
    event("strict JSON")
    assert findings == []
    assert root is not None and same(value_of(root), value)
    _check_spans(text, root)


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list('{}[],:"\'\\/*  \n\r\tx01.e-tfnu\ufeff\u00a0😀')), max_size=40))
def test_never_raises_on_any_text(text: str) -> None:
    sink = FindingSink(strict=True)
    parsed = parse_json(text, sink)
    assert parsed.ok or sink.findings
    assert all(f.code in JSON_CODES for f in sink.findings)
    for f in sink.findings:  # every finding lies inside the text
        end = parsed.lines.position(len(text))
        assert f.span.start <= f.span.end <= end


# --- every finding, placed exactly ------------------------------------------------------------

_NOT_A_NUMBER = ("is not a JSON number: JSON has no NaN or infinity (Python's json reads them, "
                 "most other readers refuse); write null or a string")
_STRICT_READERS = "; Python's json and other strict readers refuse it"
_DECIMAL = "a JSON number is decimal digits with an optional '-', fraction and exponent"
_COMMENT = "JSON allows no comments; remove it (or move the note into a string value)"

FINDINGS: list[tuple[str, list[tuple[str, tuple[int, int, int, int], str]]]] = [
    # Reported, and the parse goes on.
    ("[1,]", [("EY113", (0, 2, 0, 3),
               "trailing comma before ']': JSON allows no comma after the last item")]),
    ('{"a": 1,\n}', [("EY113", (0, 7, 0, 8),
                      "trailing comma before '}': JSON allows no comma after the last item")]),
    ('{"a": 1, "a": 2}', [("EY111", (0, 9, 0, 12),
                           "duplicate key 'a': JSON readers disagree on which value counts "
                           "(Python's json keeps the last, evalyaml checks the first); keep one")]),
    ("[NaN, Infinity, -Infinity]", [("EY112", (0, 1, 0, 4), f"'NaN' {_NOT_A_NUMBER}"),
                                    ("EY112", (0, 6, 0, 14), f"'Infinity' {_NOT_A_NUMBER}"),
                                    ("EY112", (0, 16, 0, 25), f"'-Infinity' {_NOT_A_NUMBER}")]),
    ("// note\n1", [("EY110", (0, 0, 0, 7), _COMMENT)]),
    ("[1 /* two\n */]", [("EY110", (0, 3, 1, 3), _COMMENT)]),
    ("['x']", [("EY110", (0, 1, 0, 4), "strings must be in double quotes, not single quotes")]),
    ("{'k': 1}", [("EY110", (0, 1, 0, 4),
                   "member names must be in double quotes, not single quotes")]),
    ("{k_1: 1}", [("EY110", (0, 1, 0, 4),
                   "member names must be strings in double quotes: write '\"k_1\"'")]),
    ('"\\x41"', [("EY110", (0, 1, 0, 3),
                  "invalid escape '\\x': JSON knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and "
                  "\\uXXXX; write '\\\\' for a backslash")]),
    ('"\\u00g1"', [("EY110", (0, 1, 0, 5),
                    "invalid escape '\\u00': \\u needs four hexadecimal digits")]),
    ('"a\tb"', [("EY110", (0, 2, 0, 3),
                 "U+0009 (tab) must be escaped inside a string (write \\t)")]),
    ('"\\ud83d!"', [("EY110", (0, 1, 0, 7),
                     "lone surrogate escape '\\ud83d': it is not a Unicode character, so the "
                     "value cannot be written as UTF-8; pair it with a low surrogate or write "
                     "the character itself")]),
    ("[01]", [("EY110", (0, 1, 0, 3),
               f"invalid number '01': a JSON number cannot have leading zeros{_STRICT_READERS}")]),
    ("[+1]", [("EY110", (0, 1, 0, 3),
               f"invalid number '+1': a JSON number cannot start with '+'{_STRICT_READERS}")]),
    ("[.5]", [("EY110", (0, 1, 0, 3),
               f"invalid number '.5': a JSON number needs a digit before '.'{_STRICT_READERS}")]),
    ("[1.]", [("EY110", (0, 1, 0, 3),
               f"invalid number '1.': a JSON number needs a digit after '.'{_STRICT_READERS}")]),
    ("[1,\u00a0\u00a02]", [("EY110", (0, 3, 0, 5),
                            "U+00A0 (NO-BREAK SPACE) is not whitespace in JSON; only spaces, "
                            "tabs and line breaks may separate tokens")]),
    ("[1 2]", [("EY110", (0, 2, 0, 2),
                "expected ',' or ']' after an item, found '2': a ',' is missing")]),
    ('{"a": 1\n "b": 2}', [("EY110", (0, 7, 0, 7),
                            "expected ',' or '}' after a member, found '\"': a ',' is "
                            "missing")]),
    ('{"a" 1}', [("EY110", (0, 4, 0, 4),
                  "expected ':' after the member name, found '1': a ':' is missing")]),
    ('{"a": 1}  x', [("EY110", (0, 10, 0, 11),
                      "expected the end of the input after the JSON value, found 'x'; a JSON "
                      "text holds exactly one value")]),
    # The parse stops here, with one finding.
    ("", [("EY110", (0, 0, 0, 0),
           "expected a JSON value, found the end of the input (the text is empty)")]),
    ("  \n", [("EY110", (1, 0, 1, 0),
               "expected a JSON value, found the end of the input (the text is empty)")]),
    ("[1, 2", [("EY110", (0, 5, 0, 5),
                "expected ',' or ']' after an item, found the end of the input")]),
    ('{"a": 1', [("EY110", (0, 7, 0, 7),
                  "expected ',' or '}' after a member, found the end of the input")]),
    ("[1,", [("EY110", (0, 3, 0, 3), "expected a value, found the end of the input")]),
    ('"abc', [("EY110", (0, 4, 0, 4),
               "this string is not closed: expected '\"' before the end of the input")]),
    ('"ab\ncd"', [("EY110", (0, 3, 0, 3),
                   "this string is not closed: expected '\"' before the end of the line")]),
    ('{"a": ]', [("EY110", (0, 6, 0, 7), "expected a value, found ']'")]),
    ("[1,,2]", [("EY110", (0, 3, 0, 4), "expected a value, found ','")]),
    ("[1 nonsense]", [("EY110", (0, 3, 0, 4),  # not a value: no comma can be missing here
                       "expected ',' or ']' after an item, found 'nonsense'")]),
    ("{,}", [("EY110", (0, 1, 0, 2),
              "expected a member name in double quotes or '}', found ','")]),
    ('{"a": 1,,}', [("EY110", (0, 8, 0, 9),
                     "expected a member name in double quotes, found ','")]),
    ("[1}", [("EY110", (0, 2, 0, 3), "expected ',' or ']' after an item, found '}'")]),
    ('{"a": 1]', [("EY110", (0, 7, 0, 8), "expected ',' or '}' after a member, found ']'")]),
    ("[True]", [("EY110", (0, 1, 0, 2), "expected a value, found 'True' (JSON writes this "
                                         "true)")]),
    ("[None]", [("EY110", (0, 1, 0, 2), "expected a value, found 'None' (JSON writes this "
                                         "null)")]),
    ("[abc]", [("EY110", (0, 1, 0, 2),
                "expected a value, found 'abc' (strings must be in double quotes)")]),
    ("[#]", [("EY110", (0, 1, 0, 2), "expected a value, found '#'")]),
    ("[\x01]", [("EY110", (0, 1, 0, 2), "expected a value, found U+0001 (a control "
                                         "character)")]),
    ("0x1F", [("EY110", (0, 1, 0, 2), f"invalid number '0x1F': {_DECIMAL}")]),
    ("[1e]", [("EY110", (0, 2, 0, 3), f"invalid number '1e': {_DECIMAL}")]),
    ("[-]", [("EY110", (0, 2, 0, 3), f"invalid number '-': {_DECIMAL}")]),
    ('{"n": 1_000}', [("EY110", (0, 7, 0, 8), f"invalid number '1_000': {_DECIMAL}")]),
    ("[1] /* open", [("EY110", (0, 4, 0, 6),
                      "this comment is never closed: expected '*/' (and JSON allows no "
                      "comments)")]),
    ('{"a" , 1}', [("EY110", (0, 5, 0, 6), "expected ':' after the member name, found ','")]),
    ("[" * (MAX_DEPTH + 1), [("EY105", (0, MAX_DEPTH, 0, MAX_DEPTH + 1),
                              f"nesting deeper than {MAX_DEPTH} starts here; evalyaml does not "
                              "parse JSON nested this deep")]),
]


@pytest.mark.parametrize(("text", "expected"), FINDINGS, ids=[t[:20] for t, _ in FINDINGS])
def test_each_finding_is_placed_exactly(
        text: str, expected: list[tuple[str, tuple[int, int, int, int], str]]) -> None:
    _, findings = parse(text)
    assert spans(findings) == expected


def test_recoverable_findings_keep_the_tree_and_later_findings() -> None:
    text = ("{// why\n 'a': [1, 2,], b: NaN, \"c\": \"\\x\", \"a\": 01, \"d\": [1 2]\n"
            "\"e\" true}")
    root, findings = parse(text)
    assert root is not None
    assert same(value_of(root), {"a": [1, 2], "b": math.nan, "c": "\\x", "d": [1, 2],
                                 "e": True})
    assert [f.code for f in findings] == ["EY110", "EY110", "EY113", "EY110", "EY112",
                                          "EY110", "EY110", "EY110", "EY110", "EY110", "EY111"]
    assert [f.span.start for f in findings][-1] == Position(1, 34)  # the repeated "a"


def test_a_stop_leaves_no_tree_but_extra_data_keeps_the_root() -> None:
    sink = FindingSink(strict=False)
    broken = parse_json('{"a": [1, 2}', sink)
    assert (broken.ok, broken.documents) == (False, [])
    sink = FindingSink(strict=False)
    extra = parse_json('{"a": 1}\n{"b": 2}', sink)
    assert extra.ok and isinstance(extra.documents[0], Mapping)
    assert [f.span for f in sink.findings] == [span(1, 0, 1, 1)]


def test_related_information_points_at_the_first_name_and_at_openers() -> None:
    _, findings = parse('{"a": 1,\n "a": 2}')
    assert [(r.span, r.message) for r in findings[0].related] == [
        (span(0, 1, 0, 4), "first 'a' is here")]
    _, findings = parse('{"a": [1,\n 2')
    assert [(r.span, r.message) for r in findings[0].related] == [
        (span(0, 6, 0, 7), "the array starts here")]
    _, findings = parse('["abc\n')
    assert [(r.span, r.message) for r in findings[0].related] == [
        (span(0, 1, 0, 2), "the string starts here")]


def test_base_line_moves_findings_and_related_down() -> None:
    sink = FindingSink(strict=False)
    parse_json('{"a": 1,\n "a": [2,]}', sink, base_line=7)
    assert [(f.code, f.span) for f in sink.findings] == [
        ("EY113", span(8, 8, 8, 9)), ("EY111", span(8, 1, 8, 4))]
    assert sink.findings[1].related[0].span == span(7, 1, 7, 4)


@pytest.mark.parametrize(("text", "fixed"), [
    ("[1, 2,]", "[1, 2]"),
    ('{"a": 1 "b": 2}', '{"a": 1, "b": 2}'),
    ('{"a" 1}', '{"a": 1}'),
    ("{a: 1}", '{"a": 1}'),
    ('"a\tb"', '"a\\tb"'),
])
def test_quick_fixes_make_strict_json(text: str, fixed: str) -> None:
    _, findings = parse(text)
    (finding,) = findings
    (fix,) = finding.fixes
    lines = LineIndex(text)
    (edit,) = fix.edits
    start, end = lines.offset(edit.span.start), lines.offset(edit.span.end)
    result = text[:start] + edit.new_text + text[end:]
    assert result == fixed
    assert parse(result)[1] == []


def test_a_leading_byte_order_mark_is_skipped_and_counted_in_offsets() -> None:
    root, findings = parse('\ufeff{"a": 1}')
    assert findings == [] and isinstance(root, Mapping) and root.start == 1


def test_unicode_line_separators_are_characters_inside_strings() -> None:
    text = '{"a": "x\u2028y\u2029z\x85"}\n[1,]'
    _, findings = parse(text)
    # The extra data is on line 1: LS, PS and NEL do not end lines.
    assert [f.span.start for f in findings] == [Position(1, 0)]


# --- limits -------------------------------------------------------------------------------------

@pytest.mark.parametrize("opener", ["[", '{"a":', '[{"a":'])
def test_deep_nesting_is_a_finding_not_a_recursion_error(opener: str) -> None:
    text = opener * 1_000_000
    started = time.perf_counter()
    root, findings = parse(text)
    assert root is None and [f.code for f in findings] == ["EY105"]
    assert time.perf_counter() - started < 2  # stops at the limit, does not read on


def test_nesting_up_to_the_limit_parses() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    root, findings = parse(text)
    assert findings == [] and isinstance(root, Sequence)


def test_read_json_returns_the_root_and_places_findings_only_when_there_are_some() -> None:
    sink = FindingSink(strict=False)
    root = read_json('{"a": [1]}', sink)
    assert isinstance(root, Mapping) and sink.findings == []
    assert read_json("[", sink) is None and [f.code for f in sink.findings] == ["EY110"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """As the engine, the index and the CLI workers run an analysis: a parse builds objects
    that live on, and the cyclic collector would rescan every one of them, several times, for
    nothing (it triples the time of a large parse, more in a process holding many objects)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def test_speed_against_json_loads() -> None:
    """Printed, not asserted: the figures for a ~3 MB document of small records."""
    records = [{"id": f"case-{n}", "input": "How do I reset my password? " * 3, "score": n / 7,
                "tags": ["a", "b"], "ok": n % 2 == 0, "meta": {"n": n, "none": None}}
               for n in range(10_000)]
    text = json.dumps(records, indent=2, ensure_ascii=False)
    with collector_paused():
        started = time.perf_counter()
        json.loads(text)
        loads = time.perf_counter() - started
        started = time.perf_counter()
        root, findings = parse(text)
        ours = time.perf_counter() - started
    assert findings == [] and root is not None
    print(f"\n{len(text) / 1e6:.1f} MB: json.loads {loads * 1000:.0f} ms, "
          f"parse_json {ours * 1000:.0f} ms ({ours / loads:.1f}x)")
