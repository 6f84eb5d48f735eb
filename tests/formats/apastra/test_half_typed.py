"""Half-typed Apastra files in the editor: every prefix of each example file (YAML, JSON,
JSONL), and each with one character removed, is analysed, completed and hovered at its end
without an exception, and every finding stays inside the text."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalyaml.core.options import Options
from evalyaml.formats.apastra import FORMAT
from evalyaml.ide.completion import Request, complete, context_for
from evalyaml.ide.hover import hover
from evalyaml.ide.json_features import complete as complete_json
from evalyaml.ide.json_features import is_json
from evalyaml.ide.source import Text
from evalyaml.syntax.text import LineIndex
from evalyaml.workspace.index import Workspace

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "apastra"
FILES = sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".yaml", ".json", ".jsonl")
               and "mistakes" not in p.parts)


@pytest.fixture(scope="module")
def workspace() -> Workspace:
    found = Workspace([EXAMPLES])
    found.index_all()
    return found


def _texts(text: str) -> list[str]:
    step = max(1, len(text) // 60)
    cuts = [text[:end] for end in range(0, len(text) + 1, step)]
    holes = [text[:at] + text[at + 1:] for at in range(0, len(text), step * 3)]
    return cuts + holes


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(EXAMPLES).as_posix() for p in FILES])
def test_no_crash_on_half_typed_files(workspace: Workspace, path: Path) -> None:
    claimed = FORMAT.claim(path.read_text("utf-8"), str(path), str(EXAMPLES))
    assert claimed is not None
    kind = claimed.kind
    options = Options(root=str(EXAMPLES))
    for text in _texts(path.read_text("utf-8")):
        result = FORMAT.analyze(text, str(path), kind, options)
        lines = LineIndex(text)
        end = lines.position(len(text))
        for finding in result.findings:
            assert finding.span.end <= end, (text, finding)
        doc = Text(text, path)
        if is_json(path):
            complete_json(doc, kind, end, snippets=True, workspace=workspace)
        else:
            req = Request(doc, kind, end.line, workspace, True, list)
            ctx = context_for(req, end.character)
            if ctx is not None:
                complete(req, ctx)
        hover(doc, kind, end, workspace=workspace, today=None)
