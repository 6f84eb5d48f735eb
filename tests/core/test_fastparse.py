"""The fast path (`fastparse.fast_parse`) must build exactly the tree the ruamel path builds.

Whatever text it accepts, the tree is compared node for node (class, tag, offsets, text, style,
flow, order) with `parse_text` run with the fast path switched off; a text it is not sure of
must come back None. Texts come from a generator of block YAML (mostly inside the subset, with
single-character mutations to push it out), from every example and corpus file, their dataset
cases and their truncations, and from hand-written cases.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Protocol, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_text
from evalyaml.syntax.decode import decode
from evalyaml.syntax.tree import Mapping, Node, Scalar
from evalyaml.syntax.tree import Sequence as YamlSequence
from evalyaml.syntax.yaml import parse
from evalyaml.syntax.yaml.fastparse import fast_parse
from evalyaml.syntax.yaml.segments import split_dataset

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
FIXTURES = Path(__file__).parent / "fixtures"
CORPUS = Path("/work/shared/corpus")
OPTIONS = Options(today=date(2026, 11, 21))

BENCH_CASE = """\
  - id: refund_000000
    input: >-
      How long do I have to return a product I bought online, and who pays shipping?
      Please answer in plain language for a non-technical customer, in two short
      paragraphs, and end with the next step they should take.
    criteria: States the 30-day return window, that return shipping is free for defects, \
and links the returns form.
    expected_facts:
      - Returns are accepted within 30 days of delivery.
      - Return shipping is free when the item is defective.
    expected_tools: [lookup_account, lookup_order]
    expected:
      format: text
    rubric_ref: rubric/tone@1.0.0
"""


# -- comparison ---------------------------------------------------------------------------------

def ruamel_parse(text: str) -> tuple[list[Node | None], list[Finding]]:
    """`parse_text` without the fast path: the reference."""
    saved = parse.FAST_PATH
    parse.FAST_PATH = False
    try:
        sink = FindingSink(strict=False)
        parsed = parse.parse_text(text, sink)
    finally:
        parse.FAST_PATH = saved
    return parsed.documents, sink.findings


def tree_diff(fast: Node, slow: Node, path: str = "$") -> str | None:
    """The first difference between two trees, with the offsets where it is; None if equal."""
    where = f"{path} [{slow.start}:{slow.end}]"
    if type(fast) is not type(slow):
        return f"{where}: {type(fast).__name__} instead of {type(slow).__name__}"
    for name in ("tag", "start", "end"):
        if getattr(fast, name) != getattr(slow, name):
            return f"{where}: {name} {getattr(fast, name)!r} instead of {getattr(slow, name)!r}"
    if isinstance(fast, Scalar):
        assert isinstance(slow, Scalar)
        for name in ("text", "style"):
            if getattr(fast, name) != getattr(slow, name):
                return (f"{where}: {name} {getattr(fast, name)!r} instead of "
                        f"{getattr(slow, name)!r}")
        return None
    if isinstance(fast, YamlSequence):
        assert isinstance(slow, YamlSequence)
        if fast.flow != slow.flow:
            return f"{where}: flow {fast.flow} instead of {slow.flow}"
        if len(fast.items) != len(slow.items):
            return f"{where}: {len(fast.items)} items instead of {len(slow.items)}"
        for index, (a, b) in enumerate(zip(fast.items, slow.items, strict=True)):
            found = tree_diff(a, b, f"{path}[{index}]")
            if found:
                return found
        return None
    assert isinstance(fast, Mapping) and isinstance(slow, Mapping)
    if len(fast.pairs) != len(slow.pairs):
        return f"{where}: {len(fast.pairs)} pairs instead of {len(slow.pairs)}"
    for index, ((fk, fv), (sk, sv)) in enumerate(zip(fast.pairs, slow.pairs, strict=True)):
        label = sk.text if isinstance(sk, Scalar) else f"<key {index}>"
        found = tree_diff(fk, sk, f"{path}.<key {label}>") or tree_diff(fv, sv, f"{path}.{label}")
        if found:
            return found
    return None


def accepted_and_equal(text: str) -> bool:
    """False when the fast path declines `text`; True when it accepts it and its tree is the
    ruamel path's. Anything else fails the test, with the first difference and the text."""
    fast = fast_parse(text)
    if fast is None:
        return False
    documents, findings = ruamel_parse(text)
    assert findings == [], f"the fast path accepted a text with findings {findings}: {text!r}"
    assert len(documents) == 1 and documents[0] is not None, f"{len(documents)} docs: {text!r}"
    difference = tree_diff(fast, documents[0])
    assert difference is None, f"{difference}\nin {text!r}"
    return True


