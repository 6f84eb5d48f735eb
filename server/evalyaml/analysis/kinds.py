"""Which of our three kinds a file is, if any: first match wins (DESIGN §2).

1. a `# yaml-language-server: $schema=...` modeline in the leading comments;
2. a root `$schema` key;
3. the folder convention (`rubrics/`, `judges/` anywhere in the path);
4. the shape of the root mapping.

A modeline or `$schema` naming somebody else's schema settles it too: the file is theirs and
we never lint it. Shapes are deliberately narrow, because other tools' YAML (Apastra prompts
have `id` and `template`, AgentV workspaces have `template`, app settings have `validation`)
must never be mistaken for ours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import PurePath

from evalyaml.analysis.yamltree import Mapping, Node, Scalar, Sequence


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


@dataclass(frozen=True, slots=True)
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

_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.@+/-]*")


def is_plain_name(name: str) -> bool:
    """Whether a name can be written as it is in a plain YAML scalar and inside a JSON string:
    what rename and did-you-mean fixes may write without quoting or escaping (a name with a
    space, a quote, a backslash, `#` or `: ` would change meaning or break the file)."""
    return _PLAIN_NAME.fullmatch(name) is not None


_MODELINE = re.compile(r"^\s*#\s*yaml-language-server\s*:\s*\$schema=(\S+)")
_OUR_SCHEMA = re.compile(r"(?:^|[/\\])(dataset|rubric|judge)\.schema\.json(?:[?#].*)?$")
_FOLDERS = {"rubrics": FileKind.RUBRIC, "judges": FileKind.JUDGE}
_JUDGE_MARKERS = ("score_type", "level_names")
_VALIDATION_FIGURES = ("tpr", "tnr", "validated_at", "validated_against")


class NotOurs(Enum):
    """Why a file is left alone; None from `detect_kind` means we have no opinion yet."""

    FOREIGN_SCHEMA = "names another schema"


def schema_kind(reference: str) -> FileKind | NotOurs:
    match = _OUR_SCHEMA.search(reference.strip())
    return FileKind(match.group(1)) if match else NotOurs.FOREIGN_SCHEMA


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


def modeline_kind(text: str) -> FileKind | NotOurs | None:
    reference = modeline_schema(text)
    return schema_kind(reference) if reference is not None else None


def folder_kind(path: str | None, root: str | None = None) -> FileKind | None:
    """`rubrics/` or `judges/` anywhere between the workspace root and the file."""
    if not path:
        return None
    folders = PurePath(path).parts[:-1]
    if root is not None and PurePath(path).is_relative_to(root):
        # A file outside the root (named explicitly) keeps its own path: all we have.
        folders = PurePath(path).relative_to(root).parts[:-1]
    for part in reversed(folders):
        kind = _FOLDERS.get(part)
        if kind:
            return kind
    return None


def shape_kind(root: Node | None) -> FileKind | None:
    if not isinstance(root, Mapping):
        return None
    keys = {k.text for k in root.key_nodes()}
    if "questions" in keys and isinstance(root.get("questions"), Sequence):
        return FileKind.DATASET
    if {"checks", "scoring"} <= keys:
        return FileKind.RUBRIC
    if "template" in keys and (keys.intersection(_JUDGE_MARKERS) or _has_figures(root)):
        return FileKind.JUDGE
    return None


def _has_figures(root: Mapping) -> bool:
    """`validation` alone is too common a key (app settings have one); a judge's holds rates."""
    validation = root.get("validation")
    return isinstance(validation, Mapping) and any(
        k.text in _VALIDATION_FIGURES for k in validation.key_nodes())


def root_schema_kind(root: Node | None) -> FileKind | NotOurs | None:
    if isinstance(root, Mapping):
        value = root.get("$schema")
        if isinstance(value, Scalar) and value.text:
            return schema_kind(value.text)
    return None


def detect_kind(text: str, path: str | None, root: Node | None,
                workspace_root: str | None = None) -> FileKind | None:
    """The kind of a file, or None when it is not an eval file of ours."""
    for verdict in (modeline_kind(text), root_schema_kind(root)):
        if verdict is not None:
            return verdict if isinstance(verdict, FileKind) else None
    return folder_kind(path, workspace_root) or shape_kind(root)


def detect_kind_without_tree(text: str, path: str | None, workspace_root: str | None = None
                             ) -> FileKind | NotOurs | None:
    """For text that does not parse: modeline or folder only (a shape needs a tree)."""
    verdict = modeline_kind(text)
    if verdict is not None:
        return verdict
    return folder_kind(path, workspace_root)
