"""Helpers for the hostile suite: the stdio driver, positions and the fresh-analysis oracle
(all from `bench/soak.py`, so the soak and these tests check the same way), workspaces, and
the hypothesis profile.

`HYPOTHESIS_PROFILE=long` raises the example counts for a manual run; the default keeps the
whole suite within a few minutes on two cores.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
TODAY = "2026-11-21"
BOUND = 20.0  # seconds: an answer later than this is a hang


sys.path.insert(0, str(REPO / "bench"))
import soak  # noqa: E402  (bench/soak.py: the driver, positions and oracle)
from soak import (  # noqa: E402
    Hang,
    Lines,
    LspProcess,
    compare,
    expected_keys,
    fresh_findings,
    units,
)

__all__ = ["BOUND", "EXAMPLES", "LONG", "TODAY", "Hang", "Lines", "LspProcess", "compare",
           "copy_examples", "expected_keys", "finish", "fresh_findings", "index_findings",
           "profile", "ranges_in", "server_env", "soak", "start_server", "stderr_of", "units"]

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
_SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large,
             HealthCheck.function_scoped_fixture]


def profile(examples: int) -> settings:
    """Hypothesis settings: `examples` in CI, 20 times as many with HYPOTHESIS_PROFILE=long."""
    return settings(max_examples=examples * 20 if LONG else examples, deadline=None,
                    derandomize=not LONG, database=None, print_blob=True,
                    suppress_health_check=_SUPPRESS)


def server_env(**extra: str) -> dict[str, str]:
    return {**os.environ, "EVALYAML_TODAY": TODAY, "PYTHONFAULTHANDLER": "1", **extra}


def copy_examples(target: Path, *, mistakes: bool = True) -> Path:
    """A copy of examples/ at `target` (the example config excludes mistakes/**)."""
    shutil.copytree(EXAMPLES, target,
                    ignore=None if mistakes else shutil.ignore_patterns("mistakes"))
    return target


def start_server(root: Path | None, tmp: Path, *, encoding: str = "utf-16", pull: bool = False,
                 env: dict[str, str] | None = None, wait_index: bool = True,
                 watchers: bool = False, name: str = "server") -> LspProcess:
    """A real `python -m evalyaml lsp`, initialized on `root` (its stderr in tmp/<name>.err)."""
    server = LspProcess(cwd=tmp, env=env or server_env(), stderr=tmp / f"{name}.err")
    try:
        server.initialize(root, encoding=encoding, pull=pull, watchers=watchers)
        if wait_index and root is not None:
            server.wait_until(server.progress_ended, 60, "initial indexing")
    except BaseException:
        server.kill()
        raise
    return server


def index_findings(root: Path, encoding: str) -> dict[Path, list[tuple[Any, ...]]]:
    """path -> a fresh in-process index's findings as a client in `encoding` sees them, for
    every file that has any: the oracle the server and the CLI are held to."""
    workspace = soak.fresh_workspace(root)
    out = {}
    for path in workspace.paths():
        findings = workspace.findings(path)
        if findings:
            out[path] = expected_keys(findings, soak.disk_lines(path).text, path.as_uri(),
                                      encoding)
    return out


def ranges_in(data: Any, uri: str) -> list[dict[str, Any]]:
    """Every range in an LSP answer that belongs to `uri` (or to no other uri)."""
    out: list[dict[str, Any]] = []

    def walk(node: Any, current: str | None) -> None:
        if isinstance(node, dict):
            here = node.get("uri", node.get("targetUri", current))
            if isinstance(here, str):
                current = here
            for key, value in node.items():
                if key in ("range", "selectionRange", "targetRange", "targetSelectionRange") \
                        and isinstance(value, dict) and "start" in value:
                    if current in (None, uri):
                        out.append(value)
                elif key == "changes" and isinstance(value, dict):
                    for target, edits in value.items():
                        walk(edits, target)
                elif key == "textDocument" and isinstance(value, dict):
                    current = value.get("uri", current)
                else:
                    walk(value, current)
        elif isinstance(node, list):
            for item in node:
                walk(item, current)

    walk(data, None)
    return out


def stderr_of(tmp: Path, name: str = "server") -> str:
    path = tmp / f"{name}.err"
    return path.read_text("utf-8", errors="replace") if path.exists() else ""


def assert_alive(server: LspProcess, uri: str | None = None) -> None:
    """The server still runs and answers a request within the bound."""
    assert server.alive(), f"the server died with status {server.proc.returncode}"
    if uri is None:
        server.call("workspace/symbol", {"query": "zz"}, BOUND)
    else:
        server.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, BOUND)


def finish(server: LspProcess, tmp: Path, name: str = "server", *,
           allow_tracebacks: bool = False) -> None:
    """`shutdown` + `exit` gives exit status 0, and the server logged no traceback (unless the
    test sent what pygls logs with one: malformed messages)."""
    try:
        code = server.shutdown_and_exit(BOUND)
    finally:
        server.kill()
    errors = stderr_of(tmp, name)
    assert "Fatal Python error" not in errors, errors[-4000:]
    assert allow_tracebacks or "Traceback" not in errors, errors[-4000:]
    assert code == 0, f"exit status {code} after shutdown + exit\n{errors[-2000:]}"
