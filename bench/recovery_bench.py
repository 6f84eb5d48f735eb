"""How much of a file's findings survive a syntax error on one of its lines (issue #15).

Every example file (`examples/`: every format's YAML, JSON and JSONL) gets random single-line
breakages. YAML, four kinds: an unquoted ': ' in a value (`colon`), an unclosed flow collection
(`flow`), an unclosed double quote (`quote`) and a tab indent (`tab`). JSON documents: a bare
word as a value, a key's closing quote or its colon lost, a trailing comma lost (noticed on the
next line). JSONL rows: cut before the closing brace, the first key's quote lost. For each
breakage that really breaks the file,
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

from tests.recovery.breakage import (  # noqa: E402
    BLOCK_KINDS,
    JSON_KINDS,
    JSONL_KINDS,
    Tally,
    example_files,
    measure,
)

KINDS = ("colon", "flow", "quote", "tab")
JSON_WAYS = ("json-value", "json-quote", "json-colon", "json-comma")
JSONL_WAYS = ("row-cut", "row-quote")
YAML = (".yaml", ".yml")


def pct(part: int, whole: int) -> str:
    return "-" if not whole else f"{100 * part / whole:.1f}% ({part}/{whole})"


def whole_suite_latency(tests: int, runs: int = 5) -> tuple[float, float]:
    """Medians (ms) of one analysis of an AgentV suite of `tests` tests, parsed whole (no
    per-case split), clean and with a syntax error in its middle test: what recovery costs a
    document that is not split into cases (the first parse stops at the error, the blanked text
    is parsed again)."""
    import statistics

    from evalyaml.core.options import Options
    from evalyaml.dispatch import analyze_text

    parts = ["name: big-suite", "tests:"]
    for i in range(tests):
        parts += [f"  - id: t{i}", f"    input: How many days do I have to return order {i}?",
                  "    criteria: States the 30-day window."]
    clean = "\n".join(parts) + "\n"
    line = clean.index("    criteria:", clean.index(f"  - id: t{tests // 2}\n"))
    broken = (clean[:line] + "    criteria: Note: this does not parse." +
              clean[clean.index("\n", line):])
    out = []
    for text in (clean, broken):
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            analyze_text(text, "/bench/evals/big.eval.yaml", Options())
            times.append(time.perf_counter() - started)
        out.append(1000 * statistics.median(times))
    return out[0], out[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=1000, help="lines per file (max)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--suite-tests", type=int, default=10_000,
                        help="tests of the whole-parsed suite timed clean and broken (0: skip)")
    args = parser.parse_args(argv)
    rows: list[tuple[str, Tally]] = []
    started = time.perf_counter()

    def run(name: str, suffixes: tuple[str, ...], kinds: frozenset[str] | None) -> Tally:
        tally = measure(example_files(suffixes), samples=args.samples, seed=args.seed,
                        kinds=kinds)
        rows.append((name, tally))
        return tally

    for kind in KINDS:
        run(kind, YAML, frozenset({kind}))
    block = run("block YAML", YAML, BLOCK_KINDS)
    run("all YAML", YAML, None)
    for kind in JSON_WAYS:
        run(kind, (".json",), frozenset({kind}))
    json = run("JSON", (".json",), JSON_KINDS)
    jsonl = run("JSONL rows", (".jsonl",), JSONL_KINDS)
    header = ("breakage", "breakages", "share", "elsewhere", "on its owners", "in its mapping",
              "under the line", "local lost", "new")
    cells = [header]
    for name, t in rows:
        cells.append((name, str(t.breakages),
                      pct(t.kept + t.sibling_kept + t.near_kept, t.outside + t.sibling + t.near),
                      pct(t.kept - t.owner_kept, t.outside - t.owner),
                      pct(t.owner_kept, t.owner), pct(t.sibling_kept, t.sibling),
                      pct(t.near_kept, t.near), str(len(t.lost_local)), str(len(t.new))))
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    for c in cells:
        print("  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                        for i, (v, w) in enumerate(zip(c, widths, strict=True))))
    print(f"\nbroken JSONL rows with other than one finding of their own: "
          f"{len(jsonl.row_not_one)} of {jsonl.breakages}")
    print(f"{len(example_files(YAML))} YAML, {len(example_files(('.json',)))} JSON and "
          f"{len(example_files(('.jsonl',)))} JSONL example files, seed {args.seed}, up to "
          f"{args.samples} lines each; {time.perf_counter() - started:.1f} s")
    if args.suite_tests:
        clean, broken = whole_suite_latency(args.suite_tests)
        print(f"AgentV suite of {args.suite_tests:,} tests, parsed whole: analysis {clean:.0f} ms "
              f"clean, {broken:.0f} ms with a syntax error in its middle test")
    problems = [*block.lost_elsewhere, *block.lost_local, *block.lost_missing,
                *json.lost_elsewhere,
                *jsonl.lost_elsewhere, *jsonl.row_not_one, *(x for _, t in rows for x in t.new)]
    for line in problems[:20]:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
