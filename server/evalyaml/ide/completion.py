"""Completion that works on half-typed lines.

The cursor's YAML context comes from `context` (no parse needed), the candidates from the
schemas (`schema_nav`) and, for references and bundles, from the workspace index:

- keys valid at the cursor, required ones first, keys already present left out, with the
  schema's description as documentation;
- enum values (check kinds insert a snippet with the kind's required fields; combine modes,
  score types, formats, aggregations, orders; true/false for booleans);
- references: `rubric/` or `judge/` -> ids, then `@` -> versions newest first, each with its
  description;
- template variables inside a judge's `template`;
- bundle names for a case's `bundle`.

Items are `Completion`s in core spans with kinds of our own; `lsp/features/completion.py` makes
them LSP completion items (the client's columns, Markdown or plain documentation, the command
that asks for the next suggestion).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from evalyaml.core.kinds import FormatKind, Kind
from evalyaml.formats import format_of
from evalyaml.formats.base import Cursor, KeyDoc
from evalyaml.ide import lookup, schema_nav
from evalyaml.ide.context import ITEM, Context, PathPart, Reader
from evalyaml.ide.describe import describe_definition, template_variables
from evalyaml.ide.source import Source
from evalyaml.syntax.text import Position, Span
from evalyaml.workspace.index import Workspace, normalize
from evalyaml.workspace.named import RecordingFiles


class CompletionKind(Enum):
    """What an item is (mapped to the protocol's kinds in `lsp/convert.py`)."""

    PROPERTY = "property"  # a key
    VALUE = "value"  # an enum value, a check kind, true/false
    BUNDLE = "bundle"
    REFERENCE = "reference"
    VARIABLE = "variable"  # a template variable


@dataclass(frozen=True, slots=True)
class Completion:
    """One item: `new_text` replaces `span` (on the cursor's line, code-point columns)."""

    label: str
    kind: CompletionKind
    span: Span
    new_text: str
    sort_text: str
    filter_text: str
    detail: str | None = None
    documentation: str | None = None  # Markdown
    snippet: bool | None = None  # None: the item does not say (plain text)
    suggest_again: bool = False  # a reference's id: the versions come next

    @property
    def edit(self) -> tuple[Span, str]:
        return self.span, self.new_text


@dataclass(slots=True)
class Request:
    """What completion needs besides the cursor context."""

    doc: Source
    kind: Kind
    line: int
    workspace: Workspace
    snippets: bool
    bundles: Callable[[], list[str]]


def bundle_names(workspace: Workspace, path: Path | None) -> list[str]:
    """The bundles a case may name: the root's bundle schemas, then any bundle a dataset in the
    workspace already names."""
    names: dict[str, None] = {}
    if path is not None:
        for name in sorted(workspace.root_for(path).bundles.schemas):
            names[name] = None
    for other in workspace.eval_files():
        analysis = workspace.analysis(other)
        if analysis is not None and analysis.kind is not None \
                and analysis.kind.bundle_items is not None:
            for case in analysis.cases:
                if case.bundle:
                    names.setdefault(case.bundle, None)
    return list(names)


def complete(req: Request, ctx: Context) -> list[Completion]:
    if req.kind.schema_file is None:
        return []  # only its format's own offers (`format_offers`)
    if ctx.in_block_scalar:
        variables = template_variables(req.kind, ctx.path)
        return _template_variables(req, ctx, variables) if variables else []
    if ctx.in_key:
        if isinstance(req.kind, FormatKind) and ctx.path and ctx.path[-1] is ITEM:
            # A bare list item: a value where the format names other files by id.
            by_format = _format_values(req, ctx)
            if by_format is not None:
                return by_format
        return _keys(req, ctx)
    if ctx.in_value:
        return _values(req, ctx)
    return []


def format_offers(req: Request, column: int) -> list[Completion] | None:
    """What the file's format offers at the cursor (`FormatIde.offers`), before any YAML
    context is read: None when the format has nothing to say there."""
    offers = format_of(req.kind).ide.offers if isinstance(req.kind, FormatKind) else None
    if offers is None:
        return None
    path = req.doc.path
    analysis = req.workspace.analysis(normalize(path)) if path is not None else None
    root = str(req.workspace.root_for(normalize(path)).path) if path is not None else None
    roots = [r.path for r in req.workspace.roots] or \
        ([req.workspace.root_for(normalize(path)).path] if path is not None else [])
    found = offers(Cursor(str(path) if path is not None else None, req.kind, req.doc.text,
                          req.line, column, root, analysis, RecordingFiles(req.workspace, roots)))
    if found is None:
        return None
    return [Completion(
        label=offer.label,
        kind=_OFFER_KINDS.get(offer.kind, CompletionKind.VALUE),
        span=_range(req, offer.start, offer.end),
        new_text=offer.new_text,
        sort_text=f"{index:03d}",
        filter_text=offer.label,
        detail=offer.detail,
        documentation=offer.doc,
    ) for index, offer in enumerate(found)]


_OFFER_KINDS = {"property": CompletionKind.PROPERTY, "value": CompletionKind.VALUE,
                "variable": CompletionKind.VARIABLE}


def context_for(req: Request, column: int) -> Context | None:
    """The cursor's context at code-point `column` of the request's line."""
    return Reader(req.doc.lines, req.doc.outline).context(req.line, column)


# -------------------------------------------------------------------------------- helpers
def _doc(text: str) -> str | None:
    return text or None


def _range(req: Request, start: int, end: int) -> Span:
    return Span(Position(req.line, start), Position(req.line, end))


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def _check_kind_of(ctx: Context) -> str | None:
    value = ctx.siblings.get("kind")
    if value is None:
        return None
    value = value.strip().strip("'\"")
    return value or None


def _node_and_kind(req: Request, path: list[Any], check_kind: str | None
                   ) -> schema_nav.Node | None:
    kinds = {len(path) - 1: check_kind} if check_kind and path and path[-1] == ITEM else {}
    return schema_nav.walk(req.kind, path, kinds)


# -------------------------------------------------------------------------------- keys
def _keys(req: Request, ctx: Context) -> list[Completion]:
    check_kind = _check_kind_of(ctx)
    node = _node_and_kind(req, ctx.path, check_kind)
    if node is None or (schema_nav.type_of(node.schema) not in (None, "object")
                        and not node.is_check):
        return []
    props = dict(schema_nav.properties(node, check_kind))
    required = schema_nav.required(node, check_kind)
    if _bundle_items(req.kind, ctx.path):
        for name, extra in _bundle_properties(req, ctx).items():
            props.setdefault(name, extra)
    key_docs = _key_docs(req.kind, ctx.path)
    for name, key_doc in key_docs.items():
        props.setdefault(name, {"description": key_doc.doc})
    present = set(ctx.siblings)
    line = req.doc.lines.line_text(req.line)
    after = line[ctx.end_col:].lstrip(" ")
    has_colon = after.startswith(":")
    items: list[Completion] = []
    for name, prop in props.items():
        if name in present or (name == "$schema" and ctx.path):
            continue
        is_required = name in required
        order = required.index(name) if is_required else 0
        prop_type = schema_nav.type_of(prop) or ("string" if "enum" in prop else None)
        items.append(Completion(
            label=name,
            kind=CompletionKind.PROPERTY,
            detail=("required" if is_required else "optional") +
                   (f" · {prop_type}" if prop_type else ""),
            documentation=_doc(schema_nav.description(prop)),
            sort_text=f"0{order:02d}{name}" if is_required else f"1{name}",
            filter_text=name,
            span=_range(req, ctx.start_col, ctx.end_col),
            new_text=name if has_colon else _key_insert(req, ctx, name, prop,
                                                        key_docs.get(name)),
            snippet=req.snippets and not has_colon,
        ))
    return items


def _key_docs(kind: Kind, path: list[Any]) -> dict[str, KeyDoc]:
    """The keys a format documents for this place beyond its schema (`FormatIde.extra_keys`),
    with their snippets; list items in the path are `*`."""
    where = tuple("*" if part is ITEM else str(part) for part in path)
    docs = format_of(kind).ide.extra_keys.get((kind.value, where), ())
    return {doc.name: doc for doc in docs}


def _key_insert(req: Request, ctx: Context, name: str, prop: dict[str, Any],
                key_doc: KeyDoc | None = None) -> str:
    kind = schema_nav.type_of(prop)
    eol = "\r\n" if "\r\n" in req.doc.text else "\n"
    inner = " " * (ctx.key_col + 2)
    if req.snippets and key_doc is not None and key_doc.insert is not None:
        # The format's own snippet, its later lines indented to the key's column.
        return (eol + " " * ctx.key_col).join(key_doc.insert.split("\n"))
    if req.snippets:
        if kind == "array":
            return f"{_escape(name)}:{eol}{inner}- $0"
        if kind == "object":
            return f"{_escape(name)}:{eol}{inner}$0"
        return f"{_escape(name)}: $0"
    if kind == "array":
        return f"{name}:{eol}{inner}- "
    if kind == "object":
        return f"{name}:{eol}{inner}"
    return f"{name}: "


def _bundle_items(kind: Kind | None, path: Sequence[PathPart]) -> bool:
    """Whether `path` is where the kind's items may name a configured bundle."""
    where = kind.bundle_items if kind is not None else None
    return where is not None and len(path) == len(where) and all(
        step == ITEM if want == "*" else step == want
        for step, want in zip(path, where, strict=True))


def _bundle_properties(req: Request, ctx: Context) -> dict[str, dict[str, Any]]:
    bundle = ctx.siblings.get("bundle", "").strip().strip("'\"")
    if not bundle or req.doc.path is None:
        return {}
    root = req.workspace.root_for(req.doc.path)
    schema = root.bundles.schemas.get(bundle, {})
    props = schema.get("properties", {})
    return {k: v for k, v in props.items() if isinstance(v, dict)}


# -------------------------------------------------------------------------------- values
def _values(req: Request, ctx: Context) -> list[Completion]:
    key = ctx.path[-1]
    if not isinstance(key, str):
        return []
    parent_path = ctx.path[:-1]
    check_kind = _check_kind_of(ctx)
    if key in lookup.reference_keys():
        return _references(req, ctx, lookup.reference_keys()[key])
    if isinstance(req.kind, FormatKind):
        by_format = _format_values(req, ctx)
        if by_format is not None:
            return by_format
    parent = _node_and_kind(req, parent_path, check_kind)
    if parent is None:
        return []
    if parent.is_check and key == "kind":
        return _check_kinds(req, ctx)
    node = schema_nav.child(parent, key, check_kind)
    if node is None:
        return []
    if _bundle_items(req.kind, parent_path) and key == "bundle":
        return _bundles(req, ctx, node.schema)
    values = schema_nav.enum_values(node.schema)
    if not values and schema_nav.type_of(node.schema) == "boolean":
        values = ["true", "false"]
    lead = _lead(req, ctx)
    description = schema_nav.description(node.schema)
    return [Completion(
        label=value,
        kind=CompletionKind.VALUE,
        documentation=_doc(description),
        sort_text=f"{index:03d}",
        filter_text=value,
        span=_range(req, ctx.start_col, ctx.end_col),
        new_text=lead + value,
    ) for index, value in enumerate(values)]


def _format_values(req: Request, ctx: Context) -> list[Completion] | None:
    """Ids of the target kind where a format names another file (`FormatIde.references`), and
    values a format lists beyond its schema (`FormatIde.values`); None when neither applies."""
    assert isinstance(req.kind, FormatKind)
    ide = format_of(req.kind).ide
    where = tuple("*" if part is ITEM else str(part) for part in ctx.path)
    target = ide.references.get((req.kind.value, where))
    rng = _range(req, ctx.start_col, ctx.end_col)
    lead = _lead(req, ctx)
    if target is not None:
        root = req.workspace.root_for(req.doc.path).path if req.doc.path else None
        items: list[Completion] = []
        for index, ref_id in enumerate(req.workspace.known_ids(target)):
            found = req.workspace.definitions_of(target, ref_id)
            first = found[0] if found else None
            items.append(Completion(
                label=ref_id,
                kind=CompletionKind.REFERENCE,
                detail=target.value,
                documentation=_doc(describe_definition(first[0], first[1], root, None))
                if first else None,
                sort_text=f"{index:04d}",
                filter_text=ref_id,
                span=rng,
                new_text=lead + ref_id,
            ))
        return items
    docs = ide.values.get((req.kind.value, where))
    if docs is None:
        return None
    return [Completion(
        label=doc.name,
        kind=CompletionKind.VALUE,
        documentation=_doc(doc.doc),
        sort_text=f"{index:03d}",
        filter_text=doc.name,
        span=rng,
        new_text=lead + (doc.insert or doc.name),
    ) for index, doc in enumerate(docs)]


def _lead(req: Request, ctx: Context) -> str:
    """A space when the value would otherwise touch the colon (`kind:|`)."""
    line = req.doc.lines.line_text(req.line)
    return " " if ctx.start_col > 0 and line[ctx.start_col - 1] == ":" else ""


_KIND_FIELDS: dict[str, list[tuple[str, str, str]]] = {
    # kind -> (key, snippet value, plain value); a value starting with a newline is a block
    "must_contain_any": [("values", "\n  - ${1}", "\n  - ")],
    "must_not_contain": [("values", "\n  - ${1}", "\n  - ")],
    "regex": [("pattern", " '${1}'", " ")],
    "json_schema": [("schema", "\n  type: ${1:object}", "\n  type: object")],
    "format": [("format", " ${1|json,text|}", " ")],
    "fact_match": [("threshold", " ${1:0.8}", " ")],
    "llm_judge": [("judge_prompt_ref", " judge/${1}", " judge/")],
    "composite": [("rubric_ref", " rubric/${1}", " rubric/")],
}


def _check_kinds(req: Request, ctx: Context) -> list[Completion]:
    lead = _lead(req, ctx)
    eol = "\r\n" if "\r\n" in req.doc.text else "\n"
    indent = " " * ctx.key_col
    items: list[Completion] = []
    union = schema_nav.union()
    for index, name in enumerate(union.members if union else ()):
        kind_schema = schema_nav.check_schema(name) or {}
        fields = [f for f in _KIND_FIELDS.get(name, []) if f[0] not in ctx.siblings]
        if req.snippets:
            text = lead + _escape(name) + "".join(
                f"{eol}{indent}{key}:{value.replace(chr(10), eol + indent)}"
                for key, value, _ in fields) + ("$0" if not fields else "")
        else:
            text = lead + name + "".join(
                f"{eol}{indent}{key}:{plain.replace(chr(10), eol + indent)}"
                for key, _, plain in fields)
        title = kind_schema.get("title", name)
        items.append(Completion(
            label=name,
            kind=CompletionKind.VALUE,
            detail=title + (f" · adds {', '.join(f[0] for f in fields)}" if fields else ""),
            documentation=_doc(schema_nav.description(kind_schema)),
            sort_text=f"{index:03d}",
            filter_text=name,
            span=_range(req, ctx.start_col, ctx.end_col),
            new_text=text,
            snippet=req.snippets,
        ))
    return items


def _bundles(req: Request, ctx: Context, node: dict[str, Any]) -> list[Completion]:
    names = req.bundles()
    lead = _lead(req, ctx)
    return [Completion(
        label=name,
        kind=CompletionKind.BUNDLE,
        detail="bundle",
        documentation=_doc(schema_nav.description(node)),
        sort_text=f"{index:03d}",
        filter_text=name,
        span=_range(req, ctx.start_col, ctx.end_col),
        new_text=lead + name,
    ) for index, name in enumerate(names)]


# -------------------------------------------------------------------------------- references
def _references(req: Request, ctx: Context, target: Kind) -> list[Completion]:
    typed = ctx.prefix
    lead = _lead(req, ctx)
    rng = _range(req, ctx.start_col, ctx.end_col)
    prefix = f"{target.value}/"
    root = req.workspace.root_for(req.doc.path).path if req.doc.path else None
    today = req.workspace.options(req.doc.path).today if req.doc.path else None
    if "@" in typed and typed.startswith(prefix):
        ref_id = typed[len(prefix):typed.index("@")]
        seen: set[str] = set()
        items: list[Completion] = []
        for path, definition in req.workspace.definitions_of(target, ref_id):
            if definition.version is None or definition.version in seen:
                continue
            seen.add(definition.version)
            text = f"{prefix}{ref_id}@{definition.version}"
            items.append(Completion(
                label=text,
                kind=CompletionKind.REFERENCE,
                detail=definition.description or definition.version,
                documentation=_doc(describe_definition(path, definition, root, today)),
                sort_text=f"{len(items):03d}",
                filter_text=text,
                span=rng,
                new_text=lead + text,
            ))
        return items
    items = []
    for index, ref_id in enumerate(req.workspace.known_ids(target)):
        versions = req.workspace.definitions_of(target, ref_id)
        newest = versions[0] if versions else None
        text = f"{prefix}{ref_id}"
        items.append(Completion(
            label=text,
            kind=CompletionKind.REFERENCE,
            detail=(newest[1].description or "") if newest else None,
            documentation=_doc(describe_definition(newest[0], newest[1], root, today))
            if newest else None,
            sort_text=f"{index:04d}",
            filter_text=text,
            span=rng,
            new_text=lead + text + "@",
            suggest_again=True,
        ))
    return items


# -------------------------------------------------------------------------------- templates
def _template_variables(req: Request, ctx: Context, variables: tuple[KeyDoc, ...]
                        ) -> list[Completion]:
    line = req.doc.lines.line_text(req.line)
    before = line[:ctx.start_col]
    opened = before.rfind("{{")
    if opened < 0 or before.rfind("}}") > opened:
        return []
    between = before[opened + 2:]
    if between.strip():
        return []  # `{{ x y` : not a variable name position
    after = line[ctx.end_col:]
    closes = after.lstrip(" ").startswith("}}")
    spaced = between.startswith(" ")
    return [Completion(
        label=variable.name,
        kind=CompletionKind.VARIABLE,
        detail="template variable",
        documentation=_doc(variable.doc),
        sort_text=f"{index:02d}",
        filter_text=variable.name,
        span=_range(req, ctx.start_col, ctx.end_col),
        new_text=variable.name + ("" if closes else (" }}" if spaced else "}}")),
    ) for index, variable in enumerate(variables)]
