"""Item lists analysed item by item or row by row (issue #27: every format's 10,000-item file
edits as fast as a contract dataset) against one pass over the whole file: through the same edit
scripts as the server's differential test, with the document's cache across the edits and
without one, the findings, cases, definitions, file references and facts are the whole file's.

The shapes: AgentV JSONL cases files, promptfoo tests files (YAML lists, JSONL, CSV tables,
JSON arrays), promptfoo configs in JSON (the `tests` array cut out, `syntax/jsonsplit.py`),
Padosoft calibration files, Apastra JSONL dataset cases and quick evals (YAML and JSON), Every
Eval Ever aggregates' `evaluation_results` (`syntax/rowchecks.py`, `syntax/jsonitems.py`,
`core/items.py`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.hostile.edits import STEP
from tests.hostile.harness import EXAMPLES, TODAY, profile
from tests.hostile.test_incremental_core import _apply, _whole_keys


def _agentv_jsonl() -> str:
    rows: list[object] = [
        {"id": "refund", "input": "What is the refund policy?", "criteria": "States it.",
         "assertions": [{"type": "contains", "value": "refund"}]},
        {"id": "grader", "input": "Where is my order?", "criteria": "Answers.",
         "assertions": [{"type": "llm-grader", "prompt": "file://prompts/support-grader.md"}]},
        {"id": "old", "input": "hi", "expected_outcome": "a greeting", "vars": {"q": 1}},
        [1, 2],
        {"id": "typo", "input": "hi", "critera": "x", "assertions": [{"type": "contians"}]},
        {"id": "refund", "input": "again", "criteria": "dup"},
    ]
    return "".join(json.dumps(row) + "\n" for row in rows) + "\n" + '{"id": "bad",\n'


def _analyze_agentv(text: str, path: str, options: Any, cache: Any, whole: bool) -> Any:
    from evalyaml.formats import agentv

    return agentv.FORMAT.analyze(text, path, agentv.CASES, options, cache=cache, whole=whole)


def _promptfoo_tests() -> list[object]:
    return [
        {"description": "refund", "vars": {"question": "Refund?"},
         "assert": [{"type": "icontains", "value": "refund"}]},
        {"vars": {"question": "No description"}, "assert": [{"type": "contains", "value": "a"}]},
        {"vars": {"question": "Also none"}},
        {"description": "typo", "varz": {"q": 1}, "assert": [{"type": "contans"}]},
        {"vars": "file://vars/missing.yaml", "threshold": "high",
         "assert": [{"type": "python", "value": "file://asserts/check.py"}]},
        "file://more-tests.yaml",
        {"description": "empty"},
    ]


def _promptfoo_yaml() -> str:
    return """# tests named by promptfooconfig.yaml
- description: refund
  vars:
    question: Refund?
  assert:
    - type: icontains
      value: refund
- vars:
    question: No description
  assert:
    - type: contains
      value: a
- vars: {question: Also none}
- description: typo
  varz: {q: 1}
  assert:
    - type: contans
- vars: file://vars/missing.yaml
  threshold: high
  assert:
    - type: python
      value: file://asserts/check.py
- file://more-tests.yaml
- description: empty

- vars:
    question: |
      a block
  assert: [{type: equals, value: x}]
