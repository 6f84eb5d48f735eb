"""Splitting a dataset into cases must not change a single finding.

The split path (each case parsed alone) is what runs; the whole-file path is the reference it
is compared with, on generated datasets with emoji, CJK, CRLF, comments and odd indentation.
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import Resolver

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.incremental import CaseCache
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_text
from evalyaml.formats.contract.dataset import analyze_dataset, analyze_dataset_whole
from evalyaml.syntax.tree import Mapping
from evalyaml.syntax.yaml.parse import parse_text
from evalyaml.syntax.yaml.resolver import FastResolver
from evalyaml.syntax.yaml.segments import (
    changed_region,
    has_questions_line,
    has_root_schema_key,
    may_have_anchors,
    split_after_edit,
    split_dataset,
)

OPTIONS = Options(today=date(2026, 11, 21))

CASE_BODIES = [
    ["id: c{n}", "input: What is 2+2?"],
    ["id: c{n}", "input: \"Café ☕ and 東京 😀\"", "expected_facts:", "  - four"],
    ["id: c{n}", "input: x", "expecteed_facts: [a]"],
    ["id: c{n}", "criteria: missing input"],
    ["id: c{n}", "input: x", "expected:", "  format: yaml"],
    ["id: c{n}", "input: x", "rubric_ref: rubric/Bad Ref"],
    ["id: dup", "input: twice"],
    ["id: c{n}", "input: |", "  multi", "  line 😀"],
    ["id: c{n}", "input: x  # a comment", "expected_tool: [search]"],
    ["id: c{n}", "input: \"tab\there\""],
]


def dataset(bodies: list[int], indent: int, newline: str, comment_between: bool) -> str:
    lines = ["name: generated", "questions:"]
    pad = " " * indent
    for n, body_index in enumerate(bodies):
        body = [line.format(n=n) for line in CASE_BODIES[body_index]]
        lines.append(f"{pad}- {body[0]}")
        lines.extend(f"{pad}  {line}" for line in body[1:])
        if comment_between:
            lines.extend(["", f"{pad}# between cases"])
    lines.append("descripton: trailing root key")
    return newline.join(lines) + newline


def key(finding: Finding) -> tuple[object, ...]:
    return (finding.code, finding.span, finding.message, finding.related)


def whole_file_findings(text: str) -> list[tuple[object, ...]]:
    sink = FindingSink(strict=False)
    parsed = parse_text(text, sink)
    root = parsed.documents[0]
    assert isinstance(root, Mapping)
    analyze_dataset_whole(parsed, root, OPTIONS, sink)
    return sorted(map(key, sink.findings), key=repr)


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.integers(0, len(CASE_BODIES) - 1), min_size=1, max_size=8),
    st.sampled_from([0, 2, 4]),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
)
def test_split_analysis_equals_whole_file_analysis(
    bodies: list[int], indent: int, newline: str, comment_between: bool
) -> None:
    text = dataset(bodies, indent, newline, comment_between)
    split = analyze_dataset(text, OPTIONS, None)
    assert split is not None, "a plain dataset must be split"
    assert sorted(map(key, split.findings), key=repr) == whole_file_findings(text)


def test_cached_reanalysis_equals_fresh_after_an_edit() -> None:
    text = dataset([0, 1, 2, 3, 4, 5, 6], 2, "\n", True)
    cache = CaseCache()
    analyze_text(text, "d.yaml", OPTIONS, cache)
    edited = text.replace("input: What is 2+2?", "input: What is 2+2?\n    expected_tool: [x]")
    misses_before = cache.misses
    incremental = analyze_text(edited, "d.yaml", OPTIONS, cache)
    assert cache.misses - misses_before == 1  # only the edited case was analysed again
    fresh = analyze_text(edited, "d.yaml", OPTIONS)
    assert sorted(map(key, incremental.findings), key=repr) == \
        sorted(map(key, fresh.findings), key=repr)
    assert incremental.cases == fresh.cases
    assert incremental.references == fresh.references


def test_a_syntax_error_stays_inside_its_case() -> None:
    text = dataset([0, 0, 2], 2, "\n", False).replace("input: What is 2+2?", "input: a: b", 1)
    result = analyze_text(text, "d.yaml", OPTIONS)
    found = sorted((f.code, f.span.start.line, f.span.start.character, f.span.end.character)
                   for f in result.findings)
    assert found == [
        ("EY101", 3, 12, 15),  # `a: b` in the first case
        ("EY205", 8, 4, 19),  # `expecteed_facts` two cases further down is still reported
        ("EY205", 9, 0, 10),  # `descripton` at the root, after the list
    ]


def test_a_quoted_string_running_past_an_item_line_is_joined() -> None:
    text = 'questions:\n  - id: a\n    input: "one\n  - two"\n  - id: b\n    input: x\n'
    result = analyze_text(text, "d.yaml", OPTIONS)
    assert result.findings == []
    assert [c.id for c in result.cases] == ["a", "b"]


def test_anchors_and_documents_are_not_split() -> None:
    assert split_dataset("questions:\n  - &a {id: x, input: y}\n  - *a\n") is None
    assert split_dataset("questions:\n  - id: x\n    input: y\n---\nz: 1\n") is None
    assert may_have_anchors("- *alias") and may_have_anchors("k: &name v")
    assert not may_have_anchors('input: "make it **bold**"\ncriteria: use * and & freely')


def test_a_dash_less_indented_than_the_items_is_not_split() -> None:
    """`- x` after the items, less indented: with the items' lines taken out it would read as
    the key's list (`questions:\n- x`), where the whole file has a syntax error there."""
    text = "questions:\n  - id: a\n    input: x\n- id: b\n"
    assert split_dataset(text) is None
    assert split_dataset(text.replace("- id: b", "-b: 1")) is None  # odd, but parsed whole
    assert split_dataset("questions:\n- id: a\n  input: x\n- id: b\n") is not None


