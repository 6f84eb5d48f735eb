"""Apastra's 55 schemas, as Apastra ships them, in one registry keyed by every `$id` form.

The schemas mix drafts (37 declare 2020-12, 18 draft-07) and `$id` styles
(`https://promptops.apastra.com/schemas/x.schema.json`, `https://apastra.com/schemas/...`,
`https://promptops.com/...`, bare `apastra-x-v1`, or none). Each schema is validated with the
validator class its own `$schema` names (not one draft for all, as Apastra's shell validators
do), and every schema is registered under its declared `$id`, its file name (as a relative
`$ref` or ajv's `-r` names it) and the canonical promptops.apastra.com URL, so a `$ref` in any of
those forms resolves to the same resource. Nothing is ever fetched: an unknown `$ref` fails
closed (the registry has no retrieve function).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from evalyaml.formats.apastra.kinds import SCHEMA_NAMES

if TYPE_CHECKING:  # jsonschema loads when a file is validated, not with the editor tables
    from jsonschema.protocols import Validator
    from referencing import Registry, Specification

CANONICAL = "https://promptops.apastra.com/schemas/{name}.schema.json"


@cache
def schema(name: str) -> dict[str, Any]:
    """The upstream schema file `<name>.schema.json`, unchanged."""
    text = (resources.files("evalyaml") / "schemas" / "apastra" / f"{name}.schema.json"
            ).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def is_draft7(name: str) -> bool:
    return "draft-07" in str(schema(name).get("$schema", ""))


def _specification(name: str) -> Specification[Any]:
    from referencing.jsonschema import DRAFT7, DRAFT202012

    return DRAFT7 if is_draft7(name) else DRAFT202012


def id_forms(name: str) -> list[str]:
    """Every URI a `$ref` may use for this schema."""
    forms = [CANONICAL.format(name=name), f"{name}.schema.json", f"./{name}.schema.json",
             f"apastra-{name}-v1"]
    declared = schema(name).get("$id")
    if isinstance(declared, str) and declared not in forms:
        forms.insert(0, declared)
    return forms


@cache
def registry() -> Registry[Any]:
    from referencing import Registry, Resource

    pairs: list[tuple[str, Resource[Any]]] = []
    for name in SCHEMA_NAMES:
        resource = Resource.from_contents(schema(name),
                                          default_specification=_specification(name))
        pairs.extend((uri, resource) for uri in id_forms(name))
    return Registry().with_resources(pairs)


@cache
def validator(name: str) -> Validator:
    """The validator for one schema, of the class its `$schema` declares."""
    from jsonschema import Draft7Validator, Draft202012Validator

    cls: Any = Draft7Validator if is_draft7(name) else Draft202012Validator
    made: Validator = cls(schema(name), registry=registry())
    return made


@cache
def item_validator(name: str, key: str) -> Validator:
    """The validator of one item of the root key `key`'s list in schema `name` (its
    `properties.<key>.items`), of the document's class, resolving through the same registry."""
    from jsonschema import Draft7Validator, Draft202012Validator

    cls: Any = Draft7Validator if is_draft7(name) else Draft202012Validator
    made: Validator = cls(schema(name)["properties"][key]["items"], registry=registry())
    return made


def description(node: dict[str, Any]) -> str:
    text = node.get("description")
    return text if isinstance(text, str) else ""
