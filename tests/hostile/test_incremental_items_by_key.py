"""Item lists under a root key analysed item by item, the shapes of `test_incremental_items.py`
that `core/items.py` cuts by key: a promptfoo config in JSON (its `tests` array cut out by
`syntax/jsonsplit.py`), an Apastra quick eval (`cases:`) and an Every Eval Ever aggregate
(`evaluation_results`, `formats/eee/byresult.py`). One-item edits analyse that item
alone; a moved item keeps exact positions under CRLF, emoji and CJK; a syntax error falls back
to the whole file; edits around a JSON config's tests keep the cut where the file still cuts.
Each time the file says what one pass over it says.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.hostile.harness import EXAMPLES, profile
from tests.hostile.test_incremental_core import _whole_keys
from tests.hostile.test_incremental_items import SHAPES


@pytest.mark.parametrize(("shape", "edits"), [
    ("promptfoo-config-json", [('"Refund?"', '"Refund? Now."'),
                               ('"question": "No description"',
                                '"question": "No description",\n        "tone": "dry"'),
                               ('"description": "typo",\n', ""), ('"contains"', '"contans"'),
                               ('"description": "empty"', '"description": "empty", "x": 1')]),
    ("apastra-quick-eval-json", [('"value": "fox"', '"value": "wolf"'),
                                 ('"case_id": "no-inputs",\n',
                                  '"case_id": "no-inputs",\n      "inputs": {"text": "t"},\n'),
                                 ('"type": "not-contains"', '"type": "not-contans"')]),
    ("eee-aggregate", [('"score": 1.5', '"score": 0.5'),
                       ('"evaluation_name": "above",\n',
                        '"evaluation_name": "above",\n      "evaluation_timestamp": 5,\n'),
                       ('"evaluation_nam": "stub",\n', ""),
                       ('"source_type": "hf_dataset"', '"source_type": "hf_datase"'),
                       ('"min_score": 2.0', '"min_score": 0.0')]),
    ("apastra-quick-eval", [("value: fox", "value: wolf"),
                            ("  - case_id: no-inputs\n",
                             "  - case_id: no-inputs\n    inputs: {text: t}\n"),
                            ("    metadata: {digest: \"sha256:\"}\n", ""),
                            ('txt: "again"', 'text: "again"'),
                            ("type: not-contains", "type: not-contans"),
                            ("case_id: emoji 📦", "case_id: short")]),
])
def test_edits_inside_one_item_of_a_list_under_a_key_re_read_that_item_alone(
        shape: str, edits: list[tuple[str, str]]) -> None:
    """Values changed, keys added and removed (lines gained and lost) inside one item of a
    promptfoo JSON config's `tests`, a quick eval's `cases` or an Every Eval Ever aggregate's
    `evaluation_results`: each edit analyses that item alone, and the file says what one pass
    over it says."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.items import ItemState
    from evalyaml.core.options import Options

    rel, make, analyze = SHAPES[shape]
    path, options = str(EXAMPLES / rel), Options(root=str(EXAMPLES))
    text = make()
    cache = CaseCache()
    analyze(text, path, options, cache, False)
    state = next(s for s in cache._format_state.values() if isinstance(s, ItemState))
    for count, (good, bad) in enumerate(edits, start=1):
        assert good in text, good
        text = text.replace(good, bad, 1)
        kept = analyze(text, path, options, cache, False)
        assert state.incremental == count
        assert _whole_keys(kept) == _whole_keys(analyze(text, path, options, None, True))


@pytest.mark.parametrize("shape", ["promptfoo-config-json", "apastra-quick-eval",
                                   "eee-aggregate"])
