"""Syntax error recovery, piece by piece: which lines are blanked, what the mask withholds,
JSON documents and JSONL rows (issue #15; the differential test is `tests/recovery/`)."""

from __future__ import annotations

import pytest

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.syntax.json import parse_json
from evalyaml.syntax.jsonl import parse_jsonl
from evalyaml.syntax.text import Position, Span
from evalyaml.syntax.tree import Mapping, Scalar, Sequence
from evalyaml.syntax.yaml.parse import parse_text


def recovered(text: str) -> tuple[list[tuple[int, int]], list[Finding], Mapping]:
    sink = FindingSink(strict=False)
    parsed = parse_text(text, sink)
    assert not parsed.ok and parsed.usable
    root = parsed.documents[0]
    assert isinstance(root, Mapping)
    return [(h.first_line, h.last_line) for h in parsed.holes], sink.findings, root


def keys(node: Mapping) -> list[str]:
    return [k.text for k in node.key_nodes()]


def test_the_broken_line_goes_and_its_offsets_stay() -> None:
    text = "a: 1\nb: x: y\nc: 3\n"
    holes, findings, root = recovered(text)
    assert holes == [(1, 1)]
    assert [f.code for f in findings] == ["EY101"]
    assert keys(root) == ["a", "c"]
    c = root.get("c")
    assert isinstance(c, Scalar) and text[c.start:c.end] == "3"


def test_lines_indented_under_the_broken_one_go_with_it() -> None:
    holes, _, root = recovered("a: 1\nb: x: y\n  c: 2\n  d: 3\ne: 4\n")
    assert holes == [(1, 3)]
    assert keys(root) == ["a", "e"]


def test_a_key_whose_whole_value_is_broken_goes_too() -> None:
    """`expected:` is not left as an empty value it never had."""
    holes, _, root = recovered("a: 1\nexpected:\n  format: x: y\nb: 2\n")
    assert holes == [(1, 2)]
    assert keys(root) == ["a", "b"]


def test_a_list_item_keeps_its_dash_when_more_of_it_follows() -> None:
    holes, _, root = recovered("questions:\n  - id: a: b\n    input: hi\n  - id: c\n")
    assert holes == [(1, 1)]
    items = root.get("questions")
    assert isinstance(items, Sequence) and len(items.items) == 2
    first = items.items[0]
    assert isinstance(first, Mapping) and keys(first) == ["input"]


def test_a_whole_broken_item_leaves_the_list() -> None:
    _, _, root = recovered("tags:\n  - a: b: c\n  - d\n")
    items = root.get("tags")
    assert isinstance(items, Sequence) and [i.text for i in items.items
                                            if isinstance(i, Scalar)] == ["d"]


def test_an_open_quote_is_blanked_where_it_was_opened() -> None:
    text = 'a:\n  q: "open\nb: "closed"\nc: 1\n'
    holes, findings, root = recovered(text)
    assert holes[0] == (0, 1)  # `a` had only the broken line: it went with it
    assert keys(root) == ["b", "c"]
    assert [f.code for f in findings] == ["EY101"]


def test_a_tab_blanks_up_to_the_next_top_level_key() -> None:
    holes, findings, root = recovered("a:\n  b: 1\n\tc: 2\n  d: 3\ne: 4\n")
    assert holes == [(2, 3)]
    assert [f.code for f in findings] == ["EY106"]
    assert keys(root) == ["a", "e"]


def test_recovery_can_be_turned_off() -> None:
    sink = FindingSink(strict=False)
    parsed = parse_text("a: 1\nb: x: y\n", sink, recover=False)
    assert not parsed.usable and parsed.documents == [] and parsed.holes == ()


@pytest.mark.parametrize("code", ["EY201", "EY401", "EY502", "EY609"])
def test_the_mask_withholds_what_the_hole_may_explain(code: str) -> None:
    sink = FindingSink(strict=False)
    parse_text("- id: a\n  input: x: y\n  other: 1\n", sink)
    assert sink.mask is not None
    assert sink.mask(code, "missing", Span(Position(0, 2), Position(0, 7)))  # the owner line
    assert not sink.mask("EY205", "typo", Span(Position(2, 2), Position(2, 7)))
    assert sink.mask("EY205", "typo", Span(Position(1, 2), Position(1, 7)))  # on the hole
    assert sink.mask("EY202", "empty", Span(Position(0, 7), Position(0, 7)))  # empty value


