"""AgentV end to end over real LSP (stdio, every client encoding the session runs): the grader
prompt it adopts checked when opened (Markdown),
completion of grader types and prompt variables, hover with the rendered prompt, document links
and go-to-definition on `file://` paths. Everything goes through the format's registration and
the engine's generic hooks (adopted files, file references, `FormatIde` offers and hover)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from tests.lsp.conftest import Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

SUITE = "agentv/evals/support.eval.yaml"
PROMPT = "agentv/evals/prompts/support-grader.md"


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


async def test_the_adopted_prompt_is_checked_when_edited(session: Session) -> None:
    uri = session.open(PROMPT, "# Grader\nJudge {{ ouput }} for 中文 {{ input }}.\n")
    found = await session.diagnostics(uri)
    assert [(d.code, d.range) for d in found] == [
        ("EY623", session.rng(uri, 0, 0, 8)), ("EY624", session.rng(uri, 1, 9, 14))]
    session.close(uri)


async def test_completion_of_variables_in_the_prompt(session: Session) -> None:
    uri = session.open(PROMPT, "Grade {{ ou\n")
    result = await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, 0, 11)))
    assert result is not None
    items = result.items if isinstance(result, types.CompletionList) else result
    assert [i.label for i in items][:3] == ["input", "output", "expected_output"]
    edit = items[1].text_edit
    assert isinstance(edit, types.TextEdit)
    assert (edit.range, edit.new_text) == (session.rng(uri, 0, 9, 11), "output }}")
    session.close(uri)


async def test_completion_in_a_prompt_before_the_engine_reaches_it(session: Session) -> None:
    """A request right after `didOpen` may come before the prompt's analysis (here the engine
    is busy with a large dataset opened just before): the index's kind for the file answers."""
    cases = "".join(f"  - id: q{i}\n    input: question {i}\n" for i in range(4000))
    big = session.open("agentv/evals/big.yaml", "#! kind: dataset\nquestions:\n" + cases)
    uri = session.open(PROMPT, "Grade {{ ou\n")
    result = await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, 0, 11)))
    assert result is not None
    items = result.items if isinstance(result, types.CompletionList) else result
    assert [i.label for i in items][:3] == ["input", "output", "expected_output"]
    session.close(uri)
    session.close(big)


async def test_completion_of_grader_types_in_the_suite(session: Session) -> None:
    uri = session.open("agentv/evals/new.eval.yaml",
                       "tests:\n  - id: t1\n    input: hi\n    assertions:\n      - type: ll\n")
    result = await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, 4, 16)))
    assert result is not None
    items = result.items if isinstance(result, types.CompletionList) else result
    assert "llm-grader" in [i.label for i in items]
    session.close(uri)


async def test_hover_links_and_definition_on_a_prompt(session: Session) -> None:
    uri, prompt = session.open(SUITE), session.uri(PROMPT)
    at = session.find(uri, "file://prompts", offset=3)
    shown = await session.client.text_document_hover_async(types.HoverParams(doc(uri), at))
    assert shown is not None and isinstance(shown.contents, types.MarkupContent)
    assert shown.contents.value.startswith(
        "**prompts/support-grader.md** · the prompt the grader receives for test "
        "`refund-window`")
    assert "How many days do I have to return an order?" in shown.contents.value
    links = await session.client.text_document_document_link_async(
        types.DocumentLinkParams(doc(uri)))
    assert links is not None
    assert [link.target for link in links] == [prompt + "#L1"]
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(doc(uri), at))
    assert found == [types.Location(prompt, types.Range(types.Position(0, 0),
                                                         types.Position(0, 0)))]
    session.close(uri)


async def test_a_bare_prompt_path_gets_the_file_scheme_in_one_click(session: Session) -> None:
    from tests.lsp.test_actions import actions_for, edits_of

    uri = session.open("agentv/evals/bare.eval.yaml", (
        "tests:\n  - id: t1\n    input: héllo 😀\n    assertions:\n"
        "      - {type: llm-grader, prompt: \"prompts/support-grader.md\"}  # 😀\n"))
    found = [d for d in await session.diagnostics(uri) if d.code == "EY622"]
    assert [(d.range, d.message) for d in found] == [(
        session.rng(uri, 4, 35, 62),
        "'prompts/support-grader.md' is sent to the grader as inline text, not read as a file: "
        "write 'file://prompts/support-grader.md' to use the prompt file")]
    actions = await actions_for(session, uri, found[0])
    assert [(a.title, a.is_preferred) for a in actions] == [
        ("Add 'file://'", True), ("Ignore EY622 on this line", None)]
    assert edits_of(session, actions[0]) == {uri: [types.TextEdit(
        session.rng(uri, 4, 35, 62), '"file://prompts/support-grader.md"')]}
    session.close(uri)


def _changes(edit: types.WorkspaceEdit) -> dict[str, list[types.TextEdit]]:
    if edit.document_changes:
        return {c.text_document.uri: list(c.edits) for c in edit.document_changes
                if isinstance(c, types.TextDocumentEdit)}
    return {uri: list(edits) for uri, edits in (edit.changes or {}).items()}


async def test_a_test_id_and_its_depends_on_entries_rename_together(session: Session) -> None:
    uri = session.open("agentv/evals/chain.eval.yaml", (
        "tests:\n  - id: réglage\n    input: 😀 prepare\n    criteria: prepares\n"
        "  - id: pay\n    input: buy\n    criteria: buys\n"
        "    depends_on: [\"réglage\"]  # 😀\n"))
    await session.diagnostics(uri)
    prepared = await session.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(doc(uri), session.pos(uri, 7, 19)))
    assert prepared == types.PrepareRenamePlaceholder(range=session.rng(uri, 7, 18, 25),
                                                      placeholder="réglage")
    found = await session.client.text_document_references_async(types.ReferenceParams(
        text_document=doc(uri), position=session.pos(uri, 1, 9),
        context=types.ReferenceContext(include_declaration=True)))
    assert [(r.uri, r.range) for r in found or []] == [
        (uri, session.rng(uri, 1, 8, 15)), (uri, session.rng(uri, 7, 18, 25))]
    edit = await session.client.text_document_rename_async(
        types.RenameParams(doc(uri), session.pos(uri, 1, 9), "setup"))
    assert edit is not None
    assert _changes(edit) == {uri: [types.TextEdit(session.rng(uri, 1, 8, 15), "setup"),
                                    types.TextEdit(session.rng(uri, 7, 18, 25), "setup")]}
    session.close(uri)
