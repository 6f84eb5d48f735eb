"""A fast "certainly valid" test compiled from a JSON Schema, so valid cases skip jsonschema.

jsonschema builds a new validator object for every property it descends into; on a 10,000-case
dataset that alone costs over a second, and nearly every case is valid. This module compiles a
schema that uses only simple keywords into a plain Python predicate. The predicate may only ever
say "valid" when jsonschema would too: it never produces findings, and anything it is unsure of
(an unknown keyword, a `format`, a `$ref`) makes the compiler decline, so the schema is always
validated by jsonschema. `tests/core/test_precheck.py` holds the two to agreement.

When the predicate says "not certainly valid", `compile_narrowing` says which of an object's
properties it doubts, so that jsonschema walks those only (`narrowed`): a dataset whose every
case has one mistake would otherwise pay jsonschema's full walk of every case.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sized
from functools import partial
from typing import Any

Predicate = Callable[[Any], bool]

_ANNOTATIONS = frozenset({"description", "title", "examples", "default", "$comment",
                          "deprecated", "readOnly", "writeOnly"})
_SUPPORTED = _ANNOTATIONS | {"type", "properties", "required", "additionalProperties", "items",
                             "enum", "minLength", "minItems", "pattern"}


def _is_type(value: Any, name: str) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return False


def _is_type_of(name: str, value: Any) -> bool:
    return _is_type(value, name)


# `_is_type` for one name, without comparing names for every value.
_TYPE_TESTS: dict[str, Predicate] = {
    "string": lambda v: isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _long_enough(kind: type[Sized], minimum: int, value: Any) -> bool:
    return not isinstance(value, kind) or len(value) >= minimum


def compile_precheck(schema: Any) -> Predicate | None:
    """A predicate that returns True only for instances valid under `schema`, or None."""
    if schema is True:
        return lambda _value: True
    if not isinstance(schema, dict) or not set(schema) <= _SUPPORTED:
        return None
    tests: list[Predicate] = []
    type_name = schema.get("type")
    if type_name is not None:
        if not isinstance(type_name, str):
            return None
        tests.append(_TYPE_TESTS.get(type_name) or partial(_is_type_of, type_name))
    if "enum" in schema:
        allowed = schema["enum"]
        if not all(isinstance(a, str) for a in allowed):
            return None  # 1 == True in Python but not in JSON Schema: only strings are safe
        allowed_set = frozenset(allowed)
        tests.append(lambda v: isinstance(v, str) and v in allowed_set)
    if "minLength" in schema:
        tests.append(partial(_long_enough, str, schema["minLength"]))
    if "minItems" in schema:
        tests.append(partial(_long_enough, list, schema["minItems"]))
    if "pattern" in schema:
        try:
            compiled = re.compile(schema["pattern"])
        except re.error:
            return None
        tests.append(lambda v: not isinstance(v, str) or compiled.search(v) is not None)
    if "items" in schema:
        item_test = compile_precheck(schema["items"])
        if item_test is None:
            return None
        tests.append(lambda v: not isinstance(v, list) or all(map(item_test, v)))
    object_test = _compile_object(schema)
    if object_test is False:
        return None
    if object_test is not True:
        tests.append(object_test)
    return _all_of(tests)


def _all_of(tests: list[Predicate]) -> Predicate:
    """`all(test(value) for test in tests)`, without a generator for the usual one or two
    tests (a dataset's every case runs these for each of its fields)."""
    if not tests:
        return lambda _value: True
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        first, second = tests
        return lambda value: first(value) and second(value)
    return lambda value: all(test(value) for test in tests)


def _compile_object(schema: dict[str, Any]) -> Predicate | bool:
    """False: cannot compile; True: nothing to test."""
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    additional = schema.get("additionalProperties", True)
    if additional is not True:
        return False
    if not properties and not required:
        return True
    compiled: dict[str, Predicate] = {}
    for name, sub in properties.items():
        test = compile_precheck(sub)
        if test is None:
            return False
        compiled[name] = test
    required_names = tuple(required)

    def test_object(value: Any) -> bool:
        if not isinstance(value, dict):
            return True  # `type` decides; properties say nothing about non-objects
        for name in required_names:
            if name not in value:
                return False
        for name, item in value.items():
            test = compiled.get(name)
            if test is not None and not test(item):
                return False
        return True

    return test_object


Narrowing = Callable[[Any], tuple[str, ...] | None]
"""The names of an object's properties whose values are not certainly valid (schema order), or
None when the value is not an object."""


def compile_narrowing(schema: Any) -> Narrowing | None:
    """For an object schema the precheck compiles: the properties a value may fail on. A
    property whose own precheck passes adds no error under jsonschema, and the supported
    keywords never relate two properties (`additionalProperties` must be true), so dropping it
    from `properties` leaves jsonschema's errors as they were, in the same order."""
    if compile_precheck(schema) is None or not isinstance(schema.get("properties"), dict):
        return None
    tests = [(name, compile_precheck(sub)) for name, sub in schema["properties"].items()]

    def doubted(value: Any) -> tuple[str, ...] | None:
        if not isinstance(value, dict):
            return None
        return tuple(name for name, test in tests
                     if name in value and (test is None or not test(value[name])))

    return doubted


def narrowed(schema: dict[str, Any], doubted: tuple[str, ...]) -> dict[str, Any]:
    """`schema` with only the `doubted` properties left (see `compile_narrowing`)."""
    properties = {name: sub for name, sub in schema["properties"].items() if name in doubted}
    return {**schema, "properties": properties}
