"""Suppression comments: `# evalyaml: ignore[EY205, EY403]` and `ignore-file[...]`.

Read from the text alone, before any format sees it, so that every format with comments gets
them the same way: YAML's `#` comments, and Markdown's `<!-- ... -->` (prompt files). JSON and
JSONL have no comments; their files are silenced through the configuration instead.

Where a directive applies is decided here (the line it trails, the next line when it stands
alone, or the whole file); whether it silenced anything is decided where findings are finalised
(`workspace.suppress`), because cross-file findings arrive after the file's own analysis.
"""

from __future__ import annotations

from pathlib import PurePath

from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.record import record
from evalyaml.syntax.text import LineIndex, Span

MARKER = "evalyaml:"
SUPPRESSIONS = "evalyaml.suppressions"  # the key of a file's directives in its facts
NO_COMMENTS = frozenset({".json", ".jsonl"})
MARKDOWN = frozenset({".md", ".markdown"})

# `#` starts a YAML comment only at a line's start or after whitespace.
_YAML = lazy_re(r"(?:^|(?<=[ \t]))#[ \t]*evalyaml:[ \t]*(ignore(?:-file)?)[ \t]*\[([^\]\n]*)\]")
_MARKDOWN = lazy_re(r"<!--[ \t]*evalyaml:[ \t]*(ignore(?:-file)?)[ \t]*\[([^\]\n]*)\][ \t]*-->")
_CODE = lazy_re(r"[^,\s]+")


@record
class Code:
    """One code written in a directive, where it is written."""

    code: str
    span: Span


@record
class Directive:
    """One suppression comment.

    `line` is the line it silences (None: the whole file); `comment` is the whole comment and
    `removal` the text to delete to take it away (with the spaces before a trailing comment, or
    the whole line for one standing alone)."""

    line: int | None
    codes: tuple[Code, ...]
    comment: Span
    removal: Span
    inner: Span  # between the brackets


def comment_style(path: str | None) -> str | None:
    """'yaml', 'markdown' or None for a file that cannot hold comments."""
    suffix = PurePath(path).suffix.lower() if path else ""
    if suffix in NO_COMMENTS:
        return None
    return "markdown" if suffix in MARKDOWN else "yaml"


def scan(text: str, path: str | None) -> tuple[Directive, ...]:
    """Every suppression directive in `text`; () quickly when the marker is absent."""
    if MARKER not in text:
        return ()
    style = comment_style(path)
    if style is None:
        return ()
    pattern = _MARKDOWN if style == "markdown" else _YAML
    lines = LineIndex(text)
    found: list[Directive] = []
    for match in pattern.finditer(text):
        start = match.start()
        position = lines.position(start)
        line_start = lines.line_start(position.line)
        line_end = lines.line_end(position.line)
        alone = not text[line_start:start].strip()
        after = text[match.end():line_end].strip()
        if style == "yaml" and after:
            continue  # more after the brackets: not a directive (a comment that mentions one)
        inner_start = match.start(2)
        codes = tuple(Code(m.group(), lines.span(inner_start + m.start(), inner_start + m.end()))
                      for m in _CODE.finditer(match.group(2)))
        if alone and not after:
            next_start = lines.line_start(position.line + 1) \
                if position.line + 1 < lines.line_count else line_end
            removal = Span(lines.position(line_start), lines.position(next_start)) \
                if position.line + 1 < lines.line_count else lines.span(line_start, line_end)
        else:
            before = start
            while before > line_start and text[before - 1] in " \t":
                before -= 1
            removal = lines.span(before, match.end())
        whole_file = match.group(1) == "ignore-file"
        target = None if whole_file else (position.line + 1 if alone else position.line)
        found.append(Directive(target, codes, lines.span(start, match.end()), removal,
                               lines.span(inner_start, match.end(2))))
    return tuple(found)


def trailing_comment(style: str, codes: str) -> str:
    """The text a quick fix appends to a line to silence `codes` on it."""
    if style == "markdown":
        return f" <!-- evalyaml: ignore[{codes}] -->"
    return f"  # evalyaml: ignore[{codes}]"
