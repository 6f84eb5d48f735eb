"""Apastra's own validation and `evalyaml check`, side by side on one tree with planted mistakes.

Apastra validates with ajv, one file at a time (`promptops/validators/*.sh`): YAML converted to
JSON with js-yaml, each JSONL line on its own, `ajv-cli validate -s <schema> -d <file>` with the
flags each script passes (`--spec=draft2020 --strict=false`, `-c ajv-formats` for some,
`-r dataset-case.schema.json` for quick evals). This script does the same for every file of the
tree (the schema chosen by the file's place, as `hooks/agent_hook.py` does), then runs
`evalyaml check` on the tree, and prints, per file, what each found and where, then the median
wall time of each over the runs.

Needs Node with `ajv-cli` 5, `ajv-formats` and `js-yaml` installed in one folder (default
`/work/tools/apastra-ajv`: `npm install ajv-cli@5 ajv-formats@2` there). The ajv binary is run
directly rather than through `npx`, which only makes Apastra's side faster.

    python bench/apastra_side_by_side.py                       # examples/apastra/mistakes
    python bench/apastra_side_by_side.py --tree ../shared/corpus/apastra --runs 5
    python bench/apastra_side_by_side.py --planted    # Apastra's own files, one mistake each

`--planted` copies Apastra's repository files (`../shared/corpus/apastra/`) and plants in each
of several files the first mistake `tests/formats/apastra/test_planted.py` lists for it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from evalyaml.formats.apastra import detect  # noqa: E402
from evalyaml.formats.apastra.kinds import SCHEMA_OF  # noqa: E402
from evalyaml.formats.apastra.schemas import is_draft7  # noqa: E402

SCHEMAS = REPO / "schemas" / "apastra"
# Flags of Apastra's validators/*.sh (17667b57), per schema; others: draft2020 or default.
FLAGS: dict[str, list[str]] = {
    "quick-eval": ["-r", str(SCHEMAS / "dataset-case.schema.json"), "--spec=draft2020",
                   "--strict=false"],
    "comparison-scorecard": ["--strict=false"],
    "deprecation-record": ["-c", "ajv-formats"],
    "mirror-sync-receipt": ["-c", "ajv-formats"],
    "moderation-decision-record": ["-c", "ajv-formats"],
    "takedown-record": ["-c", "ajv-formats"],
}
_FORMATS = {"approval-state", "emergency-takedown-decision", "moderation-approval-for-public-"
            "listing", "moderation-escalation-record", "namespace-claim-record",
            "policy-exception-record", "provenance-attestation", "provider-artifact",
            "reject-record", "submission-record"}
_TO_JSON = ("const fs=require('fs');const y=require('js-yaml');"
            "fs.writeFileSync(process.argv[2],JSON.stringify(y.load("
            "fs.readFileSync(process.argv[1],'utf8'))));")


def flags(schema: str) -> list[str]:
    if schema in FLAGS:
        return FLAGS[schema]
    base = ["--strict=false"] if is_draft7(schema) else ["--spec=draft2020", "--strict=false"]
    return [*base, "-c", "ajv-formats"] if schema in _FORMATS else base


def files_of(tree: Path) -> list[tuple[Path, str]]:
    out = []
    for path in sorted(tree.rglob("*")):
        if not path.is_file():
            continue
        claim = detect.claim(path.read_text("utf-8", errors="replace"), str(path), str(tree))
        if claim is not None:
            out.append((path, SCHEMA_OF[claim.kind]))  # type: ignore[index]
    return out


def run_ajv(tools: Path, files: list[tuple[Path, str]], scratch: Path
            ) -> dict[Path, list[str]]:
    ajv = tools / "node_modules" / ".bin" / "ajv"
    found: dict[Path, list[str]] = {}
    for path, schema in files:
        targets: list[tuple[str, Path]] = []
        if path.suffix == ".jsonl":
            for number, line in enumerate(path.read_text("utf-8").split("\n"), 1):
                if line.strip():
                    one = scratch / f"line_{number}.json"
                    one.write_text(line + "\n", "utf-8")
                    targets.append((f"line {number}", one))
        elif path.suffix in (".yaml", ".yml"):
            converted = scratch / "data.json"
            done = subprocess.run(["node", "-e", _TO_JSON, str(path), str(converted)],
                                  cwd=tools, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                found[path] = ["js-yaml: " + done.stderr.strip().splitlines()[0]]
                continue
            targets.append(("", converted))
        else:
            targets.append(("", path))
        messages: list[str] = []
        for where, target in targets:
            done = subprocess.run(
                [str(ajv), "validate", "-s", str(SCHEMAS / f"{schema}.schema.json"), "-d",
                 str(target), "--errors=json", *flags(schema)],
                cwd=tools, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                messages.append((f"{where}: " if where else "") + _first_error(done))
        found[path] = messages
    return found


def _first_error(done: subprocess.CompletedProcess[str]) -> str:
    text = (done.stdout + done.stderr).strip()
    start = text.find("[")
    try:
        errors = json.loads(text[start:]) if start >= 0 else []
    except ValueError:
        return text.splitlines()[-1] if text else "failed"
    if not errors:
        return text.splitlines()[0]
    first = errors[0]
    return f"{first.get('instancePath') or '/'} {first.get('message')} ({len(errors)} error(s))"


def run_evalyaml(tree: Path) -> dict[Path, list[str]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", str(tree), "--format",
                           "json"], capture_output=True, text=True, check=False)
    found: dict[Path, list[str]] = {}
    for item in json.loads(done.stdout or "[]"):
        path = Path(item["path"])
        path = path if path.is_absolute() else Path.cwd() / path
        start = item["range"]["start"]
        found.setdefault(path.resolve(), []).append(
            f"{item['code']} {start['line'] + 1}:{start['character'] + 1}")
    return found


def plant(root: Path) -> tuple[Path, set[str]]:
    """Apastra's repository files with the first planted mistake of each file (one whose
    finding is in the file itself) from tests/formats/apastra/test_planted.py."""
    sys.path.insert(0, str(REPO))
    from tests.formats.apastra.test_planted import CORPUS, PLANTED
    for folder in ("promptops", "derived-index"):
        shutil.copytree(CORPUS / folder, root / folder,
                        ignore=shutil.ignore_patterns("schemas", "*.md", "*.sh", "*.py"))
    done: set[str] = set()
    for relative, old, new, code, _ in PLANTED:
        if relative in done or (code == "EY802" and relative.endswith(".jsonl")):
            continue
        path = root / relative
        path.write_text(path.read_text("utf-8").replace(old, new, 1), "utf-8")
        done.add(relative)
    return root, done


def timed(fn: object, runs: int) -> tuple[object, float]:
    times: list[float] = []
    result: object = None
    for _ in range(runs):
        began = time.perf_counter()
        result = fn()  # type: ignore[operator]
        times.append(time.perf_counter() - began)
    return result, statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tree", type=Path, default=REPO / "examples" / "apastra" / "mistakes")
    parser.add_argument("--tools", type=Path, default=Path("/work/tools/apastra-ajv"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--planted", action="store_true",
                        help="Apastra's own files with one planted mistake in each of several")
    args = parser.parse_args()
    if not (args.tools / "node_modules" / ".bin" / "ajv").exists():
        print(f"ajv-cli not found under {args.tools}: npm install ajv-cli@5 ajv-formats@2 there")
        return 2
    tree = args.tree.resolve()
    planted_files: set[str] = set()
    if args.planted:
        tree, planted_files = plant(Path(tempfile.mkdtemp(prefix="apastra-planted-")) / "ws")
    files = files_of(tree)
    scratch = Path(tempfile.mkdtemp(prefix="apastra-ajv-"))
    try:
        ajv, ajv_s = timed(lambda: run_ajv(args.tools, files, scratch), args.runs)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    ours, ours_s = timed(lambda: run_evalyaml(tree), args.runs)
    assert isinstance(ajv, dict) and isinstance(ours, dict)
    caught = {"ajv": 0, "evalyaml": 0}
    planted = 0
    print(f"{'file':58} {'ajv (Apastra validators)':44} evalyaml check")
    for path, schema in files:
        rel = path.relative_to(tree).as_posix()
        theirs = "; ".join(ajv.get(path, [])) or "-"
        mine = ", ".join(ours.get(path, [])) or "-"
        if path.name.startswith("EY") or rel in planted_files:
            planted += 1
            caught["ajv"] += theirs != "-"
            caught["evalyaml"] += mine != "-"
        print(f"{rel[:58]:58} {theirs[:44]:44} {mine}")
        del schema
    print()
    print(f"files: {len(files)}; planted mistakes (files named EY..., or --planted): {planted}; "
          f"found by ajv: {caught['ajv']}, by evalyaml: {caught['evalyaml']}")
    print(f"median wall time over {args.runs} runs: ajv {ajv_s:.2f} s "
          f"({len(files)} files, one process per file or line), evalyaml check {ours_s:.2f} s "
          f"(one process); ratio ajv/evalyaml {ajv_s / ours_s:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
