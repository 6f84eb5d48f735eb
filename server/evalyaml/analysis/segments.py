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

_QUESTIONS = re.compile(r"questions[ \t]*:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n|$)")
_FIRST_ITEM = re.compile(r"(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*( *)-(?=[ \t\r\n]|$)")
_NODE_START_BEFORE = frozenset(":-[{,?")
_NOT_NAME = frozenset(" \t\r\n,[]{}")


def may_have_anchors(text: str) -> bool:
    """Whether `&name` or `*name` might stand where a YAML node starts (line start, or after
    `: `, `- `, `? ` or a flow indicator). Markdown such as `**bold**` inside a value is not."""
    for sigil in "&*":
        at = text.find(sigil)
        while at != -1:
            following = text[at + 1 : at + 2]
            if following and following not in _NOT_NAME:
                before = at - 1
                while before >= 0 and text[before] in " \t":
                    before -= 1
                if before < 0 or text[before] in "\r\n" or text[before] in _NODE_START_BEFORE:
                    return True
            at = text.find(sigil, at + 1)
    return False


def _line_starts_with(text: str, prefix: str) -> list[int]:
    """Offsets of lines that start with `prefix` (LF and CRLF line ends; see `split_dataset`)."""
    found = [0] if text.startswith(prefix) else []
    needle = "\n" + prefix
    at = text.find(needle)
    while at != -1:
        found.append(at + 1)
        at = text.find(needle, at + 1)
    return found


def has_root_schema_key(text: str) -> bool:
    return bool(_line_starts_with(text.lstrip("\ufeff"), "$schema")) or "\r$schema" in text


def has_questions_line(text: str) -> bool:
    return bool(_line_starts_with(text, "questions")) or "\rquestions" in text


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
    """Every search here is a literal find or a regex with a literal prefix: this runs on each
    keystroke in a 10,000-case file, where one `^`-anchored multiline regex costs 100 ms."""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None  # old Mac line ends: rare enough to parse whole
    if may_have_anchors(text):
        return None
    if any(_line_starts_with(text, marker) for marker in ("---", "...", "%")):
        return None
    questions = [at for at in _line_starts_with(text, "questions") if _QUESTIONS.match(text, at)]
    if len(questions) != 1:
        return None
    first = _FIRST_ITEM.match(text, _QUESTIONS.match(text, questions[0]).end())  # type: ignore[union-attr]
    if first is None:
        return None  # `questions:` followed by something other than a block list
    indent = len(first.group(1))
    region_start = first.start(1)
    # The list ends at the first line that is not blank, not a comment, not indented deeper
    # than the items and not an item itself.
    end_of_list = re.compile(
        rf"\n(?! {{{indent + 1}}}| {{{indent}}}-(?=[ \t\r\n]|$)|[ \t]*(?:#|\r|\n|$))"
    )
    terminator = end_of_list.search(text, region_start)
    region_end = terminator.start() + 1 if terminator else len(text)
    if terminator and text[region_end : region_end + 1] in (" ", "\t"):
        return None  # an indented line that is neither a case nor a root key: parse it whole
    item_start = re.compile(rf"\n {{{indent}}}-(?=[ \t\r\n]|$)")
    starts = [region_start]
    starts.extend(m.start() + 1 for m in item_start.finditer(text, region_start, region_end))
    line = text.count("\n", 0, region_start)
    segments: list[Segment] = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else region_end
        segments.append(Segment(start, end, line))
        line += text.count("\n", start, end)
    emptied = "\n" * text.count("\n", region_start, region_end)
    skeleton = text[:region_start] + emptied + text[region_end:]
    return DatasetSplit(tuple(segments), skeleton)
