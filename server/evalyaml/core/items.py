"""Per-item incremental analysis for a file that is a root mapping with one block list of items
(a Padosoft dataset's `samples`, an AgentV suite's `tests`): the contract dataset's scheme
(`dataset.analyze_dataset`) offered to every format.

The file is split by lines (`segments.split_dataset`) into its items and the rest. The rest is
analysed with the items' lines taken out (the compact skeleton) and cached by that text, so its
positions do not depend on how many lines the items take; each item is analysed from its own
text and cached by it. After an edit inside one item only that item is analysed again; the
others keep their results, moved when lines were added or removed (`segments.split_after_edit`).
The format then runs its cross-item rules (duplicate ids, references between items) over the
placed results: they are cheap, and they are what one item's edit may change elsewhere.

A fresh analysis runs the same code on the same texts with an empty state, which is why the two
agree (`tests/hostile/test_incremental_core.py`). How a text is cut into items is a `Splitter`:
block YAML by lines (`segments`) unless the format gives another (a JSON object's array,
`syntax/jsonsplit.py`), so one scheme serves both syntaxes. Where an item or the skeleton does
not parse as written, `analyze_items` returns None and the format analyses the whole file: a
syntax error is recovered over the whole text, as before.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, Protocol, TypeVar

from evalyaml.core.findings import Finding
from evalyaml.core.options import Options
from evalyaml.syntax.record import mutable_record, record
from evalyaml.syntax.text import Span
from evalyaml.syntax.yaml.segments import DatasetSplit, split_after_edit, split_dataset

P = TypeVar("P")  # what the format keeps about one item (lines relative to the item)
R = TypeVar("R")  # what the format keeps about the skeleton
P_co = TypeVar("P_co", covariant=True)


@record
class Item(Generic[P]):
    """One item's findings and facts: relative to the item's first line, or placed in the file.
    `by_index`: the facts quote the item's index (promptfoo's "test 3" for a test with no
    description), so the result serves only that index, findings or not."""

    findings: tuple[Finding, ...]
    facts: P
    by_index: bool = False


@record
class Analysed(Generic[R, P]):
    """The placed results of one text: the skeleton's, then each item's in file order."""

    root_findings: tuple[Finding, ...]
    root: R
    items: list[Item[P]]


class ItemRules(Protocol[R, P]):
    """What a format gives `analyze_items`. Every method sees one text and nothing else."""

    @property
    def key(self) -> str | None:
        """The root key holding the items; None when the document is the list."""
    uses_index: bool  # an item's findings (or, with `Item.by_index`, facts) quote its index

    def root(self, text: str, options: Options) -> tuple[tuple[Finding, ...], R] | None:
        """The compact skeleton's findings and facts; None when it must be parsed whole."""

    def fingerprint(self, root: R) -> str:
        """What an item's analysis reads from the skeleton (empty when nothing)."""

    def item(self, text: str, index: int, root: R, options: Options) -> Item[P] | None:
        """One item's text, starting at its line; None when it does not parse as written."""

    def shift(self, facts: P, lines: int) -> P:
        """An item's facts `lines` further down."""

    def shift_root(self, root: R, first_line: int, lines: int) -> R:
        """The skeleton's facts with every position on or after `first_line` moved."""


class Splitter(Protocol):
    """How a text is cut into its items and the rest (`DatasetSplit`), and how the last cut is
    moved after an edit inside one item (its index), or outside every item (-1, when the
    splitter can tell the items are as they were); None: cut again."""

    name: str

    def split(self, text: str, key: str | None) -> DatasetSplit | None: ...

    def after_edit(self, old: str, split: DatasetSplit, new: str
                   ) -> tuple[DatasetSplit, int] | None: ...


class _BlockLines:
    """Block YAML, by lines (`segments.split_dataset`)."""

    name = "yaml"

    def split(self, text: str, key: str | None) -> DatasetSplit | None:
        return split_dataset(text, key)

    def after_edit(self, old: str, split: DatasetSplit, new: str
                   ) -> tuple[DatasetSplit, int] | None:
        return split_after_edit(old, split, new)


BLOCK_LINES: Splitter = _BlockLines()


def options_key(options: Options) -> str:
    return f"{options.strict}"


