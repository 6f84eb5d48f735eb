"""What every format's rules share while they walk one file: where the tree's text sits in the
file, the sink, and the spans and fixes every rule writes the same way.

Each format's `Context` extends this with what only its rules need (AgentV's "the value, or its
key", Padosoft's first-line spans, promptfoo's unknown-key message). One base, so a fix to how a
span or a rename is written is made once. `base` serves formats that analyse a piece of a file
alone (a JSONL row, one test of a suite): node offsets count from the piece, spans from the file.
"""

from __future__ import annotations

from evalyaml.core.findings import FindingSink, Fix, Related, TextEdit
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Node, Scalar


class RuleContext:
    __slots__ = ("base", "lines", "sink")

    def __init__(self, lines: LineIndex, sink: FindingSink, base: int = 0) -> None:
        self.lines = lines
        self.sink = sink
        self.base = base  # where the tree's text starts in the file

    def span(self, node: Node) -> Span:
        return self.lines.span(self.base + node.start, self.base + node.end)

    def offsets(self, start: int, end: int) -> Span:
        """A span by offsets into the tree's text."""
        return self.lines.span(self.base + start, self.base + end)

    def point(self, node: Node) -> Span:
        start = self.lines.position(self.base + node.start)
        return Span(start, start)

    def add(self, code: str, message: str, span: Span, *, related: tuple[Related, ...] = (),
            fixes: tuple[Fix, ...] = ()) -> None:
        self.sink.add(code, message, span, related=related, fixes=fixes)

    def rename_fix(self, key: Scalar, name: str) -> Fix:
        """A key renamed as written: a quoted key (JSON's always are) keeps its quotes."""
        return Fix(f"Rename to '{name}'", (TextEdit(self.span(key), quoted_like(key, name)),),
                   preferred=True)

    def replace_fix(self, node: Node, text: str, title: str | None = None, *,
                    preferred: bool = True) -> Fix:
        return Fix(title or f"Replace with {text}", (TextEdit(self.span(node), text),),
                   preferred=preferred)


def quoted_like(node: Scalar, text: str) -> str:
    """`text` written the way `node` is: bare for a plain scalar, else as a JSON string (valid
    in a YAML double-quoted scalar too) or a YAML single-quoted one."""
    if node.style == '"':
        import json  # here: only a fix for a double-quoted value needs it (issue #27)

        return json.dumps(text, ensure_ascii=False)
    if node.style == "'":
        return "'" + text.replace("'", "''") + "'"
    return text
