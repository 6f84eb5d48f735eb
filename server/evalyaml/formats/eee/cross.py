"""The facts between an aggregate and its samples file, read through the workspace's files.

- The aggregate: `detailed_evaluation_results.file_path` names `data/…` from the datastore root
  (the folder holding the aggregate's `data` folder; the aggregate's own folder when it has
  none). A missing file is an error on the path; `checksum` is recomputed over the file's bytes
  (streamed, with the declared `hash_algorithm`) and `total_rows` over its non-blank lines;
  each mismatch is on the value, with a fix writing the right one. An open editor buffer of the
  samples file is what is hashed, so typing in it re-checks the aggregate.
- The samples file: its aggregate is the one beside it (`<uuid4>.json` for
  `<uuid4>_samples.jsonl`); every row's `evaluation_id` must equal the aggregate's, and its
  `model_id` the aggregate's `model_info.id`, on the row's value with the aggregate's related.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Iterable
from pathlib import Path

from evalyaml.core.findings import Finding, FindingSink, Fix, Related, TextEdit
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.base import NamedFiles
from evalyaml.formats.eee import paths, semantic, versions
from evalyaml.formats.eee.aggregate import datastore_root
from evalyaml.formats.eee.kinds import AGGREGATE, SAMPLES
from evalyaml.syntax.text import Position, Span

MISSING_FILE, CHECKSUM, TOTAL_ROWS, EVALUATION_ID, MODEL_ID, COMPANION = (
    "EY720", "EY721", "EY722", "EY723", "EY724", "EY728")
_CHUNK = 1 << 20


def cross_check(path: Path, analysis: FileAnalysis, files: NamedFiles,
                options: Options) -> Iterable[Finding]:
    sink = FindingSink(strict=options.strict)
    _bom(path, analysis, files, sink)
    if analysis.kind is AGGREGATE:
        _aggregate(path, analysis, files, sink)
    elif analysis.kind is SAMPLES:
        _samples(path, analysis, files, sink)
    return sink.findings


def _bom(path: Path, analysis: FileAnalysis, files: NamedFiles, sink: FindingSink) -> None:
    stream = files.open_binary(path)
    if stream is None:
        return
    with stream:
        head = stream.read(3)
    semantic.bom(head, sink, samples=analysis.kind is SAMPLES)


def _companion(path: Path, analysis: FileAnalysis, files: NamedFiles, sink: FindingSink
               ) -> bool:
    """`check_companion_exists` for a datastore aggregate: a samples file beside it must be
    declared, and `file_path` must name exactly that file (same folder, same UUID). False when
    the aggregate names another file, which is then neither read nor hashed."""
    parts = paths.datastore_parts(str(path))
    if parts is None or not paths.AGGREGATE_NAME.match(path.name):
        return True  # outside the datastore, or a name EY726 reports
    facts = analysis.facts
    if versions.schema_for(AGGREGATE, facts.get("version")) is None:  # type: ignore[arg-type]
        # An unknown version is its EY700 and nothing else; in a file recovered around a
        # syntax error the version may be what was blanked, so nothing of it is checked.
        return not facts.get("recovered")
    sibling = path.with_name(path.stem + "_samples.jsonl")
    expected = "/".join(("data", *parts[:3], sibling.name))
    head = facts.get("head")
    if not facts.get("has_detailed"):
        if isinstance(head, Position) and not facts.get("recovered") and files.exists(sibling):
            sink.add(COMPANION, f"{sibling.name} sits beside this aggregate but "
                     "detailed_evaluation_results does not declare it; every_eval_ever "
                     "validate requires the declaration whenever the samples file exists",
                     Span(head, Position(head.line, head.character + 1)))
        return True
    named = facts.get("file_path")
    # A file_path off the schema's pattern is EY707's; one on it must be this very file.
    if isinstance(named, tuple) and paths.FILE_PATH.match(named[0].strip()) and \
            named[0].strip() != expected:
        where: Span = named[1]
        sink.add(COMPANION, f"file_path must be exactly '{expected}': an aggregate and its "
                 "samples file share one folder and one UUID (every_eval_ever validate)", where,
                 fixes=(Fix("Name this aggregate's own samples file",
                            (TextEdit(where, _json(expected)),), preferred=True),))
        return False
    return True


def _aggregate(path: Path, analysis: FileAnalysis, files: NamedFiles, sink: FindingSink) -> None:
    facts = analysis.facts
    if not _companion(path, analysis, files, sink):
        return
    named = facts.get("file_path")
    if not isinstance(named, tuple):
        return
    name, span = named
    target = files.resolve(Path(datastore_root(path)), name)
    if target is None:
        sink.add(MISSING_FILE, f"'{name}' leads outside the workspace; the samples file must "
                 "live in the datastore", span)
        return
    if not files.exists(target):
        sink.add(MISSING_FILE, f"no samples file at '{name}' (read from the datastore root, "
                 "the folder that holds data/); the aggregate vouches for rows nobody can read",
                 span)
        return
    algorithm = facts.get("hash_algorithm") or "sha256"
    digest, rows = _digest_and_rows(files, target, str(algorithm))
    if digest is None:
        return
    checksum = facts.get("checksum")
    if isinstance(checksum, tuple) and checksum[0].lower() != digest:
        where: Span = checksum[1]
        sink.add(CHECKSUM, f"checksum is not the {algorithm} of {target.name} as it is now "
                 f"({digest}); the samples file changed after the aggregate was written, or "
                 "the aggregate names another file", where,
                 fixes=(Fix("Write the samples file's checksum",
                            (TextEdit(where, f'"{digest}"'),), preferred=True),))
    total = facts.get("total_rows")
    if isinstance(total, tuple) and total[0] != rows:
        where = total[1]
        sink.add(TOTAL_ROWS, f"total_rows is {total[0]} but {target.name} has {rows} non-blank "
                 f"line{'s' if rows != 1 else ''}", where,
                 fixes=(Fix(f"Write {rows}", (TextEdit(where, str(rows)),), preferred=True),))


def _digest_and_rows(files: NamedFiles, target: Path, algorithm: str
                     ) -> tuple[str | None, int]:
    """The file's digest and its non-blank lines, streamed in bounded memory."""
    hasher = hashlib.md5() if algorithm == "md5" else hashlib.sha256()
    rows = 0
    filled = False  # the line being read holds something besides whitespace
    stream = files.open_binary(target)
    if stream is None:
        return None, 0
    with stream:
        while chunk := stream.read(_CHUNK):
            hasher.update(chunk)
            # CR, LF and CRLF end a line; the empty line inside a CRLF is blank, not a row.
            parts = chunk.replace(b"\r", b"\n").split(b"\n")
            last = len(parts) - 1
            for index, part in enumerate(parts):
                if not filled and part.strip():
                    filled = True
                if index < last:
                    rows += filled
                    filled = False
    rows += filled
    return hasher.hexdigest(), rows


