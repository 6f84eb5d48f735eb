"""AgentV's own repository as a test: the tree at the seed's commit (e43a4d46, 4.x) and at the
5.x HEAD the corpus copies (58f316ca), exported from the fetched mirror, checked whole. Every
finding must be one listed in `upstream_expected_<commit>.json`, each with the upstream rule
that makes it true, and every listed one must be found. Skipped when the mirror (the search
tool's `fetch` of github:EntityProcess/agentv) is not on this machine."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

MIRROR = Path("/work/.mirror/EntityProcess+agentv/repo")
HERE = Path(__file__).parent


def export(mirror: Path, commit: str, into: Path) -> Path | None:
    """The tree at `commit`, written under `into` (None when the mirror lacks it)."""
    if not mirror.is_dir():
        return None
    done = subprocess.run(["git", f"--git-dir={mirror}", "archive", commit],
                          capture_output=True, timeout=300, check=False)
    if done.returncode != 0:
        return None
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
        archive.extractall(into, filter="data")
    return into


def findings(tree: Path) -> list[tuple[str, int, int, str]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", str(tree), "--format",
                           "json"], capture_output=True, text=True, timeout=300, check=False)
    return sorted((str(Path(f["path"]).relative_to(tree)), f["range"]["start"]["line"] + 1,
                   f["range"]["start"]["character"] + 1, f["code"])
                  for f in json.loads(done.stdout))


def expected(listing: Path) -> list[tuple[str, int, int, str]]:
    rows = json.loads(listing.read_text(encoding="utf-8"))
    assert all(row["rule"] for row in rows), "every expected finding names its upstream rule"
    return sorted((row["path"], row["line"], row["column"], row["code"]) for row in rows)


@pytest.mark.parametrize("commit", ["e43a4d46", "58f316ca"])
def test_the_upstream_tree_gives_only_findings_an_upstream_rule_confirms(
        commit: str, tmp_path: Path) -> None:
    tree = export(MIRROR, commit, tmp_path / commit)
    if tree is None:
        pytest.skip("the AgentV mirror is not on this machine")
    assert findings(tree) == expected(HERE / f"upstream_expected_{commit}.json")
