"""The pre-commit hook sees every format's files, and a deleted file it passes is skipped."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from ruamel.yaml import YAML

from evalyaml.cli import main
from evalyaml.formats import PROSE_SUFFIXES, SUFFIXES

REPO = Path(__file__).resolve().parents[2]


def test_hook_files_pattern_is_every_suffix() -> None:
    hooks = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
    (hook,) = hooks
    pattern = re.compile(hook["files"])
    written = re.fullmatch(r"\\\.\((.*)\)\$", hook["files"])
    assert written is not None
    assert {f".{s}" for s in written.group(1).split("|")} == set(SUFFIXES | PROSE_SUFFIXES)
    assert all(pattern.search(f"evals/x{suffix}") for suffix in SUFFIXES | PROSE_SUFFIXES)
    assert not pattern.search("src/app.py")
    assert hook["pass_filenames"] is True


def test_a_deleted_path_is_skipped_with_a_notice(tmp_path: Path) -> None:
    (tmp_path / "rubrics").mkdir()
    (tmp_path / "rubrics" / "ok.yaml").write_text(
        'id: ok\nversion: "1.0.0"\nchecks:\n  - kind: format\n    format: json\n'
        "scoring:\n  combine: all_pass\n", "utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(tmp_path), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        code = main(["check", "rubrics/gone.yaml", "rubrics/ok.yaml", "--today", "2026-11-21"])
    assert (code, err.getvalue()) == (
        0, "evalyaml: notice: skipped rubrics/gone.yaml: no such file or directory\n")
    assert out.getvalue().splitlines()[-1] == "No problems: 1 file checked"
