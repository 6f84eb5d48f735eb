"""Reading the YAML context at a cursor from half-typed lines (no parse)."""

from __future__ import annotations

import pytest

from evalyaml.ide.context import ITEM, Reader, context_at
from evalyaml.ide.outline import Outline
from evalyaml.syntax.text import LineIndex

CURSOR = "‸"


def at(source: str, outline: bool = False):
    lines = source.split("\n")
    line_no = next(i for i, line in enumerate(lines) if CURSOR in line)
    column = lines[line_no].index(CURSOR)
    index = LineIndex(source.replace(CURSOR, "", 1))
    return Reader(index, Outline.build(index) if outline else None).context(line_no, column)


CASES = [
    ("root key", "questions:\n  - id: a\nna‸", [], "key", "na"),
    ("case key on a blank line", "questions:\n  - id: a\n    input: x\n    ‸",
     ["questions", ITEM], "key", ""),
    ("case key half typed", "questions:\n  - id: a\n    input: x\n    cri‸",
     ["questions", ITEM], "key", "cri"),
    ("new list item", "questions:\n  - id: a\n  - ‸", ["questions", ITEM], "key", ""),
    ("reference value", "questions:\n  - id: a\n    rubric_ref: rubric/fa‸",
     ["questions", ITEM, "rubric_ref"], "value", "rubric/fa"),
    ("quoted value", 'questions:\n  - id: a\n    rubric_ref: "rubric/fa‸"',
     ["questions", ITEM, "rubric_ref"], "value", "rubric/fa"),
    ("check kind", "checks:\n  - id: a\n    kind: re‸\nscoring:\n  combine: all_pass",
     ["checks", ITEM, "kind"], "value", "re"),
    ("jury member", "checks:\n  - kind: llm_judge\n    jury:\n      - judge_prompt_ref: x\n"
     "      - judge_prompt_ref: judge/‸",
     ["checks", ITEM, "jury", ITEM, "judge_prompt_ref"], "value", "judge/"),
    ("nested mapping", "questions:\n  - id: a\n    expected:\n      fo‸",
     ["questions", ITEM, "expected"], "key", "fo"),
    ("compact list", "questions:\n- id: a\n  inp‸", ["questions", ITEM], "key", "inp"),
    ("block scalar", "id: x\ntemplate: |\n  Question:\n    {{ inp‸\nscore_type: binary",
     ["template"], "block", "inp"),
    ("blank line in a block scalar", "id: x\ntemplate: |\n  A: {{ input }}\n\n  {{ ‸\n",
     ["template"], "block", ""),
]


@pytest.mark.parametrize("outline", [False, True])
@pytest.mark.parametrize(("name", "source", "path", "where", "prefix"), CASES,
                         ids=[c[0] for c in CASES])
def test_context(name: str, source: str, path: list[object], where: str,  # noqa: PLR0917
                 prefix: str, outline: bool) -> None:
    ctx = at(source, outline)
    assert ctx is not None
    assert ctx.path == path
    assert {"key": ctx.in_key, "value": ctx.in_value, "block": ctx.in_block_scalar}[where]
    assert ctx.prefix == prefix


def test_siblings_are_the_keys_already_there() -> None:
    ctx = at("questions:\n  - id: a\n    input: x\n    ‸\n    criteria: y\n  - id: b\n"
             "    bundle: z\n")
    assert ctx is not None and ctx.siblings == {"id": "a", "input": "x", "criteria": "y"}


@pytest.mark.parametrize("source", [
    "questions:\n  - id: a  # a comm‸ent",
    "questions:\n  - {id: a, inp‸",
    "questions:\n  - id: a\n    input: >\n      free text ‸",
])
def test_no_context(source: str) -> None:
    ctx = at(source)
    assert ctx is None or ctx.in_block_scalar


def test_deep_in_a_large_dataset_is_fast() -> None:
    import time

    case = "  - id: c{}\n    input: x 😀\n    expected_facts:\n      - a\n    rubric_ref: r\n"
    text = "questions:\n" + "".join(case.format(i) for i in range(10_000))
    index = LineIndex(text)
    outline = Outline.build(index)
    line = index.line_count - 2
    started = time.perf_counter()
    for _ in range(20):
        ctx = context_at(index, line, 16, outline)
    assert ctx is not None and ctx.path == ["questions", ITEM, "rubric_ref"]
    assert (time.perf_counter() - started) / 20 < 0.01
