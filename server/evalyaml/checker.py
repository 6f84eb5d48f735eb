"""What `evalyaml check` does: find files, analyse each, and collect located findings.

Kept apart from `cli` so tests and other front ends get findings as data, not text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from evalyaml.analysis.analyze import analyze_bytes
from evalyaml.analysis.findings import Finding
from evalyaml.analysis.kinds import FileKind
from evalyaml.analysis.model import FileAnalysis
from evalyaml.config import Config, find_root, load_config
from evalyaml.workspace.discovery import discover


class CheckError(Exception):
    """A usage or I/O problem that stops the check (exit code 2)."""


@dataclass(slots=True)
class FileReport:
    path: Path
    findings: list[Finding]


@dataclass(slots=True)
class CheckResult:
    reports: list[FileReport] = field(default_factory=list)
    files_checked: int = 0
    analyses: list[FileAnalysis] = field(default_factory=list)

    def all_findings(self) -> Iterable[tuple[Path, Finding]]:
        for report in self.reports:
            for finding in report.findings:
                yield report.path, finding


def workspace_config(path: Path) -> Config:
    root = find_root(path.resolve())
    if root is None:
        root = path.resolve() if path.is_dir() else path.resolve().parent
    return load_config(root)


def check_paths(
    paths: list[Path],
    *,
    strict: bool | None = None,
    today: date | None = None,
    force_kind: FileKind | None = None,
) -> CheckResult:
    result = CheckResult()
    seen_configs: set[Path] = set()
    for path in paths:
        if not path.exists():
            raise CheckError(f"no such file or directory: {path}")
    for path in paths:
        config = workspace_config(path)
        if config.source is not None and config.source not in seen_configs:
            seen_configs.add(config.source)
            if config.findings:
                result.reports.append(FileReport(config.source, list(config.findings)))
        options = config.options(today=today, strict=strict)
        files = [path] if path.is_file() else list(discover(path, config))
        for file in files:
            try:
                data = file.read_bytes()
            except OSError as err:
                if path.is_file():
                    raise CheckError(f"cannot read {file}: {err.strerror or err}") from err
                continue
            analysis = analyze_bytes(data, str(file), options, explicit=path.is_file(),
                                     forced_kind=force_kind)
            if analysis.kind is None:
                continue
            result.files_checked += 1
            result.analyses.append(analysis)
            result.reports.append(FileReport(file, analysis.findings))
    return result
