"""Edit scripts for the differential tests: what hypothesis draws, and how a client applies
it (code-point offsets; never between the CR and the LF of a CRLF, which no client can name)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from tests.hostile.harness import EXAMPLES

FILES = sorted(p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*.yaml"))
# Padosoft's datasets are `.yml` (analysed sample by sample, like AgentV's suites test by test).
FILES += sorted(p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*.yml"))
# Adopted files are edited too: an AgentV grader prompt (Markdown, checked as what the suite
# naming it says it is).
FILES += ["agentv/evals/prompts/support-grader.md"]
# JSON and JSONL files of a format whose rules read them (Apastra's dataset rows and baselines).
FILES += ["apastra/promptops/datasets/support-faq/dataset.jsonl",
          "apastra/derived-index/baselines/support-baseline.json"]
# Every Eval Ever: JSON aggregates and JSONL samples files (an edited samples file re-checks
# its aggregate, the dependent opened alongside).
FILES += sorted(p.relative_to(EXAMPLES).as_posix() for p in (EXAMPLES / "eee" / "data").rglob("*")
                if p.suffix in (".json", ".jsonl"))

FRAGMENTS = [
    "a", " ", "  ", "\n", "\n  ", "\n    ", "  - ", "- id: x\n", ":", ": ", "#", "# c\n", "'",
    '"', "[", "]", "{", "}", ",", "&a ", "*a", "<<: *a\n", "!!str ", "!!python/object:os.system ",
    "\t", "é", "😀", "中文", "\u2028", "\u0085", "\r\n", "\r", "\x00", "\ufeff", "---\n",
    "...\n", "questions:\n", "  - id: new_case\n    input: hello\n",
    "    input: |\n      block\n", "rubric_ref: rubric/support_quality@1\n",
    "rubric_ref: rubric/nope@9\n", "rubric_ref: rubric/factuality\n",
    "    expecteed_facts: [x]\n", "version: 1.10\n", 'version: "2.0.0"\n', 'version: "1.0.0"\n',
    "id: factuality\n", "id: tone\n", "  - kind: regex\n    pattern: \"(a+\"\n",
    "  - kind: regx\n", "judge_prompt_ref: judge/tone@1.0.0\n", "{{ outptu }}",
    "validated_at: 2020-01-01\n", "tpr: 91\n", "weight: 0\n", "combine: weighted_avg\n",
    "# yaml-language-server: $schema=https://evalyaml.dev/schemas/v1/rubric.schema.json\n",
    # AgentV: graders, rubrics, dependencies, vars, prompt references.
    "    assertions:\n      - type: contians\n", "      - type: composite\n",
    "        mode: in-order\n", "    depends_on: [x, x]\n", "    vars: {q: 1}\n",
    "{{ questoin }}", "prompt: file://prompts/support-grader.md\n", "prompt: missing.md\n",
    "score_ranges: {0: a, 5: b}\n", "    mode: conversation\n", "weight: -1\n",
    # Padosoft samples and AgentV tests: items added, duplicated, misspelt, moved by a line.
    "  - id: new_sample\n    input: {q: 1}\n    expected_output: x\n", "samples:\n", "tests:\n",
    "    metadata:\n      tagz: [a]\n", "  - id: refund-policy\n", "    expected_ouput: x\n",
    "  - id: t2\n    input: hi\n    criteria: ok\n    depends_on: [t1]\n", "      k: five\n",
    '"schema_version": "0.2.0", ', '"schema_version": "9.9.9", ', '"single-turn"', '"agentic"',
    'NaN', ',}', ', "x": 1', '"evaluation_id": "other", ', '"model_id": "org/else", ', "null",
    '"total_rows": 99', '"checksum": "00"', '"sample_hash": "00", ', '"interactions": [], ',
    '{"schema_version": "0.3.0", "sample_id": "new"}\n', "[1, 2]\n", '{"a": {"a": {"a": {',
    '"token_usage": {"input_tokens": 1}, ', '"evaluation_id": "a", "evaluation_id": "b", ',
]
ALPHABET = st.sampled_from([*"abc xyz:-_#'\"[]{},\n\t\r&*!|>%@`0123456789.",
                            "é", "😀", "中", "\u2028", "\x00", "\ufeff", "\U0010fffd"])
FRAGMENT = st.one_of(st.sampled_from(FRAGMENTS), st.text(ALPHABET, min_size=1, max_size=12))
POS = st.integers(0, 1 << 20)
LENGTH = st.integers(1, 60)
ASK = st.sampled_from(["hover", "completion", "definition", "documentSymbol", "codeLens",
                       "codeAction", "references", "documentLink", "prepareRename"])

STEP = st.one_of(
    st.tuples(st.just("insert"), POS, FRAGMENT),
    st.tuples(st.just("append"), FRAGMENT),
    st.tuples(st.just("delete"), POS, LENGTH),
    st.tuples(st.just("replace"), POS, LENGTH, FRAGMENT),
    st.tuples(st.just("paste"), POS, POS, LENGTH),
    st.tuples(st.just("undo")),
    st.tuples(st.just("batch"), st.integers(2, 4)),
    st.tuples(st.just("full")),
    st.tuples(st.just("wait")),
    st.tuples(st.just("ask"), ASK, POS),
)


@dataclass(frozen=True)
class Script:
    file: str
    steps: list[tuple[Any, ...]]
    with_dependent: bool


SCRIPTS = st.builds(Script, st.sampled_from(FILES), st.lists(STEP, min_size=8, max_size=60),
                    st.booleans())



def legal(text: str, offset: int, *, forward: bool = False) -> int:
    """An offset a client can name: never between the CR and the LF of a CRLF."""
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        return offset + 1 if forward else offset - 1
    return offset
