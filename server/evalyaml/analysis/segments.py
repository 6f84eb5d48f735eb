"""Split a dataset's text into its cases, by lines, before any parsing.

A block-sequence item is a self-contained span of text: it starts with `- ` at the sequence's
indentation and runs until the next such line or a less-indented line. Parsing each case on its
own costs the same as one big parse, but it lets an edit re-parse only the case it touched, and a
syntax error in one case no longer hides every finding in the others.

Splitting is refused (and the file parsed whole) where a case might not stand alone: anchors or
aliases (they cross cases), several documents, directives, or a `questions` key that is not a
plain block sequence at the root.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
_QUESTIONS = re.compile(r"^questions[ \t]*:[ \t]*(?:#.*)?$")
_ITEM = re.compile(r"^( *)-(?:[ \t]|$)")
_NOT_SPLITTABLE = re.compile(
    r"(?:^|[\s,\[{])[&*][^\s,\[\]{}]"  # an anchor or alias
    r"|^(?:---|\.\.\.)(?:[ \t]|$)"  # document markers
    r"|^%",  # directives
    re.MULTILINE,
)


@dataclass(frozen=True, slots=True)
class Segment:
    start: int  # offset of the first character of the item's first line
    end: int
    line: int  # that line's number


@dataclass(frozen=True, slots=True)
class DatasetSplit:
    items: tuple[Segment, ...]
    skeleton: str  # the text with every item line emptied: line numbers stay the same


def split_dataset(text: str) -> DatasetSplit | None:
    if _NOT_SPLITTABLE.search(text):
        return None
    line_spans: list[tuple[int, int]] = []
    for match in _LINE.finditer(text):
        if match.start() == match.end():
            break
        line_spans.append((match.start(), match.end()))
    question_lines = [
        n for n, (s, e) in enumerate(line_spans) if _QUESTIONS.match(text[s:e].rstrip("\r\n"))
    ]
    if len(question_lines) != 1:
        return None
    items: list[tuple[int, int]] = []  # (first line, last line + 1)
    indent: int | None = None
    n = question_lines[0] + 1
    while n < len(line_spans):
        s, e = line_spans[n]
        content = text[s:e].rstrip("\r\n")
        stripped = content.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            n += 1
            continue
        depth = len(content) - len(stripped)
        item = _ITEM.match(content)
        if indent is None:
            if not item:
                return None  # `questions:` followed by something other than a block list
            indent = depth
        if item and depth == indent:
            items.append((n, n + 1))
        elif depth > indent and items and not content.startswith("\t"):
            items[-1] = (items[-1][0], n + 1)
        else:
            break
        n += 1
    if not items:
        return None
    # Blank and comment lines after an item belong to it, up to the next item.
    segments: list[Segment] = []
    for index, (first, last) in enumerate(items):
        stop = items[index + 1][0] if index + 1 < len(items) else last
        segments.append(Segment(line_spans[first][0], line_spans[stop - 1][1], first))
    region_start, region_end = segments[0].start, segments[-1].end
    emptied = re.sub(r"[^\r\n]+", "", text[region_start:region_end])
    skeleton = text[:region_start] + emptied + text[region_end:]
    return DatasetSplit(tuple(segments), skeleton)
