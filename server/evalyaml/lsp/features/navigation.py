"""Navigation: definition, references, document links, symbols, rename and code lens.

Locations in other files are read from the index (their analyses) and mapped to the client's
encoding with each file's own text; an open document's ranges come from the analysis of its
current version.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from evalyaml.analysis.kinds import FileKind, FormatKind, Kind
from evalyaml.analysis.model import Definition, FileAnalysis
from evalyaml.analysis.text import Position, Span
from evalyaml.ide import lookup
from evalyaml.lsp.documents import Document, path_to_uri
from evalyaml.lsp.positions import PositionMapper
from evalyaml.workspace.index import Workspace, normalize

MapperFor = Callable[[Path], PositionMapper]
UriFor = Callable[[Path], str]


@dataclass(slots=True)
class Nav:
    """The state navigation needs."""

    workspace: Workspace
    mapper_for: MapperFor
    uri_for: UriFor  # an open document's own uri, else a file uri
    version_for: Callable[[str], int | None]  # the open version of a uri, if open


def _location(nav: Nav, path: Path, span: Span) -> types.Location:
    return types.Location(nav.uri_for(path), nav.mapper_for(path).range(span))


def _reference(nav: Nav, doc: Document, analysis: FileAnalysis | None, pos: Position
               ) -> lookup.RefAt | None:
    """The reference at the cursor: read from the YAML text for the contract's, from the
    analysis for other formats' (the index's, when the handler has none of its own)."""
    found = lookup.reference_at(doc, pos)
    if found is not None:
        return found
    if analysis is None and doc.path is not None:
        analysis = nav.workspace.analysis(normalize(doc.path))
    return lookup.analysed_reference_at(doc, analysis, pos)


def _target(nav: Nav, doc: Document, analysis: FileAnalysis | None, pos: Position
            ) -> tuple[Path, Definition] | None:
    """The rubric or judge the cursor is about: a reference's target, or the definition whose
    id or version is under the cursor."""
    found = _reference(nav, doc, analysis, pos)
    if found is not None and found.reference.id is not None:
        resolution = nav.workspace.resolve(found.reference)
        if resolution.path is not None and resolution.definition is not None:
            return resolution.path, resolution.definition
        return None
    definition = lookup.definition_at(analysis, pos)
    if definition is not None and doc.path is not None:
        return normalize(doc.path), definition
    return None


def definition(nav: Nav, doc: Document, pos: Position) -> list[types.Location]:
    found = _reference(nav, doc, None, pos)
    if found is None or found.reference.id is None:
        return []
    resolution = nav.workspace.resolve(found.reference)
    if resolution.path is None or resolution.definition is None:
        return []
    return [_location(nav, resolution.path, resolution.definition.id_span)]


def references(nav: Nav, doc: Document, analysis: FileAnalysis | None, pos: Position,
               include_declaration: bool) -> list[types.Location]:
    target = _target(nav, doc, analysis, pos)
    if target is None:
        return []
    path, found = target
    out: list[types.Location] = []
    if include_declaration:
        out.append(_location(nav, path, found.id_span))
    for holder, ref in nav.workspace.references_to(path, found):
        out.append(_location(nav, holder, ref.span))
    return out


def document_links(nav: Nav, doc: Document, analysis: FileAnalysis | None,
                   mapper: PositionMapper, tooltips: bool = True) -> list[types.DocumentLink]:
    if analysis is None:
        return []
    links: list[types.DocumentLink] = []
    for ref in analysis.references:
        if ref.id is None:
            continue
        resolution = nav.workspace.resolve(ref)
        if resolution.path is None or resolution.definition is None:
            continue
        line = resolution.definition.id_span.start.line + 1
        links.append(types.DocumentLink(
            range=mapper.range(ref.span),
            target=f"{path_to_uri(resolution.path)}#L{line}",
            tooltip=f"Open {resolution.definition.key}" if tooltips else None,
        ))
    return links


def document_symbols(doc: Document, analysis: FileAnalysis | None, mapper: PositionMapper,
                     hierarchical: bool
                     ) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
    if analysis is None or analysis.kind is None:
        return []
    whole = Span(Position(0, 0), doc.lines.position(len(doc.text)))
    symbols: list[types.DocumentSymbol] = []
    if analysis.kind is FileKind.DATASET or isinstance(analysis.kind, FormatKind):
        for case in analysis.cases:
            symbols.append(types.DocumentSymbol(
                name=case.id or "(case without id)",
                kind=types.SymbolKind.Object,
                range=mapper.range(case.span),
                selection_range=mapper.range(case.id_span or case.span),
                detail=f"bundle {case.bundle}" if case.bundle else None,
            ))
    for found in analysis.definitions:
        children = [types.DocumentSymbol(
            name=check.kind,
            kind=types.SymbolKind.Method,
            range=mapper.range(check.span),
            selection_range=mapper.range(check.span),
            detail=check.id,
        ) for check in found.checks]
        symbols.append(types.DocumentSymbol(
            name=found.key,
            kind=types.SymbolKind.Class if found.kind is FileKind.RUBRIC
            else types.SymbolKind.Interface,
            range=mapper.range(whole),
            selection_range=mapper.range(found.id_span),
            detail=found.description,
            children=children or None,
        ))
    if hierarchical:
        return symbols
    flat: list[types.SymbolInformation] = []

    def add(items: Iterable[types.DocumentSymbol], container: str | None) -> None:
        for item in items:
            flat.append(types.SymbolInformation(
                name=item.name, kind=item.kind,
                location=types.Location(doc.uri, item.range), container_name=container))
            add(item.children or [], item.name)

    add(symbols, None)
    return flat


def _matches(query: str, name: str) -> bool:
    """Case-insensitive subsequence match, the way editors filter symbols."""
    if not query:
        return True
    name = name.lower()
    at = 0
    for char in query.lower():
        at = name.find(char, at)
        if at < 0:
            return False
        at += 1
    return True


def workspace_symbols(nav: Nav, query: str, limit: int = 5000
                      ) -> list[types.SymbolInformation]:
    out: list[types.SymbolInformation] = []
    roots = [r.path for r in nav.workspace.roots]
    for path in nav.workspace.eval_files():
        analysis = nav.workspace.analysis(path)
        if analysis is None or analysis.kind is None:
            continue
        label = _label(path, roots)
        for found in analysis.definitions:
            if _matches(query, found.key):
                out.append(types.SymbolInformation(
                    name=found.key,
                    kind=types.SymbolKind.Class if found.kind is FileKind.RUBRIC
                    else types.SymbolKind.Interface,
                    location=_location(nav, path, found.id_span),
                    container_name=label))
        if analysis.kind is FileKind.DATASET:
            if _matches(query, label):
                out.append(types.SymbolInformation(
                    name=label, kind=types.SymbolKind.File,
                    location=_location(nav, path, Span.point(0, 0))))
            mapper = None
            for case in analysis.cases:
                if case.id is None or not _matches(query, case.id):
                    continue
                mapper = mapper or nav.mapper_for(path)
                out.append(types.SymbolInformation(
                    name=case.id, kind=types.SymbolKind.Object,
                    location=types.Location(nav.uri_for(path),
                                            mapper.range(case.id_span or case.span)),
                    container_name=label))
                if len(out) >= limit:
                    return out
        if len(out) >= limit:
            break
    return out


def _label(path: Path, roots: list[Path]) -> str:
    for root in roots:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            continue
    return path.name


# ------------------------------------------------------------------------------------ rename
@dataclass(frozen=True, slots=True)
class RenameTarget:
    kind: Kind
    id: str
    span: Span  # the id's characters at the cursor


def rename_target(nav: Nav, doc: Document, analysis: FileAnalysis | None, pos: Position
                  ) -> RenameTarget | None:
    found = _reference(nav, doc, analysis, pos)
    if found is not None:
        ref = found.reference
        if ref.id is None or found.id_span is None:
            return None
        if not nav.workspace.definitions_of(ref.target, ref.id):
            return None  # nothing to rename: the id is defined nowhere
        return RenameTarget(ref.target, ref.id, found.id_span)
    definition_ = lookup.definition_at(analysis, pos)
    if definition_ is None or not definition_.id_span.contains(pos):
        return None
    line = doc.lines.line_text(definition_.id_span.start.line)
    return RenameTarget(definition_.kind, definition_.id,
                        lookup.id_inner_span(line, definition_.id_span, definition_.id))


def rename_edits(nav: Nav, target: RenameTarget, new_id: str
                 ) -> dict[Path, list[tuple[Span, str]]]:
    """Every place the id is written: each definition of it (all versions) and each reference
    to it (any pin), in open and closed files."""
    edits: dict[Path, list[tuple[Span, str]]] = {}
    for path, found in nav.workspace.definitions_of(target.kind, target.id):
        span = found.id_span
        width = span.end.character - span.start.character
        if span.start.line == span.end.line and width == len(found.id) + 2:
            span = Span(Position(span.start.line, span.start.character + 1),
                        Position(span.end.line, span.end.character - 1))
        edits.setdefault(path, []).append((span, new_id))
    for holder in sorted(nav.workspace.referrers(target.kind, target.id)):
        analysis = nav.workspace.analysis(holder)
        for ref in analysis.references if analysis else ():
            if ref.target is target.kind and ref.id == target.id:
                span_ = lookup.reference_id_span(ref)
                if span_ is not None:
                    edits.setdefault(holder, []).append((span_, new_id))
    return edits


# ------------------------------------------------------------------------------------ lens
def code_lenses(nav: Nav, doc: Document, analysis: FileAnalysis | None,
                mapper: PositionMapper) -> list[types.CodeLens]:
    if analysis is None or doc.path is None:
        return []
    lenses: list[types.CodeLens] = []
    for found in analysis.definitions:
        refs = nav.workspace.references_to(normalize(doc.path), found)
        cases = sum(1 for _, r in refs if r.origin == "case")
        checks = len(refs) - cases
        if found.kind is FileKind.RUBRIC:
            title = f"used by {cases} case{'s' if cases != 1 else ''}"
            if checks:
                title += f" and {checks} composite check{'s' if checks != 1 else ''}"
        else:
            title = f"used by {checks} check{'s' if checks != 1 else ''}"
        rng = mapper.range(found.id_span)
        locations = [_location(nav, p, r.span) for p, r in refs]
        lenses.append(types.CodeLens(
            range=rng,
            command=types.Command(title, "evalyaml.showReferences",
                                  arguments=[doc.uri, rng.start, locations]),
        ))
    return lenses

