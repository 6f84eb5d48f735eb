"""What every rule of one Apastra file (or one JSONL line) needs: the text, spans, the sink."""

from __future__ import annotations

from evalyaml.core.context import RuleContext
from evalyaml.core.findings import FindingSink
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Mapping, Node, Scalar


class Context(RuleContext):
    __slots__ = ("text",)

    def __init__(self, text: str, lines: LineIndex, sink: FindingSink, base: int = 0) -> None:
        super().__init__(lines, sink, base)  # base: a JSONL row's first character
        self.text = text  # the whole file

    def sub(self, start: int, end: int) -> Span:
        """A span by offsets relative to the tree's text."""
        return self.offsets(start, end)

    def first_line(self, node: Node) -> Span:
        start = self.base + node.start
        line = self.lines.position(start).line
        return self.lines.span(start, max(start, min(self.base + node.end,
                                                     self.lines.line_end(line))))

    def source(self, node: Node) -> str:
        return self.text[self.base + node.start:self.base + node.end]

    def inner(self, node: Scalar, start: int, end: int, needle: str, nth: int) -> Span:
        """The span of the `nth` occurrence of `needle` (found at start..end of the scalar's
        value) in the scalar's source; the whole scalar when escapes or folding hide it."""
        raw = self.source(node)
        if node.text.count(needle) == raw.count(needle):
            at = -1
            for _ in range(nth + 1):
                at = raw.find(needle, at + 1)
            if at >= 0:
                return self.sub(node.start + at, node.start + at + len(needle))
        return self.span(node)


def string_at(mapping: Node | None, key: str) -> tuple[str, Scalar] | None:
    if not isinstance(mapping, Mapping):
        return None
    node = mapping.get(key)
    if isinstance(node, Scalar) and isinstance(node.value, str) and node.tag.endswith(":str"):
        return node.text, node
    return None


def key_node(mapping: Mapping, key: str) -> Node | None:
    pair = mapping.pair(key)
    return pair[0] if pair else None
