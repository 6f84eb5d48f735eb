"""Where a cursor is in JSON text that is being typed: the path to it, and whether a key or a
value is being written there, read by a tolerant scan (no parse, so half-typed text works).

YAML's cursor (`context.py`) reads indentation; JSON's structure is its brackets, so this scans
the JSON value that holds the cursor from its start: the whole document for `.json`, the
cursor's line for `.jsonl` (each line is a value of its own). The scan keeps a stack of open
objects and arrays with, for each, the key being written and what is expected next (a key, a
colon, a value, a comma). Strings are skipped with their escapes, so brackets inside strings
never count. Nothing here knows a format: completion and hover (`json_features.py`) ask the
kind's JSON Schema what belongs at the path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from evalyaml.ide.context import ITEM, PathPart

MAX_SCAN = 4_000_000  # a cursor past this many characters of one JSON value gets no context


class Slot(Enum):
    KEY = "key"  # a member name is being written (or may start here)
    VALUE = "value"  # a value is being written (or may start here)


@dataclass(slots=True)
class _Frame:
    is_object: bool
    key: str | None = None  # the member whose value is being written (objects)
    expect: str = "key"  # objects: key, colon, value, comma; arrays: value, comma
    keys: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class JsonCursor:
    """The cursor's place: `path` to the object or array holding it, the `slot` being written
    there, the member `key` whose value is written (VALUE in an object), the token under the
    cursor as offsets of the scanned text (`start`, `end`: a string with its quotes, a bare
    word, or an empty range between tokens), the keys its object already has."""

    path: tuple[PathPart, ...]
    slot: Slot
    key: str | None
    start: int
    end: int
    quoted: bool
    present: frozenset[str]
    colon_follows: bool  # a `:` already follows the key being written

    @property
    def value_path(self) -> tuple[PathPart, ...]:
        """The path of the value being written."""
        if self.key is not None:
            return (*self.path, self.key)
        return (*self.path, ITEM)


def _path(stack: list[_Frame]) -> tuple[PathPart, ...]:
    out: list[PathPart] = []
    for parent in stack[:-1]:
        out.append(parent.key if parent.is_object and parent.key is not None else ITEM)
    return tuple(out)


def _string_end(text: str, start: int) -> int | None:
    """The offset after the closing quote of the string opened at `start`; None when it does
    not close on its line."""
    index = start + 1
    length = len(text)
    while index < length:
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == '"':
            return index + 1
        if char in "\r\n":
            return None
        index += 1
    return None


def _word_end(text: str, start: int) -> int:
    index = start
    while index < len(text) and text[index] not in ' \t\r\n,:[]{}"':
        index += 1
    return index


def cursor_at(text: str, offset: int) -> JsonCursor | None:
    """The cursor at `offset` of `text`, the whole JSON value that holds it."""
    if offset > len(text) or offset > MAX_SCAN:
        return None
    stack: list[_Frame] = []
    index = 0
    while index < offset:
        char = text[index]
        if char in " \t\r\n\ufeff":
            index += 1
            continue
        top = stack[-1] if stack else None
        if char == '"':
            end = _string_end(text, index)
            if end is None or end > offset:  # the cursor is inside this string
                close = end if end is not None else _word_end(text, index + 1)
                return _inside(text, stack, index, close, quoted=True)
            if top is not None and top.is_object and top.expect == "key":
                name = text[index + 1:end - 1]
                top.key = name
                top.keys.append(name)
                top.expect = "colon"
            elif top is not None:
                top.expect = "comma"
            index = end
            continue
        if char in "{[":
            if top is not None:
                top.expect = "comma"  # once the container closes
            stack.append(_Frame(is_object=char == "{", expect="key" if char == "{" else "value"))
            index += 1
            continue
        if char in "}]":
            if stack:
                stack.pop()
            index += 1
            continue
        if char == ":":
            if top is not None and top.is_object:
                top.expect = "value"
            index += 1
            continue
        if char == ",":
            if top is not None:
                top.expect = "key" if top.is_object else "value"
                if top.is_object:
                    top.key = None
            index += 1
            continue
        end = _word_end(text, index)  # a number, a literal, or a bare word being typed
        if end >= offset:
            return _inside(text, stack, index, end, quoted=False)
        if top is not None:
            if top.is_object and top.expect == "key":  # an unquoted name: read it as one
                top.key = text[index:end]
                top.expect = "colon"
            else:
                top.expect = "comma"
        index = max(end, index + 1)
    return _inside(text, stack, offset, offset, quoted=False, between=True)


def _colon_follows(text: str, end: int) -> bool:
    rest = text[end:end + 200].lstrip(" \t")
    return rest.startswith(":")


def _inside(text: str, stack: list[_Frame], start: int, end: int, *, quoted: bool,
            between: bool = False) -> JsonCursor | None:
    """The slot of a token at [start, end), or (`between`) of the empty place between tokens,
    where a name already read waits for its colon: no key is being written there."""
    if not stack:
        return None
    top = stack[-1]
    present = frozenset(top.keys)
    key_states = ("key",) if between else ("key", "colon")
    if top.is_object and top.expect in key_states:
        return JsonCursor(_path(stack), Slot.KEY, None, start, end, quoted, present,
                          _colon_follows(text, end))
    if top.expect == "value":
        return JsonCursor(_path(stack), Slot.VALUE, top.key if top.is_object else None, start,
                          end, quoted, present, False)
    return None
