"""The first template layer: a test's `vars` filled into its own input fields
(`interpolateRawEvalCase` and `interpolateTemplateVars` at e43a4d46).

`{{ name }}` and dotted `{{ a.b }}` are replaced in `criteria`, `expected_outcome`, `input`,
`input_files`, `expected_output` and each turn's `input` / `expected_output`, and nowhere else
(grader prompt files have their own variables: `prompt.py`). A reference `vars` does not hold is
left in the text verbatim, so the agent or the grader sees the braces: checked only in a test
that has `vars` (without them nothing is filled in, and braces may be another tool's syntax).
"""

from __future__ import annotations

import re

from evalyaml.core.findings import Fix, TextEdit
from evalyaml.formats.agentv.common import Context, pairs, rank_value
from evalyaml.formats.agentv.meta import plain
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, PyValue, Scalar, Sequence

TEMPLATE_VAR = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}")
FIELDS = ("criteria", "expected_outcome", "input", "input_files", "expected_output")
TURN_FIELDS = ("input", "expected_output")


def check_vars(ctx: Context, values: dict[str, tuple[Scalar, Node]]) -> None:
    if "vars" not in values or not isinstance(values["vars"][1], Mapping):
        return
    table = plain(values["vars"][1])
    if not isinstance(table, dict):
        return
    for name in FIELDS:
        if name in values:
            _walk(ctx, values[name][1], table)
    turns = values["turns"][1] if "turns" in values else None
    if isinstance(turns, Sequence):
        for turn in turns.items:
            if isinstance(turn, Mapping):
                for name in TURN_FIELDS:
                    node = turn.get(name)
                    if node is not None:
                        _walk(ctx, node, table)


def _walk(ctx: Context, node: Node, table: dict[str, PyValue]) -> None:
    if isinstance(node, Scalar):
        if isinstance(node.value, str) and "{{" in node.value:
            _scalar(ctx, node, table)
    elif isinstance(node, Sequence):
        for item in node.items:
            _walk(ctx, item, table)
    elif isinstance(node, Mapping):
        for _, value in pairs(node):
            _walk(ctx, value, table)


def _lookup(table: dict[str, PyValue], expression: str) -> bool:
    current: PyValue = table
    for part in expression.split("."):
        if not isinstance(current, dict) or part not in current:
            return False
        current = current[part]
    return True


def _scalar(ctx: Context, node: Scalar, table: dict[str, PyValue]) -> None:
    text = str(node.value)
    seen: dict[str, int] = {}
    for match in TEMPLATE_VAR.finditer(text):
        expression = match.group(1)
        nth = seen.get(match.group(0), 0)
        seen[match.group(0)] = nth + 1
        if _lookup(table, expression):
            continue
        head, _, rest = expression.partition(".")
        if head in table:
            known = table[head]
            names = sorted(known) if isinstance(known, dict) else []
            what = f"'{head}' has no '{rest}'"
            ranked = rank_value(rest, names) if rest and "." not in rest else []
            replacement = [f"{head}.{r}" for r in ranked]
        else:
            what = f"the test's vars have no '{head}'"
            ranked = rank_value(head, sorted(table))
            replacement = [r + (f".{rest}" if rest else "") for r in ranked]
        hint = f"; did you mean '{replacement[0]}'?" if replacement else \
            f" (vars: {', '.join(sorted(table))})"
        span = _inner(ctx, node, match.group(1), nth)
        fixes = tuple(Fix(f"Replace with '{r}'", (TextEdit(span, r),), preferred=i == 0)
                      for i, r in enumerate(replacement[:3])) if span != ctx.span(node) else ()
        ctx.add("EY639", f"{{{{ {expression} }}}} is left in the text verbatim: {what}{hint}",
                span, fixes=fixes)


def _inner(ctx: Context, node: Scalar, needle: str, nth: int) -> Span:
    """The `nth` `{{ needle }}` in the scalar's source; the whole scalar when escapes or folding
    make the source differ from the value."""
    raw = ctx.parsed.text[ctx.base + node.start:ctx.base + node.end]
    value = str(node.value)
    pattern = re.compile(r"\{\{\s*(" + re.escape(needle) + r")\s*\}\}")
    in_value = [m.start(1) for m in pattern.finditer(value)]
    in_raw = [m.start(1) for m in pattern.finditer(raw)]
    if len(in_value) == len(in_raw) and nth < len(in_raw):
        start = ctx.base + node.start + in_raw[nth]
        return ctx.parsed.lines.span(start, start + len(needle))
    return ctx.span(node)
