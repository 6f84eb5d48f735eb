"""Padosoft eval-harness: the loader's rules are held by the fixtures under fixtures/ (run by
`tests/harness/test_workspace_fixtures.py` with every other fixture); this holds that they cover
both kinds and every loader code."""

from __future__ import annotations

from pathlib import Path

from evalyaml.core.codes import CODES
from harness.workspace_fixture import WorkspaceFixture, parse_workspace_fixture

FIXTURES = sorted((Path(__file__).parent / "fixtures").rglob("*.fixture"))


def _load(path: Path) -> WorkspaceFixture:
    return parse_workspace_fixture(path.read_text(encoding="utf-8"))


def test_there_are_fixtures_of_both_kinds() -> None:
    assert len(FIXTURES) >= 25
    kinds = {kind for path in FIXTURES for kind in _load(path).kinds.values()}
    assert kinds == {"Padosoft dataset", "Padosoft calibration file"}


def test_every_padosoft_code_has_a_fixture() -> None:
    seen = {e.code for path in FIXTURES for e in _load(path).expected}
    padosoft = {code for code in CODES if code.startswith("EY5") and int(code[2:]) <= 519}
    assert padosoft - seen <= {"EY512"}  # eval-set only: tests/formats/padosoft/test_eval_set.py
