"""The incremental core against a fresh one, in-process and fast: the same edit scripts as the
server's differential test, each edit analysed with the document's `CaseCache` and without.

The regression below is the bug this found: `CaseCache` remembered placements by `id(result)`;
a case that ends inside an unclosed string at the end of the file is analysed but not cached,
so its result was freed, and the next result allocated at the same address (very likely: the
same size) was handed the old placement: the fixed file kept "this quoted string is never
closed".
"""

from __future__ import annotations

from datetime import date
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from tests.hostile.edits import FILES, SCRIPTS, STEP, Script, legal
from tests.hostile.harness import EXAMPLES, TODAY, profile

DATASET = "# yaml-language-server: $schema=https://evalyaml.dev/schemas/v1/dataset.schema.json\n"


def _keys(analysis: Any) -> list[tuple[Any, ...]]:
    return sorted((f.code, f.span.start, f.span.end, f.message, int(f.severity),
                   repr(f.related), repr(f.fixes)) for f in analysis.findings)


def test_a_fixed_unclosed_string_at_the_end_leaves_nothing_behind() -> None:
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options
    from evalyaml.dispatch import analyze_text

    options = Options(today=date.fromisoformat(TODAY))
    head = DATASET + "questions:\n  - id: a\n    input: x\n  - id: b\n    input: y\n"
    cache = CaseCache()
    stale = []
    for n in range(300):
        broken = head + f"  - id: c{n}\n    input: \"unclosed {n}\n"
        for fixed in (head + f"  - id: c{n}\n    expecteed_facts: [{n}]\n",
                      head + f"  - id: c{n}\n    input: ok{n}\n", head + f"  - id: c{n}\n"):
            analyze_text(broken, "/ws/datasets/d.yaml", options, cache)
            incremental = analyze_text(fixed, "/ws/datasets/d.yaml", options, cache)
            fresh = analyze_text(fixed, "/ws/datasets/d.yaml", options)
            if _keys(incremental) != _keys(fresh):
                stale.append((n, _keys(incremental)))
    assert not stale, stale[:3]


@profile(300)
@given(script=SCRIPTS)
def test_edit_scripts_in_process(script: Script) -> None:
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options
    from evalyaml.dispatch import analyze_text

    options = Options(today=date.fromisoformat(TODAY))
    path = str(EXAMPLES / script.file)
    text = (EXAMPLES / script.file).read_text("utf-8")
    cache = CaseCache()
    analyze_text(text, path, options, cache)
    undo: list[tuple[int, int, str]] = []
    for step in script.steps:
        edited = _apply(text, step, undo)
        if edited is None:
            continue
        text = edited
        incremental = analyze_text(text, path, options, cache)
        fresh = analyze_text(text, path, options)
        assert _keys(incremental) == _keys(fresh), text


def _apply(text: str, step: tuple[Any, ...], undo: list[tuple[int, int, str]]) -> str | None:
    """`text` after one step of an edit script; None for a step that edits nothing."""
    kind, size = step[0], len(text)
    if kind in ("insert", "append", "delete", "replace", "paste"):
        if kind == "append":
            start, end, new = size, size, step[1]
        elif kind == "insert":
            start = end = step[1] % (size + 1)
            new = step[2]
        elif kind == "paste":
            start = end = step[1] % (size + 1)
            source = step[2] % (size + 1)
            new = text[source : source + step[3]]
        else:
            start = step[1] % (size + 1)
            end = min(size, start + step[2])
            new = step[3] if kind == "replace" else ""
        start = legal(text, start)
        end = legal(text, end, forward=True) if end > start else start
        undo.append((start, start + len(new), text[start:end]))
        return text[:start] + new + text[end:]
    if kind == "undo" and undo:
        start, end, old = undo.pop()
        return text[:start] + old + text[end:]
    return None


