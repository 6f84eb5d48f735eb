"""The `input` and `expected_output` messages of an AgentV test, and their content parts:
roles, `file` parts (whose paths the cross check resolves) and role markers written inside
a string, as the loader (`yaml-parser.ts`) reads them."""

from __future__ import annotations

from evalyaml.formats.agentv import rules
from evalyaml.formats.agentv.common import Context, pairs, rank_value, text_of
from evalyaml.formats.agentv.suitefacts import ENV, SuiteFacts, SuiteRef
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence


def check_messages(ctx: Context, messages: Sequence, where: str,
                   facts: SuiteFacts | None = None) -> None:
    for message in messages.items:
        if not isinstance(message, Mapping):
            ctx.add("EY609", f"each message in '{where}' must be a mapping with 'role' and "
                    "'content' (\"Message must be an object\")", ctx.span(message))
            continue
        values = {key.text: (key, value) for key, value in pairs(message)}
        role_pair = values.get("role")
        role = text_of(role_pair[1]) if role_pair else None
        if role not in rules.ROLES and role != "tool":
            ranked = rank_value(role, rules.ROLES) if role else []
            hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
            span = ctx.at(*role_pair) if role_pair else ctx.span(message)
            fixes = ((ctx.rename_fix(role_pair[1], ranked[0]),)
                     if ranked and role_pair and isinstance(role_pair[1], Scalar) else ())
            ctx.add("EY609", f"Invalid role '{role if role is not None else 'undefined'}'. "
                    f"Must be one of: {', '.join(rules.ROLES)}; the loader drops the "
                    f"message{hint}", span, fixes=fixes)
        content_pair = values.get("content")
        if content_pair is None:
            if "tool_calls" not in values:
                ctx.add("EY609", "Missing or invalid 'content' field (must be a string, array, "
                        "or object)", ctx.span(role_pair[0]) if role_pair else ctx.span(message))
            continue
        key, content = content_pair
        if isinstance(content, Scalar) and isinstance(content.value, str):
            _role_markers(ctx, content)
        elif isinstance(content, Sequence):
            for part in content.items:
                _content_part(ctx, part, facts)
        elif not isinstance(content, Mapping):
            ctx.add("EY609", "Missing or invalid 'content' field (must be a string, array, or "
                    "object)", ctx.at(key, content))


def _content_part(ctx: Context, part: Node, facts: SuiteFacts | None) -> None:
    if isinstance(part, Scalar) and isinstance(part.value, str):
        _role_markers(ctx, part)
        return
    if not isinstance(part, Mapping):
        ctx.add("EY609", "Content array items must be strings or objects", ctx.span(part))
        return
    values = {key.text: (key, value) for key, value in pairs(part)}
    type_pair = values.get("type")
    type_name = text_of(type_pair[1]) if type_pair else None
    if type_name is None:
        ctx.add("EY609", "Content object must have a 'type' field",
                ctx.at(*type_pair) if type_pair else ctx.span(part))
    if type_name == "file" and facts is not None:
        value_pair = values.get("value")
        name = text_of(value_pair[1]) if value_pair else None
        if name is None or value_pair is None:
            ctx.add("EY609", "File reference must have a 'value' field with the file path",
                    ctx.at(*value_pair) if value_pair else ctx.span(part))
        elif isinstance(value_pair[1], Scalar) and ENV not in name:
            facts.refs.append(SuiteRef("content-file", name, ctx.span(value_pair[1]),
                                       value_pair[1].style, value_pair[1].text))
    if type_name == "text":
        value_pair = values.get("value")
        if value_pair is None or text_of(value_pair[1]) is None:
            ctx.add("EY609", "Content with type 'text' must have a 'value' field",
                    ctx.at(*value_pair) if value_pair else ctx.span(type_pair[1])
                    if type_pair else ctx.span(part))
        elif isinstance(value_pair[1], Scalar):
            _role_markers(ctx, value_pair[1])


def _role_markers(ctx: Context, node: Scalar) -> None:
    lowered = str(node.value).lower()
    for marker in rules.ROLE_MARKERS:
        if marker.lower() in lowered:
            ctx.add("EY610", f"Content contains potential role marker '{marker}'. This may "
                    "confuse agentic providers or cause prompt injection.", ctx.span(node))


