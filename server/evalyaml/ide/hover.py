"""Hover: a key's or value's schema description; on a reference, what it resolves to; on a
format's item id, what the format says about it. The answer is Markdown and the span it is
about."""

from __future__ import annotations

import re
from datetime import date

from evalyaml.core.kinds import FormatKind, Kind
from evalyaml.formats import format_of
from evalyaml.formats.base import Cursor
from evalyaml.ide import json_features, lookup, schema_nav
from evalyaml.ide.context import ITEM, Context, PathPart
from evalyaml.ide.describe import describe_definition, template_variables
from evalyaml.ide.items import HoverInfo
from evalyaml.ide.source import Source
from evalyaml.syntax.text import Position, Span
from evalyaml.workspace.index import Workspace, normalize
from evalyaml.workspace.named import RecordingFiles
from evalyaml.workspace.resolve import Status

_VARIABLE = re.compile(r"\{\{\{?[#^/&]?\s*([A-Za-z_][\w.]*)\s*\}?\}\}")
_WORD = re.compile(r"[A-Za-z0-9_$\-]+")




def hover(doc: Source, kind: Kind, pos: Position, *, workspace: Workspace,
          today: date | None) -> HoverInfo | None:
    if isinstance(kind, FormatKind):
        tip = _format_hover(doc, kind, pos, workspace=workspace)
        if tip is not None:
            return tip
        item = _item_detail(doc, pos, workspace=workspace)
        if item is not None:
            return item
        referenced = _format_reference(doc, pos, workspace=workspace, today=today)
        if referenced is not None or kind.schema_file is None:
            return referenced
    if json_features.is_json(doc.path):
        return json_features.hover(doc, kind, pos)  # YAML's cursor cannot read JSON
    ctx = lookup.context(doc, pos)
    if ctx is None:
        return None
    line = doc.lines.line_text(pos.line)
    if ctx.in_block_scalar:
        variables = {v.name: v.doc for v in template_variables(kind, ctx.path)}
        for match in _VARIABLE.finditer(line) if variables else ():
            if match.start() <= pos.character <= match.end():
                name = match.group(1).split(".", 1)[0]
                if name in variables:
                    text = f"**`{{{{ {name} }}}}`** · template variable\n\n{variables[name]}"
                    return _hover(text, pos.line, match.start(), match.end())
        return None
    if ctx.in_value:
        return _value_hover(doc, kind, ctx, pos, workspace=workspace, today=today)
    if ctx.in_key:
        word = None
        for match in _WORD.finditer(line):
            if match.start() <= pos.character <= match.end() and match.start() >= ctx.start_col:
                word = match
                break
        if word is None:
            return None
        key = word.group()
        check_kind = _kind(ctx.siblings)
        parent = _walk(kind, ctx.path, check_kind)
        if parent is None:
            return None
        node = schema_nav.child(parent, key, check_kind)
        if node is None:
            return None
        required = key in schema_nav.required(parent, check_kind)
        kind_text = schema_nav.type_of(node.schema)
        head = f"**{key}**" + (f" · {kind_text}" if kind_text else "") + \
            (" · required" if required else "")
        values = schema_nav.enum_values(node.schema)
        tail = f"\n\nOne of: {', '.join(f'`{v}`' for v in values)}" if values else ""
        return _hover(f"{head}\n\n{schema_nav.description(node.schema)}{tail}", pos.line,
                      word.start(), word.end())
    return None


def _format_hover(doc: Source, kind: FormatKind, pos: Position, *, workspace: Workspace
                  ) -> HoverInfo | None:
    """The format's own hover (`FormatIde.hover`), reading other files through the workspace
    (open buffers first, never outside the roots)."""
    answer = format_of(kind).ide.hover
    if answer is None or doc.path is None:
        return None
    path = normalize(doc.path)
    root = workspace.root_for(path).path
    roots = [r.path for r in workspace.roots] or [root]
    cursor = Cursor(str(path), kind, doc.text, pos.line, pos.character, str(root),
                    workspace.analysis(path))
    tip = answer(cursor, RecordingFiles(workspace, roots))
    if tip is None:
        return None
    return _hover(tip.markdown, pos.line, tip.start, tip.end)


def _format_reference(doc: Source, pos: Position, *, workspace: Workspace,
                      today: date | None) -> HoverInfo | None:
    """Another format's reference by id (in YAML or JSON): the referenced file's definition
    (an Apastra suite's evaluator id shows the evaluator's metrics)."""
    analysis = workspace.analysis(normalize(doc.path)) if doc.path is not None else None
    found = lookup.analysed_reference_at(doc, analysis, pos)
    if found is None or found.id_span is None:
        return None
    ref = found.reference
    resolution = workspace.resolve(ref)
    if resolution.status is Status.RESOLVED and resolution.definition is not None:
        root = workspace.root_for(doc.path).path if doc.path else None
        text = describe_definition(resolution.path, resolution.definition, root, today)
    else:
        text = f"`{ref.id}`: no {ref.target.value} with {ref.target.noun} `{ref.id}` in the " \
               "workspace"
    span = found.id_span
    return _hover(text, span.start.line, span.start.character, span.end.character)


