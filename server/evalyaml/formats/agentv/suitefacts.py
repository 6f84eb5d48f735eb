"""What one AgentV suite's rules collect as they go: the files it names (`SuiteRef`) and
the test ids, dependencies and case summaries the format's cross check and outline need.
Apart from the rules so that the modules of rules can share it without importing each
other."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from evalyaml.core.model import CaseSummary
from evalyaml.formats.agentv.depends import Dependency
from evalyaml.syntax.record import field, mutable_record
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import PyValue

ENV = "${{"  # an AgentV environment interpolation: its value is not known here

# The names of a suite's facts in `FileAnalysis.facts`: the whole-file check, the test-by-test
# one and the editor features read and write them.
REFS = "agentv.refs"
REF_KEYS = "agentv.ref_keys"
TEST_IDS = "agentv.test_ids"
DEPENDS = "agentv.depends"

RefKey = tuple[str, str, str, str]
ref_key: Callable[[SuiteRef], RefKey] = attrgetter("role", "name", "quote", "raw")
"""The words of a reference: two with the same words are found, or not, alike (only their
spans differ), so the cross check looks each distinct one up once."""


def distinct_keys(refs: list[SuiteRef]) -> tuple[RefKey, ...]:
    """The sorted distinct `ref_key`s of `refs`, as a suite's `ref_keys` holds them."""
    return tuple(sorted(set(map(ref_key, refs))))


@mutable_record
class SuiteRef:
    """A file the suite names: `role` is `prompt` (a `file://` grader prompt), `bare-prompt`
    (a prompt string that looks like a path: sent as inline text), `cases` (`tests:` path or
    `file://` entry), `type` (an assertion type that is no built-in grader kind)."""

    role: str
    name: str
    span: Span
    quote: str = ""  # the scalar's style, for a fix that keeps it
    raw: str = ""  # the scalar's text as written
    # A prompt's test as its grader sees it (input, expected_output, criteria, effective
    # metadata, rubrics): what hover renders the prompt with. Plain values only.
    context: dict[str, PyValue] | None = None


@mutable_record
class SuiteFacts:
    refs: list[SuiteRef] = field(default_factory=list)
    test_ids: list[tuple[str, Span]] = field(default_factory=list)
    depends: list[Dependency] = field(default_factory=list)
    cases: list[CaseSummary] = field(default_factory=list)
    suite_meta: dict[str, PyValue] = field(default_factory=dict)
    suite_input_files: bool = False  # the suite has `input_files` (a list with a string)
    current: dict[str, PyValue] | None = None  # the test being checked
    # The distinct `ref_key`s of `refs`, sorted, when kept up to date test by test (`bytest`):
    # a keystroke's cross check looks these up instead of walking 10,000 references.
    ref_keys: tuple[RefKey, ...] | None = None

