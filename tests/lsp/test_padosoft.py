"""A second format end to end, over real LSP: Padosoft eval-harness datasets and eval sets get
completion and hover from their schema, the row identity on a sample's id,
document symbols by sample id, and go-to-definition, references and rename of dataset names
from a JSON eval set. The engine has no Padosoft-specific code path: all of it goes through the
format's registration. Their findings are fixtures (`tests/formats/padosoft/`)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from tests.lsp.conftest import Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

FAQ = "padosoft/eval/golden/support_faq.yml"
NIGHTLY = "padosoft/eval/sets/nightly.json"
NEW_DATASET = """\
schema_version: eval-harness.dataset.v1
name: support.smoke
samples:
  - id: greeting
    input:
      question: "Hello?"
""" + "    \n"  # the cursor's line: indented for the sample's next key


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


def _changes(edit: types.WorkspaceEdit) -> dict[str, list[types.TextEdit]]:
    if edit.document_changes:
        out: dict[str, list[types.TextEdit]] = {}
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            out[change.text_document.uri] = list(change.edits)  # type: ignore[arg-type]
        return out
    return {uri: list(edits) for uri, edits in (edit.changes or {}).items()}


async def test_completion_offers_the_sample_keys_still_missing(session: Session) -> None:
    uri = session.open("padosoft/eval/golden/smoke.yml", NEW_DATASET)
    result = await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, 6, 4)))
    assert result is not None
    items = result.items if isinstance(result, types.CompletionList) else result
    labels = [item.label for item in items]
    assert labels[0] == "expected_output"  # required first
    assert "metadata" in labels
    assert "id" not in labels and "input" not in labels  # already there
    session.close(uri)


async def test_hover_on_a_key_and_on_a_sample_id(session: Session) -> None:
    uri = session.open(FAQ)
    key = await session.client.text_document_hover_async(
        types.HoverParams(doc(uri), session.pos(uri, 3, 3)))
    assert key is not None and isinstance(key.contents, types.MarkupContent)
    assert key.contents.value.startswith(
        "**schema_version** · string\n\nThe dataset contract. Optional (defaults to "
        "eval-harness.dataset.v1)")
    assert key.range == session.rng(uri, 3, 0, 14)
    row = await session.client.text_document_hover_async(
        types.HoverParams(doc(uri), session.pos(uri, 6, 10)))
    assert row is not None and isinstance(row.contents, types.MarkupContent)
    assert row.contents.value.startswith(
        "**refund-window**\n\nRow identity (eval-harness `RowHash`): `5518d853e03f`\n\n")
    assert row.range == session.rng(uri, 6, 8, 21)
    session.close(uri)


async def test_document_symbols_are_the_sample_ids(session: Session) -> None:
    uri = session.open(FAQ)
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(doc(uri)))
    assert symbols is not None
    names = [s.name for s in symbols]
    assert names[:3] == ["refund-window", "password-reset", "other-customers-data"]
    assert "Padosoft dataset 'support.faq.fy2026'" in names
    session.close(uri)


async def test_definition_and_references_of_a_dataset_name(session: Session) -> None:
    nightly, faq = session.open(NIGHTLY), session.uri(FAQ)
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(doc(nightly), session.pos(nightly, 4, 10)))
    assert found == [types.Location(faq, session.rng(faq, 4, 6, 24))]
    refs = await session.client.text_document_references_async(types.ReferenceParams(
        text_document=doc(nightly), position=session.pos(nightly, 4, 10),
        context=types.ReferenceContext(include_declaration=True)))
    assert refs is not None
    assert sorted((r.uri, r.range.start.line, r.range.start.character) for r in refs) == sorted(
        [(faq, 4, session.pos(faq, 4, 6).character),
         (nightly, 4, session.pos(nightly, 4, 4).character)])
    session.close(nightly)


async def test_rename_a_dataset_name_everywhere(session: Session) -> None:
    nightly, faq = session.open(NIGHTLY), session.uri(FAQ)
    prepared = await session.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(doc(nightly), session.pos(nightly, 4, 10)))
    assert prepared == types.PrepareRenamePlaceholder(range=session.rng(nightly, 4, 5, 23),
                                                      placeholder="support.faq.fy2026")
    edit = await session.client.text_document_rename_async(
        types.RenameParams(doc(nightly), session.pos(nightly, 4, 10), "support.faq.fy2027"))
    assert edit is not None
    assert _changes(edit) == {
        faq: [types.TextEdit(session.rng(faq, 4, 6, 24), "support.faq.fy2027")],
        nightly: [types.TextEdit(session.rng(nightly, 4, 5, 23), "support.faq.fy2027")],
    }
    with pytest.raises(Exception, match="not a valid name"):
        await session.client.text_document_rename_async(
            types.RenameParams(doc(nightly), session.pos(nightly, 4, 10), " padded"))
    for unsafe in ("a b", 'say "hi"', "back\\slash", "rag #2", "x: y"):
        with pytest.raises(Exception, match="not a valid name"):
            await session.client.text_document_rename_async(
                types.RenameParams(doc(nightly), session.pos(nightly, 4, 10), unsafe))
    session.close(nightly)


async def test_metadata_knobs_complete_with_the_format_s_snippets(session: Session) -> None:
    text = NEW_DATASET.rstrip(" \n") + "\n    expected_output: hi\n    metadata:\n      \n"
    uri = session.open("padosoft/eval/golden/knobs.yml", text)
    result = await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, 8, 6)))
    assert result is not None
    items = {i.label: i for i in (result.items if isinstance(result, types.CompletionList)
                                  else result)}
    assert {"tags", "k", "refusal_expected", "citation_evidence", "trajectory"} <= set(items)
    knob = items["refusal_expected"]
    assert isinstance(knob.text_edit, types.TextEdit)
    # Both capability sets take snippets, so the format's own snippets are what is inserted.
    assert knob.insert_text_format == types.InsertTextFormat.Snippet
    assert knob.text_edit.new_text == "refusal_expected: ${1|true,false|}"
    evidence = items["citation_evidence"].text_edit
    assert isinstance(evidence, types.TextEdit)
    assert evidence.new_text == ('citation_evidence:\n        - citation: "${1:[doc:id]}"\n'
                                 '          quote: "${2}"')
    session.close(uri)
