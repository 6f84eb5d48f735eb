"""Quick fixes: each arrives as one WorkspaceEdit (one undo step in the editor)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from tests.lsp.conftest import Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

EXTRA_FILES = {
    "datasets/old_pin.yaml": (
        "questions:\n"
        "  - id: reset_password\n"
        "    input: How do I reset my password?\n"
        "    rubric_ref: rubric/factuality@1.1\n"
    ),
    "rubrics/needs_scoring.yaml": (
        "id: needs_scoring\n"
        'version: "1.0.0"\n'
        "checks:\n"
        "  - kind: format\n"
        "    format: json\n"
    ),
}


async def actions_for(session: Session, uri: str, diagnostic: types.Diagnostic
                      ) -> list[types.CodeAction]:
    result = await session.client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), diagnostic.range,
        types.CodeActionContext(diagnostics=[diagnostic],
                                only=[types.CodeActionKind.QuickFix])))
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


def edits_of(session: Session, action: types.CodeAction) -> dict[str, list[types.TextEdit]]:
    """The action's edits by uri; document changes carry the open document's version."""
    edit = action.edit
    assert edit is not None
    if session.name == "vscode":
        assert edit.changes is None and edit.document_changes is not None
        out: dict[str, list[types.TextEdit]] = {}
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            assert change.text_document.version == session.versions[change.text_document.uri]
            out[change.text_document.uri] = list(change.edits)  # type: ignore[arg-type]
        return out
    assert edit.document_changes is None and edit.changes is not None
    return {uri: list(edits) for uri, edits in edit.changes.items()}


async def only_finding(session: Session, rel: str, code: str
                       ) -> tuple[str, types.Diagnostic]:
    uri = session.open(rel)
    diagnostics = [d for d in await session.diagnostics(uri) if d.code == code]
    assert len(diagnostics) == 1
    return uri, diagnostics[0]


async def test_did_you_mean(session: Session) -> None:
    uri, diagnostic = await only_finding(
        session, "mistakes/datasets/EY205-typo-expecteed_facts.yaml", "EY205")
    actions = await actions_for(session, uri, diagnostic)
    assert [(a.title, a.kind, a.is_preferred) for a in actions] == [
        ("Rename to 'expected_facts'", types.CodeActionKind.QuickFix, True),
        ("Ignore EY205 on this line", types.CodeActionKind.QuickFix, None)]
    assert actions[0].diagnostics is not None and actions[0].diagnostics[0].code == "EY205"
    assert edits_of(session, actions[0]) == {
        uri: [types.TextEdit(session.rng(uri, 8, 4, 19), "expected_facts")]}
    session.close(uri)


async def test_pin_an_unpinned_reference(session: Session) -> None:
    uri, diagnostic = await only_finding(
        session, "mistakes/datasets/EY303-unpinned-ref.yaml", "EY303")
    actions = await actions_for(session, uri, diagnostic)
    assert [(a.title, a.is_preferred) for a in actions] == [
        ("Pin to @1.2", True), ("Pin to exact version @1.2.0", None),
        ("Ignore EY303 on this line", None)]
    end = session.rng(uri, 8, 33, 33)
    assert edits_of(session, actions[0]) == {uri: [types.TextEdit(end, "@1.2")]}
    assert edits_of(session, actions[1]) == {uri: [types.TextEdit(end, "@1.2.0")]}
    session.close(uri)


async def test_bump_to_the_newest_version(session: Session) -> None:
    uri, diagnostic = await only_finding(session, "datasets/old_pin.yaml", "EY304")
    assert diagnostic.severity == types.DiagnosticSeverity.Information
    actions = await actions_for(session, uri, diagnostic)
    assert [a.title for a in actions] == ["Update pin to @1.2", "Ignore EY304 on this line"]
    assert edits_of(session, actions[0]) == {
        uri: [types.TextEdit(session.rng(uri, 3, 34, 37), "1.2")]}
    session.close(uri)


async def test_quote_a_numeric_version(session: Session) -> None:
    uri, diagnostic = await only_finding(
        session, "mistakes/rubrics/EY208-numeric_version.yaml", "EY208")
    actions = await actions_for(session, uri, diagnostic)
    assert [a.title for a in actions] == ['Quote the version as "1.10.0"',
                                         "Ignore EY208 on this line"]
    assert edits_of(session, actions[0]) == {
        uri: [types.TextEdit(session.rng(uri, 4, 9, 13), '"1.10.0"')]}
    session.close(uri)


async def test_insert_missing_required_keys(session: Session) -> None:
    uri, diagnostic = await only_finding(
        session, "mistakes/datasets/EY201-missing-input.yaml", "EY201")
    actions = await actions_for(session, uri, diagnostic)
    assert [a.title for a in actions] == ["Insert missing key 'input'", "Ignore EY201 on this line"]
    end = len(session.line_text(uri, 7))  # after the case's last line, below the caret comment
    assert edits_of(session, actions[0]) == {
        uri: [types.TextEdit(session.rng(uri, 7, end, end), "\n    input: ")]}
    session.close(uri)
    uri, diagnostic = await only_finding(session, "rubrics/needs_scoring.yaml", "EY201")
    actions = await actions_for(session, uri, diagnostic)
    assert [a.title for a in actions] == ["Insert missing key 'scoring'",
                                         "Ignore EY201 on this line"]
    assert edits_of(session, actions[0]) == {
        uri: [types.TextEdit(session.rng(uri, 4, 16, 16), "\nscoring: ")]}
    session.close(uri)


async def test_ignore_on_this_line_silences_the_finding(session: Session) -> None:
    """The suppression the quick fix writes is the one the server honours: applied, the finding
    goes; on a line that then has no such finding it is itself reported (EY322), with a fix
    that removes it."""
    uri, diagnostic = await only_finding(
        session, "mistakes/datasets/EY303-unpinned-ref.yaml", "EY303")
    actions = await actions_for(session, uri, diagnostic)
    ignore = next(a for a in actions if a.title == "Ignore EY303 on this line")
    line = session.line_text(uri, 8)
    end = session.rng(uri, 8, len(line), len(line))
    assert edits_of(session, ignore) == {uri: [types.TextEdit(end, "  # evalyaml: ignore[EY303]")]}
    session.edit(uri, (8, len(line)), (8, len(line)), "  # evalyaml: ignore[EY303]")
    assert [d.code for d in await session.diagnostics(uri)] == []
    session.edit(uri, (8, 33), (8, 33), "@1.2")
    found = await session.diagnostics(uri)
    assert [(d.code, d.range) for d in found] == [("EY322", session.rng(uri, 8, 58, 63))]
    actions = await actions_for(session, uri, found[0])
    assert [a.title for a in actions] == ["Remove unused suppression"]
    assert edits_of(session, actions[0]) == {uri: [types.TextEdit(session.rng(uri, 8, 37, 64), "")]}
    session.close(uri)


async def test_no_actions_outside_findings(session: Session) -> None:
    uri = session.open("datasets/support_faq.yaml")
    await session.diagnostics(uri)
    result = await session.client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), session.rng(uri, 5, 0, 5),
        types.CodeActionContext(diagnostics=[])))
    assert not result
    session.close(uri)
