"""Completion and hover inside JSON objects and JSONL rows, from the kind's JSON Schema.

The cursor comes from `json_cursor`; the schema from the kind's format: `FormatIde.schema_of`
when the format reads it from the text (Every Eval Ever picks the version a file or a row
declares), else the kind's shipped schema. Keys offered are the object's properties not yet
present, required first, each inserted as a quoted name with a colon and a value skeleton for
its type; values are the enum's (or const's) values, true/false and null as the type allows.
Hover shows a key's description, or a value's key description with the allowed values.
The schema is walked with `$ref`, `allOf`, `anyOf`/`oneOf` (the object branches' properties,
merged) and `if`/`then`/`else` (every branch's properties), so every key a version knows is
offered wherever it may appear.
"""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any

from evalyaml.core.kinds import FormatKind, Kind
from evalyaml.core.schemas import schema as shipped_schema
from evalyaml.formats import format_of
from evalyaml.ide.completion import Completion, CompletionKind
from evalyaml.ide.context import ITEM, PathPart
from evalyaml.ide.items import HoverInfo
from evalyaml.ide.json_cursor import JsonCursor, Slot, cursor_at
from evalyaml.ide.source import Source
from evalyaml.syntax.text import Position, Span
from evalyaml.workspace.index import Workspace

Schema = dict[str, Any]
JSON_SUFFIXES = (".json", ".jsonl")


def is_json(path: PurePath | str | None) -> bool:
    return path is not None and PurePath(path).suffix.lower() in JSON_SUFFIXES


def _scope(doc: Source, pos: Position) -> tuple[str, int, int]:
    """The JSON value the cursor is in: (its text, its offset in the document, the cursor's
    offset in it). A JSONL row is its own line."""
    lines = doc.lines
    if doc.path is not None and PurePath(doc.path).suffix.lower() == ".jsonl":
        start = lines.line_start(pos.line)
        text = lines.line_text(pos.line).rstrip("\r\n")
        return text, start, min(pos.character, len(text))
    return doc.text, 0, lines.offset(pos)


def schema_for(kind: Kind, text: str) -> Schema | None:
    ide = format_of(kind).ide
    found = ide.schema_of(kind, text) if ide.schema_of is not None else None
    if found is not None:
        return dict(found)
    if kind.schema_file is None:
        return None
    try:
        return shipped_schema(kind)
    except (LookupError, OSError, ValueError):
        return None


# ------------------------------------------------------------------------- the schema walk
def _resolve(root: Schema, node: Any, depth: int = 0) -> Schema:
    while isinstance(node, dict) and "$ref" in node and depth < 32:
        ref = node["$ref"]
        target: Any = root
        if isinstance(ref, str) and ref.startswith("#/"):
            for part in ref[2:].split("/"):
                target = target.get(part, {}) if isinstance(target, dict) else {}
        else:
            target = {}
        extra = {k: v for k, v in node.items() if k != "$ref"}
        node = {**target, **extra} if extra else target
        depth += 1
    return node if isinstance(node, dict) else {}


def _branches(root: Schema, node: Schema) -> list[Schema]:
    """The node and every schema it combines with (allOf, anyOf, oneOf, if/then/else)."""
    out = [node]
    for keyword in ("allOf", "anyOf", "oneOf"):
        for sub in node.get(keyword, ()):
            out.extend(_branches(root, _resolve(root, sub)))
    for keyword in ("then", "else"):
        if isinstance(node.get(keyword), dict):
            out.extend(_branches(root, _resolve(root, node[keyword])))
    return out


def properties(root: Schema, node: Schema) -> dict[str, Schema]:
    props: dict[str, Schema] = {}
    for branch in _branches(root, node):
        for name, sub in branch.get("properties", {}).items():
            resolved = _resolve(root, sub)
            if name not in props or (not props[name].get("description")
                                     and resolved.get("description")):
                props[name] = resolved
    return props


def required(root: Schema, node: Schema) -> list[str]:
    names: list[str] = list(node.get("required", ()))
    for sub in node.get("allOf", ()):
        names.extend(_resolve(root, sub).get("required", ()))
    return list(dict.fromkeys(n for n in names if isinstance(n, str)))


def walk(root: Schema, path: tuple[PathPart, ...]) -> Schema | None:
    node: Schema | None = _resolve(root, root)
    for part in path:
        if node is None:
            return None
        if part == ITEM:
            items = [b.get("items") for b in _branches(root, node) if isinstance(b.get("items"),
                                                                                  dict)]
            node = _resolve(root, items[0]) if items else None
        else:
            node = properties(root, node).get(str(part))
    return node


def _types(root: Schema, node: Schema) -> list[str]:
    out: list[str] = []
    for branch in _branches(root, node):
        kind = branch.get("type")
        for name in [kind] if isinstance(kind, str) else (kind or []):
            if name not in out:
                out.append(name)
    return out


def _enum(root: Schema, node: Schema) -> list[Any]:
    values: list[Any] = []
    for branch in _branches(root, node):
        for value in branch.get("enum", ()):
            if value not in values:
                values.append(value)
        if "const" in branch and branch["const"] not in values:
            values.append(branch["const"])
    return values


# ------------------------------------------------------------------------------ completion
def complete(doc: Source, kind: Kind, pos: Position, *, snippets: bool,
             workspace: Workspace | None = None) -> list[Completion]:
    text, base, offset = _scope(doc, pos)
    cursor = cursor_at(text, offset)
    if cursor is None:
        return []
    span = doc.lines.span(base + cursor.start, base + cursor.end)
    if cursor.slot is not Slot.KEY:
        found = _format_values(kind, cursor, span, workspace)
        if found is not None:
            return found
    root = schema_for(kind, text)
    if root is None:
        return []
    if cursor.slot is Slot.KEY:
        return _keys(root, cursor, span, snippets=snippets)
    return _values(root, cursor, span)


