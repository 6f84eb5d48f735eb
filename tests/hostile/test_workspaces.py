"""Hostile workspaces: symlink loops and links out of the root, FIFOs and folders named
`x.yaml`, unreadable files and folders, files deleted and replaced while the index is built,
non-YAML content in `.yaml` files, and 100,000 files.

The server must finish indexing within the bound, publish for every file exactly what a fresh
analysis of the final disk state gives (nothing stale, nothing from outside the root), answer
requests throughout, and exit cleanly; the CLI must finish within the bound without a traceback.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from tests.hostile.corpus import DATASET
from tests.hostile.harness import (
    BOUND,
    EXAMPLES,
    LONG,
    TODAY,
    LspProcess,
    assert_alive,
    compare,
    copy_examples,
    expected_keys,
    finish,
    index_findings,
    server_env,
    start_server,
)

OUTSIDE_RUBRIC = b'id: outside_secret\nversion: "1.0.0"\nchecks:\n  - kind: format\n' \
    b"    format: json\nscoring:\n  combine: all_pass\n"


def oracle(root: Path, encoding: str = "utf-16") -> dict[str, list[tuple[Any, ...]]]:
    """uri -> what a fresh index finds (EY311 of the entries that could not be read included)."""
    return {path.as_uri(): keys for path, keys in index_findings(root, encoding).items()}


def settle(server: LspProcess, expected: dict[str, list[tuple[Any, ...]]], root: Path,
           timeout: float = 60) -> None:
    """Wait until the publishes stop, then hold every file's last publish to `expected`
    (files absent from it must have none, or an empty one)."""
    server.wait_until(server.progress_ended, 120, "indexing")
    deadline = time.monotonic() + timeout
    while True:
        count = len(server.published())
        time.sleep(0.8)
        if len(server.published()) != count:
            continue
        problems = []
        uris = set(expected) | {p["uri"] for p in server.published()}
        for uri in sorted(uris):
            last = server.last_published(uri)
            got = last["diagnostics"] if last else []
            difference = compare(expected.get(uri, []), got)
            if difference is not None:
                problems.append(f"{uri.removeprefix(root.as_uri())}: {difference}")
        if not problems:
            return
        assert time.monotonic() < deadline, "\n".join(problems[:10])


def check_cli(root: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", "--today", TODAY, "."],
                          cwd=root, capture_output=True, text=True, timeout=120, check=False,
                          env=server_env())
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.returncode in (0, 1), (done.returncode, done.stderr[-2000:])
    return done


# ------------------------------------------------------------------------------ traps
def build_traps(base: Path) -> Path:
    root = copy_examples(base / "ws", mistakes=False)
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret_rubric.yaml").write_bytes(OUTSIDE_RUBRIC)
    (root / "loop").mkdir()
    os.symlink("..", root / "loop" / "up")
    os.symlink(".", root / "loop" / "self")
    os.symlink(outside, root / "rubrics" / "outside_folder")
    os.symlink("loop_b.yaml", root / "rubrics" / "loop_a.yaml")
    os.symlink("loop_a.yaml", root / "rubrics" / "loop_b.yaml")
    os.symlink("missing.yaml", root / "rubrics" / "dangling.yaml")
    os.symlink(outside / "secret_rubric.yaml", root / "rubrics" / "outside.yaml")
    os.symlink("/dev/zero", root / "datasets" / "zero.yaml")
    os.mkfifo(root / "rubrics" / "fifo.yaml")
    (root / "rubrics" / "folder.yaml").mkdir()
    (root / "rubrics" / "folder.yaml" / "inner.yaml").write_bytes(
        OUTSIDE_RUBRIC.replace(b"outside_secret", b"inner_rubric"))
    (root / "rubrics" / "png.yaml").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    (root / "rubrics" / "script.yaml").write_bytes(b"#!/bin/sh\ntouch /tmp/pwned\n")
    (root / "judges" / "utf16.yaml").write_bytes("id: x\n".encode("utf-16"))
    (root / "datasets" / "json.yaml").write_bytes(b'{"questions": [{"id": 1}]}')
    (root / "datasets" / "toml.yaml").write_bytes(b'[tool]\nname = "x"\n')
    (root / "datasets" / "empty.yaml").write_bytes(b"")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "bad.yaml").write_bytes(DATASET + b"questions: [\n")
    return root


def test_a_workspace_of_traps(tmp_path: Path) -> None:
    root = build_traps(tmp_path)
    started = time.monotonic()
    done = check_cli(root)
    assert time.monotonic() - started < 60
    assert "rubrics/fifo.yaml:1:1: warning EY311 cannot read this file (not a regular file)" \
        in done.stdout
    assert "rubrics/loop_a.yaml:1:1: warning EY311 cannot read this file (a broken or looping" \
        in done.stdout
    assert "outside" not in done.stdout and "node_modules" not in done.stdout
    expected = oracle(root)  # EY311 of the FIFO and the broken links included
    server = start_server(root, tmp_path)
    try:
        settle(server, expected, root)
        symbols = server.call("workspace/symbol", {"query": "secret"}, BOUND)
        assert not symbols, symbols  # nothing defined outside the root is indexed
        inner = server.call("workspace/symbol", {"query": "inner_rubric"}, BOUND)
        assert [s["name"] for s in inner] == ["rubric/inner_rubric@1.0.0"], inner
        assert_alive(server)
    finally:
        finish(server, tmp_path)


def test_a_fifo_changed_on_disk_does_not_block_the_engine(tmp_path: Path) -> None:
    root = copy_examples(tmp_path / "ws", mistakes=False)
    os.mkfifo(root / "rubrics" / "fifo.yaml")
    server = start_server(root, tmp_path)
    try:
        fifo = (root / "rubrics" / "fifo.yaml").as_uri()
        server.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": fifo, "type": 2}]})
        uri = (root / "datasets" / "after.yaml").as_uri()
        server.open(uri, DATASET.decode() + "questions:\n  - id: a\n    input: b\n", 1)
        server.wait_publish(uri, 1, 4)
    finally:
        server.kill()


def test_unreadable_entries_are_published(tmp_path: Path) -> None:
    root = build_traps(tmp_path)
    expected = oracle(root)
    assert (root / "rubrics" / "fifo.yaml").as_uri() in expected
    server = start_server(root, tmp_path)
    try:
        settle(server, expected, root, timeout=4)
    finally:
        finish(server, tmp_path)
    # A pulling client finds them in `workspace/diagnostic`.
    server = start_server(root, tmp_path, pull=True, name="pull")
    try:
        unreadable = {uri for uri, keys in expected.items() if any(k[0] == "EY311" for k in keys)}
        assert (root / "rubrics" / "fifo.yaml").as_uri() in unreadable

        def listed() -> set[str]:
            report = server.call("workspace/diagnostic", {"previousResultIds": []}, BOUND)
            return {item["uri"] for item in report["items"]
                    if any(d.get("code") == "EY311" for d in item.get("items", []))}

        server.wait_until(lambda: unreadable <= listed(), BOUND, "EY311 in workspace/diagnostic")
    finally:
        finish(server, tmp_path, "pull")


# ------------------------------------------------------------------------------ unreadable
def unprivileged() -> list[str]:
    """A command prefix under which permission bits apply (root ignores them)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: permission bits cannot be tested")
    caps = "-dac_override,-dac_read_search"
    return [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}"]


