"""Render findings for people (text), programs (json), GitHub annotations and code scanning (SARIF).

The JSON form is a stable interface (documented in README.md): 0-based lines, code-point
characters, severity names. Text and annotations are 1-based, as editors and terminals expect.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

from evalyaml import __version__
from evalyaml.checker import CheckResult
from evalyaml.core.codes import CODES, Severity
from evalyaml.core.findings import Finding, Related
from evalyaml.fixes import chosen_fix, is_safe
from evalyaml.syntax.text import Span


def display_path(path: Path | str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if relative.startswith("..") else relative


def _sorted(result: CheckResult) -> list[tuple[Path, Finding]]:
    return sorted(result.all_findings(),
                  key=lambda pf: (display_path(pf[0]), pf[1].span.start, pf[1].code))


def _related_path(related: Related, owner: Path) -> str:
    return display_path(related.path if related.path is not None else owner)


def render_text(result: CheckResult) -> str:
    out: list[str] = []
    for path, finding in _sorted(result):
        start = finding.span.start
        # `[*]` as ruff marks it: `evalyaml check --fix` fixes this one.
        mark = " [*]" if chosen_fix(finding, unsafe=False) is not None else ""
        out.append(f"{display_path(path)}:{start.line + 1}:{start.character + 1}: "
                   f"{finding.severity.label} {finding.code}{mark} {finding.message}")
        for related in finding.related:
            at = related.span.start
            out.append(f"    {_related_path(related, path)}:{at.line + 1}:{at.character + 1}: "
                       f"note: {related.message}")
    counts = Counter(f.severity for _, f in result.all_findings())
    parts = [f"{counts[s]} {s.label if counts[s] == 1 else _plural(s)}"
             for s in Severity if counts[s]]
    files = f"{result.files_checked} file{'s' if result.files_checked != 1 else ''} checked"
    out.extend(_coverage(result))  # before the summary, which stays the last line
    out.extend(fixable_line(result))
    out.append(f"{', '.join(parts)} in {files}" if parts else f"No problems: {files}")
    return "\n".join(out) + "\n"


def fixable_line(result: CheckResult) -> list[str]:
    """How many findings `check --fix` (and `--unsafe-fixes`) would fix, when any."""
    safe = unsafe = 0
    for _, finding in result.all_findings():
        if chosen_fix(finding, unsafe=False) is not None:
            safe += 1
        elif chosen_fix(finding, unsafe=True) is not None:
            unsafe += 1
    if not safe and not unsafe:
        return []
    if not safe:
        return []  # as ruff: the unsafe count only beside a safe one
    more = f" ({unsafe} more with --unsafe-fixes)" if unsafe else ""
    return [f"[*] {safe} fixable with `evalyaml check --fix`{more}"]


def render_statistics(result: CheckResult) -> str:
    """`check --statistics`: one line per code, most frequent first, as ruff prints it."""
    counts: Counter[str] = Counter()
    fixable: Counter[str] = Counter()
    for _, finding in result.all_findings():
        counts[finding.code] += 1
        if chosen_fix(finding, unsafe=False) is not None:
            fixable[finding.code] += 1
    out = []
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        known = CODES.get(code)
        mark = "[*]" if fixable[code] == count else ("[-]" if fixable[code] else "   ")
        out.append(f"{count:5d}\t{code:<8}\t{mark} {known.name if known else ''}")
    return "\n".join(out) + ("\n" if out else "")


def render_kinds(result: CheckResult) -> str:
    """`check --show-kinds`: each checked file's format and kind, and the rule that recognised
    it (the claim's `why`; the contract's shapes when no format claimed it)."""
    from evalyaml.formats import FALLBACK, claim, format_of
    from evalyaml.formats.base import Claim
    from evalyaml.syntax.decode import decode

    out = []
    for analysis in sorted(result.analyses, key=lambda a: display_path(a.path or "")):
        if analysis.path is None or analysis.kind is None:
            continue
        path = Path(analysis.path)
        root = next((str(w.root_for(path).config.root) for w in result.workspaces), None)
        try:
            text, _ = decode(path.read_bytes())
        except OSError:
            text = ""
        verdict = claim(text, analysis.path, root)
        owner = format_of(analysis.kind)
        if isinstance(verdict, Claim) and verdict.kind == analysis.kind:
            why = verdict.why
        elif owner is FALLBACK:
            why = "its shape (the contract's detection: modeline, $schema, folder or keys)"
        else:
            why = "another file of its format names it as one"
        out.append(f"{display_path(path)}: {analysis.kind.value} [{owner.title}]: {why}")
    return "\n".join(out) + ("\n" if out else "")


def _coverage(result: CheckResult) -> list[str]:
    """What was checked as what, and what was not checked at all: a file no format claims is
    never linted, and a user who named one must not take the silence for a clean bill."""
    lines = [f"{display_path(path)}: notice: not checked: no eval format recognises this file "
             "(see 'What it checks' in the README)" for path in result.named_unclaimed]
    if len(result.by_format) > 1 or result.left_alone or result.near_misses:
        shown = ", ".join(f"{count} {title}" for title, count in sorted(result.by_format.items()))
        alone = result.left_alone
        left = f"{alone} YAML/JSON file{'s' if alone != 1 else ''} left alone as not eval files"
        missed = result.near_misses
        near = f"; {missed} near miss{'es' if missed != 1 else ''} not checked (EY312)" \
            if missed else ""
        lines.append(f"Checked by format: {shown or 'none'}{near}; {left}")
    return lines


def _plural(severity: Severity) -> str:
    return {"error": "errors", "warning": "warnings", "information": "information",
            "hint": "hints"}[severity.label]


def _range(span: Span) -> dict[str, Any]:
    return {"start": {"line": span.start.line, "character": span.start.character},
            "end": {"line": span.end.line, "character": span.end.character}}


def render_json(result: CheckResult) -> str:
    items = []
    for path, finding in _sorted(result):
        item: dict[str, Any] = {
            "path": display_path(path),
            "range": _range(finding.span),
            "severity": finding.severity.label,
            "code": finding.code,
            "message": finding.message,
        }
        if finding.related:
            item["related"] = [{"path": _related_path(r, path), "range": _range(r.span),
                                "message": r.message} for r in finding.related]
        if finding.fixes:
            item["fixes"] = [{"title": f.title, "safe": is_safe(finding, f),
                              "edits": [{"range": _range(e.span), "newText": e.new_text}
                                        for e in f.edits]} for f in finding.fixes]
        items.append(item)
    import json  # here: the text report, the default, does not need it (issue #27)

    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(result: CheckResult) -> str:
    levels = {Severity.ERROR: "error", Severity.WARNING: "warning",
              Severity.INFORMATION: "notice", Severity.HINT: "notice"}
    out = []
    for path, finding in _sorted(result):
        span = finding.span
        props = (f"file={_escape_property(display_path(path))},line={span.start.line + 1},"
                 f"col={span.start.character + 1},endLine={span.end.line + 1},"
                 f"endColumn={span.end.character + 1},title={_escape_property(finding.code)}")
        out.append(f"::{levels[finding.severity]} {props}::{_escape_data(finding.message)}")
    return "\n".join(out) + ("\n" if out else "")


def _sarif_uri(path: str) -> str:
    """A URI reference, as SARIF requires: relative paths percent-encoded, absolute ones
    (files outside the current folder) as file:// URIs."""
    as_path = Path(path)
    return as_path.as_uri() if as_path.is_absolute() else quote(as_path.as_posix())


