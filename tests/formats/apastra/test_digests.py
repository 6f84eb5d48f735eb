"""Apastra's digest recipe, reproduced: the expected values below were printed by Apastra's own
`runtime/digest.py` and `validators/compute-digest.sh` (at 17667b57, with PyYAML 6.0.3) on the
files in `data/`, so a difference is ours."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalyaml.core.findings import FindingSink
from evalyaml.formats.apastra import digests
from evalyaml.syntax.tree import Scalar
from evalyaml.syntax.yaml.parse import parse_text

DATA = Path(__file__).parent / "data"


def _yaml_digests(text: str) -> digests.Digests:
    parsed = parse_text(text, FindingSink(strict=False))
    assert parsed.ok and parsed.documents[0] is not None
    return digests.of_value(digests.value_11(parsed.documents[0]))


def test_yaml_read_as_yaml_1_1_gives_both_implementations_digests() -> None:
    # booleans yes/No/on/OFF, octal 017, 1_000, sexagesimal 1:30 and 190:20:30.15, 0x1F,
    # -0b101, .inf, "1e3" (a string in YAML 1.1), non-ASCII text.
    found = _yaml_digests((DATA / "yaml11.yaml").read_text(encoding="utf-8"))
    assert found.runtime == ("sha256:c9fc5188bcc20dc5aea6aa2ba23fe57ab027a02b365eb76acab6bea9"
                             "3deff38c")
    assert found.script == ("sha256:a816664c170b34399e539f2a80ba57f875c6719a98a75923fba5dce32"
                            "0353d8a")


def test_jsonl_lines_canonicalised_and_joined_without_a_trailing_newline() -> None:
    text = (DATA / "crlf-non-ascii.jsonl").read_bytes().decode("utf-8")
    found = digests.of_jsonl(text)
    assert found is not None
    assert found.runtime == ("sha256:0ea651e7cba6fe844a7b9d023d99390f10fc1c9a415421075c098185"
                             "ac89cd0c")
    assert found.script == ("sha256:067d0dd25ad6886abf41cb201d125e57e3cf89808572def278bd099e6"
                            "3699ad6")


def test_the_corpus_dataset_digest() -> None:
    text = '{"case_id": "c", "inputs": {"text": "hi"}}\n'
    found = digests.of_jsonl(text)
    assert found is not None and found.agree
    assert digests.of_jsonl(text + "\n\n") == found


def test_an_unquoted_date_has_no_digest() -> None:
    parsed = parse_text("id: a\nwhen: 2026-01-02\n", FindingSink(strict=False))
    root = parsed.documents[0]
    assert root is not None
    with pytest.raises(digests.Unreadable) as raised:
        digests.value_11(root)
    assert isinstance(raised.value.node, Scalar) and raised.value.node.text == "2026-01-02"


def test_a_line_that_is_not_json_has_no_digest() -> None:
    assert digests.of_jsonl('{"a": 1}\n{oops\n') is None


@pytest.mark.parametrize(("text", "value"), [
    ("yes", True), ("Off", False), ("y", "y"), ("017", 15), ("0o17", "0o17"), ("1_000", 1000),
    ("1:30", 90), ("1e3", "1e3"), ("1.0e+3", 1000.0), ("~", None), ("0x1F", 31),
])
def test_plain_scalars_as_pyyaml_reads_them(text: str, value: object) -> None:
    assert digests.scalar_11(Scalar("tag:yaml.org,2002:str", 0, len(text), text, "")) == value


# Digests PyYAML 6.0.4's safe_load + json.dumps(sort_keys, compact) give, or None where
# Apastra's tools fail (TypeError: keys of mixed types; ConstructorError: `=` value, `<<: 1`).
@pytest.mark.parametrize(("text", "expected"), [
    ("id: x\nvalue: 1:30\nn: 0o17\no: 017\nh: 0x1F\nb: 0b101\nu: 1_000\nf: 1:30.5\nm: -1:30\n",
     "sha256:c9aa03c11b4eeee3fdfd4adc1361e18d07c3e869fe2a20e226c1b239d864df9a"),
    ("id: x\n=: 1\n", "sha256:45bb010a1b0d4ae7009e2010d20b5dff788631e9c0f90bcddf29bc0b3401c3d4"),
    ("1: a\n2: b\n", "sha256:a71fc868af5e004c2efbfdf16bb2b679c348f2e25065b30b06df846eb32074a5"),
    ("true: a\n2: b\n",
     "sha256:b3c73c8a8a75452165a185b1e1857372cfd020077881e73b93f83abea487f81c"),
    ("id: x\non: yes\noff: No\n", None),
    ("id: x\nyes: 1\n", None),
    ("id: x\nvalue: =\n", None),
    ("id: x\n<<: 1\n", None),
])
def test_keys_and_values_pyyaml_reads_differently(text: str, expected: str | None) -> None:
    if expected is None:
        with pytest.raises(digests.Unreadable):
            _yaml_digests(text)
    else:
        assert _yaml_digests(text).script == expected
