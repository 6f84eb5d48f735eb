"""A JSONL cases file row by row (`syntax.rowchecks`): each row is one test, checked from its
own text and cached by it in the document's cache, so a keystroke in one row of 10,000
re-checks that row. A cases file's rows cross nothing (the suite that names it crosses its
tests), so the placed rows are the file's analysis. `whole` reads the file in one pass, as
before: what row by row must equal (`tests/hostile/test_incremental_core.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalyaml.core.findings import FindingSink
from evalyaml.core.model import CaseSummary, FileAnalysis
from evalyaml.formats.agentv.common import Context
from evalyaml.formats.agentv.suite import SuiteRef, check_test
from evalyaml.formats.agentv.suitefacts import REFS, SuiteFacts
from evalyaml.syntax.jsonl import not_an_object, parse_jsonl, parse_lone_row, require_objects
from evalyaml.syntax.lines import LineResult
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.record import respanned
from evalyaml.syntax.rowchecks import RowState, analyze_rows
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Mapping

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache

STATE = "agentv-cases-rows"
_WHAT = "each line of an AgentV cases file"

RowFacts = tuple[tuple[SuiteRef, ...], tuple[CaseSummary, ...]]


class CaseRows:
    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.context = ("agentv-case", strict)

    def check(self, text: str, *, first: bool, index: int, line: int) -> LineResult[RowFacts]:
        sink = FindingSink(strict=self.strict)
        root = parse_lone_row(text, sink, first=first).root
        facts = SuiteFacts()
        if root is not None:
            parsed = ParsedText(text, LineIndex(text), [root], ok=True)
            if isinstance(root, Mapping):
                check_test(Context(parsed, sink), root, facts)
            else:
                not_an_object(root, parsed.span(root), sink, code="EY200", what=_WHAT)
        return LineResult(tuple(sink.findings), (tuple(facts.refs), tuple(facts.cases)))

    def quotes_place(self, result: LineResult[RowFacts]) -> bool:
        return False

    def shift(self, facts: RowFacts, lines: int) -> RowFacts:
        refs, cases = facts
        return (tuple([respanned(r, r.span.shifted(lines)) for r in refs]) if refs else refs,
                tuple([c.shifted(lines) for c in cases]))


def cases_jsonl(text: str, sink: FindingSink, result: FileAnalysis, cache: CaseCache | None,
                *, whole: bool = False) -> None:
    facts = SuiteFacts()
    if whole:
        doc = parse_jsonl(text, sink)
        require_objects(doc, sink, code="EY200", what=_WHAT)
        parsed = ParsedText(text, doc.lines, [], ok=True)
        for row in doc.rows:
            if isinstance(row.root, Mapping):
                check_test(Context(parsed, sink, row.start_offset), row.root, facts)
    else:
        state: RowState[RowFacts] | None = \
            cache.format_state(STATE, RowState) if cache is not None else None
        for placed in analyze_rows(text, CaseRows(sink.strict), state):
            sink.findings.extend(placed.findings)
            facts.refs.extend(placed.facts[0])
            facts.cases.extend(placed.facts[1])
    result.facts[REFS] = facts.refs
    result.cases = facts.cases
