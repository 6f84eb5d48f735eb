"""The parser: exact spans for every key and value, EY1xx findings instead of exceptions.

Positions are (line, code-point column), 0-based; a span is written here as
(start_line, start_col, end_line, end_col).
"""

from __future__ import annotations

import time

import pytest

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.syntax.decode import decode
from evalyaml.syntax.parsed import MAX_DEPTH, ParsedText
from evalyaml.syntax.text import LineIndex, Position, Span
from evalyaml.syntax.tree import Budget, ExpansionLimit, Mapping, Node, Scalar, Sequence, to_python
from evalyaml.syntax.yaml.parse import c_parser_available, parse_text

Quad = tuple[int, int, int, int]


def quad(span: Span) -> Quad:
    return (span.start.line, span.start.character, span.end.line, span.end.character)


def parse(text: str, *, pure: bool = False) -> tuple[ParsedText, list[Finding]]:
    sink = FindingSink(strict=False)
    parsed = parse_text(text, sink, pure=pure)
    return parsed, sink.findings


def only_root(text: str, *, pure: bool = False) -> tuple[ParsedText, Mapping]:
    parsed, findings = parse(text, pure=pure)
    assert findings == []
    assert parsed.ok
    assert len(parsed.documents) == 1
    root = parsed.documents[0]
    assert isinstance(root, Mapping)
    return parsed, root


PARSERS = [pytest.param(False, id="c"), pytest.param(True, id="pure")]
if not c_parser_available():  # pragma: no cover - ruamel.yaml.clib is a dependency on CPython
    PARSERS = [pytest.param(True, id="pure")]


# -- spans of keys and values -------------------------------------------------------------------

STYLES = """\
plain: hello world
single: 'it''s'
double: "a\\tb 😀"
literal: |
  line one
  line two
folded: >-
  folded
  text
flow_seq: [a, "b", {c: d}]
block_seq:
  - one
  - two
block_map:
  inner: 1
multi_plain: first
  second
last: end
"""

# key -> (key span, value span, value text as written)
STYLE_SPANS: dict[str, tuple[Quad, Quad, str]] = {
    "plain": ((0, 0, 0, 5), (0, 7, 0, 18), "hello world"),
    "single": ((1, 0, 1, 6), (1, 8, 1, 15), "'it''s'"),
    "double": ((2, 0, 2, 6), (2, 8, 2, 16), '"a\\tb 😀"'),
    "literal": ((3, 0, 3, 7), (3, 9, 6, 0), "|\n  line one\n  line two\n"),
    "folded": ((6, 0, 6, 6), (6, 8, 9, 0), ">-\n  folded\n  text\n"),
    "flow_seq": ((9, 0, 9, 8), (9, 10, 9, 26), '[a, "b", {c: d}]'),
    "block_seq": ((10, 0, 10, 9), (11, 2, 12, 7), "- one\n  - two"),  # ends at its last item
    "block_map": ((13, 0, 13, 9), (14, 2, 14, 10), "inner: 1"),  # not on the next line
    "multi_plain": ((15, 0, 15, 11), (15, 13, 16, 8), "first\n  second"),
    "last": ((17, 0, 17, 4), (17, 6, 17, 9), "end"),
}


@pytest.mark.parametrize("pure", PARSERS)
def test_every_key_and_value_has_its_exact_span(pure: bool) -> None:
    parsed, root = only_root(STYLES, pure=pure)
    seen = {}
    for key, value in root.pairs:
        assert isinstance(key, Scalar)
        seen[key.text] = (quad(parsed.span(key)), quad(parsed.span(value)),
                          STYLES[value.start:value.end])
    assert seen == STYLE_SPANS


@pytest.mark.parametrize("pure", PARSERS)
def test_scalar_values_and_styles(pure: bool) -> None:
    _, root = only_root(STYLES, pure=pure)
    values = {k.text: (v.value, v.style) for k, v in root.pairs if isinstance(k, Scalar)
              and isinstance(v, Scalar)}
    assert values == {
        "plain": ("hello world", ""),
        "single": ("it's", "'"),
        "double": ("a\tb 😀", '"'),
        "literal": ("line one\nline two\n", "|"),
        "folded": ("folded text", ">"),
        "multi_plain": ("first second", ""),
        "last": ("end", ""),
    }
    flow = root.get("flow_seq")
    assert isinstance(flow, Sequence) and flow.flow
    block = root.get("block_seq")
    assert isinstance(block, Sequence) and not block.flow
    assert [item.text for item in block.items if isinstance(item, Scalar)] == ["one", "two"]


