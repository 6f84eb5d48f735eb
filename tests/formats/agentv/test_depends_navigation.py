"""A test id is the author's choice and scoped to its suite: find references from a test's `id`
lists the `depends_on` entries of that suite naming it (not a same-named test of another suite),
and rename from either end edits the id and every entry, quotes kept."""

from __future__ import annotations

from pathlib import Path

from evalyaml.ide.navigation import NavTarget, references, rename_edits, rename_target
from evalyaml.ide.source import Text
from evalyaml.syntax.text import Position
from evalyaml.workspace.index import Workspace

CHAIN = """tests:
  - id: setup
    input: prepare
    criteria: prepares
  - id: "login"
    input: log in
    criteria: logs in
    depends_on: [setup]
  - id: checkout
    input: buy
    criteria: buys
    depends_on: [setup, 'login']
  - id: refund
    input: refund
    criteria: refunds
    depends_on:
      - login
      - missing
"""
OTHER = """tests:
  - id: login
    input: elsewhere
    criteria: another suite's test of the same id
  - id: after
    input: then
    criteria: next
    depends_on: [login]
"""


def _rows(found: list[NavTarget]) -> list[tuple[str, int, int, int]]:
    return [(t.path.name, t.span.start.line, t.span.start.character, t.span.end.character)
            for t in found]


def _workspace(tmp_path: Path) -> tuple[Workspace, Path]:
    evals = tmp_path / "evals"
    evals.mkdir()
    (evals / "chain.eval.yaml").write_text(CHAIN, encoding="utf-8")
    (evals / "other.eval.yaml").write_text(OTHER, encoding="utf-8")
    workspace = Workspace([tmp_path])
    workspace.index_all()
    return workspace, evals / "chain.eval.yaml"


def test_references_from_a_test_id_list_its_depends_on_entries(tmp_path: Path) -> None:
    workspace, chain = _workspace(tmp_path)
    source = Text(CHAIN, chain)
    on_id = Position(4, 11)  # inside "login"
    found = references(workspace, source, workspace.analysis(chain), on_id,
                       include_declaration=True)
    assert _rows(found) == [("chain.eval.yaml", 4, 9, 14), ("chain.eval.yaml", 11, 25, 30),
                            ("chain.eval.yaml", 16, 8, 13)]
    from_entry = references(workspace, source, workspace.analysis(chain), Position(16, 9),
                            include_declaration=False)
    assert _rows(from_entry) == [("chain.eval.yaml", 11, 25, 30), ("chain.eval.yaml", 16, 8, 13)]


def test_rename_from_a_depends_on_entry_edits_the_suite_only(tmp_path: Path) -> None:
    workspace, chain = _workspace(tmp_path)
    source = Text(CHAIN, chain)
    target = rename_target(workspace, source, workspace.analysis(chain), Position(11, 27))
    assert target is not None and (target.id, target.span.start.character) == ("login", 25)
    edits = rename_edits(workspace, target, "sign-in")
    assert list(edits) == [chain]
    text = CHAIN.split("\n")
    for span, new in sorted(edits[chain], key=lambda e: (e[0].start.line, e[0].start.character),
                            reverse=True):
        line = text[span.start.line]
        text[span.start.line] = line[:span.start.character] + new + line[span.end.character:]
    renamed = "\n".join(text)
    assert '- id: "sign-in"' in renamed and "[setup, 'sign-in']" in renamed
    assert "      - sign-in\n      - missing" in renamed
    workspace.set_text(chain, renamed)
    assert [f.code for f in workspace.findings(chain)] == ["EY637"]  # 'missing' still


def test_a_name_defined_nowhere_is_not_renamed(tmp_path: Path) -> None:
    workspace, chain = _workspace(tmp_path)
    source = Text(CHAIN, chain)
    assert rename_target(workspace, source, workspace.analysis(chain), Position(17, 10)) is None
    assert references(workspace, source, workspace.analysis(chain), Position(17, 10),
                      include_declaration=True) == []
