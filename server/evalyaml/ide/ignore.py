"""The quick fix "Ignore EYnnn on this line": a suppression comment (`syntax.suppress`) written
for the user, on every finding of a file that can hold comments.

The comment trails the finding's first line, or joins the codes of a suppression already
there. Inside a YAML block scalar a trailing `#` would become part of the text, so there the fix
silences the code for the whole file instead, from a comment on the first line.
"""

from __future__ import annotations

import re

from evalyaml.core.findings import Finding, Fix, TextEdit
from evalyaml.syntax.suppress import comment_style, scan, trailing_comment
from evalyaml.syntax.text import LineIndex, Position, Span

_UNSILENCEABLE = frozenset({"EY322", "EY323"})
_BLOCK_HEADER = re.compile(r"(?:^|:|-)[ \t]*[|>][-+0-9]*[ \t]*(?:#.*)?$")


def _in_block_scalar(lines: LineIndex, line: int) -> bool:
    """Whether `line` is content of a YAML block scalar (`key: |` above it, less indented)."""
    text = lines.line_text(line)
    if not text.strip():
        return False
    indent = len(text) - len(text.lstrip(" "))
    for above in range(line - 1, -1, -1):
        other = lines.line_text(above)
        if not other.strip():
            continue
        other_indent = len(other) - len(other.lstrip(" "))
        if other_indent < indent:
            return bool(_BLOCK_HEADER.search(other.rstrip()))
    return False


def ignore_fix(finding: Finding, lines: LineIndex, path: str | None) -> Fix | None:
    style = comment_style(path)
    if style is None or finding.code in _UNSILENCEABLE:
        return None
    code = finding.code
    line = finding.span.start.line
    if style == "yaml" and _in_block_scalar(lines, line):
        start = 1 if lines.text.startswith("\ufeff") else 0
        eol = "\r\n" if "\r\n" in lines.text else "\n"
        at = Position(0, start)
        return Fix(f"Ignore {code} in this file",
                   (TextEdit(Span(at, at), f"# evalyaml: ignore-file[{code}]{eol}"),))
    for directive in scan(lines.text, path):
        if directive.line == line and directive.comment.start.line == line:
            written = ", ".join([*(c.code for c in directive.codes), code])
            return Fix(f"Ignore {code} on this line", (TextEdit(directive.inner, written),))
    end = lines.position(lines.line_end(line))
    return Fix(f"Ignore {code} on this line",
               (TextEdit(Span(end, end), trailing_comment(style, code)),))
