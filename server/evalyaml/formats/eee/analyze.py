"""An Every Eval Ever file's analysis (an aggregate, a samples file whole or streamed), loaded
with the first such file analysed (not with the registry in `__init__`, which discovery
imports)."""

from __future__ import annotations

import posixpath
from pathlib import PurePath
from typing import TYPE_CHECKING, BinaryIO

from evalyaml.core.findings import FindingSink
from evalyaml.core.kinds import Kind
from evalyaml.core.model import Definition, FileAnalysis, Reference
from evalyaml.core.options import Options
from evalyaml.formats.base import Claim
from evalyaml.formats.eee import detect, paths
from evalyaml.formats.eee.aggregate import AggregateResult, check_aggregate
from evalyaml.formats.eee.kinds import AGGREGATE, SAMPLES
from evalyaml.formats.eee.rows import (
    NO_ROWS,
    EditState,
    RowFacts,
    SamplesResult,
    check_samples,
    check_stream,
)
from evalyaml.syntax.json import parse_json
from evalyaml.syntax.lines import LineCache
from evalyaml.syntax.text import Position, Span

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper

PATH_RULE = "EY726"

KINDS: tuple[Kind, ...] = (AGGREGATE, SAMPLES)


def analyze_stream(stream: BinaryIO, path: str | None, kind: Kind | None,
                   options: Options) -> FileAnalysis | None:
    """A samples file over the size limit, row by row in bounded memory (the engine asks
    this of a format that has it before giving up on a large file with EY107)."""
    if kind is not SAMPLES:
        return None
    return _samples_analysis(check_stream(stream, strict=options.strict), path, options)


def analyze(text: str, path: str | None, kind: Kind | None, options: Options, *,
            forced: bool = False, cache: CaseCache | None = None,
            mapper: CaseMapper | None = None, whole: bool = False) -> FileAnalysis:
    """An aggregate result by result when the document has a cache (`byresult`), unless
    `whole` (what that must equal, for the tests); a samples file row by row."""
    if kind not in KINDS:
        claimed = detect.claim(text, path, options.root)
        kind = claimed.kind if isinstance(claimed, Claim) else (
            SAMPLES if path and path.lower().endswith(".jsonl") else AGGREGATE)
    if kind is SAMPLES:
        return _samples(text, path, options, cache)
    return _aggregate(text, path, options, cache, whole=whole)


def _aggregate(text: str, path: str | None, options: Options,
               cache: CaseCache | None = None, *, whole: bool = False) -> FileAnalysis:
    """Result by result when the document has a cache (`byresult`), unless `whole` (what that
    must equal, for the tests)."""
    result = FileAnalysis(path, AGGREGATE)
    if cache is not None and not whole:
        from evalyaml.core.items import ItemState
        from evalyaml.formats.eee.byresult import STATE, analyze_by_result

        done = analyze_by_result(text, path, options, cache.format_state(STATE, ItemState))
        if done is not None:
            findings, checked, at = done
            sink = FindingSink(strict=options.strict)
            sink.findings = findings
            _aggregate_result(result, checked, path, at, sink)
            result.findings = sink.findings
            return result
    sink = FindingSink(strict=options.strict)
    parsed = parse_json(text, sink)
    root = parsed.documents[0] if parsed.documents else None
    if root is not None:
        checked = check_aggregate(root, parsed.lines, sink, path)
        if not parsed.ok:  # recovered around a syntax error: an absent key may be in the hole
            checked.facts["recovered"] = True
        _aggregate_result(result, checked, path, parsed.lines.span(root.start, root.start + 1),
                          sink)
    result.findings = sink.findings
    return result


def _aggregate_result(result: FileAnalysis, checked: AggregateResult, path: str | None,
                      at: Span, sink: FindingSink) -> None:
    """What an aggregate's check (whole, or result by result) gives the workspace; `at`: the
    root's `{`."""
    result.facts = checked.facts
    result.references = checked.references
    result.cases = checked.cases
    if path is not None:  # named by its path: its samples rows lead here
        named = checked.facts.get("evaluation_id")
        at_id = named[1] if isinstance(named, tuple) else at
        result.definitions = [Definition(AGGREGATE, _own(path), None, at_id, None)]
    _path_rules(path, samples=False, at=at, sink=sink, version=checked.facts.get("version"))