# -- the generator ------------------------------------------------------------------------------

T = TypeVar("T")


class Draw(Protocol):
    """The generator's source of choices: hypothesis (shrinks) or a seeded `random.Random`."""

    def choice(self, options: Sequence[T]) -> T: ...

    def integer(self, low: int, high: int) -> int: ...


class HypothesisDraw:
    def __init__(self, data: st.DataObject) -> None:
        self._data = data

    def choice(self, options: Sequence[T]) -> T:
        return self._data.draw(st.sampled_from(options))

    def integer(self, low: int, high: int) -> int:
        return self._data.draw(st.integers(low, high))


class RandomDraw:
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choice(self, options: Sequence[T]) -> T:
        return options[self._rng.randrange(len(options))]

    def integer(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)


# Keys that resolve to strings (some look like YAML 1.1 booleans), then keys outside the subset.
KEYS = ["id", "input", "criteria", "expected_facts", "expected", "format", "rubric_ref", "a",
        "b", "x_y", "$schema", "k.v", "a-b", "path/to", "name", "key9", "y", "n", "yes", "No",
        "on", "OFF", "_", "T", "nul", "Inf"]
ODD_KEYS = ["true", "null", "~", "1", "1.5", "0x1F", "2026-01-01", "<<", "key with space",
            '"quoted"', "'single'", "? q", "-x", "x" * 600, "a:b", "&anchor k", "*alias"]
# Plain values: every implicit type, indicators inside, and non-ASCII text.
PLAIN = ["1.10", "1.0", "yes", "no", "~", "null", "NULL", "2026-01-01", "2026-01-01 10:00:00",
         "0x1F", "0o17", "0b101", ".inf", "-.inf", ".NaN", "+12", "-1", "1_000", "1e3", "12",
         "0", "true", "False", "on", "=", "<<", "text", "hello world", "a:b", "a::b",
         "http://example.com/a?b=c#frag", "a#b", "x, y", "x[1]", "x{y}", "😀 emoji",
         "東京タワー", "café", "a  b", "-x", "rubric/tone@1.0.0", "it's", 'say "hi"',
         "a\u00a0b", "tail\u00a0", "50%", "a | b", "a > b", "x  ", "zwj\u200dx", "\ue085pua",
         "e\u0301"]
ODD_PLAIN = ["a:", "x: y", "{not flow}", "!tag x", "&anchor x", "*alias", "%x", "@x", "`x",
             "? x", ": x", "- x", "-", "| x", "> x", "{a: 1}", "[a, b", "'open", '"open',
             '"a\\"b"', "'it''s'", '"esc \\n"', "a\tb", "x\u2028y", "x\x85y", "nul\x00",
             "bell\x07", "\ufeffbom", "\ud800"]
WORD_CHARS = "abcxyzABC019 ._-/😀東é"
QUOTED_CHARS = "ab yz:#,[]{}&*!|>%@`?-é😀\u00a0"
FLOW_ITEMS = ["a", "b c", "lookup_order", "1", "2.5", "true", "~", "null", "2026-01-01",
              "-1", "x-y", "é", "😀", '"q"', "'s'", '"a, b"', "'x: y'", "a/b@1.0",
              "openai:gpt-4o", "why?", "a?b", "1:30"]
