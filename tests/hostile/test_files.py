"""Hostile files through the CLI and the server: an answer within the bound, the same answer
everywhere, nothing constructed, and the server stays up.

The corpus (`corpus.py`): every example file truncated at a dozen points (mid-line, mid-quote,
mid-character), invalid UTF-8, NUL bytes, BOMs (UTF-8 once, twice, inside; UTF-16; UTF-32),
CRLF / CR / mixed line ends, U+2028/U+2029/U+0085 in values, 10 MB single lines, nesting
10,000 deep (flow, compact sequences) and 3,000 deep (block), alias bombs, 100,000 keys,
thousands of duplicate keys, `!!python/...` and other tags, 5,000-digit numbers, regex and
schema bombs, and files that are not YAML at all.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from tests.hostile.corpus import all_hostile, special_files
from tests.hostile.harness import (
    BOUND,
    TODAY,
    Lines,
    compare,
    expected_keys,
    finish,
    fresh_findings,
    index_findings,
    server_env,
    soak,
    start_server,
)

PWNED = Path("/tmp/pwned")
SEVERITY_NAMES = {1: "error", 2: "warning", 3: "information", 4: "hint"}


def write_corpus(root: Path, files: list[tuple[str, bytes]]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "evalyaml.toml").write_bytes(b"")
    for rel, data in files:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


Keys = list[tuple[Any, ...]]


def oracle(root: Path) -> dict[Path, Keys]:
    """path -> what a fresh index finds, in UTF-32 columns (what the CLI's JSON prints)."""
    return index_findings(root, "utf-32")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[Path, Keys]]:
    PWNED.unlink(missing_ok=True)
    root = tmp_path_factory.mktemp("corpus") / "ws"
    write_corpus(root, all_hostile())
    started = time.perf_counter()
    expected = oracle(root)
    # The whole corpus analysed in-process, one file after another: a bound per file would
    # need a process per file; the total bounds every one of them.
    assert time.perf_counter() - started < 120
    return root, expected


def test_the_cli_on_the_whole_corpus(corpus: tuple[Path, dict[Path, Keys]]) -> None:
    """One `evalyaml check` over ~900 hostile files (worker processes, since the corpus is
    large) gives exactly the in-process findings, located inside each file."""
    root, expected = corpus
    done = subprocess.run(
        [sys.executable, "-m", "evalyaml", "check", "--today", TODAY, "--format", "json", "."],
        cwd=root, capture_output=True, text=True, timeout=180, check=False,
        env=server_env())
    assert done.stderr == "", done.stderr[-3000:]
    findings = json.loads(done.stdout)
    got: dict[Path, Keys] = {}
    for item in findings:
        path = (root / item["path"]).resolve() if not Path(item["path"]).is_absolute() \
            else Path(item["path"])
        rng = item["range"]
        problem = soak.disk_lines(path).valid_range(rng, "utf-32")
        assert problem is None, f"{item['path']}: {item['code']}: {problem}"
        related = tuple(
            ((root / r["path"]).resolve().as_uri() if r.get("path") else path.as_uri(),
             (r["range"]["start"]["line"], r["range"]["start"]["character"],
              r["range"]["end"]["line"], r["range"]["end"]["character"]), r["message"])
            for r in item.get("related", ()))
        got.setdefault(path, []).append((
            item["code"], (rng["start"]["line"], rng["start"]["character"],
                           rng["end"]["line"], rng["end"]["character"]),
            item["message"], {v: k for k, v in SEVERITY_NAMES.items()}[item["severity"]],
            related))
    wanted = {p.resolve(): v for p, v in expected.items()}
    assert sorted(got) == sorted(wanted)
    for path, keys in got.items():
        assert sorted(keys) == wanted[path], path
    errors = any(item["severity"] == "error" for item in findings)
    assert done.returncode == (1 if errors else 0)
    assert not PWNED.exists()


