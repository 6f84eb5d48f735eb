"""`agentv validate` (npm `agentv` 4.x) and `evalyaml check` side by side on AgentV suites with
planted mistakes: which mistakes each finds, where it places them, and how long each takes.

    python bench/agentv_side_by_side.py                  # agentv from /work/tools/agentv
    python bench/agentv_side_by_side.py --agentv PATH --runs 7 --corpus ../shared/corpus/agentv

The planted mistakes are `examples/agentv/mistakes/` (one file per evalyaml code, with the
grader prompts they adopt); each runs in a fresh git repository (agentv checks file references
only under a git root). For each file the table gives what agentv says (its JSON path) and what
evalyaml says (line:column and code). Timings are medians over `--runs` runs of one process
each over the whole folder, process start included. With `--corpus`, the same for a folder of
real suites (evalyaml's findings there are listed in tests/formats/agentv/test_corpus.py).
Nothing here is a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MISTAKES = REPO / "examples" / "agentv" / "mistakes"
DEFAULT_AGENTV = Path("/work/tools/agentv/node_modules/.bin/agentv")
_FILE = re.compile(r"^[✓✗] (?P<path>\S+)$")
_ITEM = re.compile(r"^\s+(?P<sev>[⚠✗]) (?:\[(?P<loc>[^\]]*)\] )?(?P<msg>.*)$")


def agentv_findings(agentv: str, folder: Path) -> tuple[dict[str, list[str]], float]:
    start = time.perf_counter()
    done = subprocess.run([agentv, "validate", str(folder)], cwd=folder, capture_output=True,
                          text=True, timeout=300, check=False)
    elapsed = time.perf_counter() - start
    found: dict[str, list[str]] = {}
    current: str | None = None
    for line in done.stdout.splitlines():
        file_match = _FILE.match(line)
        if file_match:
            current = Path(file_match.group("path")).relative_to(folder).as_posix()
            found.setdefault(current, [])
            continue
        item = _ITEM.match(line)
        if item and current is not None:
            severity = "error" if item.group("sev") == "✗" else "warning"
            found[current].append(f"{severity} [{item.group('loc') or '-'}] "
                                  f"{item.group('msg')[:60]}")
    return found, elapsed


def evalyaml_findings(folder: Path) -> tuple[dict[str, list[str]], float]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", ".", "--format",
                           "json"], cwd=folder, capture_output=True, text=True, timeout=300,
                          check=False)
    elapsed = time.perf_counter() - start
    found: dict[str, list[str]] = {}
    for item in json.loads(done.stdout or "[]"):
        start_pos = item["range"]["start"]
        name = item["path"]
        found.setdefault(name, []).append(
            f"{item['severity']} {start_pos['line'] + 1}:{start_pos['character'] + 1} "
            f"{item['code']} {item['message'][:60]}")
    return found, elapsed


def _git_folder(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    (target / "evalyaml.toml").write_text("", encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(target)], check=True)
    return target


def run(agentv: str, root: Path, runs: int) -> tuple[dict[str, list[str]], dict[str, list[str]],
                                                     float, float]:
    """Both tools `runs` times on `root`, taking turns: each one's findings (the last run's)
    and its median wall time."""
    a_times, e_times = [], []
    a_found: dict[str, list[str]] = {}
    e_found: dict[str, list[str]] = {}
    for _ in range(runs):
        a_found, a_time = agentv_findings(agentv, root)
        e_found, e_time = evalyaml_findings(root)
        a_times.append(a_time)
        e_times.append(e_time)
    return a_found, e_found, statistics.median(a_times), statistics.median(e_times)


def compare(agentv: str, source: Path, runs: int, title: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = _git_folder(source, Path(tmp) / "ws")
        a_found, e_found, a_med, e_med = run(agentv, folder, runs)
    names = sorted(set(a_found) | set(e_found))
    print(f"\n## {title}\n")
    print("| file | agentv validate (JSON path) | evalyaml check (line:col code) |")
    print("| --- | --- | --- |")
    caught_a = caught_e = 0
    for name in names:
        a_items = a_found.get(name, [])
        e_items = e_found.get(name, [])
        caught_a += bool(a_items)
        caught_e += bool(e_items)
        a_text = "<br>".join(a_items) or "(nothing)"
        e_text = "<br>".join(e_items) or "(nothing)"
        print(f"| {name} | {a_text} | {e_text} |")
    print(f"\nfiles with a finding: agentv {caught_a}/{len(names)}, evalyaml {caught_e}/"
          f"{len(names)}")
    print(f"median wall time over {runs} runs: agentv validate {a_med:.3f} s, evalyaml check "
          f"{e_med:.3f} s (ratio {a_med / e_med:.2f}x)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agentv", default=str(DEFAULT_AGENTV) if DEFAULT_AGENTV.exists()
                        else shutil.which("agentv") or "agentv")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=None,
                        help="also compare on a folder of real suites")
    args = parser.parse_args()
    version = subprocess.run([args.agentv, "--version"], capture_output=True, text=True,
                             check=False).stdout.strip()
    print(f"agentv {version or '?'} vs evalyaml (python {sys.version.split()[0]})")
    compare(args.agentv, MISTAKES, args.runs, "planted mistakes (examples/agentv/mistakes)")
    if args.corpus is not None:
        compare(args.agentv, args.corpus, args.runs, f"real suites ({args.corpus})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
