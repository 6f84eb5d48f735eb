"""lm-evaluation-harness's whole `lm_eval/tasks` tree (about 14,000 YAML files) through
`evalyaml check`, beside `lm-eval validate` when it is installed.

    python bench/lmeval_tree.py --upstream /path/to/lm-evaluation-harness.git
    python bench/lmeval_tree.py --upstream GITDIR --lm-eval /work/tools/lmeval/bin/lm-eval
    python bench/lmeval_tree.py --upstream GITDIR --names \
        > server/evalyaml/formats/lmeval/builtin_names.txt

The tree at the commit (`git archive`) is checked in a fresh process; the figures are wall time
and the peak resident memory of that process (its own and its workers', from `wait4`), and the
findings by code. `--names` prints the task, group and tag names the harness's index holds,
as evalyaml recognises them (what `builtin.py` reads). Nothing here is a test: it needs the
upstream repository, and figures depend on the machine. No lm-eval code is imported.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path

PINNED = "4e7e0d47f33bc71070c1d38394bafbb52b117163"


def extract(upstream: str, commit: str, into: Path) -> Path:
    data = subprocess.run(["git", "--git-dir", upstream, "archive", commit, "lm_eval/tasks"],
                          capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "lm_eval" / "tasks"


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, int, str]:
    """Wall seconds, peak RSS in MB of the process (and the workers it waited for), stdout."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, text=True,
                                env=env)
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0
        wall = time.perf_counter() - started
        out.seek(0)
        return wall, usage.ru_maxrss // 1024, out.read()


def names(tree: Path) -> list[str]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
    from evalyaml.core.options import Options
    from evalyaml.formats.base import Claim
    from evalyaml.formats.lmeval import FORMAT, NAME, detect

    found: set[str] = set()
    for path in sorted(tree.rglob("*")):
        if not path.is_file() or path.suffix not in ("", ".yaml"):
            continue
        text = path.read_text("utf-8", errors="replace")
        claim = detect.claim(text, str(path)) if path.suffix == ".yaml" else None
        kind = claim.kind if isinstance(claim, Claim) else None
        if kind is None and path.suffix != "":
            continue
        analysis = FORMAT.analyze(text, str(path), kind, Options())
        found.update(d.id for d in analysis.definitions if d.kind is NAME)
    return sorted(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--upstream", required=True, help="lm-evaluation-harness git dir")
    parser.add_argument("--commit", default=PINNED)
    parser.add_argument("--lm-eval", default=None, help="the lm-eval executable, if installed")
    parser.add_argument("--names", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        tree = extract(args.upstream, args.commit, Path(scratch))
        if args.names:
            print(f"# lm_eval/tasks names at {args.commit} (bench/lmeval_tree.py --names)")
            print("\n".join(names(tree)))
            return
        count = sum(1 for p in tree.rglob("*.yaml"))
        wall, peak, out = timed([sys.executable, "-m", "evalyaml", "check", str(tree),
                                 "--format", "json"])
        found = json.loads(out) if out.strip() else []
        print(f"evalyaml check: {count} .yaml files, {wall:.1f} s, peak {peak} MB, "
              f"{len(found)} findings")
        for code, n in sorted(Counter(f["code"] for f in found).items()):
            print(f"  {code}: {n}")
        if args.lm_eval:
            env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")
            # The built-in index is always built too (include_defaults): the same tree twice.
            wall, peak, out = timed([args.lm_eval, "validate", "--tasks", "mmlu,arc_easy",
                                     "--include_path", str(tree)], env)
            print(f"lm-eval validate --tasks mmlu,arc_easy --include_path <tree>: {wall:.1f} s, "
                  f"peak {peak} MB: {out.strip().splitlines()[-1:]}")

if __name__ == "__main__":
    main()
