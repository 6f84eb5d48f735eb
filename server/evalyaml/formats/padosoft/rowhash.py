"""A sample's row identity, exactly as eval-harness's `RowHash::for()` computes it.

eval-harness joins two runs of a dataset on this hash, not on the sample id (an id can be
renamed, a question rewritten under the same id), so hover shows it: the author sees which edits
keep a sample's history (renaming the id, adding metadata, reordering keys) and which start a
new row (editing `input` or `expected_output`).

The recipe (`src/Datasets/RowHash.php`): sha256 of `json_encode(["input" => ..., "expected" =>
...], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION)`, with
every non-list array key-sorted (`ksort`) recursively and lists kept in order. Reproducing it
means reproducing PHP's values too: symfony/yaml's scalars (`values.scalar_value`), PHP arrays
(a mapping keyed 0, 1, 2... is a list; an empty mapping is `[]`; numeric-string keys become
integers), `ksort`'s PHP 8 ordering and `json_encode`'s number and escape formatting.
"""

from __future__ import annotations

import math
import re
from functools import cmp_to_key
from typing import TYPE_CHECKING

from evalyaml.core.findings import FindingSink
from evalyaml.formats.padosoft.values import Timestamp, scalar_value
from evalyaml.syntax.record import record
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import MERGE_TAG, Budget, Mapping, Node, Scalar, Sequence
from evalyaml.syntax.yaml.parse import parse_text

if TYPE_CHECKING:
    from hashlib import sha256
else:
    try:  # the interpreter's own sha256: `import hashlib` would load OpenSSL for it (#27)
        from _sha256 import sha256  # Python 3.11
    except ImportError:  # pragma: no cover - renamed in 3.12; hashlib's gives the same digest
        from hashlib import sha256

_CANONICAL_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_NUMERIC = re.compile(r"[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                      r"[ \t\n\r\v\f]*")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
            "\t": "\\t", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\u2028\u2029]')
_INT64 = 2**63
SHORT_LENGTH = 12  # RowHash::SHORT_LENGTH: enough to be unambiguous in a table


class Unhashable(Exception):
    """A value eval-harness would hash through its `serialize()` fallback (INF, NaN), or an
    impossible date (2026-02-30) that PHP's DateTime rolls over and evalyaml does not."""


PhpKey = int | str
PhpValue = None | bool | int | float | str | list["PhpValue"] | dict[PhpKey, "PhpValue"]


def row_hash(sample: Node, budget: Budget | None = None) -> str | None:
    """The sha256 hex digest eval-harness gives this sample, or None when it cannot be
    reproduced (the sample is not a mapping, or holds INF/NaN or an impossible date). `budget`
    bounds alias expansion; share one across the samples of a file."""
    if not isinstance(sample, Mapping):
        return None
    try:
        budget = budget or Budget(100_000)
        input_node = sample.get("input")
        expected_node = sample.get("expected_output")
        input_value = _php(input_node, budget) if input_node is not None else None
        expected = _php(expected_node, budget) if expected_node is not None else None
        return hash_parts(input_value, expected)
    except (Unhashable, RecursionError):
        return None


@record
class RowIdentity:
    """One sample's row hash and where the sample is, for hover: the engine shows `short`
    (what eval-harness prints in tables and CLI lines) for the sample under the cursor."""

    id: str | None
    span: Span
    hash: str

    @property
    def short(self) -> str:
        return self.hash[:SHORT_LENGTH]


def row_identities(text: str) -> list[RowIdentity]:
    """Every sample of a dataset text with its row hash; samples that cannot be hashed (and
    text that does not parse) are left out."""
    parsed = parse_text(text, FindingSink(strict=False))
    root = parsed.documents[0] if parsed.ok and parsed.documents else None
    samples = root.get("samples") if isinstance(root, Mapping) else None
    out: list[RowIdentity] = []
    budget = Budget(max(100_000, 2 * len(text)))  # an alias bomb stops early, once per file
    for sample in samples.items if isinstance(samples, Sequence) else []:
        digest = row_hash(sample, budget)
        if digest is not None and isinstance(sample, Mapping):
            sample_id = sample.get("id")
            out.append(RowIdentity(sample_id.text if isinstance(sample_id, Scalar) else None,
                                   parsed.span(sample), digest))
    return out


def hash_parts(input_value: PhpValue, expected: PhpValue) -> str:
    """`RowHash::fromParts` on PHP values already built."""
    payload: dict[PhpKey, PhpValue] = {"input": _canonical(input_value),
                                       "expected": _canonical(expected)}
    return sha256(encode(payload).encode("utf-8")).hexdigest()


