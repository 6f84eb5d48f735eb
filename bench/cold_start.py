"""Cold start to first diagnostics: the server bundled in the VS Code extension against an
installed one.

    python bench/cold_start.py [--runs N] [--bundle vscode-client/bundled] [--workspace examples]

Each run spawns a server, sends `initialize`, `initialized` and `didOpen` of the EY205 example
and times, from the spawn, the first `publishDiagnostics` for that file that holds a finding
(what a user sees: the first squiggle). Variants:

- `bundled`: `python3 -I bundled/tool/evalyaml_server.py`, exactly as the extension runs it
  (pure-Python YAML parser: ruamel.yaml.clib is not bundled);
- `bundled+clib`: the same launcher run by this interpreter without `-I`, so the bundled code
  runs with this environment's ruamel.yaml.clib (the C parser), for comparison;
- `installed`: `python -m evalyaml lsp` from this environment (what a pip install gives).

Build the bundle first (`cd vscode-client && npm ci && npm run package`, or
`node scripts/bundle-server.mjs`). Prints a table of the median, fastest and slowest times.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsp_bench import CAPABILITIES, Client

REPO = Path(__file__).resolve().parents[1]
TYPO = "mistakes/datasets/EY205-typo-expecteed_facts.yaml"


def first_diagnostics_ms(command: list[str], workspace: Path) -> float:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    client = Client(command, {"evalyaml": {}}, workspace, env)
    try:
        client.request("initialize", {
            "processId": os.getpid(), "rootUri": workspace.as_uri(),
            "capabilities": CAPABILITIES,
            "workspaceFolders": [{"uri": workspace.as_uri(), "name": workspace.name}],
            "clientInfo": {"name": "cold_start"}}, timeout=120)
        client.notify("initialized", {})
        path = workspace / TYPO
        uri = path.as_uri()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1,
            "text": path.read_text(encoding="utf-8")}})
        deadline = time.perf_counter() + 120
        while time.perf_counter() < deadline:
            arrived, params = client.diagnostics.get(timeout=deadline - time.perf_counter())
            if params["uri"] == uri and params["diagnostics"]:
                return (arrived - client.started) * 1000
        raise TimeoutError("no diagnostics")
    finally:
        client.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bundle", type=Path, default=REPO / "vscode-client" / "bundled")
    parser.add_argument("--workspace", type=Path, default=REPO / "examples")
    parser.add_argument("--python", default=shutil.which("python3") or "python3",
                        help="interpreter for the `bundled` variant (default: python3 on PATH)")
    args = parser.parse_args(argv)
    launcher = args.bundle / "tool" / "evalyaml_server.py"
    if not (args.bundle / "libs" / "evalyaml").is_dir():
        print(f"no bundle in {args.bundle}: run `npm run package` in vscode-client/ first")
        return 2
    variants = {
        "bundled": [args.python, "-I", str(launcher)],
        "bundled+clib": [sys.executable, str(launcher)],
        "installed": [sys.executable, "-m", "evalyaml", "lsp"],
    }
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        workspace = Path(scratch) / "examples"
        shutil.copytree(args.workspace, workspace)
        for name, command in variants.items():
            first_diagnostics_ms(command, workspace)  # warm the OS file cache, write .pyc files
            times = [first_diagnostics_ms(command, workspace) for _ in range(args.runs)]
            rows.append((name, statistics.median(times), min(times), max(times)))
            print(f"{name:14} {' '.join(f'{t:6.0f}' for t in times)} ms", flush=True)
    print("\n| variant | median ms | min ms | max ms |\n| --- | --- | --- | --- |")
    for name, med, lo, hi in rows:
        print(f"| {name} | {med:.0f} | {lo:.0f} | {hi:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
