"""Every Eval Ever at scale: a generated 100,000-row samples file (about 150 MB) and its aggregate,
checked by `evalyaml check` and by `every_eval_ever validate` (PyPI `every-eval-ever`, in its own
Python >= 3.12 venv), and edited in `evalyaml lsp`.

    python bench/eee_bench.py                      # every_eval_ever from /work/tools/eee/venv
    python bench/eee_bench.py --rows 10000 --runs 3 --edits 9 --eee PATH

Figures, each the median over `--runs` processes (process start included):

- CLI wall time and peak RSS (`ru_maxrss` of the child, from `os.wait4`) of `evalyaml check`
  on the folder and of `every_eval_ever validate` on the same two files; both must find
  nothing (the generated data is valid under 0.3.0, which every-eval-ever 0.3.0 checks);
- in the editor (a push client over stdio, UTF-16, the `Client` of `lsp_bench.py`): open ->
  diagnostics of the samples file; edit -> diagnostics of a one-character edit in one row
  (toggling `single_turn` <-> `single-turn`, median over `--edits`); edit -> the aggregate's
  re-published checksum and row count after a row is added (the cross check re-hashes the
  buffer); the server's peak RSS (`VmHWM`).

Nothing here is a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_bench import TODAY, Client, initialize, wait_ready

UUID = "6a1f0b3d-8c1e-4f3a-9d5b-2e7c0b6f4d2a"
FOLDER = "data/bench-suite/acme/big-model"
EVALUATION_ID = "bench-suite/acme_big-model/1767225600"
DEFAULT_EEE = Path("/work/tools/eee/venv/bin/every_eval_ever")
FILLER = ("Read the passage and answer the question that follows it. The passage is long on "
          "purpose: real samples files carry whole prompts, few-shot examples included. ")


def row(index: int) -> str:
    question = f"Question {index}: what is {index} + {index % 97}? " + FILLER * 8
    reference = [str(index + index % 97)]
    digest = hashlib.sha256(json.dumps({"raw": question, "reference": reference},
                                       sort_keys=True, separators=(",", ":")).encode()
                            ).hexdigest()
    return json.dumps({
        "schema_version": "0.3.0", "evaluation_id": EVALUATION_ID, "model_id": "acme/big-model",
        "evaluation_name": "bench-suite.accuracy", "evaluation_result_id": "bench-suite.accuracy",
        "sample_id": f"q{index:06d}", "sample_hash": digest, "interaction_type": "single_turn",
        "input": {"raw": question, "reference": reference},
        "output": {"raw": [f"The answer is {reference[0]}."]},
        "answer_attribution": [{"turn_idx": 0, "source": "output.raw",
                                "extracted_value": reference[0], "extraction_method": "regex",
                                "is_terminal": True}],
        "evaluation": {"score": 1.0, "is_correct": True},
        "token_usage": {"input_tokens": 300, "output_tokens": 6, "total_tokens": 306}},
        ensure_ascii=False)


def write_datastore(root: Path, rows: int) -> tuple[Path, Path]:
    folder = root / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    (root / "evalyaml.toml").write_text("", encoding="utf-8")
    samples = folder / f"{UUID}_samples.jsonl"
    hasher = hashlib.sha256()
    with samples.open("wb") as out:
        for index in range(rows):
            data = (row(index) + "\n").encode()
            hasher.update(data)
            out.write(data)
    aggregate = folder / f"{UUID}.json"
    aggregate.write_text(json.dumps({
        "schema_version": "0.3.0", "evaluation_id": EVALUATION_ID,
        "retrieved_timestamp": "1767225600",
        "source_metadata": {"source_type": "evaluation_run", "source_organization_name": "Acme",
                            "evaluator_relationship": "first_party"},
        "eval_library": {"name": "inspect_ai", "version": "0.3.0"},
        "model_info": {"name": "big-model", "id": "acme/big-model", "developer": "acme",
                       "additional_details": {"deployment_type": "self_deployed",
                                              "model_availability": "open_weights"}},
        "evaluation_results": [{
            "evaluation_name": "bench-suite.accuracy",
            "evaluation_result_id": "bench-suite.accuracy",
            "source_data": {"dataset_name": "bench-suite", "source_type": "url",
                            "url": ["https://example.invalid/bench-suite"]},
            "metric_config": {"lower_is_better": False, "score_type": "continuous",
                              "min_score": 0, "max_score": 1},
            "score_details": {"score": 1.0}}],
        "detailed_evaluation_results": {
            "format": "jsonl", "file_path": f"{FOLDER}/{UUID}_samples.jsonl",
            "hash_algorithm": "sha256", "checksum": hasher.hexdigest(), "total_rows": rows}},
        indent=2) + "\n", encoding="utf-8")
    return aggregate, samples


def timed(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MB, stdout) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env={**os.environ,
                                                              "EVALYAML_TODAY": TODAY})
    assert process.stdout is not None
    output = process.stdout.read().decode(errors="replace")
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    return time.perf_counter() - start, usage.ru_maxrss / 1024, output


def cli(root: Path, aggregate: Path, samples: Path, eee: Path, runs: int) -> None:
    commands = {
        "evalyaml check": [sys.executable, "-m", "evalyaml", "check", "."],
        "every_eval_ever validate": [str(eee), "validate", str(aggregate), str(samples)],
    }
    figures: dict[str, tuple[float, float]] = {}
    for name, command in commands.items():
        if name.startswith("every") and not eee.exists():
            print(f"{name}: not installed at {eee}; skipped")
            continue
        walls, peaks = [], []
        for _ in range(runs):
            wall, peak, output = timed(command, root)
            walls.append(wall)
            peaks.append(peak)
        print(f"--- {name}: last output (tail)\n" + "\n".join(output.splitlines()[-4:]))
        figures[name] = (statistics.median(walls), statistics.median(peaks))
    print("\n| CLI | wall time (median) | peak RSS |\n| --- | --- | --- |")
    for name, (wall, peak) in figures.items():
        print(f"| {name} | {wall:.2f} s | {peak:.0f} MB |")
    if len(figures) == 2:
        (a_wall, a_peak), (b_wall, b_peak) = figures.values()
        print(f"\nratio every_eval_ever / evalyaml: wall {b_wall / a_wall:.2f}x, "
              f"RSS {b_peak / a_peak:.2f}x")


def _position(text: str, offset: int) -> dict[str, int]:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return {"line": line, "character": len(text[start:offset].encode("utf-16-le")) // 2}


def editor(root: Path, aggregate: Path, samples: Path, edits: int) -> None:
    env = {**os.environ, "EVALYAML_TODAY": TODAY}
    client = Client([sys.executable, "-m", "evalyaml", "lsp"], {"evalyaml": {}}, root, env)
    try:
        initialize(client, root)
        wait_ready(client, _EvalyamlServer())
        text = samples.read_text("utf-8")
        uri, agg_uri = samples.as_uri(), aggregate.as_uri()
        sent = client.notify("textDocument/didOpen", {"textDocument": {
            "uri": agg_uri, "languageId": "json", "version": 1,
            "text": aggregate.read_text("utf-8")}})
        client.wait_diagnostics(agg_uri, 1, sent, versioned=True)
        sent = client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "jsonl", "version": 1, "text": text}})
        opened = client.wait_diagnostics(uri, 1, sent, versioned=True)
        version = 1
        latencies: list[float] = []
        middle = text.index('"single_turn"', len(text) // 2) + 1  # inside the value
        for index in range(edits):
            old, new = ("single_turn", "single-turn") if index % 2 == 0 else \
                ("single-turn", "single_turn")
            start = _position(text, middle)
            end = _position(text, middle + len(old))
            text = text[:middle] + new + text[middle + len(old):]
            version += 1
            sent = client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": start, "end": end}, "text": new}]})
            latencies.append(client.wait_diagnostics(uri, version, sent, versioned=True))
        # a row added at the end: the aggregate's checksum and row count are re-published
        last = _position(text, len(text))
        added = text[text.rfind("\n", 0, len(text) - 1) + 1:]
        version += 1
        client.drain()
        sent = client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": last, "end": last}, "text": added}]})
        aggregate_ms = _until_findings(client, agg_uri, sent)
        rss = client.peak_rss_mb()
    finally:
        client.close()
    print("\n| editor (evalyaml lsp) | figure |\n| --- | --- |")
    print(f"| open -> diagnostics, samples file | {opened:.0f} ms |")
    print(f"| edit -> diagnostics, one row (median of {edits}) | "
          f"{statistics.median(latencies):.0f} ms (min {min(latencies):.0f}, "
          f"max {max(latencies):.0f}) |")
    print(f"| edit -> aggregate re-published (checksum, total_rows) | {aggregate_ms:.0f} ms |")
    print(f"| server peak RSS | {rss:.0f} MB |")


class _EvalyamlServer:
    evalyaml = True


def _until_findings(client: Client, uri: str, after: float, timeout: float = 300) -> float:
    deadline = time.perf_counter() + timeout
    while True:
        arrived, _, params = client.diagnostics.get(timeout=max(0.1, deadline -
                                                               time.perf_counter()))
        codes = sorted(str(d.get("code")) for d in params["diagnostics"])
        if params["uri"] == uri and arrived >= after and codes == ["EY721", "EY722"]:
            return (arrived - after) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edits", type=int, default=12, help="an even number: the file ends "
                        "as it began")
    parser.add_argument("--eee", type=Path, default=DEFAULT_EEE)
    parser.add_argument("--skip-editor", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        aggregate, samples = write_datastore(root, args.rows)
        size = samples.stat().st_size / (1024 * 1024)
        print(f"{args.rows:,} rows, samples file {size:.0f} MB; python "
              f"{sys.version.split()[0]}, {os.cpu_count()} cores")
        cli(root, aggregate, samples, args.eee, args.runs)
        if not args.skip_editor:
            editor(root, aggregate, samples, args.edits)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
