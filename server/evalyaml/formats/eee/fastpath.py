"""The common case of a samples row, fast: a row that is strict JSON and valid for its version
is read with the C `json` module and checked by a predicate compiled once per schema.

The tree walk (`schemacheck`) places every finding, and costs about 300 us a row; most rows of a
100,000-row file have none. So a row is first read by `json.loads` (refusing duplicate keys and
NaN, and a row with a lone surrogate escape goes the slow way, since json accepts what our strict
reader reports) and checked by `compile_valid(schema)`: a predicate that can only say "the walk
would find nothing" (it answers False whenever unsure, which costs time, never a finding). Then
the few columns a row's facts need are found in the text and verified by decoding the value
there. Anything else goes to the tree walk.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from evalyaml.core.suggest import best

Predicate = Callable[[Any], bool]
_DECODER = json.JSONDecoder()
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abAB]")


class _Refused(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Refused("duplicate key")
    return out


def _constant(name: str) -> Any:
    raise _Refused(name)


def load(text: str) -> Any:
    """The row's value when it is strict JSON our reader would accept silently; else None."""
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        return None
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except (ValueError, RecursionError):
        return None


def value_columns(text: str, key: str, expected: Any) -> tuple[int, int] | None:
    """Where the root member `key`'s value is written, when that is certain: the key is
    written once, and the value decoded there is the one loaded."""
    needle = f'"{key}"'
    at = text.find(needle)
    if at < 0 or text.find(needle, at + 1) >= 0:
        return None
    index = at + len(needle)
    length = len(text)
    while index < length and text[index] in " \t":
        index += 1
    if index >= length or text[index] != ":":
        return None
    index += 1
    while index < length and text[index] in " \t":
        index += 1
    try:
        found, end = _DECODER.raw_decode(text, index)
    except ValueError:
        return None
    if type(found) is not type(expected) or found != expected:
        return None
    return index, end


# ----------------------------------------------------------------------- the compiled schema
_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
    "null": (type(None),), "array": (list,), "object": (dict,)}


def _type_check(names: list[str]) -> Predicate:
    allowed = frozenset(t for n in names for t in _PY_TYPES.get(n, ()))
    floats_as_ints = "integer" in names and "number" not in names

    def check(value: Any) -> bool:
        kind = type(value)
        return kind in allowed or (floats_as_ints and kind is float and value.is_integer())
    return check


def _one_of_values(allowed: list[Any]) -> Predicate:
    def check(value: Any) -> bool:
        return any(_equal(value, a) for a in allowed)
    return check


def _any(branches: list[Predicate]) -> Predicate:
    def check(value: Any) -> bool:
        return any(b(value) for b in branches)
    return check


def _all(checks: list[Predicate]) -> Predicate:
    if not checks:
        return lambda value: True
    if len(checks) == 1:
        return checks[0]
    frozen = tuple(checks)

    def every(value: Any) -> bool:
        for check in frozen:  # noqa: SIM110 - a plain loop: no generator per value
            if not check(value):
                return False
        return True
    return every


def _equal(value: Any, expected: Any) -> bool:
    if isinstance(expected, bool) or isinstance(value, bool):
        return value is expected
    if expected is None:
        return value is None
    if isinstance(expected, (int, float)):
        return isinstance(value, (int, float)) and value == expected
    return type(value) is type(expected) and value == expected


