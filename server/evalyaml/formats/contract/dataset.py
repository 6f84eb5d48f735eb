"""The contract's dataset files: the root, then each case on its own.

Each case is analysed from its own text (see `segments`), and the result is cached by that
text (`core.incremental.CaseCache`). After an edit only the touched case is parsed and
validated again; the cached results of the others are moved to their new lines. A fresh
analysis and an incremental one run the same code on the same texts, which is why they agree
(a property test holds them to it).
"""

from __future__ import annotations

import json
from functools import cache, partial
from typing import cast

from evalyaml.core.findings import Finding, FindingSink, Related
from evalyaml.core.incremental import CaseCache, CaseMapper, CaseResult, Edit, PlacedCase, place
from evalyaml.core.items import moved_below
from evalyaml.core.kinds import FileKind
from evalyaml.core.model import CaseSummary, Reference
from evalyaml.core.options import Options
from evalyaml.core.schemas import known_properties, schema, subschema
from evalyaml.core.suggest import did_you_mean
from evalyaml.core.validate import Path
from evalyaml.formats.contract.refscan import collect_reference
from evalyaml.formats.contract.schema_report import SchemaReporter
from evalyaml.formats.contract.schemas import (
    precheck,
    skeleton_precheck,
    validator,
    validator_for,
)
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.record import mutable_record
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import (
    MERGE_TAG,
    Budget,
    ExpansionLimit,
    Mapping,
    Node,
    PyValue,
    Scalar,
    Sequence,
    to_python,
)
from evalyaml.syntax.yaml.parse import parse_text
from evalyaml.syntax.yaml.segments import DatasetSplit, Segment, split_ahead, split_dataset


@mutable_record
class DatasetResult:
    findings: list[Finding]
    cases: list[CaseSummary]
    references: list[Reference]
    ok: bool


@cache
def _contract_case_keys() -> dict[str, dict[str, object]]:
    return dict(known_properties(FileKind.DATASET, subschema(FileKind.DATASET, "/$defs/case")))


def case_keys(options: Options) -> dict[str, dict[str, object]]:
    if not options.bundles:
        return _contract_case_keys()
    keys = dict(_contract_case_keys())
    for bundle_schema in options.bundles.values():
        keys.update(bundle_schema.get("properties", {}))
    return keys


def case_options_key(options: Options) -> str:
    """Everything a case's findings depend on besides its text: the mode and the bundles (their
    contents, not just their number), so a changed bundle schema re-checks every case."""
    return json.dumps([options.strict, options.bundles_configured, options.bundles],
                      sort_keys=True, default=str)


def case_texts(text: str) -> list[str] | None:
    """The case texts `_all_cases` hands its mapper for `text` (None: not laid out in cases),
    for the language server's case worker ahead of the analysis; the split is kept for that
    analysis (`segments.split_ahead`)."""
    split = split_ahead(text)
    return None if split is None else [text[s.start : s.end] for s in split.items]


def analyze_case_texts(texts: list[str], options: Options) -> list[CaseResult | None]:
    """The default `CaseMapper`: one case after another. None marks a case that ends inside an
    unclosed string or bracket and must be joined with the next."""
    return [_analyze_case_text(t, options, allow_open_end=False) for t in texts]


def analyze_dataset(text: str, options: Options, cache: CaseCache | None,
                    mapper: CaseMapper | None = None) -> DatasetResult | None:
    """None when the text is not laid out as a splittable dataset (the caller parses it whole)."""
    fingerprint = case_options_key(options)
    split, edit = cache.split(text, fingerprint) if cache else (split_dataset(text), None)
    if split is None:
        return None
    root_findings = cache.root_findings(split, options) if cache else None
    if root_findings is None:
        root_findings = _skeleton_findings(split, options)
        if root_findings is None:
            return None  # something odd around the cases: let the whole-file parse explain it
        if cache:
            cache.remember_root(split, options, root_findings)
    cases = _cases_after_edit(text, split, edit, options, cache, fingerprint=fingerprint) \
        if cache and edit else None
    if cases is None:
        cases = _all_cases(text, split, options, cache, mapper, fingerprint=fingerprint)
    if cache is not None:
        cache.remember(text, split, fingerprint, cases if len(cases) == len(split.items) else None)
        # The cases of this text were used last; keep them and as many recent others (undo).
        cache.trim(2 * len(split.items) + 512)
    placed = [case for _, case in cases]
    findings = list(root_findings)
    for case in placed:
        if case.findings:
            findings.extend(case.findings)
    findings.extend(_duplicate_ids([(c.id_text, c.id_span) for c in placed], options))
    return DatasetResult(
        findings,
        [c.summary for c in placed],
        [c.reference for c in placed if c.reference is not None],
        ok=True,
    )


