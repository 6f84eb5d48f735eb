"""Every Eval Ever (seed 003): aggregates (`<uuid4>.json`) and their instance-level samples
(`<uuid4>_samples.jsonl`), checked per the version each file declares.

Upstream (evaleval/every_eval_ever) validates everything as its newest models whatever
`schema_version` says, places a JSONL error as `line N -> field` and never recomputes the
checksum or a `sample_hash`. This package applies the declared version's own schema
(`versions`, `schemacheck`) at the character, row by row (`rows`, cached per line in the
editor), and checks what binds an aggregate to its samples (`cross`): the file named, its
checksum and row count, every row's ids; `hashes` holds the `sample_hash` recipes real files
use, `paths` the datastore's path convention.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from evalyaml.core.codes import Code
from evalyaml.core.findings import Finding
from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.base import Claim, FormatBase, FormatIde, NamedFiles, Refusal
from evalyaml.formats.eee import detect
from evalyaml.formats.eee.codes import CODES
from evalyaml.formats.eee.kinds import AGGREGATE, SAMPLES

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper

__all__ = ["AGGREGATE", "FORMAT", "SAMPLES", "EeeFormat"]


class EeeFormat(FormatBase):
    """What discovery needs (kinds, suffixes, codes, detection); the rules load with the first
    Every Eval Ever file analysed (`analyze`), the completion tables when the editor first asks."""

    name = "eee"
    title = "Every Eval Ever"
    kinds: tuple[Kind, ...] = (AGGREGATE, SAMPLES)
    suffixes = (".json", ".jsonl")
    codes: tuple[Code, ...] = CODES

    @property
    def ide(self) -> FormatIde:
        from evalyaml.formats.eee.ide import IDE

        return IDE

    def claim(self, text: str, path: str | None, root: str | None) -> Claim | Refusal | None:
        return detect.claim(text, path, root)

    def cross_check(self, path: Path, analysis: FileAnalysis, files: NamedFiles,
                    options: Options) -> Iterable[Finding]:
        from evalyaml.formats.eee.cross import cross_check

        return cross_check(path, analysis, files, options)

    def analyze_stream(self, stream: BinaryIO, path: str | None, kind: Kind | None,
                       options: Options) -> FileAnalysis | None:
        """A samples file over the size limit, row by row in bounded memory (the engine asks
        this of a format that has it before giving up on a large file with EY107)."""
        from evalyaml.formats.eee.analyze import analyze_stream

        return analyze_stream(stream, path, kind, options)

    def analyze(self, text: str, path: str | None, kind: Kind | None, options: Options, *,
                forced: bool = False, cache: CaseCache | None = None,
                mapper: CaseMapper | None = None, whole: bool = False) -> FileAnalysis:
        """An aggregate result by result where it cuts (`byresult`), unless `whole` (what that
        must equal, for the tests)."""
        from evalyaml.formats.eee.analyze import analyze

        return analyze(text, path, kind, options, cache=cache, whole=whole)


FORMAT = EeeFormat()
