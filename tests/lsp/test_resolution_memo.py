"""The editor index memoises resolutions per (kind, id, pin); typing a reference resolves every
prefix of it on the way. The memo must stay bounded over a long session, and what it answers
must stay what a fresh index answers."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.workspace.wshelpers import TODAY, dataset

from evalyaml.lsp.index import EditorWorkspace
from evalyaml.lsp.settings import Settings
from evalyaml.workspace.index import Workspace, normalize
from evalyaml.workspace.symbols import RESOLVED_SLACK

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def codes_and_messages(workspace: Workspace, path: Path) -> list[tuple[str, str, int]]:
    return [(f.code, f.message, f.span.start.line) for f in workspace.findings(path)]


def test_typing_thousands_of_references_keeps_the_memo_bounded(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLES, root, ignore=shutil.ignore_patterns("mistakes"))
    path = normalize(root / "datasets" / "typed.yaml")
    path.write_text(dataset("rubric/factuality@1.2"), "utf-8")
    editor = EditorWorkspace([root], Settings(), TODAY)
    editor.index_all()
    # Each keystroke names one more id nobody defines: factuality_1, factuality_12, ...
    typed = ""
    for keystroke in range(3 * RESOLVED_SLACK):
        typed += str(keystroke % 10)
        editor.set_text(path, dataset(f"rubric/factuality_{typed}@1.2", "rubric/factuality@1.2"))
        editor.findings(path)
        memo = editor.symbols
        assert len(memo.resolved) <= RESOLVED_SLACK + 2 * len(memo.referrers) + 1
    final = dataset(f"rubric/factuality_{typed}@1.2", "rubric/factuality@1.2",
                    "rubric/support_quality@1.0.0")
    editor.set_text(path, final)
    path.write_text(final, "utf-8")
    fresh = Workspace([root], today=TODAY)
    fresh.index_all()
    expected = codes_and_messages(fresh, path)
    assert codes_and_messages(editor, path) == expected
    assert [code for code, _, _ in expected] == ["EY301"]  # the typed id is unknown, only it
