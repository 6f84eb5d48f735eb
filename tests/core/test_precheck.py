"""The precheck may only ever say "valid" when jsonschema agrees.

It exists to skip jsonschema on the (many) valid cases of a large dataset; a precheck that
certified an invalid case would hide a finding, so it is held to jsonschema on generated data.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from evalyaml.core.kinds import FileKind
from evalyaml.core.precheck import compile_precheck
from evalyaml.core.quickerrors import compile_quick
from evalyaml.core.schemas import subschema
from evalyaml.formats.contract.schemas import (
    PropertyDescent,
    WholeSchemaErrors,
    _quick_errors,
    precheck,
    skeleton_precheck,
    validator,
    validator_for,
)

CASE_POINTER = "/$defs/case"

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
    st.text(max_size=8), st.sampled_from(["json", "text", "yaml", "", "rubric/a@1", "rubric/"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(["format", "x", "id"]), inner, max_size=3),
), max_leaves=8)
case_keys = st.sampled_from(["id", "input", "criteria", "expected", "expected_facts",
                             "expected_tools", "rubric_ref", "bundle", "tags"])
cases = st.dictionaries(case_keys, values, max_size=9)


def test_the_case_schema_compiles() -> None:
    # If this fails the fast path is silently off: large datasets get several times slower.
    assert precheck(FileKind.DATASET, CASE_POINTER) is not None


@settings(max_examples=400, deadline=None)
@given(cases)
def test_precheck_never_certifies_an_invalid_case(case: dict[str, Any]) -> None:
    check = precheck(FileKind.DATASET, CASE_POINTER)
    assert check is not None
    if check(case):
        assert list(validator(FileKind.DATASET, CASE_POINTER).iter_errors(case)) == []


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({"id": st.text(min_size=1), "input": st.text()}))
def test_precheck_certifies_plain_valid_cases(case: dict[str, Any]) -> None:
    check = precheck(FileKind.DATASET, CASE_POINTER)
    assert check is not None and check(case)


def _errors(found: Any) -> list[tuple[Any, ...]]:
    """What the reporter reads of an error (`schema_report`), and its two paths."""
    return [(error.validator, repr(error.validator_value), repr(error.instance),
             repr(error.schema), list(error.absolute_path), list(error.absolute_schema_path),
             error.message) for error in found]


# Cases with their required keys: the ones validated property by property (`PropertyDescent`).
complete_cases = st.builds(lambda rest, id_, input_: {**rest, "id": id_, "input": input_},
                           cases, values, values)


@settings(max_examples=400, deadline=None)
@given(st.one_of(cases, complete_cases))
def test_a_narrowed_validator_finds_what_the_whole_one_finds_in_the_same_order(
        case: dict[str, Any]) -> None:
    """A case the precheck doubts is validated on the properties it doubts only (each by its
    own subschema when the case has its required keys): every error jsonschema gives on the
    whole case, no other, in the same order (the order of findings), with the same paths."""
    whole = validator(FileKind.DATASET, CASE_POINTER).iter_errors(case)
    narrowed = validator_for(FileKind.DATASET, CASE_POINTER, case)().iter_errors(case)
    assert _errors(narrowed) == _errors(whole)


def test_simple_properties_get_their_errors_without_jsonschema_walking_them() -> None:
    """`core.quickerrors` answers for the case's plain properties (the hypothesis test above
    holds its errors to jsonschema's): a string where a mapping goes, a reference off its
    pattern. A value some other keyword looks at is left to jsonschema."""
    quick = {name: _quick_errors(FileKind.DATASET, CASE_POINTER, name)
             for name in ("id", "input", "expected", "expected_facts", "rubric_ref")}
    assert all(found is not None for found in quick.values())
    expected, rubric_ref = quick["expected"], quick["rubric_ref"]
    assert expected is not None and rubric_ref is not None
    assert [(e.validator, e.message, list(e.schema_path)) for e in expected("a string") or []] \
        == [("type", "'a string' is not of type 'object'", ["type"])]
    assert expected({"format": "yaml"}) is None  # `properties` looks at a mapping
    assert [(e.validator, e.validator_value) for e in rubric_ref("rubric/Bad-Id") or []] == [
        ("pattern", subschema(FileKind.DATASET, CASE_POINTER)["properties"]["rubric_ref"][
            "pattern"])]
    assert rubric_ref("rubric/good_id@1.0.0") == []
    id_check = quick["id"]
    assert id_check is not None and id_check("") is None  # `minLength` looks at a string
    assert compile_quick({"type": "integer"}, None) is None  # 1.0 is one, to jsonschema
    assert compile_quick({"type": "string", "enum": ["a"]}, None) is None


def test_a_narrowed_validator_walks_only_the_doubted_properties() -> None:
    case = {"id": "q1", "input": "hi", "expected": "a string, not a mapping",
            "expected_facts": ["one", "two"], "expected_tools": ["search"]}
    narrowed = validator_for(FileKind.DATASET, CASE_POINTER, case)()
    assert isinstance(narrowed, PropertyDescent) and narrowed.doubted == ("expected",)
    assert [error[0::4] for error in _errors(narrowed.iter_errors(case))] == [
        ("type", ["expected"])]
    missing = {key: value for key, value in case.items() if key != "input"}
    jsonschema_narrowed = validator_for(FileKind.DATASET, CASE_POINTER, missing)()
    assert isinstance(jsonschema_narrowed, WholeSchemaErrors)  # `required` may fail
    assert [error[0::4] for error in _errors(jsonschema_narrowed.iter_errors(missing))] == [
        ("required", []), ("type", ["expected"])]


root_keys = st.sampled_from(["$schema", "name", "description", "version", "questions", "x"])
roots = st.dictionaries(root_keys, values, max_size=5).map(
    lambda root: {**root, "questions": []} if "questions" in root else root)


def test_the_dataset_root_compiles() -> None:
    # If this fails, `evalyaml check` of a plain dataset imports jsonschema again (+60 ms).
    assert skeleton_precheck() is not None


@settings(max_examples=400, deadline=None)
@given(roots)
def test_the_root_precheck_never_certifies_an_invalid_root(root: dict[str, Any]) -> None:
    """What `analyze_dataset_root` validates: the root, its cases left out (`questions: []`)."""
    check = skeleton_precheck()
    assert check is not None
    if check(root):
        assert list(validator(FileKind.DATASET).iter_errors(root)) == []


def test_the_root_precheck_certifies_a_plain_root_and_refuses_a_broken_one() -> None:
    check = skeleton_precheck()
    assert check is not None
    assert check({"$schema": "x", "name": "n", "version": "1", "questions": [], "owner": 3})
    assert not check({"name": "n"})  # `questions` is required
    assert not check({"version": 1.1, "questions": []})  # an unquoted YAML number
    assert list(validator(FileKind.DATASET).iter_errors({"version": 1.1, "questions": []}))


def test_it_declines_keywords_it_does_not_know() -> None:
    assert compile_precheck({"type": "object", "oneOf": [{}, {}]}) is None
    assert compile_precheck({"type": "string", "format": "date"}) is None
    assert compile_precheck({"$ref": "#/$defs/x"}) is None
    assert compile_precheck({"enum": [1, True]}) is None  # 1 == True in Python, not in JSON
    assert compile_precheck({"type": "object", "additionalProperties": False}) is None


def test_booleans_are_not_numbers() -> None:
    check = compile_precheck({"type": "integer"})
    assert check is not None
    assert check(3) and not check(True)
    assert Draft202012Validator({"type": "integer"}).is_valid(True) is False


def test_rubric_check_kinds_fall_back_to_jsonschema() -> None:
    # The check union uses if/then and unevaluatedProperties: no precheck, never wrong.
    assert compile_precheck(subschema(FileKind.RUBRIC, "/$defs/check")) is None
