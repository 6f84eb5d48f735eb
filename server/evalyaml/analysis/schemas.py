"""The shipped JSON Schemas, loaded once and compiled once per process.

The schemas live in the top-level `schemas/` folder and ship inside the wheel as package data;
`importlib.resources` finds them in either layout.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from evalyaml.analysis.kinds import FileKind, Kind
from evalyaml.analysis.precheck import Predicate, compile_precheck

SCHEMA_IDS = {
    FileKind.DATASET: "https://evalyaml.dev/schemas/v1/dataset.schema.json",
    FileKind.RUBRIC: "https://evalyaml.dev/schemas/v1/rubric.schema.json",
    FileKind.JUDGE: "https://evalyaml.dev/schemas/v1/judge.schema.json",
}

CHECK_KINDS: tuple[str, ...] = (
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


def schema_text(kind: Kind) -> str:
    """A kind's shipped schema (`Kind.schema_file`); every format's live in `schemas/`."""
    if kind.schema_file is None:
        raise LookupError(f"{kind.value} has no schema")
    return (resources.files("evalyaml") / "schemas" / kind.schema_file).read_text(
        encoding="utf-8"
    )


@cache
def schema(kind: Kind) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema_text(kind))
    return loaded


@cache
def registry() -> Registry:
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
    """
    whole = Draft202012Validator(
        schema(kind), registry=registry(), format_checker=Draft202012Validator.FORMAT_CHECKER
    )
    return whole.evolve(schema=subschema(kind, pointer)) if pointer else whole


@cache
def precheck(kind: Kind, pointer: str = "") -> Predicate | None:
    """The compiled "certainly valid" test for a schema, or None when it cannot be compiled."""
    return compile_precheck(subschema(kind, pointer) if pointer else schema(kind))


@cache  # called per case and per check; the schemas never change (and are never mutated)
def subschema(kind: Kind, pointer: str) -> dict[str, Any]:
    node: Any = schema(kind)
    for part in pointer.strip("/").split("/"):
        if part:
            node = node[part]
    assert isinstance(node, dict)
    return node


def resolve_local(kind: Kind, node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        return subschema(kind, ref[1:])
    return node


def known_properties(kind: Kind, node: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Properties a schema object allows, following a local `$ref` (how closed kinds extend the
    shared check base)."""
    out: dict[str, dict[str, Any]] = {}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        out.update(known_properties(kind, subschema(kind, ref[1:])))
    out.update(node.get("properties", {}))
    return out


def check_schema(check_kind: str) -> dict[str, Any] | None:
    if check_kind not in CHECK_KINDS:
        return None
    return subschema(FileKind.RUBRIC, f"/$defs/check_{check_kind}")


def description(node: dict[str, Any]) -> str:
    text = node.get("description")
    return text if isinstance(text, str) else ""