"""


def _promptfoo_jsonl() -> str:
    return "".join(json.dumps(test) + "\n" for test in _promptfoo_tests()) + "\n[1]\n{\"x\n"


def _promptfoo_json() -> str:
    return json.dumps([*_promptfoo_tests(), {"vars": {"question": "q"}}, 7], indent=2) + "\n"


def _analyze_promptfoo(text: str, path: str, options: Any, cache: Any, whole: bool) -> Any:
    from evalyaml.formats import promptfoo

    return promptfoo.FORMAT.analyze(text, path, promptfoo.TESTS, options, cache=cache,
                                    whole=whole)


def _promptfoo_config_json() -> str:
    return json.dumps({
        "description": "support questions",
        "prompts": ["Answer in a {{ tone }} voice: {{ question }}"],
        "providers": ["openai:gpt-4o-mini"],
        "defaultTest": {"vars": {"tone": "friendly"}},
        "tests": [*_promptfoo_tests(), {"path": "file://gen.py", "config": {"n": 2}},
                  {"vars": {"question": "Où est ma commande 📦 订单"}, "assert": [
                      {"type": "contains", "value": "订单"}]}, 7],
        "scenarios": [{"config": [{"vars": {"tone": "dry"}}], "tests": [{"vars": {}}]}],
    }, indent=2, ensure_ascii=False) + "\n"


def _analyze_promptfoo_config(text: str, path: str, options: Any, cache: Any,
                              whole: bool) -> Any:
    from evalyaml.formats import promptfoo

    return promptfoo.FORMAT.analyze(text, path, promptfoo.CONFIG, options, cache=cache,
                                    whole=whole)


def _quick_eval() -> str:
    text = (EXAMPLES / "apastra/promptops/evals/quick-summary.yaml").read_text("utf-8")
    cases = """  - case_id: short
    inputs: {max_words: "8", txt: "again"}
  - case_id: no-inputs
    assert: [{type: icontain, value: x}]
  - case_id: emoji 📦
    inputs:
      max_words: 3
      text: "订单 🚚"
    metadata: {digest: "sha256:"}
    extra: true
  - [a, b]
  - inputz: {text: x}
    id: no-case-id
"""
    at = text.index("thresholds:")
    return text[:at] + cases + text[at:] + "scratch: {{text}}\n"


def _quick_eval_json() -> str:
    from evalyaml.core.findings import FindingSink
    from evalyaml.syntax.tree import Budget, to_python
    from evalyaml.syntax.yaml.parse import parse_text

    tree = parse_text(_quick_eval(), FindingSink(strict=False)).documents[0]
    assert tree is not None
    return json.dumps(to_python(tree, Budget(10_000)), indent=2, ensure_ascii=False) + "\n"


def _analyze_quick_eval(text: str, path: str, options: Any, cache: Any, whole: bool) -> Any:
    from evalyaml.formats.apastra.analyze import analyze
    from evalyaml.formats.apastra.kinds import QUICK_EVAL

    return analyze(text, path, QUICK_EVAL, options, cache, whole=whole)


def _apastra_jsonl() -> str:
    text = (EXAMPLES / "apastra/promptops/datasets/support-faq/dataset.jsonl").read_text("utf-8")
    return text + "".join(json.dumps(row) + "\n" for row in [
        {"case_id": "refund-window", "inputs": {"text": "again"}},
        {"case_id": "no-inputs", "expected_outputs": {"should_contain": 3}},
        {"case_id": "digest", "inputs": {"text": "x"}, "metadata": {"digest": "sha256:"}},
        {"inputs": {"text": "no id"}, "extra": True},
        [1, 2],
    ]) + "\n" + '{"case_id": "open",\n'


def _analyze_apastra(text: str, path: str, options: Any, cache: Any, whole: bool) -> Any:
    from evalyaml.formats.apastra.analyze import analyze
    from evalyaml.formats.apastra.kinds import CASES

    return analyze(text, path, CASES, options, cache, whole=whole)


def _calibration() -> str:
    text = (EXAMPLES / "padosoft/eval/calibration/judge-cases.v1.yaml").read_text("utf-8")
    return text + """  - id: refund-correct
    input: {question: again}
    expected: 100
    actual: "x"
    human_verdict: Pass
  - id:
    inputt: {}
    actual_output: y
  - [a, b]
  - id: last
    input: []
    expected: "z"
    actual: "z"
    human_verdict: fail
    note: extra
