"""Every Eval Ever's own repository, one commit per schema era, through `evalyaml check` and
`every_eval_ever validate`: what each says about the data and test files of that era.

    python bench/eee_upstream.py --git-dir /work/.mirror/evaleval+every_eval_ever/repo
    python bench/eee_upstream.py --git-dir DIR --commits 6e9adf42b HEAD --validate-sample 300

For each commit, every `.json`/`.jsonl` under `data/`, `tests/data/` and `example*/` is written
into a fresh folder (blobs the mirror lacks are skipped and counted) and checked; the table
gives the files evalyaml claims as Every Eval Ever, its findings by code, the declared
`schema_version`s, and how many of the (sampled) files every_eval_ever's validator, which
judges everything by its newest models, passes. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# The last commit of each schema era (the version in eval.schema.json at that commit).
ERAS = {"6e9adf42b": "0.1.0", "e0ca88a70": "0.2.0", "8c616fdb5": "0.2.1",
        "5923e0411": "0.2.2", "a91fcaece": "0.2.3", "HEAD": "0.3.0"}
DEFAULT_EEE = Path("/work/tools/eee/venv/bin/every_eval_ever")
_VERSION = re.compile(rb'"schema_version"\s*:\s*"([^"]*)"')


def extract(git_dir: str, commit: str, root: Path) -> tuple[int, int]:
    git = ["git", f"--git-dir={git_dir}"]
    names = subprocess.run([*git, "ls-tree", "-r", "--name-only", "-z", commit],
                           capture_output=True, check=True).stdout.decode().split("\0")
    names = [n for n in names if n.endswith((".json", ".jsonl"))
             and n.startswith(("data/", "tests/data/", "example"))]
    batch = subprocess.Popen([*git, "cat-file", "--batch"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    assert batch.stdin is not None and batch.stdout is not None
    written = missing = 0
    for name in names:
        batch.stdin.write(f"{commit}:{name}\n".encode())
        batch.stdin.flush()
        head = batch.stdout.readline().split()
        if len(head) < 3 or head[1] == b"missing":
            missing += 1
            continue
        data = batch.stdout.read(int(head[2]))
        batch.stdout.read(1)
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written += 1
    batch.stdin.close()
    batch.wait()
    (root / "evalyaml.toml").write_text("", encoding="utf-8")
    return written, missing


def evalyaml(root: Path) -> tuple[int, list[dict[str, object]]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", "."], cwd=root,
                          capture_output=True, text=True, check=False)
    claimed = re.search(r"(\d+) Every Eval Ever", done.stdout)
    found = subprocess.run([sys.executable, "-m", "evalyaml", "check", ".", "--format", "json"],
                           cwd=root, capture_output=True, text=True, check=False)
    return int(claimed.group(1)) if claimed else 0, json.loads(found.stdout or "[]")


def upstream(eee: Path, files: list[Path]) -> tuple[int, int]:
    if not eee.exists() or not files:
        return 0, 0
    done = subprocess.run([str(eee), "validate", "--format", "json", *map(str, files)],
                          capture_output=True, text=True, check=False)
    try:
        results = json.loads(done.stdout)
    except ValueError:
        return 0, len(files)
    return sum(1 for r in results if r.get("valid")), len(results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--commits", nargs="*", default=list(ERAS))
    parser.add_argument("--eee", type=Path, default=DEFAULT_EEE)
    parser.add_argument("--validate-sample", type=int, default=300,
                        help="files per era given to every_eval_ever validate")
    args = parser.parse_args(argv)
    print("| commit (era) | files | evalyaml: claimed EEE | findings by code | declared "
          "versions | every_eval_ever validate: pass |")
    print("| --- | --- | --- | --- | --- | --- |")
    for commit in args.commits:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            written, missing = extract(args.git_dir, commit, root)
            claimed, findings = evalyaml(root)
            codes = collections.Counter(str(f["code"]) for f in findings)
            versions: collections.Counter[str] = collections.Counter()
            eee_files = []
            for path in sorted(p for p in root.rglob("*.json*") if p.is_file()):
                head = path.read_bytes()[:4096]
                match = _VERSION.search(head)
                if match:
                    versions[match.group(1).decode()] += 1
                    eee_files.append(path)
            sample = random.Random(0).sample(eee_files, min(args.validate_sample,
                                                            len(eee_files)))
            passed, judged = upstream(args.eee, sample)
            print(f"| {commit} ({ERAS.get(commit, '?')}) | {written} (+{missing} absent) | "
                  f"{claimed} | {dict(codes) or '-'} | {dict(versions)} | "
                  f"{passed}/{judged} |")
            for finding in findings:
                where = finding["range"]["start"]  # type: ignore[index]
                print(f"    {finding['path']}:{where['line'] + 1}:"  # type: ignore[index]
                      f"{where['character'] + 1} {finding['code']} "  # type: ignore[index]
                      f"{str(finding['message'])[:110]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("EVALYAML_TODAY", "2026-11-21")
    raise SystemExit(main())