def test_the_server_indexes_the_whole_corpus(
        corpus: tuple[Path, dict[Path, Keys]], tmp_path: Path) -> None:
    """The server indexes the corpus (in spawned workers: it is over 400 files), publishes for
    every closed file exactly what a fresh analysis gives, answers, and exits cleanly."""
    root, expected = corpus
    server = start_server(root, tmp_path, encoding="utf-8")
    try:
        server.wait_until(server.progress_ended, 120, "indexing the corpus")
        deadline = time.monotonic() + 60
        while True:  # compare once the publishes have stopped for a moment
            count = len(server.published())
            time.sleep(1.0)
            if len(server.published()) != count:
                continue
            differences = []
            for path, keys in expected.items():
                last = server.last_published(path.as_uri())
                difference = compare(_utf8(keys, path), last["diagnostics"] if last else [])
                if difference is not None:
                    differences.append(f"{path.relative_to(root)}: {difference}")
            if not differences:
                break
            assert time.monotonic() < deadline, "\n".join(differences[:10])
        clean = {p.as_uri() for p in root.rglob("*.yaml")} - {p.as_uri() for p in expected}
        for uri in clean:
            last = server.last_published(uri)
            assert last is None or last["diagnostics"] == [], uri
        server.call("workspace/symbol", {"query": "hostile"}, BOUND)
        assert server.alive()
    finally:
        finish(server, tmp_path)
    assert not PWNED.exists()


def _utf8(keys: Keys, path: Path) -> Keys:
    """Expected keys in UTF-32 columns -> UTF-8 columns (the session's encoding)."""
    lines = soak.disk_lines(path)
    out = []
    for code, rng, message, severity, related in keys:
        out.append((code, _convert(lines, rng), message, severity,
                    tuple((uri, _convert(soak.disk_lines(Path(uri[7:])), r), m)
                          for uri, r, m in related)))
    return sorted(out)


def _convert(lines: Lines, rng: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    start = lines.core_to_lsp(rng[0], rng[1], "utf-8")
    end = lines.core_to_lsp(rng[2], rng[3], "utf-8")
    return (start["line"], start["character"], end["line"], end["character"])


def _text(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
def test_the_server_opens_each_hostile_file(encoding: str, tmp_path: Path) -> None:
    """Each decodable hostile file opened in the editor: its diagnostics arrive within the
    bound and equal a fresh analysis; the server answers a request afterwards."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "evalyaml.toml").write_bytes(b"")
    server = start_server(root, tmp_path, encoding=encoding)
    version = 0
    opened = 0
    try:
        for rel, data in special_files():
            text = _text(data)
            if text is None or (encoding == "utf-8" and len(data) > 100_000):
                continue
            version += 1
            path = root / rel
            uri = path.as_uri()
            started = time.monotonic()
            server.open(uri, text, version)
            published = server.wait_publish(uri, version, BOUND)
            elapsed = time.monotonic() - started
            expected = fresh_findings(root, {path: text})[path]
            difference = compare(expected_keys(expected, text, uri, encoding),
                                 published["diagnostics"])
            assert difference is None, f"{rel}: {difference}"
            lines = Lines(text)
            for diagnostic in published["diagnostics"]:
                problem = lines.valid_range(diagnostic["range"], encoding)
                assert problem is None, f"{rel}: {diagnostic['code']}: {problem}"
            answer = server.request("textDocument/documentSymbol",
                                    {"textDocument": {"uri": uri}}, BOUND)
            assert "result" in answer, f"{rel}: {answer}"
            hover = server.request("textDocument/hover", {
                "textDocument": {"uri": uri}, "position": {"line": 3, "character": 6}}, BOUND)
            assert "result" in hover, f"{rel}: {hover}"
            server.close_document(uri)
            assert elapsed < BOUND, f"{rel}: diagnostics after {elapsed:.1f} s"
            opened += 1
        assert opened >= (45 if encoding == "utf-16" else 35)
    finally:
        finish(server, tmp_path)
    assert not PWNED.exists()
