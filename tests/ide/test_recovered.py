"""Editor features on files with a syntax error: they read the recovered tree (issue #15).

Before recovery a rubric with one broken line had no definition, so it had no symbols, no
definition target and no references; a broken case had no reference, so go-to-definition from
its `rubric_ref` found nothing.
"""

from __future__ import annotations

from tests.ide.conftest import TODAY, Folder, at, source, span

from evalyaml.core.kinds import FileKind
from evalyaml.ide.completion import Request, complete, context_for
from evalyaml.ide.hover import hover
from evalyaml.ide.navigation import NavTarget, Symbol, SymbolKind, definition, document_symbols
from evalyaml.ide.source import Text
from evalyaml.syntax.text import Position, Span
from evalyaml.workspace.index import normalize

BROKEN_RUBRIC = """\
id: tone
version: "1.0.0"
description: Polite: never curt.
checks:
  - id: has_json
    kind: format
    format: json
scoring:
  combine: all_pass
"""

BROKEN_DATASET = """\
questions:
  - id: first
    input: hello
    criteria: Says: hello
    rubric_ref: rubric/tone@1.0.0
"""


def test_a_broken_rubric_keeps_its_symbols_and_is_a_definition_target(folder: Folder) -> None:
    rubric = folder.write("rubrics/tone.yaml", BROKEN_RUBRIC)
    dataset = folder.write("datasets/cases.yaml", BROKEN_DATASET)
    text, analysis, _ = source(folder.workspace, rubric)
    assert [f.code for f in folder.workspace.findings(rubric)] == ["EY101"]
    check = span(4, 4, 16)
    assert document_symbols(text, analysis) == [Symbol(
        "rubric/tone@1.0.0", SymbolKind.RUBRIC, Span(Position(0, 0), Position(9, 0)),
        span(0, 4, 8), None, (Symbol("format", SymbolKind.CHECK, check, check, "has_json"),))]
    text, analysis, _ = source(folder.workspace, dataset)
    assert [f.code for f in folder.workspace.findings(dataset)] == ["EY101"]  # resolves
    assert definition(folder.workspace, text, at(text, "tone@", 1)) == \
        [NavTarget(normalize(rubric), span(0, 4, 8))]
    assert document_symbols(text, analysis) == [
        Symbol("first", SymbolKind.CASE, Span(Position(1, 4), Position(4, 33)), span(1, 8, 13))]


def test_hover_and_completion_in_a_broken_case(folder: Folder) -> None:
    folder.write("rubrics/tone.yaml", BROKEN_RUBRIC)
    dataset = folder.write("datasets/cases.yaml", BROKEN_DATASET)
    text, _, _ = source(folder.workspace, dataset)
    info = hover(text, FileKind.DATASET, at(text, "tone@", 1), workspace=folder.workspace,
                 today=TODAY)
    assert info is not None and info.span == span(4, 16, 33)
    assert info.markdown.startswith("`rubric/tone@1.0.0` →\n\n**rubric/tone@1.0.0**")
    typing = Text(BROKEN_DATASET.replace("    input: hello\n", "    input: hello\n    exp\n"),
                  normalize(dataset))
    req = Request(typing, FileKind.DATASET, 3, folder.workspace, False, list)
    ctx = context_for(req, 7)
    assert ctx is not None
    labels = [item.label for item in complete(req, ctx)]
    assert "expected" in labels and "input" not in labels  # `input` is already there
