"""The VS Code bundle's parser (ruamel's pure Python, `syntax/yaml/pureyaml.py`) against CI's
(libyaml through ruamel.yaml.clib): the same findings at the same ranges, the same trees.

Each text below once gave different results (found by comparing both parsers over the corpus,
the examples and random edits of them). The known divergences that remain are pinned at the
end, each parser's behaviour asserted on its own (ARCHITECTURE.md, "Two YAML parsers").
"""

from __future__ import annotations

import pytest

from evalyaml.core.findings import FindingSink
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.tree import Budget, Mapping, Node, Scalar, Sequence, to_python
from evalyaml.syntax.yaml.parse import c_parser_available, parse_text

needs_c = pytest.mark.skipif(not c_parser_available(), reason="ruamel.yaml.clib is not installed")

Result = tuple[bool, list[tuple[str, tuple[int, int, int, int], str]], list[object]]


def result(text: str, *, pure: bool) -> Result:
    """What a user sees of a parse: ok, the findings with their ranges, the tree."""
    sink = FindingSink(strict=False)
    parsed = parse_text(text, sink, pure=pure)
    findings = [(f.code, (f.span.start.line, f.span.start.character, f.span.end.line,
                          f.span.end.character), f.message) for f in sink.findings]
    return parsed.ok, findings, _shape(parsed)


def _shape(parsed: ParsedText) -> list[object]:
    def walk(node: Node | None, seen: frozenset[int]) -> object:
        if node is None or id(node) in seen:
            return None if node is None else ("alias", node.start)
        seen |= {id(node)}
        here = (type(node).__name__, node.tag, node.start, node.end)
        if isinstance(node, Scalar):
            return (*here, node.text, node.style)
        if isinstance(node, Sequence):
            return (*here, node.flow, [walk(i, seen) for i in node.items])
        assert isinstance(node, Mapping)
        return (*here, [(walk(k, seen), walk(v, seen)) for k, v in node.pairs])
    return [walk(doc, frozenset()) for doc in parsed.documents]


SAME: list[tuple[str, str]] = [
    # Tabs: whitespace between tokens after `key:`, an anchor or a tag, and inside plain text.
    ("tab after a key", 'a:\t"x\ty"\nb: plain\ttext\nc: {\tk:\tv }\n'),
    ("tab in a continuation line", "a: b\n  \tc\n"),
    ("tab after an anchor", "a: &x\tb\nc: *x\n"),
    ("tab indenting a continuation", "a: b\n\tc\n"),
    ("tab after a dash", "- a\n-\tb\n"),
    ("tab before a comment line", "a: x\n\t# c\n"),
    # Error wording, and where each error is reported.
    ("unclosed list", "a: [1, 2\n"),
    ("unclosed list, next key", "tools: [a, b\ninput: fine\n"),
    ("unclosed mapping", "a: {x: 1\n"),
    ("list item expected", "a:\n  - 1\n  b: 2\n"),
    ("key expected", 'a: x # c\nb: "x" y\n'),
    ("less indented key", "a:\n  b: 1\n c: 2\n"),
    ("unknown escape", 'a: "\\q"\n'),
    ("short unicode escape", 'a: "\\u12s4"\n'),
    ("block scalar header", "k: |x\n"),
    ("indentation indicator 0", "a: |0\n x\n"),
    ("empty anchor", "a: &\n"),
    ("alias named by a glob", 'a: "x\n\nb:\n  - "**/x"\n'),
    ("non-ASCII anchor", "&café x\n"),
    ("unclosed verbatim tag", "a: !<x\n"),
    ("character that starts nothing", "a: @x\n"),
    ("dash after a key", "k: - x\n"),
    ("node content expected", "a: [:b]\n"),
    ("control character", "a: \x01\n"),
    ("anchor defined twice", "a: &x 1\nb: &x 2\nc: *x\n"),
    ("undefined alias", "a: *nope\n"),
    # Colons and question marks inside plain text of a flow collection (the old libyaml in
    # ruamel.yaml.clib refuses them; the C side reads such a text with the pure parser: below).
    ("url in a flow list", "tools: [http://x]\n"),
    ("colon in a flow mapping", "{a:b}\n"),
    ("colon before a comma", "[a:,b]\n"),
    ("colon before a bracket", "[a:]\n"),
    ("colon before a brace", "{a:}\n"),
    ("colon before a flow list", "[a:[b]]\n"),
    ("colon before a question mark", "[a:?]\n"),
    ("question mark in flow text", "[a?b]\n"),
    ("question mark after a blank", "{q: Comment ça va ?}\n"),
    ("empty key", "a: 1\n: 2\n"),
    # Documents and directives.
    ("bare document after '...'", "a: 1\n...\nb: 2\n"),
    ("text after '...'", "a: 1\n... x\n"),
    ("unclosed list after '...'", "a: 1\n...\nb: [\n"),
    ("top-level block scalar at column 0", "|\nx\n"),
    ("unknown directive", "%FOO bar\n---\na\n"),
    ("directive that is a key", "%metric_versions:\n"),
    ("YAML 1.3", "%YAML 1.3\n---\na\n"),
    ("TAG directive", "%TAG !e! tag:x,2000:\n---\na: !e!y z\n"),
    # The end of a text without a final newline, as an editor buffer often is.
    ("key still open at the end", "a: 1\nb"),
    ("flow start as the last key", "a: 1\n["),
    ("byte-order mark starting a line", "a: 1\n\ufeffb: 2\n"),
    # Block scalars.
    ("more indented leading blank line", "a: |\n \n     x\n      y\nb: 1\n"),
    ("comment right after the indicator", "a: >#c\n  x\n"),
    ("tab after the indicator", "a: |\t# c\n  x\n"),
    ("indicators both ways", "a: |-2\n   x\nb: |2-\n   y\n"),
    ("tab before a block scalar's first text", "a: |\n \t\tx\nb: 1\n"),
    # Tags: a bare '!' wants a blank after it.
    ("bare tag before a brace", "a: [!{\n"),
    ("bare tag before a comment sign", "!#! kind: dataset\nname: x\n"),
]