def _cases_after_edit(text: str, split: DatasetSplit, edit: Edit, options: Options,
                      cache: CaseCache, *, fingerprint: str
                      ) -> list[tuple[CaseResult, PlacedCase]] | None:
    """Only the edited case is analysed; the others keep their results, moved when the edit
    added or removed lines. None when the edited case must be joined with the next."""
    before = edit.last.cases
    if before is None:
        return None
    segment = split.items[edit.index]
    result = _cached_case(text[segment.start : segment.end], options, fingerprint, cache)
    if result is None:
        return None
    after = before[edit.index + 1 :]
    if edit.line_delta:
        after = [(r, cache.placed(r, case.line + edit.line_delta)) for r, case in after]
    cache.incremental += 1
    return [*before[: edit.index], (result, cache.placed(result, segment.line)), *after]


def _all_cases(text: str, split: DatasetSplit, options: Options, cache: CaseCache | None,
               mapper: CaseMapper | None, *, fingerprint: str
               ) -> list[tuple[CaseResult, PlacedCase]]:
    segments = list(split.items)
    first_pass = _first_pass([text[s.start : s.end] for s in segments],
                             [s.line for s in segments], options, fingerprint=fingerprint,
                             cache=cache, mapper=mapper or _in_turn)
    placing = cache.placed if cache is not None else place
    if None not in first_pass:  # every case read alone (nearly always): placed in one pass
        results = cast("list[CaseResult]", first_pass)
        return [(r, placing(r, s.line)) for r, s in zip(results, segments, strict=True)]
    cases: list[tuple[CaseResult, PlacedCase]] = []
    index = 0
    while index < len(segments):
        segment = segments[index]
        result = first_pass[index]
        alone = index
        # A quoted string or flow collection may run on past a line that looks like a new
        # case; such a case fails at its very end. Join it with the next and try again.
        while result is None and index + 1 < len(segments):
            index += 1
            segment = Segment(segment.start, segments[index].end, segment.line)
            result = _cached_case(text[segment.start : segment.end], options, fingerprint,
                                  cache)
        if index > alone and result is not None and _broken(result):
            # Joining did not close it: the case is broken on its own. Recovered alone, it
            # leaves the next cases their own findings.
            index, segment, result = alone, segments[alone], None
        if result is None:
            result = _analyze_case_text(text[segment.start : segment.end], options,
                                        allow_open_end=True)
            assert result is not None
        cases.append((result, placing(result, segment.line)))
        index += 1
    return cases


def _broken(result: CaseResult) -> bool:
    return any(f.code in ("EY101", "EY103", "EY106") for f in result.findings)


def _skeleton_findings(split: DatasetSplit, options: Options) -> tuple[Finding, ...] | None:
    """The skeleton's findings, analysed without the blank lines that stand for the cases (a
    10,000-case skeleton is 130,000 of them: 160 ms to parse, against none) and then moved
    below them (`core.items` does the same for every format's items); when a finding reaches
    across the cases' place, from the skeleton as it is."""
    start, lines = split.region_start, split.region_lines
    skeleton = split.skeleton
    found = _analyze_skeleton(skeleton[:start] + skeleton[start + lines :], options)
    if found is None or not lines:
        return found
    moved = moved_below(found, skeleton.count("\n", 0, start), lines)
    return moved if moved is not None else _analyze_skeleton(skeleton, options)


def _analyze_skeleton(skeleton_text: str, options: Options) -> tuple[Finding, ...] | None:
    """Findings on everything around the cases; None when that part does not parse cleanly."""
    sink = FindingSink(strict=options.strict)
    skeleton = parse_text(skeleton_text, sink)
    if not skeleton.usable or len(skeleton.documents) != 1 or \
            not isinstance(skeleton.documents[0], Mapping):
        return None
    analyze_dataset_root(skeleton, skeleton.documents[0], options, sink, questions_is_list=True)
    return tuple(sink.findings)


def _in_turn(texts: list[str], options: Options, lines: list[int]) -> list[CaseResult | None]:
    """The default `CaseMapper`: one case after another, each read from line 0 (placing them
    here or later costs the same)."""
    return analyze_case_texts(texts, options)


