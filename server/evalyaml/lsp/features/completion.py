"""Completion, converted: `ide.completion`'s items as LSP completion items, the cursor's column
and each item's range through the document's mapper."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lsprotocol import types

from evalyaml.core.kinds import Kind
from evalyaml.ide import complete
from evalyaml.ide import completion as ide
from evalyaml.ide.source import Source
from evalyaml.lsp.convert import COMPLETION_KINDS
from evalyaml.lsp.positions import PositionMapper
from evalyaml.workspace.index import Workspace


@dataclass(slots=True)
class Request:
    """What completion needs besides the cursor context."""

    doc: Source
    kind: Kind
    mapper: PositionMapper
    line: int
    workspace: Workspace
    snippets: bool
    retrigger: bool  # the client understands `editor.action.triggerSuggest`
    bundles: Callable[[], list[str]]
    markdown: bool = True

    @property
    def core(self) -> ide.Request:
        return ide.Request(self.doc, self.kind, self.line, self.workspace, self.snippets,
                           self.bundles)


def complete_at(req: Request, position: types.Position) -> list[types.CompletionItem]:
    """Everything offered at the cursor (`ide.complete.complete_at`), as LSP items."""
    column = req.mapper.core_position(position).character
    return [item(req, found) for found in complete.complete_at(req.core, column)]


def item(req: Request, found: ide.Completion) -> types.CompletionItem:
    documentation: types.MarkupContent | str | None = found.documentation
    if found.documentation and req.markdown:
        documentation = types.MarkupContent(types.MarkupKind.Markdown, found.documentation)
    return types.CompletionItem(
        label=found.label,
        kind=COMPLETION_KINDS[found.kind],
        detail=found.detail,
        documentation=documentation,
        sort_text=found.sort_text,
        filter_text=found.filter_text,
        text_edit=types.TextEdit(req.mapper.range(found.span), found.new_text),
        insert_text_format=None if found.snippet is None else
        types.InsertTextFormat.Snippet if found.snippet else types.InsertTextFormat.PlainText,
        command=types.Command("Pick a version", "editor.action.triggerSuggest")
        if found.suggest_again and req.retrigger else None,
    )
