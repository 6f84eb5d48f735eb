"""What a promptfoo config says that only other files can confirm: every path it names exists
(globs expanded as promptfoo expands them), and every variable a prompt uses is supplied by each
test that runs it (inline tests, CSV columns, tests files), `../shared/FORMATS.md` §7.11-§7.14.
Files are read through `NamedFiles` (an open buffer wins; never outside the workspace roots);
nothing is executed."""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterable
from itertools import compress
from operator import attrgetter
from pathlib import Path, PurePath

from evalyaml.core.findings import Finding, FindingSink, Related
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.core.suggest import rank
from evalyaml.formats.base import NamedFiles
from evalyaml.formats.promptfoo import scripts
from evalyaml.formats.promptfoo.common import pairs
from evalyaml.formats.promptfoo.facts import ConfigFacts, Ref, TestFacts
from evalyaml.formats.promptfoo.kinds import CONFIG
from evalyaml.formats.promptfoo.paths import is_glob, suffix
from evalyaml.formats.promptfoo.table import columns
from evalyaml.formats.promptfoo.templates import analyse, required, split_txt
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Scalar, Sequence
from evalyaml.syntax.yaml.parse import parse_text

FACTS = "promptfoo.facts"
# Variables promptfoo gives every prompt that reads them: `env` (the environment, to Nunjucks)
# and `_conversation` (the earlier turns of the same conversation, `attachConversationVar`).
_GIVEN = frozenset({"env", "_conversation"})
# Those, and the variables promptfoo or its assertion types read on their own.
_IMPLICIT = _GIVEN | {"prompt", "query", "context", "sessionId", "assert", "options"}
_VAR_IN_CODE = re.compile(r"vars(?:\.([A-Za-z_$][\w$]*)|\[\s*['\"]([^'\"]+)['\"]\s*\])")
_TEMPLATE_NAME = re.compile(r"\{[{%][^}]*?([A-Za-z_][\w]*)")
_MAX_GLOB = 1000
_NAMES = attrgetter("names")
_SCENARIOS = attrgetter("scenario_vars")


def cross_check(path: Path, analysis: FileAnalysis, files: NamedFiles,
                options: Options) -> Iterable[Finding]:
    facts = analysis.facts.get(FACTS)
    if not isinstance(facts, ConfigFacts):
        return ()
    sink = FindingSink(strict=options.strict)
    for ref in facts.refs:
        if analysis.kind is CONFIG or ref.from_holder:
            _exists(ref, path.parent, files, sink)
    if analysis.kind is not CONFIG or _merged(path, files):
        return sink.findings
    for code, message, span in facts.alone:
        sink.add(code, message, span)
    _prompt_references(path, facts, files, sink)
    _provider_references(facts, sink)
    if not facts.recovered or _vars_intact(facts):
        _variables(path, facts, files, sink)
    return sink.findings


def _prompt_names(facts: ConfigFacts) -> list[tuple[str, ...]] | None:
    """Each prompt's label and id, as a test's `prompts` names them; None unless every prompt
    is inline with both known (a prompt file's label is its path and text, a function's
    its name: not read here)."""
    if facts.prompts_unknown or facts.prompts_default or \
            not _intact(facts, {"prompts", "raw", "label", "id"}) or any(
            ref.role in ("prompt", "bare-prompt") for ref in facts.refs):
        return None
    names = [prompt.names for prompt in facts.prompts]
    return None if not names or None in names else names  # type: ignore[return-value]


def _intact(facts: ConfigFacts, keys: set[str]) -> bool:
    """A config read whole, or recovered with none of `keys` (nor an unknown key) blanked."""
    return not facts.recovered or all(key is not None and key not in keys
                                      for key in facts.blanked)


def _prompt_matches(ref: str, names: tuple[str, ...]) -> bool:
    """promptfoo's `doesPromptRefMatch`: the label or id itself, a prefix before a final `*`,
    or the label or id followed by `:`."""
    return any(name == ref or (ref.endswith("*") and name.startswith(ref[:-1]))
               or name.startswith(f"{ref}:") for name in names)


