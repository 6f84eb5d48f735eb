"""examples/ checks clean; each file in examples/mistakes/ gives the finding it is named for and
nothing else, with the exact range and message its own caret comment draws under the mistake
(`tests/harness/example_carets.py`), or, where no comment can draw it, this file's table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evalyaml.cli import main
from evalyaml.core.codes import severity_of
from harness.example_carets import Caret, read_carets

REPO = Path(__file__).resolve().parents[2]
MISTAKES = REPO / "examples" / "mistakes"
TODAY = "2026-11-21"

# A tab at column 0 (no comment can put a caret there) and a variable inside a block scalar
# (a comment line there would be template text): path under examples/mistakes -> finding.
UNDRAWABLE: dict[str, Caret] = {
    "datasets/EY106-tab-indentation.yaml": Caret(
        6, 0, 1, "EY106", "tab used for indentation; YAML indents with spaces only"),
    "judges/EY400-unknown_template_variable.yaml": Caret(
        11, 5, 11, "EY400", "unknown template variable 'outptu'; did you mean 'output'?"),
}


def _expected(name: str) -> list[Caret]:
    carets = read_carets((MISTAKES / name).read_text(encoding="utf-8"))
    return carets + ([UNDRAWABLE[name]] if name in UNDRAWABLE else [])


NAMES = sorted(p.relative_to(MISTAKES).as_posix() for p in MISTAKES.rglob("*.yaml"))

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


def _range_on_a_line(item: dict[str, object]) -> tuple[int, int, int]:
    start_line, start, end_line, end = _range(item)  # type: ignore[arg-type]
    assert start_line == end_line, item
    return start_line, start, end


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


def test_every_mistake_file_expects_one_finding() -> None:
    assert len(NAMES) == 28
    assert set(UNDRAWABLE) <= set(NAMES)
    assert all(len(_expected(name)) == 1 for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_mistake_file_names_and_expect_lines_agree(name: str) -> None:
    code = _expected(name)[0].code
    assert Path(name).name.startswith(code + "-")
    first_line = (MISTAKES / name).read_text(encoding="utf-8").splitlines()[0]
    assert first_line == f"# expect: {code}"


@pytest.mark.parametrize("name", NAMES)
def test_mistake_gives_its_finding_and_nothing_else(
        name: str, mistakes_json: list[dict[str, object]]) -> None:
    items = _by_file(mistakes_json).get(name, [])
    found = [Caret(*_range_on_a_line(item), str(item["code"]), str(item["message"]))
             for item in items]
    assert found == _expected(name)
    item = items[0]
    assert item["severity"] == severity_of(found[0].code, strict=False).name.lower()
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
    assert len(findings) == len(NAMES)
    assert main(["check", "--strict", "examples/mistakes", "--today", TODAY]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "28 errors in 28 files checked"