def _item_detail(doc: Source, pos: Position, *, workspace: Workspace) -> HoverInfo | None:
    """What a format says about one item (a Padosoft sample's row identity), on its id. The
    index's analysis may be of an older text: the id must still be written where it says."""
    analysis = workspace.analysis(normalize(doc.path)) if doc.path is not None else None
    for case in analysis.cases if analysis else ():
        span = case.id_span
        if case.detail is None or span is None or not span.contains(pos):
            continue
        written = doc.lines.line_text(span.start.line)[span.start.character:span.end.character]
        if span.start.line != span.end.line or case.id is None or \
                written.removeprefix(written[:1] if written[:1] in "'\"" else "") \
                .removesuffix(written[-1:] if written[-1:] in "'\"" else "") != case.id:
            return None
        return _hover(f"**{case.id}**\n\n{case.detail}", span.start.line,
                      span.start.character, span.end.character)
    return None


def _kind(siblings: dict[str, str]) -> str | None:
    value = siblings.get("kind")
    return value.strip().strip("'\"") or None if value is not None else None


def _walk(kind: Kind, path: list[PathPart], check_kind: str | None
          ) -> schema_nav.Node | None:
    kinds = {len(path) - 1: check_kind} if check_kind and path and path[-1] == ITEM else {}
    return schema_nav.walk(kind, path, kinds)


def _value_hover(doc: Source, kind: Kind, ctx: Context, pos: Position, *,
                 workspace: Workspace, today: date | None) -> HoverInfo | None:
    key = ctx.path[-1]
    line = doc.lines.line_text(pos.line)
    value = line[ctx.start_col:ctx.end_col]
    if not isinstance(key, str) or not value:
        return None
    if key in lookup.reference_keys():
        found = lookup.reference_at(doc, pos)
        if found is None:
            return None
        ref = found.reference
        root = workspace.root_for(doc.path).path if doc.path else None
        if ref.id is None:
            text = f"`{ref.raw}` is not a valid reference: write " \
                   f"`{ref.target.value}/<id>@<version>`"
        else:
            resolution = workspace.resolve(ref)
            if resolution.status is Status.RESOLVED and resolution.definition is not None:
                text = f"`{ref.raw}` →\n\n" + describe_definition(
                    resolution.path, resolution.definition, root, today)
            elif resolution.status is Status.UNKNOWN_ID:
                text = f"`{ref.raw}`: no {ref.target.value} with id `{ref.id}` in the workspace"
            else:
                versions = [d.version for _, d in resolution.candidates if d.version]
                text = f"`{ref.raw}`: no version of {ref.target.value}/{ref.id} matches " \
                       f"this pin; available: {', '.join(versions) or 'none'}"
        return _hover(text, pos.line, ctx.start_col, ctx.end_col)
    parent = _walk(kind, ctx.path[:-1], _kind(ctx.siblings))
    if parent is None:
        return None
    if parent.is_check and key == "kind":
        kind_schema = schema_nav.check_schema(value)
        if kind_schema is None:
            return _hover(f"`{value}`: not a built-in check kind (another module may provide "
                          "it)", pos.line, ctx.start_col, ctx.end_col)
        props = schema_nav.properties(schema_nav.check_node(value), value)
        required = schema_nav.required(parent, value)
        fields = ", ".join(f"`{p}`" + (" (required)" if p in required else "")
                           for p in props if p not in ("kind", "id", "description", "weight"))
        text = f"**{kind_schema.get('title', value)}**\n\n{schema_nav.description(kind_schema)}"
        if fields:
            text += f"\n\nFields: {fields}"
        return _hover(text, pos.line, ctx.start_col, ctx.end_col)
    node = schema_nav.child(parent, key, _kind(ctx.siblings))
    if node is None:
        return None
    values = schema_nav.enum_values(node.schema)
    head = f"**{key}**: `{value}`"
    if values and value not in values:
        head += f" (not one of {', '.join(f'`{v}`' for v in values)})"
    return _hover(f"{head}\n\n{schema_nav.description(node.schema)}", pos.line,
                  ctx.start_col, ctx.end_col)


def _hover(text: str, line: int, start: int, end: int) -> HoverInfo:
    return HoverInfo(text, Span(Position(line, start), Position(line, end)))
