"""Recognising Padosoft files: the corpus of real eval files from every neighbouring format
(`../shared/corpus`) gives exactly the two Padosoft files as claims and no near miss anywhere,
and those two analyse clean. Then the claim tiers and the near misses, one by one."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from evalyaml.core.options import Options
from evalyaml.formats.base import Claim, Format, NearMiss, Tier
from evalyaml.formats.padosoft import CALIBRATION, DATASET, EVAL_SET, FORMAT

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"
PADOSOFT = {
    "padosoft-eval-harness/readme-extracted/eval/golden/factuality.yml": DATASET,
    "padosoft-eval-harness/tests/Fixtures/calibration/judge-cases.v1.yaml": CALIBRATION,
}
OPTIONS = Options(today=date(2026, 11, 21))
PROTOCOL: Format = FORMAT  # mypy checks that the format satisfies the engine's protocol

DATASET_TEXT = """schema_version: eval-harness.dataset.v1
name: rag.smoke
samples:
  - id: capital-france
    input: {question: "What is the capital of France?"}
    expected_output: Paris
"""


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and not p.name.startswith("_"))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not next to this tree")
def test_the_corpus_has_exactly_two_padosoft_files_and_no_near_miss() -> None:
    claimed: dict[str, object] = {}
    misses: list[str] = []
    files = _corpus_files()
    assert len(files) > 200
    for path in files:
        text = path.read_bytes().decode("utf-8-sig", errors="replace")
        rel = path.relative_to(CORPUS).as_posix()
        for where, root in ((str(path), str(CORPUS)), (rel, None)):
            verdict = FORMAT.claim(text, where, root)
            if verdict is not None:
                assert isinstance(verdict, Claim)
                claimed[rel] = verdict.kind
            if FORMAT.near_miss(text, where, root) is not None:
                misses.append(rel)
    assert claimed == PADOSOFT
    assert misses == []


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not next to this tree")
@pytest.mark.parametrize("rel", sorted(PADOSOFT))
def test_the_corpus_padosoft_files_are_clean(rel: str) -> None:
    text = (CORPUS / rel).read_text(encoding="utf-8")
    analysis = FORMAT.analyze(text, rel, PADOSOFT[rel], OPTIONS)
    assert analysis.kind is PADOSOFT[rel]
    assert analysis.findings == []
    if PADOSOFT[rel] is DATASET:
        assert [d.id for d in analysis.definitions] == ["rag.factuality.fy2026"]
        assert [c.id for c in analysis.cases] == ["capital-france", "refund-policy"]
    else:
        assert [c.id for c in analysis.cases] == ["c1", "c2", "c3", "c4"]


def test_the_readme_metadata_fragment_is_not_claimed() -> None:
    fragment = ('metadata:\n  citation_evidence:\n    - citation: "[policy:refunds]"\n'
                '      quote: "Refunds are available within 30 days."\n')
    assert FORMAT.claim(fragment, "readme-metadata-citation-evidence-fragment.yaml", None) is None
    assert FORMAT.near_miss(fragment, "fragment.yaml", None) is None


@pytest.mark.parametrize(("text", "path", "kind", "tier"), [
    (DATASET_TEXT, "anywhere/x.yaml", DATASET, Tier.DIRECTIVE),
    ("schema_version: 'eval-harness.dataset.v2'\nname: x\n", "x.yaml", DATASET, Tier.DIRECTIVE),
    ("schema_version: eval-harness.calibration.v1\ncases: []\n", "x.yml", CALIBRATION,
     Tier.DIRECTIVE),
    ("schema_version: eval-harness.something.v1\n", "x.yaml", DATASET, Tier.DIRECTIVE),
    ("\ufeffschema_version: eval-harness.dataset.v1 # the contract\n", "x.yaml", DATASET,
     Tier.DIRECTIVE),
    ("name: x\n", "proj/eval/golden/x.yml", DATASET, Tier.PATH),
    (DATASET_TEXT.replace("schema_version: eval-harness.dataset.v1\n", ""), "x.yaml", DATASET,
     Tier.SHAPE),
    ("cases:\n  - id: c1\n    human_verdict: pass\n", "labels.yaml", CALIBRATION, Tier.SHAPE),
    ('{"schema_version": "eval-harness.eval-set.v1", "name": "n", "datasets": []}', "s.json",
     EVAL_SET, Tier.DIRECTIVE),
])
def test_claims(text: str, path: str, kind: object, tier: Tier) -> None:
    verdict = FORMAT.claim(text, path, None)
    assert isinstance(verdict, Claim)
    assert (verdict.kind, verdict.tier) == (kind, tier)


@pytest.mark.parametrize(("text", "path", "root"), [
    ("  schema_version: eval-harness.dataset.v1\n", "x.yaml", None),  # not at the root
    ("name: x\n", "/elsewhere/eval/golden/x.yml", "/work/project"),  # outside the root
    ("name: x\n", "/work/project/eval/golden/deep/x.yml", "/work/project"),  # not directly in it
    ("questions:\n  - id: a\n", "eval/golden/contract.yaml", None),  # the contract's dataset
    ("# yaml-language-server: $schema=https://x/y.json\nname: x\n", "eval/golden/x.yml", None),
    ("name: x\nsamples:\n  - id: a\n    input: {}\n", "x.yaml", None),  # no expected_output
    ('{"schema_version": "eval-harness.dataset.v1"}', "x.json", None),  # datasets are YAML
    ('schema_version: eval-harness.eval-set.v1\n', "x.json", None),
])
def test_not_claimed(text: str, path: str, root: str | None) -> None:
    assert FORMAT.claim(text, path, root) is None


@pytest.mark.parametrize(("text", "path", "kind", "where", "message"), [
    ("schema_version: eval-harnes.dataset.v1\nname: x\n", "x.yaml", DATASET, (0, 16, 0, 38),
     "this looks like a Padosoft eval-harness dataset, but its schema_version "
     "'eval-harnes.dataset.v1' is not 'eval-harness.dataset.v1', so it was not recognised and "
     "none of its samples were checked (eval-harness itself refuses an unsupported "
     "schema_version)"),
    ("schema_version: eval_harness.calibration.v1\n", "x.yaml", CALIBRATION, (0, 16, 0, 43),
     None),
    ('{"schema_version": "Eval-Harness.eval-set.v1"}', "x.json", EVAL_SET, (0, 20, 0, 44), None),
    # A near miss only where the key spelt right would have been claimed (expected_output too).
    ("name: rag.smoke\nsampels:\n  - id: a\n    input: {q: x}\n    expected_output: y\n",
     "x.yaml", DATASET,
     (1, 0, 1, 7), "this looks like a Padosoft eval-harness dataset, but its root key is "
     "'sampels', not 'samples', so it was not recognised and none of its samples were checked "
     "(eval-harness itself refuses it: \"Dataset YAML missing required list field 'samples'.\")"),
    ("name: rag.smoke\nsmaples:\n- id: a\n  input: {q: x}\n  expected_output: y\n", "x.yaml",
     DATASET, (1, 0, 1, 7),
     None),
])
def test_near_misses(text: str, path: str, kind: object, where: tuple[int, int, int, int],
                     message: str | None) -> None:
    assert FORMAT.claim(text, path, None) is None
    miss = FORMAT.near_miss(text, path, None)
    assert isinstance(miss, NearMiss)
    span = miss.span
    assert (miss.kind, (span.start.line, span.start.character, span.end.line,
                        span.end.character)) == (kind, where)
    if message is not None:
        assert miss.message == message


@pytest.mark.parametrize("text", [
    "name: my-app\nexamples:\n  - id: a\n    input: x\n",  # 'examples' is not a misspelling
    "name: x\nsamples:\n  - id: a\n",  # the real key: a claim's business, not a near miss
    "schema_version: 2\nname: x\n",  # far from every supported version
    "schema_version: eval-harness.dataset.v1\n",  # claimed, so never a near miss
    "sampels:\n  - id: a\n    input: x\n",  # no root name
])
def test_no_near_miss(text: str) -> None:
    assert FORMAT.near_miss(text, "x.yaml", None) is None
