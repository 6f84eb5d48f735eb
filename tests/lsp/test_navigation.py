"""Hover, definition, references, links, symbols, rename and code lens."""

from __future__ import annotations

import pytest
from lsprotocol import types
from tests.lsp.conftest import Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

FAQ = "datasets/support_faq.yaml"
FACTUALITY = "rubrics/factuality.yaml"
FACTUALITY_REFS = [14, 23, 32, 83]  # lines of support_faq.yaml that use factuality@1.2.0


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


async def hover_text(session: Session, uri: str, position: types.Position
                     ) -> tuple[str, types.Range | None]:
    result = await session.client.text_document_hover_async(
        types.HoverParams(doc(uri), position))
    assert result is not None
    assert isinstance(result.contents, types.MarkupContent)
    return result.contents.value, result.range


async def test_hover_key_shows_schema_description(session: Session) -> None:
    uri = session.open(FAQ)
    text, rng = await hover_text(session, uri, session.pos(uri, 7, 6))
    assert text == ("**criteria** · string\n\nPlain-language grading criteria: what a correct, "
                    "complete answer must do. LLM judges and human reviewers read it.")
    assert rng == session.rng(uri, 7, 4, 12)
    session.close(uri)


async def test_hover_enum_and_check_kind(session: Session) -> None:
    uri = session.open(FACTUALITY)
    text, rng = await hover_text(session, uri, session.pos(uri, 15, 14))
    assert text.startswith("**combine**: `all_pass`\n\nHow check results combine: `all_pass`")
    assert rng == session.rng(uri, 15, 11, 19)
    text, rng = await hover_text(session, uri, session.pos(uri, 7, 14))
    assert text == ("**fact_match check**\n\nScores the share of expected facts the output "
                    "states and passes at `threshold` or above.\n\nFields: `threshold` "
                    "(required), `facts`")
    assert rng == session.rng(uri, 7, 10, 20)
    session.close(uri)


async def test_hover_reference_shows_the_resolved_rubric(session: Session) -> None:
    uri = session.open(FAQ)
    text, rng = await hover_text(session, uri, session.pos(uri, 14, 25))
    assert rng == session.rng(uri, 14, 16, 37)
    assert text == (
        "`rubric/factuality@1.2` →\n\n"
        "**rubric/factuality@1.2.0** · `rubrics/factuality.yaml`\n\n"
        "The answer states the expected facts and nothing the reference contradicts.\n\n"
        "Checks:\n"
        "- `fact_match` `expected_facts_present`: At least 80% of the case's expected_facts "
        "appear in the answer.\n"
        "- `llm_judge` `judged_accurate`: The accuracy judge agrees the answer is consistent "
        "with the reference.\n\n"
        "Scoring: `all_pass`")
    session.close(uri)


async def test_hover_judge_reference_shows_validation(session: Session) -> None:
    uri = session.open(FACTUALITY)
    text, _ = await hover_text(session, uri, session.pos(uri, 13, 30))
    assert text.endswith("Score type: `binary`\n\nTPR 0.91 · TNR 0.88 · validated 2026-11-02 "
                         "(19 days ago)")
    assert "**judge/accuracy@1.0.0** · `judges/accuracy.yaml`" in text
    session.close(uri)


async def test_definition_goes_to_the_target_id(session: Session) -> None:
    uri = session.open(FAQ)
    target = session.uri(FACTUALITY)
    result = await session.client.text_document_definition_async(
        types.DefinitionParams(doc(uri), session.pos(uri, 84 - 1, 30)))
    assert list(result or []) == [types.Location(target, session.rng(target, 2, 4, 14))]
    session.close(uri)


async def test_references_include_closed_files(session: Session) -> None:
    uri = session.open(FACTUALITY)
    faq = session.uri(FAQ)  # not open
    result = await session.client.text_document_references_async(types.ReferenceParams(
        text_document=doc(uri), position=session.pos(uri, 2, 6),
        context=types.ReferenceContext(include_declaration=True)))
    widths = {14: 37, 23: 39, 32: 37, 83: 39}
    assert list(result or []) == [types.Location(uri, session.rng(uri, 2, 4, 14))] + [
        types.Location(faq, session.rng(faq, line, 16, widths[line])) for line in FACTUALITY_REFS]
    session.close(uri)


async def test_document_links_on_references(session: Session) -> None:
    uri = session.open(FAQ)
    links = await session.client.text_document_document_link_async(
        types.DocumentLinkParams(doc(uri)))
    assert links is not None and len(links) == 10
    tooltip = "Open rubric/factuality@1.2.0" if session.name == "vscode" else None
    assert links[0] == types.DocumentLink(
        range=session.rng(uri, 14, 16, 37), target=session.uri(FACTUALITY) + "#L3",
        tooltip=tooltip)
    session.close(uri)