def _first_pass(texts: list[str], lines: list[int], options: Options, *, fingerprint: str,
                cache: CaseCache | None, mapper: CaseMapper) -> list[CaseResult | None]:
    """Each case from the cache when its text is unchanged, the rest through `mapper`."""
    keys = [(t, fingerprint) for t in texts]
    found: list[CaseResult | None] = [cache.get(k) for k in keys] if cache else [None] * len(texts)
    missing = [i for i, r in enumerate(found) if r is None]
    if missing:
        fresh = mapper([texts[i] for i in missing], options, [lines[i] for i in missing])
        for i, result in zip(missing, fresh, strict=True):
            found[i] = result
        if cache is not None:
            cache.put_all([keys[i] for i in missing], fresh)
    return found


def _cached_case(case_text: str, options: Options, fingerprint: str,
                 cache: CaseCache | None) -> CaseResult | None:
    key = (case_text, fingerprint)
    if cache is not None:
        found = cache.get(key)
        if found is not None:
            return found
    result = _analyze_case_text(case_text, options, allow_open_end=False)
    if result is not None and cache is not None:
        cache.put(key, result)
    return result


def _analyze_case_text(case_text: str, options: Options, *, allow_open_end: bool
                       ) -> CaseResult | None:
    sink = FindingSink(strict=options.strict)
    # The depth guard runs here, on each text the parser is given, not once on the whole file:
    # on a keystroke only the edited case is parsed, so only it is scanned.
    parsed = parse_text(case_text, sink)
    if not parsed.usable or parsed.error_open:
        # The parse's own error (a recovered tree's findings come after it): a case whose
        # string or bracket is still open at its very end may run on into the next one.
        reported = sink.findings if not parsed.usable else sink.findings[:1]
        end = parsed.lines.position(len(case_text.rstrip()))
        at_end = any(f.span.end >= end for f in reported)
        if at_end and not allow_open_end:
            return None
    if not parsed.usable:
        whole = parsed.lines.span(0, parsed.lines.line_end(0))
        return CaseResult(tuple(sink.findings), CaseSummary(None, whole, None), None, None, None)
    root = parsed.documents[0] if parsed.documents else None
    item = root.items[0] if isinstance(root, Sequence) and root.items else root
    if item is None:  # pragma: no cover - a segment always holds one item
        item = Scalar("tag:yaml.org,2002:null", 0, 0, "", "")
    budget = Budget(max(100_000, len(case_text)))
    summary, reference = analyze_case(parsed, item, budget, options, sink)
    id_node = item.get("id") if isinstance(item, Mapping) else None
    id_text = id_node.text if isinstance(id_node, Scalar) and id_node.text else None
    return CaseResult(tuple(sink.findings), summary, reference, id_text,
                      parsed.span(id_node) if id_text and id_node else None)


def analyze_case(
    parsed: ParsedText, case: Node, budget: Budget, options: Options, sink: FindingSink
) -> tuple[CaseSummary, Reference | None]:
    id_node = case.get("id") if isinstance(case, Mapping) else None
    case_id = id_node.text if isinstance(id_node, Scalar) and id_node.text else None
    label = f"case '{case_id}'" if case_id else "this case"

    def describe(path: Path) -> str:
        return label if path == () else f"'{path[-1]}' of {label}"

    def skip(error: object, path: Path) -> bool:
        return path == ("rubric_ref",) and getattr(error, "validator", "") == "pattern"

    try:
        value = to_python(case, budget)
    except ExpansionLimit as limit:
        _expansion_finding(parsed, limit.node, sink)
        return CaseSummary(case_id, parsed.span(case), None), None
    reporter = SchemaReporter(FileKind.DATASET, parsed.lines, sink, describe=describe, skip=skip)
    span = parsed.span(case)
    if isinstance(case, Mapping):
        reporter.open_typos(case, case_keys(options), where=label)
        expected = case.get("expected")
        if isinstance(expected, Mapping):
            expected_schema = subschema(FileKind.DATASET, "/$defs/case/properties/expected")
            reporter.open_typos(expected, expected_schema.get("properties", {}),
                                where=f"'expected' of {label}", path=("expected",))
    reporter.run(validator_for(FileKind.DATASET, "/$defs/case", value), value, case,
                 precheck=precheck(FileKind.DATASET, "/$defs/case"))
    if not isinstance(case, Mapping):
        return CaseSummary(None, span, None), None
    bundle, bundle_span = _check_bundle(case, parsed, options, sink)
    for bundle_name, bundle_schema in options.bundles.items():
        if bundle_name == bundle:
            from jsonschema import Draft202012Validator

            SchemaReporter(FileKind.DATASET, parsed.lines, sink, describe=describe).run(
                Draft202012Validator(bundle_schema), value, case)
    references: list[Reference] = []
    collect_reference(case, "rubric_ref", target=FileKind.RUBRIC, origin="case",
                      owner=case_id or "?", parsed=parsed, sink=sink, out=references)
    return (
        CaseSummary(case_id, span, parsed.span(id_node) if case_id and id_node else None,
                    bundle, bundle_span),
        references[0] if references else None,
    )


