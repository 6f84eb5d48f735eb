"""The whole upstream `lm_eval/tasks` tree at the pinned commit gives exactly the findings in
`upstream_expected.txt`, each with the harness rule that confirms it (upstream mistakes).

Skipped when the fetched repository is absent (`/work/.mirror/...` or `$LMEVAL_GIT_DIR`); it
takes about half a minute on one core.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

PINNED = "4e7e0d47f33bc71070c1d38394bafbb52b117163"
GIT_DIR = Path(os.environ.get("LMEVAL_GIT_DIR",
                              "/work/.mirror/EleutherAI+lm-evaluation-harness/repo"))
EXPECTED = Path(__file__).with_name("upstream_expected.txt")


def _has_commit() -> bool:
    if not GIT_DIR.is_dir():
        return False
    done = subprocess.run(["git", "--git-dir", str(GIT_DIR), "cat-file", "-e", PINNED],
                          capture_output=True, check=False)
    return done.returncode == 0


@pytest.mark.skipif(not _has_commit(), reason="the lm-evaluation-harness repository is absent")
def test_upstream_tree_findings_are_the_listed_upstream_mistakes(tmp_path: Path) -> None:
    data = subprocess.run(["git", "--git-dir", str(GIT_DIR), "archive", PINNED, "lm_eval/tasks"],
                          capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(tmp_path, filter="data")
    tasks = tmp_path / "lm_eval" / "tasks"
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", str(tasks), "--format",
                           "json"], capture_output=True, text=True, timeout=600, check=False)
    found = json.loads(done.stdout)
    got = [f"{Path(f['path']).relative_to(tasks).as_posix()} {f['range']['start']['line'] + 1} "
           f"{f['code']}" for f in found]
    expected = [line.split("  #")[0] for line in EXPECTED.read_text("utf-8").splitlines()
                if line and not line.startswith("#")]
    assert got == expected
