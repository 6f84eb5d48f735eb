"""An Apastra file's checks: its schema (`schemas`, `report`, `openkeys`), then ids, digests,
placeholders and cases (`rules`). Imported when the first Apastra file is analysed, so that
recognising files (`detect`) and starting the command line do not load jsonschema."""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING

from evalyaml.core.findings import FindingSink
from evalyaml.core.kinds import FormatKind, Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.apastra import detect, rules
from evalyaml.formats.apastra.context import Context, string_at
from evalyaml.formats.apastra.kinds import (
    CASES,
    DATASET,
    LINE_KINDS,
    PROMPT,
    QUICK_EVAL,
    SCHEMA_OF,
    SUITE,
)
from evalyaml.formats.apastra.validate import validate
from evalyaml.formats.base import Claim
from evalyaml.syntax.json import parse_json
from evalyaml.syntax.jsonl import RowTree, parse_jsonl
from evalyaml.syntax.lines import LineCache
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Mapping, Node, Sequence
from evalyaml.syntax.yaml.parse import parse_text

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache


def analyze(text: str, path: str | None, kind: Kind | None, options: Options,
            cache: CaseCache | None, *, whole: bool = False) -> FileAnalysis:
    """A JSONL file row by row (`byrow`), a YAML quick eval case by case (`quickcases`), unless
    `whole` (what those must equal)."""
    if not isinstance(kind, FormatKind) or kind not in SCHEMA_OF:
        claimed = detect.claim(text, path, options.root)
        kind = claimed.kind if isinstance(claimed, Claim) else PROMPT
    assert isinstance(kind, FormatKind)
    sink = FindingSink(strict=options.strict)
    result = FileAnalysis(path, kind)
    suffix = PurePath(path).suffix.lower() if path else ".yaml"
    if (kind in LINE_KINDS or suffix == ".jsonl") and not whole:
        from evalyaml.formats.apastra.byrow import analyze_rows_of
        analyze_rows_of(text, path, kind, sink, result=result, cache=cache)
    elif kind is QUICK_EVAL and not whole and (suffix != ".json" or cache is not None) and \
            (by_case := _quick_eval_by_case(text, path, options, cache,
                                            suffix == ".json")) is not None:
        return by_case
    elif kind in LINE_KINDS or suffix == ".jsonl":
        line_cache: LineCache[RowTree] | None = (
            cache.format_state("apastra-jsonl", LineCache) if cache is not None else None)
        _analyze_lines(text, path, kind, sink, result=result, cache=line_cache)
    else:
        parsed = parse_json(text, sink) if suffix == ".json" else parse_text(text, sink)
        if parsed.usable and parsed.documents and parsed.documents[0] is not None:
            ctx = Context(parsed.text, parsed.lines, sink)
            _analyze_document(ctx, parsed.documents[0], kind, result, path,
                              whole=parsed.ok, blanked=frozenset(
                                  n for h in parsed.holes
                                  for n in range(h.first_line, h.last_line + 1)))
    result.findings = list(dict.fromkeys(sink.findings))
    return result


def _quick_eval_by_case(text: str, path: str | None, options: Options,
                        cache: CaseCache | None, is_json: bool) -> FileAnalysis | None:
    """A JSON quick eval only with a cache (the command line reads it whole: one parse and one
    pass cost less than the parse, the cut and each case placed)."""
    from evalyaml.core.items import ItemState
    from evalyaml.formats.apastra.quickcases import STATE, analyze_quick_eval_by_case

    state = cache.format_state(STATE + ("-json" if is_json else ""), ItemState) \
        if cache is not None else None
    return analyze_quick_eval_by_case(text, path, options, state, is_json=is_json)


def _analyze_document(ctx: Context, root: Node, kind: FormatKind, result: FileAnalysis,
                      path: str | None, *, whole: bool = True,
                      blanked: frozenset[int] = frozenset()) -> None:
    """`whole` is False for a tree recovered around a syntax error (`syntax/recover.py`):
    what needs every line of the document (its self-digest, the lists the cross checks
    compare: metrics, variables, placeholders, thresholds against the suite's evaluators) is
    left out rather than computed on part of it; `blanked` are the lines recovery blanked."""
    flagged = validate(ctx, root, kind)
    if flagged is None:
        return
    rules.define(ctx, root, kind, result)
    rules.refer(ctx, root, kind, result)
    rules.check_digests(ctx, root, kind, flagged, path if whole else None)
    rules.check_templates(ctx, root, kind, result, blanked=blanked)
    if kind is QUICK_EVAL and isinstance(root, Mapping) and isinstance(root.get("cases"), Sequence):
        cases = root.get("cases")
        assert isinstance(cases, Sequence)
        rules.check_cases([(ctx, case) for case in cases.items], FileAnalysis(path, kind), None,
                          where="quick eval")
    if kind is DATASET and isinstance(root, Mapping):
        found = string_at(root, "digest")
        if found:
            value = found[1]
            result.facts["digest"] = (found[0], ctx.span(value), value.style)
    if kind is SUITE and isinstance(root, Mapping):
        thresholds = root.get("thresholds")
        if isinstance(thresholds, Mapping):
            result.facts["thresholds"] = [(k.text, ctx.span(k)) for k, _ in thresholds.pairs
                                          if hasattr(k, "text")]
        prompt = string_at(root, "prompt")
        if prompt:
            result.facts["prompt"] = prompt[0]
    if not whole:
        for partial in ("metrics", "variables", "placeholders", "thresholds"):
            result.facts.pop(partial, None)


def _analyze_lines(text: str, path: str | None, kind: FormatKind, sink: FindingSink, *,
                   result: FileAnalysis, cache: LineCache[RowTree] | None) -> None:
    doc = parse_jsonl(text, sink, cache=cache)
    lines: LineIndex = doc.lines
    rows: list[tuple[Context, Node]] = []
    for row in doc.rows:
        if row.root is None:
            continue
        ctx = Context(text, lines, sink, base=row.start_offset)
        flagged = validate(ctx, row.root, kind, root_name=f"line {row.number + 1}")
        if flagged is not None:
            rules.check_digests(ctx, row.root, kind, flagged, None)
        rows.append((ctx, row.root))
    if kind is CASES:
        rules.check_cases(rows, result, path)