ODD_FLOW_ITEMS = ["a: b", "?x", "a:", "a:?", "[x]", "{x}", "&a", "*a", "#c", "", " "]
COMMENTS = ["", "", "", " # c", "  # comment: with, [stuff]", " #"]
ODD_COMMENTS = ["#x", "# c"]  # not comments after a quoted scalar or a flow list


def word(draw: Draw, chars: str, *, first: str = "abcXYZé東") -> str:
    return draw.choice(first) + "".join(
        draw.choice(chars) for _ in range(draw.integer(0, 8))).rstrip(" ")


def inline_value(draw: Draw, strict: bool) -> str:
    kind = draw.choice(["plain", "plain", "word", "double", "single", "flow", "odd",
                        "function"])
    if kind == "plain":
        return draw.choice(PLAIN)
    if kind == "function":  # lm-eval's local tag before a plain value (odd: glued, or none)
        if strict:
            return draw.choice(["!function ", "!function  "]) + draw.choice(PLAIN)
        return draw.choice(["!function ", "!function", "!function  "]) + draw.choice(ODD_PLAIN)
    if kind == "word":
        return word(draw, WORD_CHARS)
    if kind == "double":
        return '"' + "".join(draw.choice(QUOTED_CHARS) for _ in range(draw.integer(0, 6))) + '"'
    if kind == "single":
        return "'" + "".join(draw.choice(QUOTED_CHARS) for _ in range(draw.integer(0, 6))) + "'"
    if kind == "flow":
        items = FLOW_ITEMS if strict else FLOW_ITEMS + ODD_FLOW_ITEMS
        sep = draw.choice([", ", ",", " , ", ",  "])
        inner = sep.join(draw.choice(items) for _ in range(draw.integer(0, 4)))
        pad = draw.choice(["", "", " "])
        return f"[{pad}{inner}{pad}]"
    return draw.choice(PLAIN) if strict else draw.choice(ODD_PLAIN)


def comment(draw: Draw, strict: bool = True) -> str:
    return draw.choice(COMMENTS if strict else COMMENTS + ODD_COMMENTS)


def decorations(draw: Draw, indent: int, strict: bool) -> list[str]:
    """Blank and comment lines between entries (never deeper than `indent` when strict: a
    comment right after a block scalar, indented like its text, would be its text)."""
    lines = []
    for _ in range(draw.integer(0, 2) if draw.integer(0, 3) == 0 else 0):
        kind = draw.choice(["blank", "spaces", "comment"])
        if kind == "blank":
            lines.append("")
        elif kind == "spaces":
            lines.append(" " * draw.integer(0, indent) if strict else " " * draw.integer(1, 6))
        else:
            lines.append(" " * draw.integer(0, indent if strict else indent + 4) + "# note")
    return lines


def block_scalar(draw: Draw, head: str, indent: int, strict: bool) -> list[str]:
    """`head` ends with the key or dash; the text goes `step` deeper than `indent`, with blank
    lines inside and, for literal scalars, more indented lines."""
    header = draw.choice(["|", "|-", ">", ">-"] if strict else ["|", "|-", ">", ">-", "|+",
                                                                 ">2", "|  # c", "|-  "])
    step = draw.integer(1, 4)
    lines = [f"{head} {header}"]
    for index in range(draw.integer(1, 4)):
        if index and draw.integer(0, 3) == 0:
            lines.extend(" " * draw.integer(0, indent + step if strict else indent + step + 2)
                         for _ in range(draw.integer(1, 2)))
        deeper = 0
        if index and (header[0] == "|" or not strict) and draw.integer(0, 3) == 0:
            deeper = draw.integer(1, 3)
        text = word(draw, WORD_CHARS + "#:-", first="abc#-:é")
        if draw.integer(0, 4) == 0:
            text += "  "
        lines.append(" " * (indent + step + deeper) + text)
    for _ in range(draw.integer(0, 2)):
        lines.append(" " * draw.integer(0, indent + step if strict else indent + step + 2))
    return lines


