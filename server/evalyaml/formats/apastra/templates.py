"""Apastra's template rendering: literal `str.replace("{{name}}", value)` per input.

There is no whitespace tolerance and no escaping, so `{{ name }}` is never substituted and
reaches the model as written; a placeholder is `{{` + a name without spaces or braces + `}}`.
"""

from __future__ import annotations

import re

from evalyaml.syntax.record import record

PLACEHOLDER = re.compile(r"\{\{([^{}\s]+)\}\}")
SPACED = re.compile(r"\{\{(\s*)([^{}\s]+)(\s*)\}\}")


@record
class Placeholder:
    name: str
    start: int  # offsets in the template text
    end: int
    spaced: bool


def placeholders(template: str) -> list[Placeholder]:
    out: list[Placeholder] = []
    for match in SPACED.finditer(template):
        spaced = bool(match.group(1) or match.group(3))
        out.append(Placeholder(match.group(2), match.start(), match.end(), spaced))
    return out
