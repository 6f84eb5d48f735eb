"""A JSONL tests file row by row (`syntax.rowchecks`): each row is one test, checked from its
own text as `analyze` checks a row of the whole file, and cached by it in the document's cache,
so a keystroke in one row of 10,000 re-checks that row. A row whose findings or facts name its
index (`tests[3]`, "test 4" for a test with no description) serves that index only.
"""

from __future__ import annotations

from evalyaml.core.findings import FindingSink
from evalyaml.core.model import CaseSummary
from evalyaml.formats.promptfoo.bytest import TestItem, case_tuple, quotes_index
from evalyaml.formats.promptfoo.common import Context
from evalyaml.formats.promptfoo.facts import ConfigFacts
from evalyaml.formats.promptfoo.tests import check_test
from evalyaml.syntax.jsonl import not_an_object, parse_lone_row
from evalyaml.syntax.lines import LineResult
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.rowchecks import RowState, analyze_rows
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Mapping

STATE = "promptfoo-tests-rows"
WHAT = "each line of a promptfoo tests file"

RowFacts = tuple[TestItem, bool]  # the test's facts; whether they quote its index


class TestRows:
    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.context = ("promptfoo-tests-row", strict)

    def check(self, text: str, *, first: bool, index: int, line: int) -> LineResult[RowFacts]:
        sink = FindingSink(strict=self.strict)
        root = parse_lone_row(text, sink, first=first).root
        facts = ConfigFacts()
        if root is not None:
            parsed = ParsedText(text, LineIndex(text), [root], ok=True)
            if isinstance(root, Mapping):
                check_test(Context(parsed, sink, external=True), root, facts, index)
            else:
                not_an_object(root, parsed.span(root), sink, code="EY200", what=WHAT)
        cases = tuple(CaseSummary(name, span, name_span) for name, span, name_span in facts.cases)
        return LineResult(tuple(sink.findings),
                          (TestItem(tuple(facts.refs), tuple(facts.tests), cases),
                           quotes_index(facts, index)))

    def quotes_place(self, result: LineResult[RowFacts]) -> bool:
        return bool(result.findings) or result.facts[1]

    def shift(self, facts: RowFacts, lines: int) -> RowFacts:
        return facts[0].shifted(lines), facts[1]


def tests_jsonl(text: str, sink: FindingSink, facts: ConfigFacts, state: RowState[RowFacts] | None
                ) -> None:
    """The rows' findings into `sink`, their refs, tests and cases into `facts`."""
    for placed in analyze_rows(text, TestRows(sink.strict), state):
        sink.findings.extend(placed.findings)
        test = placed.facts[0]
        facts.refs.extend(test.refs)
        facts.tests.extend(test.tests)
        facts.cases.extend(map(case_tuple, test.cases))