@pytest.mark.parametrize("pure", PARSERS)
def test_nested_spans_inside_flow_collections(pure: bool) -> None:
    text = 'case: {id: "😀 a", tools: [lookup, 表格]}\n'
    parsed, root = only_root(text, pure=pure)
    case = root.get("case")
    assert isinstance(case, Mapping)
    id_pair = case.pair("id")
    assert id_pair is not None
    assert quad(parsed.span(id_pair[0])) == (0, 7, 0, 9)
    assert quad(parsed.span(id_pair[1])) == (0, 11, 0, 16)
    tools = case.get("tools")
    assert isinstance(tools, Sequence)
    assert [quad(parsed.span(item)) for item in tools.items] == [(0, 26, 0, 32), (0, 34, 0, 36)]


def test_core_schema_scalars_are_yaml_1_2() -> None:
    text = ("a: yes\nb: no\nc: on\nd: true\ne: 1.10\nf: 0x1F\ng: ~\ni: .inf\n"
            "j: 2026-11-21\nk: 0o17\nl: '1.10'\n")
    _, root = only_root(text)
    values = {k.text: v.value for k, v in root.pairs if isinstance(k, Scalar)
              and isinstance(v, Scalar)}
    assert values == {"a": "yes", "b": "no", "c": "on", "d": True, "e": 1.1, "f": 31, "g": None,
                      "i": float("inf"), "j": "2026-11-21", "k": 15, "l": "1.10"}


@pytest.mark.skipif(not c_parser_available(), reason="ruamel.yaml.clib is not installed")
@pytest.mark.parametrize("text", [
    STYLES,
    "questions:\n  - id: a\n    input: |\n      x\n\n  - {id: b, input: \"😀\"}\n",
    "a: &x {b: [1, 2]}\nc: *x\nd:\n  <<: *x\n  e: 3\n",
    "\r\n".join(["k: v", "l:", "  - 1", "  - 2", ""]),
    "---\na: 1\n---\n- b\n...\n",
    "key: 'one\n  two'\nother: \"x\\\n  y\"\n",
])
def test_c_and_pure_parsers_build_the_same_tree(text: str) -> None:
    def shape(parsed: ParsedText) -> list[object]:
        def walk(node: Node | None) -> object:
            if node is None:
                return None
            here = (type(node).__name__, node.tag, quad(parsed.span(node)))
            if isinstance(node, Scalar):
                return (*here, node.text, node.style)
            if isinstance(node, Sequence):
                return (*here, [walk(i) for i in node.items])
            assert isinstance(node, Mapping)
            return (*here, [(walk(k), walk(v)) for k, v in node.pairs])
        return [walk(doc) for doc in parsed.documents]

    c_parsed, c_findings = parse(text, pure=False)
    pure_parsed, pure_findings = parse(text, pure=True)
    assert c_findings == pure_findings == []
    assert shape(c_parsed) == shape(pure_parsed)


@pytest.mark.parametrize("pure", PARSERS)
def test_empty_value_is_placed_right_after_its_key(pure: bool) -> None:
    """`key:` with nothing after it: an empty scalar at the end of `key:`, on the key's line (the
    C and pure parsers must agree; a finding about the value belongs on that line)."""
    parsed, root = only_root("empty:\nlast: end\n", pure=pure)
    value = root.get("empty")
    assert isinstance(value, Scalar) and value.value is None
    assert quad(parsed.span(value)) == (0, 6, 0, 6)


@pytest.mark.parametrize("pure", PARSERS)
def test_block_collection_span_stays_off_the_next_keys_line(pure: bool) -> None:
    """A block sequence or mapping ends with its last item; it must not run on into the
    indentation of the next key (a squiggle on `jury:` should not underline `aggregation`)."""
    text = "check:\n  jury:\n    - a\n    - b\n  aggregation: mean\n"
    parsed, root = only_root(text, pure=pure)
    check = root.get("check")
    assert isinstance(check, Mapping)
    jury = check.get("jury")
    assert isinstance(jury, Sequence)
    end = parsed.span(jury).end
    assert end <= Position(4, 0), f"the list's span ends at {end}, inside 'aggregation'"


# -- line breaks, BOM, tabs, unusual characters -------------------------------------------------

