"""Fixtures for the `ide` layer's tests: real folders, a real `Workspace`, no server."""

from __future__ import annotations

import textwrap
from datetime import date
from pathlib import Path

import pytest

from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.ide.lookup import file_kind
from evalyaml.ide.source import Text
from evalyaml.syntax.text import Position, Span
from evalyaml.workspace.index import Workspace, normalize

TODAY = date(2026, 11, 21)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class Folder:
    """A workspace folder with an `evalyaml.toml`, its files written as told, and a Workspace
    over it (indexed on first use)."""

    def __init__(self, root: Path) -> None:
        self.root = normalize(root)
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "evalyaml.toml").write_text("", "utf-8")
        self._workspace: Workspace | None = None

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), "utf-8")
        return path

    @property
    def workspace(self) -> Workspace:
        if self._workspace is None:
            self._workspace = Workspace([self.root], today=TODAY)
            self._workspace.index_all()
        return self._workspace


def source(workspace: Workspace, path: Path) -> tuple[Text, FileAnalysis | None, Kind | None]:
    """A file as an editor would hold it: its text, the index's analysis of it, its kind."""
    path = normalize(path)
    text = Text(path.read_text("utf-8"), path)
    analysis = workspace.analysis(path)
    return text, analysis, file_kind(text, analysis.kind if analysis else None)


def at(text: Text, needle: str, offset: int = 0, nth: int = 0) -> Position:
    """The position `offset` characters into the `nth` occurrence of `needle`."""
    index = -1
    for _ in range(nth + 1):
        index = text.text.index(needle, index + 1)
    return text.lines.position(index + offset)


def span(line: int, start: int, end: int) -> Span:
    return Span(Position(line, start), Position(line, end))


@pytest.fixture
def folder(tmp_path: Path) -> Folder:
    return Folder(tmp_path / "ws")


@pytest.fixture(scope="module")
def examples() -> Workspace:
    workspace = Workspace([normalize(EXAMPLES)], today=TODAY)
    workspace.index_all()
    return workspace


# `rubric/tone@1.0.0` with one check and a description: what hover, completion and
# navigation tests point at.
RUBRIC = """\
id: tone
version: "1.0.0"
description: Polite answers.
checks:
  - id: has_json
    kind: format
    format: json
scoring:
  combine: all_pass
"""
