"""Random single-line breakages of the example files: recovery keeps what it must, adds nothing.

See `breakage.py` for the rules; `bench/recovery_bench.py` prints the shares. Seeded, so a
failure names a reproducible breakage (file:line and kind).
"""

from __future__ import annotations

from tests.recovery.breakage import example_files, measure

SEED = 15
SAMPLES = 12  # lines per file, each broken every way


def test_no_finding_appears_away_from_the_broken_line() -> None:
    tally = measure(example_files(), samples=SAMPLES, seed=SEED)
    assert tally.breakages > 300
    assert tally.new == []


def test_block_yaml_breakages_keep_every_local_finding_outside_their_mapping() -> None:
    tally = measure(example_files(), samples=SAMPLES, seed=SEED,
                    kinds=frozenset({"colon", "flow", "quote"}))
    assert tally.breakages > 200
    assert tally.outside > 50  # the examples have findings to lose
    assert tally.lost_local == []
    assert tally.new == []
