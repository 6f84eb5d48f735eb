"""The contract's schemas: their ids, the `$ref` registry between them, and their validators,
compiled once per process; and the check union of rubrics (`CHECK_KINDS`).
"""

from __future__ import annotations

from collections.abc import Callable
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
from evalyaml.core.schemas import schema, subschema
from evalyaml.formats.contract.words import CHECK_KINDS

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
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


def validator_for(kind: Kind, pointer: str, value: Any) -> Callable[[], Draft202012Validator]:
    """The validator for `value`, built when the precheck could not vouch for it: for an
    object, one that walks only the properties the precheck doubts (the same errors, in the
    same order: `precheck.compile_narrowing`)."""
    return partial(_validator_of, kind, pointer, value)


def _validator_of(kind: Kind, pointer: str, value: Any) -> Draft202012Validator:
    narrowing = _narrowing(kind, pointer)
    doubted = narrowing(value) if narrowing is not None else None
    return validator(kind, pointer) if doubted is None else \
        _narrowed_validator(kind, pointer, doubted)


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
