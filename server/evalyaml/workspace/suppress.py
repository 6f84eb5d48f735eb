"""Where findings are finalised for every front end: suppression comments and the
configuration's rules (`core.rules`) decide what is reported, and how loudly.

`Workspace.findings` calls `finalise` for the CLI and for the language server alike, so the
editor and CI never disagree about a silenced finding. A suppression that silenced nothing
(EY322, like ruff's RUF100) is only judged once the file's cross-file findings are in
(`complete`): before the index is ready, a cross-file finding it is meant for may not exist yet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from evalyaml.core.codes import CODES, Severity, severity_of
from evalyaml.core.findings import Finding, Fix, TextEdit, sort_unique
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.core.rules import Rules
from evalyaml.core.suggest import did_you_mean
from evalyaml.syntax.record import replace
from evalyaml.syntax.suppress import SUPPRESSIONS, Directive
from evalyaml.syntax.suppress import Code as Written
from evalyaml.workspace.roots import WorkspaceRoot

_NEVER_SILENCED = frozenset({"EY322", "EY323"})


def _silences(directive: Directive, finding: Finding) -> bool:
    """A line directive silences the findings that start on its line."""
    return directive.line is None or finding.span.start.line == directive.line


def _removal(directive: Directive, unused: set[str]) -> Fix:
    kept = [c.code for c in directive.codes if c.code not in unused]
    if not kept:
        return Fix("Remove unused suppression", (TextEdit(directive.removal, ""),),
                   preferred=True)
    return Fix(f"Remove {', '.join(sorted(unused))} from the suppression",
               (TextEdit(directive.inner, ", ".join(kept)),), preferred=True)


def directives_of(analysis: FileAnalysis | None) -> tuple[Directive, ...]:
    if analysis is None:
        return ()
    found = analysis.facts.get(SUPPRESSIONS, ())
    return found if isinstance(found, tuple) else ()


def finalise(found: list[Finding], directives: tuple[Directive, ...], rules: Rules,
             relative: str | None, *, strict: bool, complete: bool) -> list[Finding]:
    """`found` without what is silenced, with severity overrides applied, plus EY322/EY323 on
    the directives themselves. Returns `found` itself when nothing applies (the common case)."""
    if not directives and rules.is_default:
        return found
    used: set[tuple[int, str]] = set()
    kept: list[Finding] = []
    for finding in found:
        if not rules.enabled(finding.code, relative):
            continue
        silenced = False
        if finding.code not in _NEVER_SILENCED:
            for index, directive in enumerate(directives):
                if any(c.code == finding.code for c in directive.codes) and \
                        _silences(directive, finding):
                    used.add((index, finding.code))
                    silenced = True
        if silenced:
            continue
        level = rules.severity.get(finding.code)
        kept.append(finding if level is None or level == finding.severity
                    else replace(finding, severity=level))
    for index, directive in enumerate(directives):
        unused: set[str] = set()
        for written in directive.codes:
            if written.code not in CODES:
                if rules.enabled("EY323", relative):
                    kept.append(_own("EY323", f"unknown code '{written.code}' in suppression"
                                     f"{did_you_mean(written.code, CODES)}", written, strict,
                                     rules))
            elif complete and (index, written.code) not in used and \
                    rules.enabled(written.code, relative):
                unused.add(written.code)
        if unused and rules.enabled("EY322", relative):
            fix = _removal(directive, unused)
            for written in directive.codes:
                if written.code in unused:
                    kept.append(_own("EY322", f"unused suppression: no {written.code} finding "
                                     + ("in this file" if directive.line is None
                                        else "on the line it applies to"),
                                     written, strict, rules, fixes=(fix,)))
    return kept


def _own(code: str, message: str, written: Written, strict: bool, rules: Rules, *,
         fixes: tuple[Fix, ...] = ()) -> Finding:
    span = written.span
    level: Severity = rules.severity.get(code) or severity_of(code, strict=strict)
    return Finding(code, message, span, level, fixes=fixes)


class Rooted(Protocol):
    def root_for(self, path: Path) -> WorkspaceRoot: ...
    def options(self, path: Path) -> Options: ...


def finalise_file(workspace: Rooted, key: Path, found: list[Finding],
                  analysis: FileAnalysis | None, *, complete: bool) -> list[Finding]:
    """`finalise` for one file of `workspace`, with the rules of the root holding it.
    `complete`: the file's cross-file findings are among `found` (unused suppressions are
    judged only then)."""
    config = workspace.root_for(key).config
    try:
        relative: str | None = key.relative_to(config.root).as_posix()
    except ValueError:
        relative = None
    result = finalise(found, directives_of(analysis), config.rules, relative,
                      strict=workspace.options(key).strict, complete=complete)
    return result if result is found else sort_unique(result)
