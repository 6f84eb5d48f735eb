"""A grader prompt file (`prompt: file://x.md`), checked as `validateTemplateVariables` does
when the llm-grader loads it (`validation/prompt-validator.ts`).

Grader variables are `{{ name }}` with the regex AgentV uses; per-test `vars` never reach a
prompt file (they apply to the suite's input fields only), so they are not offered here.
"""

from __future__ import annotations

import re

from evalyaml.core.findings import FindingSink, Fix, FixSafety, TextEdit
from evalyaml.formats.agentv import rules
from evalyaml.formats.agentv.common import rank_value
from evalyaml.syntax.text import LineIndex, Span

VARIABLE = re.compile(r"\{\{\s*([a-zA-Z0-9_]+)\s*\}\}")
_VALID = frozenset((*rules.TEMPLATE_VARIABLES, *rules.DEPRECATED_VARIABLES))


def check_prompt(text: str, sink: FindingSink) -> None:
    lines = LineIndex(text)
    found: set[str] = set()
    for match in VARIABLE.finditer(text):
        name = match.group(1)
        found.add(name)
        span = lines.span(match.start(1), match.end(1))
        if name in rules.DEPRECATED_VARIABLES:
            new = rules.DEPRECATED_VARIABLES[name]
            sink.add("EY625", f"{{{{ {name} }}}} is deprecated: use {{{{ {new} }}}} (it still "
                     "works, but will be removed)", span,
                     fixes=(Fix(f"Replace with '{new}'", (TextEdit(span, new),), preferred=True,
                                safety=FixSafety.SAFE),))  # its one successor
        elif name not in _VALID:
            ranked = rank_value(name, rules.TEMPLATE_VARIABLES)
            hint = f"; did you mean '{ranked[0]}'?" if ranked else \
                f" (valid: {', '.join(rules.TEMPLATE_VARIABLES)})"
            sink.add("EY624", f"unknown grader variable '{name}': AgentV leaves "
                     f"{{{{ {name} }}}} in the prompt verbatim{hint}", span,
                     fixes=tuple(Fix(f"Replace with '{r}'", (TextEdit(span, r),),
                                     preferred=i == 0) for i, r in enumerate(ranked[:3])))
    if not found & set(rules.REQUIRED_VARIABLES):
        sink.add("EY623", "the llm-grader refuses this prompt and skips the test: it must "
                 "include {{ output }} or {{ expected_output }} (\"Missing required fields\")",
                 _first_line(lines))


def _first_line(lines: LineIndex) -> Span:
    for line in range(lines.line_count):
        text = lines.line_text(line)
        stripped = text.strip(" \t\ufeff")
        if stripped:
            start = lines.line_start(line) + len(text) - len(text.lstrip(" \t\ufeff"))
            return lines.span(start, lines.line_end(line))
    return Span.point(0, 0)
