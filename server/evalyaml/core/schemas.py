"""The shipped JSON Schemas of every format, loaded once per process, and walks over them.

Compiled validators and the `$ref` registry are each format's (the contract's are in
`formats/contract/schemas.py`).

The schemas live in the top-level `schemas/` folder and ship inside the wheel as package data:
`evalyaml/schemas` beside this package's modules in either layout (a link in the source tree).
`importlib.resources`, which also reads a zipped package, is asked only when that folder is
not on disk: importing it (with `tempfile` and `zipfile`) is a tenth of a small check's start.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from evalyaml.core.kinds import Kind

_PACKAGE = Path(__file__).parent.parent


def schema_text(kind: Kind) -> str:
    """A kind's shipped schema (`Kind.schema_file`); every format's live in `schemas/`."""
    if kind.schema_file is None:
        raise LookupError(f"{kind.value} has no schema")
    shipped = _PACKAGE / "schemas" / kind.schema_file
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    from importlib import resources

    return (resources.files("evalyaml") / "schemas" / kind.schema_file).read_text(
        encoding="utf-8"
    )


@cache
def schema(kind: Kind) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema_text(kind))
    return loaded


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


def description(node: dict[str, Any]) -> str:
    text = node.get("description")
    return text if isinstance(text, str) else ""
