"""examples/ checks clean; each file in examples/mistakes/ gives the finding it is named for and
nothing else (exact range and message, except the EY3xx reference mistakes, whose wording the
workspace tests own: for those the code alone is asserted here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evalyaml.cli import main

REPO = Path(__file__).resolve().parents[2]
MISTAKES = REPO / "examples" / "mistakes"
TODAY = "2026-11-21"

# path under examples/mistakes -> (code, 0-based range, message or None for EY3xx)
EXPECTED: dict[str, tuple[str, tuple[int, int, int, int], str | None]] = {
    "datasets/EY101-syntax-error.yaml": (
        "EY101", (7, 17, 7, 37), "YAML syntax error: a ': ' inside a plain value starts a "
        "mapping here; quote the whole value"),
    "datasets/EY102-duplicate-key.yaml": (
        "EY102", (8, 4, 8, 12), "duplicate key 'criteria': only the first 'criteria' in this "
        "mapping counts, this one is ignored"),
    "datasets/EY106-tab-indentation.yaml": (
        "EY106", (6, 0, 6, 1), "tab used for indentation; YAML indents with spaces only"),
    "datasets/EY201-missing-input.yaml": (
        "EY201", (5, 4, 5, 21), "case 'refund_window' is missing required key 'input'"),
    "datasets/EY203-bad-expected-format.yaml": (
        "EY203", (8, 14, 8, 18), "'yaml' is not a valid format: expected one of json, text"),
    "datasets/EY205-typo-expected_tool.yaml": (
        "EY205", (7, 4, 7, 17), "unknown key 'expected_tool' in case 'lookup_order_then_reply'; "
        "did you mean 'expected_tools'? (an unknown key is ignored, so its value has no effect)"),
    "datasets/EY205-typo-expecteed_facts.yaml": (
        "EY205", (8, 4, 8, 19), "unknown key 'expecteed_facts' in case 'reset_password'; did you "
        "mean 'expected_facts'? (an unknown key is ignored, so its value has no effect)"),
    "datasets/EY210-duplicate-case-id.yaml": (
        "EY210", (7, 8, 7, 22), "case id 'api_rate_limit' is already used on line 6; case ids "
        "must be unique within a dataset"),
    "datasets/EY301-dangling-rubric-ref.yaml": ("EY301", (7, 16, 7, 40), None),
    "datasets/EY302-no-matching-version.yaml": ("EY302", (7, 16, 7, 37), None),
    "datasets/EY303-unpinned-ref.yaml": ("EY303", (8, 16, 8, 33), None),
    "judges/EY400-unknown_template_variable.yaml": (
        "EY400", (11, 5, 11, 11), "unknown template variable 'outptu'; did you mean 'output'?"),
    "judges/EY401-levels_without_names.yaml": (
        "EY401", (5, 12, 5, 18), "score_type 'levels' needs 'level_names': the names of the "
        "levels, lowest first"),
    "judges/EY402-tpr_out_of_range.yaml": (
        "EY402", (10, 7, 10, 9), "'tpr' is 91, but a true-positive rate is a fraction from 0 to "
        "1 (write 0.91)"),
    "judges/EY403-stale_validation.yaml": (
        "EY403", (13, 16, 13, 28), "this judge was validated 680 days ago (2025-01-10), more "
        "than the 90-day limit; re-validate it and update validated_at"),
    "judges/EY404-future_validation.yaml": (
        "EY404", (13, 16, 13, 28), "validated_at 2027-06-01 is in the future (today is "
        "2026-11-21)"),
    "rubrics/EY201-regex_without_pattern.yaml": (
        "EY201", (6, 4, 6, 28), "this regex check 'order_number_present' is missing required "
        "key 'pattern'"),
    "rubrics/EY204-unknown_key_in_check.yaml": (
        "EY204", (9, 4, 9, 15), "unknown key 'ignore_case' in this regex check "
        "'order_number_present'; allowed keys: description, flags, id, kind, must_match, "
        "pattern, weight"),
    "rubrics/EY206-unknown_kind_regx.yaml": (
        "EY206", (7, 10, 7, 14), "unknown check kind 'regx'; did you mean 'regex'?"),
    "rubrics/EY208-numeric_version.yaml": (
        "EY208", (4, 9, 4, 13), 'version 1.10 is a YAML number (it reads as 1.1), not a version '
        'string; write it quoted: "1.10.0"'),
    "rubrics/EY209-invalid_version.yaml": (
        "EY209", (4, 9, 4, 17), "'latest' is not a semantic version: expected MAJOR.MINOR.PATCH "
        "such as '1.2.0'"),
    "rubrics/EY211-duplicate_check_id.yaml": (
        "EY211", (10, 8, 10, 18), "check id 'no_secrets' is already used on line 7; check ids "
        "must be unique within a rubric"),
    "rubrics/EY212-invalid_regex.yaml": (
        "EY212", (8, 21, 8, 22), "regex does not compile: missing ), unterminated subpattern at "
        "position 7"),
    "rubrics/EY213-invalid_json_schema.yaml": (
        "EY213", (14, 20, 14, 24), "the check's schema is not a valid JSON Schema: True is not "
        "of type 'array'"),
    "rubrics/EY214-zero_weights.yaml": (
        "EY214", (16, 11, 16, 23), "scoring 'weighted_avg' with every check's weight 0 has "
        "nothing to average; give at least one check a positive weight"),
    "rubrics/EY306-nested_composite.yaml": ("EY306", (9, 16, 9, 44), None),
    "rubrics/EY307-composite_cycle_a.yaml": ("EY307", (9, 16, 9, 46), None),
    "rubrics/EY307-composite_cycle_b.yaml": ("EY307", (8, 16, 8, 46), None),
}

RELATED: dict[str, list[tuple[str, tuple[int, int, int, int], str]]] = {
    "datasets/EY102-duplicate-key.yaml": [
        ("datasets/EY102-duplicate-key.yaml", (7, 4, 7, 12), "first 'criteria' is here")],
    "datasets/EY210-duplicate-case-id.yaml": [
        ("datasets/EY210-duplicate-case-id.yaml", (5, 8, 5, 22), "first case 'api_rate_limit'")],
    "rubrics/EY211-duplicate_check_id.yaml": [
        ("rubrics/EY211-duplicate_check_id.yaml", (6, 8, 6, 18), "first check 'no_secrets'")],
    "rubrics/EY214-zero_weights.yaml": [
        ("rubrics/EY214-zero_weights.yaml", (9, 12, 9, 13), "weight 0"),
        ("rubrics/EY214-zero_weights.yaml", (14, 12, 14, 13), "weight 0")],
}


def _range(item: dict[str, dict[str, dict[str, int]]]) -> tuple[int, int, int, int]:
    r = item["range"]
    return (r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"])


@pytest.fixture(scope="module")
def mistakes_json() -> list[dict[str, object]]:
    import contextlib
    import io
    import os

    out = io.StringIO()
    cwd = Path.cwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stdout(out):
            code = main(["check", "examples/mistakes", "--today", TODAY, "--format", "json"])
    finally:
        os.chdir(cwd)
    assert code == 1
    found: list[dict[str, object]] = json.loads(out.getvalue())
    return found


def _by_file(items: list[dict[str, object]]) -> dict[str, list[dict[str, object]]]:
    out: dict[str, list[dict[str, object]]] = {}
    for item in items:
        path = str(item["path"])
        assert path.startswith("examples/mistakes/")
        out.setdefault(path.removeprefix("examples/mistakes/"), []).append(item)
    return out


def test_every_mistake_file_is_listed_here() -> None:
    on_disk = sorted(p.relative_to(MISTAKES).as_posix() for p in MISTAKES.rglob("*.yaml"))
    assert on_disk == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mistake_file_names_and_expect_lines_agree(name: str) -> None:
    code = EXPECTED[name][0]
    assert Path(name).name.startswith(code + "-")
    first_line = (MISTAKES / name).read_text(encoding="utf-8").splitlines()[0]
    assert first_line == f"# expect: {code}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mistake_gives_its_finding_and_nothing_else(
        name: str, mistakes_json: list[dict[str, object]]) -> None:
    code, where, message = EXPECTED[name]
    items = _by_file(mistakes_json).get(name, [])
    assert [item["code"] for item in items] == [code], items
    item = items[0]
    assert _range(item) == where  # type: ignore[arg-type]
    if message is not None:
        assert item["message"] == message
        assert item["severity"] == ("error" if code in ("EY101", "EY102", "EY106", "EY214")
                                    else "warning")
    related = [(str(r["path"]).removeprefix("examples/mistakes/"), _range(r), r["message"])
               for r in item.get("related", [])]  # type: ignore[attr-defined]
    if name in RELATED:
        assert related == RELATED[name]


def test_examples_check_clean(capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    assert main(["check", "examples", "--today", TODAY]) == 0
    assert capsys.readouterr().out == (
        "Checked by format: 3 AgentV, 11 Apastra PromptOps, 4 Every Eval Ever, 5 Padosoft "
        "eval-harness, 13 evalyaml contract, 5 lm-evaluation-harness, 5 promptfoo; 0 YAML/JSON "
        "files left alone as not eval files\n"
        "No problems: 46 files checked\n")
    assert main(["check", "--strict", "examples/datasets", "examples/rubrics", "examples/judges",
                 "--today", TODAY, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_mistakes_summary_and_strict(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    assert main(["check", "examples/mistakes", "--today", TODAY]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "9 errors, 19 warnings in 28 files checked"
    findings = [line for line in lines if re.match(r"^examples/mistakes/\S+:\d+:\d+: ", line)]
    assert len(findings) == len(EXPECTED)
    assert main(["check", "--strict", "examples/mistakes", "--today", TODAY]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "28 errors in 28 files checked"
