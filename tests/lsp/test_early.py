"""The case worker starts at `initialize` when the workspace holds a large YAML file
(`lsp.early`): found by a bounded look at the roots, and seen as a real child process of a
real server before the client has sent anything else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evalyaml.config import DEFAULT_EXCLUDE
from evalyaml.lsp import early

BIG = "questions:\n" + "  - id: q\n    input: x\n" * 45_000  # about 1.1 MB


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_large_yaml_file_below_the_root_is_found(tmp_path: Path) -> None:
    assert len(BIG) > early.LARGE_TEXT
    _write(tmp_path / "rubrics" / "small.yaml", "id: r\n")
    assert not early._holds_large_yaml([str(tmp_path)])
    _write(tmp_path / "evals" / "datasets" / "cases.yml", BIG)
    assert early._holds_large_yaml([str(tmp_path)])


@pytest.mark.parametrize("where", ["node_modules/pkg/cases.yaml", ".cache/cases.yaml",
                                   "venv/cases.yaml", "data/cases.json", "data/cases.yaml.bak"])
def test_excluded_folders_and_other_files_are_not_looked_at(tmp_path: Path, where: str) -> None:
    _write(tmp_path / where, BIG)
    assert not early._holds_large_yaml([str(tmp_path)])


def test_links_are_not_followed(tmp_path: Path) -> None:
    outside = _write(tmp_path / "outside" / "cases.yaml", BIG)
    root = tmp_path / "root"
    root.mkdir()
    (root / "cases.yaml").symlink_to(outside)
    (root / "data").symlink_to(outside.parent, target_is_directory=True)
    assert not early._holds_large_yaml([str(root)])


def test_the_look_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(30):
        _write(tmp_path / f"a{n:02}" / "small.yaml", "id: r\n")
    # two levels down: breadth first, it is read after every entry of the levels above (the
    # root's 30 folders and their 30 files, 60 entries), whatever order they are listed in
    _write(tmp_path / "a00" / "data" / "cases.yaml", BIG)
    assert early._holds_large_yaml([str(tmp_path)])
    monkeypatch.setattr(early, "SCAN_ENTRIES", 61)
    assert not early._holds_large_yaml([str(tmp_path)])
    monkeypatch.setattr(early, "SCAN_ENTRIES", 2_000)
    monkeypatch.setattr(early, "SCAN_SECONDS", 0.0)
    assert not early._holds_large_yaml([str(tmp_path)])


def test_a_missing_root_is_no_error(tmp_path: Path) -> None:
    assert not early._holds_large_yaml([str(tmp_path / "gone"), str(tmp_path)])


def test_skipped_names_are_the_default_excludes() -> None:
    assert {name for name in DEFAULT_EXCLUDE if not name.startswith(".")} == early.SKIPPED


def test_roots_as_initialize_names_them() -> None:
    folders = {"workspaceFolders": [{"uri": "file:///w/a%20b", "name": "a"},
                                    {"uri": "untitled:x", "name": "x"}],
               "rootUri": "file:///ignored", "rootPath": "/ignored"}
    assert early._roots(folders) == ["/w/a b"]
    assert early._roots({"workspaceFolders": None, "rootUri": "file:///r"}) == ["/r"]
    assert early._roots({"workspaceFolders": [], "rootUri": "file:///r"}) == ["/r"]
    assert early._roots({"rootUri": None, "rootPath": "/p"}) == ["/p"]
    assert early._roots({}) == []


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with open(task / "children", encoding="ascii") as children:
            found += [int(child) for child in children.read().split()]
    return found


def _worker_after_initialize(root: Path, wait: float) -> bool:
    """Whether the server has a child process `wait` seconds after `initialize`, the only
    message it is sent (no `initialized`: the indexer never starts)."""
    server = subprocess.Popen([sys.executable, "-m", "evalyaml", "lsp"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write(_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {}}}))
        server.stdin.flush()
        assert b"Content-Length" in server.stdout.readline()  # answered
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if _children(server.pid):
                return True
            time.sleep(0.05)
        return False
    finally:
        server.kill()
        server.wait()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir() or len(os.sched_getaffinity(0)) < 2,
                    reason="needs Linux's /proc and two cores (one core: no worker)")
def test_the_worker_starts_at_initialize_for_a_workspace_with_a_large_dataset(
        tmp_path: Path) -> None:
    small = tmp_path / "small"
    _write(small / "datasets" / "cases.yaml", "questions:\n  - id: q\n    input: x\n")
    assert not _worker_after_initialize(small, 3.0)
    large = tmp_path / "large"
    _write(large / "datasets" / "cases.yaml", BIG)
    assert _worker_after_initialize(large, 10.0)


def test_the_collector_is_off_while_importing_and_on_again_once_resumed() -> None:
    """`pause_collector` (the import thread, first) and `resume_collector` (the indexer, once
    the first documents are published): off in between, then on, with what lived frozen and
    the garbage collected; a collector already off is left as it is."""
    import gc

    frozen = gc.get_freeze_count()
    try:
        early.pause_collector()
        assert not gc.isenabled()
        cycle: list[object] = []
        cycle.append(cycle)  # garbage only the collector can free
        del cycle
        early.resume_collector()
        assert gc.isenabled()
        assert gc.get_freeze_count() > frozen
        assert gc.collect() == 0  # the cycle went before the freeze, not into it
        early.resume_collector()  # once only
        assert gc.isenabled()
        gc.disable()
        early.pause_collector()
        early.resume_collector()
        assert not gc.isenabled()  # not ours to turn on
    finally:
        gc.unfreeze()
        gc.enable()