def test_json_recovers_at_the_next_member() -> None:
    text = '{\n  "a": 1,\n  "b": tru,\n  "c": [1, 2]\n}\n'
    sink = FindingSink(strict=False)
    parsed = parse_json(text, sink)
    assert not parsed.ok and parsed.usable
    root = parsed.documents[0]
    assert isinstance(root, Mapping) and keys(root) == ["a", "c"]
    assert [(f.code, f.span.start.line) for f in sink.findings] == [("EY110", 2)]


def test_json_hides_the_comma_a_blanked_last_member_leaves_trailing() -> None:
    sink = FindingSink(strict=False)
    parsed = parse_json('{\n  "a": 1,\n  "b": nul\n}\n', sink)
    assert parsed.usable
    assert [(f.code, f.span.start.line) for f in sink.findings] == [("EY110", 2)]


@pytest.mark.parametrize("text", ['{"a": tru, "b": 1}', '{\n  "a": 1\n', '[\n  1,\n  x\n'])
def test_json_does_not_recover_when_unsure(text: str) -> None:
    """One line: nothing around to keep; a missing closing bracket: the document's own
    structure is in doubt."""
    parsed = parse_json(text, FindingSink(strict=False))
    assert parsed.documents == [] and not parsed.holes


def test_a_broken_jsonl_row_is_one_finding_and_the_others_keep_theirs() -> None:
    sink = FindingSink(strict=False)
    doc = parse_jsonl('{"a": 1}\n{"a": tru}\n{"a": 1, "a": 2}\n', sink)
    assert [row.ok for row in doc.rows] == [True, False, True]
    assert [(f.code, f.span.start.line) for f in sink.findings] == [("EY110", 1),
                                                                    ("EY111", 2)]


def test_a_second_broken_line_of_a_whole_document_is_reported_too() -> None:
    """A suite or rubric is parsed whole: its second syntax error used to surface only after
    the first was fixed."""
    text = ("tests:\n  - id: a\n    input: one: two\n  - id: b\n    input: x\n"
            "  - id: c\n    input: [first, second\n    criteria: ok\n")
    holes, findings, root = recovered(text)
    assert holes == [(2, 2), (6, 6)]
    assert [(f.code, f.span.start.line, f.span.start.character) for f in findings] == [
        ("EY101", 2, 14), ("EY101", 6, 11)]
    assert "not closed" in findings[1].message
    assert isinstance(root.get("tests"), Sequence)


def test_an_error_next_to_an_earlier_hole_is_not_reported() -> None:
    """Errors on a line next to a blank could be the blank's doing: recover less, say less."""
    text = "a: 1\nb: x: y\nc: [1, 2\nd: 4\n"
    holes, findings, _ = recovered(text)
    assert len(holes) == 2
    assert [f.span.start.line for f in findings if f.code == "EY101"] == [1]


def test_a_key_name_finding_stays_on_a_line_that_owns_the_hole_not_beside_it() -> None:
    """A key close to a known one (Apastra EY801, EEE EY706) reads its sibling keys: all there
    above a hole, maybe in it beside one."""
    sink = FindingSink(strict=False)
    parse_text("a: 1\nmetadta:\n  x: 1\n  y: z: w\nb: 2\n", sink)
    assert sink.mask is not None
    owner, beside = Span(Position(1, 0), Position(1, 7)), Span(Position(2, 2), Position(2, 3))
    assert not sink.mask("EY801", "near miss", owner)
    assert sink.mask("EY801", "near miss", beside)
    assert sink.mask("EY800", "the document misses the required key 'id'", owner)
    assert not sink.mask("EY800", "tier must be one of smoke, regression", beside)
    tabbed = FindingSink(strict=False)
    parse_text("a: 1\nmetadta:\n  x: 1\n\ty: 2\nb: 2\n", tabbed)
    assert tabbed.mask is not None and tabbed.mask("EY801", "near miss", owner)


