"""What the lm-eval rules share: one file's parse and sink, the harness's view of a mapping
(PyYAML keeps the last of duplicate keys), and offsets inside a scalar's source."""

from __future__ import annotations

from evalyaml.core.context import RuleContext
from evalyaml.core.findings import FindingSink, Fix, Related
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import MERGE_TAG, Mapping, Node, Scalar

FUNCTION_TAG = "!function"


class Context(RuleContext):
    """The shared rule context, keeping the parse: `inner` reads a scalar's source."""

    __slots__ = ("parsed",)

    def __init__(self, parsed: ParsedText, sink: FindingSink) -> None:
        super().__init__(parsed.lines, sink)
        self.parsed = parsed

    def add(self, code: str, message: str, span: Node | Span, *,
            related: tuple[Related, ...] = (), fixes: tuple[Fix, ...] = ()) -> None:
        """Also on a node: most lm-eval findings sit on the key or value they are about."""
        super().add(code, message, span if isinstance(span, Span) else self.span(span),
                    related=related, fixes=fixes)

    def suggest_fix(self, node: Node, text: str) -> Fix:
        """A value replaced by the harness's nearest accepted name."""
        return self.replace_fix(node, text, f"Replace with '{text}'")

    def inner(self, node: Scalar, start: int, end: int) -> Span:
        """Columns [start, end) of the scalar's value, placed in its source; the whole scalar
        when the source cannot be aligned with the value (escapes it could not follow)."""
        where = source_offsets(self.parsed.text[node.start:node.end], node.style, node.text)
        if where is None or end > len(where) or start >= len(where):
            return self.span(node)
        last = where[end - 1] + 1 if end > start else where[start]
        return self.parsed.lines.span(node.start + where[start], node.start + last)


def top(mapping: Mapping) -> dict[str, tuple[Scalar, Node]]:
    """Keys as PyYAML's constructor keeps them: the last of duplicates wins (lm-eval #2234)."""
    out: dict[str, tuple[Scalar, Node]] = {}
    for key, value in mapping.pairs:
        if isinstance(key, Scalar) and key.tag != MERGE_TAG:
            out.pop(key.text, None)
            out[key.text] = (key, value)
    return out


def is_function(node: Node | None) -> bool:
    return isinstance(node, Scalar) and node.tag == FUNCTION_TAG


def text_of(node: Node | None) -> str | None:
    if isinstance(node, Scalar) and not is_function(node):
        value = node.value
        return value if isinstance(value, str) else None
    return None


def tag_free(node: Scalar, source: str) -> tuple[int, int]:
    """The offsets of a tagged scalar's text without its tag (`!function utils.f`)."""
    raw = source[node.start:node.end]
    if raw.startswith("!"):
        cut = len(raw) - len(raw[len(node.tag):].lstrip(" \t"))
        return node.start + cut, node.end
    return node.start, node.end


_ESCAPES = {"0": 1, "a": 1, "b": 1, "t": 1, "\t": 1, "n": 1, "v": 1, "f": 1, "r": 1, "e": 1,
            " ": 1, '"': 1, "/": 1, "\\": 1, "N": 1, "_": 1, "L": 1, "P": 1, "x": 3, "u": 5,
            "U": 9}


def source_offsets(raw: str, style: str, value: str) -> list[int] | None:
    """For each character of `value`, its offset in `raw` (the scalar's source): characters
    are matched in order, skipping what folding, indentation and quotes add to the source, and a
    double-quoted escape maps to its backslash. None when they cannot be aligned."""
    out: list[int] = []
    j = 0
    if style in ("|", ">"):
        newline = raw.find("\n")
        j = newline + 1 if newline >= 0 else len(raw)
    elif style in ('"', "'"):
        j = 1
    for char in value:
        if style == '"' and j < len(raw) and raw[j] == "\\" and j + 1 < len(raw):
            length = _ESCAPES.get(raw[j + 1])
            if length is not None and raw[j + 1] not in "\n\r":
                out.append(j)
                j += 1 + length
                continue
        found = raw.find(char, j)
        if found < 0 or (found - j > 200):
            return None
        out.append(found)
        j = found + 1
    return out
