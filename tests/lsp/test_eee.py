"""Every Eval Ever end to end, over real LSP (stdio): a samples row's findings at their
characters in the client's encoding, typing in a samples file re-publishing its aggregate's
checksum and row count (and the fix), completion and hover from the JSON cursor in a JSONL row
and a JSON aggregate, document symbols by `sample_id`, and go-to-definition and the document
link from `file_path` to the samples file."""

from __future__ import annotations

import hashlib

import pytest
from lsprotocol import types
from tests.lsp.conftest import Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

FOLDER = "eee/data/arith-demo/acme/tiny-model/"
UUID = "3b1f6c2e-7a4d-4e8b-9c5f-2d1e0a9b8c7d"
AGGREGATE = FOLDER + UUID + ".json"
SAMPLES = FOLDER + UUID + "_samples.jsonl"


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


async def test_a_row_s_mistakes_at_their_characters(session: Session) -> None:
    uri = session.open(SAMPLES)
    assert await session.diagnostics(uri) == []
    session.replace(uri, '"interaction_type": "single_turn"', '"interaction_type": "single-turn"')
    found = await session.diagnostics(uri)
    start = session.find(uri, '"single-turn"')
    assert [(d.code, d.range) for d in found] == [
        ("EY703", types.Range(start, types.Position(start.line, start.character + 13)))]
    assert found[0].message.endswith("did you mean 'single_turn'?")
    session.close(uri)


async def test_typing_in_the_samples_file_republishes_the_aggregate(session: Session) -> None:
    aggregate = session.open(AGGREGATE)
    assert await session.diagnostics(aggregate) == []
    samples = session.open(SAMPLES)
    text = session.texts[samples]
    lines = text.split("\n")
    session.edit(samples, (len(lines) - 1, 0), (len(lines) - 1, 0), lines[0] + "\n")
    found = await session.until(aggregate, lambda ds: len(ds) == 2)
    assert sorted(str(d.code) for d in found) == ["EY721", "EY722"]
    rows = next(d for d in found if d.code == "EY722")
    assert rows.message == f"total_rows is 3 but {UUID}_samples.jsonl has 4 non-blank lines"
    actions = await session.client.text_document_code_action_async(types.CodeActionParams(
        doc(aggregate), rows.range, types.CodeActionContext(diagnostics=[rows])))
    assert actions is not None
    titles = [a.title for a in actions if isinstance(a, types.CodeAction)]
    assert "Write 4" in titles
    session.close(samples)
    assert await session.until(aggregate, lambda ds: ds == []) == []
    session.close(aggregate)


async def test_the_checksum_and_row_fixes_clean_the_aggregate(session: Session) -> None:
    """Both one-click fixes over LSP write the values of the samples buffer as edited: applied,
    the aggregate is clean, while the file on disk still has the old rows."""
    aggregate = session.open(AGGREGATE)
    samples = session.open(SAMPLES)
    lines = session.texts[samples].split("\n")
    session.edit(samples, (len(lines) - 1, 0), (len(lines) - 1, 0), lines[0] + "\n")
    found = await session.until(aggregate, lambda ds: len(ds) == 2)
    digest = hashlib.sha256(session.texts[samples].encode()).hexdigest()
    expected = {"EY721": f'"{digest}"', "EY722": "4"}
    for diagnostic in sorted(found, key=lambda d: str(d.code)):
        result = await session.client.text_document_code_action_async(types.CodeActionParams(
            doc(aggregate), diagnostic.range, types.CodeActionContext(
                diagnostics=[diagnostic], only=[types.CodeActionKind.QuickFix])))
        fixes = [a for a in result or [] if isinstance(a, types.CodeAction) and a.edit]
        assert len(fixes) == 1 and fixes[0].is_preferred
        edit = fixes[0].edit
        assert edit is not None
        if edit.document_changes:
            change = edit.document_changes[0]
            assert isinstance(change, types.TextDocumentEdit)
            edits = list(change.edits)
        else:
            assert edit.changes is not None
            edits = list(edit.changes[aggregate])
        assert len(edits) == 1 and isinstance(edits[0], types.TextEdit)
        assert edits[0].range == diagnostic.range
        assert edits[0].new_text == expected[str(diagnostic.code)]
        current = await session.diagnostics(aggregate)
        target = next(d for d in current if d.code == diagnostic.code)
        start, end = target.range.start, target.range.end
        session.edit(aggregate, (start.line, start.character), (end.line, end.character),
                     edits[0].new_text)
    assert await session.until(aggregate, lambda ds: ds == []) == []
    session.close(samples)
    assert sorted(str(d.code) for d in await session.until(
        aggregate, lambda ds: len(ds) == 2)) == ["EY721", "EY722"]
    session.close(aggregate)


async def test_completion_in_a_jsonl_row_and_in_an_aggregate(session: Session) -> None:
    row = ('{"schema_version": "0.3.0", "interaction_type": "", "input": {"raw": "q", '
           '"reference": ["a"]}}\n')
    uri = session.open(FOLDER + "c0ffee00-1111-4222-8333-444455556666_samples.jsonl", row)
    await session.diagnostics(uri)  # analysed: the kind is known
    position = session.find(uri, '""', offset=1)
    result = await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), position))
    assert result is not None
    items = result.items if isinstance(result, types.CompletionList) else result
    assert sorted(i.label for i in items) == ["agentic", "multi_turn", "single_turn"]
    single = next(i for i in items if i.label == "single_turn")
    assert isinstance(single.text_edit, types.TextEdit)
    assert single.text_edit.new_text == '"single_turn"'
    key = session.find(uri, '"input"')
    result = await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), key))
    assert result is not None
    items = result.items if isinstance(result, types.CompletionList) else result
    assert "evaluation_id" in {i.label for i in items}
    session.close(uri)


async def test_hover_on_an_aggregate_key(session: Session) -> None:
    uri = session.open(AGGREGATE)
    where = session.find(uri, '"hash_algorithm"', offset=3)
    found = await session.client.text_document_hover_async(types.HoverParams(doc(uri), where))
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    assert found.contents.value.startswith("**hash_algorithm** · string\n\nHash algorithm used")
    session.close(uri)


async def test_document_symbols_are_the_sample_ids(session: Session) -> None:
    uri = session.open(SAMPLES)
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(doc(uri)))
    assert symbols is not None
    assert [s.name for s in symbols] == ["arith_0001", "arith_0002", "arith_0003"]
    session.close(uri)
    uri = session.open(AGGREGATE)
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(doc(uri)))
    assert symbols is not None and [s.name for s in symbols] == ["arith-demo.accuracy"]
    session.close(uri)


async def test_file_path_leads_to_the_samples_file(session: Session) -> None:
    uri = session.open(AGGREGATE)
    samples = session.uri(SAMPLES)
    where = session.find(uri, "_samples.jsonl")
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(doc(uri), where))
    assert found == [types.Location(samples, session.rng(samples, 0, 0, 1))]
    links = await session.client.text_document_document_link_async(
        types.DocumentLinkParams(doc(uri)))
    assert links is not None
    assert [str(link.target).split("#")[0] for link in links] == [samples]
    start = session.find(uri, '"data/arith-demo')
    written = f'"data/arith-demo/acme/tiny-model/{UUID}_samples.jsonl"'
    assert links[0].range == types.Range(
        start, types.Position(start.line, start.character + len(written)))
    session.close(uri)
