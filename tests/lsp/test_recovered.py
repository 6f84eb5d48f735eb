"""Editor features over real LSP on documents with a syntax error (issue #15): the findings
around the broken line, completion, hover, definition and document symbols all read the tree
recovered around it, in every format whose documents are parsed whole (an AgentV suite, an
Apastra suite, a contract rubric) and in a broken JSON document (an EEE aggregate)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from tests.lsp.conftest import EXAMPLES, Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

AGENTV = "agentv/evals/support.eval.yaml"
APASTRA = "apastra/promptops/suites/regression.yaml"
AGGREGATE = "eee/data/arith-demo/acme/tiny-model/3b1f6c2e-7a4d-4e8b-9c5f-2d1e0a9b8c7d.json"


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


def broken(rel: str, old: str, new: str) -> str:
    text = (EXAMPLES / rel).read_text("utf-8")
    assert text.count(old) == 1
    return text.replace(old, new)


def names(symbols: list[types.DocumentSymbol] | list[types.SymbolInformation] | None
          ) -> list[str]:
    assert symbols is not None
    return [s.name for s in symbols]


async def _symbols(session: Session, uri: str) -> list[str]:
    return names(await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(doc(uri))))


async def test_a_broken_agentv_suite_keeps_findings_symbols_hover_and_definition(
        session: Session) -> None:
    clean = session.open(AGENTV)
    assert await session.diagnostics(clean) == []
    expected_symbols = await _symbols(session, clean)
    session.close(clean)
    text = broken(AGENTV, "    criteria: States the 30-day return window.\n",
                  "    criteria: States: the 30-day return window.\n")
    text = text.replace("description: Refund", "descripton: Refund", 1)
    uri = session.open("agentv/evals/broken.eval.yaml", text)
    found = await session.diagnostics(uri)
    assert [(d.code, d.range) for d in found] == [
        ("EY601", session.rng(uri, 1, 0, 10)), ("EY101", session.rng(uri, 8, 20, 47))]
    assert await _symbols(session, uri) == expected_symbols
    at = session.find(uri, "file://prompts", offset=3)
    shown = await session.client.text_document_hover_async(types.HoverParams(doc(uri), at))
    assert shown is not None and isinstance(shown.contents, types.MarkupContent)
    assert shown.contents.value.startswith("**prompts/support-grader.md**")
    prompt = session.uri("agentv/evals/prompts/support-grader.md")
    assert await session.client.text_document_definition_async(
        types.DefinitionParams(doc(uri), at)) == [
            types.Location(prompt, types.Range(types.Position(0, 0), types.Position(0, 0)))]
    session.close(uri)


async def test_completion_in_a_suite_broken_elsewhere(session: Session) -> None:
    text = broken(AGENTV, "    criteria: States the 30-day return window.\n",
                  "    criteria: States: the 30-day return window.\n")
    text = text.replace("      - type: contains\n", "      - type: ll\n", 1)
    uri = session.open("agentv/evals/typing.eval.yaml", text)
    line = text.split("\n").index("      - type: ll")
    result = await session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, line, 16)))
    assert result is not None
    items = result.items if isinstance(result, types.CompletionList) else result
    assert "llm-grader" in [i.label for i in items]
    session.close(uri)


async def test_a_broken_apastra_suite_still_names_its_prompt_and_evaluators(
        session: Session) -> None:
    text = broken(APASTRA, "tier: regression\n", "tier: [regression\n")
    text = text.replace("  - exact-match\n", "  - exact-mtach\n").replace(
        "id: support-regression", "id: broken-regression")
    uri = session.open("apastra/promptops/suites/broken.yaml", text)
    found = await session.diagnostics(uri)
    assert [(d.code, d.range.start.line) for d in found] == [("EY301", 7), ("EY101", 10)], \
        [(d.code, d.range, d.message) for d in found]
    at = session.find(uri, "prompt: summarize", offset=10)
    prompt = session.uri("apastra/promptops/prompts/summarize.yaml")
    assert await session.client.text_document_definition_async(
        types.DefinitionParams(doc(uri), at)) == [
            types.Location(prompt, session.rng(prompt, 0, 4, 13))]
    shown = await session.client.text_document_hover_async(types.HoverParams(doc(uri), at))
    assert shown is not None and isinstance(shown.contents, types.MarkupContent)
    assert "summarize" in shown.contents.value
    session.close(uri)


async def test_a_broken_rubric_is_still_a_definition_with_symbols(session: Session) -> None:
    rubric = "rubrics/order_status.yaml"
    original = (EXAMPLES / rubric).read_text("utf-8")
    clean = session.open(rubric)
    expected_symbols = await _symbols(session, clean)
    session.close(clean)
    lines = original.split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("description:"))
    lines[index] = "description: broken: here"
    uri = session.open(rubric, "\n".join(lines))  # reopened: wait for this text's findings
    found = await session.until(uri, lambda ds: [d.code for d in ds] == ["EY101"])
    assert found[0].range == session.rng(uri, index, 19, 25)
    assert await _symbols(session, uri) == expected_symbols
    session.close(uri)


async def test_a_broken_json_aggregate_keeps_its_symbols_and_findings(
        session: Session) -> None:
    clean = session.open(AGGREGATE)
    expected_symbols = await _symbols(session, clean)
    session.close(clean)
    text = broken(AGGREGATE, '"evaluation_timestamp": "1767225600",',
                  '"evaluation_timestamp": 1767225600 oops,')
    uri = session.open(AGGREGATE, text)
    found = await session.until(uri, lambda ds: [d.code for d in ds] == ["EY110"])
    assert found[0].range == session.rng(uri, 3, 37, 38)
    assert await _symbols(session, uri) == expected_symbols
    session.close(uri)
    assert Path(uri.removeprefix("file://")).read_text("utf-8") != text