class ItemState:
    """One open document's state for one format (`CaseCache.format_state`): the last text and its
    split, each item's result by text, and the skeleton's."""

    def __init__(self, capacity: int = 50_000) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[tuple[str, str, int], Item[object]] = OrderedDict()
        self._placed: dict[int, tuple[Item[object], int, Item[object]]] = {}
        self._root: tuple[str, str, tuple[tuple[Finding, ...], object] | None] | None = None
        self._placed_root: tuple[int, int, tuple[tuple[Finding, ...], object]] | None = None
        self._last: _Last | None = None
        self.incremental = 0  # analyses that analysed only the edited item
        self.extra: dict[str, object] = {}  # the format's own sums over the placed items

    def forget(self) -> None:
        self._last = None

    def get(self, key: tuple[str, str, int]) -> Item[object] | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: tuple[str, str, int], result: Item[object]) -> None:
        self._entries[key] = result
        if len(self._entries) > self.capacity:
            _, dropped = self._entries.popitem(last=False)
            self._placed.pop(id(dropped), None)

    def trim(self, keep: int) -> None:
        while len(self._entries) > max(keep, 0):
            _, dropped = self._entries.popitem(last=False)
            self._placed.pop(id(dropped), None)
        if len(self._placed) > len(self._entries):
            live = {id(result) for result in self._entries.values()}
            self._placed = {k: v for k, v in self._placed.items() if k in live}


@record
class _Last:
    text: str
    split: DatasetSplit
    fingerprint: str
    items: list[tuple[Item[object], Item[object]]]  # (relative, placed) per item of `split`


def analyze_items(text: str, rules: ItemRules[R, P], options: Options,
                  state: ItemState | None, splitter: Splitter = BLOCK_LINES
                  ) -> Analysed[R, P] | None:
    """The placed results of `text`'s skeleton and items; None when the file is not laid out
    as one list of items that each parse as written (the caller parses it whole)."""
    state = state if state is not None else ItemState()
    okey = f"{options_key(options)}:{splitter.name}"
    split, edited = _split(text, rules.key, okey, state, splitter)
    if split is None:
        state.forget()
        return None
    root = _root(split, text.count("\n", 0, split.region_start), _Run(rules, options, state, okey))
    if root is None:
        state.forget()
        return None
    root_findings, root_facts = root
    run = _Run(rules, options, state, okey + "\0" + rules.fingerprint(root_facts), root_facts)
    items = None
    last = state._last
    if edited is not None and last is not None and last.fingerprint == run.fingerprint:
        items = run.after_edit(text, split, edited, last)
    if items is None:
        items = run.all_items(text, split)
    if items is None:
        state.forget()
        return None
    state._last = _Last(text, split, run.fingerprint, items)
    state.trim(2 * len(split.items) + 512)
    return Analysed(root_findings, root_facts, [placed for _, placed in items])  # type: ignore[misc]


def _split(text: str, key: str | None, okey: str, state: ItemState, splitter: Splitter
           ) -> tuple[DatasetSplit | None, tuple[int, int] | None]:
    """The split of `text`, and (edited item, lines added) when it differs from the last text
    inside one item only."""
    last = state._last
    if last is not None and last.fingerprint.startswith(okey + "\0"):
        after = splitter.after_edit(last.text, last.split, text)
        if after is not None:
            split, index = after
            return split, (index, split.region_lines - last.split.region_lines)
    return splitter.split(text, key), None


