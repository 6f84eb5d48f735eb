"""A prompt rendered with one test's variables, for the hover on a test: what promptfoo would
send, so a variable no test supplies (rendered as an empty string, promptfoo #627/#2284) is seen
before the provider is paid.

Only what can be known without running anything is filled in: `{{ name }}` and dotted or indexed
paths into a variable (`{{ doc.title }}`, `{{ items[0] }}`). Filters, calls and `{% %}` tags are
left as written (the run decides them); comments are dropped as nunjucks drops them. A value
that is a mapping or a list is shown as JSON."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from evalyaml.syntax.tree import Budget, ExpansionLimit, Mapping, Node, to_python

_TAG = re.compile(r"\{\{(?P<expr>.*?)\}\}|\{#.*?#\}|\{%.*?%\}", re.DOTALL)
_PATH = re.compile(r"^(?P<head>[A-Za-z_$][\w$]*)(?P<rest>(?:\.[A-Za-z_$][\w$]*|\[\s*(?:\d+|'[^']*'"
                   r"|\"[^\"]*\")\s*\])*)$")
_STEP = re.compile(r"\.([A-Za-z_$][\w$]*)|\[\s*(\d+)\s*\]|\[\s*'([^']*)'\s*\]"
                   r"|\[\s*\"([^\"]*)\"\s*\]")
_BUDGET = 10_000


@dataclass(slots=True)
class Rendered:
    text: str
    missing: list[str] = field(default_factory=list)  # supplied by no variable: rendered ""
    absent: list[str] = field(default_factory=list)  # a path into a variable that has no such part
    kept: list[str] = field(default_factory=list)  # expressions left as written


def values_of(node: Node | None) -> dict[str, object] | None:
    """A `vars` mapping as plain values; None when it is not one written inline."""
    if node is None:
        return {}
    if not isinstance(node, Mapping):
        return None
    try:
        value = to_python(node, Budget(_BUDGET))
    except ExpansionLimit:
        return None
    if not isinstance(value, dict):
        return None
    out: dict[str, object] = dict(value)
    return out


def render(template: str, values: dict[str, object]) -> Rendered:
    out = Rendered("")
    pieces: list[str] = []
    pos = 0
    for match in _TAG.finditer(template):
        pieces.append(template[pos:match.start()])
        pos = match.end()
        written = match.group()
        if written.startswith("{#"):
            continue
        expr = match.group("expr")
        if expr is None:
            pieces.append(written)
            continue
        path = _PATH.match(expr.strip().strip("-").strip())
        if path is None:
            pieces.append(written)
            _note(out.kept, written)
            continue
        head = path.group("head")
        if head == "env" and head not in values:  # a global: the process's environment
            pieces.append(written)
            _note(out.kept, written)
            continue
        if head not in values:
            _note(out.missing, head)
            continue
        found, value = _walk(values[head], path.group("rest"))
        if not found:
            _note(out.absent, expr.strip())
            continue
        pieces.append(_text(value))
    pieces.append(template[pos:])
    out.text = "".join(pieces)
    return out


def _walk(value: object, rest: str) -> tuple[bool, object]:
    for step in _STEP.finditer(rest):
        name, index, single, double = step.groups()
        if index is not None:
            if not isinstance(value, list) or int(index) >= len(value):
                return False, None
            value = value[int(index)]
            continue
        key = name if name is not None else single if single is not None else double
        if not isinstance(value, dict) or key not in value:
            return False, None
        value = value[key]
    return True, value


def _text(value: object) -> str:
    """As the template prints it: strings as they are, scalars as JavaScript writes them."""
    if isinstance(value, str):
        return value.removesuffix("\n")  # `renderPrompt` strips one trailing newline
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return json.dumps(value, ensure_ascii=False, default=str)


def _note(names: list[str], name: str) -> None:
    if name not in names:
        names.append(name)
