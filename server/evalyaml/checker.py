"""What `evalyaml check` does: index the workspace, then collect the findings of the files asked.

References resolve against every eval file under the workspace root (its configuration's
excludes respected), so `evalyaml check examples/mistakes` resolves against `examples/rubrics`;
but only the files the user named (or that lie in the folders they named) are reported. One
`Workspace` is built per workspace root. Kept apart from `cli` so tests and other front ends get
findings as data, not text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from evalyaml.config import Config, find_root, load_config
from evalyaml.core.findings import Finding, sort_unique
from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.formats import format_of
from evalyaml.parallel import case_mapper
from evalyaml.syntax.record import field, mutable_record
from evalyaml.workspace.index import Workspace, normalize
from evalyaml.workspace.suppress import finalise_file

_CONVENTION_FOLDERS = ("datasets", "rubrics", "judges")


class CheckError(Exception):
    """A usage or I/O problem that stops the check (exit code 2)."""


@mutable_record
class FileReport:
    path: Path
    findings: list[Finding]


@mutable_record
class CheckResult:
    reports: list[FileReport] = field(default_factory=list)
    files_checked: int = 0
    analyses: list[FileAnalysis] = field(default_factory=list)
    workspaces: list[Workspace] = field(default_factory=list)
    by_format: Counter[str] = field(default_factory=Counter)  # format title -> files checked
    left_alone: int = 0  # files read and found to be no format's: never linted
    near_misses: int = 0  # files reported only for the near miss that kept them unchecked
    # Files the user named one by one that no format claims: told, not an error.
    named_unclaimed: list[Path] = field(default_factory=list)

    def all_findings(self) -> Iterable[tuple[Path, Finding]]:
        for report in self.reports:
            for finding in report.findings:
                yield report.path, finding


def workspace_root(path: Path) -> Path:
    """The folder whose eval files references resolve against.

    The folder with the configuration file, else the enclosing git checkout, else the named
    folder (one level up when it is a `datasets/`, `rubrics/` or `judges/` folder, whose
    references point at its siblings).
    """
    absolute = normalize(path)
    found = find_root(absolute)
    if found is not None:
        return found
    start = absolute if absolute.is_dir() else absolute.parent
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start.parent if start.name in _CONVENTION_FOLDERS else start


def workspace_config(path: Path) -> Config:
    return load_config(workspace_root(path))


def group_by_workspace(paths: list[Path]) -> dict[Path, list[Path]]:
    """The named paths under the workspace root each belongs to; CheckError for a missing one
    (checked for all before any work starts)."""
    for path in paths:
        if not path.exists():
            raise CheckError(f"no such file or directory: {path}")
    groups: dict[Path, list[Path]] = {}
    for path in paths:
        groups.setdefault(workspace_root(path), []).append(normalize(path))
    return groups


def check_paths(
    paths: list[Path],
    *,
    strict: bool | None = None,
    today: date | None = None,
    force_kind: Kind | None = None,
) -> CheckResult:
    result = CheckResult()
    groups = group_by_workspace(paths)
    seen_configs: set[Path] = set()
    for root, asked in groups.items():
        workspace = Workspace([root], today=today, strict=strict, include_paths=asked,
                              force_kind=force_kind, mapper=case_mapper())
        workspace.index_all()
        result.workspaces.append(workspace)
        for source, findings in workspace.config_findings():
            if source not in seen_configs:
                seen_configs.add(source)
                result.reports.append(FileReport(source, findings))
        named_files = {p for p in asked if p.is_file()}
        for file in workspace.included_files():
            problem = workspace.problem(file)
            if problem is not None and file in named_files:
                raise CheckError(f"cannot read {file}: {problem.message}")
            analysis = workspace.analysis(file)
            if analysis is not None and analysis.kind is None:
                result.left_alone += 1
                if file in named_files:
                    result.named_unclaimed.append(file)
                continue
            findings = workspace.findings(file)
            if analysis is not None and analysis.kind is not None:
                result.files_checked += 1
                if analysis.findings and all(f.code == "EY312" for f in analysis.findings):
                    result.near_misses += 1
                else:
                    result.by_format[format_of(analysis.kind).title] += 1
                result.analyses.append(analysis)
            if analysis is not None or findings:
                result.reports.append(FileReport(file, findings))
        _report_dependents(workspace, named_files, result)
    return result


def _report_dependents(workspace: Workspace, named: set[Path], result: CheckResult) -> None:
    """Files named one by one (what pre-commit passes) can break files nobody named: a rubric's
    version bump leaves a dataset's `rubric_ref` dangling, a CSV of tests changes what a
    promptfoo config's prompts are given. Those files' cross-file findings are reported too
    (their own findings did not change); a folder named is checked whole already."""
    included = set(workspace.included_files())
    dependents = set().union(*(workspace.dependents(f) for f in named)) - included
    for file in sorted(dependents):
        analysis = workspace.analysis(file)
        if analysis is None or analysis.kind is None:
            continue
        found = finalise_file(workspace, file, sort_unique(workspace.cross_file_findings(file)),
                              analysis, complete=False)
        if found:
            result.files_checked += 1
            result.by_format[format_of(analysis.kind).title] += 1
            result.analyses.append(analysis)
            result.reports.append(FileReport(file, found))