"""


def _analyze_calibration(text: str, path: str, options: Any, cache: Any, whole: bool) -> Any:
    from evalyaml.formats import padosoft
    from evalyaml.formats.padosoft.analyze import analyze_whole
    from evalyaml.formats.padosoft.kinds import CALIBRATION

    if whole:
        return analyze_whole(text, path, CALIBRATION, options)
    return padosoft.FORMAT.analyze(text, path, CALIBRATION, options, cache=cache)


def _csv() -> str:
    text = (EXAMPLES / "promptfoo/clean/tests/languages.csv").read_text("utf-8")
    return text + (
        "Wo ist meine Bestellung?,Acme,icontain:Bestellung,latency:3000,high\n"
        "\"Where, exactly?\",Acme,contains:x,,0.2\n"
        "too,few\n"
        "\"a \"\"quoted\"\" cell\",Acme,not-contans:AI,similar(0.7):x,1\n")


def _analyze_table(text: str, path: str, options: Any, cache: Any, whole: bool) -> Any:
    from evalyaml.formats import promptfoo

    return promptfoo.FORMAT.analyze(text, path, promptfoo.TABLE, options, cache=cache,
                                    whole=whole)


EEE_AGGREGATE = "eee/data/arith-demo/acme/tiny-model/3b1f6c2e-7a4d-4e8b-9c5f-2d1e0a9b8c7d.json"


def _eee_aggregate() -> str:
    """The example aggregate with results that are clean, out of range, upside down, misspelt,
    too large for a double, named in CJK and emoji, and not an object."""
    data = json.loads((EXAMPLES / EEE_AGGREGATE).read_text("utf-8"))
    first = data["evaluation_results"][0]
    metric, details = first["metric_config"], first["score_details"]
    data["evaluation_results"] += [
        {**first, "evaluation_name": "above", "score_details": {"score": 1.5}},
        {**first, "evaluation_name": "upside down",
         "metric_config": {**metric, "min_score": 2.0}},
        {**first, "evaluation_name": "订单 📦", "metric_config": {
            **{k: v for k, v in metric.items() if k != "lower_is_better"},
            "lower_is_bettr": False}},
        {**first, "evaluation_name": "overflow", "score_details": {**details, "score": 0.25}},
        {"evaluation_nam": "stub", "source_data": {"source_type": "hf_dataset"}},
        7,
    ]
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return text.replace('"score": 0.25', '"score": 1e999')


def _analyze_eee(text: str, path: str, options: Any, cache: Any, whole: bool) -> Any:
    from evalyaml.formats import eee

    return eee.FORMAT.analyze(text, path, eee.AGGREGATE, options, cache=cache, whole=whole)


SHAPES: dict[str, tuple[str, Callable[[], str], Callable[..., Any]]] = {
    "agentv-jsonl": ("agentv/evals/cases.jsonl", _agentv_jsonl, _analyze_agentv),
    "apastra-jsonl": ("apastra/promptops/datasets/support-faq/dataset.jsonl", _apastra_jsonl,
                      _analyze_apastra),
    "padosoft-calibration": ("padosoft/eval/calibration/judge-cases.v1.yaml", _calibration,
                             _analyze_calibration),
    "apastra-quick-eval": ("apastra/promptops/evals/quick-big.yaml", _quick_eval,
                           _analyze_quick_eval),
    "apastra-quick-eval-json": ("apastra/promptops/evals/quick-big.json", _quick_eval_json,
                                _analyze_quick_eval),
    "promptfoo-config-json": ("promptfoo/clean/promptfooconfig.json", _promptfoo_config_json,
                              _analyze_promptfoo_config),
    "eee-aggregate": (EEE_AGGREGATE, _eee_aggregate, _analyze_eee),
    "promptfoo-csv": ("promptfoo/clean/tests/big.csv", _csv, _analyze_table),
    "promptfoo-tests-yaml": ("promptfoo/clean/tests/big.yaml", _promptfoo_yaml,
                             _analyze_promptfoo),
    "promptfoo-tests-json": ("promptfoo/clean/tests/big.json", _promptfoo_json,
                             _analyze_promptfoo),
    "promptfoo-tests-jsonl": ("promptfoo/clean/tests/big.jsonl", _promptfoo_jsonl,
                              _analyze_promptfoo),
}


def _run(shape: str, steps: list[tuple[Any, ...]]) -> None:
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options

    rel, make, analyze = SHAPES[shape]
    options = Options(today=date.fromisoformat(TODAY), root=str(EXAMPLES))
    path = str(EXAMPLES / rel)
    text = make()
    cache = CaseCache()
    undo: list[tuple[int, int, str]] = []
    for step in [("undo",), *steps]:
        edited = _apply(text, step, undo)
        text = edited if edited is not None else text
        expected = _whole_keys(analyze(text, path, options, None, True))
        assert _whole_keys(analyze(text, path, options, cache, False)) == expected, text
        assert _whole_keys(analyze(text, path, options, None, False)) == expected, text


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_unedited_item_by_item_equals_the_whole_file(shape: str) -> None:
    _run(shape, [])


@profile(300)
@given(shape=st.sampled_from(sorted(SHAPES)), steps=st.lists(STEP, min_size=8, max_size=40))
def test_item_by_item_equals_the_whole_file(shape: str, steps: list[tuple[Any, ...]]) -> None:
    _run(shape, steps)


@pytest.mark.parametrize(("shape", "good", "bad", "code"), [
    ("agentv-jsonl", '"criteria": "States it."', '"critera": "States it."', "EY601"),
    ("apastra-jsonl", '"case_id": "refund-window"', '"case_idd": "refund-window"', "EY800"),
    ("promptfoo-csv", "Acme,contains:x", "Acme,contain:x", "EYPF015"),
    ("promptfoo-tests-jsonl", '"vars": {"question": "Refund?"}', '"varz": {"question": "R"}',
     "EYPF001"),
])
def test_a_one_row_edit_checks_that_row_alone(shape: str, good: str, bad: str,
                                              code: str) -> None:
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options
    from evalyaml.syntax.rowchecks import RowState

    rel, make, analyze = SHAPES[shape]
    options = Options(root=str(EXAMPLES))
    text = make()
    cache = CaseCache()
    before = analyze(text, str(EXAMPLES / rel), options, cache, False)
    state = next(s for s in cache._format_state.values() if isinstance(s, RowState))
    checked = state.checked
    after = analyze(text.replace(good, bad, 1), str(EXAMPLES / rel), options, cache, False)
    assert state.checked == checked + 1
    added = sorted(set(map(repr, after.findings)) - set(map(repr, before.findings)))
    assert [a.split("code='")[1][:len(code)] for a in added] == [code]
    at = text.index(good)
    line_start = text.rfind("\n", 0, at) + 1
    found = next(f for f in after.findings if repr(f) == added[0])
    assert found.span.start.line == text.count("\n", 0, at)
    assert at - line_start <= found.span.start.character <= at - line_start + len(good)


@pytest.mark.parametrize(("shape", "good", "bad", "code"), [
    ("padosoft-calibration", "    human_verdict: pass\n  - id: refund-wrong-window",
     "    human_verdict: pas\n  - id: refund-wrong-window", "EY511"),
    ("promptfoo-tests-yaml", "- description: typo\n  varz:", "- description: typo\n  vars:",
     "-EYPF001"),
])
def test_a_one_item_edit_checks_that_item_alone(shape: str, good: str, bad: str,
                                                code: str) -> None:
    """`code` is the finding the edit adds (`-CODE`: the one it removes)."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.items import ItemState
    from evalyaml.core.options import Options

    rel, make, analyze = SHAPES[shape]
    options = Options(root=str(EXAMPLES))
    text = make()
    cache = CaseCache()
    before = analyze(text, str(EXAMPLES / rel), options, cache, False)
    state = next(s for s in cache._format_state.values() if isinstance(s, ItemState))
    assert state.incremental == 0
    after = analyze(text.replace(good, bad, 1), str(EXAMPLES / rel), options, cache, False)
    assert state.incremental == 1
    gone, came = (after, before) if code.startswith("-") else (before, after)
    added = [f for f in came.findings if f not in gone.findings]
    assert [f.code for f in added] == [code.lstrip("-")]
    same = next(i for i, (a, b) in enumerate(zip(good, bad, strict=False)) if a != b)
    edited_at = text.index(good) + same
    assert added[0].span.start.line == text[:edited_at].count("\n")