def _check_bundle(case: Mapping, parsed: ParsedText, options: Options, sink: FindingSink
                  ) -> tuple[str | None, Span | None]:
    node = case.get("bundle")
    if not isinstance(node, Scalar) or not node.text:
        return None, None
    span = parsed.span(node)
    if options.bundles_configured and node.text not in options.bundles:
        known = sorted(options.bundles)
        hint = did_you_mean(node.text, known) or (
            f"; configured bundles: {', '.join(known)}" if known else "")
        sink.add("EY309", f"unknown bundle '{node.text}'{hint}", span)
    return node.text, span


def analyze_dataset_root(parsed: ParsedText, root: Mapping, options: Options, sink: FindingSink,
                         *, questions_is_list: bool) -> None:
    """The root without its cases: each case is checked (and its aliases expanded) on its own,
    so one case's alias bomb cannot hide the others."""
    budget = Budget(max(100_000, len(parsed.text)))
    value: dict[str, PyValue] = {}
    for key, node in root.pairs:
        if isinstance(key, Scalar) and key.text == "questions" and questions_is_list:
            value.setdefault("questions", [])
        elif isinstance(key, Scalar) and key.tag == MERGE_TAG:
            merged = to_python(node, budget)
            for merged_map in merged if isinstance(merged, list) else [merged]:
                if isinstance(merged_map, dict):
                    for mk, mv in merged_map.items():
                        value.setdefault(mk, mv)
        else:
            name = key.text if isinstance(key, Scalar) else str(key.start)
            if name not in value or isinstance(key, Scalar):
                value.setdefault(name, to_python(node, budget))

    def describe(path: Path) -> str:
        return "the dataset" if path == () else f"'{path[-1]}'"

    reporter = SchemaReporter(FileKind.DATASET, parsed.lines, sink, describe=describe)
    reporter.open_typos(root, schema(FileKind.DATASET)["properties"], where="the dataset")
    reporter.run(partial(validator, FileKind.DATASET), value, root,
                 precheck=skeleton_precheck() if questions_is_list else None)


def _duplicate_ids(ids: list[tuple[str | None, Span | None]], options: Options) -> list[Finding]:
    sink = FindingSink(strict=options.strict)
    first: dict[str, Span] = {}
    for case_id, span in ids:
        if case_id is None or span is None:
            continue
        earlier = first.setdefault(case_id, span)
        if earlier is span:
            continue
        sink.add(
            "EY210",
            f"case id '{case_id}' is already used on line {earlier.start.line + 1}; case ids must "
            "be unique within a dataset",
            span,
            related=(Related(None, earlier, f"first case '{case_id}'"),),
        )
    return sink.findings


def analyze_dataset_whole(parsed: ParsedText, root: Mapping, options: Options,
                          sink: FindingSink) -> tuple[list[CaseSummary], list[Reference]]:
    """The fallback for datasets that cannot be split: the same checks on one parsed tree."""
    questions = root.get("questions")
    analyze_dataset_root(parsed, root, options, sink,
                         questions_is_list=isinstance(questions, Sequence))
    cases: list[CaseSummary] = []
    references: list[Reference] = []
    ids: list[tuple[str | None, Span | None]] = []
    if isinstance(questions, Sequence):
        for item in questions.items:
            # A budget per case, in proportion to its text: one case's alias bomb stops there.
            budget = Budget(max(10_000, 4 * (item.end - item.start)))
            summary, reference = analyze_case(parsed, item, budget, options, sink)
            cases.append(summary)
            ids.append((summary.id, summary.id_span))
            if reference is not None:
                references.append(reference)
    sink.findings.extend(_duplicate_ids(ids, options))
    return cases, references


def _expansion_finding(parsed: ParsedText, node: Node, sink: FindingSink) -> None:
    line = parsed.lines.position(node.start).line
    sink.add("EY104", "aliases here expand to more nodes than evalyaml allows (an alias bomb?); "
             "the rest of this value is not checked",
             parsed.lines.span(node.start, max(node.start, parsed.lines.line_end(line))))
