"""Why a file was taken for a rubric or judge is said, and another tool's file is not taken."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from evalyaml.cli import main


def _check(root: Path, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.chdir(root), contextlib.redirect_stdout(out):
        code = main(["check", *argv, "--today", "2026-11-21"])
    return code, out.getvalue()


def test_a_missing_key_of_a_folder_rubric_names_the_folder_rule(tmp_path: Path) -> None:
    (tmp_path / "evalyaml.toml").write_text("", "utf-8")
    (tmp_path / "rubrics").mkdir()
    (tmp_path / "judges").mkdir()
    (tmp_path / "rubrics" / "half.yaml").write_bytes(
        b"\xef\xbb\xbfid: half\r\nversion: \"1.0.0\"\r\nchecks:\r\n  - kind: format\r\n"
        b"    format: json\r\n")
    (tmp_path / "rubrics" / "default.yaml").write_text(
        "description: defaults\nprompts: ['Grade {{output}}']\nproviders: [echo]\n", "utf-8")
    (tmp_path / "judges" / "settings.yaml").write_text("timeout_seconds: 30\n", "utf-8")
    assert _check(tmp_path, ".") == (0, (
        "rubrics/half.yaml:1:1: warning EY201 the rubric is missing required key 'scoring'\n"
        "    rubrics/half.yaml:1:1: note: taken for a rubric by its rubrics/ folder"
        " (evalyaml check --show-kinds)\n"
        "Checked by format: 1 evalyaml contract; 2 YAML/JSON files left alone as not eval files\n"
        "1 warning in 1 file checked\n"))
    assert _check(tmp_path, ".", "--show-kinds") == (
        0, "rubrics/half.yaml: rubric [evalyaml contract]: it is in a rubrics/ folder\n")


def test_a_modeline_rubric_gets_no_folder_note(tmp_path: Path) -> None:
    (tmp_path / "evalyaml.toml").write_text("", "utf-8")
    (tmp_path / "rubrics").mkdir()
    (tmp_path / "rubrics" / "half.yaml").write_text(
        "# yaml-language-server: $schema=https://x/rubric.schema.json\nid: half\n"
        'version: "1.0.0"\nchecks:\n  - kind: format\n    format: json\n', "utf-8")
    assert _check(tmp_path, ".") == (0, (
        "rubrics/half.yaml:2:1: warning EY201 the rubric is missing required key 'scoring'\n"
        "1 warning in 1 file checked\n"))