def test_unreadable_files_and_folders(tmp_path: Path) -> None:
    """The CLI reports an unreadable file and folder (EY311) without a traceback; the server,
    when a file becomes unreadable and readable again, swaps its findings and EY311 with
    nothing stale left behind."""
    prefix = unprivileged()
    root = copy_examples(tmp_path / "ws", mistakes=False)
    secret = root / "rubrics" / "secret.yaml"
    secret.write_bytes(b'id: secret\nversion: 1.10\nchecks: []\nscoring:\n  combine: all_pass\n')
    locked = root / "locked"
    (locked / "rubrics").mkdir(parents=True)
    (locked / "rubrics" / "a.yaml").write_bytes(OUTSIDE_RUBRIC)
    readable = oracle(root)[secret.as_uri()]
    secret.chmod(0)
    locked.chmod(0)
    try:
        done = subprocess.run([*prefix, sys.executable, "-m", "evalyaml", "check", "--today",
                               TODAY, "."], cwd=root, capture_output=True, text=True,
                              timeout=60, check=False, env=server_env())
        assert "Traceback" not in done.stderr, done.stderr
        assert "rubrics/secret.yaml:1:1: warning EY311 cannot read this file (Permission " \
            "denied); anything it defines is missing from the workspace" in done.stdout
        assert "locked:1:1: warning EY311 cannot list this folder (Permission denied); files " \
            "in it are not indexed" in done.stdout, done.stdout
        secret.chmod(0o644)
        server = LspProcess([*prefix, sys.executable, "-m", "evalyaml", "lsp"], cwd=tmp_path,
                            env=server_env(), stderr=tmp_path / "server.err")
        uri = secret.as_uri()

        def last() -> list[dict[str, Any]]:
            published = server.last_published(uri)
            return list(published["diagnostics"]) if published else []

        def codes() -> list[str]:
            return [d["code"] for d in last()]

        try:
            server.initialize(root, watchers=True)
            server.wait_until(server.progress_ended, 60, "indexing")
            server.wait_until(codes, BOUND, "the readable file's findings")
            assert compare(readable, last()) is None
            for round_ in range(2):
                secret.chmod(0)
                server.notify("workspace/didChangeWatchedFiles",
                              {"changes": [{"uri": uri, "type": 2}]})
                server.wait_until(lambda: codes() == ["EY311"], BOUND, f"EY311 ({round_})")
                assert last()[0]["message"] == (
                    "cannot read this file (Permission denied); anything it defines is "
                    "missing from the workspace")
                secret.chmod(0o644)
                server.notify("workspace/didChangeWatchedFiles",
                              {"changes": [{"uri": uri, "type": 2}]})
                server.wait_until(lambda: "EY311" not in codes() and codes(), BOUND,
                                  f"findings again ({round_})")
                assert compare(readable, last()) is None
            assert_alive(server)
        finally:
            finish(server, tmp_path)
    finally:
        secret.chmod(0o644)
        locked.chmod(0o755)


