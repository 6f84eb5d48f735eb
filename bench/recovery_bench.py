"""How much of a file's findings survive a syntax error on one of its lines (issue #15).

Every example file (`examples/`, YAML) gets random single-line breakages, each of four kinds:
an unquoted ': ' in a value (`colon`), an unclosed flow collection (`flow`), an unclosed
double quote (`quote`) and a tab indent (`tab`). For each breakage that really breaks the file,
the workspace's findings of the broken file are compared with the unbroken file's, by code and
range (`tests/recovery/breakage.py` has the rules; the differential test asserts them):

- share: of every finding of the unbroken file away from the broken line, how many are still
  reported;
- elsewhere: those neither on, under, beside nor above the broken line (other cases, other
  checks, other keys): the target is 100% for block YAML;
- on its owners: those on the lines that own the broken line's mapping (`tests:`, the
  document's first line): findings about one key or value as written stay, a "missing key" or
  "too few items" is withheld (it may be about what the broken line held);
- in its mapping: those in it (some are withheld on purpose: a "missing key" whose key may sit on
  the broken line; a check whose `kind` was broken);
- under the line: those on the lines indented under the broken line (blanked with it);
- new: findings away from the broken line that the unbroken file does not have (must be 0).

Run: `python bench/recovery_bench.py [--samples 1000] [--seed 1]`; the test uses fewer samples.
Seeded: the same numbers every run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.recovery.breakage import Tally, example_files, measure  # noqa: E402

KINDS = ("colon", "flow", "quote", "tab")


def pct(part: int, whole: int) -> str:
    return "-" if not whole else f"{100 * part / whole:.1f}% ({part}/{whole})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=1000, help="lines per file (max)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    files = example_files()
    rows: list[tuple[str, Tally, float]] = []
    for kind in (*KINDS, None):
        started = time.perf_counter()
        tally = measure(files, samples=args.samples, seed=args.seed,
                        kinds=frozenset({kind}) if kind else None)
        rows.append((kind or "all", tally, time.perf_counter() - started))
    block = measure(files, samples=args.samples, seed=args.seed,
                    kinds=frozenset({"colon", "flow", "quote"}))
    rows.insert(3, ("block YAML", block, 0.0))
    header = ("breakage", "breakages", "share", "elsewhere", "on its owners", "in its mapping",
              "under the line", "local lost", "new")
    cells = [header]
    for name, t, _ in rows:
        cells.append((name, str(t.breakages),
                      pct(t.kept + t.sibling_kept + t.near_kept, t.outside + t.sibling + t.near),
                      pct(t.kept - t.owner_kept, t.outside - t.owner),
                      pct(t.owner_kept, t.owner), pct(t.sibling_kept, t.sibling),
                      pct(t.near_kept, t.near), str(len(t.lost_local)), str(len(t.new))))
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    for c in cells:
        print("  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                        for i, (v, w) in enumerate(zip(c, widths, strict=True))))
    print(f"\n{len(files)} example files, seed {args.seed}, up to {args.samples} lines each; "
          f"all kinds in {rows[-1][2]:.1f} s")
    failed = any(t.new for _, t, _ in rows) or block.lost_local
    if failed:
        for line in [*block.lost_local, *(x for _, t, _ in rows for x in t.new)][:20]:
            print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
