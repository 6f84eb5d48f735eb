"""Completion on half-typed lines: keys, enum values, references, template variables, bundles."""

from __future__ import annotations

import pytest
from lsprotocol import types
from tests.lsp.conftest import Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

CASE_KEYS = ["id", "input", "criteria", "expected", "expected_facts", "expected_tools",
             "rubric_ref", "bundle"]
RUBRIC_IDS = ["rubric/factuality", "rubric/order_status", "rubric/php_snippet", "rubric/safety",
              "rubric/support_quality", "rubric/tool_use"]

EXTRA_FILES = {
    "datasets/bundled.yaml": (
        "questions:\n"
        "  - id: retrieval\n"
        "    input: Which plan includes SSO?\n"
        "    bundle: rag\n"
        "  - id: agentic\n"
        "    input: Reset my password.\n"
        "    bundle: agent\n"
    ),
}


def sorted_items(result: types.CompletionList | list[types.CompletionItem] | None
                 ) -> list[types.CompletionItem]:
    assert result is not None
    items = result.items if isinstance(result, types.CompletionList) else result
    return sorted(items, key=lambda i: i.sort_text or i.label)


async def complete(session: Session, uri: str, position: types.Position
                   ) -> list[types.CompletionItem]:
    return sorted_items(await session.client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), position)))


def edit_of(item: types.CompletionItem) -> types.TextEdit:
    assert isinstance(item.text_edit, types.TextEdit)
    return item.text_edit


async def test_case_keys_required_first_present_left_out(session: Session) -> None:
    text = "questions:\n  - id: a\n    criteria: x\n    exp\n"
    uri = session.open("datasets/typing_keys.yaml", text)
    items = await complete(session, uri, session.pos(uri, 3, 7))
    labels = [i.label for i in items]
    # `input` (required, missing) first; `id` and `criteria` are already there
    assert labels == ["input", "expected", "expected_facts", "expected_tools", "rubric_ref",
                      "bundle"] or labels[0] == "input"
    assert set(labels) == set(CASE_KEYS) - {"id", "criteria"}
    assert labels[0] == "input"
    first = items[0]
    assert first.detail == "required · string"
    assert isinstance(first.documentation, types.MarkupContent)
    assert first.documentation.value == "The prompt or question sent to the system under test."
    assert edit_of(first).range == session.rng(uri, 3, 4, 7)
    by_label = {i.label: i for i in items}
    assert edit_of(by_label["expected_facts"]).new_text == "expected_facts:\n      - $0"
    assert edit_of(by_label["rubric_ref"]).new_text == "rubric_ref: $0"
    assert edit_of(by_label["expected"]).new_text == "expected:\n      $0"
    session.close(uri)


async def test_new_list_item_offers_required_keys(session: Session) -> None:
    text = "questions:\n  - id: a\n    input: b\n  - \n"
    uri = session.open("datasets/typing_item.yaml", text)
    items = await complete(session, uri, session.pos(uri, 3, 4))
    assert [i.label for i in items[:2]] == ["id", "input"]
    assert {i.label for i in items} == set(CASE_KEYS)
    assert edit_of(items[0]).range == session.rng(uri, 3, 4, 4)
    session.close(uri)


async def test_check_kind_inserts_required_fields(session: Session) -> None:
    text = "id: typing\nversion: \"1.0.0\"\nchecks:\n  - id: c\n    kind: re\nscoring:\n" \
           "  combine: all_pass\n"
    uri = session.open("rubrics/typing.yaml", text)
    items = await complete(session, uri, session.pos(uri, 4, 12))
    assert [i.label for i in items] == [
        "must_contain_any", "must_not_contain", "regex", "json_schema", "php_lint",
        "markdown_structure", "tool_usage", "format", "fact_match", "llm_judge", "composite"]
    by_label = {i.label: i for i in items}
    regex = by_label["regex"]
    assert edit_of(regex).range == session.rng(uri, 4, 10, 12)
    assert edit_of(regex).new_text == "regex\n    pattern: '${1}'"
    assert regex.insert_text_format == types.InsertTextFormat.Snippet
    assert edit_of(by_label["must_contain_any"]).new_text == \
        "must_contain_any\n    values:\n      - ${1}"
    assert edit_of(by_label["php_lint"]).new_text == "php_lint$0"
    assert regex.detail == "regex check · adds pattern"
    assert isinstance(regex.documentation, types.MarkupContent)
    assert regex.documentation.value == "Tests the output against a regular expression."
    session.close(uri)