# ------------------------------------------------------------------------------ churn
def churn_workspace(root: Path, files: int) -> list[Path]:
    root.mkdir(parents=True)
    (root / "evalyaml.toml").write_bytes(b"")
    shutil.copytree(EXAMPLES / "judges", root / "judges")
    rubric = (EXAMPLES / "rubrics" / "factuality.yaml").read_text("utf-8")
    dataset = (EXAMPLES / "datasets" / "agent_tasks.yaml").read_text("utf-8")
    (root / "rubrics").mkdir()
    (root / "datasets").mkdir()
    shutil.copy(EXAMPLES / "rubrics" / "tool_use.yaml", root / "rubrics" / "tool_use.yaml")
    paths = []
    for index in range(files):
        if index % 2:
            path = root / "rubrics" / f"r{index}.yaml"
            path.write_text(rubric.replace("id: factuality", f"id: r{index}"), "utf-8")
        else:
            path = root / "datasets" / f"d{index}.yaml"
            path.write_text(dataset, "utf-8")
        paths.append(path)
    return paths


def test_files_deleted_and_replaced_while_indexing(tmp_path: Path) -> None:
    """While a 1,200-file index is built (in worker processes), files are deleted, replaced by
    broken ones, created, and tool_use.yaml (which every dataset uses) changes its version; the
    watcher notifications arrive mid-index. Afterwards every file's diagnostics are those of
    a fresh analysis of the final disk state."""
    root = tmp_path / "ws"
    paths = churn_workspace(root, 1200)
    server = LspProcess(cwd=tmp_path, env=server_env(), stderr=tmp_path / "server.err")
    try:
        server.initialize(root, watchers=True)
        changes = []
        for index, path in enumerate(paths[::7]):
            if index % 3 == 0:
                path.unlink()
                changes.append({"uri": path.as_uri(), "type": 3})
            elif index % 3 == 1:
                temporary = path.with_suffix(".tmp")
                temporary.write_text(path.read_text("utf-8").replace(
                    'version: "1.2.0"', "version: 1.10").replace("- id:", "- id: [", 1),
                    "utf-8")
                temporary.replace(path)
                changes.append({"uri": path.as_uri(), "type": 2})
            else:
                created = path.with_name("new_" + path.name)
                created.write_bytes(DATASET + b"questions:\n  - id: n\n    input: x\n"
                                    b"    rubric_ref: rubric/tool_use@1.0.0\n")
                changes.append({"uri": created.as_uri(), "type": 1})
        tool_use = root / "rubrics" / "tool_use.yaml"
        tool_use.write_text(tool_use.read_text("utf-8").replace('"1.0.0"', '"2.0.0"'), "utf-8")
        changes.append({"uri": tool_use.as_uri(), "type": 2})
        during = not server.progress_ended()
        server.notify("workspace/didChangeWatchedFiles", {"changes": changes})
        expected = oracle(root)
        settle(server, expected, root)
        assert_alive(server)
        print(f"{len(changes)} changes, sent {'during' if during else 'after'} indexing")
    finally:
        finish(server, tmp_path)


