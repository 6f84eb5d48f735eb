"""Workspace index benchmark: cold index and one-rubric re-resolution on a generated workspace.

Generates 5,000 files into a temporary folder (2,000 datasets, 2,000 rubrics, 1,000 judges;
references with every pin style, some composites) and prints medians over several runs:

- cold index: `Workspace.index_all()` (discover, read, analyse every file);
- cold check: the same plus every file's cross-file findings (what `evalyaml check` does);
- one-rubric update: `set_text` on a rubric whose version changes, then the findings of every
  file it reports as affected (what the language server does before publishing).

Targets on the reference machine: cold index under 10 s, one-rubric update under 50 ms.
Run: `python bench/workspace_bench.py [--files 5000] [--runs 3] [--updates 20]`.
Standard library and evalyaml only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from evalyaml.core.kinds import FileKind
from evalyaml.workspace.index import Workspace

TODAY = date(2026, 11, 21)


def judge_text(number: int) -> str:
    return f"""id: judge_{number:04d}
version: "1.0.0"
score_type: binary
template: |
  Question: {{{{ input }}}}
  Answer: {{{{ output }}}}
  Reference: {{{{ expected }}}}
  Reply PASS or FAIL.
validation:
  tpr: 0.9
  tnr: 0.88
  validated_against: "gold-{number}"
  validated_at: "2026-11-01"
  sample_size: 200
"""


def rubric_text(rubric_id: str, version: str, judge: int, composite_of: str | None) -> str:
    composite = f"""  - id: includes
    kind: composite
    rubric_ref: rubric/{composite_of}@1
""" if composite_of else ""
    return f"""id: {rubric_id}
version: "{version}"
description: Generated rubric {rubric_id} {version}.
checks:
  - id: facts
    kind: fact_match
    threshold: 0.8
  - id: judged
    kind: llm_judge
    judge_prompt_ref: judge/judge_{judge:04d}@1.0
  - id: no_secrets
    kind: regex
    pattern: 'sk_live_[A-Za-z0-9]{{24}}'
    must_match: false
{composite}scoring:
  combine: all_pass
"""


def dataset_text(number: int, refs: list[str]) -> str:
    cases = []
    for index, ref in enumerate(refs):
        cases.append(f"""  - id: case_{number}_{index}
    input: Question {index} of dataset {number}, how do I reset my password?
    criteria: Points to the reset flow and mentions that the link expires.
    expected_facts:
      - The reset link is on the sign-in page.
      - The link expires after 30 minutes.
    rubric_ref: {ref}
""")
    return "questions:\n" + "".join(cases)


def generate(folder: Path, files: int, seed: int = 42) -> list[str]:
    """Write the workspace; return the rubric ids (two versions each)."""
    rng = random.Random(seed)
    n_judges, n_rubrics = files // 5, files * 2 // 5
    n_datasets = files - n_judges - n_rubrics
    (folder / "judges").mkdir(parents=True)
    (folder / "rubrics").mkdir()
    (folder / "datasets").mkdir()
    (folder / "evalyaml.toml").write_text("freshness_days = 90\n", "utf-8")
    for number in range(n_judges):
        (folder / "judges" / f"judge_{number:04d}.yaml").write_text(judge_text(number), "utf-8")
    ids = [f"rubric_{n:04d}" for n in range(n_rubrics // 2)]
    plain = ids[len(ids) // 10:]
    for index, rubric_id in enumerate(ids):
        composite_of = rng.choice(plain) if index < len(ids) // 10 else None
        for version in ("1.0.0", "1.1.0"):
            name = rubric_id if version == "1.1.0" else f"{rubric_id}-1.0"
            (folder / "rubrics" / f"{name}.yaml").write_text(
                rubric_text(rubric_id, version, rng.randrange(n_judges), composite_of), "utf-8")
    pins = ["@1.1.0", "@1.1", "@1", "@1.1.0"]
    for number in range(n_datasets):
        refs = [f"rubric/{rng.choice(ids)}{rng.choice(pins)}" for _ in range(5)]
        (folder / "datasets" / f"dataset_{number:05d}.yaml").write_text(
            dataset_text(number, refs), "utf-8")
    return ids


def cold(folder: Path, workers: int | None) -> tuple[float, float, Workspace]:
    workspace = Workspace([folder], today=TODAY, workers=workers)
    start = time.perf_counter()
    workspace.index_all()
    indexed = time.perf_counter() - start
    for path in workspace.eval_files():
        workspace.findings(path)
    return indexed, time.perf_counter() - start, workspace


def one_update(workspace: Workspace, folder: Path, rubric_id: str, version: str
               ) -> tuple[float, int]:
    path = folder / "rubrics" / f"{rubric_id}.yaml"
    text = path.read_text("utf-8").replace('version: "1.1.0"', f'version: "{version}"')
    start = time.perf_counter()
    touched = workspace.set_text(path, text)
    for file in touched:
        workspace.findings(file)
    return time.perf_counter() - start, len(touched)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3, help="cold-index runs (median)")
    parser.add_argument("--updates", type=int, default=20, help="one-rubric updates (median)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes for the cold index (default: one per CPU; 1: none)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="evalyaml-bench-") as tmp:
        folder = Path(tmp)
        ids = generate(folder, args.files)
        print(f"workspace: {args.files} files in {folder}", flush=True)
        index_times, check_times = [], []
        workspace = None
        for _ in range(args.runs):
            indexed, checked, workspace = cold(folder, args.workers)
            index_times.append(indexed)
            check_times.append(checked)
        assert workspace is not None
        counts = dict.fromkeys(FileKind, 0)
        for path in workspace.eval_files():
            analysis = workspace.analysis(path)
            if analysis is not None and analysis.kind is not None:
                counts[analysis.kind] += 1
        print("files: " + ", ".join(f"{counts[k]} {k.value}s" for k in FileKind))
        # The minimum is printed too: on a shared machine other load only ever adds time.
        print(f"cold index:          median {statistics.median(index_times):7.3f} s, "
              f"min {min(index_times):.3f} s (runs: {', '.join(f'{t:.3f}' for t in index_times)})")
        print(f"cold index + check:  median {statistics.median(check_times):7.3f} s, "
              f"min {min(check_times):.3f} s")
        rng = random.Random(7)
        update_times, touched_counts = [], []
        for run in range(args.updates):
            rubric_id = rng.choice(ids[len(ids) // 10:])
            for version in (f"1.2.{run}", "1.1.0"):  # change it, then put it back
                seconds, touched = one_update(workspace, folder, rubric_id, version)
                update_times.append(seconds)
                touched_counts.append(touched)
        print(f"one-rubric update:   median {statistics.median(update_times) * 1000:7.2f} ms "
              f"(max {max(update_times) * 1000:.2f} ms), files touched: median "
              f"{statistics.median(touched_counts):.0f} (max {max(touched_counts)})")
        ok = statistics.median(index_times) < 10 and statistics.median(update_times) < 0.05
        print("targets (cold < 10 s, update < 50 ms): " + ("met" if ok else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