def _prompt_references(path: Path, facts: ConfigFacts, files: NamedFiles,
                       sink: FindingSink) -> None:
    """`validateTestPromptReferences`: every name in a test's (or defaultTest's) `prompts`
    matches some prompt, or `promptfoo validate` and `eval` refuse the config; the tests of a
    YAML tests file the config names too (reported on the name). Tests of scenarios are not
    checked by promptfoo (only the suite's tests)."""
    known = _prompt_names(facts)
    if known is None:
        return
    available = sorted({name for names in known for name in names})
    where = tuple(Related(None, span, "a prompt's label or id")
                  for prompt in facts.prompts for span in prompt.name_spans)
    listed = [("defaultTest", refs) for refs in (facts.default_prompt_refs,) if refs] + \
        [(test.label, test.prompt_refs) for test in facts.tests
         if test.prompt_refs and not test.scenario_vars]
    for who, refs in listed:
        for ref, span in refs:
            _prompt_reference(who, ref, span, known, available=available, sink=sink,
                              related=where)
    for tests_ref in facts.refs:
        if tests_ref.role == "tests" and not is_glob(tests_ref.name) and \
                suffix(tests_ref.name) in (".yaml", ".yml"):
            for who, ref in _file_prompt_refs(path, tests_ref, files):
                _prompt_reference(who, ref, tests_ref.span, known, available=available,
                                  sink=sink, related=where)


def _prompt_reference(who: str, ref: str, span: Span, known: list[tuple[str, ...]], *,
                      available: list[str], sink: FindingSink,
                      related: tuple[Related, ...]) -> None:
    if any(_prompt_matches(ref, names) for names in known):
        return
    ranked = rank(ref, available)
    hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
    sink.add("EYPF023", f"{who} references prompt \"{ref}\" which does not exist (no prompt "
             "has it as its label or id): promptfoo validate and eval refuse the config "
             f"(available prompts: [{', '.join(available)}]){hint}", span, related=related)


def _file_prompt_refs(path: Path, ref: Ref, files: NamedFiles) -> list[tuple[str, str]]:
    """(who, name) for each string in the `prompts` of a YAML tests file's tests; who names
    the test by its place in the file, as EYPF011 does for such a file."""
    target = files.resolve(path.parent, ref.name)
    text = files.read_text(target) if target is not None else None
    if text is None or "prompts" not in text:
        return []
    parsed = parse_text(text, FindingSink(strict=False))
    root = parsed.documents[0] if parsed.ok and len(parsed.documents) == 1 else None
    if not isinstance(root, Sequence):
        return []
    out: list[tuple[str, str]] = []
    for index, item in enumerate(root.items):
        names = item.get("prompts") if isinstance(item, Mapping) else None
        if not isinstance(names, Sequence):
            continue
        line = parsed.lines.position(item.start).line + 1
        out.extend((f"test {index + 1} of '{ref.name}' (line {line})", name.value)
                   for name in names.items
                   if isinstance(name, Scalar) and isinstance(name.value, str))
    return out


def _provider_may_match(ref: str, label: str | None, ident: str) -> bool:
    """promptfoo's `doesProviderRefMatch` against a provider's label, and, for its id, any ref
    its id at run time might answer: a provider class may rewrite the id it was written with
    (`openai:chat:x` runs as `openai:x`), but keeps its head (`openai`), so a ref with the
    same head, or a `*` prefix that could reach it, is never reported."""
    if label is not None and (label == ref or label.startswith(f"{ref}:") or (
            ref.endswith("*") and label.startswith(ref[:-1]))):
        return True
    head = ident.split(":", 1)[0]
    if ref.endswith("*"):
        prefix = ref[:-1]
        return ident.startswith(prefix) or prefix[:len(head)] == head[:len(prefix)]
    return ref.split(":", 1)[0] == head


def _provider_references(facts: ConfigFacts, sink: FindingSink) -> None:
    """`validateTestProviderReferences`: every name in a test's (or defaultTest's) `providers`
    matches some provider of the config (its label or id), or `promptfoo validate` and `eval`
    refuse the config. Judged only when every provider's id is a registry id written out."""
    known = facts.provider_names
    if not known or not _intact(facts, {"providers", "targets", "label", "id"}):
        return
    names = sorted({n for label, ident in known for n in (label, ident) if n})
    listed = [("defaultTest", refs) for refs in (facts.default_provider_refs,) if refs] + \
        [(test.label, test.provider_refs) for test in facts.tests if test.provider_refs]
    for who, refs in listed:
        for ref, span in refs:
            if any(_provider_may_match(ref, label, ident) for label, ident in known):
                continue
            ranked = rank(ref, names)
            hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
            sink.add("EYPF023", f"{who} references provider \"{ref}\" which does not exist (no "
                     "provider has it as its label or id): promptfoo validate and eval refuse "
                     f"the config (the config's providers: {', '.join(names)}){hint}", span)


