"""Navigation without a server: `ide.navigation` on a real workspace, exact paths and spans."""

from __future__ import annotations

from pathlib import Path

from tests.ide.conftest import EXAMPLES, RUBRIC, Folder, at, source, span

from evalyaml.core.kinds import FileKind
from evalyaml.ide.navigation import (
    Lens,
    Link,
    NavTarget,
    RenameTarget,
    Symbol,
    SymbolKind,
    WorkspaceSymbol,
    code_lenses,
    definition,
    document_links,
    document_symbols,
    references,
    rename_edits,
    rename_target,
    workspace_symbols,
)
from evalyaml.syntax.text import Position, Span
from evalyaml.workspace.index import Workspace, normalize

DATASET = """\
questions:
  - id: first
    input: hello
    rubric_ref: rubric/tone@1.0.0
  - id: second
    input: bye
    bundle: core
    rubric_ref: rubric/tone
"""


def _folder(folder: Folder) -> tuple[Path, Path]:
    return folder.write("rubrics/tone.yaml", RUBRIC), folder.write("datasets/cases.yaml",
                                                                   DATASET)


def test_definition_of_a_reference(folder: Folder) -> None:
    rubric, dataset = _folder(folder)
    text, _, _ = source(folder.workspace, dataset)
    assert definition(folder.workspace, text, at(text, "tone@", 1)) == \
        [NavTarget(normalize(rubric), span(0, 4, 8))]
    assert definition(folder.workspace, text, at(text, "input")) == []


def test_references_from_a_reference_and_from_the_definition(folder: Folder) -> None:
    rubric, dataset = _folder(folder)
    text, analysis, _ = source(folder.workspace, dataset)
    expected = [NavTarget(normalize(rubric), span(0, 4, 8)),
                NavTarget(normalize(dataset), span(3, 16, 33)),
                NavTarget(normalize(dataset), span(7, 16, 27))]
    found = references(folder.workspace, text, analysis, at(text, "tone@", 1), True)
    assert found[0] == expected[0]  # the declaration first
    assert sorted(found[1:], key=lambda t: t.span.start) == expected[1:]
    own, own_analysis, _ = source(folder.workspace, rubric)
    found = references(folder.workspace, own, own_analysis, at(own, "tone"), False)
    assert sorted(found, key=lambda t: t.span.start) == expected[1:]


def test_document_links(folder: Folder) -> None:
    rubric, dataset = _folder(folder)
    _, analysis, _ = source(folder.workspace, dataset)
    assert document_links(folder.workspace, analysis) == [
        Link(span(3, 16, 33), normalize(rubric), 0, "rubric/tone@1.0.0"),
        Link(span(7, 16, 27), normalize(rubric), 0, "rubric/tone@1.0.0")]


def test_document_symbols_of_a_dataset_and_a_rubric(folder: Folder) -> None:
    rubric, dataset = _folder(folder)
    text, analysis, _ = source(folder.workspace, dataset)
    assert document_symbols(text, analysis) == [
        Symbol("first", SymbolKind.CASE, Span(Position(1, 4), Position(3, 33)), span(1, 8, 13)),
        Symbol("second", SymbolKind.CASE, Span(Position(4, 4), Position(7, 27)),
               span(4, 8, 14), "bundle core")]
    text, analysis, _ = source(folder.workspace, rubric)
    check = span(4, 4, 16)
    assert document_symbols(text, analysis) == [Symbol(
        "rubric/tone@1.0.0", SymbolKind.RUBRIC, Span(Position(0, 0), Position(9, 0)),
        span(0, 4, 8), "Polite answers.",
        (Symbol("format", SymbolKind.CHECK, check, check, "has_json"),))]


