"""Answers more than one feature module builds, kept apart so those modules import each other
in one direction (the JSON cursor's hover is built by `json_features`, which `hover` calls)."""

from __future__ import annotations

from dataclasses import dataclass

from evalyaml.syntax.text import Span


@dataclass(frozen=True, slots=True)
class HoverInfo:
    """Markdown about the text at `span` (one line, code-point columns)."""

    markdown: str
    span: Span
