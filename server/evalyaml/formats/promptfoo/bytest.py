"""A YAML config test by test (`core.items`): a keystroke in one test of a 10,000-test config
re-checks that test, then the one rule over every test (EYPF008, a test with no assertion among
tests that have some).

The root is checked with its `tests:` list's lines taken out (`check_config(...,
tests_elsewhere=True)`). A test reads two things of the root: whether `defaultTest` asserts
anything, or comes from a file that may. They are the fingerprint its cached result is keyed by,
so editing `defaultTest`'s assertions re-checks every test. Each test's refs and facts are put
where the whole-file check puts them (after providers, prompts and defaultTest, before
scenarios: `ConfigFacts.tests_at`), so the cross check and the editor see the same facts either
way. A file that does not split, a test that does not parse as written, or a config with a local
`$ref` (a root key a test may point into) is analysed whole by the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.items import (
    BLOCK_LINES,
    Item,
    ItemState,
    Splitter,
    analyze_items,
    shift_span,
)
from evalyaml.core.joined import Joined
from evalyaml.core.model import CaseSummary
from evalyaml.core.options import Options
from evalyaml.formats.promptfoo.common import Context
from evalyaml.formats.promptfoo.config import check_config, no_assertion
from evalyaml.formats.promptfoo.facts import ConfigFacts, Ref, TestFacts
from evalyaml.formats.promptfoo.tests import check_test, check_tests_item
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Node
from evalyaml.syntax.yaml.parse import BlockYamlReading, parse_text, read_mapping

STATE = "promptfoo-tests"
TESTS_STATE = "promptfoo-tests-file"


@dataclass(frozen=True, slots=True)
class TestItem:
    """What one item of `tests:` adds to the config's facts."""

    refs: tuple[Ref, ...]
    tests: tuple[TestFacts, ...]
    cases: tuple[CaseSummary, ...]

    def shifted(self, lines: int) -> TestItem:
        """Every test below a line added is moved on each Enter: no `dataclasses.replace`, no
        closure per span, no copy of what a test most often lacks (references)."""
        if not lines:
            return self
        refs = self.refs
        if refs:
            refs = tuple([replace(r, span=r.span.shifted(lines)) for r in refs])
        return TestItem(refs, tuple([_moved_test(t, lines) for t in self.tests]),
                        tuple([c.shifted(lines) for c in self.cases]))


@dataclass(frozen=True, slots=True)
class RootFacts:
    facts: ConfigFacts
    tests_key: Span | None


def _moved_test(test: TestFacts, lines: int) -> TestFacts:
    """`_shift_test` with every span moved `lines` down, built by the constructor (every field
    named: `tests/formats/promptfoo/test_bytest_shift.py` holds it to `_shift_test`)."""
    found = test.vars
    return TestFacts(
        span=test.span.shifted(lines), label=test.label,
        vars=None if found is None else {n: s.shifted(lines) for n, s in found.items()},
        asserted=test.asserted, prompt_filter=test.prompt_filter, empty=test.empty,
        transformed=test.transformed,
        prompt_refs=tuple((n, s.shifted(lines)) for n, s in test.prompt_refs),
        provider_refs=tuple((n, s.shifted(lines)) for n, s in test.provider_refs),
        scenario_vars=[None if v is None else {n: s.shifted(lines) for n, s in v.items()}
                       for v in test.scenario_vars])


def _shift_test(test: TestFacts, move: Callable[[Span], Span]) -> TestFacts:
    return replace(test, span=move(test.span),
                   prompt_refs=tuple((n, move(s)) for n, s in test.prompt_refs),
                   provider_refs=tuple((n, move(s)) for n, s in test.provider_refs),
                   vars=None if test.vars is None else {n: move(s) for n, s in test.vars.items()},
                   scenario_vars=[None if v is None else {n: move(s) for n, s in v.items()}
                                  for v in test.scenario_vars])


