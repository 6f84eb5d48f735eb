"""Markdown about the things the features show: a rubric or judge."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evalyaml.core.kinds import Kind
from evalyaml.core.model import Definition
from evalyaml.formats import format_of
from evalyaml.formats.base import KeyDoc
from evalyaml.ide.context import ITEM, PathPart
from evalyaml.ide.lookup import relative


def template_variables(kind: Kind, path: list[PathPart]) -> tuple[KeyDoc, ...]:
    """The variables a template string at `path` may name (`FormatIde.template_variables`)."""
    where = tuple("*" if part is ITEM else str(part) for part in path)
    return format_of(kind).ide.template_variables.get((kind.value, where), ())


def describe_definition(path: Path | None, definition: Definition, root: Path | None,
                        today: Any = None) -> str:
    """Markdown about a rubric or judge: what hover and completion show."""
    where = relative(path, root) if path else "?"
    lines = [f"**{definition.key}** · `{where}`"]
    if definition.description:
        lines += ["", definition.description]
    if definition.checks:
        lines += ["", "Checks:"]
        lines += [f"- `{c.kind}`" + (f" `{c.id}`" if c.id else "") +
                  (f": {c.description}" if c.description else "") for c in definition.checks]
    if definition.combine:
        lines += ["", f"Scoring: `{definition.combine}`"]
    if definition.score_type:
        lines += ["", f"Score type: `{definition.score_type}`"]
    if definition.kind.calibrated:
        figures = []
        if definition.tpr is not None:
            figures.append(f"TPR {definition.tpr:g}")
        if definition.tnr is not None:
            figures.append(f"TNR {definition.tnr:g}")
        if definition.validated_at is not None:
            age = f" ({(today - definition.validated_at).days} days ago)" if today else ""
            figures.append(f"validated {definition.validated_at.isoformat()}{age}")
        elif not definition.has_validation:
            figures.append("not validated")
        if figures:
            lines += ["", " · ".join(figures)]
    return "\n".join(lines)
