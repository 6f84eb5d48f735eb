"""What the engine hands out and what it needs: a file's `Report` (its diagnostics at one
version, as last computed), the `ReportSink` reports go to on the event loop, and the
`EngineHost` the engine sees the server through (a fake host will do in a test). Kept apart
from `engine` so that the modules that only read reports need not know the engine's workings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types

from evalyaml.core.findings import Finding
from evalyaml.core.model import FileAnalysis
from evalyaml.lsp.documents import Document, DocumentStore
from evalyaml.lsp.indexing import ProgressSink
from evalyaml.lsp.positions import Encoding


@dataclass(slots=True)
class Report:
    """The diagnostics of one file at one version, as last computed."""

    uri: str
    path: Path | None
    version: int | None  # the document version (None for a closed file)
    findings: list[Finding]
    # One per finding: `Diagnostic` objects for pull clients; for push clients, parsed from
    # `payload` only when asked (code actions), since they never need the rest.
    diagnostics: Sequence[types.Diagnostic]
    key: int  # hash of `payload`: same diagnostics (ranges included), same result id
    payload: bytes = b""  # the diagnostics as JSON, as sent (`publish`), without the brackets
    result_id: str = ""
    analysis: FileAnalysis | None = None
    open: bool = True
    dependent: bool = False  # re-reported because another file changed
    quiet: bool = False  # not pushed again if the client already has these diagnostics
    serial: int | None = None  # `Document.serial` of the text analysed (None: a closed file)
    # The open text analysed: a request answered from this report maps its positions through
    # this text, never through a newer one that the findings were not computed for.
    document: Document | None = None


class ReportSink(Protocol):
    """Where reports go, on the event loop (`diagnostics.Diagnostics`)."""

    def deliver(self, report: Report) -> None: ...
    def index_installed(self) -> None: ...


class EngineHost(Protocol):
    """What the engine needs of the server (`session.EvalServer` is one): the open documents'
    latest text, the client's position encoding and whether it shows related information, a way
    onto the event loop, and the sinks for reports and progress."""

    @property
    def store(self) -> DocumentStore: ...
    @property
    def encoding(self) -> Encoding: ...
    @property
    def related_support(self) -> bool: ...
    @property
    def pull(self) -> bool: ...
    @property
    def diagnostics(self) -> ReportSink: ...
    def post(self, fn: Callable[..., None], *args: Any) -> None: ...
    def progress_reporter(self, title: str) -> ProgressSink: ...
