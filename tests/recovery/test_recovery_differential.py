"""Random single-line breakages of the example files: recovery keeps what it must, adds nothing.

See `breakage.py` for the rules; `bench/recovery_bench.py` prints the shares. Seeded, so a
failure names a reproducible breakage (file:line and kind). Every format's examples take part:
the contract's, Padosoft's, AgentV's and Apastra's YAML, Apastra's and Every Eval Ever's JSON
documents and JSONL rows.
"""

from __future__ import annotations

from tests.recovery.breakage import (
    BLOCK_KINDS,
    JSON_KINDS,
    JSONL_KINDS,
    example_files,
    measure,
)

SEED = 15
SAMPLES = 12  # lines per file, each broken every way


def test_no_finding_appears_away_from_the_broken_line() -> None:
    tally = measure(example_files((".yaml", ".yml")), samples=SAMPLES, seed=SEED)
    assert tally.breakages > 300
    assert tally.new == []
    # Further syntax errors found while recovering are reported, but never one the blanks
    # made: at most one error (the parser's first) lies off the broken line.
    assert tally.syntax_away == []


def test_block_yaml_breakages_keep_every_finding_away_from_their_mapping() -> None:
    """The issue's 100%: other cases, checks and keys keep every finding; on the lines that
    own the broken line, the findings about one key or value as written."""
    tally = measure(example_files((".yaml", ".yml")), samples=SAMPLES, seed=SEED,
                    kinds=BLOCK_KINDS)
    assert tally.breakages > 200
    assert tally.outside - tally.owner > 50  # the examples have findings to lose
    assert tally.lost_elsewhere == []
    assert tally.lost_local == []
    assert tally.new == []


def test_json_documents_recover_at_the_next_member() -> None:
    tally = measure(example_files((".json",)), samples=SAMPLES, seed=SEED, kinds=JSON_KINDS)
    assert tally.breakages > 300
    assert tally.outside - tally.owner > 100
    assert tally.lost_elsewhere == []
    assert tally.new == []


def test_a_broken_jsonl_row_is_one_finding_and_the_others_keep_theirs() -> None:
    tally = measure(example_files((".jsonl",)), samples=SAMPLES, seed=SEED, kinds=JSONL_KINDS)
    assert tally.breakages > 30
    assert tally.outside > 0
    assert tally.row_not_one == []
    assert tally.lost_elsewhere == []
    assert tally.new == []