# Files a format analyses item by item (`core.items`): Padosoft datasets, AgentV suites.
ITEM_FILES = [f for f in FILES if f.startswith(("padosoft/eval/golden/", "padosoft/mistakes/EY5",
                                                "agentv/evals/", "agentv/mistakes/"))
              and f.endswith((".yaml", ".yml"))]


def _whole_keys(analysis: Any) -> tuple[Any, ...]:
    return (_keys(analysis), repr(analysis.cases), repr(analysis.definitions),
            repr(analysis.file_refs), repr(analysis.facts))


@profile(200)
@given(file=st.sampled_from(ITEM_FILES), steps=st.lists(STEP, min_size=8, max_size=40))
def test_item_by_item_equals_the_whole_file(file: str, steps: list[tuple[Any, ...]]) -> None:
    """Item by item, with the document's cache across the edits and without it, the findings,
    cases, definitions and file references are those of one parse of the whole file."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options
    from evalyaml.formats import agentv, claim, padosoft
    from evalyaml.formats.base import Claim
    from evalyaml.formats.padosoft.analyze import analyze_whole

    options = Options(today=date.fromisoformat(TODAY), root=str(EXAMPLES))
    path = str(EXAMPLES / file)
    text = (EXAMPLES / file).read_text("utf-8")
    cache = CaseCache()
    undo: list[tuple[int, int, str]] = []
    for step in [("undo",), *steps]:
        edited = _apply(text, step, undo)
        text = edited if edited is not None else text
        verdict = claim(text, path, options.root)
        kind = verdict.kind if isinstance(verdict, Claim) else None
        if kind is padosoft.DATASET:
            whole = analyze_whole(text, path, kind, options)
            fmt: Any = padosoft.FORMAT
        elif kind is agentv.SUITE:
            whole = agentv.FORMAT.analyze(text, path, kind, options, whole=True)
            fmt = agentv.FORMAT
        else:
            continue
        expected = _whole_keys(whole)
        assert _whole_keys(fmt.analyze(text, path, kind, options, cache=cache)) == expected, text
        assert _whole_keys(fmt.analyze(text, path, kind, options)) == expected, text


def test_a_one_sample_edit_is_analysed_alone() -> None:
    """The split really happens: a keystroke in one sample of a dataset re-analyses that sample
    only (the incremental count), and duplicate ids still cross samples."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.items import ItemState
    from evalyaml.core.options import Options
    from evalyaml.formats import padosoft
    from evalyaml.formats.padosoft.samples import STATE

    options = Options(today=date.fromisoformat(TODAY))
    samples = "".join(f"  - id: s{n}\n    input: {{q: {n}}}\n    expected_output: a{n}\n"
                      for n in range(50))
    text = "name: big\nsamples:\n" + samples
    cache = CaseCache()
    padosoft.FORMAT.analyze(text, "/ws/eval/golden/big.yml", padosoft.DATASET, options,
                            cache=cache)
    edited = text.replace("  - id: s30\n", "  - id: s3\n")
    found = padosoft.FORMAT.analyze(edited, "/ws/eval/golden/big.yml", padosoft.DATASET,
                                    options, cache=cache)
    assert cache.format_state(STATE, ItemState).incremental == 1
    assert [(f.code, f.span.start.line, f.span.start.character) for f in found.findings] == \
        [("EY506", 92, 8)]
    assert found.findings[0].message == (
        "eval-harness refuses to load the dataset: sample id 's3' is already used on line 12; "
        "sample ids must be unique (loader: \"Duplicate sample id 's3' at index 30.\")")


def _cases_file() -> str:
    """The example suite's tests as an AgentV cases file: the document is the list."""
    suite = (EXAMPLES / "agentv" / "evals" / "support.eval.yaml").read_text("utf-8")
    lines = suite[suite.index("\ntests:\n") + len("\ntests:\n"):].splitlines(keepends=True)
    indent = len(lines[0]) - len(lines[0].lstrip(" "))
    body = []
    for line in lines:
        if line.strip() and not line.startswith(" " * indent):
            break  # the suite's next root key
        body.append(line[indent:] if line.strip() else line)
    return "# the support suite's tests, named by it as a cases file\n" + "".join(body)


