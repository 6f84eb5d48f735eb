"""Core values -> LSP values: findings to diagnostics, fixes to workspace edits, the `ide`
layer's kinds to the protocol's.

Every position goes through a `PositionMapper` for the text the finding was computed on, so
columns are in the client's encoding. Related information in another file is mapped with that
file's own text (its open buffer, else the disk).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path

from lsprotocol import types

from evalyaml.core.codes import CODES
from evalyaml.core.findings import Finding, Fix, TextEdit
from evalyaml.ide.actions import ActionKind
from evalyaml.ide.completion import CompletionKind
from evalyaml.ide.navigation import SymbolKind
from evalyaml.lsp.documents import path_to_uri
from evalyaml.lsp.positions import PositionMapper

log = logging.getLogger(__name__)

SOURCE = "evalyaml"

MapperFor = Callable[[Path], PositionMapper]

# The `ide` layer's kinds -> the protocol's: the one place they meet.
SYMBOL_KINDS = {
    SymbolKind.FILE: types.SymbolKind.File,
    SymbolKind.RUBRIC: types.SymbolKind.Class,
    SymbolKind.JUDGE: types.SymbolKind.Interface,
    SymbolKind.CASE: types.SymbolKind.Object,
    SymbolKind.CHECK: types.SymbolKind.Method,
}
ACTION_KINDS = {ActionKind.QUICK_FIX: types.CodeActionKind.QuickFix}
COMPLETION_KINDS = {
    CompletionKind.PROPERTY: types.CompletionItemKind.Property,
    CompletionKind.VALUE: types.CompletionItemKind.EnumMember,
    CompletionKind.BUNDLE: types.CompletionItemKind.Module,
    CompletionKind.REFERENCE: types.CompletionItemKind.Reference,
    CompletionKind.VARIABLE: types.CompletionItemKind.Variable,
}


def diagnostic(finding: Finding, mapper: PositionMapper, uri: str, mapper_for: MapperFor,
               *, related_support: bool = True) -> types.Diagnostic:
    code = CODES.get(finding.code)
    related: list[types.DiagnosticRelatedInformation] | None = None
    if finding.related and related_support:
        related = []
        for item in finding.related:
            if item.path is None:
                target_uri, rng = uri, mapper.range(item.span)
            else:
                other = Path(item.path)
                target_uri, rng = path_to_uri(other), mapper_for(other).range(item.span)
            related.append(types.DiagnosticRelatedInformation(
                types.Location(target_uri, rng), item.message))
    return types.Diagnostic(
        range=mapper.range(finding.span),
        message=finding.message,
        severity=types.DiagnosticSeverity(int(finding.severity)),
        code=finding.code,
        code_description=types.CodeDescription(href=code.doc_url) if code else None,
        source=SOURCE,
        related_information=related,
        data={"code": finding.code},
    )


def diagnostics(findings: Iterable[Finding], mapper: PositionMapper, uri: str,
                mapper_for: MapperFor, *, related_support: bool = True
                ) -> list[types.Diagnostic]:
    return [diagnostic(f, mapper, uri, mapper_for, related_support=related_support)
            for f in findings]


def text_edits(edits: Iterable[TextEdit], mapper: PositionMapper) -> list[types.TextEdit]:
    return [types.TextEdit(mapper.range(e.span), e.new_text) for e in edits]


def workspace_edit(changes: dict[str, tuple[int | None, list[types.TextEdit]]],
                   *, document_changes: bool) -> types.WorkspaceEdit:
    """One WorkspaceEdit over several files (uri -> (open version or None, edits)): the
    editor applies it as one undoable step."""
    if document_changes:
        return types.WorkspaceEdit(document_changes=[
            types.TextDocumentEdit(
                types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                list(edits))
            for uri, (version, edits) in changes.items()
        ])
    return types.WorkspaceEdit(changes={uri: edits for uri, (_, edits) in changes.items()})


def fix_action(fix: Fix, uri: str, version: int | None, mapper: PositionMapper,
               diagnostics_: list[types.Diagnostic] | None, *, document_changes: bool,
               kind: types.CodeActionKind = types.CodeActionKind.QuickFix) -> types.CodeAction:
    return types.CodeAction(
        title=fix.title,
        kind=kind,
        diagnostics=diagnostics_ or None,
        is_preferred=fix.preferred or None,
        edit=workspace_edit({uri: (version, text_edits(fix.edits, mapper))},
                            document_changes=document_changes),
    )
