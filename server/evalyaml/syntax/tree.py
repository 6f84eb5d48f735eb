"""A small YAML tree with exact code-point spans, independent of any parser's node classes.

Owning the tree keeps memory low (a node is a few slots and two integers, not a ruamel node with
two mark objects) and keeps parser classes out of every other module. Offsets are relative to the
text that was parsed, which for a dataset is one case: a cached case can move inside its file
without touching its tree.
Aliases are shared nodes (a DAG); expanding them is `to_python`'s job, and it is bounded.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Union

# JSON-compatible Python value produced from a node.
# A recursive alias needs the string form; `X | Y` cannot take forward references at runtime.
PyValue = Union[None, bool, int, float, str, list["PyValue"], dict[str, "PyValue"]]  # noqa: UP007

MERGE_TAG = "tag:yaml.org,2002:merge"
_STR, _INT, _FLOAT, _BOOL, _NULL = (
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
)


class Node:
    __slots__ = ("end", "start", "tag")

    def __init__(self, tag: str, start: int, end: int) -> None:
        self.tag = tag
        self.start = start  # code-point offset in the text that was parsed
        self.end = end

    def walk(self) -> Iterator[Node]:
        yield self


class Scalar(Node):
    __slots__ = ("style", "text")

    def __init__(self, tag: str, start: int, end: int, text: str, style: str) -> None:
        # Assigned here rather than through super().__init__: a dataset builds ~25 per case.
        self.tag = tag
        self.start = start
        self.end = end
        self.text = text
        self.style = style  # '' for plain, '"', "'", '|', '>'

    @property
    def is_plain(self) -> bool:
        return not self.style

    @property
    def value(self) -> PyValue:
        """The scalar under the YAML 1.2 core schema; never constructs anything else."""
        tag = self.tag
        if tag == _STR or (not self.is_plain and tag not in (_INT, _FLOAT, _BOOL, _NULL)):
            return self.text
        text = self.text
        try:
            if tag == _INT:
                cleaned = text.replace("_", "")
                if cleaned[:2].lower() in ("0x", "0o", "0b") or cleaned[1:3].lower() in (
                    "0x",
                    "0o",
                    "0b",
                ):
                    number = int(cleaned, 0)
                    # Hex, octal and binary have no digit limit; a number that decimal could
                    # not print (4,300 digits) would make every message about it raise.
                    return number if number.bit_length() <= 14_000 else text
                return int(cleaned, 10)
            if tag == _FLOAT:
                lowered = text.lower().replace("_", "")
                if lowered.endswith((".inf", "inf")):
                    return -math.inf if lowered.startswith("-") else math.inf
                if lowered.endswith("nan"):
                    return math.nan
                return float(lowered)
        except ValueError:  # over-long integers and YAML 1.1 oddities stay text
            return text
        if tag == _BOOL:
            return text.lower() in ("true", "yes", "on", "y")
        if tag == _NULL:
            return None
        return text


class Mapping(Node):
    __slots__ = ("pairs",)

    def __init__(self, tag: str, start: int, end: int) -> None:
        super().__init__(tag, start, end)
        self.pairs: list[tuple[Node, Node]] = []

    def get(self, key: str) -> Node | None:
        pair = self.pair(key)
        return pair[1] if pair else None

    def pair(self, key: str) -> tuple[Node, Node] | None:
        """The first pair with this key, looking through merge keys the way YAML does."""
        for k, v in self.pairs:
            if isinstance(k, Scalar) and k.text == key and k.tag != MERGE_TAG:
                return k, v
        for merged in self.merged():
            found = merged.pair(key)
            if found:
                return found
        return None

    def merged(self) -> list[Mapping]:
        out: list[Mapping] = []
        for k, v in self.pairs:
            if isinstance(k, Scalar) and k.tag == MERGE_TAG:
                if isinstance(v, Mapping):
                    out.append(v)
                elif isinstance(v, Sequence):
                    out.extend(item for item in v.items if isinstance(item, Mapping))
        return out

    def key_nodes(self) -> list[Scalar]:
        return [k for k, _ in self.pairs if isinstance(k, Scalar) and k.tag != MERGE_TAG]

    def walk(self) -> Iterator[Node]:
        yield self
        for k, v in self.pairs:
            yield from k.walk()
            yield from v.walk()


class Sequence(Node):
    __slots__ = ("flow", "items")

    def __init__(self, tag: str, start: int, end: int, flow: bool) -> None:
        super().__init__(tag, start, end)
        self.items: list[Node] = []
        self.flow = flow

    def walk(self) -> Iterator[Node]:
        yield self
        for item in self.items:
            yield from item.walk()


class ExpansionLimit(Exception):
    """Raised by `to_python` when aliases expand past the budget (an alias bomb)."""

    def __init__(self, node: Node) -> None:
        super().__init__("alias expansion limit")
        self.node = node


class Budget:
    """How many nodes `to_python` may still produce; shared across one document."""

    __slots__ = ("remaining",)

    def __init__(self, remaining: int) -> None:
        self.remaining = remaining


def to_python(node: Node, budget: Budget) -> PyValue:
    """Plain JSON-like data for the validator, with merge keys applied and aliases expanded.

    Keys that are not strings are turned into their text: JSON Schema only knows string keys.
    Each produced node costs one unit of `budget`, so an alias bomb stops early.
    """
    budget.remaining -= 1
    if budget.remaining < 0:
        raise ExpansionLimit(node)
    if isinstance(node, Scalar):
        return node.value
    if isinstance(node, Sequence):
        return [to_python(item, budget) for item in node.items]
    assert isinstance(node, Mapping)
    out: dict[str, PyValue] = {}
    for merged in node.merged():
        merged_value = to_python(merged, budget)
        if isinstance(merged_value, dict):
            for mk, mv in merged_value.items():
                out.setdefault(mk, mv)
    explicit: dict[str, PyValue] = {}
    for k, v in node.pairs:
        if isinstance(k, Scalar) and k.tag == MERGE_TAG:
            continue
        key = k.text if isinstance(k, Scalar) else _flow_key_text(k)
        if key not in explicit:  # the first of duplicate keys wins; EY102 reports the rest
            explicit[key] = to_python(v, budget)
    out.update(explicit)
    return out


def _flow_key_text(node: Node) -> str:
    return f"<{type(node).__name__.lower()} key>"
