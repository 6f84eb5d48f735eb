"""Every Eval Ever on the real files of `../shared/corpus`: the 18 EEE files are claimed (each as
the kind it is), each is checked against the version it declares, and the only findings are the
ones below, with the rule that makes it true; nothing anywhere else in the corpus is claimed.

- `v0.2.0@ddadd84a5/data/helm_mmlu/amazon/nova-pro-v1:0/…json`: EY726, a datastore folder
  holding ':' (HEAD's validator refuses it: the datastore must check out on Windows, where ':'
  cannot be in a file name; FORMATS.md §3 calls this path "invalid today").
- `helm_classic/meta/Llama-2-70B/…json`: five EY727, HELM's -1.0 sentinel outside [0, 1]
  (`every_eval_ever validate` 0.3.0 reports the same five, `check_score_metadata`).
- `global-mmlu-lite/OpenAI/o4-mini/…json`: EY730, the id files under `openai/` (the same
  warning from `check_model_identity_path`).

The 14 seed-era aggregates declare 0.1.0 and validate against the 0.1.0 schema (upstream
80f836c84); 98ea850e (0.2.0) against ddadd84a5's; the community object (0.2.2) against
c6d861b92's; the skill's aggregate and its samples file (0.3.0) against HEAD's, with the
checksum, row count, ids and sample_hash all agreeing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evalyaml.formats import claim as engine_claim
from evalyaml.formats.base import Claim
from evalyaml.formats.eee import AGGREGATE, FORMAT, SAMPLES
from evalyaml.workspace.index import Workspace

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"
EEE = CORPUS / "every_eval_ever"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not here")

SEED = "v0.2.0@ddadd84a5/data/"
HEAD = "v0.3.0@HEAD/tests/data/"
SKILL = HEAD + "skill_reference_conversion/data/demo-source/demo-org/demo-model/"
EXPECTED_CLAIMS = {
    **{SEED + p: AGGREGATE for p in (
        "ai2_arc/anthropic/claude-sonnet-4-0/40094cf6-b187-475d-8f14-abb71d998c2b.json",
        "global-mmlu-lite/OpenAI/o4-mini/16f3cc58-7107-4443-b872-c8515feb67ef.json",
        "hellaswag/eleutherai/pythia-1b-v0/a796664d-51fa-49b0-ae93-b446171f5521.json",
        "helm_capabilities/writer/palmyra-x5/c79b1007-a4f9-45f0-945c-d9e9bef65d2d.json",
        "helm_classic/meta/Llama-2-70B/cb8802af-613e-42a1-b025-31532996eb10.json",
        "helm_instruct/openai/gpt-4-0314/d4833e0d-b2ca-4161-a503-f5d4d9545bb0.json",
        "helm_lite/qwen/qwen1.5-7b/71d69629-11b9-4f06-98ca-536f1ab22f2c.json",
        "helm_mmlu/amazon/nova-pro-v1:0/28265def-113d-4e90-9ba9-02dfe86f5ad2.json",
        "helm_mmlu/writer/palmyra-x-004/ba74f375-fd6d-4bba-af63-605bd73c9b7f.json",
        "hfopenllm_v2/openai/gpt2/e28a8f11-68f6-464f-b1b8-21938cb41aa3.json",
        "livecodebenchpro/openai/gpt-4.1/ba46ef91-d157-4984-b3df-ce33d8d97f8e.json",
        "mmlu/openai/gpt2/7b2767f8-9266-486e-8e49-6177930bc258.json",
        "narrativeqa/openai/gpt2/96a7ea61-8869-4dd0-9164-756519a26ac0.json",
        "reward-bench/ai2/tulu-2-7b-rm-v0.json/5f43832f-14fa-49e1-a851-949163aec826.json")},
    HEAD + "98ea850e-7019-4728-a558-8b1819ec47c2.json": AGGREGATE,
    HEAD + "community_evals_converter/datastore/flat/objects/67/6f/"
    "676f4465-ce78-411a-9f5a-c97b3d2eac4f.json": AGGREGATE,
    SKILL + "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40.json": AGGREGATE,
    SKILL + "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl": SAMPLES,
}
# Every finding on the EEE corpus: (file, line, code) and the rule that makes it true.
EXPECTED_FINDINGS = {
    (SEED + "helm_mmlu/amazon/nova-pro-v1:0/28265def-113d-4e90-9ba9-02dfe86f5ad2.json", 0,
     "EY726"): "a datastore folder may not hold ':' (Windows file names cannot)",
    **{(SEED + "helm_classic/meta/Llama-2-70B/cb8802af-613e-42a1-b025-31532996eb10.json", line,
        "EY727"): "HELM's -1.0 'no score' is outside [min_score 0, max_score 1]: "
                  "validation_core.check_score_metadata, an error of every_eval_ever validate 0.3.0"
       for line in (603, 671, 807, 965, 1088)},
    (SEED + "global-mmlu-lite/OpenAI/o4-mini/16f3cc58-7107-4443-b872-c8515feb67ef.json", 16,
     "EY730"): "model_info.id 'openai/o4-mini' files under openai/, the file is under OpenAI/: "
               "validation_core.check_model_identity_path, a warning of every_eval_ever 0.3.0",
}


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith("_"))


@needs_corpus
def test_the_corpus_has_exactly_the_eee_files_as_claims() -> None:
    claimed: dict[str, object] = {}
    for path in _files(CORPUS):
        text = path.read_bytes().decode("utf-8-sig", errors="replace")
        for where, root in ((str(path), str(CORPUS)), (path.relative_to(CORPUS).as_posix(),
                                                       None)):
            verdict = FORMAT.claim(text, where, root)
            if verdict is not None:
                assert isinstance(verdict, Claim)
                claimed[path.relative_to(EEE).as_posix()] = verdict.kind
            engine = engine_claim(text, where, root)
            if engine is not None and isinstance(engine, Claim) and engine.kind in FORMAT.kinds:
                assert path.is_relative_to(EEE)
    assert claimed == EXPECTED_CLAIMS


@needs_corpus
def test_every_finding_on_the_eee_corpus_is_listed_with_its_rule() -> None:
    workspace = Workspace([EEE])
    workspace.index_all()
    found: set[tuple[str, int, str]] = set()
    for path in workspace.eval_files():
        for finding in workspace.findings(path):
            found.add((path.relative_to(EEE).as_posix(), finding.span.start.line, finding.code))
    assert found == set(EXPECTED_FINDINGS)
    analysed = {p.relative_to(EEE).as_posix(): workspace.analysis(p) for p in
                workspace.eval_files()}
    for rel, kind in EXPECTED_CLAIMS.items():
        analysis = analysed[rel]
        assert analysis is not None and analysis.kind is kind, rel
    samples = analysed[SKILL + "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl"]
    assert samples is not None and [c.id for c in samples.cases] == ["demo_0001"]


@needs_corpus
def test_the_rest_of_the_corpus_has_no_eee_finding() -> None:
    workspace = Workspace([CORPUS])
    workspace.index_all()
    for path in workspace.eval_files():
        analysis = workspace.analysis(path)
        assert analysis is not None
        if analysis.kind in FORMAT.kinds:
            assert path.is_relative_to(EEE)
        elif not path.is_relative_to(EEE):
            assert not any(f.code.startswith("EY7") for f in workspace.findings(path))
