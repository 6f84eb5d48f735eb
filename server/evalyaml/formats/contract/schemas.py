"""The contract's schemas: their ids, the `$ref` registry between them, and their validators,
compiled once per process; and the check union of rubrics (`CHECK_KINDS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from evalyaml.core.kinds import FileKind, Kind
from evalyaml.core.precheck import (
    Narrowing,
    Predicate,
    compile_narrowing,
    compile_precheck,
    narrowed,
)
from evalyaml.core.quickerrors import QuickErrors, compile_quick
from evalyaml.core.schemas import schema, subschema
from evalyaml.formats.contract.words import CHECK_KINDS

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator, ValidationError
    from referencing import Registry

SCHEMA_IDS = {
    FileKind.DATASET: "https://evalyaml.dev/schemas/v1/dataset.schema.json",
    FileKind.RUBRIC: "https://evalyaml.dev/schemas/v1/rubric.schema.json",
    FileKind.JUDGE: "https://evalyaml.dev/schemas/v1/judge.schema.json",
}

__all__ = ["CHECK_KINDS", "SCHEMA_IDS", "check_schema", "precheck", "registry",
           "skeleton_precheck", "validator", "validator_for"]


@cache
def registry() -> Registry:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resources_ = [
        (SCHEMA_IDS[kind], Resource.from_contents(schema(kind), default_specification=DRAFT202012))
        for kind in FileKind
    ]
    return Registry().with_resources(resources_)


@cache
def validator(kind: Kind, pointer: str = "") -> Draft202012Validator:
    """A validator for a whole file (`pointer` empty) or one `$defs` entry, e.g. `/$defs/case`.

    A sub-validator is `evolve`d from the file's validator rather than built on a `$ref`, so it
    resolves references against the right base without paying a `$ref` lookup per instance.
    jsonschema is imported here, with the first file a precheck cannot vouch for.
    """
    from jsonschema import Draft202012Validator

    whole = Draft202012Validator(
        schema(kind), registry=registry(), format_checker=Draft202012Validator.FORMAT_CHECKER
    )
    return whole.evolve(schema=subschema(kind, pointer)) if pointer else whole


def validator_for(kind: Kind, pointer: str, value: Any
                  ) -> Callable[[], Draft202012Validator | PropertyDescent | WholeSchemaErrors]:
    """The validator for `value`, built when the precheck could not vouch for it: for an
    object, one that walks only the properties the precheck doubts (the same errors, in the
    same order: `precheck.compile_narrowing`)."""
    return partial(_validator_of, kind, pointer, value)


def _validator_of(kind: Kind, pointer: str, value: Any
                  ) -> Draft202012Validator | PropertyDescent | WholeSchemaErrors:
    narrowing = _narrowing(kind, pointer)
    doubted = narrowing(value) if narrowing is not None else None
    if doubted is None:
        return validator(kind, pointer)
    required = _silent_root(kind, pointer)
    if required is not None and all(name in value for name in required):
        return PropertyDescent(kind, pointer, doubted)
    return WholeSchemaErrors(_narrowed_validator(kind, pointer, doubted),
                             subschema(kind, pointer) if pointer else schema(kind))


_ROOT_SILENT = frozenset({"title", "description", "examples", "default", "$comment",
                          "deprecated", "readOnly", "writeOnly", "type", "required",
                          "properties", "additionalProperties"})


@cache
def _silent_root(kind: Kind, pointer: str) -> tuple[str, ...] | None:
    """The required names of an object schema whose own keywords can fail an object only
    through `required` (annotations, `type: object`, `additionalProperties: true` beside
    `properties`); None for any other schema."""
    root = subschema(kind, pointer) if pointer else schema(kind)
    if not set(root) <= _ROOT_SILENT or root.get("type", "object") != "object" or \
            root.get("additionalProperties", True) is not True or \
            not all(isinstance(sub, dict) for sub in root.get("properties", {}).values()):
        return None  # (a `false` property fails with the object's own path: jsonschema's own)
    required = root.get("required", [])
    return tuple(required) if all(isinstance(name, str) for name in required) else None


class WholeSchemaErrors:
    """A narrowed validator's errors with the whole schema where they name the narrowed one
    (an error of the object itself, such as `required`): the reporter reads the schema's
    properties from it (`SchemaReporter._misspelt`), and must see all of them."""

    __slots__ = ("_narrowed", "_whole")

    def __init__(self, narrowed: Draft202012Validator, whole: dict[str, Any]) -> None:
        self._narrowed, self._whole = narrowed, whole

    def iter_errors(self, value: Any) -> Iterator[ValidationError]:
        narrowed_schema = self._narrowed.schema
        for error in self._narrowed.iter_errors(value):
            if error.schema is narrowed_schema:
                error.schema = self._whole
            yield error


class PropertyDescent:
    """jsonschema's errors for an object that has every required key and whose doubted
    properties are `doubted`, without validating the object itself: its schema can fail it only
    through `required` (`_silent_root`), so every error comes from its `properties` keyword,
    which descends into each property present, in the schema's order. Here each doubted
    property goes straight to a validator of its own subschema, kept for the process, and its
    errors get the two path steps `descend` would have added: the same errors in the same
    order (`tests/core/test_precheck.py`), at a third of the cost (no root pass, no `evolve` per
    case). A property whose schema is simple enough has its errors made without jsonschema's
    walk (`core.quickerrors`), at a tenth of that."""

    __slots__ = ("_kind", "_pointer", "doubted")

    def __init__(self, kind: Kind, pointer: str, doubted: tuple[str, ...]) -> None:
        self._kind, self._pointer, self.doubted = kind, pointer, doubted

    def iter_errors(self, value: dict[str, Any]) -> Iterator[ValidationError]:
        for name in self.doubted:
            quick = _quick_errors(self._kind, self._pointer, name)
            found = quick(value[name]) if quick is not None else None
            for error in found if found is not None else _property_validator(
                    self._kind, self._pointer, name).iter_errors(value[name]):
                error.path.appendleft(name)
                error.schema_path.appendleft(name)
                error.schema_path.appendleft("properties")
                yield error


@cache
def _property_validator(kind: Kind, pointer: str, name: str) -> Draft202012Validator:
    root = subschema(kind, pointer) if pointer else schema(kind)
    return validator(kind, pointer).evolve(schema=root["properties"][name])


@cache
def _quick_errors(kind: Kind, pointer: str, name: str) -> QuickErrors | None:
    property_validator = _property_validator(kind, pointer, name)
    return compile_quick(property_validator.schema, property_validator.TYPE_CHECKER)


@cache
def _narrowing(kind: Kind, pointer: str) -> Narrowing | None:
    return compile_narrowing(subschema(kind, pointer) if pointer else schema(kind))


@cache
def _narrowed_validator(kind: Kind, pointer: str, doubted: tuple[str, ...]
                        ) -> Draft202012Validator:
    base = validator(kind, pointer)
    return base.evolve(schema=narrowed(base.schema, doubted))


@cache
def precheck(kind: Kind, pointer: str = "") -> Predicate | None:
    """The compiled "certainly valid" test for a schema, or None when it cannot be compiled."""
    return compile_precheck(subschema(kind, pointer) if pointer else schema(kind))


@cache
def skeleton_precheck() -> Predicate | None:
    """The "certainly valid" test of a dataset's root with `questions: []` (what
    `analyze_dataset_root` validates: each case is validated on its own). The schema's `items`
    of `questions` (a `$ref` to the case) cannot matter for an empty list and is left out, with
    the identifiers of the schema file, so that a plain dataset root needs no jsonschema either.
    """
    root = {key: value for key, value in schema(FileKind.DATASET).items()
            if key not in ("$schema", "$id", "$defs")}
    properties = dict(root["properties"])
    properties["questions"] = {key: value for key, value in properties["questions"].items()
                               if key != "items"}
    root["properties"] = properties
    return compile_precheck(root)


def check_schema(check_kind: str) -> dict[str, Any] | None:
    if check_kind not in CHECK_KINDS:
        return None
    return subschema(FileKind.RUBRIC, f"/$defs/check_{check_kind}")
