"""`evalyaml check` benchmark: wall time and peak memory on generated datasets.

Generates datasets of 1,000 and 10,000 realistic cases (about 600 bytes each, so the 10,000-case
file is about 6 MB) into a temporary workspace, runs `evalyaml check` on each as a subprocess
several times, and prints the median wall time and the peak resident memory:

- `peak RSS (largest)`: the largest single process, from `wait4()` rusage (`ru_maxrss`);
- `peak RSS (tree)`: the whole process tree at its largest, sampled from /proc every 5 ms
  (Linux only). The CLI spreads large datasets over the cores in forked workers, so this is
  the figure to compare with a memory budget.

Also printed: the median CPU time (user + system, workers included), which moves less than
wall time when something else runs on the machine. The load average is printed too: on a busy
2-core machine the wall times mean little.

Target on a 2-core machine: the 10,000-case file in under 2.5 s and under 300 MB.

Run: `python bench/check_bench.py [--cases 1000 10000] [--runs 5] [--extension-keys]
[--evalyaml PATH]`. `--extension-keys` adds three keys outside the contract to every case
(`difficulty`, `tags`, `metadata`), as real datasets often carry. Standard library only; the
exit status is 1 when the 10,000-case run misses the target.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

TARGET_SECONDS = 2.5
TARGET_MB = 300
MODELINE = "# yaml-language-server: $schema=https://evalyaml.dev/schemas/v1/dataset.schema.json"

TOPICS = [
    ("refund", "How long do I have to return a product I bought online, and who pays shipping?",
     "States the 30-day return window, that return shipping is free for defects, and links "
     "the returns form.", ["Returns are accepted within 30 days of delivery.",
                           "Return shipping is free when the item is defective."]),
    ("password", "I forgot my dashboard password and the reset email never arrived. What now?",
     "Explains the reset flow, suggests checking spam, and offers manual verification.",
     ["The reset link is on the sign-in page.", "The reset email expires after 30 minutes.",
      "Support can verify identity by phone if the email is lost."]),
    ("order", "Where is order ORD-{n:06d}? The tracking page still says label created.",
     "Looks up the order, gives the carrier status and a realistic delivery window.",
     ["Orders ship within two business days.", "Tracking can lag 24 hours behind pickup.",
      "Escalation to the carrier is possible after five business days."]),
    ("invoice", "Can you add our VAT number to last quarter's invoices for account {n}?",
     "Explains where the VAT number is set and how to request re-issued invoices.",
     ["VAT numbers are set under Billing settings.", "Past invoices can be re-issued once.",
      "Re-issued invoices keep their original invoice numbers."]),
]


def case_text(n: int, extension_keys: bool) -> str:
    topic, question, criteria, facts = TOPICS[n % len(TOPICS)]
    lines = [
        f"  - id: {topic}_{n:06d}",
        "    input: >-",
        f"      {question.format(n=n)}",
        "      Please answer in plain language for a non-technical customer, in two short",
        "      paragraphs, and end with the next step they should take.",
        f"    criteria: {criteria}",
        "    expected_facts:",
        *[f"      - {fact}" for fact in facts],
        "    expected_tools: [lookup_account, lookup_order]",
        "    expected:",
        "      format: text",
        f"    rubric_ref: rubric/{'factuality@1.2' if n % 3 else 'tone@1.0.0'}",
    ]
    if extension_keys:
        lines += ["    difficulty: medium", "    tags: [support, billing]",
                  f"    metadata: {{source: zendesk, ticket: {100000 + n}}}"]
    return "\n".join(lines) + "\n"


def write_workspace(root: Path, count: int, extension_keys: bool) -> Path:
    """One workspace per dataset (an `evalyaml check` resolves references against the whole
    workspace, so datasets of other sizes must not share it); returns the dataset's path."""
    root.mkdir(parents=True)
    (root / "evalyaml.toml").write_text("", encoding="utf-8")
    rubrics = root / "rubrics"
    rubrics.mkdir()
    (rubrics / "factuality.yaml").write_text(
        'id: factuality\nversion: "1.2.0"\nchecks:\n  - kind: fact_match\n    threshold: 0.8\n'
        "scoring:\n  combine: all_pass\n", encoding="utf-8")
    (rubrics / "tone.yaml").write_text(
        'id: tone\nversion: "1.0.0"\nchecks:\n  - kind: must_not_contain\n    values: [As an AI]\n'
        "scoring:\n  combine: all_pass\n", encoding="utf-8")
    (root / "datasets").mkdir()
    path = root / "datasets" / f"dataset_{count}.yaml"
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write(f"{MODELINE}\nname: Generated support cases ({count})\nquestions:\n")
        for n in range(count):
            out.write(case_text(n, extension_keys))
    return path


