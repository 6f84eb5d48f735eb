"""Completion without a server: `ide.completion` on a real workspace, exact items and spans."""

from __future__ import annotations

from tests.ide.conftest import RUBRIC, Folder, span

from evalyaml.core.kinds import FileKind, Kind
from evalyaml.ide.completion import Completion, CompletionKind, Request, complete, context_for
from evalyaml.ide.source import Text

TONE_DOC = ("**rubric/tone@1.0.0** · `rubrics/tone.yaml`\n\nPolite answers.\n\n"
            "Checks:\n- `format` `has_json`\n\nScoring: `all_pass`")


def items(folder: Folder, text: str, line: int, column: int, kind: Kind, *,
          snippets: bool = False) -> list[Completion]:
    source = Text(text, folder.root / "datasets" / "new.yaml")
    req = Request(source, kind, line, folder.workspace, snippets, lambda: ["core", "rag"])
    ctx = context_for(req, column)
    assert ctx is not None
    return complete(req, ctx)


def test_reference_ids_then_their_versions(folder: Folder) -> None:
    folder.write("rubrics/tone.yaml", RUBRIC)
    found = items(folder, "questions:\n  - id: a\n    rubric_ref: rubric/\n", 2, 23,
                  FileKind.DATASET)
    assert found == [Completion(
        "rubric/tone", CompletionKind.REFERENCE, span(2, 16, 23), "rubric/tone@", "0000",
        "rubric/tone", "Polite answers.", TONE_DOC, suggest_again=True)]
    found = items(folder, "questions:\n  - id: a\n    rubric_ref: rubric/tone@\n", 2, 28,
                  FileKind.DATASET)
    assert found == [Completion(
        "rubric/tone@1.0.0", CompletionKind.REFERENCE, span(2, 16, 28), "rubric/tone@1.0.0",
        "000", "rubric/tone@1.0.0", "Polite answers.", TONE_DOC)]


def test_keys_required_first_plain_or_snippet(folder: Folder) -> None:
    text = "questions:\n  - id: a\n    in\n"
    found = items(folder, text, 2, 6, FileKind.DATASET)
    first = found[0]
    assert (first.label, first.kind, first.edit, first.sort_text, first.detail, first.snippet) \
        == ("input", CompletionKind.PROPERTY, (span(2, 4, 6), "input: "), "001input",
            "required · string", False)
    assert "id" not in [item.label for item in found]  # already there
    expected = next(item for item in found if item.label == "expected")
    assert expected.new_text == "expected:\n      "
    snippet = items(folder, text, 2, 6, FileKind.DATASET, snippets=True)
    assert (snippet[0].new_text, snippet[0].snippet) == ("input: $0", True)


def test_bundle_names_come_from_the_request(folder: Folder) -> None:
    found = items(folder, "questions:\n  - id: a\n    bundle: \n", 2, 12, FileKind.DATASET)
    assert [(item.label, item.kind, item.edit) for item in found] == [
        ("core", CompletionKind.BUNDLE, (span(2, 12, 12), "core")),
        ("rag", CompletionKind.BUNDLE, (span(2, 12, 12), "rag"))]


def test_template_variables_close_the_braces(folder: Folder) -> None:
    text = 'id: j\nversion: "1.0.0"\ntemplate: |\n  Answer {{ \n'
    found = items(folder, text, 3, 12, FileKind.JUDGE)
    assert [(item.label, item.kind, item.edit) for item in found][:2] == [
        ("input", CompletionKind.VARIABLE, (span(3, 12, 12), "input }}")),
        ("output", CompletionKind.VARIABLE, (span(3, 12, 12), "output }}"))]
