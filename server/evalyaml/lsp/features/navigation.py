"""Navigation, converted: `ide.navigation`'s answers as LSP locations, links, symbols, lenses
and rename edits.

A span in another file is mapped with that file's own text (`mapper_for`: its open buffer, else
the disk); an open document's spans with the mapper of the text they were computed on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from evalyaml.core.model import FileAnalysis
from evalyaml.ide import navigation as ide
from evalyaml.ide.source import Source
from evalyaml.lsp.convert import SYMBOL_KINDS
from evalyaml.lsp.documents import Document, path_to_uri
from evalyaml.lsp.positions import PositionMapper
from evalyaml.syntax.text import Position
from evalyaml.workspace.index import Workspace

MapperFor = Callable[[Path], PositionMapper]
UriFor = Callable[[Path], str]


@dataclass(slots=True)
class Nav:
    """The state navigation needs."""

    workspace: Workspace
    mapper_for: MapperFor
    uri_for: UriFor  # an open document's own uri, else a file uri
    version_for: Callable[[str], int | None]  # the open version of a uri, if open


def locations(nav: Nav, targets: Iterable[ide.NavTarget]) -> list[types.Location]:
    mappers: dict[Path, PositionMapper] = {}
    out = []
    for target in targets:
        mapper = mappers.get(target.path)
        if mapper is None:
            mapper = mappers[target.path] = nav.mapper_for(target.path)
        out.append(types.Location(nav.uri_for(target.path), mapper.range(target.span)))
    return out


def definition(nav: Nav, doc: Source, pos: Position) -> list[types.Location]:
    return locations(nav, ide.definition(nav.workspace, doc, pos))


def references(nav: Nav, doc: Source, analysis: FileAnalysis | None, pos: Position,
               include_declaration: bool) -> list[types.Location]:
    return locations(nav, ide.references(nav.workspace, doc, analysis, pos, include_declaration))


def document_links(nav: Nav, analysis: FileAnalysis | None, mapper: PositionMapper,
                   tooltips: bool = True) -> list[types.DocumentLink]:
    return [types.DocumentLink(range=mapper.range(link.span),
                               target=f"{path_to_uri(link.path)}#L{link.line + 1}",
                               tooltip=f"Open {link.name}" if tooltips else None)
            for link in ide.document_links(nav.workspace, analysis)]


def _symbol(item: ide.Symbol, mapper: PositionMapper) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=item.name, kind=SYMBOL_KINDS[item.kind], range=mapper.range(item.span),
        selection_range=mapper.range(item.selection), detail=item.detail,
        children=[_symbol(child, mapper) for child in item.children] if item.children else None)


def document_symbols(doc: Document, analysis: FileAnalysis | None, mapper: PositionMapper,
                     hierarchical: bool
                     ) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
    symbols = [_symbol(item, mapper) for item in ide.document_symbols(doc, analysis)]
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


def workspace_symbols(nav: Nav, query: str, limit: int = 5000
                      ) -> list[types.SymbolInformation]:
    found = ide.workspace_symbols(nav.workspace, query, limit)
    places = locations(nav, (symbol.target for symbol in found))
    return [types.SymbolInformation(name=symbol.name, kind=SYMBOL_KINDS[symbol.kind],
                                    location=place, container_name=symbol.container)
            for symbol, place in zip(found, places, strict=True)]


def code_lenses(nav: Nav, doc: Document, analysis: FileAnalysis | None,
                mapper: PositionMapper) -> list[types.CodeLens]:
    lenses = []
    for lens in ide.code_lenses(nav.workspace, doc, analysis):
        rng = mapper.range(lens.span)
        lenses.append(types.CodeLens(range=rng, command=types.Command(
            lens.title, "evalyaml.showReferences",
            arguments=[doc.uri, rng.start, locations(nav, lens.targets)])))
    return lenses
