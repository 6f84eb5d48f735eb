"""A samples file: each non-blank line one instance-level record, checked on its own.

Each line is parsed and checked from its text alone (positions on line 0), through the
document's `LineCache` in the editor, so an edit to a 100,000-row file re-checks the lines it
changed and moves the others' results. Nothing of a row's tree is kept: a line's result is its
findings and the few facts the file needs (`RowFacts`), so memory grows with the findings, not
with the rows' content.

Each row is checked against the schema of the `schema_version` it declares. A version we do not
know is said once per file and version (on its first row), not once per row.
"""

from __future__ import annotations

import functools
import gc
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from evalyaml.core.findings import Finding, FindingSink, Fix, TextEdit
from evalyaml.core.model import CaseSummary
from evalyaml.formats.eee import fastpath, hashes, spread, versions
from evalyaml.formats.eee.kinds import SAMPLES
from evalyaml.formats.eee.schemacheck import SchemaCheck, json_type
from evalyaml.syntax.bytelines import byte_lines
from evalyaml.syntax.json import read_json
from evalyaml.syntax.lines import LineCache, LineResult, split_lines
from evalyaml.syntax.text import Position, Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

UNKNOWN_VERSION, NOT_OBJECT, NO_ROWS, SAMPLE_HASH, TOO_LONG = (
    "EY700", "EY710", "EY711", "EY725", "EY712")
RENAMED = {"interactions": "messages"}  # 0.2.1 renamed the multi-turn transcript


@dataclass(frozen=True, slots=True)
class RowFacts:
    """What one row tells the file: its id and the values the aggregate must agree with,
    with their columns on the row's line."""

    sample_id: str | None
    id_cols: tuple[int, int] | None
    evaluation_id: str | None
    evaluation_cols: tuple[int, int]
    model_id: str | None
    model_cols: tuple[int, int]
    end: int  # the row's length, for its symbol
    unknown_version: str | None  # the version this row declares when we do not know it


def _place(node: Node) -> Span:
    return Span(Position(0, node.start), Position(0, node.end))


_PREDICATES: dict[str, fastpath.Predicate] = {}


def _predicate(version: str) -> fastpath.Predicate | None:
    found = _PREDICATES.get(version)
    if found is None:
        schema = versions.schema_for(SAMPLES, version)
        if schema is None:
            return None
        found = _PREDICATES[version] = fastpath.compile_valid(
            schema, {} if version == "0.2.0" else RENAMED)
    return found


def _fast(text: str) -> LineResult[RowFacts] | None:
    """A valid row's facts without a tree (see `fastpath`); None: take the slow way."""
    value = fastpath.load(text)
    if not isinstance(value, dict):
        return None
    version = value.get("schema_version")
    check = _predicate(version) if isinstance(version, str) else None
    if check is None or not check(value) or not _hash_ok(value):
        return None
    sample, evaluation, model = (value.get("sample_id"), value.get("evaluation_id"),
                                 value.get("model_id"))
    places = []
    for key, found in (("sample_id", sample), ("evaluation_id", evaluation),
                       ("model_id", model)):
        where = fastpath.value_columns(text, key, found)
        if where is None:
            return None
        places.append(where)
    return LineResult((), RowFacts(
        text[places[0][0]:places[0][1]].strip('"') if isinstance(sample, (str, int)) else None,
        places[0], evaluation, places[1], model, places[2], len(text), None))


def _hash_ok(value: dict[str, object]) -> bool:
    given = value.get("sample_hash")
    if given is None:
        return True
    inputs = value.get("input")
    if not isinstance(given, str) or not isinstance(inputs, dict):
        return False
    raw, ref = inputs.get("raw"), inputs.get("reference")
    if not isinstance(raw, str) or not (isinstance(ref, str) or (
            isinstance(ref, list) and all(isinstance(r, str) for r in ref))):
        return False
    return hashes.matches_a_recipe(given, raw, ref)


