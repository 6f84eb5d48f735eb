"""A test's `assertions` (and the suite's): each grader entry's type, required fields,
and its `prompt`, which may be inline text, a `file://` prompt or a command, as
`grader-parser.ts` reads them."""

from __future__ import annotations

import re

from evalyaml.formats.agentv import rules
from evalyaml.formats.agentv.common import Context, is_null, pairs, text_of
from evalyaml.formats.agentv.graders import check_grader_fields
from evalyaml.formats.agentv.jsregex import js_regex_error
from evalyaml.formats.agentv.meta import plain, rubric_items
from evalyaml.formats.agentv.rubrics import check_assertion_rubrics
from evalyaml.formats.agentv.suitefacts import ENV, SuiteFacts, SuiteRef
from evalyaml.syntax.tree import Mapping, Node, PyValue, Scalar, Sequence

# A bare prompt that is a path: one line, no spaces, a Markdown or text suffix.
_BARE_PATH = re.compile(r"^[^\s{}]+\.(?:md|markdown|txt|prompt)$", re.IGNORECASE)


def check_assertions(ctx: Context, key: Scalar, value: Node, facts: SuiteFacts, *,
                     where: str) -> None:
    if not isinstance(value, Sequence):
        if not is_null(value):
            ctx.add("EY612", "'assertions' must be an array of assertion objects.",
                    ctx.at(key, value))
        return
    for item in value.items:
        if isinstance(item, Scalar) and isinstance(item.value, str):
            if not item.value.strip():
                ctx.add("EY612", "Empty string assertion item will be ignored.", ctx.span(item))
            continue
        if not isinstance(item, Mapping):
            ctx.add("EY612", "Assertion item must be a string or an object with a type field.",
                    ctx.span(item))
            continue
        check_assertion(ctx, item, facts, composite_member=False)


def check_assertion(ctx: Context, item: Mapping, facts: SuiteFacts, *,
                    composite_member: bool) -> None:
    values = {key.text: (key, value) for key, value in pairs(item)}
    type_pair = values.get("type")
    raw = text_of(type_pair[1]) if type_pair else None
    if raw is None:
        ctx.add("EY613", "Assertion item is missing a 'type' field.",
                ctx.at(*type_pair) if type_pair else ctx.span(pairs(item)[0][0])
                if item.pairs else ctx.span(item))
        return
    assert type_pair is not None
    type_node = type_pair[1]
    kind = raw.replace("_", "-")
    if composite_member and "_" in raw and kind in rules.GRADER_KINDS:
        ctx.add("EY634", f"composite members need a kebab-case type: '{raw}' is skipped inside a "
                f"composite (write '{kind}')", ctx.span(type_node),
                fixes=(ctx.rename_fix(type_node, kind),) if isinstance(type_node, Scalar) else ())
        return
    if kind in rules.DEPRECATED_GRADER_KINDS:
        new = rules.DEPRECATED_GRADER_KINDS[kind]
        ctx.add("EY635", f"assertion type '{raw}' is deprecated: the loader skips this grader; "
                f"use '{new}'",
                ctx.span(type_node), fixes=(ctx.rename_fix(type_node, new),)
                if isinstance(type_node, Scalar) else ())
        return
    if kind not in rules.GRADER_KINDS:
        if isinstance(type_node, Scalar) and ENV not in raw:
            facts.refs.append(SuiteRef("type", kind, ctx.span(type_node), type_node.style,
                                      type_node.text))
        return
    if composite_member and "name" not in values:
        ctx.add("EY634", "a composite member needs a 'name': the loader skips it",
                ctx.span(type_pair[0]))
    if kind in rules.STRING_VALUE_TYPES:
        value_pair = values.get("value")
        text = text_of(value_pair[1]) if value_pair else None
        if text is None:
            ctx.add("EY614", f"Assertion type '{kind}' requires a 'value' field (string).",
                    ctx.at(*value_pair) if value_pair else ctx.span(type_node))
            return
        if not text and value_pair is not None:
            ctx.add("EY614", f"an empty 'value': the loader skips this {kind} grader "
                    f"(\"Skipping {kind} evaluator ...: missing value\")", ctx.span(value_pair[1]))
            return
        if kind == "regex" and value_pair is not None and ENV not in text:
            problem = js_regex_error(text)
            if problem:
                ctx.add("EY615", f"Invalid regex pattern '{text}': not a valid regular "
                        f"expression ({problem})", ctx.span(value_pair[1]))
    if kind in rules.ARRAY_VALUE_TYPES:
        value_pair = values.get("value")
        if value_pair is None or not isinstance(value_pair[1], Sequence) or \
                not value_pair[1].items:
            ctx.add("EY614", f"Assertion type '{kind}' requires a 'value' field (non-empty "
                    "string array).", ctx.at(*value_pair) if value_pair else ctx.span(type_node))
            return
        if not any(text_of(item) is not None for item in value_pair[1].items):
            ctx.add("EY614", f"'value' holds no string: the loader skips this {kind} grader "
                    "(\"value must be a non-empty string array\")", ctx.span(value_pair[0]))
            return
    if not composite_member:
        check_grader_fields(ctx, kind, values, type_node)
    if "required" in values:
        _required(ctx, *values["required"])
    if "prompt" in values:
        rubrics = values.get("rubrics") or values.get("criteria")
        _prompt(ctx, values["prompt"][1], facts,
                rubric_items(plain(rubrics[1])) if rubrics is not None else [])
    # `type: rubrics` reads its items from `criteria:` (strings allowed); `llm-grader` and the
    # legacy `rubric` from `rubrics:` (mappings only).
    listed_name = "criteria" if kind == "rubrics" else "rubrics"
    if kind in ("llm-grader", "rubrics", "rubric") and listed_name in values:
        listed = values[listed_name][1]
        if isinstance(listed, Sequence):
            check_assertion_rubrics(ctx, listed, strings=kind == "rubrics")
    if kind == "composite":
        aggregator = values.get("aggregator")
        if aggregator is not None and isinstance(aggregator[1], Mapping):
            prompt = aggregator[1].get("prompt")
            if prompt is not None:
                _prompt(ctx, prompt, facts)
        members = values.get("assertions") or values.get("evaluators")
        if members is not None and isinstance(members[1], Sequence):
            for member in members[1].items:
                if isinstance(member, Mapping):
                    check_assertion(ctx, member, facts, composite_member=True)


