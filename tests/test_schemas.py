"""The public contract: schemas/{dataset,rubric,judge}.schema.json (JSON Schema Draft 2020-12).

These tests use the real `jsonschema` validator and assert on the validator keyword and the
instance path of each error, so a change to the contract shows up here first.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, ValidationError
from ruamel.yaml import YAML

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"
BASE_ID = "https://evalyaml.dev/schemas/v1/"
NAMES = ("dataset", "rubric", "judge")

KINDS = (
    "must_contain_any",
    "must_not_contain",
    "regex",
    "json_schema",
    "php_lint",
    "markdown_structure",
    "tool_usage",
    "format",
    "fact_match",
    "llm_judge",
    "composite",
)

# The smallest valid check of each built-in kind.
MINIMAL_CHECKS: dict[str, dict[str, Any]] = {
    "must_contain_any": {"kind": "must_contain_any", "values": ["30 days"]},
    "must_not_contain": {"kind": "must_not_contain", "values": ["As an AI"]},
    "regex": {"kind": "regex", "pattern": r"\d+ days"},
    "json_schema": {"kind": "json_schema", "schema": {"type": "object"}},
    "php_lint": {"kind": "php_lint"},
    "markdown_structure": {"kind": "markdown_structure"},
    "tool_usage": {"kind": "tool_usage"},
    "format": {"kind": "format", "format": "json"},
    "fact_match": {"kind": "fact_match", "threshold": 0.8},
    "llm_judge": {"kind": "llm_judge", "judge_prompt_ref": "judge/accuracy@1"},
    "composite": {"kind": "composite", "rubric_ref": "rubric/php_code_quality@2.1.0"},
}

# Keywords whose value is a schema, a list of schemas, or a map of name -> schema. Anything
# else (examples, default, const, enum, ...) is data and is not walked.
SCHEMA_KW = {
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
}
SCHEMA_LIST_KW = {"allOf", "anyOf", "oneOf", "prefixItems"}
SCHEMA_MAP_KW = {"properties", "patternProperties", "$defs", "dependentSchemas"}

DATASET_YAML = """\
# yaml-language-server: $schema=https://evalyaml.dev/schemas/v1/dataset.schema.json
name: "Customer support: returns and refunds"
description: Questions customers ask about returns, with the facts a good answer states.
version: "1.3.0"
questions:
  - id: returns_window
    input: How long do I have to return a product bought online?
    criteria: States the 30-day window and where to start a return.
    expected:
      format: text
      answer: You have 30 days from delivery.
    expected_facts:
      - Returns are accepted within 30 days of delivery.
      - Returns start from the order page.
    rubric_ref: rubric/helpfulness@1.2
  - id: refund_agent_flow
    input: Please refund order 1234, it arrived broken.
    expected_tools: [search_orders, issue_refund]
    rubric_ref: rubric/agent_refunds@2.0.0
    bundle: agent
    eval_conditions: {max_turns: 6}   # a bundle field: cases are open
  - id: order_json
    input: Return the status of order 1234 as JSON.
    expected: {format: json}
    rubric_ref: rubric/json_output@1
"""

RUBRIC_YAML = r"""
id: helpfulness
version: "1.2.0"
name: Helpfulness of support answers
description: Correct, complete, well-structured answers to returns questions.
checks:
  - kind: must_contain_any
    id: mentions_window
    values: ["30 days", "thirty days"]
    case_sensitive: false
    weight: 2
  - kind: must_not_contain
    values: ["As an AI language model"]
    case_sensitive: true
  - kind: regex
    pattern: '\b\d{1,2} days\b'
    flags: i
    must_match: true
  - kind: json_schema
    description: Structured summary block.
    schema:
      type: object
      required: [answer]
      properties:
        answer: {type: string}
  - kind: php_lint
    php_version: "8.3"
    weight: 0
  - kind: markdown_structure
    required_headings: [Summary, Next steps]
    max_heading_level: 3
  - kind: tool_usage
    expected_tools: [search_orders, issue_refund]
    order: subsequence
    allow_extra: true
  - kind: format
    format: text
  - kind: fact_match
    threshold: 0.8
  - kind: llm_judge
    judge_prompt_ref: judge/accuracy@1.0.0
    threshold: 0.7
  - kind: llm_judge
    id: jury_tone
    jury:
      - {judge_prompt_ref: judge/tone@2, weight: 2}
      - {judge_prompt_ref: judge/tone_strict@1.1}
    aggregation: weighted_mean
    threshold: 0.6
  - kind: composite
    rubric_ref: rubric/php_code_quality@2
