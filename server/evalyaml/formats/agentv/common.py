"""What every AgentV rule shares: one file's parse and sink, spans, and the JSON-path words
`agentv validate` uses, so a message can quote where upstream would have said it."""

from __future__ import annotations

import re
from collections.abc import Iterable

from evalyaml.core.context import RuleContext
from evalyaml.core.findings import FindingSink
from evalyaml.core.suggest import best_value, rank
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence


class Context(RuleContext):
    __slots__ = ("parsed",)

    def __init__(self, parsed: ParsedText, sink: FindingSink, base: int = 0) -> None:
        super().__init__(parsed.lines, sink, base)  # base: a JSONL row's start in the file
        self.parsed = parsed

    def at(self, key: Node, value: Node | None) -> Span:
        """The value, or its key when the value has no text of its own (`input:` alone)."""
        if value is None or (isinstance(value, Scalar) and not value.text and value.is_plain):
            return self.span(key)
        if isinstance(value, (Mapping, Sequence)):
            return self.span(key)
        return self.span(value)


def scalar_value(node: Node | None) -> object:
    """A scalar's value under YAML 1.2 (what AgentV's `yaml` package reads); a marker for the
    collections, which callers test with isinstance on the node."""
    if isinstance(node, Scalar):
        return node.value
    return node


def is_string(node: Node | None) -> bool:
    return isinstance(node, Scalar) and isinstance(node.value, str)


def text_of(node: Node | None) -> str | None:
    if isinstance(node, Scalar):
        value = node.value
        return value if isinstance(value, str) else None
    return None


def is_null(node: Node | None) -> bool:
    return isinstance(node, Scalar) and node.value is None


def pairs(mapping: Mapping) -> list[tuple[Scalar, Node]]:
    """A mapping's pairs with scalar keys, merge keys resolved the way YAML does (first wins)."""
    out: list[tuple[Scalar, Node]] = []
    seen: set[str] = set()
    for key, value in mapping.pairs:
        if isinstance(key, Scalar) and key.tag != "tag:yaml.org,2002:merge" and \
                key.text not in seen:
            seen.add(key.text)
            out.append((key, value))
    for merged in mapping.merged():
        for key, value in pairs(merged):
            if key.text not in seen:
                seen.add(key.text)
                out.append((key, value))
    return out


def rank_value(value: str, allowed: Iterable[str]) -> list[str]:
    """Did-you-mean candidates for a value of a closed set (a type, a mode, a role, a variable):
    close spellings best first, else the one `best_value` finds by leading words or
    abbreviation (`weighted_avg`), else the only one sharing the first word
    (`expected_answer` -> `expected_output`)."""
    options = list(allowed)
    ranked = rank(value, options)
    if ranked:
        return ranked
    other = best_value(value, options)
    if other:
        return [other]
    # The one allowed value with the same first word (`expected_answer` -> `expected_output`).
    head = re.split(r"[_-]", value, maxsplit=1)[0]
    same = [o for o in options if re.split(r"[_-]", o, maxsplit=1)[0] == head and o != value]
    return same if len(same) == 1 and len(head) >= 4 else []
