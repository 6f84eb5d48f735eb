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

from array import array
from collections.abc import Iterable
from dataclasses import dataclass

from evalyaml.analysis.findings import Finding, FindingSink, Fix, TextEdit
from evalyaml.analysis.model import CaseSummary
from evalyaml.analysis.text import Position, Span
from evalyaml.analysis.yamltree import Mapping, Node, Scalar, Sequence
from evalyaml.formats.eee import hashes, versions
from evalyaml.formats.eee.kinds import SAMPLES
from evalyaml.formats.eee.schemacheck import SchemaCheck, json_type
from evalyaml.syntax.json import read_json
from evalyaml.syntax.lines import LineCache, LineResult, analyze_lines

UNKNOWN_VERSION, NOT_OBJECT, NO_ROWS, SAMPLE_HASH = "EY700", "EY710", "EY711", "EY725"
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


def check_row(text: str, *, strict: bool) -> LineResult[RowFacts]:
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


def check_samples(text: str, *, strict: bool, cache: LineCache[RowFacts] | None
                  ) -> SamplesResult:
    placed = analyze_lines(text, lambda line: check_row(line, strict=strict), cache=cache,
                           context=("eee-row", strict))
    findings: list[Finding] = []
    cases: list[CaseSummary] = []
    evaluation_ids: dict[str, array[int]] = {}
    model_ids: dict[str, array[int]] = {}
    said_versions: set[str] = set()
    for row in placed:
        facts = row.result.facts
        line = row.line
        if row.result.findings:
            unknown = facts.unknown_version
            if unknown is None or unknown not in said_versions:
                findings.extend(row.findings())
            if unknown is not None:
                said_versions.add(unknown)
        if line and row.text.startswith("\ufeff"):
            findings.extend(_stray_bom(line, strict))
        id_span = Span(Position(line, facts.id_cols[0]), Position(line, facts.id_cols[1])) \
            if facts.id_cols else None
        cases.append(CaseSummary(facts.sample_id, Span(Position(line, 0),
                                                       Position(line, facts.end)), id_span))
        _remember(evaluation_ids, facts.evaluation_id, line, facts.evaluation_cols)
        _remember(model_ids, facts.model_id, line, facts.model_cols)
    first = placed[0].line if placed else None
    return SamplesResult(findings, cases, len(placed), evaluation_ids, model_ids, first)


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