def _samples(path: Path, analysis: FileAnalysis, files: NamedFiles, sink: FindingSink) -> None:
    name = path.name
    if not name.endswith("_samples.jsonl"):
        return
    aggregate_path = path.with_name(name[: -len("_samples.jsonl")] + ".json")
    if not files.exists(aggregate_path):
        first = analysis.facts.get("first")
        if isinstance(first, Span) and paths.datastore_parts(str(path)) is not None and \
                paths.SAMPLES_NAME.match(name):  # a name off the convention is EY726's
            sink.add(COMPANION, f"no aggregate {aggregate_path.name} beside this samples file; "
                     "every_eval_ever validate requires one that declares it", first)
        return
    aggregate = files.analysis(aggregate_path)
    if aggregate is None or aggregate.kind is not AGGREGATE:
        return
    for fact, table_name, code, what in (
            ("evaluation_id", "evaluation_ids", EVALUATION_ID, "evaluation_id"),
            ("model_id", "model_ids", MODEL_ID, "model_info.id")):
        expected = aggregate.facts.get(fact)
        table = analysis.facts.get(table_name)
        if not isinstance(expected, tuple) or not isinstance(table, dict):
            continue
        value, their_span = expected
        related = (Related(str(aggregate_path), their_span,
                           f"the aggregate's {what} is '{value}'"),)
        for found, places in table.items():
            if found == value or not isinstance(places, array):
                continue
            for index in range(0, len(places), 3):
                line, start, end = places[index], places[index + 1], places[index + 2]
                where = Span(Position(line, start), Position(line, end))
                sink.add(code, f"{fact} '{found}' is not the aggregate's {what} '{value}' "
                         f"({aggregate_path.name})", where, related=related,
                         fixes=(Fix(f"Change to '{value}'",
                                    (TextEdit(where, _json(value)),), preferred=True),))


def _json(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