def check_row(text: str, *, strict: bool) -> LineResult[RowFacts]:
    fast = _fast(text)
    if fast is not None:
        return fast
    sink = FindingSink(strict=strict)
    root = read_json(text, sink)
    facts = RowFacts(None, None, None, (0, 0), None, (0, 0), len(text), None)
    if root is None:
        return LineResult(tuple(sink.findings), facts)
    if not isinstance(root, Mapping):
        sink.add(NOT_OBJECT, f"each line of a samples file must be a JSON object (one "
                 f"instance-level record); this one is {_a(json_type(root))}", _place(root))
        return LineResult(tuple(sink.findings), facts)
    version_node = root.get("schema_version")
    version = version_node.text if isinstance(version_node, Scalar) and version_node.style \
        else None
    schema = versions.schema_for(SAMPLES, version)
    unknown: str | None = None
    if schema is not None:
        renamed = {} if version == "0.2.0" else RENAMED
        SchemaCheck(schema, sink, _place, what="a sample", renamed=renamed).check(root)
        _sample_hash(root, sink)
    elif version is not None:
        unknown = version
        sink.add(UNKNOWN_VERSION, f"schema_version '{version}' is not one evalyaml knows for "
                 f"samples files ({', '.join(versions.SAMPLES_VERSIONS)}); the rows are not "
                 "checked against a schema", _place(version_node) if version_node else
                 _place(root))
    else:
        SchemaCheck(versions.newest(SAMPLES), sink, _place, what="a sample").check(root)
    sample = root.get("sample_id")
    evaluation = root.get("evaluation_id")
    model = root.get("model_id")
    facts = RowFacts(
        _text(sample), (sample.start, sample.end) if sample is not None else None,
        _string(evaluation), _cols(evaluation), _string(model), _cols(model), len(text), unknown)
    return LineResult(tuple(sink.findings), facts)


def _a(kind: str) -> str:
    return kind if kind == "null" else ("an " if kind[0] in "aeiou" else "a ") + kind


def _text(node: Node | None) -> str | None:
    return node.text if isinstance(node, Scalar) else None


def _string(node: Node | None) -> str | None:
    return node.text if isinstance(node, Scalar) and node.style else None


def _cols(node: Node | None) -> tuple[int, int]:
    return (node.start, node.end) if node is not None else (0, 0)


def _sample_hash(root: Mapping, sink: FindingSink) -> None:
    node = root.get("sample_hash")
    given = node.text if isinstance(node, Scalar) and node.style else None
    inputs = root.get("input")
    if given is None or node is None or not isinstance(inputs, Mapping):
        return
    raw, ref = inputs.get("raw"), inputs.get("reference")
    if not (isinstance(raw, Scalar) and raw.style):
        return
    reference: str | list[str]
    if isinstance(ref, Scalar) and ref.style:
        reference = ref.text
    elif isinstance(ref, Sequence) and all(isinstance(i, Scalar) and i.style for i in ref.items):
        reference = [i.text for i in ref.items if isinstance(i, Scalar)]
    else:
        return
    if hashes.matches_a_recipe(given, raw.text, reference):
        return
    right = hashes.canonical(raw.text, reference)
    span = _place(node)
    sink.add(SAMPLE_HASH, f"sample_hash matches no recipe Every Eval Ever's converters use "
             f"over input.raw and input.reference; the canonical one ({hashes.CANONICAL}) "
             f"gives {right}", span,
             fixes=(Fix("Write the canonical sample_hash", (TextEdit(span, f'"{right}"'),),
                        preferred=True),))


@dataclass(slots=True)
class SamplesResult:
    findings: list[Finding]
    cases: list[CaseSummary]
    rows: int
    evaluation_ids: dict[str, array[int]]  # value -> line, start, end, line, start, end, ...
    model_ids: dict[str, array[int]]
    first_row: int | None
    unknown: bool = False  # a row declares a version we do not know (said once per file)


class _Collect:
    """Rows' results, in order, into one file's findings and facts."""

    def __init__(self, strict: bool, *, keep_cases: bool,
                 known: dict[int, tuple[RowFacts, CaseSummary]] | None = None,
                 memo: dict[int, tuple[RowFacts, CaseSummary]] | None = None) -> None:
        self.strict = strict
        self.keep_cases = keep_cases
        # line -> (its row's facts, its case) of the last analysis of this document (`known`)
        # and of this one (`memo`): the line cache hands back the same facts for the same
        # text, so a row that did not move keeps its case (building the spans of 100,000 rows
        # was most of an edit's cost)
        self.known = known
        self.memo = memo
        self.result = SamplesResult([], [], 0, {}, {}, None)
        self._said_versions: set[str] = set()

    def unchecked(self, findings: list[Finding]) -> None:
        """A row that could not be read (too long, not UTF-8): its one finding."""
        self.result.findings.extend(findings)
        self.result.rows += 1

    def add(self, line: int, text: str, result: LineResult[RowFacts]) -> None:
        out = self.result
        facts = result.facts
        if out.first_row is None:
            out.first_row = line
        out.rows += 1
        if facts.unknown_version is not None:
            out.unknown = True
        if result.findings:
            unknown = facts.unknown_version
            if unknown is None or unknown not in self._said_versions:
                out.findings.extend(f.shifted(line) for f in result.findings)
            if unknown is not None:
                self._said_versions.add(unknown)
        if line and text.startswith("\ufeff"):
            out.findings.extend(_stray_bom(line, self.strict))
        if self.keep_cases:
            known = self.known.get(line) if self.known is not None else None
            if known is not None and known[0] is facts:
                case = known[1]
            else:
                cols = facts.id_cols
                case = CaseSummary(facts.sample_id, Span.on_line(line, 0, facts.end),
                                   Span.on_line(line, cols[0], cols[1]) if cols else None)
            out.cases.append(case)
            if self.memo is not None:
                self.memo[line] = (facts, case)
        _remember(out.evaluation_ids, facts.evaluation_id, line, facts.evaluation_cols)
        _remember(out.model_ids, facts.model_id, line, facts.model_cols)


