"""A finding is what every check produces and every front end (CLI, LSP) renders.

Findings carry their fixes as plain text edits so that the quick fixes in the editor and any
future `--fix` in the CLI apply exactly the same change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum

from evalyaml.core.codes import Severity, severity_of
from evalyaml.syntax.record import field, record
from evalyaml.syntax.text import Span


@record
class TextEdit:
    span: Span
    new_text: str


class FixSafety(Enum):
    """Whether `evalyaml check --fix` may apply a fix without a person looking.

    BY_TITLE: the CLI decides by the kind of edit, read off the title (a digest written, a
    `file://` added: safe; a did-you-mean rename: only with `--unsafe-fixes`). SAFE: the rule
    knows the edit keeps the meaning (a deprecated name's one successor). NEVER: a choice
    only the author can make (which of two right digests to keep); offered in the editor only.
    """

    BY_TITLE = "by-title"
    SAFE = "safe"
    NEVER = "never"


@record
class Fix:
    title: str
    edits: tuple[TextEdit, ...]
    preferred: bool = False
    safety: FixSafety = FixSafety.BY_TITLE


@record
class Related:
    """Another place that explains a finding; `path` is None for the same file."""

    path: str | None
    span: Span
    message: str


@record
class Finding:
    code: str
    message: str
    span: Span
    severity: Severity
    related: tuple[Related, ...] = ()
    fixes: tuple[Fix, ...] = ()
    data: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    # A finding moved with its cached case (`shifted`) remembers the finding it was moved from
    # and by how many lines, so that a front end that rendered the original once can move its
    # rendering too (`lsp.publish.Fragments`) instead of converting it again. Not part of what
    # a finding is: not compared, and not pickled (`__reduce__`).
    origin: Finding | None = field(default=None, compare=False, repr=False)
    shift: int = field(default=0, compare=False, repr=False)

    def __reduce__(self) -> tuple[type[Finding], tuple[object, ...]]:
        return Finding, (self.code, self.message, self.span, self.severity, self.related,
                         self.fixes, self.data)

    def shifted(self, lines: int) -> Finding:
        if lines == 0:
            return self
        related, fixes = self.related, self.fixes  # most findings have neither: no copies
        if related:
            related = tuple(
                Related(r.path, r.span.shifted(lines) if r.path is None else r.span, r.message)
                for r in related)
        if fixes:
            fixes = tuple(
                Fix(f.title, tuple(TextEdit(e.span.shifted(lines), e.new_text) for e in f.edits),
                    f.preferred, f.safety)
                for f in fixes)
        return Finding(self.code, self.message, self.span.shifted(lines), self.severity,
                       related, fixes, self.data, self.origin or self, self.shift + lines)


class FindingSink:
    """Collects findings and decides their severity from the mode, in one place.

    `mask` is set by a parse that recovered from a syntax error (`syntax.recover.Mask`):
    findings the blanked lines would cause are dropped here, so no rule needs to know."""

    __slots__ = ("findings", "mask", "strict")

    def __init__(self, *, strict: bool) -> None:
        self.strict = strict
        self.findings: list[Finding] = []
        self.mask: Callable[[str, str, Span], bool] | None = None

    def add(
        self,
        code_id: str,
        message: str,
        span: Span,
        *,
        related: tuple[Related, ...] = (),
        fixes: tuple[Fix, ...] = (),
        data: dict[str, str] | None = None,
    ) -> None:
        if self.mask is not None and self.mask(code_id, message, span):
            return
        self.findings.append(
            Finding(
                code_id,
                message,
                span,
                severity_of(code_id, strict=self.strict),
                related,
                fixes,
                data or {},
            )
        )


def sort_unique(found: Iterable[Finding]) -> list[Finding]:
    """Findings in file order (start, end, code, message), the first of equal ones kept.

    The keys are flat tuples of ints and strings, compared and hashed in C: a dataset with
    17,000 findings is sorted on every keystroke, and tuples of `Position` objects would call
    their dataclass `__eq__`/`__lt__`/`__hash__` in Python for each comparison."""
    keyed: dict[tuple[int, int, int, int, str, str], Finding] = {}
    for finding in found:
        span = finding.span
        start, end = span.start, span.end
        keyed.setdefault((start.line, start.character, end.line, end.character, finding.code,
                          finding.message), finding)
    return [keyed[key] for key in sorted(keyed)]