@profile(150)
@given(steps=st.lists(STEP, min_size=8, max_size=40))
def test_a_cases_file_test_by_test_equals_the_whole_file(steps: list[tuple[Any, ...]]) -> None:
    """A YAML cases file (the document is the list of tests) is split like a suite's `tests:`:
    with the document's cache across the edits, what one parse of the whole file gives."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options
    from evalyaml.formats import agentv

    options = Options(today=date.fromisoformat(TODAY), root=str(EXAMPLES))
    path = str(EXAMPLES / "agentv" / "evals" / "cases.yaml")
    text = _cases_file()
    cache = CaseCache()
    undo: list[tuple[int, int, str]] = []
    for step in [("undo",), *steps]:
        edited = _apply(text, step, undo)
        text = edited if edited is not None else text
        whole = agentv.FORMAT.analyze(text, path, agentv.CASES, options, whole=True)
        assert _whole_keys(agentv.FORMAT.analyze(text, path, agentv.CASES, options,
                                                 cache=cache)) == _whole_keys(whole), text


def test_a_one_test_edit_of_a_cases_file_is_analysed_alone() -> None:
    """The split really happens for a cases file, and duplicate ids still cross its tests."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.items import ItemState
    from evalyaml.core.options import Options
    from evalyaml.formats import agentv
    from evalyaml.formats.agentv.bytest import STATE

    options = Options(today=date.fromisoformat(TODAY))
    text = "".join(f"- id: t{n}\n  input: Question {n}?\n  criteria: Answers {n}.\n"
                   for n in range(50))
    cache = CaseCache()
    path = "/ws/evals/cases.yaml"
    assert agentv.FORMAT.analyze(text, path, agentv.CASES, options, cache=cache).findings == []
    edited = text.replace("- id: t30\n", "- id: t3\n")
    found = agentv.FORMAT.analyze(edited, path, agentv.CASES, options, cache=cache)
    assert cache.format_state(STATE, ItemState).incremental == 1
    assert [(f.code, f.span.start.line, f.span.start.character, f.span.end.character)
            for f in found.findings] == [("EY607", 90, 6, 8)]
    assert found.findings[0].message == (
        "Duplicate test ID 't3' (first at line 10): agentv eval stops before running any test "
        "(each test must have a unique ID)")


def test_what_reads_otherwise_without_the_list_is_not_split() -> None:
    """After the list, '\\ufeff0' (YAML reads a byte-order mark apart) and a block scalar's
    header '|' are syntax errors for the whole file, but not for its skeleton, where '|' would be
    the `tests:` key's value: the split is not taken, with or without the document's cache
    (both found by hypothesis)."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options
    from evalyaml.formats import agentv

    options = Options(today=date.fromisoformat(TODAY), root=str(EXAMPLES))
    path = str(EXAMPLES / "agentv" / "evals" / "support.eval.yaml")
    text = (EXAMPLES / "agentv" / "evals" / "support.eval.yaml").read_text("utf-8")
    cache = CaseCache()
    agentv.FORMAT.analyze(text, path, agentv.SUITE, options, cache=cache)
    for edited in (text + "\ufeff0", text.replace("input: How", "input: \ufeffHow", 1),
                   text + "|", text + ">\n"):
        whole = agentv.FORMAT.analyze(edited, path, agentv.SUITE, options, whole=True)
        assert _keys(agentv.FORMAT.analyze(edited, path, agentv.SUITE, options,
                                           cache=cache)) == _keys(whole)
    assert [f.code for f in agentv.FORMAT.analyze(text + "\ufeff0", path, agentv.SUITE, options,
                                                  cache=cache).findings] == ["EY101"]
