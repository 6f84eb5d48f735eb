"""The catalogue of diagnostic codes: the engine's own, merged with every format's.

Codes are a public interface: CI scripts filter on them, suppressions name them and
`docs/diagnostics.md` has a page for each. A code never changes meaning once released; retired
codes are not reused. Each code belongs to a *class* that, together with the strict/soft mode,
decides its severity in one place (`severity_of`), so no check hard-codes a severity.

A format declares its codes in its own package (`formats/<name>/codes.py`, `Format.codes`) and
the registry (`formats/__init__.py`) hands them to `register`, so adding a code touches one
package and its docs section. Every code also declares its `Recovery`: how its findings behave
beside a YAML syntax error that recovery blanked (`syntax.recover.Mask`). It is a required
field, so a code whose recovery nobody thought about does not construct; before, a format's code
missing from recovery's tables was silently withheld next to every syntax error.

Numbering: the engine and the first five formats hold three-digit codes by hundreds
(EY1xx syntax, EY2xx the contract, EY3xx references and the workspace, EY4xx judges, EY5xx
Padosoft, EY6xx AgentV, EY7xx Every Eval Ever, EY8xx Apastra). EY9xx stays free. Every later
format takes a two-letter tag after `EY` and numbers its codes from 001 (`EYPF001` promptfoo,
`EYLM001` lm-evaluation-harness): a code names its format at a glance, a prefix such as `EYPF`
selects one format without colliding with a three-digit block, and there is room for hundreds
of formats without renumbering anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import Enum, IntEnum

from evalyaml.syntax.record import record

DOCS_URL = "https://github.com/evalyaml/evalyaml/blob/main/docs/diagnostics.md"


class Severity(IntEnum):
    """Numbered as in LSP so the adapter needs no table."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()


class CodeClass(Enum):
    """How a code's severity follows the mode.

    BROKEN: the file or reference cannot be used at all; an error in every mode.
    CONTRACT: the file breaks the contract; a warning in soft mode, an error in strict mode.
    ADVICE: worth knowing, never blocking; information in every mode.
    HINT: a gentle nudge; a hint in every mode.
    """

    BROKEN = "broken"
    CONTRACT = "contract"
    ADVICE = "advice"
    HINT = "hint"


class Scope(Enum):
    """What a finding of a code may have read, which decides whether it can stand beside a hole
    (the blanked lines of a syntax error; `syntax.recover`).

    WHOLE: anything in its mapping (a missing key, a check's `kind`): withheld next to a hole.
    LOCAL: only the key or value it sits on, as written: kept next to a hole.
    KEY: a key's name among its sibling keys: kept on a line that owns a hole, withheld beside
        one (a sibling may have been on the broken line).
    VALUE: "missing" on the line that owns a mapping, or "this value is wrong" on the value:
        kept on a sibling key's line, withheld on an owning line.
    """

    WHOLE = "whole"
    LOCAL = "local"
    KEY = "key"
    VALUE = "value"


@record
class Recovery:
    """A code's behaviour beside a hole: its `scope`, refined by what its messages say.

    `local_when`: a WHOLE code that covers many mistakes is local when its message says the
    mistake is one value's type, enum or pattern, or a key its object does not allow.
    `missing`: the message says a key is absent ("has no 'x'"); such a finding stays beside a
    hole whose own key is known when neither the quoted names nor `silenced_by` (keys whose
    presence would silence it or select the requirement) are, or are close to, that key.
    `reads`: the few named keys of one mapping the rule reads; on a sibling line the finding
    stays when no hole's key is, or is close to, one of them.
    `hidden_when`: a LOCAL code's messages that count what a hole may hold (too few items).
    `hide_empty`: an empty value's finding is hidden (its lines may have been the hole).
    """

    scope: Scope
    local_when: re.Pattern[str] | None = None
    missing: re.Pattern[str] | None = None
    silenced_by: tuple[str, ...] = ()
    reads: tuple[str, ...] | None = None
    hidden_when: re.Pattern[str] | None = None
    hide_empty: bool = False


WHOLE = Recovery(Scope.WHOLE)
LOCAL = Recovery(Scope.LOCAL)
KEY = Recovery(Scope.KEY)
VALUE = Recovery(Scope.VALUE)