@pytest.mark.parametrize(("text", "line", "column", "expected"), [
    ("id: t\nversion: \"1.0.0\"\nchecks:\n  - kind: format\nscoring:\n  combine: \n",
     5, 11, ["all_pass", "any_pass", "weighted_avg", "min", "max", "median"]),
    ("id: t\nversion: \"1.0.0\"\nchecks:\n  - kind: format\n    format: j\nscoring:\n"
     "  combine: all_pass\n", 4, 13, ["json", "text"]),
    ("id: t\nversion: \"1.0.0\"\nchecks:\n  - kind: llm_judge\n    aggregation: \n"
     "scoring:\n  combine: all_pass\n", 4, 17,
     ["mean", "weighted_mean", "majority", "min", "max", "unanimous"]),
    ("id: t\nversion: \"1.0.0\"\nchecks:\n  - kind: tool_usage\n    allow_extra: \n"
     "scoring:\n  combine: all_pass\n", 4, 17, ["true", "false"]),
])
async def test_rubric_enum_values(session: Session, text: str, line: int, column: int,
                                  expected: list[str]) -> None:
    uri = session.open("rubrics/typing_enum.yaml", text)
    items = await complete(session, uri, session.pos(uri, line, column))
    assert [i.label for i in items] == expected
    session.close(uri)


async def test_judge_score_type_and_dataset_format(session: Session) -> None:
    judge = session.open("judges/typing.yaml", "id: typing\nscore_type: \ntemplate: x\n")
    items = await complete(session, judge, session.pos(judge, 1, 12))
    assert [i.label for i in items] == ["binary", "continuous", "levels"]
    session.close(judge)
    dataset = session.open("datasets/typing_format.yaml",
                           "questions:\n  - id: a\n    input: b\n    expected:\n      format:\n")
    items = await complete(session, dataset, session.pos(dataset, 4, 13))
    assert [i.label for i in items] == ["json", "text"]
    # right after the colon: the value gets its space
    assert edit_of(items[0]).new_text == " json"
    assert edit_of(items[0]).range == session.rng(dataset, 4, 13, 13)
    session.close(dataset)


async def test_reference_ids_then_versions_newest_first(session: Session) -> None:
    text = "questions:\n  - id: a\n    input: b\n    rubric_ref: rubric/fa\n"
    uri = session.open("datasets/typing_ref.yaml", text)
    items = await complete(session, uri, session.pos(uri, 3, 25))
    assert [i.label for i in items] == RUBRIC_IDS
    first = items[0]
    assert edit_of(first) == types.TextEdit(session.rng(uri, 3, 16, 25), "rubric/factuality@")
    assert first.detail == ("The answer states the expected facts and nothing the reference "
                            "contradicts.")
    session.replace(uri, "rubric/fa\n", "rubric/factuality@\n")
    items = await complete(session, uri, session.pos(uri, 3, 34))
    assert [i.label for i in items] == ["rubric/factuality@1.2.0", "rubric/factuality@1.1.0"]
    assert edit_of(items[0]) == types.TextEdit(session.rng(uri, 3, 16, 34),
                                               "rubric/factuality@1.2.0")
    assert isinstance(items[1].documentation, types.MarkupContent)
    assert items[1].documentation.value.startswith(
        "**rubric/factuality@1.1.0** · `rubrics/factuality-1.1.yaml`")
    session.close(uri)


async def test_quoted_reference_and_jury_judges(session: Session) -> None:
    text = ("id: t\nversion: \"1.0.0\"\nchecks:\n  - kind: llm_judge\n    jury:\n"
            "      - judge_prompt_ref: \"judge/\"\n")
    uri = session.open("rubrics/typing_jury.yaml", text)
    items = await complete(session, uri, session.pos(uri, 5, 32))
    assert [i.label for i in items] == ["judge/accuracy", "judge/harm", "judge/policy",
                                        "judge/tone"]
    assert edit_of(items[0]) == types.TextEdit(session.rng(uri, 5, 27, 33), "judge/accuracy@")
    session.close(uri)


async def test_template_variables(session: Session) -> None:
    text = "id: tmpl\ntemplate: |\n  Question: {{ input }}\n  😀 日本 answer: {{ ou\n"
    uri = session.open("judges/tmpl.yaml", text)
    items = await complete(session, uri, session.pos(uri, 3, 20))
    assert [i.label for i in items] == ["input", "output", "expected", "context"]
    assert edit_of(items[1]) == types.TextEdit(session.rng(uri, 3, 18, 20), "output }}")
    assert isinstance(items[1].documentation, types.MarkupContent)
    assert items[1].documentation.value == "The answer being judged: what the system under " \
        "test replied."
    session.close(uri)


async def test_bundle_names(session: Session) -> None:
    text = "questions:\n  - id: a\n    input: b\n    bundle: \n"
    uri = session.open("datasets/typing_bundle.yaml", text)
    items = await complete(session, uri, session.pos(uri, 3, 12))
    assert [i.label for i in items] == ["rag", "agent"]
    session.close(uri)


async def test_nothing_in_comments_and_free_text(session: Session) -> None:
    text = "questions:\n  - id: a  # note\n    input: some text\n"
    uri = session.open("datasets/typing_free.yaml", text)
    assert await complete(session, uri, session.pos(uri, 1, 15)) == []
    assert await complete(session, uri, session.pos(uri, 2, 20)) == []
    session.close(uri)
