"""The JSON cursor: completion and hover inside JSON objects and JSONL rows, from the kind's
schema (for Every Eval Ever, the schema of the version the file or the row declares)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalyaml.formats.eee import AGGREGATE, SAMPLES
from evalyaml.ide import json_features
from evalyaml.ide.context import ITEM
from evalyaml.ide.json_cursor import Slot, cursor_at
from evalyaml.ide.source import Text
from evalyaml.syntax.text import Position

ROWS = Path("data/c/d/m/0b6f4d2a-8c1e-4f3a-9d5b-2e7c6a1f0b3d_samples.jsonl")
AGG = Path("data/c/d/m/0b6f4d2a-8c1e-4f3a-9d5b-2e7c6a1f0b3d.json")


def at(text: str) -> tuple[str, Position]:
    """The text without its `|`, and the cursor's position there."""
    offset = text.index("|")
    clean = text[:offset] + text[offset + 1:]
    before = clean[:offset]
    line = before.count("\n")
    return clean, Position(line, offset - (before.rfind("\n") + 1))


def labels(text: str, path: Path = ROWS, *, snippets: bool = True) -> dict[str, str]:
    clean, pos = at(text)
    kind = SAMPLES if path.suffix == ".jsonl" else AGGREGATE
    doc = Text(clean, path)
    found = json_features.complete(doc, kind, pos, snippets=snippets)
    out = {}
    for item in found:
        span = item.span
        start = doc.lines.offset(span.start)
        end = doc.lines.offset(span.end)
        out[item.label] = clean[:start] + "«" + item.new_text + "»" + clean[end:]
    return out


@pytest.mark.parametrize(("text", "path", "slot", "key"), [
    ('{"sche|', (), Slot.KEY, None),
    ('{"a": "x{[", "b": |', (), Slot.VALUE, "b"),
    ('{"input": {"raw": "q", |}', ("input",), Slot.KEY, None),
    ('[{"a": 1}, {"b": [1, |', (ITEM, "b"), Slot.VALUE, None),
    ('{"a": {"b": 1}, "c": tr|', (), Slot.VALUE, "c"),
    ('{"a": "es\\"caped", "|', (), Slot.KEY, None),
])
def test_the_cursor_reads_the_path_and_the_slot(text: str, path: tuple[object, ...],
                                                slot: Slot, key: str | None) -> None:
    clean, pos = at(text)
    cursor = cursor_at(clean, pos.character)
    assert cursor is not None
    assert (cursor.path, cursor.slot, cursor.key) == (path, slot, key)


def test_keys_of_a_row_required_first_and_present_ones_left_out() -> None:
    found = labels('{"schema_version": "0.3.0", "inter|"}')
    assert "schema_version" not in found
    assert found["interaction_type"] == \
        '{"schema_version": "0.3.0", «"interaction_type": "${1|single_turn,multi_turn,agentic|}"»}'
    assert "messages" in found and "interactions" not in found


def test_a_0_2_0_row_is_offered_its_own_version_s_keys() -> None:
    found = labels('{"schema_version": "0.2.0", |}')
    assert "interactions" in found and "messages" not in found


def test_keys_without_snippets_and_before_a_colon() -> None:
    assert labels('{"|', snippets=False)["sample_id"] == '{«"sample_id": »'
    assert labels('{"sample|": 1}')["sample_id"] == '{«"sample_id"»: 1}'


def test_keys_in_nested_objects_and_array_items() -> None:
    assert {"raw", "reference", "formatted", "choices"} <= set(
        labels('{"schema_version": "0.3.0", "input": {"|'))
    assert {"source", "extracted_value", "extraction_method", "is_terminal"} == set(
        labels('{"schema_version": "0.3.0", "answer_attribution": [{"turn_idx": 0, |'))


def test_enum_values_replace_the_whole_string() -> None:
    found = labels('{"schema_version": "0.3.0", "interaction_type": "si|ngle"}')
    assert found["single_turn"] == \
        '{"schema_version": "0.3.0", "interaction_type": «"single_turn"»}'
    assert set(found) == {"single_turn", "multi_turn", "agentic"}


def test_booleans_and_aggregate_values() -> None:
    found = labels('{"schema_version": "0.3.0", "evaluation": {"is_correct": |', ROWS)
    assert set(found) == {"true", "false"}
    found = labels('{"schema_version": "0.3.0", "source_metadata": {"source_type": "|"}}', AGG)
    assert set(found) == {"documentation", "evaluation_run"}


def test_only_the_cursor_s_line_is_read_in_jsonl() -> None:
    text = '{"schema_version": "0.2.0", "broken": [\n{"schema_version": "0.3.0", "|'
    found = labels(text)
    assert "messages" in found and "schema_version" not in found


def test_hover_on_a_key_and_on_a_value() -> None:
    clean, pos = at('{"schema_version": "0.3.0", "interaction_t|ype": "single_turn"}')
    info = json_features.hover(Text(clean, ROWS), SAMPLES, pos)
    assert info is not None
    assert info.markdown.startswith("**interaction_type** · string · required")
    assert (info.span.start.character, info.span.end.character) == (28, 46)
    clean, pos = at('{"schema_version": "0.3.0", "interaction_type": "single_t|urn"}')
    info = json_features.hover(Text(clean, ROWS), SAMPLES, pos)
    assert info is not None and "One of: `\"single_turn\"`" in info.markdown
    clean, pos = at('{"schema_version": "0.3.0", "nothing_h|ere": 1}')
    assert json_features.hover(Text(clean, ROWS), SAMPLES, pos) is None