def _merged(path: Path, files: NamedFiles) -> bool:
    """Whether a `package.json` in the config's folder or above (inside the roots) runs it
    together with another config (`promptfoo eval -c base.yaml -c suite.yaml`): promptfoo
    merges them (`combineConfigs`), so a part's providers, prompts, defaultTest and variables
    are the whole's, and what needs the whole (EYPF003, EYPF011, EYPF012) is not judged."""
    packages: list[tuple[PurePath, str]] = []
    folder: Path | None = path.parent
    while folder is not None:
        package = files.resolve(folder, scripts.PACKAGE)
        if package is None:
            break
        text = files.read_text(package)
        if text is not None and "promptfoo" in text:
            packages.append((folder, text))
        folder = folder.parent if folder.parent != folder else None
    return bool(packages) and scripts.merged_with_others(PurePath(path), packages)


_HOLDS_VARIABLES = frozenset({"prompts", "prompt", "vars", "defaultTest", "tests", "scenarios",
                              "config", "raw", "content", "messages"})


def _vars_intact(facts: ConfigFacts) -> bool:
    """A recovered config whose blanked keys are all known and hold no prompt or variable."""
    return all(key is not None and key not in _HOLDS_VARIABLES for key in facts.blanked)


def _expand(base: Path, name: str, files: NamedFiles) -> list[Path] | None:
    """The files a glob matches inside the workspace roots; None when it leads outside."""
    if files.resolve(base, name.split("*", 1)[0] or ".") is None:
        return None
    found: list[Path] = []
    for match in glob.iglob(os.path.join(str(base), name), recursive=True):
        target = files.resolve(base, os.path.relpath(match, base))
        if target is not None and os.path.isfile(target):
            found.append(target)
        if len(found) >= _MAX_GLOB:
            break
    return found


_MISSING = {
    "prompt": "prompt file not found: '{n}' (relative to the config's folder): promptfoo fails "
              "with \"ENOENT: no such file or directory\"",
    "tests": "tests file not found: '{n}' (relative to the config's folder): promptfoo fails "
             "with \"ENOENT: no such file or directory\"",
    "tests-glob": "no tests file matches '{n}' (relative to the config's folder): promptfoo "
                  "logs \"No test files found\" and runs no tests from it",
    "default-test": "defaultTest file not found: '{n}': promptfoo fails with \"File does not "
                    "exist\"",
    "scenario": "scenario file not found: '{n}': promptfoo fails with \"File does not exist\"",
    "vars": "vars file not found: '{n}' (relative to the file holding the test): promptfoo "
            "fails loading the test",
    "var-value": "no file matches '{n}' (relative to the config's folder): the eval fails with "
                 "\"No files found for variable\"",
    "script": "script not found: '{n}' (relative to the config's folder): the test errors with "
              "\"File does not exist\" when it runs",
    "provider": "provider file not found: '{n}' (relative to the config's folder): the "
                "provider fails when it is called",
    "filter": "nunjucks filter file not found: '{n}' (relative to the config's folder): "
              "promptfoo cannot load the filter",
}


def _exists(ref: Ref, base: Path, files: NamedFiles, sink: FindingSink) -> None:
    if is_glob(ref.name):
        found = _expand(base, ref.name, files)
        if found is None:
            _outside(ref, sink)
        elif not found:
            if ref.role in ("prompt", "bare-prompt"):
                sink.add("EYPF009", f"no file matches '{ref.name}': promptfoo then uses the text "
                         f"'{ref.name}' itself as the prompt, silently", ref.span)
            else:
                role = "tests-glob" if ref.role == "tests" else ref.role
                sink.add("EYPF009", _MISSING.get(role, _MISSING["tests"]).format(n=ref.name),
                         ref.span)
        return
    target = files.resolve(base, ref.name)
    if target is None:
        _outside(ref, sink)
        return
    if files.exists(target) or target.is_dir():
        return
    if ref.role == "bare-prompt":
        sink.add("EYPF020", f"promptfoo reads '{ref.name}' as a prompt file path (one line with "
                 "'/', '*', '\\' or a file-like ending), and there is no such file: validate "
                 f"fails with \"There are no prompts in \\\"{ref.name}\\\"\"; write it on two "
                 "lines (a block scalar) if it is the prompt's text", ref.span)
        return
    role = ref.role
    if role == "tests" and suffix(ref.name) in (".yaml", ".yml"):
        role = "tests-glob"
    sink.add("EYPF009", _MISSING.get(role, _MISSING["tests"]).format(n=ref.name), ref.span)