@dataclass(slots=True)
class EditState:
    """A samples document's last analysis in the editor, kept between edits: the hash of each
    line, and each row's facts and case by line (exactly the rows of that analysis). An edit
    that changes a few rows in place, none of them blank before or after and none of their ids
    or id columns, copies the rest of the last result instead of walking every row again."""

    hashes: array[int] | None = None
    result: SamplesResult | None = None
    strict: bool = False
    rows: dict[int, tuple[RowFacts, CaseSummary]] = field(default_factory=dict)
    in_place: int = 0  # analyses that took the short way (tests read it)


_IN_PLACE_MAX = 64
"""More changed lines than this (a paste, a replace-all) take the whole walk."""


def check_samples(text: str, *, strict: bool, cache: LineCache[RowFacts] | None,
                  state: EditState | None = None) -> SamplesResult:
    """`state`: the document's, in the editor (see `EditState`)."""
    lines = split_lines(text)
    hashes = array("q", map(hash, lines)) if state is not None else None

    def row(line: str) -> LineResult[RowFacts]:
        return cache.get(("eee-row", strict), line, _checker(strict)) if cache is not None \
            else check_row(line, strict=strict)

    if state is not None and hashes is not None:
        quick = _in_place(lines, hashes, strict, state, row)
        if quick is not None:
            state.hashes, state.result = hashes, quick
            state.in_place += 1
            return quick
    memo: dict[int, tuple[RowFacts, CaseSummary]] | None = {} if state is not None else None
    collect = _Collect(strict, keep_cases=True, known=state.rows if state else None, memo=memo)
    for number, line in enumerate(lines):
        if line.strip(_BLANK):
            collect.add(number, line, row(line))
    if state is not None and memo is not None:
        state.hashes, state.result, state.strict, state.rows = \
            hashes, collect.result, strict, memo
    return collect.result


_BLANK = " \t"


def _checker(strict: bool) -> Callable[[str], LineResult[RowFacts]]:
    return lambda line: check_row(line, strict=strict)


def _in_place(lines: list[str], hashes: array[int], strict: bool, state: EditState,
              row: Callable[[str], LineResult[RowFacts]]) -> SamplesResult | None:
    before, old = state.result, state.hashes
    if before is None or old is None or before.unknown or state.strict != strict \
            or len(old) != len(hashes):
        return None
    if old == hashes:
        return before
    changed: list[int] = []
    for number, (was, now) in enumerate(zip(old, hashes, strict=True)):
        if was != now:
            changed.append(number)
            if len(changed) > _IN_PLACE_MAX:
                return None
    results: list[LineResult[RowFacts]] = []
    for number in changed:
        kept = state.rows.get(number)
        if kept is None or not lines[number].strip(_BLANK):
            return None  # a blank line before or after: the rows and first row change
        result = row(lines[number])
        prior, facts = kept[0], result.facts
        if facts.unknown_version is not None or (
                prior.evaluation_id, prior.evaluation_cols, prior.model_id,
                prior.model_cols) != (facts.evaluation_id, facts.evaluation_cols,
                                      facts.model_id, facts.model_cols):
            return None  # the id tables change: walk them again
        results.append(result)
    collect = _Collect(strict, keep_cases=True, memo=state.rows)
    for number, result in zip(changed, results, strict=True):
        collect.add(number, lines[number], result)
    gone = set(changed)
    findings = [f for f in before.findings if f.span.start.line not in gone]
    findings.extend(collect.result.findings)
    findings.sort(key=lambda f: f.span.start.line)  # stable: each row's own order kept
    cases = list(before.cases)
    for number, case in zip(changed, collect.result.cases, strict=True):
        index = bisect_left(cases, number, key=lambda c: c.span.start.line)
        cases[index] = case
    return SamplesResult(findings, cases, before.rows, before.evaluation_ids,
                         before.model_ids, before.first_row)


