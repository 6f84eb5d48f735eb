"""A promptfoo file's analysis, loaded with the first promptfoo file analysed (not with the
registry in `__init__`, which discovery imports)."""

from __future__ import annotations

import os
import re
from pathlib import PurePath
from typing import TYPE_CHECKING

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.items import ItemState
from evalyaml.core.kinds import Kind
from evalyaml.core.model import CaseSummary, FileAnalysis, FileRef
from evalyaml.core.options import Options
from evalyaml.formats.promptfoo import scripts
from evalyaml.formats.promptfoo.bytest import (
    STATE,
    TESTS_STATE,
    analyze_config_by_test,
    analyze_tests_file_by_test,
)
from evalyaml.formats.promptfoo.common import Context
from evalyaml.formats.promptfoo.config import check_config
from evalyaml.formats.promptfoo.cross import FACTS
from evalyaml.formats.promptfoo.facts import ConfigFacts, Ref
from evalyaml.formats.promptfoo.kinds import CONFIG, PROMPT, SCRIPTS, TABLE, TESTS
from evalyaml.formats.promptfoo.paths import is_glob, suffix
from evalyaml.formats.promptfoo.table import check_table
from evalyaml.formats.promptfoo.templates import analyse, split_txt
from evalyaml.formats.promptfoo.tests import check_test
from evalyaml.syntax.json import TRAILING_COMMA, parse_json
from evalyaml.syntax.jsonl import parse_jsonl, require_objects
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.rowchecks import RowState
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence
from evalyaml.syntax.yaml.parse import parse_text

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper

_TEST_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")
_PROMPT_SUFFIXES = (".txt", ".md", ".j2")

KINDS: tuple[Kind, ...] = (CONFIG, TESTS, TABLE, PROMPT, SCRIPTS)


def analyze(text: str, path: str | None, kind: Kind | None, options: Options, *,
            forced: bool = False, cache: CaseCache | None = None,
            mapper: CaseMapper | None = None, whole: bool = False) -> FileAnalysis:
    """A YAML config or tests file test by test where it splits (`bytest`), a JSONL tests file
    row by row (`byrow`), unless `whole` (what those must equal, for the tests)."""
    if kind not in KINDS:
        kind = CONFIG
    if kind is SCRIPTS:
        return scripts.analyze(text, path)
    sink = FindingSink(strict=options.strict)
    result = FileAnalysis(path, kind)
    facts = ConfigFacts()
    cases: list[CaseSummary] | None = None  # when a path below has them ready
    lower = (path or "").lower()
    if kind is PROMPT:
        _prompt_file(text, lower, sink)
    elif kind is TABLE:
        from evalyaml.formats.promptfoo.tablerows import STATE as RECORDS
        from evalyaml.formats.promptfoo.tablerows import table_by_record
        records = None if whole else table_by_record(
            text, sink.strict, cache.format_state(RECORDS, RowState) if cache is not None
            else None)
        if records is None:
            check_table(text, sink)
        else:
            sink.findings.extend(records)
    elif kind is TESTS and lower.endswith(".jsonl") and not whole:
        from evalyaml.formats.promptfoo.byrow import tests_jsonl
        cases = tests_jsonl(text, sink, facts, cache)
    elif kind is TESTS and lower.endswith(".json") and not whole and (
            json_cases := _tests_json(text, sink, facts, cache)) is not None:
        cases = json_cases
    elif kind is TESTS and not whole and not lower.endswith((".json", ".jsonl")) and \
            (tests := analyze_tests_file_by_test(text, options, cache.format_state(
                TESTS_STATE, ItemState) if cache is not None else None)) is not None:
        sink.findings.extend(tests[0])
        facts, cases = tests[1], tests[2]
    elif kind is TESTS and lower.endswith(".jsonl"):
        doc = parse_jsonl(text, sink)
        require_objects(doc, sink, code="EY200", what="each line of a promptfoo tests file")
        parsed = ParsedText(text, doc.lines, [], ok=True)
        for index, row in enumerate(doc.rows):
            if isinstance(row.root, Mapping):
                check_test(Context(parsed, sink, row.start_offset, external=True), row.root,
                           facts, index)
    elif kind is CONFIG and not whole and \
            (by_test := _config_by_test(text, lower.endswith(".json"), options, cache)) \
            is not None:
        findings, facts, cases = by_test
        _record(result, facts, path, kind, options, cases=cases)
        result.findings = _as_read(list(dict.fromkeys(findings)), kind, lower)
        return result
    else:
        parsed = parse_json(text, sink) if lower.endswith(".json") else \
            parse_text(text, sink)
        if len(parsed.documents) > 1:
            _several_documents(parsed, sink)
        if parsed.usable:
            facts.recovered = not parsed.ok
            facts.blanked = tuple(hole.key for hole in parsed.holes)
            root = parsed.documents[0] if parsed.documents else None
            if kind is TESTS:
                _tests_file(Context(parsed, sink, external=True), root, facts)
            else:
                check_config(Context(parsed, sink), root, facts)
    _record(result, facts, path, kind, options, cases=cases)
    result.findings = _as_read(list(dict.fromkeys(sink.findings)), kind, lower)
    return result


