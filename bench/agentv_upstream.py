"""AgentV's own example suites at the seed commit, unchanged and with planted mistakes, through
`agentv validate` (npm `agentv` 4.x) and `evalyaml check` side by side.

    python bench/agentv_upstream.py --upstream /path/to/agentv.git     # a clone (bare is fine)
    python bench/agentv_upstream.py --upstream GITDIR --commit e43a4d46 --runs 5

1. The repository's tree at the commit (`git archive`, so the suites' prompt files, templates
   and `.agentv/assertions/` are all there) is checked as is: every evalyaml finding must be a
   true one (they are listed with their codes; the EY622 bare prompt paths are real upstream
   mistakes: `graders/prompt-resolution.ts` sends them as inline text).
2. Mistakes are planted in copies of the example suites, the way someone writing from the
   upstream code would (one per rule family), and a hand-written suite adds the validator's and
   the loader's other rules. For each planted mistake the table says where each tool places it.

Nothing here is a test: it needs the upstream repository and agentv, and figures depend on the
machine. No AgentV code is imported; agentv runs as its own CLI.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agentv_side_by_side import DEFAULT_AGENTV, run

F = "examples/features/"
# (file, text as upstream wrote it, planted text, the evalyaml code expected)
PLANTS = [
    (F + "rubric/evals/dataset.eval.yaml", "          - id: brevity_and_clarity\n"
     "            weight: 1.0\n", "          - id: brevity_and_clarity\n            weight: 1.0\n"
     "            min_score: 8\n", "EY627"),
    (F + "rubric/evals/operators.eval.yaml", "operator: contradiction", "operator: contradicts",
     "EY626"),
    (F + "tool-trajectory-simple/evals/dataset.eval.yaml", "        mode: superset",
     "        mode: super_set", "EY636"),
    (F + "test-vars-templating/evals/dataset.eval.yaml", 'input: "Question: {{question}}"',
     'input: "Question: {{questions}}"', "EY639"),
    (F + "test-vars-templating/evals/dataset.eval.yaml", "Greets {{person.name}} warmly",
     "Greets {{person.nmae}} warmly", "EY639"),
    (F + "composite/evals/dataset.eval.yaml", "          type: weighted_average\n",
     "          type: weighted_avrage\n", "EY636"),
    (F + "composite/evals/dataset.eval.yaml", "prompt: ../prompts/safety-check.md",
     "prompt: file://../prompts/safety-chek.md", "EY621"),
    (F + "sdk-custom-assertion/evals/dataset.eval.yaml", "      - type: word-count\n",
     "      - type: word-cnt\n", "EY613"),
    (F + "latency-assertions/evals/dataset.eval.yaml", "        mode: exact",
     "        mode: strict", "EY636"),
    (F + "multi-turn-conversation-live/evals/dataset.eval.yaml", "    aggregation: min\n",
     "    aggregation: minimum\n", "EY638"),
    (F + "basic/evals/dataset.eval.yaml", "prompt: code-correctness-grader.md",
     "prompt: file://code-correctnes-grader.md", "EY621"),
    (F + "deterministic-graders/evals/dataset.eval.yaml", "type: contains\n",
     "type: contians\n", "EY613"),
]
HAND = {
    "evals/planted/prompts/grader.md": "Question: {{ input }}\nAnswer: {{ output_text }}\n"
    "Rubric: {{ rubric }}\n",
    "evals/planted/prompts/no-output.md": "Judge whether the reply to {{ input }} is polite.\n",
    "evals/planted/cases.yaml": "- id: c1\n  input: hi\n  criteria: ok\n- id: c2\n  input:\n"
    "    - role: usr\n      content: hello\n  criteria: ok\n",
    "evals/planted/more.eval.yaml": "tests: cases.yml\n",
    "evals/planted/third.eval.yaml": "name: third\ntests:\n  - file://cases.yaml\n"
    "  - file://missing-cases.jsonl\n  - cases.yaml\n",
    "evals/planted/suite.eval.yaml": """name: Support Suite
