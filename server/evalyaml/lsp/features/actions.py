"""Quick fixes, converted: `ide.actions`' answers as LSP code actions, each one WorkspaceEdit
(one undoable step) with the diagnostics it fixes."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from evalyaml.core.findings import Finding
from evalyaml.ide import actions as ide
from evalyaml.lsp import convert
from evalyaml.lsp.positions import PositionMapper
from evalyaml.syntax.text import LineIndex, Span


def code_actions(findings: list[Finding], diagnostics: Sequence[types.Diagnostic], wanted: Span,
                 *, uri: str, version: int | None, lines: LineIndex, mapper: PositionMapper,
                 document_changes: bool, only: list[str] | None,
                 path: str | None = None) -> list[types.CodeAction]:
    quickfix = convert.ACTION_KINDS[ide.ActionKind.QUICK_FIX].value
    if only and not any(quickfix.startswith(o) or o.startswith(quickfix) for o in only):
        return []
    return [convert.fix_action(action.fix, uri, version, mapper,
                               [diagnostics[i] for i in action.findings if i < len(diagnostics)],
                               document_changes=document_changes,
                               kind=convert.ACTION_KINDS[action.kind])
            for action in ide.code_actions(findings, wanted, lines, path)]
