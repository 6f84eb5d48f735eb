"""Defects found in review, each pinned by the behaviour a user would have seen."""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

from evalyaml.checker import check_paths
from evalyaml.config import parse_config
from evalyaml.core.incremental import CaseCache
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_text

TODAY = date(2026, 11, 21)
JUDGE = 'id: j\nversion: "1.0.0"\nscore_type: binary\n'


def findings(text: str, path: str = "x.yaml", **options: object) -> list[tuple[object, ...]]:
    result = analyze_text(text, path, Options(today=TODAY, **options))  # type: ignore[arg-type]
    return [(f.code, f.span.start.line, f.span.start.character, f.span.end.character,
             f.message) for f in result.findings]


def test_a_judges_folder_above_the_workspace_is_not_the_convention(tmp_path: Path) -> None:
    project = tmp_path / "judges" / "proj"
    (project / "k8s").mkdir(parents=True)
    (project / ".git").mkdir()
    (project / "k8s" / "dep.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n", "utf-8")
    result = check_paths([project], today=TODAY)
    assert list(result.all_findings()) == []
    assert result.files_checked == 0


def test_the_convention_still_holds_below_the_root() -> None:
    text = "id: j\nversion: '1.0.0'\n"
    assert findings(text, "/w/judges/deep/j.yaml", root="/w")[0][0] == "EY201"
    assert findings(text, "/w/judges/deep/j.yaml", root="/w/judges/deep") == []


def test_a_template_with_a_long_unclosed_tag_is_fast() -> None:
    started = time.perf_counter()
    result = findings(JUDGE + 'template: "{{' + " " * 20_000 + 'x"\n', "judges/j.yaml")
    assert time.perf_counter() - started < 2  # was minutes: the tag regex backtracked cubically
    assert [r[0] for r in result] == ["EY406"]


def test_many_template_tags_cost_linear_time() -> None:
    started = time.perf_counter()
    result = findings(JUDGE + 'template: "' + "{{ input }}" * 20_000 + '"\n', "judges/j.yaml")
    assert time.perf_counter() - started < 5
    assert result == []


def test_a_mustache_section_is_reported_once_on_its_opening_tag() -> None:
    text = JUDGE + "template: |\n  {{#items}} {{ input }} {{/items}}\n"
    assert findings(text, "judges/j.yaml") == [
        ("EY400", 4, 5, 10, "unknown template variable 'items'; known variables: input, "
         "output, expected, context")]


def test_a_foreign_root_schema_wins_over_the_dataset_shape() -> None:
    text = ("$schema: https://example.com/quiz.json\nquestions:\n  - id: a\n    input: x\n"
            "    expecteed_facts: []\n")
    assert analyze_text(text, "quiz.yaml", Options(today=TODAY)).kind is None


def test_a_case_that_is_not_a_mapping_is_named_as_a_case() -> None:
    assert findings("questions:\n  - What is 2+2?\n") == [
        ("EY202", 1, 4, 16, "this case must be a mapping, not a string")]


def test_cached_cases_follow_a_changed_bundle_schema() -> None:
    text = "questions:\n  - id: a\n    input: x\n    bundle: rag\n    contexts: 5\n"
    cache = CaseCache()
    as_array = {"rag": {"properties": {"contexts": {"type": "array"}}}}
    as_integer = {"rag": {"properties": {"contexts": {"type": "integer"}}}}
    first = analyze_text(text, "d.yaml", Options(today=TODAY, bundles=as_array,
                                                 bundles_configured=True), cache)
    assert [f.code for f in first.findings] == ["EY202"]
    second = analyze_text(text, "d.yaml", Options(today=TODAY, bundles=as_integer,
                                                  bundles_configured=True), cache)
    assert second.findings == []


def test_config_numbers_out_of_range_are_located_findings(tmp_path: Path) -> None:
    config = parse_config("max_file_mb = inf\nfreshness_days = -5\nstrict = true\n",
                          tmp_path, None)
    assert [(f.code, f.span.start.line, f.message) for f in config.findings] == [
        ("EY321", 0, "'max_file_mb' must be a positive, finite number of megabytes"),
        ("EY321", 1, "'freshness_days' must be 0 or more"),
    ]
    assert config.max_file_mb == 20.0 and config.freshness_days == 90  # defaults kept
