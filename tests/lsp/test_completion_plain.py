"""Completion for clients without snippet support: the same items, plain text inserted."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from evalyaml.core.kinds import FileKind
from evalyaml.lsp.documents import Document
from evalyaml.lsp.features import completion
from evalyaml.lsp.index import EditorWorkspace
from evalyaml.lsp.positions import Encoding, PositionMapper
from evalyaml.lsp.settings import Settings

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def items_at(text: str, line: int, character: int) -> list[types.CompletionItem]:
    workspace = EditorWorkspace([EXAMPLES], Settings())
    doc = Document("file:///x/rubrics/r.yaml", EXAMPLES / "rubrics" / "r.yaml", text, 1)
    req = completion.Request(doc=doc, kind=FileKind.RUBRIC,
                             mapper=PositionMapper(doc.lines, Encoding.UTF16), line=line,
                             workspace=workspace, snippets=False, retrigger=False,
                             bundles=list)
    found = completion.complete_at(req, types.Position(line, character))
    return sorted(found, key=lambda i: i.sort_text or i.label)


def test_check_kind_without_snippets() -> None:
    items = items_at("checks:\n  - kind: \n", 1, 10)
    regex = next(i for i in items if i.label == "regex")
    assert regex.insert_text_format == types.InsertTextFormat.PlainText
    assert isinstance(regex.text_edit, types.TextEdit)
    assert regex.text_edit.new_text == "regex\n    pattern: "


def test_keys_without_snippets() -> None:
    items = items_at("id: r\nchecks:\n  - kind: regex\n    \n", 3, 4)
    assert [i.label for i in items][:1] == ["pattern"]
    by_label = {i.label: i for i in items}
    assert isinstance(by_label["pattern"].text_edit, types.TextEdit)
    assert by_label["pattern"].text_edit.new_text == "pattern: "
    assert "values" not in by_label  # a must_contain_any field, not a regex one