def _samples(text: str, path: str | None, options: Options,
             cache: CaseCache | None) -> FileAnalysis:
    line_cache: LineCache[RowFacts] | None = \
        cache.format_state("eee-rows", LineCache) if cache is not None else None
    state = cache.format_state("eee-samples", EditState) if cache is not None else None
    refs = cache.format_state("eee-row-refs", RowReferences) if cache is not None else None
    return _samples_analysis(check_samples(text, strict=options.strict, cache=line_cache,
                                           state=state), path, options, refs)


class RowReferences:
    """The last rows-to-aggregate references of an edited document. An edit the editor's short
    way absorbs (`rows.EditState`) keeps the id table object and every id's place, so its
    100,000 references are the same list, not rebuilt per keystroke."""

    __slots__ = ("path", "references", "table")

    def __init__(self) -> None:
        self.table: object = None
        self.path: str | None = None
        self.references: list[Reference] = []


def _samples_analysis(checked: SamplesResult, path: str | None, options: Options,
                      refs: RowReferences | None = None) -> FileAnalysis:
    sink = FindingSink(strict=options.strict)
    sink.findings.extend(checked.findings)
    result = FileAnalysis(path, SAMPLES)
    first = checked.first_row
    at = Span(Position(first, 0), Position(first, 1)) if first is not None else \
        Span.point(0, 0)
    if checked.rows == 0:
        sink.add(NO_ROWS, "a samples file needs at least one row (one JSON object per line); "
                 "this one has none", at)
    _path_rules(path, samples=True, at=at, sink=sink, version=None)
    result.findings = sink.findings
    result.cases = checked.cases
    result.facts = {"evaluation_ids": checked.evaluation_ids, "model_ids": checked.model_ids,
                    "rows": checked.rows, "first": at}
    if path is not None:  # named by its path (see `aggregate.samples_id`)
        result.definitions = [Definition(SAMPLES, _own(path), None, at, None)]
        if refs is not None and refs.table is checked.evaluation_ids and refs.path == path:
            result.references = refs.references
        else:
            result.references = _rows_to_aggregate(path, checked)
            if refs is not None:
                refs.table, refs.path, refs.references = (checked.evaluation_ids, path,
                                                          result.references)
    return result


def _own(path: str) -> str:
    return posixpath.normpath(PurePath(path).as_posix())


def _rows_to_aggregate(path: str, checked: SamplesResult) -> list[Reference]:
    """Each row's `evaluation_id` leads to the aggregate beside the file (the one upstream's
    validator and our cross check hold the rows to), named by its path."""
    name = PurePath(path).name
    if not name.endswith("_samples.jsonl"):
        return []
    aggregate = _own(str(PurePath(path).with_name(name[: -len("_samples.jsonl")] + ".json")))
    references: list[Reference] = []
    for value, places in checked.evaluation_ids.items():
        for index in range(0, len(places), 3):
            line, start, end = places[index], places[index + 1], places[index + 2]
            references.append(Reference(AGGREGATE, value, Span.on_line(line, start, end),
                                        "evaluation_id", "row", aggregate, None))
    return references


def _path_rules(path: str | None, *, samples: bool, at: Span, sink: FindingSink,
                version: object) -> None:
    """The datastore convention, for files that use it (four levels below a `data` folder)."""
    parts = paths.datastore_parts(path)
    if parts is None:
        return
    problems: list[str] = []
    for part, role in zip(parts[:3], ("collection", "developer", "model"), strict=True):
        problem = paths.component_problem(part)
        if problem:
            problems.append(f"the {role} folder '{part}' {problem}")
    problem = paths.name_problem(parts[3], samples=samples)
    if problem:
        problems.append(problem)
    if problems:
        sink.add(PATH_RULE, f"the datastore path data/{'/'.join(parts)} breaks the convention "
                 "data/<collection>/<developer>/<model>/<uuid4>"
                 f"{'_samples.jsonl' if samples else '.json'}: {'; '.join(problems)}", at)
