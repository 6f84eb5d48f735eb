"""What every promptfoo rule shares: one file's parse and sink, spans, pairs, and the
did-you-mean message every unknown-key finding carries."""

from __future__ import annotations

from collections.abc import Iterable

from evalyaml.core.context import RuleContext, quoted_like
from evalyaml.core.findings import FindingSink, Fix, TextEdit
from evalyaml.core.suggest import best_value, rank
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

# quoted_like: the shared one (core.context), as the rules import it
__all__ = ["Context", "is_null", "is_number", "is_ref", "pairs", "quoted_like", "suggest_value",
           "text_of", "zod_type"]


class Context(RuleContext):
    __slots__ = ("external", "parsed")

    def __init__(self, parsed: ParsedText, sink: FindingSink, base: int = 0, *,
                 external: bool = False) -> None:
        super().__init__(parsed.lines, sink, base)  # base: a JSONL row's start in the file
        self.parsed = parsed
        self.external = external  # a tests file, not the config

    def unknown_key(self, key: Scalar, allowed: Iterable[str], where: str, *,
                    effect: str = "promptfoo strips it silently (zod drops unknown keys)"
                    ) -> None:
        """`effect`: what promptfoo does with the key, where it is not zod's stripping."""
        ranked = rank(key.text, allowed)
        hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
        self.add("EYPF001", f"unknown key '{key.text}' in {where}: {effect}, so it has no "
                 f"effect{hint}", self.span(key),
                 fixes=tuple(Fix(f"Rename to '{r}'", (TextEdit(self.span(key),
                                                               quoted_like(key, r)),),
                                 preferred=i == 0) for i, r in enumerate(ranked[:3])))


def text_of(node: Node | None) -> str | None:
    if isinstance(node, Scalar):
        value = node.value
        return value if isinstance(value, str) else None
    return None


def is_null(node: Node | None) -> bool:
    return node is None or (isinstance(node, Scalar) and node.value is None)


def is_number(node: Node | None) -> bool:
    if not isinstance(node, Scalar):
        return False
    value = node.value
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def pairs(mapping: Mapping) -> list[tuple[Scalar, Node]]:
    """A mapping's pairs with scalar keys, merge keys resolved the way js-yaml does."""
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


def is_ref(node: Node | None) -> bool:
    """A `{$ref: ...}` mapping: promptfoo dereferences it at load (`dereferenceConfig`), so what
    it stands for is checked where it is written, not here."""
    return isinstance(node, Mapping) and node.get("$ref") is not None


def suggest_value(value: str, allowed: Iterable[str]) -> str | None:
    return best_value(value, tuple(allowed))


def zod_type(node: Node) -> str:
    """The type zod names in "expected X, received Y" for a value as js-yaml reads it."""
    if isinstance(node, Mapping):
        return "object"
    if isinstance(node, Sequence):
        return "array"
    value = node.value if isinstance(node, Scalar) else None
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return "number" if isinstance(value, int | float) else "string"
