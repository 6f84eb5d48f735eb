"""promptfoo over real LSP (every client the session runs): find references from a prompt file
to the configs naming it, and the paths rewritten when the editor moves that file
(`workspace/willRenameFiles`)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from tests.lsp.conftest import Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

CONFIG = "promptfoo/clean/promptfooconfig.yaml"
PROMPT = "promptfoo/clean/prompts/support.txt"


async def test_references_from_a_prompt_file_are_its_configs(session: Session) -> None:
    uri = session.open(PROMPT)
    refs = await session.client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri), position=types.Position(0, 0),
        context=types.ReferenceContext(include_declaration=False)))
    config = session.uri(CONFIG)
    assert [(r.uri, r.range) for r in refs or []] == [(config, session.rng(config, 3, 4, 30))]
    session.close(uri)


async def test_moving_a_prompt_file_rewrites_the_config(session: Session) -> None:
    old, new = session.uri(PROMPT), session.uri("promptfoo/clean/prompts/support-v2.txt")
    edit = await session.client.workspace_will_rename_files_async(types.RenameFilesParams(
        files=[types.FileRename(old_uri=old, new_uri=new)]))
    assert edit is not None
    config = session.uri(CONFIG)
    if edit.document_changes is not None:
        changes = {c.text_document.uri: c.edits for c in edit.document_changes
                   if isinstance(c, types.TextDocumentEdit)}
    else:
        changes = dict(edit.changes or {})
    assert [(e.range, e.new_text) for e in changes[config]] == [
        (session.rng(config, 3, 11, 30), "prompts/support-v2.txt")]
    assert list(changes) == [config]
