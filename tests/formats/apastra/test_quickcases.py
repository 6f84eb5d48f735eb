"""A YAML quick eval analysed case by case (`formats/apastra/quickcases.py`) says exactly what
the whole document says: every quick eval of the fixtures, the examples and the corpus, lax and
strict, then after a case is inserted at the top of `cases:` (every case below moved, every
index renumbered)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalyaml.core.incremental import CaseCache
from evalyaml.core.items import ItemState
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.apastra.analyze import analyze
from evalyaml.formats.apastra.kinds import QUICK_EVAL
from evalyaml.formats.apastra.quickcases import STATE
from harness.workspace_fixture import parse_workspace_fixture

HERE = Path(__file__).parent
REPO = HERE.parents[2]
SOURCES = [*(REPO / "examples" / "apastra").rglob("*.yaml"),
           *(REPO.parent / "shared" / "corpus" / "apastra").rglob("*.yaml")]
QUICK_EVALS = sorted(
    [(f"{p.name}:{rel}", text) for p in sorted(HERE.glob("*.fixture"))
     for rel, text in parse_workspace_fixture(p.read_text("utf-8")).files.items()
     if "/evals/" in f"/{rel}" and "\ncases:" in f"\n{text}"] +
    [(p.name, p.read_text("utf-8")) for p in SOURCES
     if "/evals/" in p.as_posix() and "\ncases:" in "\n" + p.read_text("utf-8")])


def _said(analysis: FileAnalysis) -> tuple[object, ...]:
    return (sorted(map(repr, analysis.findings)), repr(analysis.definitions),
            repr(analysis.references), repr(analysis.facts), repr(analysis.cases))


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize(("name", "text"), QUICK_EVALS, ids=[n for n, _ in QUICK_EVALS])
def test_each_quick_eval_by_case_equals_the_whole_document(name: str, text: str,
                                                           strict: bool) -> None:
    options = Options(root="/ws", strict=strict)
    path = "/ws/promptops/evals/quick.yaml"
    cache = CaseCache()
    inserted = text.replace("\ncases:\n", "\ncases:\n  - case_id: new\n    inputs: {}\n", 1)
    for current in (text, inserted):
        by_case = analyze(current, path, QUICK_EVAL, options, cache)
        whole = analyze(current, path, QUICK_EVAL, options, None, whole=True)
        assert _said(by_case) == _said(whole)
    assert cache.format_state(STATE, ItemState)._last is not None or "&" in text


def test_the_quick_evals_are_found() -> None:
    assert len(QUICK_EVALS) >= 4
