"""An Apastra JSONL file (a dataset's cases, a run's cases) row by row (`syntax.rowchecks`):
each row's schema check (the costly part: jsonschema per row) and digests come from its own
text, cached by it in the document's cache, so a keystroke in one row of 10,000 re-checks that
row; then duplicate case ids and each case's input keys over every row's facts, as
`rules.check_cases` gives them over the whole file. A row's schema messages name its line
("line 12"): such a result serves that line only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalyaml.core.findings import FindingSink
from evalyaml.core.kinds import FormatKind
from evalyaml.core.model import Definition, FileAnalysis
from evalyaml.formats.apastra import crosscases, rules
from evalyaml.formats.apastra.context import Context, string_at
from evalyaml.formats.apastra.kinds import CASES, DATASET
from evalyaml.formats.apastra.validate import validate
from evalyaml.syntax.jsonl import parse_lone_row
from evalyaml.syntax.lines import LineResult
from evalyaml.syntax.rowchecks import RowState, analyze_rows
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Mapping, Scalar

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache

STATE = "apastra-rows"

# A case's id and its span, its `inputs` keys (None: no `inputs` mapping); None: no case_id.
RowFacts = tuple[str, Span, list[str] | None] | None


class Rows:
    def __init__(self, kind: FormatKind, strict: bool) -> None:
        self.kind = kind
        self.strict = strict
        self.context = ("apastra-row", kind.value, strict)

    def check(self, text: str, *, first: bool, index: int, line: int) -> LineResult[RowFacts]:
        sink = FindingSink(strict=self.strict)
        root = parse_lone_row(text, sink, first=first).root
        facts: RowFacts = None
        if root is not None:
            ctx = Context(text, LineIndex(text), sink)
            flagged = validate(ctx, root, self.kind, root_name=f"line {line + 1}")
            if flagged is not None:
                rules.check_digests(ctx, root, self.kind, flagged, None)
            found = string_at(root, "case_id")
            if found is not None:
                inputs = root.get("inputs") if isinstance(root, Mapping) else None
                facts = (found[0], ctx.span(found[1]),
                         [k.text for k, _ in inputs.pairs if isinstance(k, Scalar)]
                         if isinstance(inputs, Mapping) else None)
        return LineResult(tuple(sink.findings), facts)

    def quotes_place(self, result: LineResult[RowFacts]) -> bool:
        return bool(result.findings)

    def shift(self, facts: RowFacts, lines: int) -> RowFacts:
        return None if facts is None else (facts[0], facts[1].shifted(lines), facts[2])


def analyze_rows_of(text: str, path: str | None, kind: FormatKind, sink: FindingSink, *,
                    result: FileAnalysis, cache: CaseCache | None) -> None:
    state: RowState[RowFacts] | None = \
        cache.format_state(STATE, RowState) if cache is not None else None
    rows = analyze_rows(text, Rows(kind, sink.strict), state)
    for row in rows:
        sink.findings.extend(row.findings)
    if kind is CASES:
        _cross_cases(rows, result, path, sink)


def _cross_cases(rows: list[LineResult[RowFacts]], result: FileAnalysis, path: str | None,
                 sink: FindingSink) -> None:
    """`rules.check_cases` over the rows' facts."""
    inputs: dict[str, list[str]] = {}
    for row in rows:
        if row.facts is not None and row.facts[2] is not None:
            inputs[row.facts[0]] = row.facts[2]
    crosscases.duplicate_ids((None if row.facts is None else row.facts[:2] for row in rows),
                             sink, "dataset")
    result.facts["inputs"] = inputs
    alias = rules.file_name(path or "", DATASET)
    if alias:
        result.definitions.append(Definition(DATASET, alias, None, Span.point(0, 0), None,
                                             alias=True))
