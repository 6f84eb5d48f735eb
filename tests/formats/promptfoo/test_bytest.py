"""A config analysed test by test (`formats/promptfoo/bytest.py`) says exactly what the whole
file says: every fixture's config, and a generated config through a run of edits (in one test,
across tests, in `defaultTest`, lines added and removed), with the document's cache kept."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from evalyaml.core.incremental import CaseCache
from evalyaml.core.items import ItemState
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.promptfoo import CONFIG, FORMAT
from evalyaml.formats.promptfoo.bytest import STATE
from evalyaml.formats.promptfoo.cross import FACTS
from harness.workspace_fixture import parse_workspace_fixture

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[2] / "bench"))
from promptfoo_items import promptfoo_config  # noqa: E402

PATH = "/ws/promptfooconfig.yaml"
CONFIGS = [(f"{p.name}:{rel}", text) for p in sorted(HERE.glob("*.fixture"))
           for rel, text in parse_workspace_fixture(p.read_text("utf-8")).files.items()
           if Path(rel).name in ("promptfooconfig.yaml", "promptfooconfig.yml")]


def _said(analysis: FileAnalysis) -> tuple[Any, ...]:
    facts = analysis.facts[FACTS]
    return (sorted(map(repr, analysis.findings)), [repr(r) for r in facts.refs],
            [repr(t) for t in facts.tests], [repr(c) for c in analysis.cases],
            [repr(r) for r in analysis.file_refs], facts.default_vars, facts.prompts)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize(("name", "text"), CONFIGS, ids=[n for n, _ in CONFIGS])
def test_each_fixture_config_by_test_equals_the_whole_file(name: str, text: str,
                                                           strict: bool) -> None:
    options = Options(root="/ws", strict=strict)
    by_test = FORMAT.analyze(text, PATH, CONFIG, options, cache=CaseCache())
    whole = FORMAT.analyze(text, PATH, CONFIG, options, whole=True)
    assert _said(by_test) == _said(whole)


EDITS = [("    vars:", "    varz:"),
         ("    assert:\n", "    assert:\n      - type: contans\n        value: a\n"),
         ("  - description:", "  - description: new\n    vars: {question: z}\n  - description:"),
         ("defaultTest:\n  vars:", "defaultTest:\n  assert:\n    - type: is-json\n  vars:"),
         ("      - type: llm-rubric\n", ""),
         ("        value: refund\n", "        value: refund\n    provider: file://p.py\n"),
         ("    vars:\n      question:",
          "    vars:\n      assert:\n        - type: contains\n      question:")]


def test_a_run_of_edits_by_test_equals_the_whole_file() -> None:
    text = promptfoo_config(40) + (
        "scenarios:\n  - config:\n      - vars: {tone: dry}\n    tests:\n"
        "      - vars: {question: q}\n        assert:\n          - type: contains\n"
        "            value: x\n")
    options = Options(root="/ws")
    cache = CaseCache()
    rng = random.Random(23)
    for _ in range(40):
        good, bad = rng.choice(EDITS)
        starts = [i for i in range(len(text)) if text.startswith(good, i)]
        if not starts:
            continue
        at = rng.choice(starts)
        text = text[:at] + bad + text[at + len(good):]
        kept = FORMAT.analyze(text, PATH, CONFIG, options, cache=cache)
        assert _said(kept) == _said(FORMAT.analyze(text, PATH, CONFIG, options, whole=True))


def test_a_one_test_edit_is_analysed_alone() -> None:
    text = promptfoo_config(200)
    options = Options(root="/ws")
    cache = CaseCache()
    FORMAT.analyze(text, PATH, CONFIG, options, cache=cache)
    middle = text.index("  - description: refund-96\n")
    edited = text[:middle] + text[middle:].replace("    vars:", "    varz:", 1)
    found = FORMAT.analyze(edited, PATH, CONFIG, options, cache=cache)
    assert cache.format_state(STATE, ItemState).incremental == 1
    assert [(f.code, f.span.start.line, f.message) for f in found.findings] == [
        ("EYPF001", 9 + 96 * 8 + 1, "unknown key 'varz' in a test: promptfoo strips it silently "
         "(zod drops unknown keys), so it has no effect; did you mean 'vars'?")]


def test_a_test_named_by_its_index_is_renamed_when_a_test_comes_above() -> None:
    """A test with no description is "test N": its cached result serves only that index, so a
    test inserted above renumbers it as the whole file does."""
    text = "prompts:\n  - 'hi {{q}}'\ntests:\n" + "".join(
        f"  - vars: {{q: {i}}}\n    assert:\n      - type: contains\n        value: a\n"
        for i in range(4))
    options = Options(root="/ws")
    cache = CaseCache()
    FORMAT.analyze(text, PATH, CONFIG, options, cache=cache)
    edited = text.replace("tests:\n", "tests:\n  - vars: {q: x}\n    assert:\n"
                          "      - type: contains\n        value: a\n")
    kept = FORMAT.analyze(edited, PATH, CONFIG, options, cache=cache)
    assert [c.id for c in kept.cases] == ["test 1", "test 2", "test 3", "test 4", "test 5"]
    assert [t.label for t in kept.facts[FACTS].tests] == [c.id for c in kept.cases]


def _as_json(text: str) -> str | None:
    """A fixture's YAML config written as JSON (None: not a mapping with a `tests` list, or a
    value JSON cannot hold)."""
    import json

    from evalyaml.core.findings import FindingSink
    from evalyaml.syntax.tree import Budget, ExpansionLimit, to_python
    from evalyaml.syntax.yaml.parse import parse_text

    parsed = parse_text(text, FindingSink(strict=False))
    if not parsed.ok or len(parsed.documents) != 1 or parsed.documents[0] is None:
        return None
    try:
        value = to_python(parsed.documents[0], Budget(100_000))
    except ExpansionLimit:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("tests"), list) or \
            not value["tests"]:
        return None
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except (TypeError, ValueError):
        return None


JSON_CONFIGS = [(name, json_text) for name, text in CONFIGS
                if (json_text := _as_json(text)) is not None]


@pytest.mark.parametrize(("name", "text"), JSON_CONFIGS, ids=[n for n, _ in JSON_CONFIGS])
def test_each_fixture_config_written_in_json_by_test_equals_the_whole_file(name: str,
                                                                           text: str) -> None:
    """The same configs as JSON (`jsonconfig`: the `tests` array cut out of the object), then
    with a test added at the top of `tests` (every test below moved two lines)."""
    options = Options(root="/ws")
    path = "/ws/promptfooconfig.json"
    cache = CaseCache()
    for current in (text, text.replace('  "tests": [\n', '  "tests": [\n    {"vars": {}},\n', 1)):
        by_test = FORMAT.analyze(current, path, CONFIG, options, cache=cache)
        whole = FORMAT.analyze(current, path, CONFIG, options, whole=True)
        assert _said(by_test) == _said(whole)
        assert repr(by_test.facts) == repr(whole.facts)
    assert len(JSON_CONFIGS) >= 10
