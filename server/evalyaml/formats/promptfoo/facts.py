"""What a promptfoo file's analysis keeps for its cross check and the editor: the files it names
(with the folder each resolves from, as promptfoo resolves it: §7.14), its inline prompts and
each test's variables. Plain picklable values: analyses come back from worker processes."""

from __future__ import annotations

from dataclasses import dataclass, field

from evalyaml.syntax.text import Span

SCRIPT_SUFFIXES = (".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".py", ".go", ".rb")


@dataclass(frozen=True, slots=True)
class Ref:
    """A path promptfoo reads. `role` decides the message when it is missing: prompt, bare-prompt
    (no `file://`: missing means "There are no prompts"), tests, tests-glob (missing means no
    tests, silently), default-test, scenario, vars, var-value, script, provider, filter."""

    role: str
    name: str  # the path as written, `file://` and `:function` removed
    span: Span  # the whole value
    function: str | None = None
    from_holder: bool = False  # relative to the file that holds it, not the config


@dataclass(frozen=True, slots=True)
class Prompt:
    """An inline prompt's text, and its span (where undefined-variable findings point)."""

    text: str
    span: Span
    label: str
    # The label and id promptfoo gives it, which a test's `prompts` names (None: not known),
    # and where they are written (the related places of EYPF023).
    names: tuple[str, ...] | None = None
    name_spans: tuple[Span, ...] = ()


@dataclass(slots=True)
class TestFacts:
    span: Span  # where findings about the whole test go
    label: str  # "test 3" or its description
    vars: dict[str, Span] | None  # None: not known here (a vars file)
    asserted: bool
    prompt_filter: bool = False
    empty: bool = False  # refused as a test (EYPF016)
    transformed: bool = False  # `options.transformVars`: may add any variable (EYPF011 quiet)
    prompt_refs: tuple[tuple[str, Span], ...] = ()  # its `prompts` list's strings
    provider_refs: tuple[tuple[str, Span], ...] = ()  # its `providers` list's strings
    scenario_vars: list[dict[str, Span] | None] = field(default_factory=list)
    # The names of `vars`, made once a test: the cross check compares every test's names with
    # the prompts' at each keystroke, and a frozenset keeps its hash. `vars` is never changed
    # after the test is made (a new TestFacts is built instead), or this would go stale.
    names: frozenset[str] | None = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.names = None if self.vars is None else frozenset(self.vars)


@dataclass(slots=True)
class ConfigFacts:
    refs: list[Ref] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    prompts_unknown: bool = False  # a function, executable or templated prompt
    prompts_default: bool = False  # no `prompts`: promptfoo runs "{{prompt}}"
    tests: list[TestFacts] = field(default_factory=list)
    default_vars: dict[str, Span] | None = field(default_factory=dict)
    default_asserted: bool = False
    default_unknown: bool = False  # defaultTest from a file
    default_transformed: bool = False  # `defaultTest.options.transformVars`: every test's
    default_prompt_refs: tuple[tuple[str, Span], ...] = ()  # `defaultTest.prompts`
    default_provider_refs: tuple[tuple[str, Span], ...] = ()  # `defaultTest.providers`
    # The config's providers as (label, id) written, which a test's `providers` names; None
    # when one is not known here (a script or file provider, a template, a `$ref`).
    provider_names: list[tuple[str | None, str]] | None = None
    tables: list[Ref] = field(default_factory=list)  # CSV / YAML tests files: vars checked
    # Each test's name (its description, or "test N"), whole span and name span: symbols.
    cases: list[tuple[str, Span, Span]] = field(default_factory=list)
    # Read from a tree recovered around a syntax error: a test's vars or a prompt may have
    # been on the blanked lines, so what every test supplies is not known unless every blanked
    # key is known (`Hole.key`, None when not) and none of them holds variables or prompts.
    recovered: bool = False
    blanked: tuple[str | None, ...] = ()
    # Findings true of this config alone (code, message, span): promptfoo merges the configs one
    # command names together (`-c base.yaml -c suite.yaml`, `combineConfigs`), so the cross check
    # reports them only when no `package.json` script names this config beside another.
    alone: list[tuple[str, str, Span]] = field(default_factory=list)
    # Where the inline `tests:` list's refs and tests sit among `refs` and `tests` (after
    # providers, prompts and defaultTest; before scenarios): `bytest` places each test's there.
    tests_at: tuple[int, int] = (0, 0)