def test_fast_resolver_agrees_with_ruamel() -> None:
    reference, fast = Resolver(), FastResolver()
    samples = ["abc", "yes", "No", "on", "Off", "y", "true", "False", "null", "Null", "~", "",
               "1.10", "0x1f", "0o17", "-1", "+2", ".inf", "-.Inf", ".NaN", "2026-11-02",
               "2026-11-02T10:00:00Z", "<<", "=", "1e3", "1_000", "été", "😀", "o", "t"]
    for sample in samples:
        for implicit in ((True, False), (False, True)):
            assert str(fast.resolve(ScalarNode, sample, implicit)) == \
                str(reference.resolve(ScalarNode, sample, implicit)), sample


EDIT_INSERTS = ["x", "\n", "- ", "  - ", "\n  - id: new\n", "\n    key: v", "&a ", "*a", "#",
                "\n---\n", "questions:", "\nroot: 1\n", "\r\n", "\t", "\"", "😀", ""]


EDITS = st.tuples(st.floats(0, 1), st.integers(0, 12), st.sampled_from(EDIT_INSERTS))


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(0, len(CASE_BODIES) - 1), min_size=1, max_size=6),
    st.sampled_from([0, 2, 4]),
    st.booleans(),
    EDITS,
)
def test_a_split_after_an_edit_equals_a_fresh_split(
    bodies: list[int], indent: int, comment_between: bool, edit: tuple[float, int, str]
) -> None:
    where, removed, inserted = edit
    old = dataset(bodies, indent, "\n", comment_between)
    at = int(where * len(old))
    new = old[:at] + inserted + old[at + removed :]
    start, old_end, new_end = changed_region(old, new)
    assert old[:start] == new[:start] and old[old_end:] == new[new_end:]
    split = split_dataset(old)
    assert split is not None
    after = split_after_edit(old, split, new)
    if after is not None:
        assert after[0] == split_dataset(new)
        assert after[0].items[after[1]].start <= start


def test_typing_in_one_case_re_splits_and_re_analyses_only_that_case() -> None:
    text = dataset([0, 1, 2, 3, 4, 5, 6] * 20, 2, "\n", True)
    cache = CaseCache()
    analyze_text(text, "d.yaml", OPTIONS, cache)
    for typed in ("What is 2+2?!", "What is 2+2?!\n    expected_tool: [x]", "What"):
        edited = text.replace("input: What is 2+2?", f"input: {typed}", 1)
        misses, incremental = cache.misses, cache.incremental
        result = analyze_text(edited, "d.yaml", OPTIONS, cache)
        assert (cache.misses - misses, cache.incremental - incremental) == (1, 1), typed
        fresh = analyze_text(edited, "d.yaml", OPTIONS)
        assert sorted(map(key, result.findings), key=repr) == \
            sorted(map(key, fresh.findings), key=repr)
        assert result.cases == fresh.cases and result.references == fresh.references
        text = edited


def _old_line_starts(text: str, prefix: str) -> bool:
    return text.startswith(prefix) or f"\n{prefix}" in text


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["\ufeff", "\n", "\r", "$schema", "questions", "x", " ", "$",
                                  "quest"]), max_size=12).map("".join))
