"""Every code's docs page says whether it has an automatic fix, and the catalogue that page is
held to says what the findings really carry.

A code declares its kinds of fix (`Code.fixes`: safe, unsafe, editor only). The truth is what
the findings of every example workspace and every workspace fixture carry: a fix `check --fix`
would apply (safe), one only `--unsafe-fixes` applies, one the editor offers a person but the CLI
never applies (`FixSafety.NEVER`, or an editor-only quick fix such as "Insert missing key").
Both directions are held: a fix the catalogue does not declare fails (the docs would say "none"),
and a declared kind no example or fixture shows fails (the docs would promise a fix nobody
tested). A new fix therefore comes with an example or a fixture that shows it.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from functools import cache
from pathlib import Path

import pytest

from evalyaml.checker import check_paths
from evalyaml.cli import main
from evalyaml.core.codes import CODES, Fixable, fix_line
from evalyaml.core.findings import Finding, FixSafety
from evalyaml.fixes import is_safe
from evalyaml.ide.actions import extra_fixes
from evalyaml.rule import diagnostics_page, section
from evalyaml.syntax.text import LineIndex
from evalyaml.workspace.index import Workspace
from harness.workspace_fixture import parse_workspace_fixture

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
FIXTURES = sorted((REPO / "tests").rglob("*.fixture"))


def _kinds(finding: Finding, text: str | None) -> set[Fixable]:
    kinds = {Fixable.EDITOR if fix.safety is FixSafety.NEVER
             else Fixable.SAFE if is_safe(finding, fix) else Fixable.UNSAFE
             for fix in finding.fixes}
    if text is not None and extra_fixes(finding, LineIndex(text)):
        kinds.add(Fixable.EDITOR)
    return kinds


def _example_roots() -> list[Path]:
    """The example workspace and each mistakes folder (the workspace's config excludes them),
    and each mistake that is a workspace of its own."""
    mistakes = sorted(EXAMPLES.glob("**/mistakes"))
    return [EXAMPLES, *mistakes, *(p for m in mistakes for p in sorted(m.iterdir()) if p.is_dir())]


@cache
def _observed(tmp: Path) -> dict[str, frozenset[Fixable]]:
    seen: dict[str, set[Fixable]] = defaultdict(set)
    for root in _example_roots():
        for path, finding in check_paths([root], today=date(2026, 11, 21)).all_findings():
            text = path.read_text("utf-8", errors="replace") if path.is_file() else None
            seen[finding.code] |= _kinds(finding, text)
    for number, source in enumerate(FIXTURES):
        fixture = parse_workspace_fixture(source.read_text(encoding="utf-8"))
        root = tmp / str(number)
        root.mkdir()
        (root / "evalyaml.toml").write_text("", encoding="utf-8")
        for relative, text in fixture.files.items():
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text(text, encoding="utf-8")
        workspace = Workspace([root], today=fixture.today, strict=fixture.strict,
                              freshness_days=fixture.freshness_days)
        workspace.index_all()
        for relative, text in fixture.files.items():
            for finding in workspace.findings(root / relative):
                seen[finding.code] |= _kinds(finding, text)
    return {code: frozenset(kinds) for code, kinds in seen.items() if kinds}


@pytest.fixture(scope="module")
def observed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, frozenset[Fixable]]:
    return _observed(tmp_path_factory.mktemp("fixtures"))


def test_the_catalogue_declares_exactly_the_fixes_findings_carry(
        observed: dict[str, frozenset[Fixable]]) -> None:
    declared = {code: c.fixes for code, c in CODES.items() if c.fixes}
    undeclared = {code: sorted(k.value for k in kinds - declared.get(code, frozenset()))
                  for code, kinds in observed.items() if kinds - declared.get(code, frozenset())}
    unshown = {code: sorted(k.value for k in kinds - observed.get(code, frozenset()))
               for code, kinds in declared.items() if kinds - observed.get(code, frozenset())}
    assert (undeclared, unshown) == ({}, {})


def test_a_fix_of_every_kind_is_declared_somewhere() -> None:
    """The three kinds are all in use, so the test above compares something of each."""
    assert set().union(*(c.fixes for c in CODES.values())) == set(Fixable)


@pytest.mark.parametrize("code", list(CODES))
def test_every_code_page_says_whether_it_has_a_fix(code: str) -> None:
    page = section(code, diagnostics_page())
    assert page is not None
    assert fix_line(CODES[code].fixes) in page.splitlines()


def test_the_rule_command_prints_the_fix_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "EY208"]) == 0
    assert "**Automatic fix:** safe (`evalyaml check --fix` applies it)." in \
        capsys.readouterr().out.splitlines()
