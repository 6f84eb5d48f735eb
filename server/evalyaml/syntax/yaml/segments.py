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
from bisect import bisect_right
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

from evalyaml.syntax.record import record

_KEY_LINE = r"[ \t]*:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n|$)"  # after the key: `key:` alone
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


def _line_start_exists(text: str, prefix: str, *, after_bom: bool = False) -> bool:
    """Whether some line starts with `prefix` (after LF, CR or CRLF; on the first line after
    any BOMs if `after_bom`). One scan, stopping at the first: the language server asks for
    every keystroke in a 6 MB dataset."""
    at = text.find(prefix)
    while at != -1:
        if at == 0 or text[at - 1] in "\r\n" or \
                (after_bom and not text[:at].lstrip("\ufeff")):
            return True
        at = text.find(prefix, at + 1)
    return False


def has_root_schema_key(text: str) -> bool:
    return _line_start_exists(text, "$schema", after_bom=True)


def has_questions_line(text: str) -> bool:
    return _line_start_exists(text, "questions")


_new = tuple.__new__  # a NamedTuple's own __new__ is a Python function: three times the cost


class Segment(NamedTuple):
    """One case's text span. A tuple, not a dataclass: a 10,000-case file has 10,000 of them,
    and an edit that moves lines builds them again."""

    start: int  # offset of the first character of the item's first line
    end: int
    line: int  # that line's number


@record
class DatasetSplit:
    items: tuple[Segment, ...]
    skeleton: str  # the text with every item line emptied: line numbers stay the same
    indent: int  # of the items' `-`
    region_start: int  # where the first item starts; the skeleton's newlines begin here
    region_lines: int  # how many newlines the skeleton has in place of the items


@cache
def _key_line(key: str) -> re.Pattern[str]:
    return re.compile(re.escape(key) + _KEY_LINE)


_AHEAD: list[tuple[str, str | None, DatasetSplit | None]] = []  # `split_ahead`'s, at most one


def split_ahead(text: str, key: str | None = "questions") -> DatasetSplit | None:
    """`split_dataset`, its result kept for the next `split_dataset` of the same text and key,
    which is handed it: the language server splits a large dataset it is sent while it is still
    importing itself (`lsp.early`), and its first analysis would split the very same 6 MB again
    (100 ms). The split is pure, so an equal text has the same split. `forget_ahead` drops it."""
    split = _split_dataset(text, key)
    _AHEAD[:] = [(text, key, split)]
    return split


def forget_ahead(text: str | None = None) -> None:
    """Drop the split kept by `split_ahead` (only if it is of `text`, when given)."""
    ahead = _AHEAD[:1]
    if ahead and (text is None or ahead[0][0] == text):
        _AHEAD.clear()


def split_dataset(text: str, key: str | None = "questions") -> DatasetSplit | None:
    """The items of `text` under its root key `key`; None when it is not laid out so."""
    ahead = _AHEAD[:1]  # a copy: another thread may take it meanwhile
    if ahead and ahead[0][1] == key and ahead[0][0] == text:
        _AHEAD.clear()
        return ahead[0][2]
    return _split_dataset(text, key)


def _split_dataset(text: str, key: str | None) -> DatasetSplit | None:
    """Every search here is a literal find or a regex with a literal prefix: this runs on each
    keystroke in a 10,000-case file, where one `^`-anchored multiline regex costs 100 ms.

    `key` names the root key that holds the items (the contract's `questions`; other formats'
    `samples` or `tests`, see `items`); None when the document itself is the list (an AgentV
    cases file), which must then run to the end of the text."""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None  # old Mac line ends: rare enough to parse whole
    if may_have_anchors(text):
        return None
    if any(_line_starts_with(text, marker) for marker in ("---", "...", "%")):
        return None
    if text.find("\ufeff", 1) != -1:  # no copy of a 6 MB text per keystroke
        return None  # a byte-order mark inside the text: YAML reads it apart, so parse whole
    if key is None:
        first = _FIRST_ITEM.match(text)  # only blank and comment lines before the list
    else:
        key_line = _key_line(key)
        questions = [at for at in _line_starts_with(text, key) if key_line.match(text, at)]
        if len(questions) != 1:
            return None
        first = _FIRST_ITEM.match(text, key_line.match(text, questions[0]).end())  # type: ignore[union-attr]
    if first is None:
        return None  # `questions:` followed by something other than a block list
    indent = len(first.group(1))
    region_start = first.start(1)
    # The list ends at the first line that is not blank, not a comment, not indented deeper
    # than the items and not an item itself. One pass finds the items and that line.
    starts = [region_start]
    terminator: int | None = None
    for found in _items_then_end(indent).finditer(text, region_start):
        if found.group(1) is None:
            terminator = found.start()
            break
        starts.append(found.start() + 1)
    region_end = terminator + 1 if terminator is not None else len(text)
    if terminator is not None and (
            key is None or text[region_end : region_end + 1] in (" ", "\t", "|", ">", "-")):
        # An indented line that is neither a case nor a root key, anything after a document
        # that is a list, or a block scalar's header or a `- ` less indented than the items
        # (with the list's lines taken out either would read as the key's value, where after
        # the list it is a syntax error): parse it whole.
        return None
    line = text.count("\n", 0, region_start)
    segments: list[Segment] = []
    count = text.count
    for start, end in zip(starts, [*starts[1:], region_end], strict=True):
        segments.append(_new(Segment, (start, end, line)))
        line += count("\n", start, end)
    region_lines = text.count("\n", region_start, region_end)
    skeleton = text[:region_start] + "\n" * region_lines + text[region_end:]
    return DatasetSplit(tuple(segments), skeleton, indent, region_start, region_lines)


