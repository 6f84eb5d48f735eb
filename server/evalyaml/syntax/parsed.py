"""A parsed text, whatever its syntax: YAML and JSON readers both return one, so
the rules never ask which syntax a file was written in."""

from __future__ import annotations

from evalyaml.syntax.record import mutable_record
from evalyaml.syntax.recover import Hole
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Node

MAX_DEPTH = 256
"""Nesting beyond this is refused before parsing (by every syntax, and the YAML fast
path keeps it too)."""


@mutable_record
class ParsedText:
    """The documents of one text (usually one), with offsets relative to that text."""

    text: str
    lines: LineIndex
    documents: list[Node | None]
    ok: bool  # False when a syntax or limit finding stopped the parse of the text as written
    holes: tuple[Hole, ...] = ()  # not ok, but `documents` is the tree around these blanks
    # (`recover.py`): analyse it, the sink's mask keeps the blanks' consequences out
    error_at: int | None = None  # where the syntax error that stopped the parse was reported
    error_open: bool = False  # that error is a string or collection left open at the end

    @property
    def usable(self) -> bool:
        """Whether `documents` can be analysed: parsed as written, or recovered."""
        return self.ok or bool(self.holes)

    def span(self, node: Node) -> Span:
        return self.lines.span(node.start, node.end)
