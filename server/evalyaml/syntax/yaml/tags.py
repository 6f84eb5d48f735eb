"""The tag of a plain YAML scalar, as ruamel.yaml's YAML 1.2 resolver gives it, without ruamel.

Why our own table: the fast path (`fastparse.py`) tags the scalars of the simple block YAML most
files are, and importing ruamel.yaml for its resolver alone cost a one-file `evalyaml check`
15-25 ms of its start (issue #27); a file the fast path accepts now never loads ruamel. The
ruamel path keeps ruamel's composer but resolves through this table too (`resolver.py`), so the
two parsers agree by construction, and `tests/core/test_tags.py` holds the table to ruamel's own
`Resolver` (C and pure installs alike), quirks included: `0o17`, `017`, `1_000` and `-_`
are ints but `_` a string, `._` and `1.` floats, `~` and the empty scalar null, `yes` and `on`
strings (booleans in YAML 1.1 only), `<<` merge and `=` value. Matching follows ruamel's:
patterns tried in its order for the first character, with `re.match` and a `$` that also
matches before a final line break.

Patterns are compiled with the first scalar that needs them: a check of a file of strings
compiles none.
"""

from __future__ import annotations

import re

CORE = "tag:yaml.org,2002:"
STR = CORE + "str"
SEQ = CORE + "seq"
MAP = CORE + "map"
NULL = CORE + "null"

# Each tag of the YAML 1.2 table, its pattern (the values ruamel's resolver gives it).
_PATTERNS = {
    "bool": r"^(?:true|True|TRUE|false|False|FALSE)$",
    "float": r"^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?"
             r"|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+"
             r"|[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?"
             r"|[-+]?\.(?:inf|Inf|INF)"
             r"|\.(?:nan|NaN|NAN))$",
    "int": r"^(?:[-+]?0b[01_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+)$",
    "merge": r"^<<$",
    "null": r"^(?:~|null|Null|NULL|)$",
    "timestamp": r"^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}"
                 r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}"
                 r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$",
    "value": r"^=$",
    "yaml": r"^(?:!|&|\*)$",
}

# The tags to try, in order, for a scalar's first character ("" for the empty scalar).
_BY_FIRST: dict[str, tuple[str, ...]] = {
    "": ("null",), "~": ("null",), "n": ("null",), "N": ("null",),
    "t": ("bool",), "T": ("bool",), "f": ("bool",), "F": ("bool",),
    "+": ("float", "int"), "-": ("float", "int"), ".": ("float",),
    **dict.fromkeys("0123456789", ("float", "int", "timestamp")),
    "<": ("merge",), "=": ("value",), "!": ("yaml",), "&": ("yaml",), "*": ("yaml",),
}

MAYBE_NOT_STR = frozenset(first for first in _BY_FIRST if first)
"""First characters of a plain scalar that may resolve to something other than a string: a
number, a boolean, a null, a timestamp, a merge key. Anything else is a string: no regexes."""

_compiled: dict[str, re.Pattern[str]] = {}


def plain_tag(value: str) -> str:
    """The tag ruamel's YAML 1.2 resolver gives the plain scalar `value`, as `tag:yaml.org,
    2002:NAME` text."""
    for name in _BY_FIRST.get(value[:1], ()):
        pattern = _compiled.get(name)
        if pattern is None:
            pattern = _compiled[name] = re.compile(_PATTERNS[name])
        if pattern.match(value) is not None:
            return CORE + name
    return STR
