"""A suite test by test (`core.items`): a keystroke in one test of a 10,000-test suite
re-checks that test, then the rules that cross tests over every test's facts.

The root is checked with its `tests:` list's lines taken out (`check_suite(...,
tests_elsewhere=True)`). A test reads two things of the root, the suite's `metadata` (merged
into each test's effective metadata) and whether the suite has `input_files`: they are the
fingerprint its cached result is keyed by, so editing them re-checks every test. Over the
placed results run the duplicate ids (EY607) and `depends_on` between tests (EY637), as the
whole-file rules run them. A 5.x suite, a file that does not split, or a test that does not
parse as written is analysed whole by the caller.
"""

from __future__ import annotations

import collections
import itertools
import json
import operator
from dataclasses import dataclass, replace
from typing import Any

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.items import Item, ItemState, analyze_items, shift_span
from evalyaml.core.model import CaseSummary, FileRef
from evalyaml.core.options import Options
from evalyaml.formats.agentv import rules
from evalyaml.formats.agentv.common import Context, pairs
from evalyaml.formats.agentv.depends import Dependency
from evalyaml.formats.agentv.filerefs import file_refs_of
from evalyaml.formats.agentv.suite import (
    SuiteFacts,
    SuiteRef,
    check_item,
    check_suite,
    cross_test_rules,
    duplicate_ids,
)
from evalyaml.formats.agentv.suitefacts import RefKey, ref_key
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.record import respanned
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Mapping
from evalyaml.syntax.yaml.parse import parse_lone_item, parse_text

STATE = "agentv-tests"


@dataclass(frozen=True, slots=True)
class TestFacts:
    """What one test adds to its suite's facts."""

    refs: tuple[SuiteRef, ...]
    test_ids: tuple[tuple[str, Span], ...]
    depends: tuple[Dependency, ...]
    cases: tuple[CaseSummary, ...]
    file_refs: tuple[FileRef, ...]  # of `refs`, resolved once per test text

    def shifted(self, lines: int) -> TestFacts:
        """Every test below a line added is moved on each Enter: list comprehensions, no copy
        of what a test most often lacks (dependencies), and a span two facts share (a ref and
        its file ref, an id and its case's id) moved once."""
        if not lines:
            return self
        moved: dict[int, Span] = {}

        def move(span: Span) -> Span:
            found = moved.get(id(span))
            if found is None:
                found = moved[id(span)] = span.shifted(lines)
            return found

        refs, depends, file_refs = self.refs, self.depends, self.file_refs
        if refs:
            refs = tuple([respanned(r, move(r.span)) for r in refs])
        if depends:
            depends = tuple([respanned(d, d.span.shifted(lines)) for d in depends])
        if file_refs:
            file_refs = tuple([respanned(f, move(f.span)) for f in file_refs])
        test_ids = tuple([(i, move(s)) for i, s in self.test_ids])
        cases = tuple([CaseSummary(c.id, c.span.shifted(lines),
                                   None if c.id_span is None else move(c.id_span), c.bundle,
                                   None if c.bundle_span is None else c.bundle_span.shifted(lines),
                                   c.detail) for c in self.cases])
        return TestFacts(refs, test_ids, depends, cases, file_refs)


class TestRules:
    """A suite's `tests:` list; with `cases_file`, a cases file, whose document is the list of
    tests (its skeleton holds only comments)."""

    uses_index = False

    def __init__(self, path: str | None, root: str | None, *, cases_file: bool = False) -> None:
        self.path = path
        self.root_folder = root
        self.cases_file = cases_file
        self.key = None if cases_file else "tests"

    def root(self, text: str, options: Options) -> tuple[tuple[Finding, ...], SuiteFacts] | None:
        sink = FindingSink(strict=options.strict)
        parsed = parse_text(text, sink)
        if self.cases_file:
            return ((), SuiteFacts()) if parsed.ok and not parsed.documents else None
        if not parsed.ok or len(parsed.documents) != 1:
            return None
        root = parsed.documents[0]
        if not isinstance(root, Mapping) or \
                any(k.text in rules.FIVE_X_KEYS for k, _ in pairs(root)):
            return None
        facts = SuiteFacts()
        check_suite(Context(parsed, sink), root, facts, tests_elsewhere=True)
        return tuple(dict.fromkeys(sink.findings)), facts

    def fingerprint(self, root: SuiteFacts) -> str:
        return json.dumps([root.suite_meta, root.suite_input_files, self.path,
                           self.root_folder], sort_keys=True, default=repr)

    def item(self, text: str, index: int, root: SuiteFacts, options: Options
             ) -> Item[TestFacts] | None:
        sink = FindingSink(strict=options.strict)
        lone = parse_lone_item(text, sink)
        if lone is None:
            return None
        parsed, item = lone
        facts = SuiteFacts(suite_meta=root.suite_meta, suite_input_files=root.suite_input_files)
        check_item(Context(parsed, sink), item, facts, cases_file=self.cases_file)
        file_refs = file_refs_of(facts.refs, self.path, self.root_folder) if self.path else []
        return Item(tuple(dict.fromkeys(sink.findings)), TestFacts(
            tuple(facts.refs), tuple(facts.test_ids), tuple(facts.depends), tuple(facts.cases),
            tuple(file_refs)))

    def shift(self, facts: TestFacts, lines: int) -> TestFacts:
        return facts.shifted(lines)

    def shift_root(self, root: SuiteFacts, first_line: int, lines: int) -> SuiteFacts:
        return replace(root, refs=[replace(r, span=shift_span(r.span, first_line, lines))
                                   for r in root.refs])


