#!/usr/bin/env python3
"""One keystroke in the middle test of a large promptfoo config, in-process, beside the same
keystroke in a contract dataset of the same size (`../shared/bench/gen_formats.py`): the
acceptance of issue #23, "a 10,000-test config edits as fast as a contract dataset".

Each file is opened once (`analyze_text` with a fresh `CaseCache`, as the language server keeps
one per open document), then the edit is toggled in its middle item and the analysis timed,
median of `--runs`. The cross check (other files) is not included: it is the workspace's, per
config, and does not grow with an edit.

Usage: python bench/promptfoo_items.py [--sizes 1000 10000] [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from evalyaml.core.incremental import CaseCache
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_text

GEN_FORMATS = Path(__file__).resolve().parents[1] / ".." / "shared" / "bench" / "gen_formats.py"
TOPICS = ["refund", "shipping", "warranty", "invoice", "password", "billing", "account",
          "delivery"]


def promptfoo_config(n: int) -> str:
    rows = ["description: support questions",
            "prompts:",
            "  - 'Answer the customer in a {{ tone }} voice: {{ question }}'",
            "providers:",
            "  - openai:gpt-4o-mini",
            "defaultTest:",
            "  vars:",
            "    tone: friendly",
            "tests:"]
    for i in range(n):
        t = TOPICS[i % len(TOPICS)]
        rows += [f"  - description: {t}-{i}",
                 "    vars:",
                 f"      question: \"What is the {t} policy for order {7000 + i}?\"",
                 "    assert:",
                 "      - type: icontains",
                 f"        value: {t}",
                 "      - type: llm-rubric",
                 f"        value: States the {t} policy."]
    return "\n".join(rows) + "\n"


def toggled(text: str, good: str, bad: str) -> str:
    """`good` -> `bad` at its middle occurrence."""
    starts = []
    at = text.find(good)
    while at >= 0:
        starts.append(at)
        at = text.find(good, at + 1)
    middle = starts[len(starts) // 2]
    return text[:middle] + bad + text[middle + len(good):]


def measure(text: str, path: str, good: str, bad: str, runs: int) -> tuple[float, float, int]:
    """(open ms, median edit ms, findings after the edit)."""
    options = Options(root=str(Path(path).parent))
    cache = CaseCache()
    started = time.perf_counter()
    analyze_text(text, path, options, cache)
    opened = (time.perf_counter() - started) * 1000
    edited = toggled(text, good, bad)
    times = []
    findings = 0
    for run in range(runs):
        current = edited if run % 2 == 0 else text
        started = time.perf_counter()
        result = analyze_text(current, path, options, cache)
        times.append((time.perf_counter() - started) * 1000)
        if run % 2 == 0:
            findings = len(result.findings)
    return opened, statistics.median(times), findings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print("| items | promptfoo open | promptfoo edit | contract open | contract edit |")
    print("| --- | --- | --- | --- | --- |")
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as folder:
            subprocess.run([sys.executable, str(GEN_FORMATS), folder, str(size)], check=True,
                           capture_output=True)
            contract = Path(folder) / "contract" / "datasets" / "big.yaml"
            config = Path(folder) / "promptfoo" / "promptfooconfig.yaml"
            config.parent.mkdir()
            config.write_text(promptfoo_config(size), encoding="utf-8")
            pf = measure(config.read_text("utf-8"), str(config), "    vars:", "    varz:",
                         args.runs)
            ct = measure(contract.read_text("utf-8"), str(contract), "    criteria:",
                         "    critera:", args.runs)
        print(f"| {size:,} | {pf[0]:,.0f} ms | {pf[1]:,.1f} ms ({pf[2]} findings) | "
              f"{ct[0]:,.0f} ms | {ct[1]:,.1f} ms ({ct[2]} findings) |", flush=True)


if __name__ == "__main__":
    main()
