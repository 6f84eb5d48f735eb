"""The fixture annotation format itself (annotations.py)."""

from __future__ import annotations

from datetime import date

import pytest

from .annotations import AnnotationError, Expected, annotate, parse_fixture

TEXT = """#! kind: rubric
#! strict
#! today: 2026-01-02
#! freshness_days: 7
id: x
  descripton: y
# ^^^^^^^^^^ EY205 a message: with colons, 'quotes' and # hashes
# ^^ EY999 stacked under the same target line
#@ 0..0 EY201 zero-width at column 0
#@ -1:3..+1:0 EY104 from the line above to the next line
checks: []
"""


def test_parse_fixture() -> None:
    fixture = parse_fixture(TEXT, "rubrics/x.yaml")
    assert (fixture.kind, fixture.path, fixture.strict, fixture.today,
            fixture.freshness_days) == ("rubric", "rubrics/x.yaml", True, date(2026, 1, 2), 7)
    assert fixture.expected == sorted([
        Expected((5, 2), (5, 12), "EY205", "a message: with colons, 'quotes' and # hashes"),
        Expected((5, 2), (5, 4), "EY999", "stacked under the same target line"),
        Expected((5, 0), (5, 0), "EY201", "zero-width at column 0"),
        Expected((4, 3), (6, 0), "EY104", "from the line above to the next line"),
    ])
    assert fixture.annotation_lines == {0, 1, 2, 3, 6, 7, 8, 9}


def test_defaults_and_path_header() -> None:
    fixture = parse_fixture("#! kind: none\n#! path: judges/j.yaml\na: 1\n", "x.yaml")
    assert (fixture.kind, fixture.path, fixture.strict, fixture.today,
            fixture.freshness_days, fixture.expected) == (
        "none", "judges/j.yaml", False, date(2026, 11, 21), 90, [])


@pytest.mark.parametrize("text", [
    "a: 1\n",  # no kind header
    "#! kind: playbook\n",
    "#! kind: rubric\n#! colour: red\n",
    "#! kind: rubric\n#! kind: judge\n",
    "#! kind: rubric\nab\n# ^^^^^ EY205 carets past the end of the line\n",
    "#! kind: rubric\na: 1\n#@ 3..1 EY201 ends before it starts\n",
    "#! kind: rubric\na: 1\n# ^ 205 code without EY\n",
    "#! kind: none\na: 1\n# ^ EY205 not ours cannot expect findings\n",
])
def test_malformed_annotations_are_rejected(text: str) -> None:
    with pytest.raises(AnnotationError):
        parse_fixture(text, "x.yaml")


def test_annotate_draws_what_parse_reads_back() -> None:
    """Drawing inserts lines, so findings below an annotation move down by that many lines."""
    text = "#! kind: dataset\nquestions:\n  - id: a\n    expecteed_facts: []\nz:\n"
    found = [Expected((3, 4), (3, 19), "EY205", "typo"), Expected((4, 0), (4, 1), "EY201", "col 0"),
             Expected((2, 4), (3, 0), "EY202", "two lines")]
    drawn = annotate(text, found)
    assert drawn.splitlines()[4:8] == ["#@ -1:4..0 EY202 two lines",
                                       "  # ^^^^^^^^^^^^^^^ EY205 typo", "z:",
                                       "#@ 0..1 EY201 col 0"]
    assert parse_fixture(drawn, "x.yaml").expected == sorted([
        Expected((3, 4), (3, 19), "EY205", "typo"), Expected((6, 0), (6, 1), "EY201", "col 0"),
        Expected((2, 4), (3, 0), "EY202", "two lines")])