def test_a_moved_item_with_crlf_and_emoji_keeps_exact_positions(shape: str) -> None:
    """CRLF line ends, and an item below the edit whose finding sits after emoji and CJK
    (two UTF-16 units each for the emoji): lines added above move it, its columns stay."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.items import ItemState
    from evalyaml.core.options import Options

    rel, make, analyze = SHAPES[shape]
    path, options = str(EXAMPLES / rel), Options(root=str(EXAMPLES))
    if shape == "promptfoo-config-json":
        text = make().replace('"value": "订单"', '"value": "订单", "🚚订单": 1')
        edit = ('"question": "Refund?"', '"question": "Refund?",\n        "tone": "dry"')
        needle, code = '"🚚订单"', "EYPF001"
    elif shape == "eee-aggregate":  # a timestamp that is not a string, after CJK and emoji
        text = make().replace('"evaluation_name": "订单 📦",', '"evaluation_name": "订单 📦", '
                              '"🚚": "订单", "evaluation_timestamp": 5,')
        edit = ('"evaluation_name": "above",',
                '"evaluation_name": "above",\n      "evaluation_timestamp": "1",')
        needle, code = "5", "EY702"
    else:
        text = make().replace('text: "订单 🚚"', 'text: "订单 🚚"\n    🚚订单: 1')
        edit = ("    assert: [{type: icontain",
                "    inputs: {text: t}\n    assert: [{type: icontain")
        needle, code = "🚚订单", "EY800"
    text = text.replace("\n", "\r\n")
    edit = (edit[0].replace("\n", "\r\n"), edit[1].replace("\n", "\r\n"))
    cache = CaseCache()
    analyze(text, path, options, cache, False)
    state = next(s for s in cache._format_state.values() if isinstance(s, ItemState))
    text = text.replace(*edit, 1)
    kept = analyze(text, path, options, cache, False)
    # Item by item: the JSON cut moved, the edited item alone analysed; block YAML with CRs
    # is cut again (`segments.split_after_edit`), every other item from the cache.
    assert state._last is not None
    assert state.incremental == (0 if shape == "apastra-quick-eval" else 1)
    assert _whole_keys(kept) == _whole_keys(analyze(text, path, options, None, True))
    at = text.index(needle, text.index("订单 📦") if shape == "eee-aggregate" else 0)
    line = text.count("\n", 0, at)
    column = at - (text.rfind("\n", 0, at) + 1)  # code points; the spans count code points
    found = [f for f in kept.findings if f.code == code and f.span.start.line == line]
    assert [(f.span.start.character, f.span.end.character) for f in found] == \
        [(column, column + len(needle))]
    from evalyaml.lsp.positions import Encoding, to_units
    line_text = text.split("\r\n")[line]
    assert line_text[column:].startswith(needle)
    # What a UTF-16 client is sent: the emoji before the key counts two units.
    emoji = needle.startswith(('"🚚', "🚚"))
    assert to_units(line_text, column + len(needle), Encoding.UTF16) == \
        to_units(line_text, column, Encoding.UTF16) + len(needle) + emoji
    if shape == "eee-aggregate":  # 📦 and 🚚 before the value: two units each
        assert to_units(line_text, column, Encoding.UTF16) == column + 2


@pytest.mark.parametrize(("shape", "broken"), [
    ("promptfoo-config-json", ('"Refund?"', '"Refund?'),),
    ("apastra-quick-eval", ("      max_words: 3", "      max_words: [3"),),
    ("eee-aggregate", ('"evaluation_name": "upside down"', '"evaluation_name": "upside down'),),
])
def test_a_syntax_error_in_an_item_falls_back_to_the_whole_file(
        shape: str, broken: tuple[str, str]) -> None:
    """The broken item is not analysed alone: the whole file is read (its syntax error and the
    recovery's findings), then the next good text item by item again."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.items import ItemState
    from evalyaml.core.options import Options

    rel, make, analyze = SHAPES[shape]
    path, options = str(EXAMPLES / rel), Options(root=str(EXAMPLES))
    text = make()
    cache = CaseCache()
    analyze(text, path, options, cache, False)
    state = next(s for s in cache._format_state.values() if isinstance(s, ItemState))
    bad = text.replace(*broken, 1)
    kept = analyze(bad, path, options, cache, False)
    assert state._last is None and state.incremental == 0
    assert _whole_keys(kept) == _whole_keys(analyze(bad, path, options, None, True))
    assert any(f.code.startswith("EY1") for f in kept.findings)
    again = analyze(text, path, options, cache, False)
    assert state._last is not None
    assert _whole_keys(again) == _whole_keys(analyze(text, path, options, None, True))


JSON_CONFIG_EDITS = [  # (before, after, whether the text no longer cuts: undone at once)
    ('"description": "support questions"', '"description": "support questions 📦"', False),
    ('  "providers": [\n', '  "providers": [\n    "openai:gpt-4o",\n', False),
    ('"defaultTest": {\n    "vars"',
     '"defaultTest": {\n    "assert": [{"type": "is-json"}],\n    "vars"', False),
    ('"defaultTest": {\n    "assert": [{"type": "is-json"}],\n', '"defaultTest": {\n', False),
    ('"tone": "dry"', '"tone": "dry!"', False),
    ('"contains"', '"contans"', False),
    ('\n  "scenarios"', '\n  "scenario"', False),
    ('"Refund?"', '"Refund?\n', True),  # a syntax error: read whole
    ('"tests": [', '"testz": [', True),  # the items are no longer tests: read whole
    ('  "tests": [\n    {', '  "tests": [    {', True),  # the first test on the `[` line
    ('  }\n  ],\n  "scenarios"', '  }],\n  "scenarios"', True),  # `]` on the last test's line
]


EEE_EDITS = [  # the same for an aggregate's `evaluation_results`
    ('"evaluation_id": "arith-demo', '"evaluation_id": "arith-demo 📦', False),
    ('  "model_info": {\n    "name"', '  "model_info": {\n    "extra": 1,\n    "name"', False),
    ('    "extra": 1,\n', "", False),
    ('"schema_version": "0.3.0"', '"schema_version": "0.2.0"', False),  # every result again
    ('"schema_version": "0.2.0"', '"schema_version": "0.3.0"', False),
    ('"schema_version": "0.3.0"', '"schema_version": "7.0"', False),  # results not checked
    ('"schema_version": "7.0"', '"schema_version": "0.3.0"', False),
    ('"total_rows": 3', '"total_rows": "3"', False),  # below the results
    ('"total_rows": "3"\n', '"total_rows": 3,\n    "rows": 2\n', False),
    ('"total_rows": 3,\n    "rows": 2\n', '"total_rows": 3\n', False),
    ('"score": 1.5', '"score": 0.5', False),
    ('"min_score": 2.0', '"min_score": 0.0', False),
    ('"evaluation_name": "above"', '"evaluation_name": "above', True),  # a syntax error
    ('"evaluation_results": [', '"evaluation_result": [', True),  # no array: read whole
    ('  "evaluation_results": [\n    {', '  "evaluation_results": [    {', True),
    ('    7\n  ],', "    7],", True),  # `]` on the last result's line
]


@pytest.mark.parametrize(("shape", "edits"), [("promptfoo-config-json", JSON_CONFIG_EDITS),
                                              ("eee-aggregate", EEE_EDITS)])
def test_edits_around_and_inside_a_json_list_under_a_key_equal_the_whole_file(
        shape: str, edits: list[tuple[str, str, bool]]) -> None:
    """Edits above the items (lines added), below them, in what every item reads (a config's
    `defaultTest`, an aggregate's `schema_version`), to the key and its brackets, and inside
    items, in a random order: after each, the file says what one pass over it says, and the cut
    is kept but where the file cannot be cut."""
    import random

    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.items import ItemState
    from evalyaml.core.options import Options

    rel, make, analyze = SHAPES[shape]
    path, options = str(EXAMPLES / rel), Options(root=str(EXAMPLES))
    text = make()
    cache = CaseCache()
    analyze(text, path, options, cache, False)
    state = next(s for s in cache._format_state.values() if isinstance(s, ItemState))
    rng = random.Random(27)
    applied = 0
    for _ in range(60):
        good, bad, undone = rng.choice(edits)
        if good not in text:
            continue
        applied += 1
        for after in ([text.replace(good, bad, 1), text] if undone else
                      [text.replace(good, bad, 1)]):
            kept = analyze(after, path, options, cache, False)
            assert _whole_keys(kept) == _whole_keys(analyze(after, path, options, None, True))
            assert (state._last is None) == (undone and after != text)
        text = after
    assert applied >= 20


# Edits that keep a JSON config JSON most of the time: text typed inside a string, a test copied
# after another or taken out, a member added to an object; each at a place drawn at random.
_TYPED = ["a", " ", "📦", "订单", "\\n", '\\"', "{{x}}", "\\u00e9", "\n", '"', ",", "}"]
JSON_EDIT = st.one_of(
    st.tuples(st.just("type"), st.integers(0, 1 << 16), st.sampled_from(_TYPED)),
    st.tuples(st.just("copy"), st.integers(0, 1 << 16)),
    st.tuples(st.just("drop"), st.integers(0, 1 << 16)),
    st.tuples(st.just("member"), st.integers(0, 1 << 16)),
)


def _json_edit(text: str, edit: tuple[Any, ...]) -> str:
    kind, at = edit[0], edit[1]
    if kind == "type":
        quotes = [i for i, c in enumerate(text) if c == '"']
        if not quotes:
            return text
        place = quotes[at % len(quotes)] + 1  # just inside a string (or just after one)
        return text[:place] + edit[2] + text[place:]
    starts = [i + 1 for i in range(len(text) - 5) if text.startswith("\n    {", i)]
    if not starts:
        return text
    start = starts[at % len(starts)]
    end = text.find("\n    }", start)
    if end == -1:
        return text
    end += len("\n    }")
    if kind == "copy":
        return text[:end] + ",\n" + text[start:end] + text[end:]
    if kind == "drop":
        tail = text[end:]
        return text[:start] + tail[2:] if tail.startswith(",\n") else text
    return text[:start + 5] + '\n      "k": 1,' + text[start + 5:]


@profile(60)
@given(shape=st.sampled_from(["promptfoo-config-json", "apastra-quick-eval-json",
                              "eee-aggregate"]),
       edits=st.lists(JSON_EDIT, min_size=4, max_size=25))
def test_json_edits_to_a_list_under_a_key_equal_the_whole_file(
        shape: str, edits: list[tuple[Any, ...]]) -> None:
    """A promptfoo config's `tests`, a quick eval's `cases`, an aggregate's
    `evaluation_results`, in JSON."""
    from evalyaml.core.incremental import CaseCache
    from evalyaml.core.options import Options

    rel, make, analyze = SHAPES[shape]
    path, options = str(EXAMPLES / rel), Options(root=str(EXAMPLES))
    text = make()
    cache = CaseCache()
    analyze(text, path, options, cache, False)
    for edit in edits:
        text = _json_edit(text, edit)
        kept = analyze(text, path, options, cache, False)
        assert _whole_keys(kept) == _whole_keys(analyze(text, path, options, None, True)), text
