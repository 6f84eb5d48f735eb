"""Our YAML 1.2 tag table (`syntax/yaml/tags.py`) gives exactly ruamel's tags for plain scalars.

The fast path tags scalars with it without importing ruamel, and ruamel's composers resolve
through it (`resolver.FastResolver`): a tag that differed from ruamel's `Resolver` would change
which values the rules call numbers, booleans or nulls. Held on ruamel's own resolver, on every
string of up to three characters over the characters its patterns read, on generated values,
and through both of ruamel's composers (C where installed, pure always) and the fast path.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import Resolver

from evalyaml.core.findings import FindingSink
from evalyaml.syntax.tree import Mapping, Scalar
from evalyaml.syntax.yaml import parse
from evalyaml.syntax.yaml.fastparse import fast_parse
from evalyaml.syntax.yaml.tags import MAYBE_NOT_STR, plain_tag

REFERENCE = Resolver()
# Every character ruamel's YAML 1.2 patterns name, and a few they do not.
ALPHABET = "0123456789+-._eEoObxXaAfFtTrRuUlLsSnNiI~<=!&*:Z yY\t\n#é"


def ruamel_tag(value: str) -> str:
    return str(REFERENCE.resolve(ScalarNode, value, (True, False)))


@pytest.mark.parametrize(("value", "tag"), [
    ("abc", "str"), ("", "null"), ("~", "null"), ("null", "null"), ("Null", "null"),
    ("NULL", "null"), ("nULL", "str"), ("true", "bool"), ("False", "bool"), ("TRUE", "bool"),
    ("tRue", "str"), ("yes", "str"), ("No", "str"), ("on", "str"), ("Off", "str"), ("y", "str"),
    ("0", "int"), ("-1", "int"), ("+2", "int"), ("0o17", "int"), ("0x1f", "int"),
    ("0b101", "int"), ("017", "int"), ("1_000", "int"), ("_", "str"), ("-_", "int"),
    ("0o", "str"), ("0o_", "int"), ("0x", "str"), ("1.10", "float"), ("1.", "float"),
    ("._", "float"), ("1e3", "float"), (".5", "float"), (".5e3", "str"), (".5e+3", "float"),
    (".inf", "float"),
    ("-.Inf", "float"), ("+.INF", "float"), (".NaN", "float"), ("-.nan", "str"),
    ("2026-11-02", "timestamp"), ("2026-11-02T10:00:00Z", "timestamp"),
    ("2026-1-2 10:00:00.5 +01:00", "timestamp"), ("2026-11-2", "str"), ("<<", "merge"),
    ("=", "value"), ("!", "yaml"), ("1:30", "str"), ("3\n", "int"),
])
def test_plain_scalars_get_ruamel_s_yaml_1_2_tags(value: str, tag: str) -> None:
    assert plain_tag(value) == "tag:yaml.org,2002:" + tag
    assert ruamel_tag(value) == plain_tag(value)


def test_every_short_string_gets_ruamel_s_tag() -> None:
    for size in range(4):
        for chars in itertools.product(ALPHABET, repeat=size):
            value = "".join(chars)
            assert plain_tag(value) == ruamel_tag(value), repr(value)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=24))
def test_generated_values_get_ruamel_s_tag(value: str) -> None:
    assert plain_tag(value) == ruamel_tag(value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_a_value_that_starts_elsewhere_is_a_string(value: str) -> None:
    if value and value[0] not in MAYBE_NOT_STR:
        assert ruamel_tag(value) == "tag:yaml.org,2002:str"


VALUES = ["1_000", "0o17", ".inf", "~", "true", "yes", "2026-11-02", "-.5", "0x_", "1.e5",
          "Null", "<<<", "+.nan", "word"]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("route", ["fast", "ruamel", "ruamel-pure"])
def test_each_parser_tags_a_plain_value_as_the_table_does(value: str, route: str,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    text = f"key: {value}\nlist: [{value}, b]\n"
    if route == "fast":
        root = fast_parse(text)
    else:
        monkeypatch.setattr(parse, "FAST_PATH", False)
        parsed = parse.parse_text(text, FindingSink(strict=False), pure=route == "ruamel-pure")
        root = parsed.documents[0] if parsed.ok else None
    assert isinstance(root, Mapping)
    (_, scalar), (_, seq) = root.pairs
    assert isinstance(scalar, Scalar)
    assert scalar.tag == plain_tag(value) == ruamel_tag(value)
    first = seq.items[0]  # type: ignore[attr-defined]
    assert first.tag == plain_tag(value)
