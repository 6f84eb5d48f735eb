"""A JSON document's one array of items cut out of it, the JSON twin of `segments.split_dataset`:
the items of a root object's array (a promptfoo config's `tests`) or of the document itself,
each from the start of its first line to the end of its value, and the rest (the skeleton,
with the lines the items take emptied). `core/items.py` then analyses the rest and each item
apart, as it does a YAML block list.

Cutting needs one whole parse, which must read the text as written with no finding; each item
must start on a line of its own and the last one end on a line before the array's `]`, so that
taking the items' lines out leaves an empty array (`"tests": [` then `]`): the skeleton's
analysis then sees what the whole file's sees, less the items. The parse's item trees are kept
(moved to count from their own first line) so that the first analysis does not read each item
again. After an edit that lies inside one item and leaves its text one JSON value (with no
finding: the item's own analysis parses it and gives up otherwise), every other byte reads as
before, so the cut is moved rather than made again. After an edit outside the items (a config's
prompts), the rest is read alone: when it still holds the empty array where the items were,
the cut is moved too and every item kept.
"""

from __future__ import annotations

from bisect import bisect_right

from evalyaml.core.findings import FindingSink
from evalyaml.syntax.json import parse_json, read_json
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence
from evalyaml.syntax.yaml.segments import DatasetSplit, Segment, changed_region


def parsed_clean(text: str, sink: FindingSink) -> ParsedText | None:
    """`text` (a skeleton) read as written with no finding; None: read the file whole, where the
    parser's findings are reported in their place."""
    parsed = parse_json(text, sink)
    return parsed if parsed.ok and not sink.findings and parsed.documents else None


class JsonReading:
    """`BlockYamlReading` for JSON: the skeleton and each item must read with no finding (a
    finding of the parser is the whole file's to report, in its order); each item's tree comes
    from the cut when it can (`JsonItems.lone`)."""

    items: JsonItems

    def parse(self, text: str, sink: FindingSink) -> ParsedText | None:
        return parsed_clean(text, sink)

    def lone(self, text: str, index: int, sink: FindingSink) -> tuple[ParsedText, Node] | None:
        return self.items.lone(text, index, sink)


def rebased(node: Node, offset: int) -> Node:
    """`node` with every offset of its subtree `offset` smaller, in place: a tree read from a
    whole file made the tree of its text from `offset` on (a JSON tree shares no node)."""
    stack = [node]
    while stack:
        current = stack.pop()
        current.start -= offset
        current.end -= offset
        if isinstance(current, Mapping):
            for key, value in current.pairs:
                stack.append(key)
                stack.append(value)
        elif isinstance(current, Sequence):
            stack.extend(current.items)
    return node


def line_ends_agree(text: str) -> bool:
    """No line break that JSON and LSP would count apart: a CR alone ends an LSP line."""
    return text.count("\r") == text.count("\r\n")