def _format_values(kind: Kind, cursor: JsonCursor, span: Span, workspace: Workspace | None
                   ) -> list[Completion] | None:
    """As in YAML: the index's ids where the format names another file by id
    (`FormatIde.references`), the values it lists beyond its schema (`FormatIde.values`:
    Apastra's assertion types); None when neither applies here."""
    if not isinstance(kind, FormatKind):
        return None
    ide = format_of(kind).ide
    where = tuple("*" if part is ITEM else str(part) for part in cursor.value_path)
    target = ide.references.get((kind.value, where))
    names: list[tuple[str, str | None]]
    if target is not None:
        if workspace is None:
            return None
        names = [(name, target.value) for name in workspace.known_ids(target)]
    else:
        docs = ide.values.get((kind.value, where))
        if docs is None:
            return None
        names = [(doc.name, doc.doc or None) for doc in docs]
    return [Completion(
        label=name, kind=CompletionKind.REFERENCE if target is not None else
        CompletionKind.VALUE, span=span, new_text=json.dumps(name), sort_text=f"{index:04d}",
        filter_text=json.dumps(name) if cursor.quoted else name,
        detail=detail if target is not None else cursor.key,
        documentation=None if target is not None else detail, snippet=None)
        for index, (name, detail) in enumerate(names)]


def _skeleton(root: Schema, prop: Schema, index: int) -> str:
    """A snippet for a value of this schema."""
    values = [v for v in _enum(root, prop) if isinstance(v, str)]
    if values and len(values) <= 20 and all("," not in v and "|" not in v for v in values):
        return f'"${{{index}|{",".join(values)}|}}"'
    kinds = [k for k in _types(root, prop) if k != "null"]
    first = kinds[0] if kinds else None
    return {"string": f'"${index}"', "object": f"{{${index}}}", "array": f"[${index}]",
            "boolean": f"${{{index}|true,false|}}"}.get(first or "", f"${index}")


def _keys(root: Schema, cursor: JsonCursor, span: Span, *, snippets: bool) -> list[Completion]:
    node = walk(root, cursor.path)
    if node is None:
        return []
    props = properties(root, node)
    needed = required(root, node)
    items: list[Completion] = []
    for name, prop in props.items():
        if name in cursor.present:
            continue
        is_required = name in needed
        kinds = _types(root, prop)
        quoted = json.dumps(name)
        if cursor.colon_follows or not snippets:
            new_text = quoted if cursor.colon_follows else f"{quoted}: "
        else:
            new_text = f"{quoted}: {_skeleton(root, prop, 1)}"
        order = needed.index(name) if is_required else 0
        items.append(Completion(
            label=name, kind=CompletionKind.PROPERTY, span=span, new_text=new_text,
            sort_text=f"0{order:02d}{name}" if is_required else f"1{name}",
            filter_text=quoted if cursor.quoted else name,
            detail=("required" if is_required else "optional")
            + (f" · {' | '.join(kinds)}" if kinds else ""),
            documentation=_description(prop) or None,
            snippet=snippets and not cursor.colon_follows))
    return items


def _values(root: Schema, cursor: JsonCursor, span: Span) -> list[Completion]:
    node = walk(root, cursor.value_path)
    if node is None:
        return []
    kinds = _types(root, node)
    values: list[Any] = list(_enum(root, node))
    if not values:
        if "boolean" in kinds:
            values.extend([True, False])
        if "null" in kinds:
            values.append(None)
    doc = _description(node) or None
    items = []
    for index, value in enumerate(values):
        text = json.dumps(value)
        items.append(Completion(
            label=text if not isinstance(value, str) else value, kind=CompletionKind.VALUE,
            span=span, new_text=text, sort_text=f"{index:03d}",
            filter_text=text if cursor.quoted or not isinstance(value, str) else value,
            detail=cursor.key, documentation=doc, snippet=None))
    return items


# ----------------------------------------------------------------------------------- hover
def hover(doc: Source, kind: Kind, pos: Position) -> HoverInfo | None:
    text, base, offset = _scope(doc, pos)
    cursor = cursor_at(text, offset)
    if cursor is None or cursor.start == cursor.end:
        return None
    root = schema_for(kind, text)
    if root is None:
        return None
    span = doc.lines.span(base + cursor.start, base + cursor.end)
    if cursor.slot is Slot.KEY:
        name = text[cursor.start:cursor.end].strip('"')
        node = walk(root, cursor.path)
        prop = properties(root, node).get(name) if node is not None else None
        if prop is None:
            return None
        needed = node is not None and name in required(root, node)
        kinds = " | ".join(_types(root, prop))
        head = f"**{name}**" + (f" · {kinds}" if kinds else "") + \
            (" · required" if needed else "")
        body = _description(prop)
        return HoverInfo(head + (f"\n\n{body}" if body else ""), span)
    node = walk(root, cursor.value_path)
    if node is None or cursor.key is None:
        return None
    allowed = _enum(root, node)
    body = _description(node)
    markdown = f"**{cursor.key}**" + (f"\n\n{body}" if body else "")
    if allowed:
        markdown += "\n\nOne of: " + ", ".join(f"`{json.dumps(v)}`" for v in allowed)
    return HoverInfo(markdown, span)


def _description(node: Schema) -> str:
    text = node.get("description")
    return text if isinstance(text, str) else ""