scoring:
  combine: weighted_avg
  threshold: 0.75
"""

JUDGE_YAML = """\
id: accuracy
version: "1.0.0"
description: Is the answer factually consistent with the reference?
template: |
  Question: {{ input }}
  Reference answer: {{expected}}
  Context: {{ context }}
  Answer to grade: {{ output }}

  Rate the answer's accuracy as one of: wrong, partial, correct.
score_type: levels
level_names: [wrong, partial, correct]
validation:
  tpr: 0.92
  tnr: 0.88
  validated_against: support_gold_labels@2.0.0
  validated_at: "2026-05-01"   # quoted: unquoted, YAML loads it as a date, not a string
  sample_size: 200
applicable_to: [support, rag]
model: gpt-4o-2024-08-06
"""


def load_yaml(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def load_schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def schemas() -> dict[str, dict[str, Any]]:
    return {name: load_schema(name) for name in NAMES}


@pytest.fixture(scope="module")
def validators(schemas: dict[str, dict[str, Any]]) -> dict[str, Draft202012Validator]:
    return {
        name: Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
        for name, schema in schemas.items()
    }


def errors(validator: Draft202012Validator, instance: Any) -> list[ValidationError]:
    return sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))


def only_error(validator: Draft202012Validator, instance: Any) -> ValidationError:
    errs = errors(validator, instance)
    assert len(errs) == 1, [f"{e.validator} at {list(e.absolute_path)}: {e.message}" for e in errs]
    return errs[0]


def rubric_with(*checks: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "demo",
        "version": "1.0.0",
        "checks": list(checks),
        "scoring": {"combine": "all_pass"},
    }


def walk_schemas(schema: Any, pointer: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield (json-pointer, subschema) for every subschema, skipping data keywords."""
    if not isinstance(schema, dict):
        return
    yield pointer, schema
    for key, value in schema.items():
        if key in SCHEMA_KW:
            yield from walk_schemas(value, f"{pointer}/{key}")
        elif key in SCHEMA_LIST_KW:
            for i, sub in enumerate(value):
                yield from walk_schemas(sub, f"{pointer}/{key}/{i}")
        elif key in SCHEMA_MAP_KW:
            for name, sub in value.items():
                yield from walk_schemas(sub, f"{pointer}/{key}/{name}")


# --------------------------------------------------------------------------- meta


@pytest.mark.parametrize("name", NAMES)
def test_schema_is_valid_draft_2020_12(schemas: dict[str, dict[str, Any]], name: str) -> None:
    schema = schemas[name]
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"{BASE_ID}{name}.schema.json"
    assert schema["title"].strip()
    assert schema["description"].strip()
    assert schema["type"] == "object"


