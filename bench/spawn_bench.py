"""Language-server start benchmark: spawn -> first diagnostics of one opened file (issue #27).

An editor starts `evalyaml lsp`, sends `initialize` and `initialized`, and opens the file in
view; the user waits for that file's first `publishDiagnostics`. Each spawn here is a fresh
process on a one-file workspace copied from `examples/` (a Padosoft dataset, or the contract's
dataset), driven by a standard-library client (Content-Length framing over stdio). Printed are
the medians of spawn -> `initialize` result and spawn -> first diagnostics of the opened file,
beside the interpreter alone. `--evalyaml-path DIR --label NAME` (repeatable) runs another
checkout's `server/` folder (with its `schemas/` beside it), for before/after columns.

Run: `python bench/spawn_bench.py [--spawns 7]`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[1]
FILES = {"padosoft-1": "padosoft/eval/golden/support_faq.yml",
         "contract-1": "datasets/support_faq.yaml"}


def _send(pipe: IO[bytes], message: dict[str, Any]) -> None:
    body = json.dumps(message).encode("utf-8")
    pipe.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    pipe.flush()


def _read(pipe: IO[bytes]) -> dict[str, Any]:
    length = 0
    while (line := pipe.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    if not length:
        raise SystemExit("the server closed its output")
    result: dict[str, Any] = json.loads(pipe.read(length))
    return result


def spawn_once(root: Path, rel: str, env: dict[str, str]) -> tuple[float, float]:
    """(ms to the initialize result, ms to the opened file's first diagnostics)."""
    uri = (root / rel).as_uri()
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "evalyaml", "lsp"], cwd=root, env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    try:
        _send(server.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {},
            "workspaceFolders": [{"uri": root.as_uri(), "name": "ws"}]}})
        while _read(server.stdout).get("id") != 1:
            pass
        initialized = (time.perf_counter() - started) * 1000
        _send(server.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        _send(server.stdin, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                             "text": (root / rel).read_text(encoding="utf-8")}}})
        while True:
            message = _read(server.stdout)
            if message.get("method") == "textDocument/publishDiagnostics" and \
                    message["params"]["uri"] == uri:
                break
        return initialized, (time.perf_counter() - started) * 1000
    finally:
        server.kill()
        server.wait()


def environment(path: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(path.resolve()), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spawns", type=int, default=7)
    parser.add_argument("--evalyaml-path", type=Path, action="append", default=[])
    parser.add_argument("--label", action="append", default=[])
    args = parser.parse_args(argv)
    columns = [(None, "evalyaml")] if not args.evalyaml_path else [
        (path, args.label[i] if i < len(args.label) else f"evalyaml-{i + 1}")
        for i, path in enumerate(args.evalyaml_path)]
    with tempfile.TemporaryDirectory(prefix="spawn-bench-") as tmp:
        print(f"median of {args.spawns} spawns" + "".join(
            f"  {label + ' init':>16} {label + ' diags':>16}" for _, label in columns))
        for name, rel in FILES.items():
            root = Path(tmp) / name
            (root / rel).parent.mkdir(parents=True)
            shutil.copyfile(REPO / "examples" / rel, root / rel)
            cells: list[list[tuple[float, float]]] = [[] for _ in columns]
            for path, _ in columns:
                spawn_once(root, rel, environment(path))  # warm: files and bytecode caches
            for _ in range(args.spawns):  # the columns take turns, so a noisy minute hurts all
                for column, (path, _) in enumerate(columns):
                    cells[column].append(spawn_once(root, rel, environment(path)))
            print(f"{name:<22}" + "".join(
                f"  {statistics.median(i for i, _ in c):>13.0f} ms "
                f"{statistics.median(d for _, d in c):>13.0f} ms" for c in cells))
        print(f"load average: {os.getloadavg()[0]:.2f} (2 cores)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
