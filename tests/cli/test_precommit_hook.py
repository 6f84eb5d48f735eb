"""The pre-commit hook sees every format's files, and a deleted file it passes is skipped."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

from ruamel.yaml import YAML

from evalyaml.cli import main
from evalyaml.formats import NAMED_ENDINGS, PROSE_SUFFIXES, SUFFIXES

REPO = Path(__file__).resolve().parents[2]


def test_hook_files_pattern_is_every_suffix() -> None:
    hooks = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
    (hook,) = hooks
    endings = SUFFIXES | PROSE_SUFFIXES | NAMED_ENDINGS
    dotted = sorted(e[1:] for e in endings if e.startswith("."))
    others = sorted(re.escape(e) for e in endings if not e.startswith("."))
    alternatives = ["\\.(" + "|".join(dotted) + ")", *others]
    assert hook["files"] == "(" + "|".join(alternatives) + ")$"
    pattern = re.compile(hook["files"])
    for name in ("promptfoo/tests.csv", "evals/cases.jsonl", "judges/grader.md", "eval.json",
                 "lm_eval/tasks/arith/_default_template_yaml", "rubrics/default.yaml",
                 "promptfoo/prompt.j2", "x.yml", "x.txt", "x.markdown"):
        assert pattern.search(name), name
    for name in ("src/app.py", "README.rst", "data.yaml.bak", "notes_yaml.py"):
        assert not pattern.search(name), name
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


def _check(root: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(root), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        code = main(["check", *argv, "--today", "2026-11-21"])
    return code, out.getvalue(), err.getvalue()


def test_a_named_rubric_bump_reports_the_datasets_it_breaks(tmp_path: Path) -> None:
    shutil.copytree(REPO / "examples", tmp_path / "ws")
    ws = tmp_path / "ws"
    rubric = ws / "rubrics" / "order_status.yaml"
    rubric.write_text(rubric.read_text("utf-8").replace('version: "1.0.0"', 'version: "2.0.0"'),
                      "utf-8")
    assert _check(ws, "rubrics/order_status.yaml") == (1, (
        "datasets/support_faq.yaml:42:17: error EY302 no version of rubric/order_status matches"
        " @1.0.0; available: 2.0.0\n"
        "datasets/support_faq.yaml:51:17: error EY302 no version of rubric/order_status matches"
        " @1.0; available: 2.0.0\n"
        "2 errors in 2 files checked\n"), "")
    # Named as a folder, the datasets are not among its files: unchanged behaviour.
    assert _check(ws, "rubrics")[0] == 0


def test_a_named_csv_of_tests_reports_its_config(tmp_path: Path) -> None:
    shutil.copytree(REPO / "examples", tmp_path / "ws")
    ws = tmp_path / "ws"
    table = ws / "promptfoo" / "clean" / "tests" / "languages.csv"
    assert _check(ws, "promptfoo/clean/tests/languages.csv")[:2] == (
        0, "No problems: 1 file checked\n")
    table.write_text("language,x\nfr,1\n", "utf-8")
    code, out, _ = _check(ws, "promptfoo/clean/tests/languages.csv")
    assert (code, out.splitlines()[0]) == (0, (
        "promptfoo/clean/promptfooconfig.yaml:39:5: warning EYPF011 'tests/languages.csv' has no"
        " column for 'question' (used by prompt prompts/support.txt #1); 'question' (used by"
        " prompt prompts/terse.md): every row renders it as an empty string"))
