"""Per-document incremental state for files whose items are analysed one by one.

A large file (a dataset of 10,000 cases) is split into items (`syntax.yaml.segments`), and each
item's result is cached by its text: after an edit only the touched item is analysed again, and
the cached results of the others are moved to their new lines. `CaseCache` is the one cache per
open document every front end keeps (the language server per buffer, the workspace per
`set_text`); it also holds other formats' own per-document state (`format_state`: a JSONL
file's `syntax.lines.LineCache`). The rules that run on each item are the format's
(`formats/contract/dataset.py` for the contract's datasets); a `CaseMapper` runs them over many
items, spread over processes by the CLI (`evalyaml.parallel`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar, cast

from evalyaml.core.findings import Finding, Fix, Related, TextEdit
from evalyaml.core.model import CaseSummary, Reference
from evalyaml.core.options import Options
from evalyaml.syntax.record import record
from evalyaml.syntax.text import LineIndex, Position, Span
from evalyaml.syntax.yaml.segments import DatasetSplit, split_after_edit, split_dataset

T = TypeVar("T")


@record
class CaseResult:
    """One case's analysis. Its lines count from line `line` of the file: 0 as the case's own
    text is read, the case's line in the file when a mapper placed it there on its way
    (`CaseMapper`), so that placing it costs nothing."""

    findings: tuple[Finding, ...]
    summary: CaseSummary
    reference: Reference | None
    id_text: str | None
    id_span: Span | None
    line: int = 0

    def __reduce__(self) -> tuple[type[CaseResult], tuple[object, ...]]:
        # The CLI's workers send thousands back (see `text.Position.__reduce__`).
        return CaseResult, (self.findings, self.summary, self.reference, self.id_text,
                            self.id_span, self.line)

    def at(self, line: int) -> CaseResult:
        """The same result with its lines counted from `line`."""
        delta = line - self.line
        if not delta:
            return self
        return CaseResult(tuple(f.shifted(delta) for f in self.findings),
                          self.summary.shifted(delta),
                          self.reference.shifted(delta) if self.reference else None,
                          self.id_text,
                          self.id_span.shifted(delta) if self.id_span else None, line)


PlacedCase = CaseResult
"""A case's result on its line in the file (`line`): what a dataset's analysis reads."""


def place(result: CaseResult, line: int) -> PlacedCase:
    """`result` on `line`: the result itself when its mapper placed it there (nothing is built
    for the 10,000 cases of a document opened: they cost 30-40 ms after the last share)."""
    return result.at(line)


class CaseCache:
    """Case text -> result, least recently used dropped first. One per open document.

    It also remembers where each case was last placed, so a keystroke that moves no case (most
    of them) rebuilds no spans at all.
    """

    def __init__(self, capacity: int = 50_000) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[tuple[str, str], CaseResult] = OrderedDict()
        # id(result) -> (result, its last placement). The result is kept and compared by
        # identity: an id alone may be reused by a new result once the old one is freed (a
        # case that was never cached), which would hand it the old case's findings.
        self._placed: dict[int, tuple[CaseResult, PlacedCase]] = {}
        self._root: _Root | None = None
        self._last: _LastAnalysis | None = None
        self.hits = 0
        self.misses = 0
        self.incremental = 0  # analyses that re-split and re-placed only the edited case
        self._format_state: dict[str, object] = {}

    @property
    def used(self) -> bool:
        """Whether any analysis has gone through this cache yet."""
        return self._last is not None or self._root is not None or bool(self._entries) or \
            bool(self._format_state)

    def format_state(self, key: str, factory: Callable[[], T]) -> T:
        """Per-document state of another format's own incremental analysis (a JSONL file's
        `syntax.lines.LineCache`), kept here so every front end's one cache per document serves
        every format. `key` names the state; `factory` makes it the first time."""
        state = self._format_state.get(key)
        if state is None:
            state = self._format_state[key] = factory()
        return cast(T, state)

    def split(self, text: str, fingerprint: str) -> tuple[DatasetSplit | None, Edit | None]:
        """The cases of `text`; from the last analysis's split when only one case changed."""
        last = self._last
        if last is not None and last.fingerprint == fingerprint:
            after = split_after_edit(last.text, last.split, text)
            if after is not None:
                split, index = after
                return split, Edit(last, index, split.region_lines - last.split.region_lines)
        return split_dataset(text), None

    def remember(self, text: str, split: DatasetSplit, fingerprint: str,
                 cases: list[tuple[CaseResult, PlacedCase]] | None) -> None:
        """`cases`: one per item of `split`, or None when some items were joined (see
        `analyze_dataset`): then the next edit splits from scratch."""
        self._last = _LastAnalysis(text, split, fingerprint, cases) if cases is not None \
            else None

    def root_findings(self, split: DatasetSplit, options: Options) -> tuple[Finding, ...] | None:
        """The findings around the cases, from the last analysis when its skeleton is the same,
        or the same but for the number of lines the cases take (a line inserted or removed in a
        case): then the findings below the cases move by as many lines, with no parse."""
        root = self._root
        if root is None or root.strict != options.strict:
            return None
        if root.skeleton == split.skeleton:
            return root.findings
        delta = split.region_lines - root.region_lines
        start = root.region_start
        if not delta or split.region_start != start or \
                root.skeleton[start + root.region_lines:] != \
                split.skeleton[start + split.region_lines:] or \
                root.skeleton[:start] != split.skeleton[:start]:
            return None
        first_line = LineIndex(root.skeleton[:start]).line_count - 1
        moved = _move_below(root.findings, first_line, root.region_lines, delta)
        if moved is not None:
            self.remember_root(split, options, moved)
        return moved

    def remember_root(self, split: DatasetSplit, options: Options,
                      findings: tuple[Finding, ...]) -> None:
        self._root = _Root(split.skeleton, options.strict, split.region_start,
                           split.region_lines, findings)

    def placed(self, result: CaseResult, line: int) -> PlacedCase:
        if result.line == line:
            return result
        known = self._placed.get(id(result))
        if known is not None and known[0] is result and known[1].line == line:
            return known[1]
        placement = place(result, line)
        self._placed[id(result)] = (result, placement)
        return placement

    def get(self, key: tuple[str, str]) -> CaseResult | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
            self.hits += 1
        else:
            self.misses += 1
        return found

    def put(self, key: tuple[str, str], result: CaseResult) -> None:
        self._entries[key] = result
        self._drop_over_capacity()

    def put_all(self, keys: list[tuple[str, str]], results: list[CaseResult | None]) -> None:
        """`put` each result (None: not one), in one update at C speed: a document's 10,000
        cases are cached after its last share, where nothing else runs."""
        self._entries.update((key, result) for key, result in zip(keys, results, strict=True)
                             if result is not None)
        self._drop_over_capacity()

    def _drop_over_capacity(self) -> None:
        while len(self._entries) > self.capacity:
            _, dropped = self._entries.popitem(last=False)
            self._placed.pop(id(dropped), None)

    def trim(self, keep: int) -> None:
        """Keep only the `keep` most recently used cases. Every keystroke in a case adds an
        entry for its new text; without this, a long editing session grows the cache (about
        4 KB an edit) until `capacity`, hundreds of megabytes later."""
        while len(self._entries) > max(keep, 0):
            _, dropped = self._entries.popitem(last=False)
            self._placed.pop(id(dropped), None)
        if len(self._placed) > len(self._entries):  # placements of results no longer cached
            live = {id(result) for result in self._entries.values()}
            self._placed = {k: v for k, v in self._placed.items() if k in live}