class TestRules(BlockYamlReading):
    key: str | None = "tests"
    external = False  # paths read from a tests file, not the config
    uses_index = True  # "test 3" in messages about a test with no description

    def root(self, text: str, options: Options) -> tuple[tuple[Finding, ...], RootFacts] | None:
        read = read_mapping(self.parse, text, strict=options.strict)
        if read is None:
            return None
        sink, parsed, root = read
        facts = ConfigFacts()
        ctx = Context(parsed, sink)
        check_config(ctx, root, facts, tests_elsewhere=True)
        tests = root.pair("tests")
        key = ctx.span(tests[0]) if tests is not None else None
        return tuple(dict.fromkeys(sink.findings)), RootFacts(facts, key)

    def fingerprint(self, root: RootFacts) -> str:
        return f"{root.facts.default_asserted}:{root.facts.default_unknown}"

    def item(self, text: str, index: int, root: RootFacts, options: Options
             ) -> Item[TestItem] | None:
        sink = FindingSink(strict=options.strict)
        lone = self.lone(text, index, sink)
        if lone is None:
            return None
        parsed, item = lone
        facts = ConfigFacts(default_asserted=root.facts.default_asserted,
                            default_unknown=root.facts.default_unknown)
        self.check(Context(parsed, sink, external=self.external), item, facts, index)
        cases = tuple(CaseSummary(name, span, name_span) for name, span, name_span in facts.cases)
        return Item(tuple(dict.fromkeys(sink.findings)),
                    TestItem(tuple(facts.refs), tuple(facts.tests), cases),
                    by_index=quotes_index(facts, index))

    def check(self, ctx: Context, item: Node, facts: ConfigFacts, index: int) -> None:
        check_tests_item(ctx, item, facts, index)

    def shift(self, facts: TestItem, lines: int) -> TestItem:
        return facts.shifted(lines)

    def shift_root(self, root: RootFacts, first_line: int, lines: int) -> RootFacts:
        def move(span: Span) -> Span:
            return shift_span(span, first_line, lines)

        facts = root.facts
        moved = replace(
            facts,
            refs=[replace(r, span=move(r.span)) for r in facts.refs],
            prompts=[replace(p, span=move(p.span), name_spans=tuple(map(move, p.name_spans)))
                     for p in facts.prompts],
            tests=[_shift_test(t, move) for t in facts.tests],
            default_vars=None if facts.default_vars is None else
            {n: move(s) for n, s in facts.default_vars.items()},
            tables=[replace(r, span=move(r.span)) for r in facts.tables],
            default_prompt_refs=tuple((n, move(s)) for n, s in facts.default_prompt_refs),
            default_provider_refs=tuple((n, move(s)) for n, s in facts.default_provider_refs),
            cases=[(n, move(s), move(ns)) for n, s, ns in facts.cases],
            alone=[(c, m, move(s)) for c, m, s in facts.alone])
        return RootFacts(moved, root.tests_key)


class TestsFileRules(TestRules):
    """A tests file whose document is the list of tests (its skeleton holds only comments):
    each test checked as `_tests_file` checks it, paths read from the file (`external`)."""

    key = None
    external = True

    def root(self, text: str, options: Options) -> tuple[tuple[Finding, ...], RootFacts] | None:
        parsed = parse_text(text, FindingSink(strict=options.strict))
        return ((), RootFacts(ConfigFacts(), None)) if parsed.ok and not parsed.documents \
            else None

    def fingerprint(self, root: RootFacts) -> str:
        return "tests-file"

    def check(self, ctx: Context, item: Node, facts: ConfigFacts, index: int) -> None:
        check_test(ctx, item, facts, index)


def case_tuple(case: CaseSummary) -> tuple[str, Span, Span]:
    """`ConfigFacts.cases`' entry of a test's summary (made from one)."""
    assert case.id is not None and case.id_span is not None
    return case.id, case.span, case.id_span


def quotes_index(facts: ConfigFacts, index: int) -> bool:
    """Whether a test's facts name it by its index ("test 3": no description)."""
    label = f"test {index + 1}"
    return any(t.label == label for t in facts.tests) or \
        any(name == label for name, _, _ in facts.cases)


def analyze_tests_file_by_test(text: str, options: Options, state: ItemState | None
                               ) -> tuple[list[Finding], ConfigFacts, list[CaseSummary]] | None:
    """A YAML tests file's findings, facts and cases, as `analyze._tests_file` gives them."""
    done = analyze_items(text, TestsFileRules(), options, state)
    if done is None:
        return None
    findings, refs, tests, cases, summaries = _joined(state).update(done.items)
    facts = ConfigFacts(refs=refs, tests=tests, cases=cases)  # type: ignore[arg-type]
    return findings, facts, summaries  # type: ignore[return-value]


def _joined(state: ItemState | None) -> Joined[Item[TestItem]]:
    """The items' findings and facts end to end, kept in `state` across edits."""
    joined = state.extra.get(TESTS_STATE) if state is not None else None
    if not isinstance(joined, Joined):
        joined = Joined(_fields, 5)
        if state is not None:
            state.extra[TESTS_STATE] = joined
    return joined


def _fields(item: Item[TestItem]) -> tuple[Sequence[object], ...]:
    test = item.facts
    return (item.findings, test.refs, test.tests, [case_tuple(c) for c in test.cases],
            test.cases)


def analyze_config_by_test(text: str, options: Options, state: ItemState | None,
                           rules: TestRules | None = None, splitter: Splitter = BLOCK_LINES
                           ) -> tuple[list[Finding], ConfigFacts, list[CaseSummary]] | None:
    """The config's findings, facts and cases, as the whole-file check gives them (a JSON
    config: `jsonconfig`'s rules and splitter)."""
    if "$ref" in text:
        return None
    done = analyze_items(text, rules or TestRules(), options, state, splitter)
    if done is None:
        return None
    root = done.root.facts
    found, refs, tests, cases, summaries = _joined(state).update(done.items)
    refs_at, tests_at = root.tests_at
    facts = replace(root, refs=[*root.refs[:refs_at], *refs,  # type: ignore[list-item]
                                *root.refs[refs_at:]],
                    tests=[*root.tests[:tests_at], *tests,  # type: ignore[list-item]
                           *root.tests[tests_at:]],
                    cases=[*cases, *root.cases])  # type: ignore[list-item]
    findings: list[Finding] = [*done.root_findings, *found]  # type: ignore[list-item]
    sink = FindingSink(strict=options.strict)
    ctx = Context(ParsedText("", LineIndex(""), [], ok=True), sink)  # for its `add` only
    no_assertion(ctx, done.root.tests_key, facts)
    findings.extend(sink.findings)
    return findings, facts, summaries  # type: ignore[return-value]