def entry_value(draw: Draw, head: str, indent: int, depth: int, strict: bool) -> list[str]:
    """The value after `head` (`KEY:` at `indent`, or an item's `-` at `indent` with perhaps a
    space more), on its line and below."""
    is_key = head.endswith(":")
    kinds = ["inline", "inline", "inline", "block"]
    if depth < 4:
        # A sequence right in an item (`- - x`) is outside the subset.
        kinds += ["map", "seq"] if is_key or not strict else ["map"]
    if is_key:
        kinds.append("null")
    kind = draw.choice(kinds)
    if kind == "inline":
        value = inline_value(draw, strict)
        return [f"{head}{' ' * draw.integer(1, 2)}{value}{comment(draw, strict)}"]
    if kind == "block":
        return block_scalar(draw, head, indent, strict)
    if kind == "null":
        return [head + comment(draw)]
    nested = mapping if kind == "map" else sequence
    if is_key or (not strict and draw.integer(0, 3) == 0):
        # On the lines below, deeper (at the same column, outside the subset, when not strict).
        step = draw.integer(1 if strict or not is_key else 0, 4)
        return [head + comment(draw), *nested(draw, indent + step, depth + 1, strict)]
    return compact(head, nested(draw, len(head) + 1, depth + 1, strict))


def compact(head: str, lines: list[str]) -> list[str]:
    """`- ` and, on the same line, the first line of a collection nested at column
    `len(head) + 1`."""
    return [head + " " + lines[0][len(head) + 1:], *lines[1:]]


def mapping(draw: Draw, indent: int, depth: int, strict: bool) -> list[str]:
    lines: list[str] = []
    used: set[str] = set()
    for index in range(draw.integer(1, 4)):
        key = draw.choice(KEYS) if strict or draw.integer(0, 5) else draw.choice(ODD_KEYS)
        if strict:
            while key in used:
                key += "x"
        used.add(key)
        if index:
            lines.extend(decorations(draw, indent, strict))
        lines.extend(entry_value(draw, " " * indent + key + ":", indent, depth, strict))
    return lines


def sequence(draw: Draw, indent: int, depth: int, strict: bool) -> list[str]:
    lines: list[str] = []
    for index in range(draw.integer(1, 3)):
        if index:
            lines.extend(decorations(draw, indent, strict))
        head = " " * indent + "-" + " " * draw.choice([0, 0, 0, 1])
        if not strict and draw.integer(0, 8) == 0:
            lines.append(head + draw.choice(["", " ", " # empty", " - nested"]))
            continue
        lines.extend(entry_value(draw, head, indent, depth, strict))
    return lines


def document(draw: Draw, strict: bool) -> str:
    """A whole file, a dataset case (`  - id: ...`) or a nested fragment."""
    shape = draw.choice(["map", "seq", "case"])
    if shape == "map":
        lines = mapping(draw, 0, 0, strict)
    elif shape == "seq":
        lines = sequence(draw, 0, 0, strict)
    else:
        indent = draw.integer(0, 4)
        lines = compact(" " * indent + "-", mapping(draw, indent + 2, 1, strict))
    lines = decorations(draw, 0, strict) + lines + decorations(draw, 0, strict)
    return "\n".join(lines) + draw.choice(["\n", "\n", "", "\n\n", "\n  "])


MUTATIONS = " \n\n::--##\t\"'[]&*!|>x{},?\r\x85\ufeff\u00a0\x00😀"


def mutate(draw: Draw, text: str) -> str:
    for _ in range(draw.choice([0, 0, 1, 1, 2])):
        at = draw.integer(0, len(text))
        how = draw.choice(["insert", "replace", "delete"])
        char = draw.choice(MUTATIONS)
        if how == "insert":
            text = text[:at] + char + text[at:]
        elif how == "replace":
            text = text[:at] + char + text[at + 1:]
        else:
            text = text[:at] + text[at + 1:]
    return text


