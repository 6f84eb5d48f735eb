"""A new format is its package and one registration: nothing in the engine changes.

This test builds a copy of `server/evalyaml`, adds a throwaway format package (`formats/toy`:
its own suffix, kind, codes, rules, definitions, references and completion) and registers it
with one import and one entry in `formats/__init__.py`, the only existing file it touches. Then
the real CLI and the real language server, run from that copy, must discover its files, report
its codes at their places (beside a YAML syntax error too), resolve its names across files with
did-you-mean, navigate to them, complete its values and watch its suffix. If any of these needed
an edit outside the package, this test fails, and "How to add a format" in ARCHITECTURE.md
would be untrue.
"""

from __future__ import annotations

import asyncio
import difflib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "server" / "evalyaml"

TOY_CODES = '''\
"""The toy tool's codes."""

from evalyaml.core.codes import LOCAL, Code, CodeClass

CODES: tuple[Code, ...] = (
    Code("EYTY001", "toy-unknown-key", CodeClass.BROKEN, "A key the toy tool does not read.",
         LOCAL),
    Code("EYTY002", "toy-colour", CodeClass.CONTRACT, "A colour the toy tool cannot paint.",
         LOCAL),
)
'''

TOY_FORMAT = '''\
"""A throwaway format: `*.toy` files that start with `toy:`, name themselves and use others."""

from __future__ import annotations

from evalyaml.core.codes import Code
from evalyaml.core.findings import FindingSink
from evalyaml.core.incremental import CaseCache, CaseMapper
from evalyaml.core.kinds import FormatKind, Kind
from evalyaml.core.model import Definition, FileAnalysis, Reference
from evalyaml.core.options import Options
from evalyaml.core.suggest import best, best_value
from evalyaml.formats.base import Claim, Cursor, FormatBase, FormatIde, Offer, Refusal, Tier
from evalyaml.formats.toy.codes import CODES
from evalyaml.syntax.tree import Mapping, Scalar, Sequence
from evalyaml.syntax.yaml.parse import parse_text

TOY = FormatKind("toy", "toy file", None, noun="name")
KEYS = ("toy", "name", "uses", "colour")
COLOURS = ("red", "green", "blue")


def _offers(cursor: Cursor) -> list[Offer] | None:
    line = cursor.text.splitlines()[cursor.line] if cursor.text else ""
    if not line.startswith("colour:"):
        return None
    start = len(line) - len(line[len("colour:"):].lstrip()) if line.strip() != "colour:" \\
        else len(line)
    return [Offer(c, c, start, len(line)) for c in COLOURS]


class ToyFormat(FormatBase):
    name = "toy"
    title = "Toy"
    kinds: tuple[Kind, ...] = (TOY,)
    suffixes = (".toy",)
    ide = FormatIde(offers=_offers)
    codes: tuple[Code, ...] = CODES

    def claim(self, text: str, path: str | None, root: str | None) -> Claim | Refusal | None:
        return Claim(TOY, Tier.DIRECTIVE, "toy: names it") if text.startswith("toy:") else None

    def analyze(self, text: str, path: str | None, kind: Kind | None, options: Options, *,
                forced: bool = False, cache: CaseCache | None = None,
                mapper: CaseMapper | None = None) -> FileAnalysis:
        sink = FindingSink(strict=options.strict)
        result = FileAnalysis(path, TOY)
        parsed = parse_text(text, sink)
        root = parsed.documents[0] if parsed.usable and parsed.documents else None
        own = ""
        if isinstance(root, Mapping):
            for key, value in root.pairs:
                if not isinstance(key, Scalar):
                    continue
                if key.text not in KEYS:
                    hint = best(key.text, KEYS)
                    sink.add("EYTY001", f"unknown key '{key.text}'"
                             + (f"; did you mean '{hint}'?" if hint else ""),
                             parsed.lines.span(key.start, key.end))
                elif key.text == "name" and isinstance(value, Scalar):
                    own = value.text
                    result.definitions.append(Definition(
                        TOY, value.text, None, parsed.lines.span(value.start, value.end), None))
                elif key.text == "uses" and isinstance(value, Sequence):
                    for item in value.items:
                        if isinstance(item, Scalar):
                            result.references.append(Reference(
                                TOY, item.text, parsed.lines.span(item.start, item.end), "toy",
                                own, item.text, None))
                elif key.text == "colour" and isinstance(value, Scalar) \\
                        and value.text not in COLOURS:
                    hint = best_value(value.text, COLOURS)
                    sink.add("EYTY002", f"the toy tool cannot paint '{value.text}'"
                             + (f"; did you mean '{hint}'?" if hint else ""),
                             parsed.lines.span(value.start, value.end))
        result.findings = sink.findings
        return result


FORMAT = ToyFormat()
'''

