"""Apastra PromptOps over real LSP (stdio, both client profiles and position encodings):
a schema diagnostic on a JSONL line with an emoji before the mistake, the stale
digest's one-click fix, a cross check re-published when the JSONL it reads is edited,
completion of ids and enum values, hover from the referenced evaluator, definition and rename
of an evaluator id. All of it through the format's registration."""

from __future__ import annotations

import pytest
from lsprotocol import types
from tests.lsp.conftest import Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

SUITE = "apastra/promptops/suites/regression.yaml"
EVALUATOR = "apastra/promptops/evaluators/exact-match.yaml"
MANIFEST = "apastra/promptops/datasets/support-faq/dataset-manifest.yaml"
CASES = "apastra/promptops/datasets/support-faq/dataset.jsonl"


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


def _items(result: object) -> list[types.CompletionItem]:
    assert result is not None
    return list(result.items if isinstance(result, types.CompletionList)
                else result)  # type: ignore[arg-type]


async def test_a_schema_finding_on_a_jsonl_line_after_an_emoji(session: Session) -> None:
    """The column in the client's units (the same finding in YAML is a fixture:
    `tests/formats/apastra/schema.fixture`)."""
    line = '{"case_id": "🐍-1", "inputs": {"text": "x"}, "asert": []}\n'
    uri = session.open("apastra/promptops/datasets/new.jsonl", line)
    found = await session.diagnostics(uri)
    start = line.index('"asert"')
    assert [(d.code, d.range) for d in found] == [
        ("EY800", session.rng(uri, 0, start, start + 7))]
    assert found[0].message == ("line 1 does not allow 'asert'; did you mean 'assert'? "
                                "(dataset-case.schema.json)")
    session.close(uri)


async def test_a_stale_self_digest_is_fixed_in_one_click(session: Session) -> None:
    body = (session.root / EVALUATOR).read_text("utf-8").replace("Exact string", "Strict")
    uri = session.open(EVALUATOR, body)
    found = await session.diagnostics(uri)
    assert [d.code for d in found] == ["EY802"]
    digest_line = body.split("\n").index(next(x for x in body.split("\n")
                                              if x.startswith("digest:")))
    assert found[0].range == session.rng(uri, digest_line, 8, 8 + 73)
    actions = await session.client.text_document_code_action_async(types.CodeActionParams(
        doc(uri), found[0].range, types.CodeActionContext(diagnostics=found)))
    assert actions
    fix = next(a for a in actions if isinstance(a, types.CodeAction) and a.is_preferred)
    assert fix.edit is not None
    changes = fix.edit.changes or {
        c.text_document.uri: c.edits for c in fix.edit.document_changes or ()  # type: ignore[union-attr]
    }
    (edit,) = changes[uri]
    assert edit.new_text.startswith('"sha256:') and edit.range == found[0].range
    session.close(uri)


async def test_editing_the_jsonl_republishes_the_manifest_digest(session: Session) -> None:
    manifest = session.open(MANIFEST)
    assert await session.diagnostics(manifest) == []
    cases = session.open(CASES)
    session.replace(cases, "Customer asks", "A customer asks")
    found = await session.until(manifest, lambda ds: [d.code for d in ds] == ["EY802"])
    assert "dataset.jsonl (its lines, canonicalised) hashes to sha256:" in found[0].message
    # The one-click fix writes the JSONL's digest, as Apastra computes it, over the old one.
    from evalyaml.formats.apastra.digests import of_jsonl
    edited = (session.root / CASES).read_text("utf-8").replace("Customer asks",
                                                               "A customer asks")
    computed = of_jsonl(edited)
    assert computed is not None
    actions = await session.client.text_document_code_action_async(types.CodeActionParams(
        doc(manifest), found[0].range, types.CodeActionContext(diagnostics=found)))
    fix = next(a for a in actions or () if isinstance(a, types.CodeAction) and a.is_preferred)
    assert fix.edit is not None
    changes = fix.edit.changes or {
        c.text_document.uri: c.edits for c in fix.edit.document_changes or ()  # type: ignore[union-attr]
    }
    (edit,) = changes[manifest]
    assert edit.range == found[0].range and computed.script in edit.new_text
    session.close(cases)
    session.close(manifest)


async def test_completion_of_evaluator_ids_and_tiers(session: Session) -> None:
    uri = session.open("apastra/promptops/suites/new.yaml",
                       "id: new\nevaluators:\n  - \ntier: \n")
    ids = _items(await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, 2, 4))))
    assert [i.label for i in ids] == ["exact-match", "keyword-recall"]
    tiers = _items(await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, 3, 6))))
    assert [i.label for i in tiers] == ["smoke", "regression", "full", "release-candidate"]
    session.close(uri)


async def test_hover_definition_and_rename_of_an_evaluator_id(session: Session) -> None:
    uri = session.open(SUITE)
    at = session.find(uri, "exact-match", offset=2)
    hover = await session.client.text_document_hover_async(types.HoverParams(doc(uri), at))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "deterministic evaluator · metrics: `exact_match_score`" in hover.contents.value
    evaluator = session.uri(EVALUATOR)
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(doc(uri), at))
    assert found == [types.Location(evaluator, session.rng(evaluator, 0, 4, 15))]
    edit = await session.client.text_document_rename_async(
        types.RenameParams(doc(uri), at, "exact-match-v2"))
    assert edit is not None
    changes = edit.changes or {
        c.text_document.uri: c.edits for c in edit.document_changes or ()  # type: ignore[union-attr]
    }
    assert set(changes) >= {uri, evaluator}
    session.close(uri)


async def test_completion_in_a_jsonl_row_offers_assertion_types(session: Session) -> None:
    uri = session.open("apastra/promptops/datasets/new.jsonl",
                       '{"case_id": "a", "inputs": {}, "assert": [{"type": ""}]}\n')
    found = _items(await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, 0, 52))))
    assert [i.label for i in found][:3] == ["equals", "contains", "icontains"]
    assert found[0].text_edit is not None and found[0].text_edit.new_text == '"equals"'
    session.close(uri)
