"""`evalyaml rule CODE`, `evalyaml` alone, and help texts that name every format."""

from __future__ import annotations

import contextlib
import io

import pytest

from evalyaml.cli import main
from evalyaml.core.codes import CODES
from evalyaml.formats import FORMATS
from evalyaml.rule import diagnostics_page, section


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as done:  # argparse's --help
            code = int(done.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_rule_prints_the_code_section() -> None:
    code, out, _ = run("rule", "ey208")
    assert code == 0
    assert out.startswith("## EY208 numeric-version\n\n**Class:** CONTRACT")
    assert "<a id=" not in out and "## EY209" not in out


def test_rule_unknown_code_suggests() -> None:
    assert run("rule", "EY3O3") == (2, "", "evalyaml: unknown code 'EY3O3'; did you mean "
                                    "'EY303'?\n")


def test_every_code_has_a_section_the_rule_command_finds() -> None:
    page = diagnostics_page()
    assert [c for c in CODES if section(c, page) is None] == []


def test_bare_evalyaml_prints_help_naming_every_format() -> None:
    code, out, _ = run()
    assert code == 0 and out.startswith("usage: evalyaml")
    flat = " ".join(out.split())
    assert all(f.title in flat for f in FORMATS)


@pytest.mark.parametrize("words", ["exit codes:", "evalyaml.toml", "[per-file-ignores]",
                                   "--fix", "--diff", "--statistics", "--unsafe-fixes"])
def test_check_help_epilog(words: str) -> None:
    code, out, _ = run("check", "--help")
    assert code == 0 and words in out
    assert all(f.title in " ".join(out.split()) for f in FORMATS)


def test_show_kinds_says_why_each_file_was_claimed() -> None:
    from pathlib import Path
    examples = Path(__file__).resolve().parents[2] / "examples"
    with contextlib.chdir(examples):
        code, out, _ = run("check", "--show-kinds", "agentv", "rubrics", "--today", "2026-11-21")
    lines = out.splitlines()
    assert code == 0
    assert "agentv/evals/support.eval.yaml: AgentV eval suite [AgentV]: AgentV runs "\
        "*.eval.yaml, EVAL.yaml and eval.yaml" in lines
    assert "agentv/evals/prompts/support-grader.md: AgentV grader prompt [AgentV]: another "\
        "file of its format names it as one" in lines
    assert "rubrics/factuality.yaml: rubric [evalyaml contract]: it is in a rubrics/ "\
        "folder" in lines
