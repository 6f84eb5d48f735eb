"""Completion at a cursor, whatever the file's syntax: the one entry the language server and the
test fixtures share, so a fixture's `//= completion:` answers exactly what an editor is offered.

The order matters: a format that knows better than any schema (names on disk, variables in a
prompt) answers first (`FormatIde.offers`); otherwise JSON is completed from its brackets
(`json_features`) and YAML from its indentation (`completion.context_for`).
"""

from __future__ import annotations

from evalyaml.ide import json_features
from evalyaml.ide.completion import Completion, Request, complete, context_for, format_offers
from evalyaml.syntax.text import Position


def complete_at(req: Request, column: int) -> list[Completion]:
    """Every item offered at code-point `column` of the request's line."""
    offered = format_offers(req, column)
    if offered is not None:
        return offered
    if json_features.is_json(req.doc.path):
        return json_features.complete(req.doc, req.kind, Position(req.line, column),
                                      snippets=req.snippets, workspace=req.workspace)
    ctx = context_for(req, column)
    return [] if ctx is None else complete(req, ctx)