class _Compiler:
    def __init__(self, root: dict[str, Any], renamed: dict[str, str]) -> None:
        self.root = root
        self.renamed = renamed
        self.cache: dict[tuple[int, bool], Predicate] = {}

    def resolve(self, schema: Any) -> Any:
        seen = 0
        while isinstance(schema, dict) and "$ref" in schema and seen < 32:
            ref = schema["$ref"]
            target: Any = self.root
            if isinstance(ref, str) and ref.startswith("#/"):
                for part in ref[2:].split("/"):
                    target = target.get(part, {}) if isinstance(target, dict) else {}
            extra = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**target, **extra} if extra else target
            seen += 1
        return schema

    def compile(self, schema: Any, judge: bool = True) -> Predicate:
        """`judge`: whether keys unknown to an object's schema are judged (not inside an
        `if`'s branch, as in the walk)."""
        key = (id(schema), judge)
        found = self.cache.get(key)
        if found is None:
            self.cache[key] = lambda value: self.cache[key](value)  # noqa: PLW0108 - late-bound
            found = self.cache[key] = self._build(schema, judge)
        return found

    def _build(self, schema: Any, judge: bool) -> Predicate:
        if schema is True or schema == {}:
            return lambda value: True
        if not isinstance(schema, dict):
            return lambda value: False
        schema = self.resolve(schema)
        checks: list[Predicate] = []
        kind = schema.get("type")
        if kind is not None:
            checks.append(_type_check([kind] if isinstance(kind, str) else list(kind)))
        if "const" in schema:
            checks.append(_one_of_values([schema["const"]]))
        if "enum" in schema:
            checks.append(_one_of_values(list(schema["enum"])))
        props = {k: self.compile(v, judge) for k, v in schema.get("properties", {}).items()}
        required = [r for r in schema.get("required", ()) if isinstance(r, str)]
        additional = schema.get("additionalProperties", True)
        extra = self.compile(additional, judge) if isinstance(additional, dict) else None
        judge_keys = judge and "properties" in schema
        renamed = self.renamed
        known = list(schema.get("properties", {}))
        if props or required or additional is not True or judge_keys:
            def obj(value: Any) -> bool:
                if not isinstance(value, dict):
                    return True
                for name in required:
                    if name not in value:
                        return False
                unknown: list[str] = []
                for name, item in value.items():
                    check = props.get(name)
                    if check is not None:
                        if not check(item):
                            return False
                        continue
                    if additional is False or name in renamed:
                        return False
                    if extra is not None and not extra(item):
                        return False
                    unknown.append(name)
                if unknown and judge_keys:  # an unknown key close to an absent one: a typo
                    absent = [k for k in known if k not in value]
                    if absent and any(best(name, absent) for name in unknown):
                        return False
                return True
            checks.append(obj)
        items = schema.get("items")
        least = schema.get("minItems")
        if isinstance(items, dict) or isinstance(least, int):
            item_check = self.compile(items, judge) if isinstance(items, dict) else None

            def arr(value: Any) -> bool:
                if not isinstance(value, list):
                    return True
                if isinstance(least, int) and len(value) < least:
                    return False
                return item_check is None or all(item_check(v) for v in value)
            checks.append(arr)
        low, high, pattern = schema.get("minimum"), schema.get("maximum"), schema.get("pattern")
        if low is not None or high is not None:
            def rng(value: Any) -> bool:
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    return True
                return (low is None or value >= low) and (high is None or value <= high)
            checks.append(rng)
        if isinstance(pattern, str):
            compiled = re.compile(pattern)
            checks.append(lambda v: not isinstance(v, str) or bool(compiled.search(v)))
        if "not" in schema:
            negated = self.compile(schema["not"])
            checks.append(lambda v: not negated(v))
        for sub in schema.get("allOf", ()):
            checks.append(self.compile(sub, judge))
        for keyword in ("oneOf", "anyOf"):
            if keyword in schema:
                checks.append(_any([self.compile(b) for b in schema[keyword]]))
        if "if" in schema:
            checks.append(self._conditional(schema, judge))
        return _all(checks)

    def _conditional(self, schema: dict[str, Any], judge: bool) -> Predicate:
        test_schema = self.resolve(schema["if"]) if isinstance(schema["if"], dict) else {}
        tested = list(test_schema.get("properties", {}))
        test = self.compile(test_schema)
        then = self.compile(schema["then"], False) if "then" in schema else None
        other = self.compile(schema["else"], judge) if "else" in schema else None

        def cond(value: Any) -> bool:
            if not isinstance(value, dict) or not any(k in value for k in tested):
                return True  # as the walk: no branch when the tested key is absent
            if test(value):
                return then is None or then(value)
            return other is None or other(value)
        return cond


def compile_valid(schema: dict[str, Any], renamed: dict[str, str] | None = None, *,
                  at: dict[str, Any] | None = None) -> Predicate:
    """A predicate over loaded JSON values: True only when `SchemaCheck` (with the same
    renamed keys) would find nothing. `at`: a subschema of `schema` (its `$ref`s read from
    `schema`) that the walk applies with no condition, such as an aggregate's result."""
    return _Compiler(schema, renamed or {}).compile(schema if at is None else at)