def test_crlf_and_cr_give_the_same_positions_as_lf() -> None:
    lf = "a: 1\nb:\n  - x\n  - 'y'\nc: end\n"
    results = []
    for newline in ("\n", "\r\n", "\r"):
        text = lf.replace("\n", newline)
        parsed, root = only_root(text)
        results.append([(quad(parsed.span(k)), quad(parsed.span(v))) for k, v in root.pairs])
    assert results[0] == results[1] == results[2]
    assert results[0][2] == ((4, 0, 4, 1), (4, 3, 4, 6))


def test_line_index_breaks_only_at_lf_crlf_and_cr() -> None:
    text = "a\u2028b\u0085c\u2029d\r\ne\rf\ng"
    lines = LineIndex(text)
    assert lines.line_count == 4
    assert [lines.line_text(n) for n in range(4)] == ["a\u2028b\u0085c\u2029d", "e", "f", "g"]
    assert lines.position(text.index("d")) == Position(0, 6)
    assert lines.position(text.index("\n")) == Position(0, 7)  # between CR and LF: end of line
    assert lines.offset(Position(1, 0)) == text.index("e")
    assert lines.offset(Position(0, 99)) == text.index("\r")  # clamped to the line's end
    assert lines.position(len(text) + 5) == Position(3, 1)


def test_unicode_line_separators_inside_quoted_strings_keep_columns() -> None:
    """U+2028, U+0085 and U+2029 are not line breaks for LSP clients, so a finding after them on
    the same line keeps its code-point column."""
    text = 'a: "x\u2028y \u0085 z"\nb: {note: "\u2028\u0085\u2029", format: yaml}\n'
    parsed, root = only_root(text)
    b = root.get("b")
    assert isinstance(b, Mapping)
    fmt = b.get("format")
    assert fmt is not None
    assert quad(parsed.span(fmt)) == (1, 25, 1, 29)


def test_unicode_line_separator_in_a_block_scalar_is_content() -> None:
    """YAML 1.2 treats U+2028 as an ordinary character. Text pasted from a web page into an
    `input: |` block often carries one; the file must still parse."""
    text = "input: |\n  first\u2028second\nnext: 1\n"
    parsed, findings = parse(text)
    assert findings == []
    root = parsed.documents[0]
    assert isinstance(root, Mapping)
    value = root.get("input")
    assert isinstance(value, Scalar)
    assert value.value == "first\u2028second\n"


@pytest.mark.parametrize("pure", PARSERS)
def test_byte_order_mark_is_skipped_but_counted(pure: bool) -> None:
    """The core gets the text as the editor has it: a BOM is one code point of line 0, and every
    other line is unaffected. Both parsers agree on the offsets."""
    parsed, root = only_root("\ufeffa: 1\nb: 2\n", pure=pure)
    assert [(k.text, quad(parsed.span(k))) for k in root.key_nodes()] == [
        ("a", (0, 1, 0, 2)), ("b", (1, 0, 1, 1))]


@pytest.mark.parametrize("pure", PARSERS)
def test_tabs_inside_values_are_fine(pure: bool) -> None:
    text = 'a:\t"x\ty"\nb: plain\ttext\nc: {\tk:\tv }\n'
    parsed, root = only_root(text, pure=pure)
    values = {k.text: v.value for k, v in root.pairs if isinstance(v, Scalar)}
    assert values == {"a": "x\ty", "b": "plain\ttext"}
    c = root.get("c")
    assert isinstance(c, Mapping)
    k = c.get("k")
    assert k is not None and quad(parsed.span(k)) == (2, 8, 2, 9)


@pytest.mark.parametrize(("text", "where"), [
    ("\tb: 1\n", (0, 0, 0, 1)),
    ("a:\n\t- 1\n", (1, 0, 1, 1)),
    ("a: 1\n\tb: 2\n", (1, 0, 1, 1)),
    ("a:\n  b: 1\n\t c: 2\n", (2, 0, 2, 1)),
])
@pytest.mark.parametrize("pure", PARSERS)
def test_tab_indentation_is_ey106_on_the_tab(text: str, where: Quad, pure: bool) -> None:
    parsed, findings = parse(text, pure=pure)
    assert not parsed.ok
    assert [(f.code, quad(f.span), f.message) for f in findings] == [
        ("EY106", where, "tab used for indentation; YAML indents with spaces only")]


# -- syntax errors ------------------------------------------------------------------------------