async def test_document_symbols(session: Session) -> None:
    uri = session.open(FAQ)
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(doc(uri)))
    assert symbols is not None
    first = symbols[0]
    assert isinstance(first, types.DocumentSymbol)
    assert [s.name for s in symbols] == [
        "reset_password", "refund_window", "invoice-vat-number", "order_status_json",
        "order_status_unknown_order", "data_deletion_request", "angry_outage_complaint",
        "api-rate-limit", "php_memory_limit", "leaked_api_key"]
    assert first.kind == types.SymbolKind.Object
    assert first.selection_range == session.rng(uri, 5, 8, 22)
    assert first.range.start == session.pos(uri, 5, 4)
    session.close(uri)
    rubric = session.open(FACTUALITY)
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(doc(rubric)))
    assert symbols is not None and len(symbols) == 1
    top = symbols[0]
    assert isinstance(top, types.DocumentSymbol)
    assert top.name == "rubric/factuality@1.2.0"
    assert [(c.name, c.detail) for c in top.children or []] == [
        ("fact_match", "expected_facts_present"), ("llm_judge", "judged_accurate")]
    session.close(rubric)


async def test_workspace_symbols(session: Session) -> None:
    result = await session.client.workspace_symbol_async(
        types.WorkspaceSymbolParams(query="factuality"))
    names = sorted(s.name for s in result or [])
    assert names == ["rubric/factuality@1.1.0", "rubric/factuality@1.2.0"]
    result = await session.client.workspace_symbol_async(
        types.WorkspaceSymbolParams(query="refund"))
    # Every format's items: the contract's cases, Padosoft's samples and calibration cases,
    # AgentV's tests, promptfoo's tests by description.
    assert sorted((s.name, s.container_name) for s in result or []) == [
        ("issue-refund", "padosoft/eval/golden/agent_tasks.yml"),
        ("issue_refund_within_window", "datasets/agent_tasks.yaml"),
        ("refund window", "promptfoo/clean/promptfooconfig.yaml"),
        ("refund-correct", "padosoft/eval/calibration/judge-cases.v1.yaml"),
        ("refund-status", "padosoft/eval/golden/agent_tasks.yml"),
        ("refund-window", "agentv/evals/support.eval.yaml"),
        ("refund-window", "padosoft/eval/golden/support_faq.yml"),
        ("refund-window-docs", "padosoft/eval/golden/retrieval.yml"),
        ("refund-wrong-window", "padosoft/eval/calibration/judge-cases.v1.yaml"),
        ("refund_window", "datasets/support_faq.yaml")]
    result = await session.client.workspace_symbol_async(
        types.WorkspaceSymbolParams(query="agent_tasks"))
    assert sorted((s.name, s.kind) for s in result or []) == [
        ("datasets/agent_tasks.yaml", types.SymbolKind.File),
        ("padosoft/eval/golden/agent_tasks.yml", types.SymbolKind.File)]


async def test_code_lens_counts_users(session: Session) -> None:
    uri = session.open(FACTUALITY)
    lenses = await session.client.text_document_code_lens_async(types.CodeLensParams(doc(uri)))
    assert lenses is not None and len(lenses) == 1
    assert lenses[0].range == session.rng(uri, 2, 4, 14)
    assert lenses[0].command is not None
    assert lenses[0].command.title == "used by 4 cases"
    session.close(uri)
    judge = session.open("judges/harm.yaml")
    lenses = await session.client.text_document_code_lens_async(types.CodeLensParams(doc(judge)))
    assert [lens.command.title for lens in lenses or [] if lens.command] == ["used by 1 check"]
    session.close(judge)


async def test_rename_rewrites_every_reference(session: Session) -> None:
    faq = session.open(FAQ)
    prepared = await session.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(doc(faq), session.pos(faq, 14, 30)))
    assert prepared == types.PrepareRenamePlaceholder(range=session.rng(faq, 14, 23, 33),
                                                      placeholder="factuality")
    nothing = await session.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(doc(faq), session.pos(faq, 7, 6)))
    assert nothing is None
    edit = await session.client.text_document_rename_async(
        types.RenameParams(doc(faq), session.pos(faq, 14, 30), "grounded_facts"))
    assert edit is not None
    changes: dict[str, list[types.TextEdit]] = {}
    if edit.document_changes:
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            changes[change.text_document.uri] = list(change.edits)  # type: ignore[arg-type]
            if change.text_document.uri == faq:
                assert change.text_document.version == session.versions[faq]
    else:
        changes = {uri: list(edits) for uri, edits in (edit.changes or {}).items()}
    rubric, older = session.uri(FACTUALITY), session.uri("rubrics/factuality-1.1.yaml")
    assert changes == {
        rubric: [types.TextEdit(session.rng(rubric, 2, 4, 14), "grounded_facts")],
        older: [types.TextEdit(session.rng(older, 3, 4, 14), "grounded_facts")],
        faq: [types.TextEdit(session.rng(faq, line, 23, 33), "grounded_facts")
              for line in FACTUALITY_REFS],
    }
    session.close(faq)


async def test_rename_refuses_an_invalid_id(session: Session) -> None:
    faq = session.open(FAQ)
    with pytest.raises(Exception, match="not a valid id"):
        await session.client.text_document_rename_async(
            types.RenameParams(doc(faq), session.pos(faq, 14, 30), "Bad Name"))
    session.close(faq)
