"""Where a JSON Schema error is in a YAML or JSON tree: a path of keys and indexes walked to its
node (`locate`), and how messages name a path and a value's type. Each format turns the errors
into findings of its own codes (the contract: `formats/contract/schema_report.py`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from evalyaml.syntax.record import mutable_record
from evalyaml.syntax.tree import Mapping, Node, Sequence

Path = tuple[str | int, ...]

TYPE_NAMES = {
    "string": "a string",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "empty",
}


def type_name(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


def path_text(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the document"


@mutable_record
class Located:
    """A node found by path, with the key that owns it (None for list items and the root)."""

    node: Node | None
    key: Node | None
    parent: Node | None


def locate(root: Node, path: Iterable[str | int]) -> Located:
    node: Node | None = root
    key: Node | None = None
    parent: Node | None = None
    for part in path:
        if isinstance(node, Mapping) and isinstance(part, str):
            pair = node.pair(part)
            if pair is None:
                return Located(None, None, node)
            parent, (key, node) = node, pair
        elif isinstance(node, Sequence) and isinstance(part, int) and part < len(node.items):
            parent, key, node = node, None, node.items[part]
        else:
            return Located(None, None, node)
    return Located(node, key, parent)
