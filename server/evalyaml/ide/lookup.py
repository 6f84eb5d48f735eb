"""What is under the cursor, for hover and navigation: a reference, a definition's id, a key or
a value, read from the current text (never from a parse of an older version); and the kind of
the file being edited, even while it does not parse."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from evalyaml.core.kinds import FormatKind, Kind
from evalyaml.core.model import Definition, FileAnalysis, Reference
from evalyaml.formats import FORMATS, candidates, claim, format_of
from evalyaml.formats.base import FormatIde, Refusal
from evalyaml.ide.context import Context, Reader
from evalyaml.ide.source import Source
from evalyaml.syntax.text import Position, Span


@cache
def reference_keys() -> dict[str, Kind]:
    """Keys whose value names another file by id, wherever written (`FormatIde.reference_keys`)."""
    return {key: kind for fmt in FORMATS for key, kind in fmt.ide.reference_keys.items()}


@cache
def _reference_ides() -> dict[str, FormatIde]:
    return {key: fmt.ide for fmt in FORMATS for key in fmt.ide.reference_keys}

@cache
def _shapes() -> tuple[tuple[re.Pattern[str], Kind], ...]:
    return tuple(shape for fmt in FORMATS for shape in fmt.ide.shapes)


@dataclass(frozen=True, slots=True)
class RefAt:
    """A reference at the cursor: the parsed reference and where its id is written."""

    reference: Reference
    id_span: Span | None  # the `<id>` part, for rename


def context(doc: Source, pos: Position) -> Context | None:
    return Reader(doc.lines, doc.outline).context(pos.line, pos.character)


def reference_at(doc: Source, pos: Position) -> RefAt | None:
    ctx = context(doc, pos)
    if ctx is None or not ctx.in_value or not ctx.path:
        return None
    key = ctx.path[-1]
    if not isinstance(key, str) or key not in reference_keys():
        return None
    target = reference_keys()[key]
    line = doc.lines.line_text(pos.line)
    raw = line[ctx.start_col:ctx.end_col]
    if not raw:
        return None
    span = Span(Position(pos.line, ctx.start_col), Position(pos.line, ctx.end_col))
    ide = _reference_ides().get(key)
    if ide is None or ide.read_reference is None:
        return None
    reference, id_span = ide.read_reference(raw, target, list(ctx.path), span)
    return RefAt(reference, id_span)


def analysed_reference_at(doc: Source, analysis: FileAnalysis | None, pos: Position
                          ) -> RefAt | None:
    """A reference of another format at the cursor, from the file's analysis: those formats'
    references may sit in JSON, which the YAML cursor cannot read. The reference's name must
    still be written where the analysis put it, so an analysis of an older text answers
    nothing rather than something about the wrong place."""
    for ref in analysis.references if analysis else ():
        if ref.target.qualified_refs or not ref.span.contains(pos):
            continue
        id_span = reference_id_span(ref)
        if id_span is None:
            return None
        line = doc.lines.line_text(id_span.start.line)
        if line[id_span.start.character:id_span.end.character] != _written(ref):
            return None
        return RefAt(ref, id_span)
    return None


def definition_at(analysis: FileAnalysis | None, pos: Position) -> Definition | None:
    """The rubric or judge whose `id` (or `version`) value is under the cursor."""
    if analysis is None:
        return None
    for definition in analysis.definitions:
        spans = [definition.id_span, definition.version_span]
        if any(s is not None and s.contains(pos) for s in spans):
            return definition
    return None


def id_inner_span(doc_text_line: str, span: Span, ident: str) -> Span:
    """The id's characters inside its value span (quotes left out)."""
    width = span.end.character - span.start.character
    if span.start.line == span.end.line and width == len(ident) + 2:
        return Span(Position(span.start.line, span.start.character + 1),
                    Position(span.end.line, span.end.character - 1))
    return span


def reference_id_span(ref: Reference) -> Span | None:
    """Where the `<id>` of a reference is written (single-line scalars only)."""
    span = ref.span
    if span.start.line != span.end.line or ref.id is None:
        return None
    width = span.end.character - span.start.character
    if width == len(ref.raw):
        start = span.start.character
    elif width == len(ref.raw) + 2:
        start = span.start.character + 1
    else:
        return None
    # The contract writes `kind/id@pin`; other formats' references are the name alone.
    slash = ref.raw.find("/") if ref.target.qualified_refs else -1
    if slash < 0 and ref.target.qualified_refs:
        return None
    begin = start + slash + 1
    return Span(Position(span.start.line, begin),
                Position(span.start.line, begin + len(_written(ref))))


def _written(ref: Reference) -> str:
    """The id as the file writes it. A kind named by path resolves the written path to the
    file's own (`FormatKind.named_by_path`): its id is that path, its text is `raw`."""
    if ref.target.named_by_path:
        return ref.raw
    assert ref.id is not None
    return ref.id


def relative(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            pass
    return path.name


def file_kind(doc: Source, analysed: Kind | None) -> Kind | None:
    """The kind of the document being edited, even while it does not parse: the last
    analysis's, else the formats' claim on its text, else a contract shape's first line. Only a
    kind with a schema, or whose format answers itself (`FormatIde.offers`/`hover`), has
    anything to complete. JSON and JSONL are read by the JSON cursor (`json_features`), YAML by
    indentation (`context`). Prose (a `.md` nothing adopts) has no kind: no format may claim it
    (`formats.PROSE_SUFFIXES`), and a fenced `checks:` line in it is not a rubric's."""
    if analysed is None and doc.path is not None and not candidates(str(doc.path)):
        return None
    found = analysed or _claimed_kind(doc)
    if found is not None:
        return found if found.schema_file is not None or _answers_itself(found) else None
    for pattern, kind in _shapes():
        if pattern.search(doc.text):
            return kind
    return None


def _answers_itself(kind: Kind) -> bool:
    if not isinstance(kind, FormatKind):
        return False
    ide = format_of(kind).ide
    return ide.offers is not None or ide.hover is not None


def _claimed_kind(doc: Source) -> Kind | None:
    verdict = claim(doc.text, str(doc.path) if doc.path else None, None)
    return verdict.kind if verdict is not None and not isinstance(verdict, Refusal) else None