def test_edits_inside_one_item_of_a_json_array_re_read_that_item_alone() -> None:
    """Values changed, members added and removed (lines gained and lost) inside one item: each
    edit checks one item, and the file says what one pass over it says."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options
    from evalyaml.syntax.jsonitems import ItemsState

    rel, make, analyze = SHAPES["promptfoo-tests-json"]
    path, options = str(EXAMPLES / rel), Options(root=str(EXAMPLES))
    text = make()
    cache = CaseCache()
    analyze(text, path, options, cache, False)
    state = next(s for s in cache._format_state.values() if isinstance(s, ItemsState))
    edits = [('"Refund?"', '"Refund? Now."'), ('"vars": {\n      "question": "No description"',
             '"varz": {\n      "question": "No description",\n      "tone": "dry"'),
             ('"description": "typo",\n', ""), ('"contains"', '"contans"'),
             ('"description": "empty"', '"description": "empty", "threshold": "x"')]
    for good, bad in edits:
        checked = state.checked
        text = text.replace(good, bad, 1)
        kept = analyze(text, path, options, cache, False)
        assert state.checked == checked + 1
        assert _whole_keys(kept) == _whole_keys(analyze(text, path, options, None, True))
    assert {f.code for f in kept.findings} >= {"EYPF001", "EYPF004", "EYPF018"}


def _line_ends(text: str) -> list[int]:
    """The offset of every line break's start (before a CR of a CRLF)."""
    ends, at = [], text.find("\n")
    while at >= 0:
        ends.append(at - 1 if at and text[at - 1] == "\r" else at)
        at = text.find("\n", at + 1)
    return ends


