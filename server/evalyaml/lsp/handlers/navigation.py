"""Navigation: definition, references, document links, symbols (document and workspace), code
lenses, and the code lens' command.

Answers that carry ranges from the index for open files are checked with
`consistency.check_settled`; those that need the file's analysis wait for it with
`consistency.wait_current` (see that module for the rule).
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from evalyaml.lsp.consistency import analysed_serials, check_settled, wait_current, wait_index
from evalyaml.lsp.features import navigation
from evalyaml.lsp.session import EvalServer


def nav(ls: EvalServer) -> navigation.Nav:
    """The workspace as the navigation features see it (index, texts, uris, versions)."""
    assert ls.engine is not None
    return navigation.Nav(ls.engine.workspace, ls.engine.mapper_for, ls.uri_for, ls.version_for)


async def definition(ls: EvalServer, params: types.DefinitionParams) -> list[types.Location]:
    doc = ls.store.get(params.text_document.uri)
    if doc is None:
        return []
    pos = ls.mapper(doc).core_position(params.position)
    await wait_index(ls)
    before = analysed_serials(ls)
    found = await ls.in_thread(navigation.definition, nav(ls), doc, pos)
    check_settled(ls, before, {location.uri for location in found})
    return found


async def references(ls: EvalServer, params: types.ReferenceParams) -> list[types.Location]:
    doc = ls.store.get(params.text_document.uri)
    if doc is None:
        return []
    doc, report = await wait_current(ls, doc, at_line=params.position.line)
    await wait_index(ls)
    pos = ls.mapper(doc).core_position(params.position)
    before = analysed_serials(ls)
    found = await ls.in_thread(navigation.references, nav(ls), doc,
                               report.analysis if report else None, pos,
                               params.context.include_declaration)
    check_settled(ls, before, {location.uri for location in found})
    return found


async def document_links(ls: EvalServer, params: types.DocumentLinkParams
                         ) -> list[types.DocumentLink]:
    doc = ls.store.get(params.text_document.uri)
    if doc is None:
        return []
    doc, report = await wait_current(ls, doc)
    return await ls.in_thread(navigation.document_links, nav(ls),
                              report.analysis if report else None, ls.mapper(doc),
                              ls.supports("text_document.document_link.tooltip_support"))


async def document_symbols(ls: EvalServer, params: types.DocumentSymbolParams
                           ) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
    doc = ls.store.get(params.text_document.uri)
    if doc is None:
        return []
    doc, report = await wait_current(ls, doc)
    hierarchical = ls.supports(
        "text_document.document_symbol.hierarchical_document_symbol_support")
    # In the pool: 10,000 cases take ~0.15 s, which would hold up every message meanwhile.
    return await ls.in_thread(navigation.document_symbols, doc,
                              report.analysis if report else None, ls.mapper(doc),
                              hierarchical)


async def workspace_symbols(ls: EvalServer, params: types.WorkspaceSymbolParams
                            ) -> list[types.SymbolInformation]:
    await wait_index(ls)
    return await ls.in_thread(navigation.workspace_symbols, nav(ls), params.query)


async def code_lens(ls: EvalServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    doc = ls.store.get(params.text_document.uri)
    if doc is None:
        return []
    doc, report = await wait_current(ls, doc)
    return await ls.in_thread(navigation.code_lenses, nav(ls), doc,
                              report.analysis if report else None, ls.mapper(doc))


def show_references(ls: EvalServer, *args: Any) -> None:
    """The code lens' command: editors that know how show the references themselves."""
    return
