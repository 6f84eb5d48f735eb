"""The reference grammar (DESIGN §3): `rubric/<id>` or `judge/<id>`, optionally `@<pin>`.

A pin is MAJOR, MAJOR.MINOR or a full semantic version. Parsing is local to one file; resolving
a reference against the workspace is `evalyaml.workspace.resolve`'s job.
"""

from __future__ import annotations

import re
from functools import lru_cache

from evalyaml.core.kinds import FileKind
from evalyaml.core.model import Pin
from evalyaml.core.semantic_version import parse_full_version

_REFERENCE = re.compile(r"^(?P<kind>[A-Za-z_]+)/(?P<id>[^@\s]*)(?:@(?P<pin>.*))?$")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_PARTIAL_PIN = re.compile(r"^(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?$")


def parse_pin(text: str) -> Pin | None:
    partial = _PARTIAL_PIN.match(text)
    if partial:
        minor = partial.group(2)
        try:
            return Pin(text, int(partial.group(1)), int(minor) if minor is not None else None)
        except ValueError:  # over Python's 4,300-digit limit for int(): not a usable pin
            return None
    version = parse_full_version(text)
    if version is None:
        return None
    return Pin(text, version.major, version.minor, version.patch, version.prerelease)


@lru_cache(maxsize=4096)
def parse_reference(raw: str, expected: FileKind) -> tuple[str, Pin | None] | str:
    """(id, pin) for a well-formed reference; otherwise the message explaining the form.

    Memoised: a 10,000-case dataset spells the same few references over and over, and the
    answer (immutable) depends on the text alone."""
    example = "rubric/factuality@1.2" if expected is FileKind.RUBRIC else "judge/accuracy@1.0"
    form = f"expected {expected.value}/<id>@<version>, e.g. '{example}'"
    match = _REFERENCE.match(raw.strip())
    if not match:
        return f"malformed reference '{raw}': {form}"
    kind = match.group("kind")
    if kind != expected.value:
        return f"this reference must point at a {expected.value} ('{expected.value}/...'), " \
               f"not '{kind}/'; {form}"
    ref_id = match.group("id")
    if not _ID.match(ref_id):
        return f"malformed reference '{raw}': the id '{ref_id}' must be snake_case " \
               f"(lowercase letters, digits and '_'); {form}"
    pin_text = match.group("pin")
    if pin_text is None:
        return ref_id, None
    pin = parse_pin(pin_text)
    if pin is None:
        return f"malformed reference '{raw}': '@{pin_text}' is not a version pin " \
               "(MAJOR, MAJOR.MINOR or MAJOR.MINOR.PATCH)"
    return ref_id, pin