@needs_c
@pytest.mark.parametrize("text", [t for _, t in SAME], ids=[name for name, _ in SAME])
def test_both_parsers_give_the_same_findings_and_tree(text: str) -> None:
    assert result(text, pure=True) == result(text, pure=False)


# Every tool that reads these formats (libyaml 0.2.5 for lm-eval's loader, js-yaml for
# promptfoo, the `yaml` package for AgentV) reads a ':' before more text, or a '?', inside plain
# text of a flow collection as part of the text. promptfoo's own documentation writes
# `providers: [openai:gpt-4.1-mini]`.
FLOW_TEXT = [
    ("providers: [openai:gpt-4.1-mini, anthropic:messages:claude]\n",
     {"providers": ["openai:gpt-4.1-mini", "anthropic:messages:claude"]}),
    ("tools: [http://x]\n", {"tools": ["http://x"]}),
    ("{a:b}\n", {"a:b": None}),
    ("a: {b: c:d}\n", {"a": {"b": "c:d"}}),
    ("x: [a:b:c, \"q\":r]\n", {"x": ["a:b:c", {"q": "r"}]}),
    ("v: [why?, really?]\n", {"v": ["why?", "really?"]}),
    ("assert: [{type: contains, value: refund?}]\n",
     {"assert": [{"type": "contains", "value": "refund?"}]}),
    ("[a?b, x?:y, ?k]\n", ["a?b", "x?:y", {"k": None}]),
    ("q: {fr: Comment ça va ?}\n", {"q": {"fr": "Comment ça va ?"}}),
    ("- [x, y ?, a ? b]\n", [["x", "y ?", "a ? b"]]),
]


# libyaml 0.2.5 refuses a ':' before one of `,?[]{}` in flow text (js-yaml and the `yaml`
# package would read it): both parsers say so, at the ':'.
@pytest.mark.parametrize("pure", [True, pytest.param(False, marks=needs_c)])
@pytest.mark.parametrize("text", ["[a:]\n", "{a:}\n", "[a:,b]\n", "[a:[b]]\n", "[a:?]\n"])
def test_a_colon_before_a_flow_indicator_is_libyamls_error(text: str, pure: bool) -> None:
    ok, findings, _ = result(text, pure=pure)
    assert not ok
    assert [(code, where[:2], message) for code, where, message in findings] == \
        [("EY101", (0, 2), "YAML syntax error: found unexpected ':'")]


@pytest.mark.parametrize("pure", [True, pytest.param(False, marks=needs_c)])
@pytest.mark.parametrize(("text", "value"), FLOW_TEXT)
def test_colons_and_question_marks_in_flow_text_read_as_the_formats_tools_read_them(
        text: str, value: object, pure: bool) -> None:
    sink = FindingSink(strict=False)
    parsed = parse_text(text, sink, pure=pure)
    assert parsed.ok and sink.findings == []
    assert to_python(parsed.documents[0], Budget(1000)) == value


# -- known divergences ---------------------------------------------------------------------------
# Tags: ruamel's tag scanner is not libyaml's, and tags are rare in evaluation files (one text
# in 6,000 random edits of the examples still differs, always at a tag). Each case pins both
# behaviours, so a change of either parser shows here.

TAB_AFTER_TAG = "a: !!str\tx\n"


@needs_c
def test_divergence_tab_after_a_tag_c_reads_it() -> None:
    ok, findings, _ = result(TAB_AFTER_TAG, pure=False)
    assert ok and findings == []


def test_divergence_tab_after_a_tag_pure_refuses_it() -> None:
    assert result(TAB_AFTER_TAG, pure=True)[:2] == (False, [
        ("EY101", (0, 8, 0, 10),
         "YAML syntax error: did not find expected whitespace or line break")])


BANG_IN_TAG = "a: !!python/app!ly x\n"


@needs_c
def test_divergence_bang_inside_a_tag_c_reads_one_tag() -> None:
    assert result(BANG_IN_TAG, pure=False)[:2] == (True, [
        ("EY108", (0, 3, 0, 20), "tag '!!python/app!ly' is ignored: evalyaml never constructs "
         "objects from tags; remove the tag")])


def test_divergence_bang_inside_a_tag_pure_wants_a_handle() -> None:
    assert result(BANG_IN_TAG, pure=True)[:2] == (False, [
        ("EY101", (0, 11, 0, 20), "YAML syntax error: did not find expected '!'")])