def _as_read(findings: list[Finding], kind: Kind, lower: str) -> list[Finding]:
    """A JSON config without the strict reader's trailing-comma findings: promptfoo's
    `readConfig` loads `.json` configs with js-yaml (`loadYaml`), whose flow collections take a
    comma after the last item, so `["echo",]` runs (`promptfoo validate` says it is valid)."""
    if kind is not CONFIG or not lower.endswith(".json"):
        return findings
    return [finding for finding in findings if finding.code != TRAILING_COMMA]


_DOCUMENT_START = re.compile(r"^---(?=[ \t\r\n]|$)", re.MULTILINE)


def _several_documents(parsed: ParsedText, sink: FindingSink) -> None:
    """A second YAML document (after `---`): promptfoo's `loadYaml` (js-yaml `loadAll`) refuses
    the whole file, config or tests file alike, before anything in it is read."""
    first, second = parsed.documents[0], parsed.documents[1]
    limit = second.start if second is not None else len(parsed.text)
    begin = first.end if first is not None else 0
    markers = [m for m in _DOCUMENT_START.finditer(parsed.text, begin) if m.start() <= limit]
    span = parsed.lines.span(markers[0].start(), markers[0].end()) if markers else \
        parsed.lines.span(limit, limit)
    sink.add("EY101", "a second YAML document starts here: promptfoo reads one document per file "
             "and refuses it (\"expected a single document in the stream, but found more\"); "
             "move what follows this '---' to its own file, or delete the '---'", span)


def _tests_json(text: str, sink: FindingSink, facts: ConfigFacts, cache: CaseCache | None
                ) -> list[CaseSummary] | None:
    from evalyaml.formats.promptfoo.byrow import tests_json
    return tests_json(text, sink, facts, cache)


def _config_by_test(text: str, is_json: bool, options: Options, cache: CaseCache | None
                    ) -> tuple[list[Finding], ConfigFacts, list[CaseSummary]] | None:
    """A config test by test (`bytest`; JSON: `jsonconfig`), its state kept in the document's
    cache. A JSON config without a cache (the command line) is read whole: one parse and one
    pass cost less than the parse, the cut and each test placed."""
    if is_json and cache is None:
        return None
    if is_json:
        from evalyaml.formats.promptfoo.jsonconfig import STATE as JSON_STATE
        from evalyaml.formats.promptfoo.jsonconfig import analyze_json_config_by_test
        state = cache.format_state(JSON_STATE, ItemState) if cache is not None else None
        return analyze_json_config_by_test(text, options, state)
    state = cache.format_state(STATE, ItemState) if cache is not None else None
    return analyze_config_by_test(text, options, state)


def _prompt_file(text: str, lower: str, sink: FindingSink) -> None:
    """A prompt file's template syntax; a `.txt` file is one template per `---` segment
    (`processTxtFile`), each rendered on its own."""
    lines = LineIndex(text)
    pieces = split_txt(text) if lower.endswith(".txt") else [(0, text)]
    for offset, body in pieces:
        _, problems = analyse(body)
        for problem in problems:
            sink.add("EYPF013", problem.message,
                     lines.span(offset + problem.start, offset + problem.end))


def _tests_file(ctx: Context, root: Node | None, facts: ConfigFacts) -> None:
    if isinstance(root, Sequence):
        for index, item in enumerate(root.items):
            check_test(ctx, item, facts, index)
    elif isinstance(root, Mapping):
        check_test(ctx, root, facts, 0)
    elif root is not None and not (isinstance(root, Scalar) and root.value is None):
        ctx.add("EYPF018", "a tests file must hold a list of tests (or one test)",
                ctx.span(root))


def _record(result: FileAnalysis, facts: ConfigFacts, path: str | None, kind: Kind,
            options: Options, *, cases: list[CaseSummary] | None = None) -> None:
    """`cases`: `facts.cases` as summaries, when the caller has them (item by item)."""
    result.facts[FACTS] = facts
    result.cases = cases if cases is not None else \
        [CaseSummary(name, span, name_span) for name, span, name_span in facts.cases]
    if path is None:
        return
    folder = PurePath(path).parent
    # In a tests file, paths other than `vars` files resolve from the config's folder, which
    # the file does not know: its folder and those above it stand in (navigation only).
    bases = [folder] if kind is CONFIG else _ancestors(folder, options.root)
    for ref in facts.refs:
        if is_glob(ref.name):
            # The files a config's glob matches are adopted (never linked: no one file).
            adopted = _adopted_kind(ref) if kind is CONFIG and not ref.from_holder else None
            if adopted is not None:
                result.file_refs.append(FileRef(ref.span, (os.path.normpath(folder / ref.name),),
                                                adopted, glob=True))
            continue
        candidates = (os.path.normpath(folder / ref.name),) if ref.from_holder else \
            tuple(dict.fromkeys(os.path.normpath(base / ref.name) for base in bases))
        result.file_refs.append(FileRef(ref.span, candidates,
                                        _adopted_kind(ref) if kind is CONFIG else None))


def _ancestors(folder: PurePath, root: str | None) -> list[PurePath]:
    out = [folder]
    if root is None:
        return out
    stop = PurePath(root)
    current = folder
    while current != stop and stop in current.parents:
        current = current.parent
        out.append(current)
    return out


def _adopted_kind(ref: Ref) -> Kind | None:
    ext = suffix(ref.name)
    if ref.role in ("prompt", "bare-prompt") and ext in _PROMPT_SUFFIXES:
        return PROMPT
    if ref.role == "tests" and ext == ".csv":
        return TABLE
    if ref.role == "tests" and ext in _TEST_SUFFIXES:
        return TESTS
    return None