@record
class _Root:
    """The findings of a dataset's skeleton (everything around its cases) and what they were
    computed for."""

    skeleton: str
    strict: bool
    region_start: int
    region_lines: int
    findings: tuple[Finding, ...]


def _move_below(findings: tuple[Finding, ...], first_line: int, region_lines: int,
                delta: int) -> tuple[Finding, ...] | None:
    """`findings` with every position below the cases' region (lines `first_line` to
    `first_line + region_lines - 1`, blank in the skeleton) moved `delta` lines; None when a
    position lies inside the region, where no finding of the skeleton should be."""
    tail = first_line + region_lines

    def line_of(line: int) -> int | None:
        if line < first_line:
            return line
        return line + delta if line >= tail else None

    def span_of(span: Span) -> Span | None:
        start, end = line_of(span.start.line), line_of(span.end.line)
        if start is None or end is None:
            return None
        if start == span.start.line and end == span.end.line:
            return span
        return Span(Position(start, span.start.character), Position(end, span.end.character))

    out: list[Finding] = []
    for finding in findings:
        if finding.span.start.line >= tail and not finding.related and not finding.fixes:
            out.append(finding.shifted(delta))  # wholly below: its rendering can move too
            continue
        span = span_of(finding.span)
        related = [(r, span_of(r.span) if r.path is None else r.span) for r in finding.related]
        edits = [[(e, span_of(e.span)) for e in fix.edits] for fix in finding.fixes]
        if span is None or any(s is None for _, s in related) or \
                any(s is None for fix in edits for _, s in fix):
            return None
        out.append(Finding(
            finding.code, finding.message, span, finding.severity,
            tuple(Related(r.path, cast(Span, s), r.message) for r, s in related),
            tuple(Fix(fix.title, tuple(TextEdit(cast(Span, s), e.new_text) for e, s in moved),
                      fix.preferred, fix.safety)
                  for fix, moved in zip(finding.fixes, edits, strict=True)),
            finding.data))
    return tuple(out)


@record
class _LastAnalysis:
    text: str
    split: DatasetSplit
    fingerprint: str
    cases: list[tuple[CaseResult, PlacedCase]] | None


@record
class Edit:
    """The new text differs from `last.text` inside case `index` only."""

    last: _LastAnalysis
    index: int
    line_delta: int


CaseMapper = Callable[[list[str], Options, list[int]], list["CaseResult | None"]]
"""Analyses many case texts, given the line of the file each starts on; the CLI passes one that
spreads them over the CPU cores. A mapper may return a result relative to its case's line
(`CaseResult.line`) or to any other, and `place` moves it by the difference: the language
server's worker pool places the worker's results as it receives them, and its own as it makes
them, while the other core still works (`parallel.CasePool.map`), instead of after."""
