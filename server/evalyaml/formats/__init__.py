"""The formats evalyaml serves, and the one place that names them.

Adding a format is adding its package and one entry here (ARCHITECTURE.md, "How to add a
format"). The order settles ties between claims of the same tier; the first format is the
fallback offered YAML files nobody claimed (the contract: its rubric and judge shapes need a tree).
"""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING

from evalyaml.core.codes import register
from evalyaml.core.kinds import FileKind, Kind, modeline_schema
from evalyaml.formats import agentv, apastra, contract, eee, lmeval, padosoft, promptfoo
from evalyaml.formats.base import Claim, Format, NearMiss, Refusal, Tier
from evalyaml.syntax.lazyre import lazy_re

if TYPE_CHECKING:
    from collections.abc import Callable

    from evalyaml.core.incremental import CaseResult
    from evalyaml.core.options import Options


def _contract_cases(texts: list[str], options: Options) -> list[CaseResult | None]:
    """The contract's dataset rules (and jsonschema) load with the first list of cases, not
    with the registry: `evalyaml check` of a file of another format never imports them."""
    from evalyaml.formats.contract.dataset import analyze_case_texts

    return analyze_case_texts(texts, options)


def _contract_items_key(options: Options) -> str:
    from evalyaml.formats.contract.dataset import case_options_key

    return case_options_key(options)


def _contract_item_texts(text: str, path: str | None) -> list[str] | None:
    """The texts `ANALYZE_ITEMS` will be given for this document when it is a contract dataset
    laid out in cases (what the language server sends its case worker ahead, `lsp.early`)."""
    from evalyaml.formats.contract.dataset import case_texts

    verdict = claim(text, path, None)
    if isinstance(verdict, Refusal) or (
            verdict.kind is not FileKind.DATASET if verdict is not None
            else FALLBACK not in candidates(path)):
        return None
    return case_texts(text)


FORMATS: tuple[Format, ...] = (
    contract.FORMAT,
    padosoft.FORMAT,
    agentv.FORMAT,
    eee.FORMAT,
    apastra.FORMAT,
    promptfoo.FORMAT,
    lmeval.FORMAT,
)
FALLBACK: Format = FORMATS[0]
ANALYZE_ITEMS: Callable[[list[str], Options], list[CaseResult | None]] = _contract_cases
"""The per-item analysis the CLI's and the server's process pools run (`evalyaml.parallel`):
the contract's dataset cases, the one kind of item analysed in worker processes today. Each
result is read from line 0 of its item; the pools place them (`core.incremental.CaseMapper`)."""
ITEMS_KEY: Callable[[Options], str] = _contract_items_key
"""What those items' findings read of the options: two maps agree when their keys do."""
ITEM_TEXTS: Callable[[str, str | None], list[str] | None] = _contract_item_texts
"""A document's items as `ANALYZE_ITEMS` will be given them, or None when it has none."""

for _format in FORMATS:
    register(_format.name, _format.codes)

_BY_NAME: dict[str, Format] = {f.name: f for f in FORMATS}
# The syntax files with no suffix any format declares are read as (what evalyaml always read).
DEFAULT_SUFFIX = ".yaml"
SUFFIXES: frozenset[str] = frozenset(s for f in FORMATS for s in f.suffixes)
# Prose is never read as YAML, and no format claims it from its text: editors send every
# Markdown buffer (a grader prompt is Markdown), and a README quoting a rubric or a dataset's
# `schema_version` line in a fenced block is not that file. A prose file is analysed only as the
# kind a file naming it adopts it as (`FileRef.kind`: `forced_kind` to `analyze_text`).
PROSE_SUFFIXES: frozenset[str] = frozenset({".md", ".markdown", ".txt"})
# Endings of files only read when an eval file names them (`Format.named_endings`): what a
# pre-commit hook must pass beside SUFFIXES and PROSE_SUFFIXES (.pre-commit-hooks.yaml).
NAMED_ENDINGS: frozenset[str] = frozenset(e for f in FORMATS for e in f.named_endings)


def format_of(kind: Kind) -> Format:
    return _BY_NAME[kind.format]


def suffix_of(path: str | None) -> str:
    """The suffix that decides a file's syntax and its candidate formats."""
    suffix = PurePath(path).suffix.lower() if path else ""
    return suffix if suffix in SUFFIXES else DEFAULT_SUFFIX


def candidates(path: str | None) -> tuple[Format, ...]:
    if path is not None and PurePath(path).suffix.lower() in PROSE_SUFFIXES:
        return ()
    suffix = suffix_of(path)
    return tuple(f for f in FORMATS if suffix in f.suffixes)


_SCHEMA_FILES: dict[str, Kind] = {k.schema_file: k for f in FORMATS for k in f.kinds
                                  if k.schema_file is not None}
# A modeline names a schema by its URL, whose last segment is the file name: a kind whose
# schema sits in a folder of schemas/ (promptfoo/config-schema.json) is found by that name too.
for _kind in list(_SCHEMA_FILES.values()):
    assert _kind.schema_file is not None
    _SCHEMA_FILES.setdefault(PurePath(_kind.schema_file).name, _kind)
_SCHEMA_NAME = lazy_re(r"(?:^|[/\\])([^/\\?#]+)(?:[?#].*)?$")


def claim(text: str, path: str | None, root: str | None) -> Claim | Refusal | None:
    """The strongest claim on a file: highest tier first, then the order of FORMATS. A modeline
    naming one of the schemas we ship settles it for that schema's kind; a refusal (the file
    names somebody else's schema) wins over every claim."""
    named = modeline_schema(text)
    if named is not None:
        match = _SCHEMA_NAME.search(named.strip())
        kind = _SCHEMA_FILES.get(match.group(1)) if match else None
        if kind is not None and format_of(kind) in candidates(path):
            return Claim(kind, Tier.DIRECTIVE, "its yaml-language-server modeline names it")
    best: Claim | None = None
    for fmt in candidates(path):
        verdict = fmt.claim(text, path, root)
        if isinstance(verdict, Refusal):
            return verdict
        if verdict is not None and (best is None or verdict.tier > best.tier):
            best = verdict
    return best


def near_miss(text: str, path: str | None, root: str | None) -> NearMiss | None:
    for fmt in candidates(path):
        found = fmt.near_miss(text, path, root)
        if found is not None:
            return found
    return None
