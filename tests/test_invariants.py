"""Invariants of the core (DESIGN §4), each with a test:

- `core/` never imports pygls or lsprotocol (nor the LSP, workspace or CLI layers);
- imports run one way, `core`/`syntax` <- `formats` <- `dispatch` <- `workspace` <- `lsp`/CLI:
  the core never imports a format, a format never imports another format nor anything above it,
  and only `formats/__init__.py` names the formats (nor, but for a shrinking list, a contract
  kind);
- analysing never raises, whatever the text, and every finding's range (and its related ranges
  and fix edits) lies inside the document with start <= end, in LSP lines and code points.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import evalyaml.core
import evalyaml.formats
from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_bytes, analyze_text
from evalyaml.formats import FORMATS as FORMAT_LIST
from evalyaml.syntax.text import Position, Span

ANALYSIS = Path(evalyaml.core.__file__).parent
PACKAGE = ANALYSIS.parent
FORMATS = Path(evalyaml.formats.__file__).parent
REPO = Path(__file__).resolve().parents[1]
FORBIDDEN = ("pygls", "lsprotocol", "evalyaml.lsp", "evalyaml.workspace", "evalyaml.cli",
             "evalyaml.checker")
OPTIONS = Options(today=date(2026, 11, 21))
STRICT = Options(today=date(2026, 11, 21), strict=True)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


# -- layering -----------------------------------------------------------------------------------

def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against evalyaml.core
                base = ["evalyaml", "analysis"][: 2 - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append((node.lineno, module))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            found.append((node.lineno, "__import__(...)"))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            found.append((node.lineno, "importlib.import_module(...)"))
    return found


def test_every_analysis_module_is_scanned() -> None:
    modules = sorted(ANALYSIS.rglob("*.py"))
    assert len(modules) >= 10
    assert ANALYSIS / "incremental.py" in modules
    assert PACKAGE / "syntax" / "yaml" / "parse.py" in _core_modules()


@pytest.mark.parametrize("module", sorted(ANALYSIS.rglob("*.py")),
                         ids=lambda p: p.relative_to(ANALYSIS).as_posix())
def test_analysis_never_imports_lsp_code(module: Path) -> None:
    bad = [(line, name) for line, name in _imports(module)
           if name.startswith(("__import__", "importlib.import_module"))
           or any(name == f or name.startswith(f + ".") for f in FORBIDDEN)]
    assert bad == [], f"{module.name} imports {bad}"


_ABOVE_FORMATS = ("evalyaml.dispatch", "evalyaml.workspace", "evalyaml.lsp", "evalyaml.cli",
                  "evalyaml.checker", "evalyaml.report", "evalyaml.config", "evalyaml.parallel")


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _core_modules() -> list[Path]:
    return sorted([*ANALYSIS.rglob("*.py"), *(PACKAGE / "syntax").rglob("*.py")])


@pytest.mark.parametrize("module", _core_modules(), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_the_core_imports_no_format(module: Path) -> None:
    bad = [(line, name) for line, name in _imports(module)
           if _under(name, ("evalyaml.formats", *_ABOVE_FORMATS))]
    assert bad == [], f"{module.name} imports {bad}"


def _format_packages() -> list[Path]:
    return sorted(p for p in FORMATS.iterdir() if p.is_dir() and (p / "__init__.py").exists())


@pytest.mark.parametrize("package", _format_packages(), ids=lambda p: p.name)
def test_a_format_imports_only_the_core_and_itself(package: Path) -> None:
    own = f"evalyaml.formats.{package.name}"
    bad = [(module.name, line, name) for module in sorted(package.rglob("*.py"))
           for line, name in _imports(module)
           if _under(name, ("pygls", "lsprotocol", *_ABOVE_FORMATS))
           or (_under(name, ("evalyaml.formats",)) and not _under(name, (own,))
               and name != "evalyaml.formats.base")]
    assert bad == [], f"{package.name} imports {bad}"


def _imported_names(path: Path) -> list[str]:
    """Every module an import names, `from a import b` giving both `a` and `a.b` (so that
    `from evalyaml.formats import contract` is seen as naming the contract's package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = [name for _, name in _imports(path)]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_only_the_registry_names_the_formats() -> None:
    names = {p.name for p in _format_packages()}
    assert {"contract", "padosoft"} <= names
    outside = [(module.relative_to(PACKAGE).as_posix(), name)
               for module in sorted(PACKAGE.rglob("*.py"))
               if FORMATS not in module.parents and module != FORMATS / "__init__.py"
               for name in _imported_names(module)
               if any(_under(name, (f"evalyaml.formats.{n}",)) for n in names)]
    assert outside == []


def test_the_import_scan_sees_a_format_imported_by_name(tmp_path: Path) -> None:
    module = tmp_path / "leak.py"
    module.write_text("from evalyaml.formats import contract\nimport evalyaml.formats.eee\n",
                      encoding="utf-8")
    names = _imported_names(module)
    assert "evalyaml.formats.contract" in names and "evalyaml.formats.eee" in names


# No module outside `formats/` names a contract kind (a `FileKind` member, or `FileKind`
# itself) but the kinds' home, which defines it: the engine asks a kind's attributes
# (`qualified_refs`, `id_pattern`, `lists_cases`, `bundle_items`, ...) and a format's
# `FormatIde`, never which kind it is (redesign step 1 of ENGINE.md). The debt list that
# tracked the move is empty and stays so: a line naming a contract kind elsewhere fails.
_CONTRACT_KIND_HOME = {(ANALYSIS / "kinds.py").relative_to(PACKAGE).as_posix(): 1}  # `Kind = ...`
_CONTRACT_KIND_DEBT: dict[str, int] = {}


def _lines_naming(path: Path, name: str) -> set[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return {node.lineno for node in ast.walk(tree)
            if (isinstance(node, ast.Name) and node.id == name)
            or (isinstance(node, ast.Attribute) and node.attr == name)
            or (isinstance(node, ast.alias) and name in (node.name, node.asname))}


def test_only_formats_name_a_contract_kind() -> None:
    found = {module.relative_to(PACKAGE).as_posix(): len(lines)
             for module in sorted(PACKAGE.rglob("*.py")) if FORMATS not in module.parents
             if (lines := _lines_naming(module, "FileKind"))}
    assert found == {**_CONTRACT_KIND_HOME, **_CONTRACT_KIND_DEBT}


def test_the_contract_kind_scan_sees_a_kind(tmp_path: Path) -> None:
    module = tmp_path / "leak.py"
    module.write_text("from evalyaml.core import kinds\nx = kinds.FileKind.RUBRIC\n"
                      "from evalyaml.core.kinds import FileKind as K\n", encoding="utf-8")
    assert _lines_naming(module, "FileKind") == {2, 3}


def test_importing_the_core_loads_no_lsp_library() -> None:
    code = ("import sys, evalyaml.dispatch, evalyaml.core.codes;"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')"
            " or m.startswith('evalyaml.lsp')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def test_the_cli_entry_loads_no_format() -> None:
    """`evalyaml lsp` answers `initialize` before the formats are imported (lsp/bootstrap.py):
    importing the CLI's module must not pull them in (it once cost 80 ms -> 720 ms of every
    editor's spawn -> initialize)."""
    code = ("import sys, evalyaml.cli;"
            "print(sorted(m for m in sys.modules if m.startswith(('evalyaml.formats', "
            "'evalyaml.syntax', 'ruamel', 'jsonschema'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "[]"


# -- analysis never raises; ranges stay inside the document ------------------------------------

def _inside(span: Span, lines: list[str]) -> bool:
    def ok(pos: Position) -> bool:
        return 0 <= pos.line < len(lines) and 0 <= pos.character <= len(lines[pos.line])
    return ok(span.start) and ok(span.end) and span.start <= span.end


def assert_well_placed(analysis: FileAnalysis, text: str) -> None:
    lines = _LINE_BREAK.split(text)
    for finding in analysis.findings:
        assert _inside(finding.span, lines), (finding, text)
        assert finding.message and finding.code.startswith("EY")
        for related in finding.related:
            if related.path is None:
                assert _inside(related.span, lines), (related, text)
        for fix in finding.fixes:
            for edit in fix.edits:
                assert _inside(edit.span, lines), (edit, text)
    for case in analysis.cases:
        assert _inside(case.span, lines)
        if case.id_span:
            assert _inside(case.id_span, lines)
    for reference in analysis.references:
        assert _inside(reference.span, lines)


PATHS = [None, "d.yaml", "rubrics/r.yaml", "judges/j.yaml", "eval/golden/g.yml",
         "eval/sets/s.json"]
MODELINES = ["", "# yaml-language-server: $schema=dataset.schema.json\n",
             "# yaml-language-server: $schema=rubric.schema.json\n"]

ALPHABET = st.sampled_from(
    [*"abcxyz019 :-_#&*!|>'\"[]{},.?%@`\\", "\n", "\r\n", "\r", "\t", "  ", "    ",
     "\u2028", "\u2029", "\u0085", "\ufeff", "😀", "表", "é", "\x00", "\x7f"])
FRAGMENTS = st.sampled_from([
    "questions:\n", "  - id: a\n", "    input: x\n", "    expected:\n", "      format: json\n",
    "    expecteed_facts: [a]\n", "    rubric_ref: rubric/x@1\n", "    criteria: |\n",
    "      text\n", "id: r\n", "version: 1.10\n", "version: '1.0.0'\n", "checks:\n",
    "  - kind: regex\n", "    pattern: '(a'\n", "  - kind: llm_judge\n", "    jury:\n",
    "      - judge_prompt_ref: judge/a@1\n", "scoring:\n", "  combine: weighted_avg\n",
    "    weight: 0\n", "template: '{{ outptu }} {{'\n", "score_type: levels\n",
    "validation:\n", "  tpr: 91\n", "  validated_at: 2020-01-01\n", "a: &x [1, 2]\n",
    "b: *x\n", "c:\n  <<: *x\n", "---\n", "...\n", "\t- tab\n", "k: 😀表\t\"q\"\r\n",
    "  - {id: b, input: [c]}\n", "x: \u2028y\n", "!!python/object:os.system x\n", "? k\n: v\n",
    # Padosoft eval-harness
    "schema_version: eval-harness.dataset.v1\n", "schema_version: eval-harness.calibration.v1\n",
    "name: rag.smoke\n", "samples:\n", "cases:\n", "    expected_output: {a: 1, b: x}\n",
    "    expected_output: [d1, 2]\n", "    metadata:\n", "      k: '10'\n",
    "      refusal_expected: no\n", "      citation_evidence:\n", "        - quote: q\n",
    "    human_verdict: Pass\n", "      tags: [a, 1]\n", "      trajectory: {max_steps: six}\n",
    '{"schema_version": "eval-harness.eval-set.v1", "name": " x", "datasets": ["a", "a", 1]}',
])
TEXTS = st.one_of(
    st.lists(ALPHABET, max_size=200).map("".join),
    st.lists(st.one_of(FRAGMENTS, st.lists(ALPHABET, max_size=6).map("".join)),
             max_size=30).map("".join),
    st.text(max_size=120),
)


FUZZ = int(os.environ.get("EVALYAML_FUZZ", "400"))  # raise it for a longer hunt


@settings(max_examples=FUZZ, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, path=st.sampled_from(PATHS), modeline=st.sampled_from(MODELINES),
       strict=st.booleans())
def test_analyze_text_never_raises_and_places_findings_inside(text: str, path: str | None,
                                                              modeline: str,
                                                              strict: bool) -> None:
    document = modeline + text
    analysis = analyze_text(document, path, STRICT if strict else OPTIONS)
    assert_well_placed(analysis, document)


@settings(max_examples=150, deadline=None)
@given(text=TEXTS, kind=st.sampled_from([k for f in FORMAT_LIST for k in f.kinds]))
def test_forced_kinds_never_raise(text: str, kind: Kind) -> None:
    analysis = analyze_text(text, "x.yaml", OPTIONS, forced_kind=kind)
    assert analysis.kind in (kind, None)
    assert_well_placed(analysis, text)


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=300), path=st.sampled_from(PATHS))
def test_analyze_bytes_never_raises(data: bytes, path: str | None) -> None:
    analysis = analyze_bytes(data, path, OPTIONS, explicit=True)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
    if analysis.findings and analysis.findings[0].code != "EY100":
        assert_well_placed(analysis, text)


EXAMPLES = sorted(p for p in (REPO / "examples").rglob("*")
                  if p.suffix in (".yaml", ".yml", ".json"))


@settings(max_examples=300, deadline=None)
@given(index=st.integers(min_value=0, max_value=max(len(EXAMPLES) - 1, 0)),
       edits=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 8), TEXTS), min_size=1,
                      max_size=4))
def test_mutated_examples_never_raise(index: int, edits: list[tuple[float, int, str]]) -> None:
    """Real files with random cuts and insertions: the half-typed states an editor sends."""
    path = EXAMPLES[index]
    text = path.read_text(encoding="utf-8")
    for where, cut, insert in edits:
        at = int(where * len(text))
        text = text[:at] + insert[:20] + text[at + cut:]
    relative = path.relative_to(REPO / "examples").as_posix()
    analysis = analyze_text(text, relative, OPTIONS)
    assert_well_placed(analysis, text)


def test_only_a_format_holds_its_codes() -> None:
    """A code is a string literal in its owner's package only: outside `formats/`, every code
    written is the engine's own (ENGINE.md: a format's rules do not leak into the engine)."""
    from evalyaml.core.codes import CODE_PATTERN, OWNERS

    strays = []
    for module in sorted(PACKAGE.rglob("*.py")):
        if "formats" in module.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    CODE_PATTERN.fullmatch(node.value) and OWNERS.get(node.value) != "engine":
                strays.append(f"{module.relative_to(PACKAGE)}:{node.lineno} {node.value}")
    assert strays == []
