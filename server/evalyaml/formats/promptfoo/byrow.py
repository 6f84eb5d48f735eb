"""A JSONL tests file row by row (`syntax.rowchecks`): each row is one test, checked from its
own text as `analyze` checks a row of the whole file, and cached by it in the document's cache,
so a keystroke in one row of 10,000 re-checks that row. A JSON tests file (an array) the same
way item by item (`syntax.jsonitems`). A row whose findings or facts name its
index (`tests[3]`, "test 4" for a test with no description) serves that index only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from evalyaml.core.findings import FindingSink
from evalyaml.core.joined import Joined
from evalyaml.core.model import CaseSummary
from evalyaml.formats.promptfoo.bytest import TestItem, case_tuple, quotes_index
from evalyaml.formats.promptfoo.common import Context
from evalyaml.formats.promptfoo.facts import ConfigFacts
from evalyaml.formats.promptfoo.tests import check_test
from evalyaml.syntax.jsonitems import ItemsState, analyze_json_items
from evalyaml.syntax.jsonl import not_an_object, parse_lone_row
from evalyaml.syntax.lines import LineResult
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.rowchecks import RowState, analyze_rows
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Mapping, Node

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache

STATE = "promptfoo-tests-rows"
JOINED = "promptfoo-tests-rows-joined"
JSON_STATE = "promptfoo-tests-json"
JSON_JOINED = "promptfoo-tests-json-joined"
WHAT = "each line of a promptfoo tests file"

RowFacts = tuple[TestItem, bool]  # the test's facts; whether they quote its index


class _Tests:
    """What a JSONL row and a JSON array's item share: a test's result and how it moves."""

    def __init__(self, strict: bool, context: str) -> None:
        self.strict = strict
        self.context = (context, strict)

    @staticmethod
    def result(sink: FindingSink, facts: ConfigFacts, index: int) -> LineResult[RowFacts]:
        cases = tuple(CaseSummary(name, span, name_span) for name, span, name_span in facts.cases)
        return LineResult(tuple(sink.findings),
                          (TestItem(tuple(facts.refs), tuple(facts.tests), cases),
                           quotes_index(facts, index)))

    def quotes_place(self, result: LineResult[RowFacts]) -> bool:
        return bool(result.findings) or result.facts[1]

    def shift(self, facts: RowFacts, lines: int) -> RowFacts:
        return facts[0].shifted(lines), facts[1]


class TestRows(_Tests):
    def __init__(self, strict: bool) -> None:
        super().__init__(strict, "promptfoo-tests-row")

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
        return self.result(sink, facts, index)


def tests_jsonl(text: str, sink: FindingSink, facts: ConfigFacts, cache: CaseCache | None
                ) -> list[CaseSummary]:
    """The rows' findings into `sink`, their refs, tests and cases into `facts`; the cases."""
    state: RowState[RowFacts] | None = \
        cache.format_state(STATE, RowState) if cache is not None else None
    return _join(analyze_rows(text, TestRows(sink.strict), state), sink, facts, cache, JOINED)


class JsonTests(_Tests):
    """A JSON tests file's items (`syntax.jsonitems`), each checked as `_tests_file` checks it."""

    def __init__(self, strict: bool) -> None:
        super().__init__(strict, "promptfoo-tests-json")

    def check(self, parsed: ParsedText, item: Node, index: int) -> LineResult[RowFacts]:
        sink = FindingSink(strict=self.strict)
        facts = ConfigFacts()
        check_test(Context(parsed, sink, external=True), item, facts, index)
        return self.result(sink, facts, index)


def tests_json(text: str, sink: FindingSink, facts: ConfigFacts, cache: CaseCache | None
               ) -> list[CaseSummary] | None:
    """A JSON tests file item by item, as `tests_jsonl`; None: read it whole."""
    state: ItemsState[RowFacts] | None = \
        cache.format_state(JSON_STATE, ItemsState) if cache is not None else None
    items = analyze_json_items(text, JsonTests(sink.strict), state)
    if items is None:
        return None
    return _join(items, sink, facts, cache, JSON_JOINED)


def _join(rows: list[LineResult[RowFacts]], sink: FindingSink, facts: ConfigFacts,
          cache: CaseCache | None, key: str) -> list[CaseSummary]:
    joined = cache.format_state(key, _joined) if cache is not None else _joined()
    findings, refs, tests, cases, summaries = joined.update(rows)
    sink.findings.extend(findings)  # type: ignore[arg-type]
    facts.refs.extend(refs)  # type: ignore[arg-type]
    facts.tests.extend(tests)  # type: ignore[arg-type]
    facts.cases.extend(cases)  # type: ignore[arg-type]
    return summaries  # type: ignore[return-value]


def _joined() -> Joined[LineResult[RowFacts]]:
    return Joined(_fields, 5)


def _fields(row: LineResult[RowFacts]) -> tuple[Sequence[object], ...]:
    test = row.facts[0]
    return (row.findings, test.refs, test.tests, [case_tuple(c) for c in test.cases],
            test.cases)
