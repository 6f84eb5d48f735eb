"""PyYAML's implicit resolvers (its `yaml/resolver.py`, YAML 1.1): how a plain scalar is typed by
the tools that load YAML with PyYAML (Apastra's runtime, lm-evaluation-harness), where `yes` is
a boolean and `010` an octal. Our own reader types scalars as YAML 1.2 (`resolver.py`)."""

from __future__ import annotations

import re

BOOL = re.compile(r"yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF")
TRUE = frozenset({"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})
NULL = re.compile(r"~|null|Null|NULL|")
INT = re.compile(r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
                 r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+")
FLOAT = re.compile(r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?"
                   r"|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
                   r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*"
                   r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
TIMESTAMP = re.compile(r"[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
                       r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
                       r"(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?"
                       r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?")
