"""Walking the shipped schemas along a YAML path, for completion and hover.

A path is what `context` produces: keys and `ITEM` markers from the root of a file of a known
kind. A format's union (`formats.base.SchemaUnion`: the contract's rubric checks) is resolved by
the check's `kind` when it is known (then the kind's own closed schema, shared base included)
and otherwise by looking a key up in every kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from evalyaml.core.kinds import Kind
from evalyaml.core.schemas import known_properties, resolve_local, schema, subschema
from evalyaml.formats import FORMATS
from evalyaml.formats.base import SchemaUnion
from evalyaml.ide.context import ITEM, PathPart

Schema = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Node:
    kind: Kind
    schema: Schema
    is_check: bool = False  # the check union (resolve with the check's kind)


@cache
def union() -> SchemaUnion | None:
    """The union the schemas' walks resolve by a key's value (`FormatIde.unions`; one today)."""
    return next((u for fmt in FORMATS for u in fmt.ide.unions), None)


def _members() -> tuple[str, ...]:
    found = union()
    return found.members if found else ()


def check_schema(member: str) -> Schema | None:
    """The schema of one member of the union (a built-in check kind); None for other names."""
    found = union()
    if found is None or member not in found.members:
        return None
    return subschema(found.kind, found.member_pointer.format(member))


def _base() -> Node:
    found = union()
    assert found is not None  # a union node exists only when a format declares its union
    return Node(found.kind, subschema(found.kind, found.base_pointer))


def root(kind: Kind) -> Node:
    return Node(kind, schema(kind))


def _resolve(kind: Kind, node: Schema) -> Node:
    found = union()
    if found is not None and node.get("$ref") == found.ref:
        return Node(kind, subschema(kind, found.ref[1:]), is_check=True)
    ref = node.get("$ref")
    if isinstance(ref, str) and not ref.startswith("#"):
        other = _kind_by_schema_id().get(ref) or _kind_by_schema_id().get(ref.rsplit("/", 1)[-1])
        if other is not None:
            return Node(other, schema(other))
    return Node(kind, resolve_local(kind, node))


@cache
def _kind_by_schema_id() -> dict[str, Kind]:
    """Every shipped schema by its `$id` and by its file name, so that a `$ref` to another
    schema of the same format (Apastra's quick eval names its case schema by URL) is walked."""
    out: dict[str, Kind] = {}
    for fmt in FORMATS:
        for kind in fmt.kinds:
            if kind.schema_file is None:
                continue
            try:
                declared = schema(kind).get("$id")
            except (OSError, ValueError):
                continue
            if isinstance(declared, str):
                out.setdefault(declared, kind)
            out.setdefault(kind.schema_file.rsplit("/", 1)[-1], kind)
    return out


def check_node(kind_name: str | None) -> Node:
    """The schema of one check: its kind's own schema, or the shared base for other kinds."""
    found = check_schema(kind_name) if kind_name else None
    base = _base()
    return Node(base.kind, found) if found is not None else base


def properties(node: Node, check_kind: str | None = None) -> dict[str, Schema]:
    if node.is_check:
        member = check_node(check_kind)
        return known_properties(member.kind, member.schema)
    return known_properties(node.kind, node.schema)


def required(node: Node, check_kind: str | None = None) -> list[str]:
    if node.is_check:
        target = check_node(check_kind).schema
        base = _base().schema
        return list(dict.fromkeys([*base.get("required", []), *target.get("required", [])]))
    names = list(node.schema.get("required", []))
    ref = node.schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        names = [*subschema(node.kind, ref[1:]).get("required", []), *names]
    return list(dict.fromkeys(names))


def child(node: Node, part: PathPart, check_kind: str | None = None) -> Node | None:
    if part == ITEM:
        items = node.schema.get("items")
        return _resolve(node.kind, items) if isinstance(items, dict) else None
    assert isinstance(part, str)
    if node.is_check:
        if check_kind is not None and check_kind in _members():
            found = properties(node, check_kind).get(part)
            return _resolve(node.kind, found) if isinstance(found, dict) else None
        for name in (*_members(), None):  # a key looked up in every kind: first one wins
            found = properties(node, name).get(part)
            if isinstance(found, dict):
                return _resolve(node.kind, found)
        return None
    found = properties(node).get(part)
    return _resolve(node.kind, found) if isinstance(found, dict) else None


def walk(kind: Kind, path: list[PathPart], check_kinds: dict[int, str] | None = None
         ) -> Node | None:
    """The schema at `path`; `check_kinds` gives the check kind for the check mapping ending
    at a path index, when known (only the innermost one usually is)."""
    node: Node | None = root(kind)
    for index, part in enumerate(path):
        if node is None:
            return None
        node = child(node, part, (check_kinds or {}).get(index - 1))
    return node


def description(node: Schema) -> str:
    text = node.get("description")
    return text if isinstance(text, str) else ""


def enum_values(node: Schema) -> list[str]:
    values = node.get("enum")
    if isinstance(values, list):
        return [str(v) for v in values]
    if "const" in node:
        return [str(node["const"])]
    return []


def type_of(node: Schema) -> str | None:
    kind = node.get("type")
    return kind if isinstance(kind, str) else None