@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_lines_typed_and_removed_anywhere_equal_the_whole_file(shape: str, crlf: bool) -> None:
    """The Enter key at the end of every line in turn (every item below moves a line down),
    then a second one there (two lines), then both taken away again, with the document's cache
    across all of it: after each, what one pass over the whole file says, positions and all."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options

    rel, make, analyze = SHAPES[shape]
    options = Options(today=date.fromisoformat(TODAY), root=str(EXAMPLES))
    path = str(EXAMPLES / rel)
    text = make().replace("\n", "\r\n") if crlf else make()
    brk = "\r\n" if crlf else "\n"
    cache = CaseCache()
    analyze(text, path, options, cache, False)
    for end in _line_ends(text):
        for typed in (text[:end] + brk + text[end:], text[:end] + brk + brk + text[end:],
                      text[:end] + brk + text[end:], text):
            expected = _whole_keys(analyze(typed, path, options, None, True))
            assert _whole_keys(analyze(typed, path, options, cache, False)) == expected, typed


@pytest.mark.parametrize("file", ["agentv/evals/support.eval.yaml",
                                  "padosoft/eval/golden/support_faq.yml"])
def test_lines_typed_in_a_suite_or_dataset_equal_the_whole_file(file: str) -> None:
    """As above, for the files `test_incremental_core` edits at random (AgentV suites, Padosoft
    datasets): a line typed and taken away at the end of every line."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options
    from evalyaml.formats import agentv, claim, padosoft
    from evalyaml.formats.base import Claim
    from evalyaml.formats.padosoft.analyze import analyze_whole

    options = Options(today=date.fromisoformat(TODAY), root=str(EXAMPLES))
    path = str(EXAMPLES / file)
    text = (EXAMPLES / file).read_text("utf-8")
    cache = CaseCache()
    for end in _line_ends(text):
        for typed in (text[:end] + "\n" + text[end:], text[:end] + "\n\n" + text[end:], text):
            verdict = claim(typed, path, options.root)
            kind = verdict.kind if isinstance(verdict, Claim) else None
            if kind is padosoft.DATASET:
                whole = analyze_whole(typed, path, kind, options)
                fmt: Any = padosoft.FORMAT
            else:
                assert kind is agentv.SUITE
                whole = agentv.FORMAT.analyze(typed, path, kind, options, whole=True)
                fmt = agentv.FORMAT
            got = fmt.analyze(typed, path, kind, options, cache=cache)
            assert _whole_keys(got) == _whole_keys(whole), typed