def test_workspace_symbols_match_a_subsequence(folder: Folder) -> None:
    rubric, dataset = _folder(folder)
    rubric, dataset = normalize(rubric), normalize(dataset)
    assert workspace_symbols(folder.workspace, "tone") == [WorkspaceSymbol(
        "rubric/tone@1.0.0", SymbolKind.RUBRIC, NavTarget(rubric, span(0, 4, 8)),
        "rubrics/tone.yaml")]
    assert workspace_symbols(folder.workspace, "sec") == [
        WorkspaceSymbol("datasets/cases.yaml", SymbolKind.FILE, NavTarget(dataset, span(0, 0, 0))),
        WorkspaceSymbol("second", SymbolKind.CASE, NavTarget(dataset, span(4, 8, 14)),
                        "datasets/cases.yaml")]
    assert len(workspace_symbols(folder.workspace, "", limit=2)) == 2


def test_rename_from_a_reference_reaches_the_definition_and_every_reference(
        folder: Folder) -> None:
    rubric, dataset = _folder(folder)
    text, analysis, _ = source(folder.workspace, dataset)
    target = rename_target(folder.workspace, text, analysis, at(text, "tone", 2))
    assert target == RenameTarget(FileKind.RUBRIC, "tone", span(3, 23, 27))
    assert rename_edits(folder.workspace, target, "manners") == {
        normalize(rubric): [(span(0, 4, 8), "manners")],
        normalize(dataset): [(span(3, 23, 27), "manners"), (span(7, 23, 27), "manners")]}
    assert rename_target(folder.workspace, text, analysis, at(text, "hello")) is None


def test_rename_from_a_quoted_definition_id_leaves_the_quotes(folder: Folder) -> None:
    path = folder.write("judges/polite.yaml", """\
        id: "polite"
        version: "1.0.0"
        score_type: binary
        template: |
          {{ input }} {{ output }} PASS or FAIL?
        """)
    text, analysis, _ = source(folder.workspace, path)
    assert rename_target(folder.workspace, text, analysis, at(text, "polite")) == \
        RenameTarget(FileKind.JUDGE, "polite", span(0, 5, 11))


def test_code_lens_counts_the_users(folder: Folder) -> None:
    rubric, dataset = _folder(folder)
    text, analysis, _ = source(folder.workspace, rubric)
    assert code_lenses(folder.workspace, text, analysis) == [Lens(
        span(0, 4, 8), "used by 2 cases",
        (NavTarget(normalize(dataset), span(3, 16, 33)),
         NavTarget(normalize(dataset), span(7, 16, 27))))]


# ------------------------------------------------------------------------------- Padosoft
NIGHTLY = EXAMPLES / "padosoft/eval/sets/nightly.json"
FAQ = EXAMPLES / "padosoft/eval/golden/support_faq.yml"


def test_a_padosoft_eval_set_names_a_dataset_defined_elsewhere(examples: Workspace) -> None:
    text, analysis, _ = source(examples, NIGHTLY)
    pos = at(text, "support.faq", 3)
    assert pos == Position(4, 8)
    faq = NavTarget(normalize(FAQ), span(4, 6, 24))
    assert definition(examples, text, pos) == [faq]
    found = references(examples, text, analysis, pos, True)
    assert found[0] == faq
    assert NavTarget(normalize(NIGHTLY), span(4, 4, 24)) in found
    target = rename_target(examples, text, analysis, pos)
    assert target is not None and target.id == "support.faq.fy2026"
    assert target.span == span(4, 5, 23)
    edits = rename_edits(examples, target, "support.faq.fy2027")
    assert edits[normalize(FAQ)] == [(span(4, 6, 24), "support.faq.fy2027")]
    assert edits[normalize(NIGHTLY)] == [(span(4, 5, 23), "support.faq.fy2027")]


def test_padosoft_samples_are_document_symbols(examples: Workspace) -> None:
    text, analysis, _ = source(examples, FAQ)
    names = [s.name for s in document_symbols(text, analysis)]
    assert names[:3] == ["refund-window", "password-reset", "other-customers-data"]
    assert document_symbols(text, analysis)[0].selection == span(6, 8, 21)
