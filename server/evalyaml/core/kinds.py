"""Kinds of files: the contract's `FileKind` and every other format's `FormatKind`, read by the
engine through the same attributes; and the modeline every format's detection may read.

Which kind a contract file is lives in `formats/contract/detect.py`.
"""

from __future__ import annotations

import re
from enum import Enum

from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.record import record


class FileKind(Enum):
    DATASET = "dataset"
    RUBRIC = "rubric"
    JUDGE = "judge"

    # Members are singletons compared by identity, so the identity hash is correct, and it is
    # C code: `Enum.__hash__` is a Python call, and the index hashes a kind per reference.
    __hash__ = object.__hash__

    # The same attributes as `FormatKind`, so the engine reads any kind the same way.
    @property
    def format(self) -> str:
        return "contract"

    @property
    def schema_file(self) -> str:
        return f"{self.value}.schema.json"

    @property
    def noun(self) -> str:
        return "id"

    @property
    def versioned(self) -> bool:
        return True

    @property
    def named_by_path(self) -> bool:
        return False

    # What the engine asks of a kind instead of naming it (see `FormatKind` for each meaning).
    @property
    def qualified_refs(self) -> bool:
        return True

    @property
    def id_pattern(self) -> re.Pattern[str] | None:
        return _SNAKE_CASE

    @property
    def id_rule(self) -> str:
        return "use snake_case (lowercase letters, digits and '_', starting with a letter)"

    @property
    def id_in_file_name(self) -> bool:
        return True

    @property
    def symbol(self) -> str:
        return "judge" if self.value == "judge" else "rubric"

    @property
    def usage(self) -> str:
        return {"rubric": "cases", "judge": "checks"}.get(self.value, "files")

    @property
    def calibrated(self) -> bool:
        return self.value == "judge"

    @property
    def lists_cases(self) -> bool:
        return self.value == "dataset"

    @property
    def graph_cases(self) -> bool:
        return self.value == "dataset"

    @property
    def bundle_items(self) -> tuple[str, ...] | None:
        return ("questions", "*") if self.value == "dataset" else None


_SNAKE_CASE = re.compile(r"^[a-z][a-z0-9_]*$")
_PLAIN_RULE = ("use letters, digits and . _ - / @ + (nothing that would need quoting in YAML or "
               "escaping in JSON)")


@record
class FormatKind:
    """A kind of file of a format other than the core contract (`evalyaml.formats`).

    The core contract's `FileKind` predates the formats and stays an enum its own modules
    compare by identity; every other format declares its kinds as values of this class. Both
    carry the same attributes, so the engine (index, cross-file rules, CLI, editor features)
    handles a `Kind` without knowing which format it belongs to.
    """

    format: str  # the owning format's name, e.g. "padosoft"
    value: str  # how messages name such a file, e.g. "Padosoft dataset"
    schema_file: str | None = None  # in schemas/: keys, enums and docs for completion and hover
    noun: str = "id"  # what a definition's identifier is called in messages ("name")
    versioned: bool = False  # whether references pin versions (semver resolution)
    # References to this kind name a file by its path, and the format's cross check reads the
    # file system to report a missing one: the index's "unknown name" (EY301) stays silent, so
    # a file the index does not hold (excluded, over the size limit) is not called missing.
    named_by_path: bool = False
    # References are written `<kind>/<id>[@pin]` (the prefix is the kind's `value`): rename and
    # did-you-mean edit the id after the slash; False: the reference is the name alone.
    qualified_refs: bool = False
    # What a valid identifier looks like (rename checks a new name); None: any plain name
    # (`is_plain_name`). `id_rule` says it to the user after "is not a valid <noun>: ".
    id_pattern: re.Pattern[str] | None = None
    id_rule: str = _PLAIN_RULE
    # A file defining one should mention its id in its file name (EY310).
    id_in_file_name: bool = False
    # How an outline shows a definition of this kind ("rubric" or "judge", `ide.SymbolKind`).
    symbol: str = "judge"
    # What a code lens over a definition counts: "cases" (cases and composite checks naming a
    # rubric), "checks" (checks naming a judge), "files" (files naming it).
    usage: str = "files"
    # Its definitions carry measured agreement (TPR, TNR, validated_at), shown on hover.
    calibrated: bool = False
    # Its files list cases (a format's items): outlines and workspace symbols show them.
    lists_cases: bool = True
    # The dependency graph draws each case as a node of its own.
    graph_cases: bool = False
    # JSON path of the items that may name a configured bundle (completion offers the
    # bundles' names and properties there); None: its files name no bundle.
    bundle_items: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        _FORMAT_KINDS.setdefault((self.format, self.value), self)

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        # One object per kind in every process, as with the enum: analyses come back from the
        # CLI's and the server's worker processes pickled, and kinds are compared with `is`.
        return _format_kind, (self.format, self.value)


_FORMAT_KINDS: dict[tuple[str, str], FormatKind] = {}


def _format_kind(format_name: str, value: str) -> FormatKind:
    return _FORMAT_KINDS[(format_name, value)]


Kind = FileKind | FormatKind


def valid_id(name: str, kind: Kind) -> bool:
    """Whether `name` may be a `kind`'s identifier (a rename's new name): the kind's pattern,
    else anything that needs no quoting or escaping where it is written, YAML or JSON (Padosoft
    dataset names are dotted: `rag.factuality.fy2026`)."""
    pattern = kind.id_pattern
    return bool(pattern.match(name)) if pattern is not None else is_plain_name(name)

_PLAIN_NAME = lazy_re(r"[A-Za-z0-9_][A-Za-z0-9_.@+/-]*")


def is_plain_name(name: str) -> bool:
    """Whether a name can be written as it is in a plain YAML scalar and inside a JSON string:
    what rename and did-you-mean fixes may write without quoting or escaping (a name with a
    space, a quote, a backslash, `#` or `: ` would change meaning or break the file)."""
    return _PLAIN_NAME.fullmatch(name) is not None


_MODELINE = re.compile(r"^\s*#\s*yaml-language-server\s*:\s*\$schema=(\S+)")


def modeline_schema(text: str) -> str | None:
    """The schema a `# yaml-language-server: $schema=...` modeline names. Only the leading
    comment block counts, the way yaml-language-server reads it."""
    for line in text[:8192].lstrip("\ufeff").splitlines()[:50]:
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            return None
        match = _MODELINE.match(stripped)
        if match:
            return match.group(1)
    return None