def _php(node: Node, budget: Budget) -> PhpValue:
    budget.remaining -= 1
    if budget.remaining < 0:
        raise Unhashable("alias expansion")
    if isinstance(node, Scalar):
        value = scalar_value(node)
        if isinstance(value, Timestamp) and value == 0 and not node.text.startswith("1970"):
            raise Unhashable("a date PHP rolls over")
        if isinstance(value, Timestamp):
            return int(value)
        if isinstance(value, int) and not isinstance(value, bool) and not -_INT64 <= value < _INT64:
            return float(value)  # hexadecimal and octal past PHP_INT_MAX: PHP's own overflow
        assert value is None or isinstance(value, (bool, int, float, str))
        return value
    if isinstance(node, Sequence):
        return [_php(item, budget) for item in node.items]
    assert isinstance(node, Mapping)
    out: dict[PhpKey, PhpValue] = {}
    for merged in node.merged():  # merge keys: explicit keys win, as in symfony/yaml
        merged_value = _php(merged, budget)
        if isinstance(merged_value, dict):
            for merged_key, item in merged_value.items():
                out.setdefault(merged_key, item)
        elif isinstance(merged_value, list):
            for index, item in enumerate(merged_value):
                out.setdefault(index, item)
    explicit: dict[PhpKey, PhpValue] = {}
    for key_node, value_node in node.pairs:
        if isinstance(key_node, Scalar) and key_node.tag == MERGE_TAG:
            continue
        key = _php_key(key_node)
        if key not in explicit:
            explicit[key] = _php(value_node, budget)
    out.update(explicit)
    if all(isinstance(k, int) for k in out) and list(out) == list(range(len(out))):
        return list(out.values())
    return out


def _php_key(node: Node) -> PhpKey:
    """PHP array keys: a canonical integer string becomes an integer; floats truncate,
    booleans become 0/1, null becomes ''."""
    if not isinstance(node, Scalar):
        return f"<{type(node).__name__.lower()} key>"
    value = scalar_value(node)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return int(value) if math.isfinite(value) else str(value)
    if value is None:
        return ""
    text = str(value)
    if _CANONICAL_INT.fullmatch(text) and -_INT64 <= int(text) < _INT64 and text != "-0":
        return int(text)
    return text


def _canonical(value: PhpValue) -> PhpValue:
    if isinstance(value, list):
        return [_canonical(item) for item in value]
    if isinstance(value, dict):
        items = [(k, _canonical(v)) for k, v in value.items()]
        if [k for k, _ in items] == list(range(len(items))):
            return [v for _, v in items]  # array_is_list after the map
        items.sort(key=cmp_to_key(_compare_items))
        return dict(items)
    return value


def _compare_items(a: tuple[PhpKey, PhpValue], b: tuple[PhpKey, PhpValue]) -> int:
    return _compare_keys(a[0], b[0])


def _compare_keys(a: PhpKey, b: PhpKey) -> int:
    """PHP 8's `<=>` on array keys, which `ksort` uses by default (SORT_REGULAR)."""
    if isinstance(a, int) and isinstance(b, int):
        return (a > b) - (a < b)
    if isinstance(a, str) and isinstance(b, str):
        if _NUMERIC.fullmatch(a) and _NUMERIC.fullmatch(b):
            fa, fb = float(a), float(b)
            return (fa > fb) - (fa < fb)
        return (a > b) - (a < b)
    number, text, sign = (a, b, 1) if isinstance(a, int) else (b, a, -1)
    assert isinstance(number, int) and isinstance(text, str)
    if _NUMERIC.fullmatch(text):
        ft = float(text)
        return sign * ((number > ft) - (number < ft))
    as_text = str(number)
    return sign * ((as_text > text) - (as_text < text))


def encode(value: PhpValue) -> str:
    """`json_encode` with JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE |
    JSON_PRESERVE_ZERO_FRACTION."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return '"' + _NEEDS_ESCAPE.sub(_escape, value) + '"'
    if isinstance(value, list):
        return "[" + ",".join(encode(item) for item in value) + "]"
    if not value:
        return "[]"
    if list(value) == list(range(len(value))):
        return "[" + ",".join(encode(item) for item in value.values()) + "]"
    return "{" + ",".join(encode(str(k)) + ":" + encode(v) for k, v in value.items()) + "}"


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _float(number: float) -> str:
    """PHP's `serialize_precision = -1` output: the shortest round-trip digits, printed in
    exponent form when the decimal point is more than 17 places right or 4 left of them."""
    if not math.isfinite(number):
        raise Unhashable("non-finite float")
    if number == 0:
        return "-0.0" if math.copysign(1.0, number) < 0 else "0.0"
    from decimal import Decimal  # here: most datasets hold no float (issue #27, start-up)

    sign, digits_tuple, exponent = Decimal(repr(number)).as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digits_tuple)).rstrip("0") or "0"
    exponent += len("".join(map(str, digits_tuple))) - len(digits)
    point = len(digits) + exponent  # where the decimal point goes, from the digits' start
    prefix = "-" if sign else ""
    if point < -3 or point > 17:
        mantissa = digits[0] + "." + (digits[1:] or "0")
        power = point - 1
        return f"{prefix}{mantissa}e{'+' if power >= 0 else '-'}{abs(power)}"
    if point <= 0:
        return f"{prefix}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{prefix}{digits}{'0' * (point - len(digits))}.0"
    return f"{prefix}{digits[:point]}.{digits[point:]}"