MAX_LINE = 16 * 1024 * 1024
"""A streamed row longer than this is said to be too long, not read whole (a hostile 1 GB line
costs a read, never its size in memory)."""


def check_stream(stream: BinaryIO, *, strict: bool, max_line: int = MAX_LINE) -> SamplesResult:
    """A samples file too large to hold as text (the CLI, the index), row by row from `stream`
    in bounded memory: one line at a time, no symbols kept. Lines break at LF, CRLF and CR, as
    in the editor. Where forking is safe (the CLI) batches of rows are checked on every core
    (`spread`); the result is the same."""
    count = spread.workers()
    if count > 1:
        try:
            return _check_spread(stream, strict, max_line, count)
        except (OSError, RuntimeError):  # BrokenProcessPool is a RuntimeError
            stream.seek(0)  # no processes here (sandbox, frozen app...): do it ourselves
    collect = _Collect(strict, keep_cases=False)
    for number, text, findings in _events(stream, strict, max_line):
        if text is None:
            collect.unchecked(findings)
        else:
            collect.add(number, text, check_row(text, strict=strict))
    return collect.result


def check_rows(texts: list[str], strict: bool) -> list[LineResult[RowFacts]]:
    """A batch of rows, for a worker (module level, so a forked process finds it by name)."""
    collecting = gc.isenabled()
    gc.disable()  # the batch only builds results: the collector would rescan them for nothing
    try:
        return [check_row(text, strict=strict) for text in texts]
    finally:
        if collecting:
            gc.enable()


def _check_spread(stream: BinaryIO, strict: bool, max_line: int, count: int) -> SamplesResult:
    collect = _Collect(strict, keep_cases=False)
    held: list[list[tuple[int, str | None, list[Finding]]]] = []

    def batches() -> Iterator[list[str]]:
        batch: list[tuple[int, str | None, list[Finding]]] = []
        rows = 0
        for event in _events(stream, strict, max_line):
            batch.append(event)
            rows += event[1] is not None
            if rows >= spread.BATCH_ROWS:
                held.append(batch)
                yield [text for _, text, _ in batch if text is not None]
                batch, rows = [], 0
        if batch:
            held.append(batch)
            yield [text for _, text, _ in batch if text is not None]

    for results in spread.map_in_order(functools.partial(check_rows, strict=strict), batches(),
                                       count):
        checked = iter(results)
        for number, text, findings in held.pop(0):
            if text is None:
                collect.unchecked(findings)
            else:
                collect.add(number, text, next(checked))
    return collect.result


def _events(stream: BinaryIO, strict: bool, max_line: int
            ) -> Iterator[tuple[int, str | None, list[Finding]]]:
    """(line number, the row's text, []) for each non-blank row, in order; (line number, None,
    its findings) for a line that cannot be checked (too long, not UTF-8)."""
    for number, raw, length in byte_lines(stream, max_line):
        if raw is None:
            sink = FindingSink(strict=strict)
            sink.add(TOO_LONG, f"this line is {length / (1024 * 1024):.0f} MB long, over the "
                     f"{max_line // (1024 * 1024)} MB a row may have; it is not checked",
                     Span(Position(number, 0), Position(number, 1)))
            yield number, None, sink.findings
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            sink = FindingSink(strict=strict)
            column = len(raw[:err.start].decode("utf-8", errors="replace"))
            sink.add("EY100", f"this line is not UTF-8 (byte 0x{raw[err.start]:02x} at byte "
                     f"{err.start} of the line)", Span(Position(number, column),
                                                       Position(number, column + 1)))
            yield number, None, sink.findings
            continue
        if text.strip(" \t"):
            yield number, text, []




def _stray_bom(line: int, strict: bool) -> Iterable[Finding]:
    sink = FindingSink(strict=strict)
    sink.add("EY110", "U+FEFF (a byte-order mark) is not whitespace in JSON and belongs only at "
             "the start of a file; remove it", Span(Position(line, 0), Position(line, 1)))
    return sink.findings


def _remember(table: dict[str, array[int]], value: str | None, line: int,
              cols: tuple[int, int]) -> None:
    if value is None:
        return
    found = table.get(value)
    if found is None:
        found = table[value] = array("q")
    found.extend((line, cols[0], cols[1]))
