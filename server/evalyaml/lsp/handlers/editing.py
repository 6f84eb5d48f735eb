"""Editing: completion, hover, quick fixes (code actions), rename (with prepareRename), and the
paths rewritten when the editor moves a file others name (`workspace/willRenameFiles`).

Completion and hover read the cursor context from the current text, never from an older parse,
so they work on lines that do not parse. Code actions and rename answer from the analysis of the
request's text or a newer one (`consistency.wait_current`); rename edits from the index are
checked with `consistency.check_settled`.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from evalyaml.core.kinds import Kind, valid_id
from evalyaml.ide.completion import bundle_names
from evalyaml.ide.file_rename import file_rename_edits
from evalyaml.ide.lookup import file_kind
from evalyaml.ide.navigation import rename_edits, rename_target
from evalyaml.lsp import convert
from evalyaml.lsp.consistency import analysed_serials, check_settled, wait_current, wait_index
from evalyaml.lsp.documents import Document, uri_to_path
from evalyaml.lsp.features import actions, completion, hover, navigation
from evalyaml.lsp.handlers.navigation import nav
from evalyaml.lsp.session import EvalServer
from evalyaml.syntax.text import Span


# ---------------------------------------------------------------------- completion and hover
async def complete(ls: EvalServer, params: types.CompletionParams) -> types.CompletionList:
    doc = ls.store.get(params.text_document.uri)
    if doc is None:
        return types.CompletionList(is_incomplete=False, items=[])
    return await ls.in_thread(_complete, ls, doc, params.position)


async def on_hover(ls: EvalServer, params: types.HoverParams) -> types.Hover | None:
    doc = ls.store.get(params.text_document.uri)
    if doc is None:
        return None
    return await ls.in_thread(_hover, ls, doc, params.position)


def _kind_of(ls: EvalServer, doc: Document) -> Kind | None:
    """The kind of the buffer's last analysis; for a document the engine has not analysed yet
    (a request right after `didOpen`, while it works on another file), the kind the index gave
    the file on disk: a grader prompt is a prompt only because a suite names it."""
    assert ls.engine is not None
    analysed = ls.engine.analyses.get(doc.uri)
    if analysed is None and doc.path is not None:
        indexed = ls.engine.workspace.analysis(doc.path)
        return file_kind(doc, indexed.kind if indexed is not None else None)
    kind = analysed[1].kind if analysed and analysed[1] is not None else None
    return file_kind(doc, kind)


def _complete(ls: EvalServer, doc: Document, position: types.Position) -> types.CompletionList:
    kind = _kind_of(ls, doc)
    empty = types.CompletionList(is_incomplete=False, items=[])
    if kind is None or ls.engine is None:
        return empty
    mapper = ls.mapper(doc)
    workspace = ls.engine.workspace
    req = completion.Request(
        doc=doc, kind=kind, mapper=mapper, line=position.line, workspace=workspace,
        snippets=ls.supports("text_document.completion.completion_item.snippet_support"),
        retrigger="code" in ls.client_name.lower(),
        bundles=lambda: bundle_names(workspace, doc.path),
        markdown=True)
    return types.CompletionList(is_incomplete=False,
                                items=completion.complete_at(req, position))


def _hover(ls: EvalServer, doc: Document, position: types.Position) -> types.Hover | None:
    kind = _kind_of(ls, doc)
    if kind is None or ls.engine is None:
        return None
    mapper = ls.mapper(doc)
    pos = mapper.core_position(position)
    workspace = ls.engine.workspace
    today = workspace.options(doc.path).today if doc.path else None
    return hover.hover(doc, kind, pos, mapper=mapper, workspace=workspace, today=today)


# ---------------------------------------------------------------------- quick fixes
async def code_action(ls: EvalServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    doc = ls.store.get(params.text_document.uri)
    if doc is None:
        return []
    doc, report = await wait_current(ls, doc, at_line=params.range.end.line)
    if report is None:
        return []
    mapper = ls.mapper(doc)
    wanted = mapper.core_span(params.range)
    return actions.code_actions(
        report.findings, report.diagnostics, wanted, uri=doc.uri, version=doc.version,
        lines=doc.lines, mapper=mapper,
        document_changes=ls.supports("workspace.workspace_edit.document_changes"),
        only=[str(o) for o in params.context.only] if params.context.only else None,
        path=str(doc.path) if doc.path is not None else None)


# ---------------------------------------------------------------------- rename
async def prepare_rename(ls: EvalServer, params: types.PrepareRenameParams
                         ) -> types.PrepareRenamePlaceholder | None:
    doc = ls.store.get(params.text_document.uri)
    if doc is None:
        return None
    doc, report = await wait_current(ls, doc, at_line=params.position.line)
    pos = ls.mapper(doc).core_position(params.position)
    target = await ls.in_thread(rename_target, nav(ls).workspace, doc,
                                report.analysis if report else None, pos)
    if target is None:
        return None
    return types.PrepareRenamePlaceholder(range=ls.mapper(doc).range(target.span),
                                          placeholder=target.id)


async def rename(ls: EvalServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    doc = ls.store.get(params.text_document.uri)
    if doc is None:
        return None
    doc, report = await wait_current(ls, doc, at_line=params.position.line)
    await wait_index(ls)  # a rename must reach every reference, closed files included
    pos = ls.mapper(doc).core_position(params.position)
    before = analysed_serials(ls)
    workspace = nav(ls)
    target = await ls.in_thread(rename_target, workspace.workspace, doc,
                                report.analysis if report else None, pos)
    if target is None:
        return None
    if not valid_id(params.new_name, target.kind):
        raise JsonRpcInvalidParams(
            f"'{params.new_name}' is not a valid {target.kind.noun}: {target.kind.id_rule}")
    edits = await ls.in_thread(rename_edits, workspace.workspace, target, params.new_name)
    changes = _changes(ls, workspace, edits)
    check_settled(ls, before, changes)  # the versions named are those the edits are for
    return convert.workspace_edit(
        changes, document_changes=ls.supports("workspace.workspace_edit.document_changes"))


def _changes(ls: EvalServer, workspace: navigation.Nav,
             edits: dict[Path, list[tuple[Span, str]]]
             ) -> dict[str, tuple[int | None, list[types.TextEdit]]]:
    """Edits by file as the client's URIs, ranges in its encoding, and the versions they are for."""
    changes: dict[str, tuple[int | None, list[types.TextEdit]]] = {}
    for path, spans in edits.items():
        uri = ls.uri_for(path)
        mapper = workspace.mapper_for(path)
        changes[uri] = (ls.version_for(uri), [types.TextEdit(mapper.range(span), text)
                                              for span, text in spans])
    return changes


async def will_rename_files(ls: EvalServer, params: types.RenameFilesParams
                            ) -> types.WorkspaceEdit | None:
    """Before the editor moves files: every path written to them (a config's `file://`, a
    script's `-c`) rewritten to their new place; None when nothing names them."""
    moves = [(old, new) for old, new in ((uri_to_path(f.old_uri), uri_to_path(f.new_uri))
                                         for f in params.files)
             if old is not None and new is not None]
    if not moves:
        return None
    await wait_index(ls)  # every holder, closed files included
    workspace = nav(ls)
    edits = await ls.in_thread(file_rename_edits, workspace.workspace, moves)
    if not edits:
        return None
    changes = _changes(ls, workspace, edits)
    return convert.workspace_edit(
        changes, document_changes=ls.supports("workspace.workspace_edit.document_changes"))