class JsonItems:
    """A `core.items.Splitter` for JSON. `trees`: after `split`, each item's tree as read by the
    whole parse, counted from its first line (for the item's first analysis); None after
    `after_edit`. One instance per analysis."""

    name = "json"

    def __init__(self, key: str | None) -> None:
        self.key = key  # the root key holding the array; None: the document is the array
        self.trees: list[Node] | None = None

    def tree(self, index: int, text: str) -> Node | None:
        """Item `index`'s tree from the last cut, when `text` is that item's text."""
        trees = self.trees
        if trees is None or index >= len(trees):
            return None
        found = trees[index]
        return found if found.end == len(text) else None

    def lone(self, text: str, index: int, sink: FindingSink) -> tuple[ParsedText, Node] | None:
        """Item `index`'s text read as written with no finding (None: read the file whole), and
        its tree: the cut's tree when it is that text's."""
        tree = self.tree(index, text)
        if tree is None:
            tree = read_json(text, sink)
            if tree is None or sink.findings:
                return None
        return ParsedText(text, LineIndex(text), [tree], ok=True), tree

    def split(self, text: str, key: str | None) -> DatasetSplit | None:
        self.trees = None
        self.key = key
        if not line_ends_agree(text):
            return None
        sink = FindingSink(strict=False)
        root = read_json(text, sink)
        if root is None or sink.findings:
            return None
        array: Node | None = root
        if key is not None:
            if not isinstance(root, Mapping):
                return None
            found = [v for k, v in root.pairs if isinstance(k, Scalar) and k.text == key]
            array = found[0] if len(found) == 1 else None
        if not isinstance(array, Sequence) or not array.items:
            return None
        lines = LineIndex(text)
        segments: list[Segment] = []
        below = -1  # the last line of the item before
        for item in array.items:
            line = lines.position(item.start).line
            start = lines.line_start(line)
            if line <= below or text[start : item.start].strip(" \t"):
                return None
            segments.append(Segment(start, item.end, line))
            below = lines.position(item.end).line
        last_end = array.items[-1].end
        newline = text.find("\n", last_end)
        if newline == -1 or text[last_end:newline].strip(" \t\r"):
            return None  # `]` (or more) on the last item's line
        region_start, region_end = segments[0].start, newline + 1
        region_lines = text.count("\n", region_start, region_end)
        self.trees = [rebased(item, segment.start)
                      for item, segment in zip(array.items, segments, strict=True)]
        skeleton = text[:region_start] + "\n" * region_lines + text[region_end:]
        return DatasetSplit(tuple(segments), skeleton, 0, region_start, region_lines)

    def after_edit(self, old: str, split: DatasetSplit, new: str
                   ) -> tuple[DatasetSplit, int] | None:
        """The cut of `new` when it differs from `old` inside item `index` only (its first line's
        indentation and the end of its value included), or outside every item (-1)."""
        self.trees = None
        items = split.items
        if old == new or not items:
            return (split, -1) if items else None
        start, old_end, new_end = changed_region(old, new)
        index = bisect_right(items, start, key=lambda item: item.start) - 1
        if index < 0 or old_end > items[index].end:
            return _outside(split, self.key, old, new, (start, old_end, new_end))
        segment = items[index]
        delta = new_end - old_end
        if not line_ends_agree(new[segment.start : segment.end + delta + 1]):
            return None  # a CR alone, or one the edit put before the next line break
        line_delta = new.count("\n", start, new_end) - old.count("\n", start, old_end)
        edited = Segment(segment.start, segment.end + delta, segment.line)
        after = items[index + 1 :]
        if delta or line_delta:
            after = tuple(Segment(s.start + delta, s.end + delta, s.line + line_delta)
                          for s in after)
        skeleton = split.skeleton
        if line_delta:
            rest = split.region_start + split.region_lines
            skeleton = skeleton[: split.region_start] + \
                "\n" * (split.region_lines + line_delta) + skeleton[rest:]
        return DatasetSplit((*items[:index], edited, *after), skeleton, 0, split.region_start,
                            split.region_lines + line_delta), index


def _outside(split: DatasetSplit, key: str | None, old: str, new: str,
             changed: tuple[int, int, int]) -> tuple[DatasetSplit, int] | None:
    """The cut of `new` after an edit before the items' lines or after them, every item's text
    as it was: the rest, read alone, must still hold the array (empty, its `[` before the items'
    place, its `]` after) where the items were, so the whole text reads as before around them."""
    start, old_end, new_end = changed
    region_start, region_lines = split.region_start, split.region_lines
    region_end = len(old) - len(split.skeleton) + region_start + region_lines
    if old_end <= region_start:
        delta = new_end - old_end
        lines = new.count("\n", start, new_end) - old.count("\n", start, old_end)
    elif start >= region_end:
        delta = lines = 0
    else:
        return None
    first = region_start + delta
    if new[first - 1 : first] != "\n":
        return None  # the first item's line joined to the one above
    compact = new[:first] + new[region_end + delta :]
    if not line_ends_agree(compact) or not _holds_empty_array(compact, first, key):
        return None
    items = split.items
    if delta or lines:
        items = tuple(Segment(s.start + delta, s.end + delta, s.line + lines) for s in items)
    skeleton = new[:first] + "\n" * region_lines + new[region_end + delta :]
    return DatasetSplit(items, skeleton, 0, first, region_lines), -1


def _holds_empty_array(compact: str, at: int, key: str | None) -> bool:
    sink = FindingSink(strict=False)
    root = read_json(compact, sink)
    if root is None or sink.findings:
        return False
    array: Node | None = root
    if key is not None:
        found = [v for k, v in root.pairs if isinstance(k, Scalar) and k.text == key] \
            if isinstance(root, Mapping) else []
        array = found[0] if len(found) == 1 else None
    return isinstance(array, Sequence) and not array.items and array.start < at < array.end