def missing(pattern: str, *silenced_by: str, scope: Scope = Scope.WHOLE) -> Recovery:
    """A code whose messages may say a key is absent (see `Recovery.missing`)."""
    return Recovery(scope, missing=re.compile(pattern), silenced_by=silenced_by)


def reads(*keys: str) -> Recovery:
    """A WHOLE code whose rule reads only these keys of its mapping."""
    return Recovery(Scope.WHOLE, reads=keys)


def local_when(pattern: str) -> Recovery:
    """A WHOLE code that is local when its message matches `pattern`."""
    return Recovery(Scope.WHOLE, local_when=re.compile(pattern))


class Fixable(Enum):
    """What kind of automatic fix a code's findings can carry, as its docs page says it.

    SAFE: `check --fix` applies it (a value computed from the files, a quote, a pin). UNSAFE: it
    changes what the file means (a did-you-mean rename), so only `--unsafe-fixes` applies it.
    EDITOR: a quick fix a person must choose; the CLI never applies it. A code may have several
    (one finding's fix is safe, another's is a guess); not every finding has one (a rename
    needs a close name). `tests/test_fix_catalogue.py` holds the declarations to the fixes the
    examples and fixtures show.
    """

    SAFE = "safe"
    UNSAFE = "unsafe"
    EDITOR = "editor"


SAFE_FIX = frozenset({Fixable.SAFE})
UNSAFE_FIX = frozenset({Fixable.UNSAFE})
EDITOR_FIX = frozenset({Fixable.EDITOR})

_FIX_WORDS = {Fixable.SAFE: "safe (`evalyaml check --fix` applies it)",
              Fixable.UNSAFE: "unsafe, it changes what the file means "
                              "(`evalyaml check --fix --unsafe-fixes` applies it)",
              Fixable.EDITOR: "in the editor only (a quick fix for a person to choose)"}


def fix_line(fixes: frozenset[Fixable]) -> str:
    """The docs page's line for a code's automatic fix, the same words for every code."""
    if not fixes:
        return "**Automatic fix:** none."
    return "**Automatic fix:** " + "; or ".join(_FIX_WORDS[f] for f in Fixable if f in fixes) + "."


CODE_PATTERN = re.compile(r"EY(?:[1-9]\d\d|[A-Z]{2}\d{3})")
"""Every code: three digits (the engine and the first five formats) or a format's two-letter
tag and three digits."""


@record
class Code:
    code: str
    name: str
    code_class: CodeClass
    summary: str
    recovery: Recovery
    fixes: frozenset[Fixable] = frozenset()

    @property
    def doc_url(self) -> str:
        return f"{DOCS_URL}#{self.code.lower()}"


def sort_key(code_id: str) -> tuple[int, str, int]:
    """The catalogue's order (and the docs page's): three-digit codes by number, then each
    tagged format's codes by tag and number."""
    if code_id[2].isdigit():
        return (0, "", int(code_id[2:]))
    return (1, code_id[2:4], int(code_id[4:]))


B, C, A, H = CodeClass.BROKEN, CodeClass.CONTRACT, CodeClass.ADVICE, CodeClass.HINT