metadata: {owner: qa}
tests:
  - id: refund
    input: How do I get a refund?
    criteria: Explains the refund policy
    assertions:
      - type: llm-grader
        prompt: file://prompts/grader.md
        rubrics:
          - id: policy
            outcome: Mentions 30 days
            required_min_score: 7
      - type: llm-grader
        prompt: prompts/no-output.md
      - type: llm-grader
        prompt: file://prompts/no-output.md
  - id: refund
    input: again
    criteria: dup
  - id: rubric-only
    input: hi
    rubrics:
      - outcome: Greets
      - criteria: Is short
  - id: regexes
    input: date?
    assertions:
      - type: regex
        value: "(?<year>\\\\d{4})-(?<month>\\\\d{2})"
      - type: regex
        value: "[z-a]"
      - type: icontains-all
        value: []
      - type: equals
        value: x
        required: 0
  - id: msgs
    input:
      - role: System
        content: be nice
      - role: user
    expected_output:
      - role: assistant
        content: 42
  - id: conv
    mode: conversation
    input: start
    turns:
      - input: ""
    expected_output: done
  - id: ranged
    input: essay
    assertions:
      - type: rubrics
        criteria:
          - id: quality
            score_ranges:
              - score_range: [0, 4]
                outcome: poor
              - score_range: [4, 8]
                outcome: ok
  - id: deps
    input: x
    criteria: y
    depends_on: [refnd]
  - id: graders
    input: x
    assertions:
      - type: llm_judge
      - type: code-grader
      - type: code_grader
        command: [bun, run, ./graders/check.ts]
        weight: -2
""",
}


def export(upstream: Path, commit: str, target: Path) -> None:
    data = subprocess.run(["git", "--git-dir", str(upstream), "archive", commit],
                          capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(target, filter="data")
    subprocess.run(["git", "init", "-q", str(target)], check=True)
    (target / "evalyaml.toml").write_text("", encoding="utf-8")


def plant(root: Path) -> list[tuple[str, int, str]]:
    """Apply PLANTS (each once) and HAND; the planted places as (file, line, code)."""
    where: list[tuple[str, int, str]] = []
    for rel, old, new, code in PLANTS:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        at = text.index(old)
        path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
        changed = next(i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b) \
            if old != new[:len(old)] else len(old)
        where.append((rel, text[:at + changed].count("\n") + 1, code))
    for rel, text in HAND.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return where


def codes(found: dict[str, list[str]]) -> Counter[str]:
    return Counter(item.split()[2] for items in found.values() for item in items)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", type=Path, required=True,
                        help="the EntityProcess/agentv git directory")
    parser.add_argument("--commit", default="e43a4d46")
    parser.add_argument("--agentv", default=str(DEFAULT_AGENTV))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "agentv"
        export(args.upstream, args.commit, root)
        a_found, e_found, a_med, e_med = run(args.agentv, root, args.runs)
        print(f"## upstream at {args.commit}, unchanged\n")
        print(f"evalyaml: {sum(map(len, e_found.values()))} findings in {len(e_found)} files, "
              f"by code {dict(sorted(codes(e_found).items()))}")
        a_items = sum(map(len, a_found.values()))
        print(f"agentv validate: {a_items} findings in {sum(1 for v in a_found.values() if v)} "
              "files")
        for name in sorted(e_found):
            for item in e_found[name]:
                if " EY622 " not in item:
                    print(f"- evalyaml {name}: {item}")
        for name in sorted(a_found):
            for item in a_found[name]:
                print(f"- agentv {name}: {item}")
        print(f"median wall time over {args.runs} runs: agentv validate {a_med:.3f} s, "
              f"evalyaml check {e_med:.3f} s\n")
        before_a = {k: set(v) for k, v in a_found.items()}
        planted = plant(root)
        a_found, e_found, a_med, e_med = run(args.agentv, root, args.runs)
        print("## planted in the example suites\n")
        print("| planted (file:line) | expected | evalyaml check | agentv validate |")
        print("| --- | --- | --- | --- |")
        hit = 0
        for rel, line, code in planted:
            mine = [i for i in e_found.get(rel, []) if i.split()[1].split(":")[0] == str(line)]
            hit += any(i.split()[2] == code for i in mine)
            theirs = sorted(set(a_found.get(rel, [])) - before_a.get(rel, set()))
            print(f"| {rel}:{line} | {code} | {'<br>'.join(mine) or '(nothing)'} | "
                  f"{'<br>'.join(theirs) or '(nothing)'} |")
        print(f"\nevalyaml found {hit}/{len(planted)} at the planted line with the expected code")
        print("\n## the hand-written planted suites (evals/planted/)\n")
        for rel in sorted(n for n in set(e_found) | set(a_found) if "planted/" in n):
            print(f"### {rel}\n")
            for item in e_found.get(rel, []):
                print(f"- evalyaml {item}")
            for item in a_found.get(rel, []):
                print(f"- agentv {item}")
            print()
        print(f"median wall time over {args.runs} runs (whole tree, planted): agentv validate "
              f"{a_med:.3f} s, evalyaml check {e_med:.3f} s (ratio {a_med / e_med:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