SYNTAX_ERRORS: list[tuple[str, str, Quad, str]] = [
    ("a: b: c\n", "EY101", (0, 4, 0, 7),
     "YAML syntax error: a ': ' inside a plain value starts a mapping here; quote the whole value"),
    ("a: [1, 2\n", "EY101", (0, 3, 0, 8),
     "YAML syntax error: this [ list ] is not closed: expected ',' or ']'"),
    ("a: {x: 1\n", "EY101", (0, 3, 0, 8),
     "YAML syntax error: this { mapping } is not closed: expected ',' or '}'"),
    ('a: "open\n', "EY101", (0, 3, 0, 8), "YAML syntax error: this quoted string is never closed"),
    ("a: 'open\n", "EY101", (0, 3, 0, 8), "YAML syntax error: this quoted string is never closed"),
    ("a:\n  - 1\n  b: 2\n", "EY101", (2, 2, 2, 6),
     "YAML syntax error: expected a '- ' list item at this indentation"),
    ('a: "\\q"\n', "EY101", (0, 4, 0, 7),
     "YAML syntax error: unknown escape sequence in a double-quoted string; use single quotes or "
     "escape the backslash"),
    ("a: !e!x y\n", "EY101", (0, 3, 0, 9), "YAML syntax error: unknown tag handle"),
    ("a: x # c\nb: \"x\" y\n", "EY101", (1, 7, 1, 8),
     "YAML syntax error: expected a key at this indentation; check how far this line is "
     "indented"),
    ("a: *nope\n", "EY103", (0, 3, 0, 8), "alias '*nope' names no anchor defined before it"),
    ("a: [*nope, 1]\n", "EY103", (0, 4, 0, 9), "alias '*nope' names no anchor defined before it"),
    ("a: 1\n...\nb: [\n", "EY101", (2, 0, 2, 4),
     "YAML syntax error: did not find expected <document start>"),
]


@pytest.mark.parametrize(("text", "code", "where", "message"), SYNTAX_ERRORS,
                         ids=[repr(t[0]) for t in SYNTAX_ERRORS])
@pytest.mark.parametrize("pure", PARSERS)
def test_syntax_errors_are_located_findings(text: str, code: str, where: Quad,
                                            message: str, pure: bool) -> None:
    parsed, findings = parse(text, pure=pure)
    assert not parsed.ok
    assert parsed.documents == [] or parsed.holes  # a recovered tree has its blanked lines
    assert [(f.code, quad(f.span), f.message) for f in findings] == [(code, where, message)]
    # The error's own line is always blanked: the recovered tree never reads it.
    assert all(h.first_line <= where[0] <= h.last_line for h in parsed.holes[:1])


@pytest.mark.parametrize("pure", PARSERS)
def test_unclosed_list_is_reported_at_its_bracket_not_on_the_next_line(pure: bool) -> None:
    _, findings = parse("tools: [a, b\ninput: fine\n", pure=pure)
    assert [(f.code, quad(f.span), f.message) for f in findings] == [
        ("EY101", (0, 7, 0, 12),
         "YAML syntax error: this [ list ] is not closed: expected ',' or ']'")]


@pytest.mark.parametrize("pure", PARSERS)
def test_redefined_anchor_is_explained(pure: bool) -> None:
    """YAML 1.2 allows an anchor to be defined again (an alias takes the latest); libyaml
    refuses it, and so does evalyaml with either parser. The finding says what is wrong and
    names the anchor: not a bare 'second occurrence'."""
    parsed, findings = parse("a: &x 1\nb: &x 2\nc: *x\n", pure=pure)
    assert not parsed.ok
    assert [(f.code, quad(f.span), f.message) for f in findings] == [
        ("EY101", (1, 3, 1, 7),
         "YAML syntax error: anchor '&x' is defined twice; give the second one another name")]


# -- duplicate keys -----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "key", "second", "first"), [
    ("a: 1\nb: 2\na: 3\n", "a", (2, 0, 2, 1), (0, 0, 0, 1)),
    ("{a: 1, a: 2}\n", "a", (0, 7, 0, 8), (0, 1, 0, 2)),
    ("x:\n  b: 1\n  c: 2\n  b: 3\n", "b", (3, 2, 3, 3), (1, 2, 1, 3)),
    ("x: {'b': 1, \"b\": 2}\n", "b", (0, 12, 0, 15), (0, 4, 0, 7)),
])
def test_duplicate_keys_are_reported_with_both_places(text: str, key: str, second: Quad,
                                                      first: Quad) -> None:
    parsed, findings = parse(text)
    assert parsed.ok  # still usable: the first value counts
    assert [(f.code, quad(f.span), f.message) for f in findings] == [
        ("EY102", second, f"duplicate key '{key}': only the first '{key}' in this mapping "
         "counts, this one is ignored")]
    assert [(r.path, quad(r.span), r.message) for r in findings[0].related] == [
        (None, first, f"first '{key}' is here")]