# -- 1. differential, on generated texts ---------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fast_path_tree_equals_ruamel_tree_on_generated_yaml(data: st.DataObject) -> None:
    draw = HypothesisDraw(data)
    text = mutate(draw, document(draw, strict=draw.choice([True, True, False])))
    accepted_and_equal(text)


def test_fast_path_accepts_most_texts_inside_the_subset() -> None:
    """Without this, a fast path that always declines would pass every other test."""
    rng = random.Random(20261121)
    texts = [document(RandomDraw(rng), strict=True) for _ in range(400)]
    declined = [text for text in texts if not accepted_and_equal(text)]
    assert len(declined) <= len(texts) // 10, declined[:5]


def test_fast_path_declines_most_mutated_texts_it_should() -> None:
    """The generator's odd forms are outside the subset: the fast path declines most of them
    (and whatever it accepts is still equal, which `accepted_and_equal` checks)."""
    rng = random.Random(7)
    texts = [document(RandomDraw(rng), strict=False) for _ in range(300)]
    accepted = sum(accepted_and_equal(text) for text in texts)
    assert 0 < accepted < len(texts)


# -- 2. real files, their cases and their truncations -------------------------------------------

def yaml_files() -> list[Path]:
    files = sorted(EXAMPLES.rglob("*.yaml")) + sorted(FIXTURES.rglob("*.yaml"))
    if CORPUS.is_dir():
        files += sorted(p for p in CORPUS.rglob("*") if p.suffix in (".yaml", ".yml"))
    return files


def texts_of(path: Path) -> Iterator[str]:
    text, problem = decode(path.read_bytes())
    if problem is not None:
        return
    yield text
    split = split_dataset(text)
    if split is not None:
        yield from (text[item.start:item.end] for item in split.items)


def test_every_file_and_case_of_the_examples_and_the_corpus() -> None:
    accepted = total = 0
    for path in yaml_files():
        for text in texts_of(path):
            total += 1
            accepted += accepted_and_equal(text)
    assert accepted >= total // 3, (accepted, total)


TRUNCATED = [EXAMPLES / "datasets" / "support_faq.yaml", EXAMPLES / "datasets" / "agent_tasks.yaml",
             EXAMPLES / "rubrics" / "support_quality.yaml", EXAMPLES / "judges" / "tone.yaml"]


