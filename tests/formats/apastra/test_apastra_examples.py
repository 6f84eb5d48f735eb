"""examples/apastra/: the workspace checks clean (its digests are Apastra's own), and each file of
mistakes/ (a workspace of its own) gives the finding its name starts with and nothing else; the
files there without a code are the clean files the mistakes refer to. A YAML mistake's finding
has the exact range and message its caret comment draws under the mistake
(`tests/harness/example_carets.py`); JSON and JSONL files, which hold no comment, give their
code."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalyaml.workspace.index import Workspace
from harness.example_carets import Drawn, drawn_carets, drawn_finding

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "apastra"
CLEAN = sorted(p for p in EXAMPLES.rglob("*") if p.is_file() and "mistakes" not in p.parts
               and p.suffix in (".yaml", ".json", ".jsonl"))
MISTAKES = sorted(p for p in (EXAMPLES / "mistakes").rglob("*") if p.is_file()
                  and p.suffix in (".yaml", ".json", ".jsonl"))


def _findings(root: Path) -> dict[Path, list[Drawn]]:
    workspace = Workspace([root])
    workspace.index_all()
    return {path: sorted(drawn_finding(path.relative_to(EXAMPLES).as_posix(), f)
                         for f in workspace.findings(path))
            for path in sorted(root.rglob("*")) if path.is_file()}


def test_the_clean_workspace_has_no_finding_and_every_file_is_claimed() -> None:
    workspace = Workspace([EXAMPLES])
    workspace.index_all()
    assert len(CLEAN) == 11
    for path in CLEAN:
        analysis = workspace.analysis(path)
        assert analysis is not None and analysis.kind is not None, path
        assert workspace.findings(path) == [], path


@pytest.fixture(scope="module")
def mistakes() -> dict[Path, list[Drawn]]:
    return _findings(EXAMPLES / "mistakes")


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.relative_to(EXAMPLES).as_posix())
def test_each_mistake_gives_its_finding_and_nothing_else(path: Path,
                                                         mistakes: dict[Path, list[Drawn]]) -> None:
    code = path.name.split("-")[0] if path.name.startswith("EY") else None
    assert [d.code for d in mistakes[path]] == ([code] if code else [])
    if path.suffix == ".yaml":
        assert mistakes[path] == sorted(drawn_carets(EXAMPLES, path))


def test_every_apastra_code_has_a_mistake_file() -> None:
    codes = {p.name.split("-")[0] for p in MISTAKES if p.name.startswith("EY")}
    assert codes == {f"EY{n}" for n in range(800, 815)} | {"EY301"}
