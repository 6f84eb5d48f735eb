"""The contract between the engine and a format: what a format tells the engine, as data.

The engine (analysis dispatch, workspace index, CLI summary, editor features) knows a format only
through this protocol and the registration tuple in `evalyaml.formats`. A format owns its
detection, its rules and its messages; the engine owns everything that is the same for all of
them: which syntax reads a file, choosing between claims, the symbol index and the generic
cross-file rules (unknown name with did-you-mean, no matching version, duplicate definition).

Detection reads only the path and the text, never a tree, so that a workspace full of other
tools' YAML and JSON costs a read and a few regular expressions per file, not a parse. A claim
carries a tier: a directive written in the file (`schema_version`, `$schema`, a modeline) beats a
path convention, which beats a shape. A file no format claims is never linted; a file that one
format would have claimed but for a near miss gets one finding saying so (`near_miss`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from evalyaml.syntax.record import field, record

if TYPE_CHECKING:
    from evalyaml.core.codes import Code
    from evalyaml.core.findings import Finding
    from evalyaml.core.incremental import CaseCache, CaseMapper
    from evalyaml.core.kinds import Kind
    from evalyaml.core.model import Definition, FileAnalysis, Reference
    from evalyaml.core.options import Options
    from evalyaml.syntax.text import Span


HEAD_BYTES = 65536
"""What detection reads of a file it cannot analyse whole (over the size limit, undecodable),
and the window a near miss is looked for in."""


class Tier(IntEnum):
    """How sure a claim is; the highest tier wins, then the order of `FORMATS`."""

    SHAPE = 1  # the file looks like one (narrowly: a root key and its neighbours)
    PATH = 2  # a folder or file-name convention of the format
    DIRECTIVE = 3  # the file says so: `schema_version`, `$schema`, a modeline


@record
class Claim:
    kind: Kind
    tier: Tier
    why: str  # for people reading a claim in a test or a debugger: "schema_version names it"


@record
class Refusal:
    """The file says it belongs to somebody else (a foreign `$schema` or modeline): no other
    format may claim it either."""

    why: str


@record
class NearMiss:
    """A file one format would have claimed but for one mistake; the engine reports it as EY312
    on `span` so that the author learns why nothing was checked."""

    kind: Kind
    message: str
    span: Span


@record
class KeyDoc:
    """A key the editor may offer where the schema cannot say (metadata knobs read at run
    time, say): its documentation, and a snippet for its value."""

    name: str
    doc: str
    insert: str | None = None


@record
class Cursor:
    """Where the editor asks a format for completion or hover: one file's text and analysis
    (the index's, which may be of a slightly older text), and the cursor in code points."""

    path: str | None
    kind: Kind
    text: str
    line: int
    character: int
    root: str | None  # the workspace root holding the file
    analysis: FileAnalysis | None
    # The other files, for completion that needs them (the variables a prompt file uses);
    # None where the caller has no workspace. Reads never leave the workspace roots.
    files: NamedFiles | None = None


@record
class LocalName:
    """A name scoped to one file (an AgentV test id, which `depends_on` entries of the same
    suite name): where it is written at the cursor, its definition (None when nothing in the
    file defines it) and every use; spans cover the name's characters, quotes excluded."""

    name: str
    at: Span
    definition: Span | None
    uses: tuple[Span, ...]


@record
class Offer:
    """A completion a format offers: `new_text` replaces columns [start, end) of the cursor's
    line. `kind` is "property", "value" or "variable"."""

    label: str
    new_text: str
    start: int
    end: int
    kind: str = "value"
    detail: str | None = None
    doc: str | None = None  # Markdown


@record
class Tip:
    """A format's hover: Markdown over columns [start, end) of the cursor's line."""

    markdown: str
    start: int
    end: int


@record
class SchemaUnion:
    """A `$ref` in a kind's schema to a union of closed objects chosen by one key's value (a
    rubric check's `kind`): completion and hover resolve it by that value when it is written,
    and otherwise look a key up in every member. A member's schema is `member_pointer` with its
    name; `base_pointer` is what every member shares (offered while the value is unknown)."""

    kind: Kind  # whose schema holds the members
    ref: str  # "#/$defs/check"
    members: tuple[str, ...]
    member_pointer: str  # "/$defs/check_{}"
    base_pointer: str  # "/$defs/check_base"


ReadReference = Callable[[str, "Kind", "list[Any]", "Span"], "tuple[Reference, Span | None]"]
"""(raw text, target kind, cursor path, span of the text) -> the reference and its id's span."""


@record
class FormatIde:
    """What the generic editor features need from a format, as data.

    Completion and hover of keys and enum values walk the kind's JSON Schema (`schema_file` on
    the kind); `extra_keys` adds keys a schema does not hold, per kind and JSON path of the
    mapping they belong in (items of a list are `"*"`): ("samples", "*", "metadata").

    `offers` and `hover`, when set, answer first where the format knows better than a schema
    (names found on disk, variables in a Markdown prompt, a rendered prompt): None means "not
    here", and the generic features go on. `hover` reads other files only through `files`.
    """

    extra_keys: Mapping[tuple[str, tuple[str, ...]], tuple[KeyDoc, ...]] = field(
        default_factory=dict)
    offers: Callable[[Cursor], list[Offer] | None] | None = None
    hover: Callable[[Cursor, NamedFiles], Tip | None] | None = None
    # The schema a JSON document (or JSONL row) of a kind is written against, read from its
    # text (a declared version); None falls back to the kind's `schema_file`.
    schema_of: Callable[[Kind, str], Mapping[str, Any] | None] | None = None
    # Values written where another file is named by id, per kind and JSON path of the value
    # (list items `"*"`): completion offers the index's ids of the target kind there.
    references: Mapping[tuple[str, tuple[str, ...]], Kind] = field(default_factory=dict)
    # Values a schema cannot enumerate (a pattern of alternatives), per kind and JSON path.
    values: Mapping[tuple[str, tuple[str, ...]], tuple[KeyDoc, ...]] = field(
        default_factory=dict)
    # Variables a template string may name inside `{{ }}`, per kind and JSON path of the string
    # (a judge's `template`): completion offers them there, hover documents them.
    template_variables: Mapping[tuple[str, tuple[str, ...]], tuple[KeyDoc, ...]] = field(
        default_factory=dict)
    # Keys whose value names another file by id wherever they are written in a YAML file
    # ("rubric_ref" -> rubric), and how such a value is read at the cursor (`ReadReference`).
    reference_keys: Mapping[str, Kind] = field(default_factory=dict)
    read_reference: ReadReference | None = None
    # Unions in the format's schemas resolved by a key's value (see `SchemaUnion`).
    unions: tuple[SchemaUnion, ...] = ()
    # Where a name at the cursor is defined when the index's references cannot say: a name
    # scoped to one file (an AgentV `depends_on` test id) or found by the tool's own search (a
    # target in the targets file). (path, span of the definition) or None; reads go through
    # `files`.
    definition: Callable[[Cursor, NamedFiles], tuple[str, Span] | None] | None = None
    # A name at the cursor whose definition and uses all lie in its own file (see `LocalName`):
    # references and rename answer from it, not from the index.
    local_name: Callable[[Cursor], LocalName | None] | None = None
    # A kind told by a line of the text, for a buffer no format claims yet (a new, unnamed
    # file): completion still knows what is being written. First match over all formats wins.
    shapes: tuple[tuple[re.Pattern[str], Kind], ...] = ()


class NamedFiles(Protocol):
    """The other files a format's cross check may read: the workspace's view of them.

    An open editor buffer wins over the disk, so an edit to a samples file re-checks the
    aggregate that vouches for it before anything is saved. Every read (an absent file
    included) is recorded: when that file changes, is created or is deleted, the workspace drops
    the reader's cross findings and the editor re-publishes them. Names never lead outside the
    workspace roots: `resolve` answers None for them, and reads of such a path answer None.
    """

    def resolve(self, base: Path, name: str) -> Path | None:
        """`name` (relative, or absolute) from the folder `base`, normalised; None when it
        leads outside every workspace root (through `..` or a symbolic link)."""

    def exists(self, path: Path) -> bool:
        """A file (not a folder) the workspace can read: an open buffer or a file on disk."""

    def read_bytes(self, path: Path) -> bytes | None:
        """The whole file; None when it is missing, unreadable or not a file. For big files
        prefer `open_binary`."""

    def read_text(self, path: Path) -> str | None:
        """The file as UTF-8 text (a BOM dropped); None as for `read_bytes`, or when the bytes
        are not UTF-8."""

    def open_binary(self, path: Path) -> BinaryIO | None:
        """The file as a stream, for hashing or counting a large file in bounded memory. The
        caller closes it (`with`)."""

    def analysis(self, path: Path) -> FileAnalysis | None:
        """Another indexed file's own analysis (its `facts`, definitions and references)."""

    def definitions_of(self, kind: Kind, id: str) -> list[tuple[Path, Definition]]:
        """Every definition of one id in the index (see `Workspace.definitions_of`)."""


@record
class Resolved:
    """A reference the index resolved: written in `holder`, naming `definition` in `path`."""

    holder: Path
    reference: Reference
    path: Path
    definition: Definition


class ReferenceGraph(Protocol):
    """The index's resolved references, for a format's rules about what a reference reaches
    (a composite rubric that includes composites, a cycle of them). Every file walked through
    here counts as observed: an edit to it re-runs the rules of the file that walked it."""

    def edges(self, path: Path, origin: str) -> list[Resolved]:
        """The references of one `origin` written in `path` that resolve, in file order."""

    def analysis(self, path: Path) -> FileAnalysis | None:
        """Another indexed file's own analysis."""


class Format(Protocol):
    """One eval format. Implementations are plain module-level objects, one per package."""

    @property
    def name(self) -> str:
        """Short, stable, lower case: "contract", "padosoft"; `FormatKind.format` names it."""

    @property
    def title(self) -> str:
        """For people: "Padosoft eval-harness"."""

    @property
    def kinds(self) -> tuple[Kind, ...]: ...

    @property
    def suffixes(self) -> tuple[str, ...]:
        """File name endings discovery and the file watcher must see for this format, lower
        case with the dot: (".yaml", ".yml", ".json")."""

    @property
    def named_endings(self) -> tuple[str, ...]:
        """Endings of files the format reads only when one of its files names them (promptfoo's
        CSV of tests, lm-eval's extension-less `_default_template_yaml`): never claimed alone,
        but a hook that checks changed files must pass them, so their readers are checked."""

    @property
    def ide(self) -> FormatIde: ...

    @property
    def codes(self) -> tuple[Code, ...]:
        """Every diagnostic code the format's rules report, declared in its `codes.py` with
        class, summary and recovery; the registry adds them to the catalogue."""

    def claim(self, text: str, path: str | None, root: str | None) -> Claim | Refusal | None:
        """Whether this format's conventions name the file; from the path and the text only.
        `root` is the workspace root: path conventions count only folders below it."""

    def near_miss(self, text: str, path: str | None, root: str | None) -> NearMiss | None:
        """Called only when no format claimed the file. Must be narrow: a false near miss is a
        false finding on somebody else's file."""

    def analyze(self, text: str, path: str | None, kind: Kind | None, options: Options, *,
                forced: bool = False, cache: CaseCache | None = None,
                mapper: CaseMapper | None = None) -> FileAnalysis:
        """Every finding of one file of `kind`, with the definitions and references it adds to
        the workspace. Never raises. `kind` is the claim's; it is None only for the fallback
        format (the first of `FORMATS`), offered a YAML file nobody claimed. `forced`: the user
        asked for this kind (`evalyaml validate-dataset`), whatever the file looks like. `cache`
        and `mapper` serve formats that split a large file into items (see `core.incremental`)."""

    def cross_check(self, path: Path, analysis: FileAnalysis, files: NamedFiles,
                    options: Options) -> Iterable[Finding]:
        """Findings of this file that depend on other files' content (a checksum over a
        samples file, a digest over a dataset's lines), beyond the engine's id rules. Run with
        the cross-file rules and cached like them; re-run whenever a file it read changes.
        Never raises. Most formats return ()."""

    def reference_findings(self, path: Path, analysis: FileAnalysis, resolved: list[Resolved],
                           graph: ReferenceGraph, options: Options) -> Iterable[Finding]:
        """Findings about what this file's resolved references reach, beyond the engine's own
        (EY301-EY305): `resolved` are the references the engine resolved (a case pinned to
        the newest version may be left out), `graph` walks further. Cached and re-run like
        the cross-file rules. Never raises. Most formats return ()."""

    def analyze_stream(self, stream: BinaryIO, path: str | None, kind: Kind | None,
                       options: Options) -> FileAnalysis | None:
        """A file over the size limit, read as a stream in bounded memory (line files such as
        an Every Eval Ever samples file); None: the engine reports EY107 as for any format."""


class FormatBase:
    """The defaults of `Format`'s optional hooks: a format's class inherits them and overrides
    the ones it has, so every hook the engine calls is declared here and in `Format`."""

    named_endings: tuple[str, ...] = ()

    def near_miss(self, text: str, path: str | None, root: str | None) -> NearMiss | None:
        return None

    def cross_check(self, path: Path, analysis: FileAnalysis, files: NamedFiles,
                    options: Options) -> Iterable[Finding]:
        return ()  # its cross-file rules are the engine's, by id

    def reference_findings(self, path: Path, analysis: FileAnalysis, resolved: list[Resolved],
                           graph: ReferenceGraph, options: Options) -> Iterable[Finding]:
        return ()

    def analyze_stream(self, stream: BinaryIO, path: str | None, kind: Kind | None,
                       options: Options) -> FileAnalysis | None:
        return None
