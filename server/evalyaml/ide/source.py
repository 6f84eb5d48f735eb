"""The text a feature reads: its path, its characters, their lines and their outline.

An open editor document (`lsp.documents.Document`) is a `Source`; so is `Text`, which a test or
a command-line tool builds from a string.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from evalyaml.ide.outline import Outline
from evalyaml.syntax.text import LineIndex


class Source(Protocol):
    """What the features read of a document."""

    @property
    def path(self) -> Path | None: ...

    @property
    def text(self) -> str: ...

    @property
    def lines(self) -> LineIndex: ...

    @property
    def outline(self) -> Outline: ...


@dataclass(frozen=True, slots=True)
class Text:
    """A `Source` from a string (the outline is built on first use)."""

    text: str
    path: Path | None = None
    lines: LineIndex = field(init=False, compare=False, repr=False)
    _outline: list[Outline] = field(init=False, compare=False, repr=False,
                                    default_factory=list)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", LineIndex(self.text))

    @property
    def outline(self) -> Outline:
        if not self._outline:
            self._outline.append(Outline.build(self.lines))
        return self._outline[0]
