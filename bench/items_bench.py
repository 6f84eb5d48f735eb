#!/usr/bin/env python3
"""One keystroke in the middle item of every format's item lists, in-process, beside the same
keystroke in a contract dataset of the same size: issue #27's "every format edits as fast as
the contract" (edit -> diagnostics <= 2x the contract's in the same run, <= 100 ms at 10,000
items, <= 20 ms at 1,000).

Each file is opened once (`analyze_text` with a fresh `CaseCache`, as the language server keeps
one per open document; a file the workspace adopts, such as a promptfoo tests file, analysed
with the kind the index gives it), then the edit is toggled in its middle item and the analysis
timed, median of `--runs`; then the same with a blank line added after that line (the Enter
key: every item below moves). Cross-file checks are not included. Every shape is generated clean,
so what is timed is the edit's cost, not the findings'; the edit adds one or two findings.

Usage: python bench/items_bench.py [--sizes 1000 10000] [--runs 7] [--shapes NAME ...] [--gc]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from evalyaml.core.incremental import CaseCache
from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
import eee_bench
from promptfoo_items import TOPICS, promptfoo_config, toggled

GEN_FORMATS = Path(__file__).resolve().parents[1] / ".." / "shared" / "bench" / "gen_formats.py"


def _adopted(format_name: str, kind: str) -> Callable[[], Kind]:
    def get() -> Kind:
        module = __import__(f"evalyaml.formats.{format_name}.kinds", fromlist=[kind])
        found: Kind = getattr(module, kind)
        return found
    return get


def padosoft_calibration(n: int) -> str:
    rows = ["schema_version: eval-harness.calibration.v1", "name: judge.calibration.big",
            "cases:"]
    for i in range(n):
        t = TOPICS[i % len(TOPICS)]
        rows += [f"  - id: {t}-{i}",
                 "    input:",
                 f"      question: \"What is the {t} policy for order {7000 + i}?\"",
                 f"    expected: \"The {t} policy.\"",
                 f"    actual: \"The {t} policy applies to order {7000 + i}.\"",
                 f"    human_verdict: {'pass' if i % 3 else 'fail'}"]
    return "\n".join(rows) + "\n"


def apastra_cases(n: int) -> str:
    return "".join(json.dumps({
        "case_id": f"{TOPICS[i % len(TOPICS)]}-{i}",
        "inputs": {"text": f"What is the {TOPICS[i % len(TOPICS)]} policy for order {7000 + i}?",
                   "max_words": 20},
        "expected_outputs": {"should_contain": [TOPICS[i % len(TOPICS)]]}}) + "\n"
        for i in range(n))


def apastra_quick_eval(n: int) -> str:
    rows = ["id: quick-big", "prompt: \"Answer in {{max_words}} words: {{text}}\"", "cases:"]
    for i in range(n):
        t = TOPICS[i % len(TOPICS)]
        rows += [f"  - case_id: {t}-{i}",
                 "    inputs:",
                 "      max_words: \"12\"",
                 f"      text: \"What is the {t} policy for order {7000 + i}?\"",
                 "    assert:",
                 "      - type: icontains",
                 f"        value: {t}"]
    rows += ["thresholds:", "  pass_rate: 1.0"]
    return "\n".join(rows) + "\n"


def apastra_quick_eval_json(n: int) -> str:
    cases = [{"case_id": f"{TOPICS[i % len(TOPICS)]}-{i}",
              "inputs": {"max_words": "12", "text": f"What is the {TOPICS[i % len(TOPICS)]} "
                                                    f"policy for order {7000 + i}?"},
              "assert": [{"type": "icontains", "value": TOPICS[i % len(TOPICS)]}]}
             for i in range(n)]
    return json.dumps({"id": "quick-big", "prompt": "Answer in {{max_words}} words: {{text}}",
                       "cases": cases, "thresholds": {"pass_rate": 1.0}}, indent=2) + "\n"


def eee_samples(n: int) -> str:
    return "".join(eee_bench.row(i) + "\n" for i in range(n))


def eee_aggregate(n: int) -> str:
    folder = Path(tempfile.mkdtemp())
    try:
        aggregate, _ = eee_bench.write_datastore(folder, 1)
        data = json.loads(aggregate.read_text("utf-8"))
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=True)
    template = data["evaluation_results"][0]
    data["evaluation_results"] = [
        {**template, "evaluation_name": f"bench-suite.metric-{i}",
         "evaluation_result_id": f"bench-suite.metric-{i}"} for i in range(n)]
    return json.dumps(data, indent=2) + "\n"


def agentv_tests(n: int) -> list[dict[str, object]]:
    return [{"id": f"{TOPICS[i % len(TOPICS)]}-{i}",
             "input": f"What is the {TOPICS[i % len(TOPICS)]} policy for order {7000 + i}?",
             "criteria": f"States the {TOPICS[i % len(TOPICS)]} policy.",
             "assertions": [{"type": "contains", "value": TOPICS[i % len(TOPICS)]}]}
            for i in range(n)]


def agentv_cases_yaml(n: int) -> str:
    rows: list[str] = []
    for test in agentv_tests(n):
        rows += [f"- id: {test['id']}", f"  input: {test['input']}",
                 f"  criteria: {test['criteria']}", "  assertions:", "    - type: contains",
                 f"      value: \"{test['assertions'][0]['value']}\""]  # type: ignore[index]
    return "\n".join(rows) + "\n"


def agentv_cases_jsonl(n: int) -> str:
    return "".join(json.dumps(test) + "\n" for test in agentv_tests(n))


def promptfoo_tests(n: int) -> list[dict[str, object]]:
    return [{"description": f"{TOPICS[i % len(TOPICS)]}-{i}",
             "vars": {"question": f"What is the {TOPICS[i % len(TOPICS)]} policy for order "
                                  f"{7000 + i}?"},
             "assert": [{"type": "icontains", "value": TOPICS[i % len(TOPICS)]},
                        {"type": "llm-rubric",
                         "value": f"States the {TOPICS[i % len(TOPICS)]} policy."}]}
            for i in range(n)]


def promptfoo_tests_yaml(n: int) -> str:
    config = promptfoo_config(n)
    body = config[config.index("tests:\n") + len("tests:\n"):]
    return "".join(line[2:] + "\n" for line in body.splitlines())


def promptfoo_config_json(n: int) -> str:
    return json.dumps({
        "description": "support questions",
        "prompts": ["Answer the customer in a {{ tone }} voice: {{ question }}"],
        "providers": ["openai:gpt-4o-mini"],
        "defaultTest": {"vars": {"tone": "friendly"}},
        "tests": promptfoo_tests(n)}, indent=2) + "\n"


def promptfoo_csv(n: int) -> str:
    rows = ["question,__expected1,__expected2"]
    for i in range(n):
        t = TOPICS[i % len(TOPICS)]
        rows.append(f"What is the {t} policy for order {7000 + i}?,icontains:{t},"
                    f"llm-rubric:States the {t} policy.")
    return "\n".join(rows) + "\n"


@dataclass(frozen=True)
class Shape:
    name: str
    path: str  # relative to the workspace
    text: Callable[[int], str]
    edit: tuple[str, str]
    kind: Callable[[], Kind] | None = None  # the index's adopted kind, when adopted


SHAPES = [
    Shape("padosoft dataset (YAML)", "padosoft/eval/golden/big.yml", lambda n: "",
          ("      tags: [", "      tagz: [")),
    Shape("padosoft calibration (YAML)", "padosoft/eval/calibration/big.v1.yaml",
          padosoft_calibration, ("    expected:", "    expectd:")),
    Shape("apastra dataset cases (JSONL)", "apastra/promptops/datasets/big/dataset.jsonl",
          apastra_cases, ('"expected_outputs"', '"expected_outputz"')),
    Shape("apastra quick eval (YAML)", "apastra/promptops/evals/quick-big.yaml",
          apastra_quick_eval, ("    inputs:", "    inputz:")),
    Shape("apastra quick eval (JSON)", "apastra/promptops/evals/quick-big.json",
          apastra_quick_eval_json, ('"inputs"', '"inputz"')),
    Shape("eee samples (JSONL)",
          f"eee/{eee_bench.FOLDER}/{eee_bench.UUID}_samples.jsonl", eee_samples,
          ('"single_turn"', '"single-turn"')),
    Shape("eee aggregate results (JSON)", f"eee/{eee_bench.FOLDER}/{eee_bench.UUID}.json",
          eee_aggregate, ('"lower_is_better"', '"lower_is_bettr"')),
    Shape("agentv suite (YAML)", "agentv/evals/big.eval.yaml", lambda n: "",
          ("    criteria:", "    critera:")),
    Shape("agentv cases (YAML)", "agentv/evals/cases/big.yaml", agentv_cases_yaml,
          ("  criteria:", "  critera:"), _adopted("agentv", "CASES")),
    Shape("agentv cases (JSONL)", "agentv/evals/cases/big.jsonl", agentv_cases_jsonl,
          ('"criteria"', '"critera"'), _adopted("agentv", "CASES")),
    Shape("promptfoo config (YAML)", "promptfoo/promptfooconfig.yaml", promptfoo_config,
          ("    vars:", "    varz:")),
    Shape("promptfoo config (JSON)", "promptfoo-json/promptfooconfig.json",
          promptfoo_config_json, ('"vars"', '"varz"')),
    Shape("promptfoo tests (YAML)", "promptfoo/tests/big.yaml", promptfoo_tests_yaml,
          ("  vars:", "  varz:"), _adopted("promptfoo", "TESTS")),
    Shape("promptfoo tests (JSON)", "promptfoo/tests/big.json",
          lambda n: json.dumps(promptfoo_tests(n), indent=2) + "\n", ('"vars"', '"varz"'),
          _adopted("promptfoo", "TESTS")),
    Shape("promptfoo tests (JSONL)", "promptfoo/tests/big.jsonl",
          lambda n: "".join(json.dumps(t) + "\n" for t in promptfoo_tests(n)),
          ('"vars"', '"varz"'), _adopted("promptfoo", "TESTS")),
    Shape("promptfoo tests (CSV)", "promptfoo/tests/big.csv", promptfoo_csv,
          (",icontains:", ",icontain:"), _adopted("promptfoo", "TABLE")),
]


def line_added(text: str, good: str) -> str:
    """A blank line (the Enter key) after the line of `good`'s middle occurrence: every item
    below moves down a line."""
    starts = []
    at = text.find(good)
    while at >= 0:
        starts.append(at)
        at = text.find(good, at + 1)
    end = text.index("\n", starts[len(starts) // 2]) + 1
    return text[:end] + "\n" + text[end:]


def _timed(text: str, path: str, options: Options, cache: CaseCache, kind: Kind | None, *,
           collect: bool) -> tuple[float, FileAnalysis]:
    """(ms, result) of one analysis, the collector off during it unless `collect` (`--gc`)."""
    if not collect:
        gc.disable()
    try:
        started = time.perf_counter()
        result = analyze_text(text, path, options, cache, forced_kind=kind)
        return (time.perf_counter() - started) * 1000, result
    finally:
        gc.enable()


def measure(text: str, path: str, root: Path, edit: tuple[str, str], kind: Kind | None, *,
            runs: int, collect: bool) -> tuple[float, float, int, str, float]:
    """(open ms, median edit ms, findings the edit added, the kind analysed, median ms of a
    blank line added and taken away again)."""
    options = Options(root=str(root))
    cache = CaseCache()
    started = time.perf_counter()
    opened_result = analyze_text(text, path, options, cache, forced_kind=kind)
    opened = (time.perf_counter() - started) * 1000
    edited = toggled(text, *edit)
    times = []
    findings = 0
    for run in range(runs):
        current = edited if run % 2 == 0 else text
        took, result = _timed(current, path, options, cache, kind, collect=collect)
        times.append(took)
        if run % 2 == 0:
            findings = len(result.findings) - len(opened_result.findings)
    kind_name = str(getattr(opened_result.kind, "value", opened_result.kind))
    longer = line_added(text, edit[0])
    moved = []
    for run in range(runs):
        current = longer if run % 2 == 0 else text
        moved.append(_timed(current, path, options, cache, kind, collect=collect)[0])
    return opened, statistics.median(times), findings, kind_name, statistics.median(moved)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--shapes", nargs="*", default=None,
                        help="substrings of the shapes' names (default: all)")
    parser.add_argument("--gc", action="store_true",
                        help="leave the garbage collector on during each timed analysis")
    args = parser.parse_args()
    shapes = [s for s in SHAPES if args.shapes is None or
              any(word in s.name for word in args.shapes)]
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"garbage collector {'on' if args.gc else 'off'} during each timed analysis")
    print("| shape | items | kind | open | edit | x contract | new findings | line added |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            subprocess.run([sys.executable, str(GEN_FORMATS), folder, str(size)], check=True,
                           capture_output=True)
            contract = root / "contract" / "datasets" / "big.yaml"
            ct = measure(contract.read_text("utf-8"), str(contract), root / "contract",
                         ("    criteria:", "    critera:"), None, runs=args.runs, collect=args.gc)
            print(f"| contract dataset (YAML) | {size:,} | {ct[3]} | {ct[0]:,.0f} ms | "
                  f"{ct[1]:,.1f} ms | 1.0 | {ct[2]} | {ct[4]:,.1f} ms |", flush=True)
            for shape in shapes:
                path = root / shape.path
                path.parent.mkdir(parents=True, exist_ok=True)
                if not path.exists():
                    path.write_text(shape.text(size), encoding="utf-8")
                got = measure(path.read_text("utf-8"), str(path),
                              root / shape.path.split("/")[0], shape.edit,
                              shape.kind() if shape.kind else None, runs=args.runs, collect=args.gc)
                print(f"| {shape.name} | {size:,} | {got[3]} | {got[0]:,.0f} ms | "
                      f"{got[1]:,.1f} ms | {got[1] / ct[1]:.1f} | {got[2]} | "
                      f"{got[4]:,.1f} ms |", flush=True)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
