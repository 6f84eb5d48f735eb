"""An Apastra document's (or JSONL row's) schema check: jsonschema's errors as located findings
(`report`), near misses of keys in open objects (`openkeys`). Shared by the whole-file analysis
(`analyze`) and the row by row one (`byrow`)."""

from __future__ import annotations

from typing import Any

from evalyaml.core.kinds import FormatKind
from evalyaml.formats.apastra import openkeys, schemas
from evalyaml.formats.apastra.context import Context
from evalyaml.formats.apastra.kinds import SCHEMA_OF
from evalyaml.formats.apastra.report import Reporter
from evalyaml.syntax.tree import Budget, ExpansionLimit, Node, to_python


def validate(ctx: Context, root: Node, kind: FormatKind, *, root_name: str = "the document",
             emptied: str | None = None) -> set[int] | None:
    """Schema findings; the offsets of values already flagged (None: the value could not be
    built). `emptied`: a root key whose list is validated as empty, its items being checked
    one by one (`validate_item`)."""
    name = SCHEMA_OF[kind]
    try:
        value = to_python(root, Budget(1_000_000))
    except ExpansionLimit:
        ctx.sink.add("EY104", "aliases expand past the node budget", ctx.first_line(root))
        return None
    if emptied is not None and isinstance(value, dict) and emptied in value:
        value[emptied] = []
    covered: set[tuple[str, str]] = set()
    openkeys.check(ctx, root, schemas.schema(name), f"{name}.schema.json", path="",
                   resolve=_resolver(name), covered=covered)
    reporter = Reporter(ctx.sink, f"{name}.schema.json", ctx.span, ctx.first_line)
    reporter.root_name = root_name
    reporter.run(schemas.validator(name), value, root, covered)
    return reporter.located


def validate_item(ctx: Context, item: Node, kind: FormatKind, key: str, index: int
                  ) -> set[int] | None:
    """Item `index` of the root key `key`'s list, parsed alone, with the findings `validate`
    gives it inside the document: its path in messages (`cases[3].inputs`), the document's
    schema named."""
    name = SCHEMA_OF[kind]
    try:
        value = to_python(item, Budget(1_000_000))
    except ExpansionLimit:
        ctx.sink.add("EY104", "aliases expand past the node budget", ctx.first_line(item))
        return None
    covered: set[tuple[str, str]] = set()
    items = schemas.schema(name)["properties"][key]["items"]
    # The document's walk reaches an item at depth 2 (the root, the list, the item).
    openkeys.check(ctx, item, items, f"{name}.schema.json", path=f"{key}[{index}]",
                   resolve=_resolver(name), covered=covered, depth=2)
    reporter = Reporter(ctx.sink, f"{name}.schema.json", ctx.span, ctx.first_line)
    reporter.prefix = (key, index)
    reporter.run(schemas.item_validator(name, key), value, item, covered)
    return reporter.located


def _resolver(name: str) -> Any:
    root = schemas.schema(name)

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        ref = node.get("$ref")
        if not isinstance(ref, str):
            return node
        if ref.startswith("#/"):
            target: Any = root
            for part in ref[2:].split("/"):
                target = target.get(part, {}) if isinstance(target, dict) else {}
            return target if isinstance(target, dict) else node
        try:
            contents = schemas.registry().contents(ref)
        except Exception:
            return node
        return contents if isinstance(contents, dict) else node

    return resolve