def _required(ctx: Context, key: Scalar, value: Node) -> None:
    raw = value.value if isinstance(value, Scalar) else None
    if isinstance(raw, bool):
        return
    if isinstance(raw, (int, float)) and isinstance(value, Scalar):
        if raw <= 0 or raw > 1:
            ctx.add("EY616", f"Invalid 'required' value {value.text}. When a number, it must be "
                    "between 0 (exclusive) and 1 (inclusive).", ctx.span(value))
        return
    ctx.add("EY616", "Invalid 'required' value. Must be a boolean or a number between 0 "
            "(exclusive) and 1 (inclusive).", ctx.at(key, value))


def _prompt(ctx: Context, value: Node, facts: SuiteFacts,
            rubrics: list[PyValue] | None = None) -> None:
    if isinstance(value, Mapping):
        _prompt_command(ctx, value, facts)
        return
    text = text_of(value)
    if text is None or not isinstance(value, Scalar) or ENV in text:
        return
    if text.startswith("file://"):
        context = dict(facts.current or {})
        context["rubrics"] = rubrics or []
        facts.refs.append(SuiteRef("prompt", text[len("file://"):], ctx.span(value), value.style,
                                   value.text, context))
    elif _BARE_PATH.match(text.strip()):
        facts.refs.append(SuiteRef("bare-prompt", text.strip(), ctx.span(value), value.style,
                                  value.text))


def _prompt_command(ctx: Context, value: Mapping, facts: SuiteFacts) -> None:
    """`prompt: {command: [bun, run, prompt.ts]}`: the last argument is resolved like a prompt
    file (search roots) and must exist, or the loader throws and skips the test; the script is
    never read or run here."""
    pair = value.pair("command") or value.pair("script")
    command = pair[1] if pair else None
    if not isinstance(command, Sequence) or not command.items:
        if not (isinstance(command, Scalar) and isinstance(command.value, str)
                and ENV in command.value):
            ctx.add("EY636", "a prompt object needs a 'command' array (\"prompt object requires "
                    "command array\"): the loader refuses this grader and skips the test",
                    ctx.at(pair[0], command) if pair else ctx.span(pairs(value)[0][0])
                    if value.pairs else ctx.span(value))
        return
    last = command.items[-1]
    name = text_of(last)
    if name and isinstance(last, Scalar) and ENV not in name:
        facts.refs.append(SuiteRef("prompt-command", name, ctx.span(last), last.style,
                                   last.text))