@pytest.mark.parametrize("path", TRUNCATED, ids=lambda p: p.name)
def test_every_truncation_at_a_line_end(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    ends = [at for at, char in enumerate(text) if char == "\n"]
    accepted = 0
    for end in ends:
        accepted += accepted_and_equal(text[:end])
        accepted += accepted_and_equal(text[:end + 1])
    assert accepted > 0


# -- 3. specific texts ----------------------------------------------------------------------------

def test_the_benchmark_case_is_accepted_and_equal() -> None:
    assert accepted_and_equal(BENCH_CASE)
    assert accepted_and_equal(BENCH_CASE.rstrip("\n"))


def test_a_whole_dataset_file_is_accepted_and_equal() -> None:
    text = "# a comment\nname: support\nquestions:\n" + BENCH_CASE + BENCH_CASE.replace(
        "refund_000000", "refund_000001") + "\ndescription: x\n"
    assert accepted_and_equal(text)


@pytest.mark.parametrize("text", [
    "a: |\n  x\n  y\n", "a: |\n  x\n  y\n\n\n", "a: |\n  x\n  y", "a: |\n  x\n  ",
    "a: >-\n  x\n  y\n\nb: 1\n", "a: >\n  x  \n  y \n  \n# c\nb:", "a: |-\n  x\n  \n  ",
    "- |\n  x\n- y", "- a: |\n   x\n  b: 1", "-   a: 1\n    b: 2\n", "a:\nb:  # c\n",
    "- a:\n- b:\n  c:\n", "a: []\nb: [ ]  # c\n", "a: [1, 2.5, true, ~, 2026-01-01, \"x\"]\n",
    "a: [a  b , -x, 'q', \"d\"]\n", "a: 😀 b\nc: [é, 中文, \"ü😀\"]\nd: x\u00a0\n",
    "a: b #c: d\n", "a: x[1], y{2}\n", "$schema: x\n", "a:\n  # c\n  b: 1\n",
    "a: [a?b]\n", "a: [2026?01, why?, y ?]\n", "providers: [openai:gpt-4o, x:y:z, 'q:r']\n",
    "a: >\n  x\n\n\n  y\n  z\n", "a: >-\n  x\n  \n  y\n\n", "a: |\n  x\n    y\n  z\n",
    "a: |-\n  x\n\n    y\n\n\nb: 1", "a: |\n  x\n  \n  # c\n", "- |\n  x\n\n- y\n",
])
def test_edge_cases_are_accepted_and_equal(text: str) -> None:
    assert accepted_and_equal(text)


@pytest.mark.parametrize("text", [
    "a:\tb\n", "a:\n\t- b\n",  # tabs
    "a: &x 1\nb: *x\n",  # anchor and alias
    "a: 1\na: 2\n",  # duplicate key
    "a: b\n  c\n",  # multi-line plain scalar
    "- a\n  b\n", "a:\n- b\n", "- - x\n", "- \n", "-\n", "a: !!str 1\n", "a: {b: 1}\n",
    "a: 'it''s'\n", 'a: "x\\ny"\n', "a: [a, b, ]\n", "a: [a,\n  b]\n", "? a\n: b\n",
    "a: [a:]\n", "a: [a:,b]\n", "a: [x, y:]\n",  # libyaml 0.2.5 refuses ':' before `,?[]{}`
    "<<: {a: 1}\n", "true: 1\n", "a: |\n\n  x\n", "a: >\n  x\n    y\n", "a: |\n  x\n   \n",
    "a: |+\n  x\n", "a: b: c\n", "a: b:\n", "a: 1\n b: 2\n", "---\na: 1\n", "a: 1\r\n",
    "\ufeffa: 1\n", "a: x\u2028y\n", "", "# only a comment\n", "plain\n", "a: |\n",
])
def test_texts_outside_the_subset_are_declined(text: str) -> None:
    assert fast_parse(text) is None


@pytest.mark.parametrize("text", [
    "a: " + "[" * 300 + "\n",  # unclosed: the tokens count, not the brackets
    "a: |\n  " + "- " * 260 + "x\n",  # indicators at the start of block scalar text
    "a: 1\n" + " " * 300 + "# a deep comment\n",
    "a: 1\n" + " " * 300 + "\n",
    "".join(" " * (2 * level) + f"k{level}:\n" for level in range(140)) + " " * 280 + "k: v\n",
    "-" + " " * 300 + "x\n",
])
def test_what_the_depth_guard_refuses_is_declined(text: str) -> None:
    """The fast path runs before `parse_text`'s depth guard, so it must decline whatever the
    guard refuses (EY105)."""
    assert fast_parse(text) is None
    assert [finding.code for finding in ruamel_parse(text)[1]] == ["EY105"]


def test_the_switch_turns_the_fast_path_off(monkeypatch: pytest.MonkeyPatch) -> None:
    sink = FindingSink(strict=False)
    on = parse.parse_text(BENCH_CASE, sink)
    monkeypatch.setattr(parse, "FAST_PATH", False)
    off = parse.parse_text(BENCH_CASE, sink)
    assert on.ok and off.ok and sink.findings == []
    assert on.documents[0] is not None and off.documents[0] is not None
    assert tree_diff(on.documents[0], off.documents[0]) is None


MISTAKES = sorted((EXAMPLES / "mistakes").rglob("*.yaml"))


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.name)
def test_findings_are_the_same_with_and_without_the_fast_path(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text(encoding="utf-8")
    relative = path.relative_to(EXAMPLES).as_posix()
    with_fast_path = analyze_text(text, relative, OPTIONS)
    monkeypatch.setattr(parse, "FAST_PATH", False)
    without = analyze_text(text, relative, OPTIONS)
    assert with_fast_path == without  # kind, findings, definitions, references, cases