def _tree_rss_kb(root_pid: int) -> int:
    """Resident memory of a process and all its descendants, from /proc (0 elsewhere)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return 0
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(fields.get("PPid", "0").strip() or 0), []).append(pid)
        rss[pid] = int(fields.get("VmRSS", "0 kB").split()[0] or 0)
    total, stack = 0, [root_pid]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


@dataclass
class Sample:
    seconds: float
    cpu_seconds: float
    max_rss_mb: float
    tree_rss_mb: float
    returncode: int
    summary: str


def run_once(command: list[str], cwd: Path) -> Sample:
    peak_tree = 0
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    done = threading.Event()

    def sample_tree() -> None:
        nonlocal peak_tree
        while not done.is_set():
            peak_tree = max(peak_tree, _tree_rss_kb(process.pid))
            done.wait(0.005)

    sampler = threading.Thread(target=sample_tree, daemon=True)
    if sys.platform.startswith("linux"):
        sampler.start()
    out_chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: out_chunks.append(process.stdout.read()
                                                               if process.stdout else b""))
    reader.start()
    err = process.stderr.read() if process.stderr else b""
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    done.set()
    reader.join()
    if sampler.is_alive():
        sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    out = b"".join(out_chunks).decode(errors="replace").splitlines()
    if err.strip():
        sys.stderr.write(err.decode(errors="replace"))
    scale = 1024 if sys.platform != "darwin" else 1024 * 1024  # ru_maxrss: KB (bytes on macOS)
    cpu = usage.ru_utime + usage.ru_stime  # the process and its waited-for workers
    return Sample(elapsed, cpu, usage.ru_maxrss / scale, peak_tree / 1024, process.returncode,
                  out[-1] if out else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cases", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--extension-keys", action="store_true")
    parser.add_argument("--evalyaml", default=shutil.which("evalyaml"),
                        help="the evalyaml executable (default: the one on PATH)")
    parser.add_argument("--keep", action="store_true", help="keep the generated workspace")
    args = parser.parse_args(argv)
    command = [args.evalyaml] if args.evalyaml else [sys.executable, "-m", "evalyaml"]

    root = Path(tempfile.mkdtemp(prefix="evalyaml-check-bench-"))
    try:
        files = {count: write_workspace(root / f"ws_{count}", count, args.extension_keys)
                 for count in args.cases}
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"evalyaml check benchmark: {args.runs} runs each, median; cpus={os.cpu_count()}; "
              f"load average {load:.1f}; "
              f"extension keys: {'yes' if args.extension_keys else 'no'}")
        header = (f"{'cases':>7} {'size MB':>8} {'wall s':>7} {'min s':>6} {'max s':>6} "
                  f"{'cpu s':>6} {'RSS largest MB':>15} {'RSS tree MB':>12}  result")
        print(header)
        print("-" * len(header))
        missed = False
        for count in args.cases:
            path = files[count]
            workspace = path.parents[1]
            samples = [run_once([*command, "check", "--today", "2026-11-21",
                                 str(path.relative_to(workspace))], workspace)
                       for _ in range(args.runs)]
            wall = statistics.median(s.seconds for s in samples)
            largest = max(s.max_rss_mb for s in samples)
            tree = max(s.tree_rss_mb for s in samples)
            size_mb = path.stat().st_size / (1024 * 1024)
            fastest = min(s.seconds for s in samples)
            slowest = max(s.seconds for s in samples)
            cpu = statistics.median(s.cpu_seconds for s in samples)
            print(f"{count:>7,} {size_mb:>8.2f} {wall:>7.2f} {fastest:>6.2f} {slowest:>6.2f} "
                  f"{cpu:>6.2f} {largest:>15.0f} "
                  f"{tree if tree else float('nan'):>12.0f}  {samples[-1].summary}")
            if any(s.returncode not in (0, 1) for s in samples):
                print(f"  evalyaml exited with {[s.returncode for s in samples]}")
                missed = True
            if count == 10_000:
                memory = max(largest, tree)
                ok = wall < TARGET_SECONDS and memory < TARGET_MB
                missed |= not ok
                print(f"  target for 10,000 cases: < {TARGET_SECONDS} s and < {TARGET_MB} MB: "
                      f"{'met' if ok else 'MISSED'}")
        if args.keep:
            print(f"workspace kept in {root}")
        return 1 if missed else 0
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
