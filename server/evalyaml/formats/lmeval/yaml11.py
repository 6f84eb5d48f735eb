"""What PyYAML makes of a plain scalar. The harness loads task files with PyYAML (YAML 1.1,
`tasks/_yaml_loader.py`), where `yes`, `no`, `on` and `off` are booleans and `1.0e3` is text,
while evalyaml's parser reads YAML 1.2: a value meant as text is judged by this reading."""

from __future__ import annotations

import re

from evalyaml.syntax.tree import Scalar

# PyYAML's implicit resolvers (yaml/resolver.py), YAML 1.1.
_BOOL = re.compile(r"yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF")
_NULL = re.compile(r"~|null|Null|NULL|")
_INT = re.compile(r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
                  r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+")
_FLOAT = re.compile(r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?"
                    r"|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
                    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*"
                    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_TRUE = frozenset({"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})


def python_type(node: Scalar, source: str) -> str:
    """The Python type name PyYAML gives the scalar: `str`, `bool`, `int`, `float` or
    `NoneType`. A quoted or block scalar is text; an explicitly tagged one (`!!str yes`) is
    what its tag says, taken for text here (nothing to judge)."""
    if not node.is_plain or source[node.start:node.start + 1] == "!":
        return "str"
    text = node.text
    if _BOOL.fullmatch(text):
        return "bool"
    if _NULL.fullmatch(text):
        return "NoneType"
    if _INT.fullmatch(text):
        return "int"
    if _FLOAT.fullmatch(text):
        return "float"
    return "str"


def bool_value(text: str) -> bool:
    return text in _TRUE