def _sarif_region(span: Span) -> dict[str, int]:
    # SARIF columns are 1-based; with columnKind unicodeCodePoints they count code points.
    return {"startLine": span.start.line + 1, "startColumn": span.start.character + 1,
            "endLine": span.end.line + 1, "endColumn": span.end.character + 1}


def render_sarif(result: CheckResult) -> str:
    levels = {Severity.ERROR: "error", Severity.WARNING: "warning",
              Severity.INFORMATION: "note", Severity.HINT: "note"}
    findings = _sorted(result)
    used = sorted({f.code for _, f in findings})
    rules = [{"id": c, "name": CODES[c].name, "shortDescription": {"text": CODES[c].summary},
              "helpUri": CODES[c].doc_url} for c in used]
    results = []
    for path, finding in findings:
        entry: dict[str, Any] = {
            "ruleId": finding.code,
            "ruleIndex": used.index(finding.code),
            "level": levels[finding.severity],
            "message": {"text": finding.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _sarif_uri(display_path(path))},
                "region": _sarif_region(finding.span)}}],
        }
        if finding.related:
            entry["relatedLocations"] = [
                {"id": n, "message": {"text": r.message}, "physicalLocation": {
                    "artifactLocation": {"uri": _sarif_uri(_related_path(r, path))},
                    "region": _sarif_region(r.span)}}
                for n, r in enumerate(finding.related)]
        results.append(entry)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "evalyaml", "version": __version__,
                                "informationUri": "https://github.com/evalyaml/evalyaml",
                                "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    import json

    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"text": render_text, "json": render_json, "github": render_github,
             "sarif": render_sarif}