@mutable_record
class _Run(Generic[R, P]):
    """One analysis: the format's rules, the options and what the items' results are keyed by."""

    rules: ItemRules[R, P]
    options: Options
    state: ItemState
    fingerprint: str
    root: R | None = None

    def after_edit(self, text: str, split: DatasetSplit, edited: tuple[int, int], last: _Last
                   ) -> list[tuple[Item[object], Item[object]]] | None:
        index, line_delta = edited
        if index < 0:  # outside every item: each as it was, placed where it now is
            if len(split.items) != len(last.items):
                return None
            return [(r, self.placed(r, segment.line))
                    for (r, _), segment in zip(last.items, split.items, strict=True)]
        segment = split.items[index]
        result = self.item(text[segment.start : segment.end], index)
        if result is None:
            return None
        after = last.items[index + 1 :]
        if line_delta:  # every item below moves (the Enter key): the cheapest loop there is
            placed = self.placed
            after = [(r, placed(r, below.line))
                     for (r, _), below in zip(after, split.items[index + 1 :], strict=True)]
        self.state.incremental += 1
        return [*last.items[:index], (result, self.placed(result, segment.line)), *after]

    def all_items(self, text: str, split: DatasetSplit
                  ) -> list[tuple[Item[object], Item[object]]] | None:
        out: list[tuple[Item[object], Item[object]]] = []
        for index, segment in enumerate(split.items):
            result = self.item(text[segment.start : segment.end], index)
            if result is None:
                return None
            out.append((result, self.placed(result, segment.line)))
        return out

    def item(self, item_text: str, index: int) -> Item[object] | None:
        """From the cache by text. A result without findings (nor `by_index`) says nothing of its
        index, so it serves the same text at any index (an item inserted above moves every index
        below)."""
        state, rules = self.state, self.rules
        anywhere = (item_text, self.fingerprint, -1)
        found = state.get(anywhere)
        if found is None and rules.uses_index:
            found = state.get((item_text, self.fingerprint, index))
        if found is not None:
            return found
        result: Item[object] | None = rules.item(  # type: ignore[assignment]
            item_text, index, self.root, self.options)  # type: ignore[arg-type]
        if result is None:
            return None
        indexed = rules.uses_index and (result.findings or result.by_index)
        state.put((item_text, self.fingerprint, index) if indexed else anywhere, result)
        return result

    def placed(self, result: Item[object], line: int) -> Item[object]:
        known = self.state._placed.get(id(result))
        if known is not None and known[0] is result and known[1] == line:
            return known[2]
        findings = result.findings  # most items have none: no generator, no tuple
        if findings:
            findings = tuple([f.shifted(line) for f in findings])
        placed: Item[object] = Item(findings,
                                    self.rules.shift(result.facts, line),  # type: ignore[arg-type]
                                    result.by_index)
        self.state._placed[id(result)] = (result, line, placed)
        return placed


def _root(split: DatasetSplit, first_line: int, run: _Run[R, P]
          ) -> tuple[tuple[Finding, ...], R] | None:
    """The skeleton's results, placed: analysed with no line for the items, then what lies
    below them moved down by the lines they take."""
    state, rules = run.state, run.rules
    skeleton = split.skeleton
    compact = skeleton[: split.region_start] + \
        skeleton[split.region_start + split.region_lines :]
    known = state._root
    if known is None or known[0] != compact or known[1] != run.fingerprint:
        state._root = known = (compact, run.fingerprint, rules.root(compact, run.options))
        state._placed_root = None
    found = known[2]
    if found is None:
        return None
    placed = state._placed_root
    if placed is not None and placed[0] == first_line and placed[1] == split.region_lines:
        return placed[2]  # type: ignore[return-value]
    findings = moved_below(found[0], first_line, split.region_lines)
    if findings is None:
        return None
    moved = (findings, rules.shift_root(found[1], first_line,  # type: ignore[arg-type]
                                        split.region_lines))
    state._placed_root = (first_line, split.region_lines, moved)
    return moved


def moved_below(findings: tuple[Finding, ...], first_line: int, lines: int
                ) -> tuple[Finding, ...] | None:
    """`findings` with those on or after `first_line` moved `lines` down (a compact
    skeleton's findings, placed in the text with its items); None when one reaches across that
    line (its parts would move apart)."""
    if not lines:
        return findings
    out: list[Finding] = []
    for finding in findings:
        spans = [finding.span, *(r.span for r in finding.related if r.path is None),
                 *(e.span for fix in finding.fixes for e in fix.edits)]
        below = [_starts_below(span, first_line) for span in spans]
        if all(below):
            out.append(finding.shifted(lines))
        elif any(below) or any(span.end.line >= first_line for span in spans):
            return None
        else:
            out.append(finding)
    return tuple(out)


def _starts_below(span: Span, first_line: int) -> bool:
    return span.start.line >= first_line


def shift_span(span: Span, first_line: int, lines: int) -> Span:
    """A skeleton position moved (see `ItemRules.shift_root`)."""
    return span.shifted(lines) if span.start.line >= first_line else span
