"""A golden dataset sample by sample (`core.items`): a keystroke in one sample of a
10,000-sample file re-checks that sample, then the duplicate ids over every sample's id.

The root is checked with its `samples:` list's lines taken out (`check_dataset(...,
samples_elsewhere=True)`); each sample with `check_sample`, which quotes the sample's index in
its messages (`uses_index`). What crosses samples is decided here over the placed results: the
duplicate ids (EY506, reported as the whole-file rules report them) and the sample count in the
dataset's definition. A file that does not split, or a sample that does not parse as written,
is analysed whole by the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.items import Analysed, Item, ItemState, analyze_items, shift_span
from evalyaml.core.model import CaseSummary, Definition, FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.padosoft.common import Context
from evalyaml.formats.padosoft.dataset import (
    check_dataset,
    check_sample,
    duplicate_id,
    samples_description,
)
from evalyaml.formats.padosoft.kinds import DATASET
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.record import replace
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Mapping, Node
from evalyaml.syntax.yaml.parse import parse_lone_item, parse_text

STATE = "padosoft-samples"


class SampleRules:
    key = "samples"
    uses_index = True

    def __init__(self, tidy: Tidy) -> None:
        """`tidy`: the format's rewording of the parser's findings (symfony/yaml's duplicate
        keys), applied to every text parsed here as to the whole file."""
        self._tidy = tidy

    def root(self, text: str, options: Options
             ) -> tuple[tuple[Finding, ...], list[Definition]] | None:
        return checked_root(text, options, self._tidy, lambda ctx, root: check_dataset(
            ctx, root, samples_elsewhere=True)[0])

    def fingerprint(self, root: list[Definition]) -> str:
        return ""  # a sample's rules read nothing of the root

    def item(self, text: str, index: int, root: list[Definition], options: Options
             ) -> Item[CaseSummary | None] | None:
        return checked_item(text, options, self._tidy,
                            lambda ctx, item: check_sample(ctx, item, index))

    def shift(self, facts: CaseSummary | None, lines: int) -> CaseSummary | None:
        return facts.shifted(lines) if facts is not None else None

    def shift_root(self, root: list[Definition], first_line: int, lines: int
                   ) -> list[Definition]:
        return [replace(d, id_span=shift_span(d.id_span, first_line, lines)) for d in root]


def analyze_dataset_by_sample(text: str, path: str | None, options: Options,
                              state: ItemState | None, rules: SampleRules) -> FileAnalysis | None:
    done = analyze_items(text, rules, options, state)
    if done is None:
        return None
    result = FileAnalysis(path, DATASET)
    result.findings, result.cases = join_items(done, options, duplicate_id)
    result.definitions = [replace(d, description=samples_description(len(result.cases)))
                          for d in done.root]
    return result


DuplicateId = Callable[[Context, str, int, Span, Span], None]
Root = TypeVar("Root")


def join_items(done: Analysed[Root, CaseSummary | None], options: Options, duplicate: DuplicateId
               ) -> tuple[list[Finding], list[CaseSummary]]:
    """The skeleton's and items' findings and the items' summaries, in file order, with a
    finding (`duplicate`: the file's own message, EY506) for each id met a second time."""
    sink = FindingSink(strict=options.strict)
    ctx = Context(ParsedText("", LineIndex(""), [], ok=True), sink)  # for its `add` only
    findings: list[Finding] = list(done.root_findings)
    cases: list[CaseSummary] = []
    first: dict[str, Span] = {}
    for index, item in enumerate(done.items):
        findings.extend(item.findings)
        summary = item.facts
        if summary is None:
            continue
        cases.append(summary)
        if summary.id is not None and summary.id_span is not None:
            earlier = first.setdefault(summary.id, summary.id_span)
            if earlier is not summary.id_span:
                duplicate(ctx, summary.id, index, summary.id_span, earlier)
    findings.extend(sink.findings)
    return list(dict.fromkeys(findings)), cases


Tidy = Callable[[FindingSink], None]
Facts = TypeVar("Facts")


def checked_root(text: str, options: Options, tidy: Tidy,
                 check: Callable[[Context, Mapping], Facts]
                 ) -> tuple[tuple[Finding, ...], Facts] | None:
    """A skeleton (the file with its item list's lines taken out) parsed, reworded by `tidy`
    and checked by `check`; None when it is not one mapping that parses as written."""
    sink = FindingSink(strict=options.strict)
    parsed = parse_text(text, sink)
    root = parsed.documents[0] if parsed.ok and len(parsed.documents) == 1 else None
    if not isinstance(root, Mapping):
        return None
    tidy(sink)
    facts = check(Context(parsed, sink), root)
    return tuple(dict.fromkeys(sink.findings)), facts


def checked_item(text: str, options: Options, tidy: Tidy,
                 check: Callable[[Context, Node], CaseSummary | None]
                 ) -> Item[CaseSummary | None] | None:
    """One item's text parsed alone, reworded by `tidy` and checked by `check`; None when it
    does not parse as written."""
    sink = FindingSink(strict=options.strict)
    lone = parse_lone_item(text, sink)
    if lone is None:
        return None
    parsed, item = lone
    tidy(sink)
    summary = check(Context(parsed, sink), item)
    return Item(tuple(dict.fromkeys(sink.findings)), summary)
