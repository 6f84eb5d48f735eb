"""Diagnostics end to end: push (Neovim) and pull (VS Code), UTF-8 and UTF-16."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from tests.lsp.conftest import Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOCS = "https://github.com/evalyaml/evalyaml/blob/main/docs/diagnostics.md"

# A judge whose only finding sits after emoji, CJK and a tab, in a file with CRLF line ends.
UNICODE_JUDGE = (
    "id: unicode_judge\r\n"
    'version: "1.0.0"\r\n'
    "score_type: binary\r\n"
    'template: "😀 日本\t語 {{ outptu }} ✓"\r\n'
)

EXTRA_FILES = {
    # a closed file with a finding: reported without being opened
    "datasets/closed_with_typo.yaml": (
        "questions:\n"
        "  - id: one\n"
        "    input: What is the refund window?\n"
        "    expected_tool:\n"
        "      - lookup\n"
    ),
}


async def test_finding_with_code_link_and_exact_range(session: Session) -> None:
    uri = session.open("mistakes/datasets/EY205-typo-expecteed_facts.yaml")
    diagnostics = await session.diagnostics(uri)
    assert len(diagnostics) == 1
    found = diagnostics[0]
    assert found.code == "EY205"
    assert found.source == "evalyaml"
    assert found.severity == types.DiagnosticSeverity.Warning
    assert found.range == session.rng(uri, 8, 4, 19)
    assert found.message == ("unknown key 'expecteed_facts' in case 'reset_password'; did you "
                             "mean 'expected_facts'? (an unknown key is ignored, so its value "
                             "has no effect)")
    assert found.code_description == types.CodeDescription(href=f"{DOCS}#ey205")
    session.close(uri)


async def test_related_information_in_the_same_file(session: Session) -> None:
    uri = session.open("mistakes/datasets/EY210-duplicate-case-id.yaml")
    diagnostics = await session.diagnostics(uri)
    assert [d.code for d in diagnostics] == ["EY210"]
    assert diagnostics[0].range == session.rng(uri, 7, 8, 22)
    assert list(diagnostics[0].related_information or []) == [types.DiagnosticRelatedInformation(
        types.Location(uri, session.rng(uri, 5, 8, 22)), "first case 'api_rate_limit'")]
    session.close(uri)


async def test_related_information_in_another_file(session: Session) -> None:
    # mistakes/ is excluded from the index by the example config: opening both files puts
    # them in it (an open file is always checked)
    other = session.open("mistakes/rubrics/EY307-composite_cycle_b.yaml")
    await session.diagnostics(other)
    uri = session.open("mistakes/rubrics/EY307-composite_cycle_a.yaml")
    diagnostics = await session.diagnostics(uri)
    assert [d.code for d in diagnostics] == ["EY307"]
    assert diagnostics[0].range == session.rng(uri, 9, 16, 46)
    assert diagnostics[0].message.startswith("composite cycle: rubric/composite_cycle_a@1.0.0 ->")
    related = diagnostics[0].related_information or []
    assert [r.location for r in related] == [types.Location(other, session.rng(other, 8, 16, 46))]
    session.close(uri)
    session.close(other)


async def test_ranges_after_emoji_cjk_tab_with_crlf(session: Session) -> None:
    (session.root / "judges" / "unicode_judge.yaml").write_bytes(UNICODE_JUDGE.encode())
    uri = session.open("judges/unicode_judge.yaml", UNICODE_JUDGE)
    diagnostics = await session.diagnostics(uri)
    assert [d.code for d in diagnostics] == ["EY400"]
    start = session.find(uri, "outptu")
    assert diagnostics[0].range == types.Range(start, session.find(uri, "outptu", offset=6))
    # the column is counted in the negotiated units, not in code points
    line = session.line_text(uri, 3)
    column = line.index("outptu")
    expected = {"utf-16": column + 1, "utf-8": len(line[:column].encode())}[session.encoding]
    assert start.character == expected
    session.close(uri)


async def test_fixed_finding_disappears(session: Session) -> None:
    uri = session.open("mistakes/datasets/EY205-typo-expected_tool.yaml")
    assert [d.code for d in await session.diagnostics(uri)] == ["EY205"]
    session.replace(uri, "expected_tool:", "expected_tools:")
    assert await session.diagnostics(uri) == []
    session.close(uri)


async def test_results_for_older_versions_are_dropped(session: Session) -> None:
    uri = session.open("mistakes/datasets/EY203-bad-expected-format.yaml")
    await session.diagnostics(uri)
    old = "yaml"
    for value in ("yml", "jso", "json", "txt", "text", "xml"):
        session.replace(uri, f"format: {old}", f"format: {value}")
        old = value
    final = await session.diagnostics(uri)
    assert [d.code for d in final] == ["EY203"]
    assert "'xml' is not a valid format" in final[0].message
    if not session.pull:
        versions = [p.version for p in session.client.published  # type: ignore[attr-defined]
                    if p.uri == uri]
        assert versions == sorted(versions)
        assert versions[-1] == session.versions[uri]
    session.close(uri)


async def test_closed_file_reported_after_indexing(session: Session) -> None:
    uri = session.uri("datasets/closed_with_typo.yaml")
    diagnostics = await session.closed_diagnostics(uri, lambda d: len(d) == 1)
    assert diagnostics[0].code == "EY205"
    assert diagnostics[0].range == session.rng(uri, 3, 4, 17)


async def test_rubric_edit_rechecks_open_and_closed_dependents(session: Session) -> None:
    dataset = session.open("datasets/support_faq.yaml")
    assert await session.diagnostics(dataset) == []
    closed = session.uri("datasets/agent_tasks.yaml")
    rubric = session.open("rubrics/tool_use.yaml")
    factuality = session.open("rubrics/factuality.yaml")
    await session.diagnostics(rubric)

    # tool_use 1.0.0 -> 2.0.0: every pin in the closed agent_tasks.yaml stops matching
    session.replace(rubric, 'version: "1.0.0"', 'version: "2.0.0"')
    broken = await session.closed_diagnostics(closed, lambda d: len(d) == 6)
    assert {d.code for d in broken} == {"EY302"}
    assert broken[0].range == session.rng(closed, 13, 16, 40)

    # factuality 1.2.0 -> 3.0.0: the open dataset's @1.2 pins break
    session.replace(factuality, 'version: "1.2.0"', 'version: "3.0.0"')
    if session.pull:
        async def pulled() -> list[types.Diagnostic]:
            for _ in range(200):
                found = await session.diagnostics(dataset)
                if found:
                    return found
                await asyncio.sleep(0.05)
            raise AssertionError("dataset never re-checked")
        broken_open = await pulled()
    else:
        broken_open = await session.pushed(dataset, 1, lambda d: len(d) > 0)
    assert "EY302" in {d.code for d in broken_open}

    # back to the original versions: findings disappear, in open and closed files
    session.replace(rubric, 'version: "2.0.0"', 'version: "1.0.0"')
    session.replace(factuality, 'version: "3.0.0"', 'version: "1.2.0"')
    assert await session.closed_diagnostics(closed, lambda d: not d) == []
    if not session.pull:
        assert await session.pushed(dataset, 1, lambda d: not d) == []
    for uri in (dataset, rubric, factuality):
        session.close(uri)


async def test_pull_result_ids(session: Session) -> None:
    if not session.pull:
        pytest.skip("pull diagnostics only")
    uri = session.open("mistakes/rubrics/EY212-invalid_regex.yaml")
    identifier = types.TextDocumentIdentifier(uri)
    first = await session.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(identifier))
    assert isinstance(first, types.RelatedFullDocumentDiagnosticReport)
    assert [d.code for d in first.items] == ["EY212"]
    assert first.result_id
    again = await session.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(identifier, previous_result_id=first.result_id))
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    assert again.result_id == first.result_id
    session.replace(uri, "'Order #(\\d{6}'", "'Order #(\\d{6})'")
    fixed = await session.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(identifier, previous_result_id=first.result_id))
    assert isinstance(fixed, types.RelatedFullDocumentDiagnosticReport)
    assert list(fixed.items) == []
    assert fixed.result_id != first.result_id
    session.close(uri)


async def test_closing_an_excluded_file_clears_its_diagnostics(session: Session) -> None:
    if session.pull:
        pytest.skip("the client drops pulled diagnostics of closed documents itself")
    uri = session.open("mistakes/judges/EY402-tpr_out_of_range.yaml")
    assert [d.code for d in await session.diagnostics(uri)] == ["EY402"]
    session.close(uri)
    assert await session.pushed(uri, None, lambda d: not d) == []
