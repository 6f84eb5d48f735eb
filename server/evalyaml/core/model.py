"""What one file contributes to the workspace: its kind, definition, references, cases and
findings. The workspace index (`evalyaml.workspace`) joins these across files; the language
server reads them for symbols, hover and navigation.
"""

from __future__ import annotations

from datetime import date

from evalyaml.core.findings import Finding
from evalyaml.core.kinds import FormatKind, Kind
from evalyaml.syntax.record import field, mutable_record, record
from evalyaml.syntax.text import Span


@record
class Pin:
    """The `@...` part of a reference: MAJOR, MAJOR.MINOR or a full semantic version."""

    text: str
    major: int
    minor: int | None = None
    patch: int | None = None
    prerelease: str | None = None

    def __reduce__(self) -> tuple[type[Pin], tuple[object, ...]]:
        return Pin, (self.text, self.major, self.minor, self.patch, self.prerelease)

    @property
    def exact(self) -> bool:
        return self.patch is not None


@record
class Reference:
    """`rubric/<id>@<pin>` or `judge/<id>@<pin>` as written at one place in a file."""

    target: Kind  # RUBRIC or JUDGE, or another format's kind
    raw: str
    span: Span  # the whole scalar, quotes included
    origin: str  # "case", "composite", "llm_judge" or "jury"
    owner: str  # the case id or check label that holds the reference
    id: str | None  # None when malformed
    pin: Pin | None

    def __reduce__(self) -> tuple[type[Reference], tuple[object, ...]]:
        return Reference, (self.target, self.raw, self.span, self.origin, self.owner, self.id,
                           self.pin)

    def shifted(self, lines: int) -> Reference:
        if lines == 0:
            return self
        return Reference(self.target, self.raw, self.span.shifted(lines), self.origin,
                         self.owner, self.id, self.pin)


@record
class CheckSummary:
    kind: str
    id: str | None
    span: Span  # the check's first line
    description: str | None = None


@record
class Definition:
    """A rubric or judge: identity from content (`id`, `version`), never from the file name."""

    kind: Kind
    id: str
    version: str | None  # None when the version is missing or not a semantic version
    id_span: Span
    version_span: Span | None
    description: str | None = None
    checks: tuple[CheckSummary, ...] = ()
    combine: str | None = None
    score_type: str | None = None
    tpr: float | None = None
    tnr: float | None = None
    validated_at: date | None = None
    has_validation: bool = False
    # A second name the format's own tools also find the file by (Apastra resolves a suite's
    # or canary's reference by file name as well as by id): references to it resolve and
    # navigate, but it is never renamed, listed as a symbol, or a duplicate.
    alias: bool = False

    @property
    def is_composite(self) -> bool:
        return any(c.kind == "composite" for c in self.checks)

    @property
    def key(self) -> str:
        if isinstance(self.kind, FormatKind) and not self.kind.versioned:
            return f"{self.kind.value} '{self.id}'"
        return f"{self.kind.value}/{self.id}@{self.version}"


@record
class CaseSummary:
    id: str | None
    span: Span  # the whole case
    id_span: Span | None
    bundle: str | None = None
    bundle_span: Span | None = None
    detail: str | None = None  # markdown shown on hover over the id (a row's identity hash)

    def __reduce__(self) -> tuple[type[CaseSummary], tuple[object, ...]]:
        return CaseSummary, (self.id, self.span, self.id_span, self.bundle, self.bundle_span,
                             self.detail)

    def shifted(self, lines: int) -> CaseSummary:
        if lines == 0:
            return self
        return CaseSummary(
            self.id,
            self.span.shifted(lines),
            self.id_span.shifted(lines) if self.id_span else None,
            self.bundle,
            self.bundle_span.shifted(lines) if self.bundle_span else None,
            self.detail,
        )


@record
class FileRef:
    """A file this one names by path, at `span`: `candidates` are absolute paths in the order the
    format's tool searches them (the first that exists, inside the workspace roots, is the
    file). With `kind`, the workspace *adopts* the file: it analyses it as that kind for as long
    as something names it, whatever its suffix or shape (a grader prompt `.md`, a cases YAML
    list); never guessed from the file's own shape."""

    span: Span
    candidates: tuple[str, ...]
    kind: Kind | None = None
    # The candidates are glob patterns (`file://cases/*.yaml`): every match inside the roots is
    # the file (adopted, with a kind), none of them is linked.
    glob: bool = False


@mutable_record
class FileAnalysis:
    path: str | None
    kind: Kind | None  # None: not an eval file of ours, left alone
    findings: list[Finding] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    cases: list[CaseSummary] = field(default_factory=list)
    # What this file says that another file's cross check needs (an aggregate's evaluation id,
    # a manifest's digest), keyed by the format's own names. Plain picklable values only: the
    # analysis comes back from worker processes.
    facts: dict[str, object] = field(default_factory=dict)
    # Files this one names by path (a grader prompt, a cases file, a script): links and
    # go-to-definition, and adoption of those named as a kind (see `FileRef`).
    file_refs: list[FileRef] = field(default_factory=list)
