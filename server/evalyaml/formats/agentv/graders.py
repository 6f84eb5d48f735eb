"""What each built-in grader needs before the loader keeps it (`grader-parser.ts` at e43a4d46).

`agentv validate` checks only `value` (EY614); the loader then drops a grader whose own fields
are missing or wrong ("Skipping code-grader evaluator 'x': missing command"), or throws and skips
the whole test ("command cannot be empty"). Each rule here is one of those branches, at the field
it is about (the `type` when the field is absent). A value holding `${{ VAR }}` is left alone:
interpolation happens before the loader reads it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from evalyaml.formats.agentv.common import Context, rank_value, text_of
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

_ENV = "${{"
TRAJECTORY_MODES = ("any_order", "in_order", "exact", "subset", "superset")
AGGREGATOR_TYPES = ("weighted_average", "threshold", "code-grader", "llm-grader")
FIELD_MATCHES = ("exact", "numeric_tolerance", "date")

Values = dict[str, tuple[Scalar, Node]]
Check = Callable[[Context, str, Values, Node], None]


def check_grader_fields(ctx: Context, kind: str, values: Values, type_node: Node) -> None:
    check = _CHECKS.get(kind)
    if check is not None:
        check(ctx, kind, values, type_node)
    if "weight" in values:
        _weight(ctx, kind, *values["weight"])


def _weight(ctx: Context, kind: str, key: Scalar, value: Node) -> None:
    """`validateWeight`: every grader's weight is a finite number >= 0, or the test is
    skipped."""
    if _env(value):
        return
    number = _number(value)
    if number is None:
        _skip(ctx, kind, "'weight' must be a number", ctx.at(key, value), throws=True)
    elif not math.isfinite(number):
        _skip(ctx, kind, "'weight' must be finite", ctx.span(value), throws=True)
    elif number < 0:
        _skip(ctx, kind, f"'weight' must be non-negative (got {number:g})", ctx.span(value),
              throws=True)


def _rubrics_list(name: str) -> Check:
    def check(ctx: Context, kind: str, values: Values, type_node: Node) -> None:
        pair = values.get(name)
        if pair is not None and isinstance(pair[1], Sequence) and pair[1].items:
            return
        other = "rubrics" if name == "criteria" else "criteria"
        hint = f" (a {kind} grader reads '{name}', not '{other}')" if other in values else ""
        _skip(ctx, kind, f"a {kind} grader needs a non-empty '{name}' list{hint}",
              ctx.at(*pair) if pair else ctx.span(values[other][0]) if other in values
              else ctx.span(type_node))
    return check


def _skip(ctx: Context, kind: str, why: str, span: Span, *, throws: bool = False) -> None:
    if throws:
        ctx.add("EY636", f"{why}: the loader refuses this {kind} grader and skips the test",
                span)
    else:
        ctx.add("EY636", f"{why}: the loader skips this {kind} grader (\"Skipping {kind} "
                "evaluator\")", span)


def _env(node: Node | None) -> bool:
    text = text_of(node)
    return text is not None and _ENV in text


def _number(node: Node | None) -> float | None:
    if isinstance(node, Scalar) and isinstance(node.value, (int, float)) and \
            not isinstance(node.value, bool):
        return float(node.value)
    return None


def _code_grader(ctx: Context, kind: str, values: Values, type_node: Node) -> None:
    pair = values.get("command") or values.get("script")
    if pair is None:
        _skip(ctx, kind, "a code-grader needs 'command' (the script to run)", ctx.span(type_node))
        return
    key, value = pair
    if _env(value):
        return
    if isinstance(value, Scalar):
        if isinstance(value.value, str):
            if not value.value.strip():
                _skip(ctx, kind, "'command' cannot be empty", ctx.at(key, value), throws=True)
        elif value.value is None:
            _skip(ctx, kind, "a code-grader needs 'command' (the script to run)",
                  ctx.at(key, value))
        else:
            _skip(ctx, kind, "'command' must be a string or an array of strings (argv tokens)",
                  ctx.span(value), throws=True)
        return
    if isinstance(value, Sequence):
        if not value.items:
            _skip(ctx, kind, "'command' cannot be empty", ctx.at(key, value), throws=True)
        for item in value.items:
            text = text_of(item)
            if text is None or not text.strip():
                _skip(ctx, kind, "each 'command' item must be a non-empty string",
                      ctx.span(item) if item.end > item.start else ctx.at(key, value),
                      throws=True)
                return
        return
    _skip(ctx, kind, "'command' must be a string or an array of strings (argv tokens)",
          ctx.at(key, value), throws=True)


def _composite(ctx: Context, kind: str, values: Values, type_node: Node) -> None:
    members = values.get("assertions") or values.get("assert") or values.get("evaluators")
    if members is None or not isinstance(members[1], Sequence):
        _skip(ctx, kind, "a composite needs an 'assertions' array of member graders",
              ctx.at(*members) if members else ctx.span(type_node))
        return
    aggregator = values.get("aggregator")
    if aggregator is None or not isinstance(aggregator[1], Mapping):
        _skip(ctx, kind, "a composite needs an 'aggregator' mapping (type: weighted_average, "
              "threshold, code-grader or llm-grader)",
              ctx.at(*aggregator) if aggregator else ctx.span(type_node))
        return
    agg_type = aggregator[1].pair("type")
    raw = text_of(agg_type[1]) if agg_type else None
    if raw is None or _ENV in raw:
        if agg_type is None or raw is None:
            _skip(ctx, kind, "the aggregator needs a 'type' (weighted_average, threshold, "
                  "code-grader or llm-grader)",
                  ctx.at(*agg_type) if agg_type else ctx.span(aggregator[0]))
        return
    normal = raw if raw in ("weighted_average", "threshold") else raw.replace("_", "-")
    if normal in AGGREGATOR_TYPES:
        return
    assert agg_type is not None
    ranked = rank_value(raw, AGGREGATOR_TYPES)
    hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
    what = "is deprecated" if normal in ("llm-judge", "code-judge") else "is not an aggregator"
    ctx.add("EY636", f"aggregator type '{raw}' {what}: the loader skips this composite grader "
            f"(valid: {', '.join(AGGREGATOR_TYPES)}){hint}", ctx.span(agg_type[1]),
            fixes=(ctx.rename_fix(agg_type[1], ranked[0]),)
            if ranked and isinstance(agg_type[1], Scalar) else ())


def _trajectory(ctx: Context, kind: str, values: Values, type_node: Node) -> None:
    pair = values.get("mode")
    mode = text_of(pair[1]) if pair else None
    if mode in TRAJECTORY_MODES or _env(pair[1] if pair else None):
        return
    if pair is None:
        _skip(ctx, kind, "a tool-trajectory grader needs 'mode' (any_order, in_order, exact, "
              "subset or superset)", ctx.span(type_node))
        return
    ranked = rank_value(mode, TRAJECTORY_MODES) if mode else []
    hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
    ctx.add("EY636", f"invalid mode '{mode if mode is not None else pair[1]}' (must be "
            f"{', '.join(TRAJECTORY_MODES)}): the loader skips this tool-trajectory grader"
            f"{hint}", ctx.at(*pair), fixes=(ctx.rename_fix(pair[1], ranked[0]),)
            if ranked and isinstance(pair[1], Scalar) else ())


def _field_accuracy(ctx: Context, kind: str, values: Values, type_node: Node) -> None:
    pair = values.get("fields")
    if pair is None or not isinstance(pair[1], Sequence):
        _skip(ctx, kind, "a field-accuracy grader needs a 'fields' array",
              ctx.at(*pair) if pair else ctx.span(type_node))
        return
    if not pair[1].items:
        _skip(ctx, kind, "'fields' is empty", ctx.at(*pair))
        return
    for item in pair[1].items:
        if not isinstance(item, Mapping):
            continue
        path = item.pair("path")
        if path is None or not text_of(path[1]):
            ctx.add("EY636", "a field without 'path': the loader skips this field",
                    ctx.at(*path) if path else ctx.span(item))
        match = item.pair("match")
        text = text_of(match[1]) if match else None
        if match is not None and text is not None and text not in FIELD_MATCHES and \
                _ENV not in text:
            ctx.add("EY636", f"invalid match type '{text}' (must be exact, numeric_tolerance or "
                    "date): the loader skips this field", ctx.span(match[1]))


def _non_negative(name: str, what: str) -> Check:
    def check(ctx: Context, kind: str, values: Values, type_node: Node) -> None:
        pair = values.get(name)
        if pair is not None and _env(pair[1]):
            return
        number = _number(pair[1]) if pair else None
        if number is None or number < 0:
            _skip(ctx, kind, f"'{name}' must be a non-negative number ({what})",
                  ctx.at(*pair) if pair else ctx.span(type_node))
    return check


def _token_usage(ctx: Context, kind: str, values: Values, type_node: Node) -> None:
    found = False
    for name, alias in (("max_total", "maxTotal"), ("max_input", "maxInput"),
                        ("max_output", "maxOutput")):
        pair = values.get(name) or values.get(alias)
        if pair is None:
            continue
        if _env(pair[1]):
            return
        number = _number(pair[1])
        if number is None or number < 0:
            _skip(ctx, kind, f"'{name}' must be a non-negative finite number", ctx.at(*pair))
        else:
            found = True
    if not found:
        _skip(ctx, kind, "a token-usage grader must set at least one of max_total, max_input, "
              "max_output", ctx.span(type_node))


def _skill_trigger(ctx: Context, kind: str, values: Values, type_node: Node) -> None:
    pair = values.get("skill")
    if pair is None or not text_of(pair[1]):
        _skip(ctx, kind, "a skill-trigger grader needs 'skill' (the skill's name)",
              ctx.at(*pair) if pair else ctx.span(type_node))


_CHECKS: dict[str, Check] = {
    "code-grader": _code_grader,
    "composite": _composite,
    "tool-trajectory": _trajectory,
    "field-accuracy": _field_accuracy,
    "latency": _non_negative("threshold", "milliseconds"),
    "cost": _non_negative("budget", "US dollars"),
    "token-usage": _token_usage,
    "skill-trigger": _skill_trigger,
    "rubrics": _rubrics_list("criteria"),
    "rubric": _rubrics_list("rubrics"),
}