def _item(indent: int) -> str:
    """After a line break: a line that starts an item of a list indented `indent`."""
    return rf" {{{indent}}}-(?=[ \t\r\n]|$)"


def _inside(indent: int) -> str:
    """After a line break: a line that stays inside such a list without starting an item
    (indented deeper, blank, or a comment)."""
    return rf" {{{indent + 1}}}|[ \t]*(?:#|\r|\n|$)"


@cache
def _items_then_end(indent: int) -> re.Pattern[str]:
    """A line that starts an item (group 1), or else one that ends the list: `_item_patterns`
    in one pattern, so the 6 MB of a 10,000-case file are scanned once, not twice."""
    return re.compile(rf"\n(?:({_item(indent)})|(?!{_inside(indent)}))")


def _item_patterns(indent: int) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The line that starts an item, and a line that ends the list (see `split_dataset`)."""
    item = _item(indent)
    return re.compile(rf"\n{item}"), re.compile(rf"\n(?!{_inside(indent)}|{item})")


_CHUNK = 1 << 16


def changed_region(old: str, new: str) -> tuple[int, int, int]:
    """(start, old end, new end): `new` is `old` with old[start:old end] replaced by
    new[start:new end]. Compared in chunks, at memory speed: about 3 ms for 6 MB."""
    limit = min(len(old), len(new))
    start = _agreeing(lambda low, high: old[low:high] == new[low:high], limit)
    # The common suffix may not overlap the common prefix.
    tail = _agreeing(lambda low, high: old[len(old) - high : len(old) - low] ==
                     new[len(new) - high : len(new) - low], limit - start)
    return start, len(old) - tail, len(new) - tail


def _agreeing(same: Callable[[int, int], bool], limit: int) -> int:
    """The largest n <= limit with `same(0, n)`, where `same(low, high)` compares one stretch
    of the two texts: chunk by chunk, then by halves inside the chunk that differs."""
    done = 0
    while done < limit:
        step = min(_CHUNK, limit - done)
        if not same(done, done + step):
            low, high = done, done + step  # the first difference lies in [low, high)
            while high - low > 1:
                middle = (low + high) // 2
                if same(low, middle):
                    low = middle
                else:
                    high = middle
            return low
        done += step
    return limit


def split_after_edit(old: str, split: DatasetSplit, new: str) -> tuple[DatasetSplit, int] | None:
    """The split of `new` made from `split` (that of `old`) when the two texts differ inside
    one case, and that case's new text is still exactly one case. Returns the split and the
    index of the edited case; None when the caller must split `new` from scratch.

    This is what makes a keystroke in a 10,000-case file cost what the case costs: every other
    case keeps its span (moved when the edit added or removed characters or lines), and only
    the edited case's text is examined.
    """
    items = split.items
    if not items or old is new:
        return None
    start, old_end, new_end = changed_region(old, new)
    index = bisect_right(items, start, key=lambda item: item.start) - 1
    if index < 0:
        return None
    segment = items[index]
    # Strictly inside: the item's first character and its last (a line break, or the end of
    # the list) are unchanged, so its neighbours cannot have moved into or out of it.
    if not segment.start < start or not old_end < segment.end:
        return None
    delta = new_end - old_end
    piece = new[segment.start : segment.end + delta]
    item_start, end_of_list = _item_patterns(split.indent)
    if not piece.startswith(" " * split.indent + "-") or \
            piece[split.indent + 1 : split.indent + 2] not in ("", " ", "\t", "\r", "\n"):
        return None
    if "\r" in piece or "\ufeff" in piece or may_have_anchors(piece) or \
            item_start.search(piece) or end_of_list.search(piece):
        return None
    line_delta = new.count("\n", start, new_end) - old.count("\n", start, old_end)
    edited = Segment(segment.start, segment.end + delta, segment.line)
    after = items[index + 1 :]
    if delta or line_delta:  # every case below moves: tuples built at C speed
        after = tuple([_new(Segment, (start + delta, end + delta, line + line_delta))
                       for start, end, line in after])
    skeleton = split.skeleton
    if line_delta:
        rest = split.region_start + split.region_lines
        skeleton = skeleton[: split.region_start] + "\n" * (split.region_lines + line_delta) + \
            skeleton[rest:]
    return DatasetSplit((*items[:index], edited, *after), skeleton, split.indent,
                        split.region_start, split.region_lines + line_delta), index
