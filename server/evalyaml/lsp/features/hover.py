"""Hover, converted: `ide.hover`'s answer as an LSP `Hover`, its span in the client's units."""

from __future__ import annotations

from datetime import date

from lsprotocol import types

from evalyaml.core.kinds import Kind
from evalyaml.ide import hover as ide
from evalyaml.ide.source import Source
from evalyaml.lsp.positions import PositionMapper
from evalyaml.syntax.text import Position
from evalyaml.workspace.index import Workspace


def hover(doc: Source, kind: Kind, pos: Position, *, mapper: PositionMapper,
          workspace: Workspace, today: date | None) -> types.Hover | None:
    info = ide.hover(doc, kind, pos, workspace=workspace, today=today)
    if info is None:
        return None
    return types.Hover(contents=types.MarkupContent(types.MarkupKind.Markdown, info.markdown),
                       range=mapper.range(info.span))