def test_root_key_lines_are_found_as_before(text: str) -> None:
    """The one-scan checks answer what the scans for every line start answered."""
    assert has_root_schema_key(text) == (
        _old_line_starts(text.lstrip("\ufeff"), "$schema") or "\r$schema" in text)
    assert has_questions_line(text) == (
        _old_line_starts(text, "questions") or "\rquestions" in text)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_line_added_or_removed_in_a_case_moves_the_root_findings_below(newline: str) -> None:
    """The skeleton is not parsed again for an inserted line: its findings below the cases move
    (`CaseCache.root_findings`), and they equal a fresh analysis's."""
    text = "# head\r" + dataset([0, 2, 0, 4] * 3, 2, newline, True)  # a lone CR in the head
    cache = CaseCache()
    analyze_text(text, "d.yaml", OPTIONS, cache)
    for edited in (text.replace("input: What is 2+2?", f"input: x{newline}    tags: [a]", 1),
                   text.replace(f"{newline}    expecteed_facts: [a]", "", 1)):
        result = analyze_text(edited, "d.yaml", OPTIONS, cache)
        fresh = analyze_text(edited, "d.yaml", OPTIONS)
        assert sorted(map(key, result.findings), key=repr) == \
            sorted(map(key, fresh.findings), key=repr)
        trailing = [f.span.start.line for f in result.findings if "descripton" in f.message]
        assert trailing == [edited.count(newline)]  # the last line: one more for the lone CR
        analyze_text(text, "d.yaml", OPTIONS, cache)  # and back


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_the_skeleton_s_findings_land_below_the_cases_exactly(newline: str) -> None:
    """The skeleton is parsed without the lines that stand for the cases, and its findings
    below them moved down (`dataset._skeleton_findings`); a finding that reaches across the
    cases (a duplicate key whose first is above them) comes from the skeleton as it is."""
    cases = "".join(f"  - id: q{i}{newline}    input: x 😀{newline}" for i in range(3))
    text = f"name: a{newline}questions:{newline}{cases}name: b{newline}descripton: y{newline}"
    found = [(f.code, (f.span.start.line, f.span.start.character, f.span.end.line,
                       f.span.end.character),
              [(r.span.start.line, r.span.start.character) for r in f.related])
             for f in analyze_text(text, "d.yaml", OPTIONS).findings]
    assert found == [("EY102", (8, 0, 8, 4), [(0, 0)]), ("EY205", (9, 0, 9, 10), [])]


def test_a_skeleton_finding_moved_below_the_cases_keeps_its_fix_whole() -> None:
    """Moving the skeleton's findings (`CaseCache.root_findings`) rebuilds their fixes: each
    keeps its title, edits moved, preference and safety."""
    from evalyaml.core.findings import Fix, FixSafety, Severity, TextEdit
    from evalyaml.core.incremental import _move_below
    from evalyaml.syntax.text import Position, Span

    def at(line: int) -> Span:
        return Span(Position(line, 0), Position(line, 4))

    fix = Fix("Rename to 'name'", (TextEdit(at(9), "name"),), True, FixSafety.SAFE)
    finding = Finding("EY205", "typo", at(9), Severity.WARNING, fixes=(fix,))
    moved = _move_below((finding,), 2, 5, 3)
    assert moved is not None
    assert moved[0].span == at(12)
    assert moved[0].fixes == (Fix("Rename to 'name'", (TextEdit(at(12), "name"),), True,
                                  FixSafety.SAFE),)


def test_a_split_made_ahead_is_handed_to_the_next_split_of_that_text_once() -> None:
    """`split_ahead` (the language server's peek while it imports itself) keeps its split for
    the analysis that splits the same text next, and only for it."""
    from evalyaml.syntax.yaml import segments

    text = dataset([0, 2, 0], 1, "\n", False)
    ahead = segments.split_ahead(text)
    assert ahead is not None
    same = "".join(list(text))  # an equal text, another object: as pygls parses it again
    assert same is not text
    assert segments.split_dataset(same, "samples") is None  # another key: not this split
    taken = segments.split_dataset(same)
    assert taken is ahead
    again = segments.split_dataset(same)
    assert again == ahead and again is not ahead  # handed once
    segments.split_ahead(text)
    segments.forget_ahead("questions: []\n")  # another text's: kept
    assert segments.split_dataset(text) is not None and not segments._AHEAD
    segments.split_ahead(text)
    segments.forget_ahead(text)
    assert not segments._AHEAD