def analyze_suite_by_test(text: str, path: str | None, options: Options,
                          state: ItemState | None, *, cases_file: bool = False
                          ) -> tuple[list[Finding], SuiteFacts, list[FileRef]] | None:
    """The suite's (or cases file's) findings, facts and file references, as the whole-file
    rules give them: a cases file's tests are checked for duplicate ids only among themselves
    (`check_tests`); the suite that names it crosses the rest."""
    done = analyze_items(text, TestRules(path, options.root, cases_file=cases_file), options,
                         state)
    if done is None:
        return None
    sums = _Sums.after(state.extra.get(STATE) if state is not None else None, done.items)
    if state is not None:
        state.extra[STATE] = sums
    refs, test_ids, depends, cases, tests_file_refs = sums.lists
    facts = replace(done.root, refs=[*done.root.refs, *refs], test_ids=list(test_ids),
                    depends=list(depends), cases=list(cases),
                    ref_keys=tuple(sorted({*map(ref_key, done.root.refs), *sums.ref_counts})))
    file_refs = file_refs_of(done.root.refs, path, options.root) if path else []
    file_refs.extend(tests_file_refs)
    findings: list[Finding] = list(done.root_findings)
    findings.extend(itertools.chain.from_iterable(sums.findings))
    sink = FindingSink(strict=options.strict)
    ctx = Context(ParsedText("", LineIndex(""), [], ok=True), sink)  # for its `add` only
    duplicate_ids(ctx, facts)
    if not cases_file:
        cross_test_rules(ctx, facts)
    findings.extend(sink.findings)
    return findings, facts, file_refs


_FIELDS = ("refs", "test_ids", "depends", "cases", "file_refs")


@dataclass(slots=True)
class _Sums:
    """Every test's facts laid end to end, one list per field, and how many each test gave:
    after a keystroke in one test (the others' placed results are the same objects), only its
    stretch of each list is replaced, instead of 10,000 tests' facts gathered again."""

    items: list[Item[TestFacts]]
    counts: list[list[int]]  # per field, per test
    lists: list[list[Any]]  # per field
    findings: list[tuple[Finding, ...]]  # per test with findings, in order
    ref_counts: dict[RefKey, int]  # how many of the tests' refs have each `ref_key`

    @staticmethod
    def after(last: object, items: list[Item[TestFacts]]) -> _Sums:
        if isinstance(last, _Sums) and len(last.items) == len(items):
            # by identity, at C speed: 10,000 tests on every keystroke
            changed = list(itertools.compress(itertools.count(),
                                              map(operator.is_not, last.items, items)))
            if len(changed) == 1:
                return last.spliced(changed[0], items)
            if not changed:
                return last
            return last.rejoined(changed[0], items)  # a line added: every test below moved
        return _Sums([], [[] for _ in _FIELDS], [[] for _ in _FIELDS], [], {}).rejoined(0, items)

    def rejoined(self, first: int, items: list[Item[TestFacts]]) -> _Sums:
        """The lists kept above the test `first`, gathered again from there."""
        facts = [item.facts for item in items[first:]]
        counts, lists = [], []
        for name, count, joined in zip(_FIELDS, self.counts, self.lists, strict=True):
            parts = list(map(operator.attrgetter(name), facts))
            counts.append([*count[:first], *map(len, parts)])
            lists.append([*joined[: sum(count[:first])], *itertools.chain.from_iterable(parts)])
        return _Sums(items, counts, lists, [item.findings for item in items if item.findings],
                     dict(collections.Counter(map(ref_key, lists[0]))))

    def spliced(self, index: int, items: list[Item[TestFacts]]) -> _Sums:
        new = items[index].facts
        counts, lists = [], []
        for name, count, joined in zip(_FIELDS, self.counts, self.lists, strict=True):
            start = sum(count[:index])
            part = getattr(new, name)
            lists.append([*joined[:start], *part, *joined[start + count[index]:]])
            counted = list(count)
            counted[index] = len(part)
            counts.append(counted)
        ref_counts = dict(self.ref_counts)  # a few keys: a suite names few distinct files
        for key in map(ref_key, self.items[index].facts.refs):
            if ref_counts[key] > 1:
                ref_counts[key] -= 1
            else:
                del ref_counts[key]
        for key in map(ref_key, new.refs):
            ref_counts[key] = ref_counts.get(key, 0) + 1
        return _Sums(items, counts, lists, [item.findings for item in items if item.findings],
                     ref_counts)
