"""Reading a YAML tree the way eval-harness's YAML reader, symfony/yaml, reads it.

Our tree resolves plain scalars by the YAML 1.2 core schema. symfony/yaml (verified on 5.4 with
`Yaml::parse` and no flags, which is how `YamlDatasetLoader` calls it) agrees on most of it
(`yes`, `no`, `on`, `off`, `y`, `n` are strings) and differs where a type decides a loader
rule or a metric:
- `true`, `false` and `null` match in any case (`TrUe` is a boolean, `NULL` is null);
- a plain date or timestamp (`2026-01-01`, `2026-01-01T10:00:00Z`) is an integer (a Unix
  timestamp), so `id: 2026-01-01` is not a string id;
- a plain number with a leading `+` is a float, one with a leading `0` and octal digits only
  is an octal integer, and a decimal integer past PHP_INT_MAX stays a string.
Everything else takes our tree's value. A PHP "array" is a mapping or a sequence; a PHP list
(`array_is_list`) is a sequence, or a mapping whose keys are 0, 1, 2... in order.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.tree import Mapping, Node, PyValue, Scalar, Sequence

_TIMESTAMP = re.compile(
    r"(?P<y>[0-9]{4})-(?P<mo>[0-9]{1,2})-(?P<d>[0-9]{1,2})"
    r"(?:(?:[Tt]|[ \t]+)(?P<h>[0-9]{1,2}):(?P<mi>[0-9]{2}):(?P<s>[0-9]{2})(?:\.[0-9]*)?"
    r"(?:[ \t]*(?P<tz>Z|(?P<sign>[-+])(?P<th>[0-9]{1,2})(?::(?P<tm>[0-9]{2}))?))?)?")
_PLUS_NUMBER = re.compile(r"\+[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?")
_LEGACY_OCTAL = re.compile(r"0[0-7]+")
_INDEX_KEY = re.compile(r"0|[1-9][0-9]*")
_DECIMAL = lazy_re(r"[-+]?[0-9]+")
_INT64 = 2**63
_NUMERIC_STRING = lazy_re(r"[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
                             r"(?:[eE][+-]?[0-9]+)?[ \t\n\r\v\f]*")


class Timestamp(int):
    """An integer symfony/yaml made from a date (its Unix time, UTC unless the text names a
    zone): kept apart so messages can say so."""

    __slots__ = ()


def _timestamp(match: re.Match[str]) -> Timestamp | None:
    """`(new DateTime($text, new DateTimeZone('UTC')))->getTimestamp()`, or None for a date
    PHP would roll over (2026-02-30) rather than refuse, which evalyaml does not imitate."""
    parts = match.groupdict()
    offset = 0
    if parts["sign"]:
        offset = (int(parts["th"]) * 60 + int(parts["tm"] or 0)) * 60
        offset = offset if parts["sign"] == "+" else -offset
    try:
        moment = datetime(int(parts["y"]), int(parts["mo"]), int(parts["d"]),
                          int(parts["h"] or 0), int(parts["mi"] or 0), int(parts["s"] or 0),
                          tzinfo=timezone(timedelta(seconds=offset)))
    except ValueError:
        return None
    return Timestamp(int(moment.timestamp()))


def scalar_value(node: Scalar) -> PyValue:
    """The PHP value of a scalar (see the module docstring); strings stay `str`."""
    if node.is_plain and node.tag.startswith("tag:yaml.org,2002:"):
        text = node.text
        lowered = text.lower()
        if lowered in ("true", "false"):
            return lowered == "true"
        if lowered in ("null", "~", ""):
            return None
        stamp = _TIMESTAMP.fullmatch(text)
        if stamp:
            return _timestamp(stamp) or Timestamp(0)
        if _PLUS_NUMBER.fullmatch(text):
            return float(text)
        if _LEGACY_OCTAL.fullmatch(text):
            return int(text, 8)
        value = node.value
        if isinstance(value, int) and not isinstance(value, bool) and \
                not -_INT64 <= value < _INT64 and _DECIMAL.fullmatch(text):
            return text  # past PHP_INT_MAX symfony/yaml (5.4) keeps the digits as a string
        return value
    return node.value


def value_of(node: Node | None) -> PyValue | Node:
    """A scalar's PHP value, or the node itself for a mapping or a sequence."""
    if node is None:
        return None
    if isinstance(node, Scalar):
        return scalar_value(node)
    return node


def is_array(node: Node | None) -> bool:
    return isinstance(node, (Mapping, Sequence))


def is_string(node: Node | None) -> bool:
    return isinstance(node, Scalar) and isinstance(scalar_value(node), str)


def string_of(node: Node | None) -> str | None:
    """The PHP string a node is, or None when it is not a string."""
    if isinstance(node, Scalar):
        value = scalar_value(node)
        if isinstance(value, str):
            return value
    return None


def items_of(node: Node | None) -> list[Node]:
    """What PHP's `foreach` visits: a list's items, or a mapping's values."""
    if isinstance(node, Sequence):
        return node.items
    if isinstance(node, Mapping):
        return [value for _, value in node.pairs]
    return []


def is_empty_array(node: Node | None) -> bool:
    if isinstance(node, Sequence):
        return not node.items
    return isinstance(node, Mapping) and not node.pairs


def is_list(node: Node | None) -> bool:
    """PHP's `array_is_list`: true for every sequence, and for a mapping keyed 0, 1, 2..."""
    if isinstance(node, Sequence):
        return True
    if not isinstance(node, Mapping):
        return False
    for expected, key in enumerate(node.key_nodes()):
        if not _INDEX_KEY.fullmatch(key.text) or int(key.text) != expected:
            return False
    return True


def is_assoc_or_empty(node: Node | None) -> bool:
    """The loaders' `isAssociativeOrEmpty`: an array that is empty or not a list."""
    return is_array(node) and (is_empty_array(node) or not is_list(node))


def is_numeric(node: Node | None) -> bool:
    """PHP's `is_numeric` on a value: numbers, and strings that read as numbers."""
    value = value_of(node)
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return isinstance(value, str) and _NUMERIC_STRING.fullmatch(value) is not None


def describe(node: Node | None) -> str:
    """How a message names a value, as eval-harness's PHP sees it: "the string 'yes'"."""
    value = value_of(node)
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, Sequence):
        return "a list"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, Timestamp):
        text = node.text if isinstance(node, Scalar) else ""
        return f"the date {text}, which symfony/yaml reads as an integer timestamp,"
    if isinstance(value, int):
        return f"the integer {node.text if isinstance(node, Scalar) else value}"
    if isinstance(value, float):
        return f"the number {node.text if isinstance(node, Scalar) else value}"
    if isinstance(value, str):
        return f"the string '{_short(value)}'" if value else "an empty string"
    return "a value"


def php_type(node: Node | None) -> str:
    """`get_debug_type` of the PHP value: what the metrics' messages print after "got"."""
    value = value_of(node)
    if isinstance(value, (Mapping, Sequence)):
        return "array"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    return "string"


def _short(text: str, limit: int = 40) -> str:
    one_line = " ".join(text.split()) if "\n" in text else text
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"
