"""`row_hash` reproduces eval-harness's `RowHash::for()` byte for byte.

The expected digests were produced by eval-harness's own `RowHash` and `YamlDatasetLoader` (PHP
8.2, symfony/yaml 5.4) on the dataset below, so they pin every step of the recipe: symfony's
scalars, PHP arrays (lists, empty maps, integer keys), `ksort`, and `json_encode`'s escapes and
float formatting. The invariants of upstream's RowHashTest follow.
"""

from __future__ import annotations

from evalyaml.core.findings import FindingSink
from evalyaml.formats.padosoft.rowhash import row_hash, row_identities
from evalyaml.syntax.tree import Mapping, Node, Sequence
from evalyaml.syntax.yaml.parse import parse_text

CASES = r"""name: rowhash.cases
samples:
  - id: plain
    input: {question: "How many days?"}
    expected_output: "30 days"
  - id: reordered
    input: {b: 2, a: 1, nested: {z: [3, 2, 1], y: "é/ü \u2028 \t tab"}}
    expected_output: {score: 3, label: urgent}
  - id: numbers
    input: {f1: 1.0, f2: 0.1, f3: 1e16, f4: 1.5e-7, f5: 123456789012345678, f6: -0.0,
      f7: 0.0001, f8: 0.00001, f9: 1e15, f10: 2.5e+20, big: 9223372036854775808}
    expected_output: [1, 2.50, "x"]
  - id: keys
    input: {"10": a, "9": b, "b": c, "A": d, "1.5": e, "-3": f, "007": g}
    expected_output: null
  - id: empties
    input: {}
    expected_output: {a: {}, b: [], c: ""}
  - id: listlike
    input: {q: {0: x, 1: y}}
    expected_output: {1: x, 0: y}
  - id: controls
    input: {q: "quote \" backslash \\ slash / nul \x01 del \x7f emoji 😀 nbsp \u00a0"}
    expected_output: 'single ''quoted'''
  - id: bools
    input: {t: TRUE, f: false, y: yes, o: 0o17, h: 0x1F, plus: +12, oct: 010}
    expected_output: true
  - id: merge
    input:
      <<: {a: 1, b: 2}
      b: 3
    expected_output: ~
"""

BY_EVAL_HARNESS = {
    "plain": "4d2e94278cc66e21259576a1f00a0f113abbc6675969f6b45f745565bf878845",
    "reordered": "b8b9ab18451b7119de37845d8be72db402475844c9c0033989384c9ec0eeb10b",
    "numbers": "fb7a4345e5f9cbf6a2e4caf0fd0331dc42dedb63efd2678f47028d3b91ea62fe",
    "keys": "926fc7a8bea7759a8f6cf61309e6388a92ef4e2afd48f41edcd4183ca8bc75c5",
    "empties": "f335425cfab47e3af958814d213e8c26492b219be9fcf59e298d3c131042753c",
    "listlike": "f960ae3fee76bc43a445b8f20b26db6dcfb1153f9ecebd5276dda2b1ca9ad57c",
    "controls": "be4f4d99511d56d3ccec78875468b7665c942458cc6f1061676c3d1eced63e69",
    "bools": "340c7f84406d501dc8a17b1d4f7ec4a09f62f85a666b9b059f676c25cc335aa1",
    "merge": "40704a8985a5cd56186cdb77702adbb59a57b1f40ca511a249ba43a4218aaa64",
}

FACTUALITY = """schema_version: eval-harness.dataset.v1
name: rag.factuality.fy2026
samples:
  - id: capital-france
    input:
      question: "What is the capital of France?"
    expected_output: "Paris"
    metadata:
      tags: [geography, easy]

  - id: refund-policy
    input:
      question: "How many days do I have to return an order?"
    expected_output: "30 days from delivery."
    metadata:
      tags: [policy, support]
"""


def _samples(text: str) -> dict[str, Node]:
    root = parse_text(text, FindingSink(strict=False)).documents[0]
    assert isinstance(root, Mapping)
    samples = root.get("samples")
    assert isinstance(samples, Sequence)
    out: dict[str, Node] = {}
    for sample in samples.items:
        assert isinstance(sample, Mapping)
        sample_id = sample.get("id")
        assert sample_id is not None and hasattr(sample_id, "text")
        out[str(sample_id.text)] = sample
    return out


def test_digests_match_eval_harness() -> None:
    samples = _samples(CASES)
    assert {name: row_hash(node) for name, node in samples.items()} == BY_EVAL_HARNESS


def test_the_readme_dataset() -> None:
    samples = _samples(FACTUALITY)
    assert row_hash(samples["capital-france"]) == \
        "f043953a149a09a1551506065c9acafbde5fa58057c7d11993c6ce7e16e22f39"
    assert row_hash(samples["refund-policy"]) == \
        "5518d853e03f3f20475b4bdb72fcb68b847c40789b58031c0d89b8c8e4e189a0"


def _one(body: str) -> str | None:
    return row_hash(next(iter(_samples("samples:\n" + body).values())))


def test_id_metadata_and_key_order_do_not_count() -> None:
    base = _one("  - id: a\n    input: {question: q, context: c}\n    expected_output: e\n")
    assert base is not None
    assert _one("  - id: renamed\n    input: {context: c, question: q}\n"
                "    expected_output: e\n    metadata: {tags: [policy]}\n") == base


def test_list_order_question_and_expected_output_do_count() -> None:
    base = _one("  - id: a\n    input: {ranked: [x, y]}\n    expected_output: e\n")
    assert _one("  - id: a\n    input: {ranked: [y, x]}\n    expected_output: e\n") != base
    assert _one("  - id: a\n    input: {ranked: [x, y]}\n    expected_output: f\n") != base


def test_plain_dates_hash_as_symfony_timestamps() -> None:
    """symfony/yaml turns a plain date into its Unix time (UTC unless the text has a zone)."""
    assert _one("  - id: dates\n    input:\n      d: 2026-01-01\n      t: 2026-01-01T10:00:00Z\n"
                "      z: 2026-01-01 10:00:00 +02:00\n      w: 2001-12-14t21:59:43.10-05:00\n"
                "      old: 1960-05-01\n    expected_output: 2026-11-21 08:30:00\n") == \
        "040f61d98addfc926529271d851aeeb79db2c224f900e0606384fc2c0a58e41d"


def test_what_cannot_be_reproduced_has_no_hash() -> None:
    assert _one("  - id: a\n    input: {x: .inf}\n    expected_output: e\n") is None
    assert _one("  - id: a\n    input: {when: 2026-02-30}\n    expected_output: e\n") is None


def test_row_identities_for_hover() -> None:
    rows = row_identities(FACTUALITY)
    assert [(r.id, r.short, r.span.start.line, r.span.end.line) for r in rows] == [
        ("capital-france", "f043953a149a", 3, 8), ("refund-policy", "5518d853e03f", 10, 15)]
    assert row_identities("samples: [") == []