FILES = {
    "alpha.toy": "toy: 1\nname: alpha\nuses: [beta, gamma]\ncolour: gren\n",
    "beta.toy": "toy: 1\nname: beta\ncolur: red\nuses: [alpah]\n",
    "broken.toy": "toy: 1\nname: broken\nshape: round\nuses: [alpha\n",
    "notes/other.yaml": "toy: 1\nname: not-a-toy-file\n",
}


def _register(registry: str) -> str:
    """One import and one entry of FORMATS: the registration ARCHITECTURE.md promises."""
    imports = ("from evalyaml.formats import agentv, apastra, contract, eee, lmeval, padosoft, "
               "promptfoo\n")
    last = "    lmeval.FORMAT,\n)\n"
    assert registry.count(imports) == 1 and registry.count(last) == 1, \
        "the registry's layout moved: update this test"
    return registry.replace(imports, imports + "from evalyaml.formats import toy\n").replace(
        last, "    lmeval.FORMAT,\n    toy.FORMAT,\n)\n")


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package with the toy format added; returns the folder to put on the path."""
    server = tmp_path_factory.mktemp("toy") / "server"
    shutil.copytree(PACKAGE, server / "evalyaml",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    toy = server / "evalyaml" / "formats" / "toy"
    toy.mkdir()
    (toy / "codes.py").write_text(TOY_CODES, encoding="utf-8")
    (toy / "__init__.py").write_text(TOY_FORMAT, encoding="utf-8")
    registry = server / "evalyaml" / "formats" / "__init__.py"
    registry.write_text(_register(registry.read_text(encoding="utf-8")), encoding="utf-8")
    return server


@pytest.fixture(scope="module")
def toy_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("toyws") / "ws"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _env(server: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(server), "PYTHONDONTWRITEBYTECODE": "1"}


def test_only_the_registry_changed(toy_server: Path) -> None:
    changed = []
    for path in sorted((toy_server / "evalyaml").rglob("*")):
        rel = path.relative_to(toy_server)
        if path.is_file() and rel.parts[:3] != ("evalyaml", "formats", "toy"):
            original = PACKAGE.parent / rel
            if not original.exists() or original.read_bytes() != path.read_bytes():
                changed.append(rel.as_posix())
    assert changed == ["evalyaml/formats/__init__.py"]
    before = (PACKAGE / "formats" / "__init__.py").read_text(encoding="utf-8").splitlines()
    after = (toy_server / "evalyaml" / "formats" / "__init__.py").read_text(
        encoding="utf-8").splitlines()
    diff = [line for line in difflib.ndiff(before, after) if line[:1] in "+-"]
    assert diff == ["+ from evalyaml.formats import toy", "+     toy.FORMAT,"]


def test_the_cli_discovers_and_checks_the_new_format(toy_server: Path,
                                                     toy_workspace: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "evalyaml", "check", ".", "--format", "json"],
                         cwd=toy_workspace, env=_env(toy_server), capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 1, run.stderr
    report = json.loads(run.stdout)
    found = sorted((Path(f["path"]).name, f["code"], f["range"]["start"]["line"],
                    f["range"]["start"]["character"], f["range"]["end"]["character"],
                    f["message"]) for f in report)
    assert [f[:5] for f in found] == [
        ("alpha.toy", "EY301", 2, 13, 18),  # gamma: defined nowhere
        ("alpha.toy", "EYTY002", 3, 8, 12),
        ("beta.toy", "EY301", 3, 7, 12),  # alpah: did you mean alpha
        ("beta.toy", "EYTY001", 2, 0, 5),
        ("broken.toy", "EY101", 3, 6, 12),
        ("broken.toy", "EYTY001", 2, 0, 5),  # kept beside the syntax error: LOCAL recovery
    ]
    messages = {(f[0], f[1]): f[5] for f in found}
    assert messages[("alpha.toy", "EYTY002")] == \
        "the toy tool cannot paint 'gren'; did you mean 'green'?"
    assert messages[("beta.toy", "EYTY001")] == "unknown key 'colur'; did you mean 'colour'?"
    assert messages[("beta.toy", "EY301")] == \
        "no toy file with name 'alpah' in the workspace; did you mean 'alpha'?"
    assert "other.yaml" not in run.stdout  # the suffix decides: a .yaml file is not a toy file


def test_the_new_codes_are_in_the_catalogue(toy_server: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", "import evalyaml.formats\nfrom evalyaml.core.codes import "
         "OWNERS, severity_of\nprint(OWNERS['EYTY001'], severity_of('EYTY001', strict=False)"
         ".name, severity_of('EYTY002', strict=False).name)"],
        env=_env(toy_server), capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout.split() == ["toy", "ERROR", "WARNING"]


async def test_the_server_serves_the_new_format(toy_server: Path, toy_workspace: Path) -> None:
    config = ClientServerConfig(server_command=[sys.executable, "-m", "evalyaml", "lsp"],
                                server_env=_env(toy_server))
    client = cast(LanguageClient, await config.start())
    registered: list[types.Registration] = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)  # type: ignore[untyped-decorator]
    def _register_capability(params: types.RegistrationParams) -> None:
        registered.extend(params.registrations)

    try:
        caps = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=True)))
        await client.initialize_session(types.InitializeParams(
            capabilities=caps, root_uri=toy_workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(toy_workspace.as_uri(), "ws")]))
        beta = (toy_workspace / "beta.toy").as_uri()
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
            beta, "yaml", 1, FILES["beta.toy"])))
        expected = [("EY301", 3, 7), ("EYTY001", 2, 0)]  # EY301 once the index is in
        assert await _published(client, beta, expected) == expected

        alpha = (toy_workspace / "alpha.toy").as_uri()
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
            alpha, "yaml", 1, FILES["alpha.toy"])))
        found = await client.text_document_definition_async(types.DefinitionParams(
            types.TextDocumentIdentifier(alpha), types.Position(2, 8)))
        assert found == [types.Location(beta, types.Range(types.Position(1, 6),
                                                          types.Position(1, 10)))]
        completion = await client.text_document_completion_async(types.CompletionParams(
            types.TextDocumentIdentifier(alpha), types.Position(3, 12)))
        items = completion.items if isinstance(completion, types.CompletionList) else completion
        assert items is not None
        assert {i.label for i in items} >= {"red", "green", "blue"}

        globs = [w["globPattern"] for r in registered
                 if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
                 for w in (r.register_options or {}).get("watchers", [])]
        assert any("toy" in str(g) for g in globs), globs
        assert await _published(client, alpha, [("EY301", 2, 13), ("EYTY002", 3, 8)]) == \
            [("EY301", 2, 13), ("EYTY002", 3, 8)]
        gamma = toy_workspace / "gamma.toy"  # created on disk: the watcher reports it
        gamma.write_text("toy: 1\nname: gamma\n", encoding="utf-8")
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(gamma.as_uri(), types.FileChangeType.Created)]))
        assert await _published(client, alpha, [("EYTY002", 3, 8)]) == [("EYTY002", 3, 8)]
    finally:
        await client.shutdown_session()
        await client.stop()  # type: ignore[no-untyped-call]


async def _published(client: LanguageClient, uri: str,
                     expected: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """The document's published (code, line, character)s once they are `expected`, else the
    last ones after 20 s."""
    seen: list[tuple[str, int, int]] = []
    for _ in range(400):
        seen = sorted((str(d.code), d.range.start.line, d.range.start.character)
                      for d in client.diagnostics.get(uri, []))
        if seen == expected:
            break
        await asyncio.sleep(0.05)
    return seen
