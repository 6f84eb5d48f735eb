"""Navigation: definition, references, document links, symbols, rename and code lens, as data.

Every answer is in core spans: a location in another file is the span its analysis in the index
gives (`NavTarget`), an open document's spans come from the analysis of its current version.
The LSP handlers map each span with the text of the file it is in (`lsp/features/navigation.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from evalyaml.core.kinds import Kind
from evalyaml.core.model import Definition, FileAnalysis
from evalyaml.formats import format_of
from evalyaml.formats.base import Cursor, LocalName
from evalyaml.ide import lookup
from evalyaml.ide.source import Source
from evalyaml.syntax.text import Position, Span
from evalyaml.workspace.adoption import glob_matches
from evalyaml.workspace.index import Workspace, normalize
from evalyaml.workspace.named import RecordingFiles


class SymbolKind(Enum):
    """What a symbol is (mapped to the protocol's kinds in `lsp/convert.py`)."""

    FILE = "file"  # a dataset, in workspace symbols
    RUBRIC = "rubric"
    JUDGE = "judge"
    CASE = "case"  # a dataset's case, a format's item
    CHECK = "check"  # a rubric's check


@dataclass(frozen=True, slots=True)
class NavTarget:
    """A place in a file: `span` in the text the index holds for `path`."""

    path: Path
    span: Span


@dataclass(frozen=True, slots=True)
class Link:
    """A reference at `span` that opens the definition it resolves to."""

    span: Span
    path: Path  # the definition's file
    line: int  # the line of the definition's id (0-based)
    name: str  # the definition's key, for the tooltip


@dataclass(frozen=True, slots=True)
class Symbol:
    """A document symbol: a case, a rubric or judge (with its checks as children)."""

    name: str
    kind: SymbolKind
    span: Span
    selection: Span
    detail: str | None = None
    children: tuple[Symbol, ...] = ()


@dataclass(frozen=True, slots=True)
class WorkspaceSymbol:
    name: str
    kind: SymbolKind
    target: NavTarget
    container: str | None = None


@dataclass(frozen=True, slots=True)
class RenameTarget:
    kind: Kind
    id: str
    span: Span  # the id's characters at the cursor
    # A name scoped to one file (`FormatIde.local_name`): that file and every place in it the
    # name is written; empty for a name the index resolves across files.
    local: tuple[tuple[Path, Span], ...] = ()


@dataclass(frozen=True, slots=True)
class Lens:
    """A count of a definition's users, over its id, with where they are."""

    span: Span
    title: str
    targets: tuple[NavTarget, ...]


def _definition_kind(found: Definition) -> SymbolKind:
    return SymbolKind(found.kind.symbol)


def _reference(workspace: Workspace, doc: Source, analysis: FileAnalysis | None, pos: Position
               ) -> lookup.RefAt | None:
    """The reference at the cursor: read from the YAML text for the contract's, from the
    analysis for other formats' (the index's, when the caller has none of its own)."""
    found = lookup.reference_at(doc, pos)
    if found is not None:
        return found
    if analysis is None and doc.path is not None:
        analysis = workspace.analysis(normalize(doc.path))
    return lookup.analysed_reference_at(doc, analysis, pos)


def _target(workspace: Workspace, doc: Source, analysis: FileAnalysis | None, pos: Position
            ) -> tuple[Path, Definition] | None:
    """The rubric or judge the cursor is about: a reference's target, or the definition whose
    id or version is under the cursor."""
    found = _reference(workspace, doc, analysis, pos)
    if found is not None and found.reference.id is not None:
        resolution = workspace.resolve(found.reference)
        if resolution.path is not None and resolution.definition is not None:
            return resolution.path, resolution.definition
        return None
    definition_ = lookup.definition_at(analysis, pos)
    if definition_ is not None and doc.path is not None:
        return normalize(doc.path), definition_
    return None


# ------------------------------------------------------------------------- definition, references
def definition(workspace: Workspace, doc: Source, pos: Position) -> list[NavTarget]:
    """Where the reference at the cursor resolves to (its definition's id), or the file a path
    at the cursor names (a `FileRef`: a grader prompt, a cases file, a custom assertion)."""
    own = _format_definition(workspace, doc, pos)
    if own is not None:
        return [own]
    found = _reference(workspace, doc, None, pos)
    if found is None or found.reference.id is None:
        named = _file_at(workspace, doc, pos)
        return [NavTarget(named, Span.point(0, 0))] if named is not None else []
    resolution = workspace.resolve(found.reference)
    if resolution.path is None or resolution.definition is None:
        return []
    return [NavTarget(resolution.path, resolution.definition.id_span)]


def _format_cursor(workspace: Workspace, doc: Source, pos: Position) -> Cursor | None:
    if doc.path is None:
        return None
    path = normalize(doc.path)
    analysis = workspace.analysis(path)
    if analysis is None or analysis.kind is None:
        return None
    root = workspace.root_for(path).path
    return Cursor(str(path), analysis.kind, doc.text, pos.line, pos.character, str(root),
                  analysis)


def _format_definition(workspace: Workspace, doc: Source, pos: Position) -> NavTarget | None:
    """The format's own answer (`FormatIde.definition`), reading through the workspace."""
    cursor = _format_cursor(workspace, doc, pos)
    answer = format_of(cursor.kind).ide.definition if cursor is not None else None
    if cursor is None or answer is None or cursor.path is None:
        return None
    root = Path(cursor.root) if cursor.root else Path(cursor.path).parent
    roots = [r.path for r in workspace.roots] or [root]
    found = answer(cursor, RecordingFiles(workspace, roots))
    return NavTarget(Path(found[0]), found[1]) if found is not None else None


def _local_name(workspace: Workspace, doc: Source, pos: Position
                ) -> tuple[Path, Kind, LocalName] | None:
    """A name scoped to the cursor's own file (`FormatIde.local_name`)."""
    cursor = _format_cursor(workspace, doc, pos)
    answer = format_of(cursor.kind).ide.local_name if cursor is not None else None
    if cursor is None or answer is None or cursor.path is None:
        return None
    found = answer(cursor)
    return (Path(cursor.path), cursor.kind, found) if found is not None else None


def references(workspace: Workspace, doc: Source, analysis: FileAnalysis | None,
               pos: Position, include_declaration: bool) -> list[NavTarget]:
    """Every reference to the definition the cursor is about (and its id, if asked); for a
    path (a `FileRef` at the cursor, or else the document itself), every place that names that
    file (and the file, if asked)."""
    local = _local_name(workspace, doc, pos)
    if local is not None:
        path, _, name = local
        if name.definition is None:
            return []
        return [NavTarget(path, span) for span in
                ((name.definition,) if include_declaration else ()) + name.uses]
    target = _target(workspace, doc, analysis, pos)
    if target is None:
        return _file_references(workspace, doc, pos, include_declaration)
    path, found = target
    out: list[NavTarget] = []
    if include_declaration:
        out.append(NavTarget(path, found.id_span))
    # A definition and its file name (`Definition.alias`, at the same id) are one target.
    here = workspace.analysis(path)
    names = [d for d in (here.definitions if here else ()) if d.kind is found.kind
             and d.id_span == found.id_span] or [found]
    for one in names if found in names else [found]:
        for holder, ref in workspace.references_to(path, one):
            if not one.alias or workspace.resolve(ref).path == path:
                out.append(NavTarget(holder, ref.span))
    return out


def _file_references(workspace: Workspace, doc: Source, pos: Position,
                     include_declaration: bool) -> list[NavTarget]:
    """The file a path at the cursor leads to, else the document: every `FileRef` in the index
    that leads to it (a prompt file's configs, a tests file's), the file's start first if
    asked. Nothing when no file names it."""
    if doc.path is None:
        return []
    named = _file_at(workspace, doc, pos) or normalize(doc.path)
    found = file_referrers(workspace, named)
    if not found:
        return []
    head = [NavTarget(named, Span.point(0, 0))] if include_declaration else []
    return head + found


def file_referrers(workspace: Workspace, target: Path) -> list[NavTarget]:
    """Every path written in an indexed file that leads to `target` (the first existing
    candidate of a `FileRef` is `target`), by file and position."""
    key = normalize(target)
    wanted = str(key)
    out: list[NavTarget] = []
    for holder in workspace.eval_files():
        analysis = workspace.analysis(holder)
        for ref in analysis.file_refs if analysis is not None else ():
            if ref.glob:  # a pattern: the file is one of its matches
                if wanted in (str(normalize(m)) for m in glob_matches(ref.candidates)):
                    out.append(NavTarget(holder, ref.span))
                continue
            if wanted not in (str(normalize(c)) for c in ref.candidates):
                continue  # cheap: most paths name other files
            if workspace.named_file(ref.candidates, holder) == key:
                out.append(NavTarget(holder, ref.span))
    return out


def _file_at(workspace: Workspace, doc: Source, pos: Position) -> Path | None:
    if doc.path is None:
        return None
    analysis = workspace.analysis(normalize(doc.path))
    for ref in analysis.file_refs if analysis is not None else ():
        if ref.span.contains(pos):
            return workspace.named_file(ref.candidates, normalize(doc.path))
    return None


def file_links(workspace: Workspace, analysis: FileAnalysis | None) -> list[Link]:
    """Each path the file names (`FileAnalysis.file_refs`) that leads to a file inside the
    workspace roots, linked to that file."""
    if analysis is None or analysis.path is None or not analysis.file_refs:
        return []
    near = normalize(analysis.path)
    roots = [r.path for r in workspace.roots]
    links: list[Link] = []
    for ref in analysis.file_refs:
        target = workspace.named_file(ref.candidates, near)
        if target is not None:
            links.append(Link(ref.span, target, 0, _label(target, roots)))
    return links


def document_links(workspace: Workspace, analysis: FileAnalysis | None) -> list[Link]:
    """Each reference of the file that resolves, linked to its definition; each path it names,
    linked to the file."""
    if analysis is None:
        return []
    links: list[Link] = []
    for ref in analysis.references:
        if ref.id is None:
            continue
        resolution = workspace.resolve(ref)
        if resolution.path is None or resolution.definition is None:
            continue
        links.append(Link(ref.span, resolution.path, resolution.definition.id_span.start.line,
                          resolution.definition.key))
    links.extend(file_links(workspace, analysis))
    return links


# ------------------------------------------------------------------------------------ symbols
def document_symbols(doc: Source, analysis: FileAnalysis | None) -> list[Symbol]:
    """A dataset's (or a format's) cases; a rubric or judge over the whole file, its checks as
    children."""
    if analysis is None or analysis.kind is None:
        return []
    whole = Span(Position(0, 0), doc.lines.position(len(doc.text)))
    symbols: list[Symbol] = []
    if analysis.kind.lists_cases:
        for case in analysis.cases:
            symbols.append(Symbol(
                name=case.id or "(case without id)", kind=SymbolKind.CASE, span=case.span,
                selection=case.id_span or case.span,
                detail=f"bundle {case.bundle}" if case.bundle else None))
    for found in analysis.definitions:
        if found.kind.named_by_path or found.alias:
            continue  # the whole file, named by its path: not a symbol inside it
        children = tuple(Symbol(name=check.kind, kind=SymbolKind.CHECK, span=check.span,
                                selection=check.span, detail=check.id)
                         for check in found.checks)
        symbols.append(Symbol(name=found.key, kind=_definition_kind(found), span=whole,
                              selection=found.id_span, detail=found.description,
                              children=children))
    return symbols


def matches(query: str, name: str) -> bool:
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


def workspace_symbols(workspace: Workspace, query: str, limit: int = 5000
                      ) -> list[WorkspaceSymbol]:
    """Rubrics and judges by key, datasets by path, cases by id, matching `query`; at most
    about `limit` of them."""
    out: list[WorkspaceSymbol] = []
    roots = [r.path for r in workspace.roots]
    for path in workspace.eval_files():
        analysis = workspace.analysis(path)
        if analysis is None or analysis.kind is None:
            continue
        label = _label(path, roots)
        for found in analysis.definitions:
            if found.kind.named_by_path or found.alias:
                continue  # the file itself: listed by path below
            if matches(query, found.key):
                out.append(WorkspaceSymbol(found.key, _definition_kind(found),
                                           NavTarget(path, found.id_span), label))
        if analysis.kind is not None and analysis.kind.lists_cases:
            if matches(query, label):
                out.append(WorkspaceSymbol(label, SymbolKind.FILE,
                                           NavTarget(path, Span.point(0, 0))))
            for case in analysis.cases:
                if case.id is None or not matches(query, case.id):
                    continue
                out.append(WorkspaceSymbol(case.id, SymbolKind.CASE,
                                           NavTarget(path, case.id_span or case.span), label))
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
def rename_target(workspace: Workspace, doc: Source, analysis: FileAnalysis | None,
                  pos: Position) -> RenameTarget | None:
    """The id at the cursor that can be renamed: a reference's (to an id defined somewhere) or
    a definition's own."""
    local = _local_name(workspace, doc, pos)
    if local is not None:
        path, kind, name = local
        if name.definition is None:
            return None  # nothing to rename: the name is defined nowhere in its file
        return RenameTarget(kind, name.name, name.at, tuple(
            (path, span) for span in (name.definition, *name.uses)))
    found = _reference(workspace, doc, analysis, pos)
    if found is not None:
        ref = found.reference
        if ref.id is None or found.id_span is None or ref.target.named_by_path:
            return None  # a path is renamed by moving the file, not by editing names
        if not any(not d.alias for _, d in workspace.definitions_of(ref.target, ref.id)):
            return None  # nothing to rename: the id is defined nowhere (or is a file name)
        return RenameTarget(ref.target, ref.id, found.id_span)
    definition_ = lookup.definition_at(analysis, pos)
    if definition_ is None or not definition_.id_span.contains(pos) or definition_.alias or \
            definition_.kind.named_by_path:
        return None
    line = doc.lines.line_text(definition_.id_span.start.line)
    return RenameTarget(definition_.kind, definition_.id,
                        lookup.id_inner_span(line, definition_.id_span, definition_.id))


def rename_edits(workspace: Workspace, target: RenameTarget, new_id: str
                 ) -> dict[Path, list[tuple[Span, str]]]:
    """Every place the id is written: each definition of it (all versions) and each reference
    to it (any pin), in open and closed files; a file-scoped name's places in its file."""
    edits: dict[Path, list[tuple[Span, str]]] = {}
    if target.local:
        for path, span in target.local:
            edits.setdefault(path, []).append((span, new_id))
        return edits
    for path, found in workspace.definitions_of(target.kind, target.id):
        if found.alias:
            continue  # a file name: renamed by moving the file
        span = found.id_span
        width = span.end.character - span.start.character
        if span.start.line == span.end.line and width == len(found.id) + 2:
            span = Span(Position(span.start.line, span.start.character + 1),
                        Position(span.end.line, span.end.character - 1))
        edits.setdefault(path, []).append((span, new_id))
    for holder in sorted(workspace.referrers(target.kind, target.id)):
        analysis = workspace.analysis(holder)
        for ref in analysis.references if analysis else ():
            if ref.target is target.kind and ref.id == target.id:
                span_ = lookup.reference_id_span(ref)
                if span_ is not None:
                    edits.setdefault(holder, []).append((span_, new_id))
    return edits


# ------------------------------------------------------------------------------------ lens
def code_lenses(workspace: Workspace, doc: Source, analysis: FileAnalysis | None
                ) -> list[Lens]:
    """Over each definition's id: how many cases and checks use it."""
    if analysis is None or doc.path is None:
        return []
    lenses: list[Lens] = []
    for found in analysis.definitions:
        if found.alias:
            continue
        refs = workspace.references_to(normalize(doc.path), found)
        cases = sum(1 for _, r in refs if r.origin == "case")
        checks = len(refs) - cases
        if found.kind.usage == "cases":
            title = f"used by {cases} case{'s' if cases != 1 else ''}"
            if checks:
                title += f" and {checks} composite check{'s' if checks != 1 else ''}"
        elif found.kind.usage == "checks":
            title = f"used by {checks} check{'s' if checks != 1 else ''}"
        else:  # another format's name: count the files that name it
            holders = len({p for p, _ in refs})
            title = f"named by {holders} file{'s' if holders != 1 else ''}"
        lenses.append(Lens(found.id_span, title, tuple(NavTarget(p, r.span) for p, r in refs)))
    return lenses
