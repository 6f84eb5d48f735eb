"""The datastore's path convention, as HEAD's validator enforces it.

`data/<collection>/<developer>/<model>/<uuid4>.json` for an aggregate and
`<uuid4>_samples.jsonl` beside it for its samples; a UUID v4 in lower case; no component may be
`data`, hold `<>:"|?*` or a control character, end with a dot or a space, or be a Windows
reserved name (the datastore must check out on Windows). Only files that use the convention are
held to it: a file below a `data` folder, exactly four levels down. Other places (converter test
fixtures, a flat object store) are not datastore paths and are left alone.
"""

from __future__ import annotations

from pathlib import PurePath

from evalyaml.syntax.lazyre import lazy_re

UUID4 = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
AGGREGATE_NAME = lazy_re(rf"^{UUID4}\.json$")
SAMPLES_NAME = lazy_re(rf"^({UUID4})_samples\.jsonl$")
ANY_UUID = lazy_re(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                      r"[0-9a-fA-F]{12}")
FILE_PATH = lazy_re(rf"^data/[^/]+/[^/]+/[^/]+/{UUID4}_samples\.jsonl$")
_BAD_CHARS = lazy_re(r'[<>:"|?*\x00-\x1f\\]')
_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                       *(f"lpt{i}" for i in range(1, 10))})


def datastore_parts(path: str | None) -> tuple[str, ...] | None:
    """The parts after the last `data` folder when the file sits exactly four levels below
    it (`data/<collection>/<developer>/<model>/<file>`); None for any other place."""
    if not path:
        return None
    parts = PurePath(path).parts
    for index in range(len(parts) - 1, -1, -1):
        if parts[index] == "data":
            tail = parts[index + 1:]
            return tuple(tail) if len(tail) == 4 else None
    return None


def datastore_id(path: str | None) -> str | None:
    """`data/…` as an aggregate's `file_path` names the file; None outside the convention."""
    parts = datastore_parts(path)
    return "/".join(("data", *parts)) if parts is not None else None


def component_problem(part: str) -> str | None:
    bad = _BAD_CHARS.search(part)
    if bad:
        char = bad.group()
        shown = repr(char) if ord(char) < 32 else f"'{char}'"
        return f"holds {shown}, which Windows file names cannot"
    if part == "data":
        return "is 'data', which the datastore reserves for its root"
    if part.endswith((".", " ")):
        return "ends with a dot or a space, which Windows drops"
    if part.split(".", maxsplit=1)[0].lower() in _RESERVED:
        return "is a name Windows reserves"
    return None


def name_problem(name: str, *, samples: bool) -> str | None:
    pattern = SAMPLES_NAME if samples else AGGREGATE_NAME
    if pattern.match(name):
        return None
    form = "<uuid4>_samples.jsonl" if samples else "<uuid4>.json"
    if ANY_UUID.match(name) and name.lower() != name:
        return f"the file name must be {form} with the UUID in lower case"
    return f"the file name must be {form} (a version 4 UUID)"