ENGINE_CODES: tuple[Code, ...] = (
    # EY1xx: the file cannot be read as YAML (or as strict JSON / JSONL: EY110-EY113).
    Code("EY100", "unreadable-file", B, "The file is not UTF-8 text.", WHOLE),
    Code("EY101", "yaml-syntax", B, "YAML syntax error.", WHOLE),
    Code("EY102", "duplicate-key", B, "A mapping has the same key twice.", LOCAL),
    Code("EY103", "undefined-alias", B, "An alias names an anchor that does not exist.", WHOLE),
    Code("EY104", "alias-expansion-limit", B, "Aliases expand to more nodes than allowed.", WHOLE),
    Code("EY105", "nesting-limit", B, "The document nests deeper than allowed.", WHOLE),
    Code("EY106", "tab-indentation", B, "A tab is used where YAML needs spaces.", WHOLE),
    Code("EY107", "file-too-large", B, "The file is larger than the configured limit.", WHOLE),
    Code("EY108", "unsafe-tag", C, "A tag asks for an object to be constructed.", LOCAL),
    Code("EY110", "json-syntax", B, "The text is not strict JSON (RFC 8259).", WHOLE,
         fixes=frozenset({Fixable.SAFE, Fixable.UNSAFE})),
    Code("EY111", "json-duplicate-key", B, "A JSON object has the same member name twice.", WHOLE),
    Code("EY112", "json-non-finite-number", B, "NaN or Infinity where JSON needs a number.",
         WHOLE),
    Code("EY113", "json-trailing-comma", B,
         "A comma after the last item of a JSON array or object.", WHOLE, fixes=SAFE_FIX),
    # EY3xx: references and the workspace, the same for every format.
    Code("EY301", "unknown-reference", B, "A reference names an id that is not defined.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EY302", "no-matching-version", B, "No version of the id matches the pin.", LOCAL),
    Code("EY303", "unpinned-reference", C, "A reference has no version pin.", LOCAL,
         fixes=frozenset({Fixable.SAFE, Fixable.EDITOR})),
    Code("EY304", "newer-version", A, "A newer version exists than the one pinned.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EY305", "duplicate-definition", B, "Two files define the same id and version.", WHOLE),
    # Any kind whose files name themselves (`id_in_file_name`): a generic rule of the engine.
    Code("EY310", "file-name-mismatch", H,
         "The file name does not mention the id it defines.", WHOLE),
    Code("EY311", "unreadable-workspace-file", C, "A file in the workspace could not be read.",
         WHOLE),
    Code("EY312", "unrecognised-near-miss", C,
         "A file looks like one of a format's files but one mistake kept it from being checked.",
         WHOLE),
    Code("EY320", "unknown-config-key", C, "The configuration has a key evalyaml does not know.",
         WHOLE),
    Code("EY321", "invalid-config", B, "The configuration has a value of the wrong type.", WHOLE),
    Code("EY322", "unused-suppression", C,
         "A suppression comment names a code that has no finding where it applies.", LOCAL,
         fixes=SAFE_FIX),
    Code("EY323", "unknown-suppressed-code", C,
         "A suppression comment or the configuration names a code evalyaml does not have.",
         LOCAL),
)
"""The engine's own codes: syntax (EY1xx) and the generic reference, workspace and
configuration rules (EY301-EY305, EY311, EY312, EY320, EY321) and suppressions (EY322,
EY323). Format codes live in their packages."""

CODES: dict[str, Code] = {}
"""Every registered code, in `sort_key` order."""

OWNERS: dict[str, str] = {}
"""Code -> the name of the format that declared it ("engine" for the engine's own)."""


def register(owner: str, codes: Iterable[Code]) -> None:
    """Add one owner's codes to the catalogue. A code's id is well formed and unique: two
    formats may not declare the same code, and a name means one code. A refused call leaves
    the catalogue as it was."""
    names = {c.name: c.code for c in CODES.values()}
    merged, owners = dict(CODES), dict(OWNERS)
    for declared in codes:
        if not CODE_PATTERN.fullmatch(declared.code):
            raise ValueError(f"{owner}: malformed code {declared.code!r}")
        known = owners.get(declared.code)
        if known is not None and (known != owner or merged[declared.code] != declared):
            raise ValueError(f"{owner}: code {declared.code} is already {known}'s")
        if names.get(declared.name, declared.code) != declared.code:
            raise ValueError(f"{owner}: code name {declared.name!r} is already "
                             f"{names[declared.name]}'s")
        merged[declared.code] = declared
        names[declared.name] = declared.code
        owners[declared.code] = owner
    CODES.clear()
    CODES.update(sorted(merged.items(), key=lambda item: sort_key(item[0])))
    OWNERS.clear()
    OWNERS.update(owners)


register("engine", ENGINE_CODES)


def code(code_id: str) -> Code:
    return CODES[code_id]


def recovery_of(code_id: str) -> Recovery:
    return CODES[code_id].recovery


def severity_of(code_id: str, *, strict: bool) -> Severity:
    code_class = CODES[code_id].code_class
    if code_class is CodeClass.BROKEN:
        return Severity.ERROR
    if code_class is CodeClass.CONTRACT:
        return Severity.ERROR if strict else Severity.WARNING
    if code_class is CodeClass.ADVICE:
        return Severity.INFORMATION
    return Severity.HINT