def test_a_missing_key_stays_when_the_broken_line_held_another_key() -> None:
    """The hole's own key is known (`input: x: y`): a missing key with another name is not
    what the blanks removed; one with the same or a close name may be."""
    sink = FindingSink(strict=False)
    parsed = parse_text("- id: a\n  input: x: y\n  other: 1\n", sink)
    assert [h.key for h in parsed.holes] == ["input"]
    assert sink.mask is not None
    owner = Span(Position(0, 2), Position(0, 7))
    assert not sink.mask("EY201", "this case is missing required key 'criteria'", owner)
    assert sink.mask("EY201", "this case is missing required key 'input'", owner)
    assert sink.mask("EY201", "this case is missing required key 'inputs'", owner)  # close
    assert sink.mask("EY201", "this case needs one of 'input' or 'messages'", owner)
    assert sink.mask("EY207", "this case needs at least 2 items", owner)  # not a missing key
    assert sink.mask("EY604", "the test has no 'input'", owner)
    turns = FindingSink(strict=False)  # a test with `turns` needs no `input`: not named
    parse_text("- id: a\n  turns: x: y\n  other: 1\n", turns)
    assert turns.mask is not None and turns.mask("EY604", "the test has no 'input'", owner)


def test_a_missing_key_stays_withheld_where_the_hole_was_the_first_key() -> None:
    """A mapping's "missing key" goes on its first line: blank `- id: a` and it moves to the
    next, where the unbroken file has none."""
    sink = FindingSink(strict=False)
    parsed = parse_text("- id: a: b\n  criteria: ok\n", sink)
    assert [h.key for h in parsed.holes] == ["id"]
    assert sink.mask is not None
    moved = Span(Position(1, 2), Position(1, 10))
    assert sink.mask("EY201", "this case is missing required key 'input'", moved)


@pytest.mark.parametrize("line", ["  [a, b]: x: y", "  ? x: y", "\tkey: x: y", "  - a: b: c"])
def test_no_key_is_known_for_a_line_that_does_not_start_with_a_plain_key(line: str) -> None:
    sink = FindingSink(strict=False)
    parsed = parse_text(f"a:\n  b: 1\n{line}\n  c: 2\n", sink)
    assert all(h.key is None for h in parsed.holes)


def test_a_finding_that_reads_named_sibling_keys_stays_when_none_is_the_hole() -> None:
    sink = FindingSink(strict=False)
    parse_text("- id: 7311\n  kind: regex\n  note: x: y\n  pattern: '(a'\n", sink)
    assert sink.mask is not None
    pattern = Span(Position(3, 12), Position(3, 13))
    assert not sink.mask("EY212", "regex does not compile", pattern)
    assert not sink.mask("EY505", "the id is the integer 7311", Span(Position(0, 6),
                                                                      Position(0, 10)))
    assert sink.mask("EY505", "sample 0 has no 'notes'", Span(Position(0, 2), Position(0, 10)))
    kind = FindingSink(strict=False)  # the check's kind was broken: its pattern is not read
    parse_text("- id: a\n  kind: x: y\n  note: 1\n  pattern: '(a'\n", kind)
    assert kind.mask is not None and kind.mask("EY212", "regex does not compile", pattern)


def test_no_key_counts_as_known_when_an_open_quote_swallowed_the_lines_after_it() -> None:
    """`input: 'it is` closes at `more: x'` once the line that stopped it is blanked: the
    tree lost `criteria` too, so a missing key stays withheld."""
    sink = FindingSink(strict=False)
    parsed = parse_text("- id: a\n  input: 'it is\n  criteria: ok\n  note: it's fine: x\n"
                        "  more: x'\n", sink)
    assert [h.key for h in parsed.holes] == ["note"]
    assert sink.mask is not None
    owner = Span(Position(0, 2), Position(0, 7))
    assert sink.mask("EY201", "this case is missing required key 'criteria'", owner)
    literal = FindingSink(strict=False)  # a block scalar's `key: value` lines are its text
    parse_text("- id: a\n  template: |\n    text: here\n  input: x: y\n  other: 1\n", literal)
    assert literal.mask is not None
    assert not literal.mask("EY201", "this case is missing required key 'criteria'", owner)