# ------------------------------------------------------------------------------ scale
def test_a_hundred_thousand_files(tmp_path: Path) -> None:
    """100,000 files (most of them not YAML, 2,000 foreign YAML, 500 eval files; all YAML with
    HYPOTHESIS_PROFILE=long): an open document is analysed at once while the index is built,
    requests are answered, indexing ends within the bound, and the server exits cleanly."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "evalyaml.toml").write_bytes(b"")
    shutil.copytree(EXAMPLES / "rubrics", root / "rubrics")
    shutil.copytree(EXAMPLES / "judges", root / "judges")
    dataset = (EXAMPLES / "datasets" / "support_faq.yaml").read_bytes()
    yaml_every = 1 if LONG else 40
    for folder in range(100):  # hard links: 100,000 names cost a fraction of 100,000 inodes
        target = root / f"d{folder:02d}"
        target.mkdir()
        (target / "plain.txt").write_bytes(b"x")
        (target / "foreign.yml").write_bytes(b"name: x\nv: %d\n" % folder)
        for index in range(1000):
            number = folder * 1000 + index
            if number % 200 == 0:
                (target / f"eval{index}.yaml").write_bytes(dataset)
            elif number % yaml_every == 0:
                os.link(target / "foreign.yml", target / f"f{index}.yaml")
            else:
                os.link(target / "plain.txt", target / f"f{index}.txt")
    started = time.monotonic()
    server = start_server(root, tmp_path, wait_index=False)
    try:
        path = root / "d00" / "mine.yaml"
        text = DATASET.decode() + "questions:\n  - id: a\n    expecteed_facts: [x]\n"
        server.open(path.as_uri(), text, 1)
        published = server.wait_publish(path.as_uri(), 1, BOUND)
        expected = expected_keys(_own(path, text), text, path.as_uri(), "utf-16")
        assert compare(expected, published["diagnostics"]) is None
        server.call("textDocument/hover", {"textDocument": {"uri": path.as_uri()},
                                           "position": {"line": 2, "character": 6}}, BOUND)
        server.wait_until(server.progress_ended, 180 if LONG else 90, "indexing 100,000 files")
        took = time.monotonic() - started
        symbols = server.call("workspace/symbol", {"query": "factuality"}, BOUND)
        assert symbols
        print(f"100,000 files indexed in {took:.1f} s; RSS {server.rss_mb():.0f} MB")
    finally:
        finish(server, tmp_path)


def _own(path: Path, text: str) -> list[Any]:
    """The file's own findings (before the index is in, the server gives only these)."""
    from evalyaml.core.options import Options
    from evalyaml.dispatch import analyze_text

    return sorted(analyze_text(text, str(path), Options(today=date.fromisoformat(TODAY)))
                  .findings, key=lambda f: (f.span.start, f.span.end, f.code, f.message))