def test_duplicate_keys_first_value_wins() -> None:
    parsed, findings = parse("a: 1\na: 2\n")
    root = parsed.documents[0]
    assert isinstance(root, Mapping)
    assert to_python(root, Budget(100)) == {"a": 1}
    assert [f.code for f in findings] == ["EY102"]


# -- anchors, aliases, merge keys ---------------------------------------------------------------

def test_aliases_share_the_anchored_node() -> None:
    parsed, root = only_root("a: &x {b: [1, 2]}\nc: *x\n")
    a, c = root.get("a"), root.get("c")
    assert a is c  # one node: its span is the anchor's, where a finding belongs
    # The node's span starts at its properties (the anchor `&x`), as YAML defines a node.
    assert a is not None and quad(parsed.span(a)) == (0, 3, 0, 17)
    assert to_python(root, Budget(100)) == {"a": {"b": [1, 2]}, "c": {"b": [1, 2]}}


def test_merge_keys_apply_with_explicit_keys_winning() -> None:
    text = ("base: &base {x: 1, y: 2}\nmore: &more {y: 20, z: 30}\n"
            "one:\n  <<: *base\n  y: 3\n"
            "many:\n  <<: [*base, *more]\n  w: 0\n")
    _, root = only_root(text)
    value = to_python(root, Budget(1000))
    assert isinstance(value, dict)
    assert value["one"] == {"x": 1, "y": 3}
    assert value["many"] == {"x": 1, "y": 2, "z": 30, "w": 0}
    one = root.get("one")
    assert isinstance(one, Mapping)
    assert [k.text for k in one.key_nodes()] == ["y"]  # `<<` is not a key of its own
    x = one.pair("x")  # found through the merge, at its place in the anchor
    assert x is not None and x[0].start == text.index("x: 1")


def test_alias_expansion_is_bounded() -> None:
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for n, name in enumerate("bcdefgh", start=1):
        prev = "abcdefgh"[n - 1]
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    text = "\n".join(levels) + "\n"  # 10^8 nodes once expanded
    started = time.perf_counter()
    parsed, root = only_root(text)
    with pytest.raises(ExpansionLimit) as raised:
        to_python(root, Budget(100_000))
    assert time.perf_counter() - started < 2
    assert isinstance(raised.value.node, Node)
    assert parsed.span(raised.value.node).start.line < len(levels)


# -- limits and tags ----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "where"), [
    ("a: " + "[" * 10_000 + "]" * 10_000 + "\n", (0, 3 + MAX_DEPTH, 0, 4 + MAX_DEPTH)),
    ("a: " + "{b: " * 10_000 + "1" + "}" * 10_000 + "\n",
     (0, 3 + 4 * MAX_DEPTH, 0, 4 + 4 * MAX_DEPTH)),
    # Block depth is over-estimated from indentation: 2 spaces + 254 "- " = 256 units.
    ("a:\n  " + "- " * 10_000 + "x\n", (1, 2 * MAX_DEPTH - 3, 1, 2 * MAX_DEPTH - 2)),
    # Quoted closing brackets close nothing: the count of brackets must not be fooled by them.
    ("a: " + "[ ']', " * 300 + "x" + "]" * 300 + "\n",
     (0, 3 + 7 * MAX_DEPTH, 0, 4 + 7 * MAX_DEPTH)),
    # NEL starts a line for the parser when it cannot be masked (the stand-in is taken).
    ("c: \ue085\nb:\x85" + "- " * 300 + "x\n", (1, 2 + 2 * MAX_DEPTH, 1, 3 + 2 * MAX_DEPTH)),
])
@pytest.mark.parametrize("pure", PARSERS)
def test_deep_nesting_is_ey105_before_parsing(text: str, where: Quad, pure: bool) -> None:
    started = time.perf_counter()
    parsed, findings = parse(text, pure=pure)
    assert time.perf_counter() - started < 2
    assert not parsed.ok
    assert [(f.code, quad(f.span), f.message) for f in findings] == [
        ("EY105", where, f"nesting or indentation deeper than {MAX_DEPTH} starts here; "
         "evalyaml does not parse files nested this deep")]


