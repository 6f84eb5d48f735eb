"""Every Eval Ever's own repository at pinned commits, checked whole: every finding is listed in
`upstream_findings.json` with the upstream rule that makes it true.

- `ddadd84a5` (the seed's commit): 5,300 aggregates of the 0.1.0 era under `data/`. Every
  finding there is one `every_eval_ever validate` 0.3.0 (PyPI) reports on the same file:
  EY727 `check_score_metadata` (a score outside its metric's range: 166, file for file and
  result for result), EY730 `check_model_identity_path` (34 warnings), EY726
  `check_path_structure` (21). Its schema errors are not ours to repeat: those files declare
  0.1.0 and keep 0.1.0's schema (upstream judges them by 0.3.0's models; ARCHITECTURE.md).
- `9bce4136e` (HEAD of the mirror): the converters' and adapters' test data, no finding.

The mirror lacks a few blobs (large files fetched lazily upstream); those paths are left out and
the rest exported with `git archive COMMIT -- PATHS | tar -x`. Skipped when the mirror is absent.
Regenerate the list after a deliberate change with
`python -m tests.formats.eee.test_eee_upstream_trees` and check each new entry against the
upstream validator before committing it.
"""

from __future__ import annotations

import json
import subprocess
import tarfile
from pathlib import Path

import pytest

from evalyaml.workspace.index import Workspace

MIRROR = Path("/work/.mirror/evaleval+every_eval_ever/repo")
EXPECTED = Path(__file__).with_name("upstream_findings.json")
COMMITS = ("ddadd84a5", "9bce4136e")
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason="the upstream mirror is not here")


def export(git_dir: Path, commit: str, target: Path) -> int:
    """Write the commit's tree into `target`, skipping blobs the mirror does not hold."""
    git = ["git", f"--git-dir={git_dir}"]
    listing = subprocess.run([*git, "ls-tree", "-r", "-z", commit], capture_output=True,
                             check=True).stdout.split(b"\0")
    entries = [(line.split(b"\t", 1)[0].split()[2].decode(), line.split(b"\t", 1)[1].decode())
               for line in listing if line]
    checked = subprocess.run([*git, "cat-file", "--batch-check"], capture_output=True,
                             check=True, input="".join(f"{h}\n" for h, _ in entries).encode()
                             ).stdout.decode().splitlines()
    present = [path for (_, path), line in zip(entries, checked, strict=True)
               if not line.endswith(" missing")]
    for start in range(0, len(present), 400):  # bounded argument lists, one archive each
        archive = subprocess.Popen([*git, "archive", commit, "--", *present[start:start + 400]],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert archive.stdout is not None
        with tarfile.open(fileobj=archive.stdout, mode="r|") as tar:
            tar.extractall(target, filter="data")
        assert archive.wait() == 0
    return len(present)


def findings_of(root: Path) -> list[list[object]]:
    workspace = Workspace([root])
    workspace.index_all()
    return sorted([path.relative_to(root).as_posix(), finding.span.start.line, finding.code]
                  for path in workspace.eval_files() for finding in workspace.findings(path))


@needs_mirror
@pytest.mark.parametrize("commit", COMMITS)
def test_the_upstream_tree_gives_exactly_its_listed_findings(commit: str, tmp_path: Path
                                                             ) -> None:
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))[commit]
    assert export(MIRROR, commit, tmp_path) > 0
    found = findings_of(tmp_path)
    assert found == expected["findings"]
    assert {code for _, _, code in found} <= set(expected["rules"])


if __name__ == "__main__":  # pragma: no cover - regenerates the list, by hand
    import tempfile

    old = json.loads(EXPECTED.read_text(encoding="utf-8")) if EXPECTED.exists() else {}
    for name in COMMITS:
        with tempfile.TemporaryDirectory() as folder:
            export(MIRROR, name, Path(folder))
            old.setdefault(name, {"rules": {}})["findings"] = findings_of(Path(folder))
            old[name] = {"rules": old[name]["rules"], "findings": old[name]["findings"]}
    EXPECTED.write_text(json.dumps(old, indent=1) + "\n", encoding="utf-8")