def _outside(ref: Ref, sink: FindingSink) -> None:
    sink.add("EYPF010", f"'{ref.name}' leads outside the workspace: evalyaml does not follow it",
             ref.span)


class _PromptVars:
    __slots__ = ("label", "names")

    def __init__(self, label: str, names: dict[str, object]) -> None:
        self.label = label
        self.names = names


def _prompts(path: Path, facts: ConfigFacts, files: NamedFiles
             ) -> tuple[list[_PromptVars], set[str] | None] | None:
    """Each prompt's required variables, and every name any prompt reads; None when a prompt
    cannot be known (a function, an executable, a glob). The names are None when a prompt file
    is missing: what it would have read is unknown."""
    if facts.prompts_unknown:
        return None
    out: list[_PromptVars] = []
    used: set[str] = set()
    complete = True
    if facts.prompts_default:
        out.append(_PromptVars("{{prompt}}", {"prompt": None}))
    for prompt in facts.prompts:
        uses, _ = analyse(prompt.text)
        used.update(u.name for u in uses)
        out.append(_PromptVars(f"'{prompt.label}'", dict(required(uses))))
    for ref in facts.refs:
        if ref.role not in ("prompt", "bare-prompt"):
            continue
        if is_glob(ref.name):
            return None
        target = files.resolve(path.parent, ref.name)
        text = files.read_text(target) if target is not None else None
        if text is None:
            complete = False  # reported as missing; its variables cannot be known
            continue
        pieces = split_txt(text) if suffix(ref.name) == ".txt" else [(0, text)]
        for number, (_, body) in enumerate(pieces, 1):
            uses, _ = analyse(body)
            used.update(u.name for u in uses)
            label = f"{ref.name}" + (f" #{number}" if len(pieces) > 1 else "")
            out.append(_PromptVars(label, dict(required(uses))))
    return out, used if complete else None


def _variables(path: Path, facts: ConfigFacts, files: NamedFiles, sink: FindingSink) -> None:
    if facts.default_vars is None:
        return
    known = _prompts(path, facts, files)
    if known is None:
        return
    prompts, used = known
    if facts.recovered and any(key in p.names for key in facts.blanked for p in prompts):
        return  # the blanks removed a variable some prompt reads
    if facts.default_transformed:
        # `defaultTest.options.transformVars` runs for every test (its options merged under
        # the test's) and may add any variable: none is missing, and its script reads them.
        return
    default = set(facts.default_vars)
    # EYPF012 (a variable no prompt reads) is said only when every prompt is known and no
    # script or provider may read variables; a name some prompt reads or promptfoo fills in
    # is never one, and the config's code and templates are searched only past those.
    unused_said = used is not None and not any(r.role in ("script", "provider")
                                               for r in facts.refs)
    read = (used or set()) | _IMPLICIT
    # Tests mostly write the same names (a 10,000-test config has a few sets of them): each set
    # is compared with the prompts' once, and only the tests writing a set that lacks a variable
    # or holds one nobody reads are visited (picked at C speed); all of them when a test has
    # scenarios, which add names of their own.
    written: set[frozenset[str] | None] = set(map(_NAMES, facts.tests))
    memo = {names: _missing(prompts, default | names) for names in written if names is not None}
    unread_sets = {names for names in memo if not names <= read} if unused_said else set()
    trouble = {names for names, missing in memo.items() if missing} | unread_sets
    tests: Iterable[TestFacts] = facts.tests if any(map(_SCENARIOS, facts.tests)) else \
        compress(facts.tests, map(trouble.__contains__, map(_NAMES, facts.tests)))
    unread: list[dict[str, Span]] = []
    for test in tests:
        names = test.names
        if names is None or test.vars is None:
            continue
        if memo[names] or test.scenario_vars:
            _test_vars(test, names, prompts, default, sink=sink, memo=memo)
        if names in unread_sets and not test.transformed:  # its script may read them
            unread.append(test.vars)
    for ref in facts.refs:
        if ref.role == "tests" and not is_glob(ref.name):
            _file_vars(path, ref, prompts, default, files=files, sink=sink)
    if not unused_said:
        return
    if facts.default_vars:
        unread.append(facts.default_vars)
    if not any(name not in read for found in unread for name in found):
        return
    config_text = files.read_text(path) or ""
    allowed = read | {a or b for a, b in _VAR_IN_CODE.findall(config_text)} | \
        set(_TEMPLATE_NAME.findall(config_text))
    for found in unread:
        for name, span in found.items():
            if name not in allowed:
                sink.add("EYPF012", f"variable '{name}' is used by no prompt (nor any template "
                         "or script in the config)", span)