BROKEN_JSON_CASES = "".join(
    f"  - id: case_{n}\n    input: '{{\"a\": [1, 2'\n    note: see [{n}\n"
    f'    expected: "{{[[ unclosed"\n' for n in range(MAX_DEPTH))


@pytest.mark.parametrize("pure", PARSERS)
def test_brackets_inside_scalars_are_not_nesting(pure: bool) -> None:
    """A dataset of broken JSON snippets leaves thousands of brackets unclosed, all inside
    quoted and plain scalars: no nesting at all (the anchor keeps the fast path out)."""
    text = "defaults: &d {judge: strict}\nquestions:\n" + BROKEN_JSON_CASES
    parsed, root = only_root(text, pure=pure)
    cases = root.get("questions")
    assert isinstance(cases, Sequence) and len(cases.items) == MAX_DEPTH
    assert parsed.ok


@pytest.mark.parametrize("pure", PARSERS)
def test_real_nesting_after_brackets_in_scalars_is_found_where_it_is(pure: bool) -> None:
    text = "questions:\n" + BROKEN_JSON_CASES + "deep: " + "[" * 1000 + "]" * 1000 + "\n"
    line = text.count("\n") - 1
    parsed, findings = parse(text, pure=pure)
    assert not parsed.ok
    assert [(f.code, quad(f.span)) for f in findings] == [
        ("EY105", (line, 6 + MAX_DEPTH, line, 7 + MAX_DEPTH))]


def test_nesting_up_to_the_limit_parses() -> None:
    text = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    parsed, findings = parse(text)
    assert findings == [] and parsed.ok


@pytest.mark.parametrize(("text", "tag", "where"), [
    ("a: !!python/object/apply:os.system [x]\n", "!!python/object/apply:os.system",
     (0, 3, 0, 38)),
    ("a: !!python/name:os.system ''\n", "!!python/name:os.system", (0, 3, 0, 29)),
    ("a: !!set {x: null}\n", "!!set", (0, 3, 0, 18)),
])
def test_unsafe_tags_are_ey108_and_nothing_is_constructed(text: str, tag: str,
                                                          where: Quad) -> None:
    parsed, findings = parse(text)
    assert parsed.ok
    assert [(f.code, quad(f.span), f.message) for f in findings] == [
        ("EY108", where, f"tag '{tag}' is ignored: evalyaml never constructs objects from tags; "
         "remove the tag")]


def test_harmless_tags_pass() -> None:
    _, root = only_root("a: !!str 1.10\nb: !custom x\nc: !!int '3'\n")
    assert to_python(root, Budget(10)) == {"a": "1.10", "b": "x", "c": 3}


# -- documents and bytes ------------------------------------------------------------------------

def test_multi_document_text_gives_every_document() -> None:
    text = "a: 1\n---\n- b\n---\n...\n---\nc: &x 1\n"
    parsed, findings = parse(text)
    assert findings == []
    kinds = [type(doc).__name__ for doc in parsed.documents]
    assert kinds == ["Mapping", "Sequence", "Scalar", "Mapping"]
    last = parsed.documents[-1]
    assert last is not None and quad(parsed.span(last)) == (6, 0, 6, 7)


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "\ufeff"])
def test_empty_text_has_no_documents(text: str) -> None:
    parsed, findings = parse(text)
    assert parsed.ok and findings == [] and parsed.documents == []


@pytest.mark.parametrize(("data", "text", "problem"), [
    (b"a: 1\n", "a: 1\n", None),
    (b"a: caf\xc3\xa9\n", "a: café\n", None),
    (b"a: 1\nb: caf\xe9\n", "", "the file is not valid UTF-8: byte 0xe9 at line 2"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "",
     "the file looks binary (it contains NUL bytes), not YAML text"),
    (b"\xff\xfea\x00:\x00", "", "the file is UTF-16; evalyaml reads UTF-8 YAML (save it as UTF-8)"),
    (b"\xfe\xff\x00a", "", "the file is UTF-16; evalyaml reads UTF-8 YAML (save it as UTF-8)"),
])
def test_decode(data: bytes, text: str, problem: str | None) -> None:
    assert decode(data) == (text, problem)