@pytest.mark.parametrize("name", NAMES)
def test_schema_file_is_canonically_formatted(name: str) -> None:
    text = (SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
    keys = list(json.loads(text))
    assert keys[:5] == ["$schema", "$id", "title", "description", "type"]


@pytest.mark.parametrize("name", NAMES)
def test_every_property_has_a_description(schemas: dict[str, dict[str, Any]], name: str) -> None:
    missing: list[str] = []
    seen = 0
    for pointer, sub in walk_schemas(schemas[name]):
        # An `if` only tests a value; its properties are conditions, not documentation.
        if "/if" in pointer:
            continue
        for prop, prop_schema in sub.get("properties", {}).items():
            seen += 1
            desc = prop_schema.get("description") if isinstance(prop_schema, dict) else None
            if not (isinstance(desc, str) and desc.strip()):
                missing.append(f"{pointer}/properties/{prop}")
    assert seen > 5
    assert not missing, missing


@pytest.mark.parametrize("name", NAMES)
def test_every_def_has_a_description(schemas: dict[str, dict[str, Any]], name: str) -> None:
    for def_name, sub in schemas[name].get("$defs", {}).items():
        assert sub.get("description", "").strip(), def_name


def test_rubric_defs_cover_the_eleven_kinds(schemas: dict[str, dict[str, Any]]) -> None:
    rubric = schemas["rubric"]
    defs = rubric["$defs"]
    assert set(defs) == {"check", "check_base"} | {f"check_{k}" for k in KINDS}
    check = defs["check"]
    kind = check["properties"]["kind"]
    assert "enum" not in kind
    assert tuple(kind["examples"]) == KINDS
    assert all(f"`{k}`" in kind["description"] for k in KINDS)
    *known, other = check["allOf"]
    branches = [(b["if"]["properties"]["kind"]["const"], b["then"]["$ref"]) for b in known]
    assert branches == [(k, f"#/$defs/check_{k}") for k in KINDS]
    assert tuple(other["if"]["properties"]["kind"]["enum"]) == KINDS
    assert other["else"] == {"$ref": "#/$defs/check_base"}
    for k in KINDS:
        sub = defs[f"check_{k}"]
        assert sub["$ref"] == "#/$defs/check_base"
        assert sub["properties"]["kind"]["const"] == k
        assert sub["unevaluatedProperties"] is False


def test_meaningful_defaults(schemas: dict[str, dict[str, Any]]) -> None:
    defs = schemas["rubric"]["$defs"]
    assert defs["check_must_contain_any"]["properties"]["case_sensitive"]["default"] is False
    assert defs["check_must_not_contain"]["properties"]["case_sensitive"]["default"] is False
    assert defs["check_regex"]["properties"]["must_match"]["default"] is True
    assert defs["check_tool_usage"]["properties"]["allow_extra"]["default"] is True
    assert defs["check_tool_usage"]["properties"]["order"]["default"] == "any"


# --------------------------------------------------------------------------- valid instances


def test_realistic_dataset_is_valid(validators: dict[str, Draft202012Validator]) -> None:
    assert errors(validators["dataset"], load_yaml(DATASET_YAML)) == []


def test_realistic_rubric_is_valid(validators: dict[str, Draft202012Validator]) -> None:
    rubric = load_yaml(RUBRIC_YAML)
    assert {c["kind"] for c in rubric["checks"]} == set(KINDS)
    assert errors(validators["rubric"], rubric) == []


def test_realistic_judge_is_valid(validators: dict[str, Draft202012Validator]) -> None:
    assert errors(validators["judge"], load_yaml(JUDGE_YAML)) == []


@pytest.mark.parametrize("kind", KINDS)
def test_minimal_check_of_each_kind_is_valid(
    validators: dict[str, Draft202012Validator], kind: str
) -> None:
    assert errors(validators["rubric"], rubric_with(MINIMAL_CHECKS[kind])) == []


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_accepts_the_base_fields(
    validators: dict[str, Draft202012Validator], kind: str
) -> None:
    check = {**MINIMAL_CHECKS[kind], "id": "c1", "description": "Shown in reports.", "weight": 0.5}
    assert errors(validators["rubric"], rubric_with(check)) == []


# --------------------------------------------------------------------------- rubric checks


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_is_closed(validators: dict[str, Draft202012Validator], kind: str) -> None:
    check = {**MINIMAL_CHECKS[kind], "bogus": 1}
    err = only_error(validators["rubric"], rubric_with(check))
    assert err.validator == "unevaluatedProperties"
    assert list(err.absolute_path) == ["checks", 0]
    assert "'bogus'" in err.message


def test_regex_check_with_misspelt_field_fails(
    validators: dict[str, Draft202012Validator],
) -> None:
    check = {"kind": "regex", "pattern": "x", "must_macth": False}
    err = only_error(validators["rubric"], rubric_with(check))
    assert err.validator == "unevaluatedProperties"
    assert list(err.absolute_path) == ["checks", 0]
    assert "'must_macth'" in err.message


def test_field_of_another_kind_is_rejected(validators: dict[str, Draft202012Validator]) -> None:
    check = {"kind": "must_contain_any", "values": ["a"], "pattern": "a"}
    err = only_error(validators["rubric"], rubric_with(check))
    assert err.validator == "unevaluatedProperties"
    assert "'pattern'" in err.message


def test_unknown_kind_is_valid(validators: dict[str, Draft202012Validator]) -> None:
    check = {"kind": "regx", "pattern": "x", "anything": {"goes": True}}
    assert errors(validators["rubric"], rubric_with(check)) == []


@pytest.mark.parametrize(
    ("check", "validator", "path"),
    [
        ({"kind": "regx", "weight": -1}, "minimum", ["weight"]),
        ({"kind": "regx", "id": 3}, "type", ["id"]),
        ({"kind": 5}, "type", ["kind"]),
        ({"pattern": "x"}, "required", []),
        ("regex", "type", []),
    ],
)
def test_unknown_kind_still_checks_shared_fields_once(
    validators: dict[str, Draft202012Validator], check: Any, validator: str, path: list[Any]
) -> None:
    err = only_error(validators["rubric"], rubric_with(check))
    assert err.validator == validator
    assert list(err.absolute_path) == ["checks", 0, *path]


def test_regex_without_pattern_fails(validators: dict[str, Draft202012Validator]) -> None:
    err = only_error(validators["rubric"], rubric_with({"kind": "regex", "flags": "i"}))
    assert err.validator == "required"
    assert list(err.absolute_path) == ["checks", 0]
    assert "'pattern'" in err.message


@pytest.mark.parametrize(
    ("check", "validator", "path"),
    [
        ({"kind": "regex", "pattern": "x", "flags": "ig"}, "pattern", ["flags"]),
        ({"kind": "regex", "pattern": "x", "must_match": "yes"}, "type", ["must_match"]),
        ({"kind": "must_contain_any", "values": []}, "minItems", ["values"]),
        ({"kind": "must_not_contain", "values": [""]}, "minLength", ["values", 0]),
        ({"kind": "must_not_contain"}, "required", []),
        ({"kind": "json_schema", "schema": "type: object"}, "type", ["schema"]),
        ({"kind": "php_lint", "php_version": "8"}, "pattern", ["php_version"]),
        ({"kind": "markdown_structure", "max_heading_level": 7}, "maximum", ["max_heading_level"]),
        ({"kind": "markdown_structure", "max_heading_level": 0}, "minimum", ["max_heading_level"]),
        ({"kind": "tool_usage", "order": "strict"}, "enum", ["order"]),
        ({"kind": "format", "format": "yaml"}, "enum", ["format"]),
        ({"kind": "format"}, "required", []),
        ({"kind": "fact_match"}, "required", []),
        ({"kind": "fact_match", "threshold": 1.5}, "maximum", ["threshold"]),
        ({"kind": "composite"}, "required", []),
        ({"kind": "composite", "rubric_ref": "judge/accuracy@1"}, "pattern", ["rubric_ref"]),
        ({"kind": "php_lint", "weight": -1}, "minimum", ["weight"]),
    ],
)
def test_kind_field_constraints(
    validators: dict[str, Draft202012Validator],
    check: dict[str, Any],
    validator: str,
    path: list[Any],
) -> None:
    err = only_error(validators["rubric"], rubric_with(check))
    assert err.validator == validator
    assert list(err.absolute_path) == ["checks", 0, *path]


def test_llm_judge_needs_exactly_one_of_ref_or_jury(
    validators: dict[str, Draft202012Validator],
) -> None:
    jury = [{"judge_prompt_ref": "judge/a@1"}, {"judge_prompt_ref": "judge/b@1"}]
    neither = only_error(validators["rubric"], rubric_with({"kind": "llm_judge"}))
    both = only_error(
        validators["rubric"],
        rubric_with({"kind": "llm_judge", "judge_prompt_ref": "judge/a@1", "jury": jury}),
    )
    for err in (neither, both):
        assert err.validator == "oneOf"
        assert list(err.absolute_path) == ["checks", 0]
    assert "is valid under each of" in both.message
    only_jury = {"kind": "llm_judge", "jury": jury, "aggregation": "majority"}
    assert errors(validators["rubric"], rubric_with(only_jury)) == []


@pytest.mark.parametrize(
    ("check", "validator", "path"),
    [
        ({"jury": [{"judge_prompt_ref": "judge/a@1"}]}, "minItems", ["jury"]),
        (
            {"jury": [{"judge_prompt_ref": "judge/a"}, {"judge_prompt_ref": "judge/b", "wt": 1}]},
            "additionalProperties",
            ["jury", 1],
        ),
        (
            {"jury": [{"judge_prompt_ref": "judge/a"}, {"weight": 1}]},
            "required",
            ["jury", 1],
        ),
        (
            {
                "jury": [{"judge_prompt_ref": "judge/a"}, {"judge_prompt_ref": "judge/b"}],
                "aggregation": "average",
            },
            "enum",
            ["aggregation"],
        ),
        (
            {"judge_prompt_ref": "judge/a@1", "aggregation": "mean"},
            "dependentRequired",
            [],
        ),
        ({"judge_prompt_ref": "rubric/a@1"}, "pattern", ["judge_prompt_ref"]),
        ({"judge_prompt_ref": "judge/a@1", "threshold": -0.1}, "minimum", ["threshold"]),
    ],
)
def test_llm_judge_constraints(
    validators: dict[str, Draft202012Validator],
    check: dict[str, Any],
    validator: str,
    path: list[Any],
) -> None:
    err = only_error(validators["rubric"], rubric_with({"kind": "llm_judge", **check}))
    assert err.validator == validator
    assert list(err.absolute_path) == ["checks", 0, *path]


# --------------------------------------------------------------------------- rubric root


def test_rubric_root_is_open_and_scoring_is_closed(
    validators: dict[str, Draft202012Validator],
) -> None:
    rubric = rubric_with(MINIMAL_CHECKS["format"])
    rubric["x_bundle_field"] = {"anything": True}
    assert errors(validators["rubric"], rubric) == []

    rubric["scoring"]["treshold"] = 0.5
    err = only_error(validators["rubric"], rubric)
    assert err.validator == "additionalProperties"
    assert list(err.absolute_path) == ["scoring"]


@pytest.mark.parametrize(
    ("mutate", "validator", "path"),
    [
        (lambda r: r.update(checks=[]), "minItems", ["checks"]),
        (lambda r: r.pop("scoring"), "required", []),
        (lambda r: r["scoring"].pop("combine"), "required", ["scoring"]),
        (lambda r: r["scoring"].update(combine="average"), "enum", ["scoring", "combine"]),
        (lambda r: r["scoring"].update(threshold=2), "maximum", ["scoring", "threshold"]),
        (lambda r: r.update(id="Helpfulness"), "pattern", ["id"]),
        (lambda r: r.update(id="helpfulness-v2"), "pattern", ["id"]),
    ],
)
def test_rubric_root_constraints(
    validators: dict[str, Draft202012Validator], mutate: Any, validator: str, path: list[Any]
) -> None:
    rubric = rubric_with(MINIMAL_CHECKS["format"])
    mutate(rubric)
    err = only_error(validators["rubric"], rubric)
    assert err.validator == validator
    assert list(err.absolute_path) == path


@pytest.mark.parametrize(
    "version", ["0.0.1", "1.2.0", "10.20.30", "1.0.0-rc.1", "1.0.0-alpha.beta+exp.sha.5114f85"]
)
@pytest.mark.parametrize("name", ["rubric", "judge"])
def test_semver_versions_accepted(
    validators: dict[str, Draft202012Validator], name: str, version: str
) -> None:
    doc = load_yaml(RUBRIC_YAML if name == "rubric" else JUDGE_YAML)
    doc["version"] = version
    assert errors(validators[name], doc) == []


@pytest.mark.parametrize("version", ["1", "1.2", "01.2.3", "v1.2.3", "1.2.3-", "1.2.3.4", ""])
@pytest.mark.parametrize("name", ["rubric", "judge"])
def test_non_semver_versions_rejected(
    validators: dict[str, Draft202012Validator], name: str, version: str
) -> None:
    doc = load_yaml(RUBRIC_YAML if name == "rubric" else JUDGE_YAML)
    doc["version"] = version
    err = only_error(validators[name], doc)
    assert err.validator == "pattern"
    assert list(err.absolute_path) == ["version"]


@pytest.mark.parametrize("name", NAMES)
def test_unquoted_float_version_fails(
    validators: dict[str, Draft202012Validator], name: str
) -> None:
    text = {"dataset": DATASET_YAML, "rubric": RUBRIC_YAML, "judge": JUDGE_YAML}[name]
    lines = ["version: 1.10" if line.startswith("version:") else line for line in text.splitlines()]
    doc = load_yaml("\n".join(lines))
    assert doc["version"] == 1.1  # what YAML makes of it
    err = only_error(validators[name], doc)
    assert err.validator == "type"
    assert list(err.absolute_path) == ["version"]
    assert err.validator_value == "string"


# --------------------------------------------------------------------------- references


@pytest.mark.parametrize(
    "ref",
    [
        "rubric/helpfulness",
        "rubric/helpfulness@1",
        "rubric/helpfulness@1.2",
        "rubric/helpfulness@1.2.3",
        "rubric/helpfulness@1.2.3-rc.1",
        "rubric/helpfulness@1.2.3-rc.1+build.7",
        "rubric/php_code_quality_2@10",
    ],
)
def test_rubric_ref_accepted(validators: dict[str, Draft202012Validator], ref: str) -> None:
    dataset = {"questions": [{"id": "q1", "input": "hi", "rubric_ref": ref}]}
    assert errors(validators["dataset"], dataset) == []


@pytest.mark.parametrize(
    "ref",
    [
        "helpfulness@1",
        "rubrics/helpfulness@1",
        "judge/accuracy@1",
        "rubric/Helpfulness@1",
        "rubric/helpfulness@v1",
        "rubric/helpfulness@1.2.3.4",
        "rubric/helpfulness@",
        "rubric/helpfulness-v2",
        "rubric/",
    ],
)
def test_rubric_ref_rejected(validators: dict[str, Draft202012Validator], ref: str) -> None:
    dataset = {"questions": [{"id": "q1", "input": "hi", "rubric_ref": ref}]}
    err = only_error(validators["dataset"], dataset)
    assert err.validator == "pattern"
    assert list(err.absolute_path) == ["questions", 0, "rubric_ref"]


@pytest.mark.parametrize("ref", ["judge/accuracy", "judge/accuracy@1.0", "judge/tone_v2@2.0.0"])
def test_judge_ref_accepted(validators: dict[str, Draft202012Validator], ref: str) -> None:
    check = {"kind": "llm_judge", "judge_prompt_ref": ref}
    assert errors(validators["rubric"], rubric_with(check)) == []


# --------------------------------------------------------------------------- dataset


def test_dataset_root_and_cases_are_open(validators: dict[str, Draft202012Validator]) -> None:
    dataset = {
        "owner": "support-team",
        "questions": [{"id": "q1", "input": "hi", "privacy_tier": "public", "expecteed": 1}],
    }
    assert errors(validators["dataset"], dataset) == []


@pytest.mark.parametrize(
    ("dataset", "validator", "path"),
    [
        ({}, "required", []),
        ({"questions": {"q1": {"input": "hi"}}}, "type", ["questions"]),
        ({"questions": [{"id": "q1"}]}, "required", ["questions", 0]),
        ({"questions": [{"input": "hi"}]}, "required", ["questions", 0]),
        ({"questions": [{"id": "", "input": "hi"}]}, "minLength", ["questions", 0, "id"]),
        ({"questions": [{"id": 7, "input": "hi"}]}, "type", ["questions", 0, "id"]),
        (
            {"questions": [{"id": "q", "input": "hi", "expected": {"format": "yaml"}}]},
            "enum",
            ["questions", 0, "expected", "format"],
        ),
        (
            {"questions": [{"id": "q", "input": "hi", "expected_facts": "one fact"}]},
            "type",
            ["questions", 0, "expected_facts"],
        ),
        (
            {"questions": [{"id": "q", "input": "hi", "expected_tools": [{"name": "x"}]}]},
            "type",
            ["questions", 0, "expected_tools", 0],
        ),
    ],
)
def test_dataset_constraints(
    validators: dict[str, Draft202012Validator],
    dataset: dict[str, Any],
    validator: str,
    path: list[Any],
) -> None:
    err = only_error(validators["dataset"], dataset)
    assert err.validator == validator
    assert list(err.absolute_path) == path


# --------------------------------------------------------------------------- judge


def test_levels_without_level_names_fails(validators: dict[str, Draft202012Validator]) -> None:
    judge = load_yaml(JUDGE_YAML)
    del judge["level_names"]
    err = only_error(validators["judge"], judge)
    assert err.validator == "required"
    assert list(err.absolute_path) == []
    assert list(err.schema_path)[-2:] == ["then", "required"]
    assert "'level_names'" in err.message


def test_binary_judge_needs_no_level_names(validators: dict[str, Draft202012Validator]) -> None:
    judge = {"id": "accuracy", "version": "1.0.0", "template": "{{ output }}"}
    assert errors(validators["judge"], judge) == []
    judge["score_type"] = "binary"
    assert errors(validators["judge"], judge) == []


@pytest.mark.parametrize(
    ("mutate", "validator", "path"),
    [
        (lambda j: j.pop("template"), "required", []),
        (lambda j: j.update(template=""), "minLength", ["template"]),
        (lambda j: j.update(score_type="scale"), "enum", ["score_type"]),
        (lambda j: j.update(level_names=["only"]), "minItems", ["level_names"]),
        (lambda j: j.update(level_names=["ok", "ok"]), "uniqueItems", ["level_names"]),
        (lambda j: j["validation"].update(tpr=1.2), "maximum", ["validation", "tpr"]),
        (lambda j: j["validation"].update(tnr=-0.1), "minimum", ["validation", "tnr"]),
        (lambda j: j["validation"].update(sample_size=0), "minimum", ["validation", "sample_size"]),
        (lambda j: j["validation"].update(sample_size=2.5), "type", ["validation", "sample_size"]),
        (
            lambda j: j["validation"].update(validated_at="May 2026"),
            "format",
            ["validation", "validated_at"],
        ),
        (lambda j: j["validation"].update(reviewer="sam"), "additionalProperties", ["validation"]),
        (lambda j: j.update(applicable_to="rag"), "type", ["applicable_to"]),
        (lambda j: j.update(id="Accuracy"), "pattern", ["id"]),
    ],
)
def test_judge_constraints(
    validators: dict[str, Draft202012Validator], mutate: Any, validator: str, path: list[Any]
) -> None:
    judge = copy.deepcopy(load_yaml(JUDGE_YAML))
    mutate(judge)
    err = only_error(validators["judge"], judge)
    assert err.validator == validator
    assert list(err.absolute_path) == path


def test_judge_root_is_open(validators: dict[str, Draft202012Validator]) -> None:
    judge = load_yaml(JUDGE_YAML)
    judge["owner"] = "evals-team"
    assert errors(validators["judge"], judge) == []