def _missing(prompts: list[_PromptVars], supplied: set[str]) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for prompt in prompts:
        names = [n for n in prompt.names if n not in supplied and n not in _GIVEN]
        if names:
            out.append((prompt.label, names))
    return out


def _describe(missing: list[tuple[str, list[str]]]) -> str:
    parts = []
    for label, names in missing:
        quoted = ", ".join(f"'{n}'" for n in names)
        parts.append(f"{quoted} (used by prompt {label})")
    return "; ".join(parts)


def _test_vars(test: TestFacts, written: frozenset[str], prompts: list[_PromptVars],
               default: set[str], *, sink: FindingSink,
               memo: dict[frozenset[str], list[tuple[str, list[str]]]]) -> None:
    """`written`: `test.names`. `memo`: what is missing for each set of names a
    test writes (a 10,000-test config has few distinct ones), so an edit's cross check is not
    10,000 times every prompt's names."""
    if test.prompt_filter or test.empty or test.transformed:
        return  # a script's `transformVars` may add any variable
    combos: list[frozenset[str]] = [written]
    if test.scenario_vars:
        if any(v is None for v in test.scenario_vars):
            return
        combos = [written | frozenset(v or ()) for v in test.scenario_vars]
    for names in combos:
        missing = memo.get(names)
        if missing is None:
            missing = memo[names] = _missing(prompts, default | names)
        if missing:
            sink.add("EYPF011", f"{test.label} does not supply {_describe(missing)}: promptfoo "
                     "renders it as an empty string", test.span)
            return


def _file_vars(path: Path, ref: Ref, prompts: list[_PromptVars], default: set[str], *,
               files: NamedFiles, sink: FindingSink) -> None:
    target = files.resolve(path.parent, ref.name)
    text = files.read_text(target) if target is not None else None
    if text is None:
        return
    ext = suffix(ref.name)
    if ext == ".csv":
        header = columns(text)
        if header is None:
            return
        supplied = {c for c in header if not c.startswith("__")}
        missing = _missing(prompts, default | supplied)
        if missing:
            sink.add("EYPF011", f"'{ref.name}' has no column for {_describe(missing)}: every "
                     "row renders it as an empty string", ref.span)
        return
    if ext not in (".yaml", ".yml"):
        return
    parsed = parse_text(text, FindingSink(strict=False))
    root = parsed.documents[0] if parsed.ok and parsed.documents else None
    if not isinstance(root, Sequence):
        return
    for index, item in enumerate(root.items):
        if not isinstance(item, Mapping):
            continue
        vars_node, options = item.get("vars"), item.get("options")
        if (vars_node is not None and not isinstance(vars_node, Mapping)) or \
                (isinstance(options, Mapping) and options.get("transformVars") is not None):
            continue
        supplied = {k.text for k, _ in pairs(vars_node)} if isinstance(vars_node, Mapping) \
            else set()
        missing = _missing(prompts, default | supplied)
        if missing:
            line = parsed.lines.position(item.start).line + 1
            sink.add("EYPF011", f"test {index + 1} of '{ref.name}' (line {line}) does not supply "
                     f"{_describe(missing)}: promptfoo renders it as an empty string", ref.span)


