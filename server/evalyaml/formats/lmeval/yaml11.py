"""What PyYAML makes of a plain scalar. The harness loads task files with PyYAML (YAML 1.1,
`tasks/_yaml_loader.py`), where `yes`, `no`, `on` and `off` are booleans and `1.0e3` is text,
while evalyaml's parser reads YAML 1.2: a value meant as text is judged by this reading."""

from __future__ import annotations

from evalyaml.syntax.tree import Scalar
from evalyaml.syntax.yaml.pyyaml11 import BOOL as _BOOL
from evalyaml.syntax.yaml.pyyaml11 import FLOAT as _FLOAT
from evalyaml.syntax.yaml.pyyaml11 import INT as _INT
from evalyaml.syntax.yaml.pyyaml11 import NULL as _NULL
from evalyaml.syntax.yaml.pyyaml11 import TRUE as _TRUE


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

