"""Silencing findings through the real CLI: suppression comments in YAML and Markdown (CRLF and
BOM files too), EY322 / EY323 on the comments themselves, and the configuration's select,
ignore, extend-*, per-file-ignores and severity."""

from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

import pytest

from evalyaml.cli import main

REPO = Path(__file__).resolve().parents[2]
TODAY = "2026-11-21"
PIN = "EY303 [*] 'rubric/factuality'"  # what precedes " has no version pin"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "rubrics", tmp_path / "rubrics")
    shutil.copytree(REPO / "examples" / "judges", tmp_path / "judges")
    (tmp_path / "evalyaml.toml").write_text("strict = false\n", "utf-8")
    (tmp_path / "datasets").mkdir()
    return tmp_path


def check(root: Path, *args: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["check", str(root), "--today", TODAY, *args])
    lines = [line.removeprefix(str(root) + "/") for line in out.getvalue().splitlines()]
    return code, [line for line in lines if " EY" in line]


def case(name: str, tail: str = "", above: str = "") -> str:
    return (f"  - id: {name}\n    input: hi\n{above}"
            f"    rubric_ref: rubric/factuality{tail}\n")


def test_trailing_alone_and_whole_file_comments(workspace: Path) -> None:
    (workspace / "datasets" / "d.yaml").write_text(
        "questions:\n"
        + case("trailing", "  # evalyaml: ignore[EY303]")
        + case("alone", above="    # evalyaml: ignore[EY201, EY303]\n")
        + case("wrong_line", "")
        + case("kept"), "utf-8")
    code, found = check(workspace)
    assert code == 0
    assert [line.split(" has no")[0] for line in found] == [
        "datasets/d.yaml:7:24: warning EY322 [*] unused suppression: no EY201 finding on the line "
        "it applies to",
        f"datasets/d.yaml:11:17: warning {PIN}",
        f"datasets/d.yaml:14:17: warning {PIN}"]
    (workspace / "datasets" / "d.yaml").write_text(
        "# evalyaml: ignore-file[EY303]\nquestions:\n" + case("a") + case("b"), "utf-8")
    assert check(workspace) == (0, [])


def test_crlf_and_bom_files_are_silenced_on_the_right_line(workspace: Path) -> None:
    text = "\ufeffquestions:\r\n" + case("a", "  # evalyaml: ignore[EY303]").replace(
        "\n", "\r\n") + case("b").replace("\n", "\r\n")
    (workspace / "datasets" / "d.yaml").write_bytes(text.encode("utf-8"))
    _, found = check(workspace)
    assert [line.split(" has")[0] for line in found] == [
        f"datasets/d.yaml:7:17: warning {PIN}"]


def test_unknown_code_gets_did_you_mean_and_is_not_a_suppression(workspace: Path) -> None:
    (workspace / "datasets" / "d.yaml").write_text(
        "questions:\n" + case("a", "  # evalyaml: ignore[EY3O3]"), "utf-8")
    assert check(workspace)[1] == [
        "datasets/d.yaml:4:55: warning EY323 unknown code 'EY3O3' in suppression; "
        "did you mean 'EY303'?",
        "datasets/d.yaml:4:17: warning EY303 [*] 'rubric/factuality' has no version pin; it "
        "resolves to 1.2.0 today and will follow every new version; pin it, e.g. "
        "'rubric/factuality@1.2'"][::-1]


def test_a_comment_mentioning_the_syntax_is_not_a_directive(workspace: Path) -> None:
    (workspace / "datasets" / "d.yaml").write_text(
        "questions:\n" + case("a", "  # write `# evalyaml: ignore[EY303]` to silence it"),
        "utf-8")
    assert [line.split(" EY")[1][:3] for line in check(workspace)[1]] == ["303"]


def test_markdown_prompt_comments(tmp_path: Path) -> None:
    shutil.copytree(REPO / "examples" / "agentv" / "mistakes", tmp_path / "agentv")
    prompt = tmp_path / "agentv" / "prompts" / "EY624.md"
    _, found = check(tmp_path / "agentv")
    assert any("EY624.md:1:10: warning EY624" in line for line in found)
    prompt.write_text("<!-- evalyaml: ignore[EY624] -->\nGrade {{ ouput }} against "
                      "{{ output }}.\n", "utf-8")
    _, found = check(tmp_path / "agentv")
    assert not any(line.startswith("prompts/EY624.md") for line in found)
    prompt.write_text("Grade {{ ouput }} against {{ output }}. "
                      "<!-- evalyaml: ignore[EY625] -->\n", "utf-8")
    _, found = check(tmp_path / "agentv")
    assert [line.split(": ")[0] + " " + line.split(" ")[2] for line in found
            if line.startswith("prompts/EY624.md")] == [
        "prompts/EY624.md:1:10 EY624", "prompts/EY624.md:1:63 EY322"]


def test_json_files_take_no_comments(tmp_path: Path) -> None:
    """`#` is not JSON: a JSON file is silenced through the configuration only."""
    from evalyaml.syntax.suppress import scan
    assert scan('{"a": "# evalyaml: ignore[EY700]"}\n', "x.json") == ()
    assert len(scan('a: 1  # evalyaml: ignore[EY700]\n', "x.yaml")) == 1


CONFIG = """strict = false
ignore = ["EY3"]
extend-select = ["EY303"]
[per-file-ignores]
"datasets/legacy*" = ["EY303"]
[severity]
EY303 = "error"
"""


def test_config_rules(workspace: Path) -> None:
    (workspace / "datasets" / "new.yaml").write_text("questions:\n" + case("a"), "utf-8")
    (workspace / "datasets" / "legacy.yaml").write_text("questions:\n" + case("a"), "utf-8")
    (workspace / "evalyaml.toml").write_text(CONFIG, "utf-8")
    code, found = check(workspace)
    assert code == 1
    assert [line.split(" has")[0] for line in found] == [
        f"datasets/new.yaml:4:17: error {PIN}"]


def test_config_misspellings(workspace: Path) -> None:
    (workspace / "evalyaml.toml").write_text(
        'ignor = ["EY303"]\nextend-ignore = ["EY3O3", "EY6"]\n[severity]\nEY303 = "loud"\n',
        "utf-8")
    assert check(workspace)[1] == [
        "evalyaml.toml:1:1: warning EY320 unknown configuration key 'ignor'; did you mean "
        "'ignore'?",
        "evalyaml.toml:2:1: warning EY323 'extend-ignore' names unknown code 'EY3O3'; did you "
        "mean 'EY303'?",
        "evalyaml.toml:3:2: error EY321 'severity.EY303' must be one of error, warning, "
        "information, hint"]


def test_pyproject_table(workspace: Path) -> None:
    (workspace / "evalyaml.toml").unlink()
    (workspace / "pyproject.toml").write_text(
        '[tool.evalyaml]\nignore = ["EY303"]\n', "utf-8")
    (workspace / "datasets" / "d.yaml").write_text("questions:\n" + case("a"), "utf-8")
    assert check(workspace) == (0, [])
