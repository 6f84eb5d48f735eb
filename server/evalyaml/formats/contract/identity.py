"""`id` and `version` of rubrics and judges, the fields their identity is made of.

`version: 1.10` is the float 1.1 to YAML, so a numeric version is its own finding (EY208) with the
quoted fix, rather than a bare "must be a string".
"""

from __future__ import annotations

from evalyaml.core.findings import FindingSink, Fix, TextEdit
from evalyaml.core.semantic_version import parse_full_version
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Mapping, Scalar

_NUMERIC_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
_LOOSE_VERSION = lazy_re(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$")


def suggested_version(text: str) -> str | None:
    match = _LOOSE_VERSION.match(text.strip())
    if not match:
        return None
    major, minor, patch = match.groups()
    try:
        return f"{int(major)}.{int(minor or 0)}.{int(patch or 0)}"
    except ValueError:  # over Python's 4,300-digit limit for int(): no suggestion
        return None


def check_version(
    root: Mapping, lines: LineIndex, sink: FindingSink
) -> tuple[str | None, Span | None]:
    """The version if it is a valid semantic-version string, and the span of its value."""
    node = root.get("version")
    if not isinstance(node, Scalar):
        return None, None  # missing or not a scalar: the schema reports it
    span = lines.span(node.start, node.end)
    if node.is_plain and node.tag in _NUMERIC_TAGS:
        fixed = suggested_version(node.text) or node.text
        sink.add(
            "EY208",
            f"version {node.text} is a YAML number (it reads as {node.value!r}), not a version "
            f"string; write it quoted: \"{fixed}\"",
            span,
            fixes=(Fix(f'Quote the version as "{fixed}"', (TextEdit(span, f'"{fixed}"'),),
                       preferred=True),),
        )
        return None, span
    if parse_full_version(node.text) is None:
        suggestion = suggested_version(node.text)
        hint = f"; did you mean \"{suggestion}\"?" if suggestion else ""
        fixes = (Fix(f'Change to "{suggestion}"', (TextEdit(span, f'"{suggestion}"'),),
                     preferred=True),) if suggestion else ()
        sink.add(
            "EY209",
            f"'{node.text}' is not a semantic version: expected MAJOR.MINOR.PATCH such as "
            f"'1.2.0'{hint}",
            span,
            fixes=fixes,
        )
        return None, span
    return node.text, span
