"""Did-you-mean: close names get a suggestion, far-off names get none."""

from __future__ import annotations

import pytest

from evalyaml.core.suggest import best, best_value, did_you_mean, edit_distance, rank

CASE_KEYS = ["id", "input", "criteria", "expected", "expected_facts", "expected_tools",
             "rubric_ref", "bundle"]


@pytest.mark.parametrize(("name", "suggestion"), [
    ("expecteed_facts", "expected_facts"),
    ("expected_tool", "expected_tools"),
    ("expected_fact", "expected_facts"),
    ("expectedFacts", "expected_facts"),
    ("Expected-Tools", "expected_tools"),
    ("EXPECTED_TOOLS", "expected_tools"),
    ("inptu", "input"),
    ("critera", "criteria"),
    ("rubric_refs", "rubric_ref"),
    ("rubricref", "rubric_ref"),
    ("bundel", "bundle"),
    ("ID", "id"),
    ("metadata", None),
    ("notes", None),
    ("difficulty", None),
    ("tags", None),
    ("ix", None),
    ("expectations", None),
])
def test_best_case_key(name: str, suggestion: str | None) -> None:
    assert best(name, CASE_KEYS) == suggestion


def test_rank_orders_by_closeness_and_skips_exact_matches() -> None:
    assert rank("expected_tool", CASE_KEYS)[0] == "expected_tools"
    assert "expected_tools" not in rank("expected_tools", CASE_KEYS)
    assert rank("regx", ["regex", "format", "composite"]) == ["regex"]


@pytest.mark.parametrize(("a", "b", "distance"), [
    ("kitten", "sitting", 3), ("ab", "ba", 1), ("", "abc", 3), ("same", "same", 0),
    ("outptu", "output", 1),
])
def test_edit_distance(a: str, b: str, distance: int) -> None:
    assert edit_distance(a, b, 10) == distance
    assert edit_distance(a, b, distance - 1) > distance - 1 if distance else True


def test_did_you_mean_sentence() -> None:
    assert did_you_mean("outptu", ["input", "output"]) == "; did you mean 'output'?"
    assert did_you_mean("zzz", ["input", "output"]) == ""


def test_a_value_written_out_or_cut_short_is_offered_the_allowed_form() -> None:
    scorings = ["all_pass", "any_pass", "weighted_avg", "min", "max", "median"]
    assert best_value("weighted_average", scorings) == "weighted_avg"
    assert best_value("weighted-avg", scorings) == "weighted_avg"  # separators ignored
    assert best_value("all_pas", scorings) == "all_pass"  # a typo, as `best` ranks it
    # Too short, or too small a part of the allowed value, to be sure of: no suggestion.
    assert best_value("maximum", scorings) is None
    assert best_value("exact", ["exact_match", "f1"]) == "exact_match"  # its first word
    assert best_value("max", ["max_tokens", "min"]) is None  # a word too short to be sure
    assert best_value("average", scorings) is None  # not how `weighted_avg` begins


def test_a_value_with_a_word_more_is_offered_the_allowed_one() -> None:
    variables = ["input", "output", "expected", "context"]
    assert best_value("expected_answer", variables) == "expected"
    assert best_value("context-docs", variables) == "context"
    assert best_value("out_text", variables) is None  # 'out' is no word of 'output'


def test_a_value_without_words_gets_no_suggestion_and_no_crash() -> None:
    assert best_value("", ["harmful:hate", "pii"]) is None
    assert best_value("---", ["harmful:hate", "pii"]) is None
