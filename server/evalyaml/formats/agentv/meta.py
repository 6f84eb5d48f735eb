"""What a test looks like to AgentV at run time: its effective metadata and the grader prompt
it gets, for hover. No AgentV code runs; this follows the loader at e43a4d46:

- `extractSuiteMetadataPayload`: a shallow copy of the suite's `metadata` map; a `governance`
  map at the top level replaces `payload.governance` wholesale.
- `mergeSuiteMetadataPayload`: per key, two arrays concatenate suite-first and de-duplicate
  (by the string itself, else by `JSON.stringify`, so `"1"` and `1` collide, and duplicates
  within one side go too); two maps merge recursively; otherwise the test's value wins when
  the test has the key (even `null`), else the suite's is used.
- Grader variables (`llm-grader-prompt.ts`): `{{ name }}` with AgentV's regex; structured
  values render as `JSON.stringify(x, null, 2)`, `_json` ones compact; unknown names stay.
"""

from __future__ import annotations

import json
import re

from evalyaml.syntax.tree import Budget, ExpansionLimit, Node, PyValue, to_python

_BUDGET = 20_000
_VARIABLE = re.compile(r"\{\{\s*([a-zA-Z0-9_]+)\s*\}\}")


def plain(node: Node | None) -> PyValue:
    if node is None:
        return None
    try:
        return to_python(node, Budget(_BUDGET))
    except ExpansionLimit:
        return None


def suite_payload(metadata: PyValue, governance: PyValue) -> dict[str, PyValue]:
    payload: dict[str, PyValue] = dict(metadata) if isinstance(metadata, dict) else {}
    if isinstance(governance, dict):
        payload["governance"] = governance
    return payload


def _dedup_key(value: PyValue) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def merge(suite: dict[str, PyValue], case: PyValue) -> PyValue:
    if not suite:
        return case
    out: dict[str, PyValue] = dict(case) if isinstance(case, dict) else {}
    for key, suite_value in suite.items():
        if key not in out:
            out[key] = suite_value
            continue
        case_value = out[key]
        if isinstance(suite_value, list) and isinstance(case_value, list):
            seen: set[str] = set()
            joined: list[PyValue] = []
            for item in [*suite_value, *case_value]:
                mark = _dedup_key(item)
                if mark not in seen:
                    seen.add(mark)
                    joined.append(item)
            out[key] = joined
        elif isinstance(suite_value, dict) and isinstance(case_value, dict):
            out[key] = merge(suite_value, case_value)
    return out


def pretty(value: PyValue) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def input_text(value: PyValue) -> str:
    """`{{ input }}`: a string as is, an object as formatted JSON, messages role-prefixed."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts: list[str] = []
        for message in value:
            if isinstance(message, dict):
                content = message.get("content")
                text = content if isinstance(content, str) else pretty(content)
                parts.append(f"@[{str(message.get('role', 'user')).capitalize()}]:\n{text}")
        return "\n\n".join(parts)
    if value is None:
        return ""
    return pretty(value)


def render(template: str, values: dict[str, str]) -> str:
    return _VARIABLE.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def grader_values(context: dict[str, PyValue]) -> dict[str, str]:
    expected = context.get("expected_output")
    metadata = context.get("metadata")
    rubrics = context.get("rubrics")
    text = input_text(context.get("input"))
    expected_text = expected if isinstance(expected, str) else \
        "" if expected is None else pretty(expected)
    criteria = context.get("criteria")
    return {
        "input": text, "input_text": text,
        "output": "⟨the agent's answer⟩", "output_text": "⟨the agent's answer⟩",
        "expected_output": expected_text, "expected_output_text": expected_text,
        "criteria": criteria if isinstance(criteria, str) else "",
        "metadata": pretty(metadata) if metadata else "",
        "metadata_json": json.dumps(metadata, separators=(",", ":"), ensure_ascii=False)
        if metadata else "",
        "rubrics": pretty(rubrics) if rubrics else "",
        "rubrics_json": json.dumps(rubrics, separators=(",", ":"), ensure_ascii=False)
        if rubrics else "",
        "file_changes": "⟨the diff of the files the agent changed⟩",
        "tool_calls": "⟨the tool calls the agent made⟩",
    }


def rubric_items(value: PyValue) -> list[PyValue]:
    """An assertion's rubric items as `parseRubricItems` keeps them (criteria as outcome)."""
    out: list[PyValue] = []
    if not isinstance(value, list):
        return out
    for index, item in enumerate(value):
        if isinstance(item, str):
            out.append({"id": f"rubric-{index + 1}", "outcome": item, "weight": 1.0,
                        "required": True})
            continue
        if not isinstance(item, dict):
            continue
        outcome = item.get("outcome") if isinstance(item.get("outcome"), str) else \
            item.get("criteria") if isinstance(item.get("criteria"), str) else None
        rubric: dict[str, PyValue] = {"id": item.get("id") if isinstance(item.get("id"), str)
                                      else f"rubric-{index + 1}"}
        if outcome:
            rubric["outcome"] = outcome
        if item.get("operator") in ("correctness", "contradiction"):
            rubric["operator"] = item.get("operator")
        weight = item.get("weight")
        rubric["weight"] = weight if isinstance(weight, (int, float)) else 1.0
        rubric["required"] = item.get("required") if isinstance(item.get("required"), bool) \
            else True
        if "score_ranges" in item:
            rubric["score_ranges"] = item["score_ranges"]
        if outcome or "score_ranges" in item:
            out.append(rubric)
    return out
