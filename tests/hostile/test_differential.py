"""Differential property test: random edit sequences against a fresh analysis.

Hypothesis writes edit scripts on the real example files: insertions of YAML fragments and
random text (emoji, CJK, tabs, NUL, CR, U+2028...), deletions, pastes of other parts of the
file, undo, whole-document replacements, several changes in one `didChange`, and requests
(hover, completion, symbols, definition, code lenses, code actions) at random places between
the edits. Each script runs against the real server over stdio (pytest-lsp), as a UTF-16 push
client, a UTF-8 push client and a UTF-16 pull client. After the script:

- the diagnostics for the final version equal those of a fresh in-process analysis of the final
  text (code, range in the client's encoding, message, severity, related information);
- a file that depends on the edited one (a dataset using an edited rubric), open alongside,
  ends with the diagnostics a fresh analysis gives it;
- every published range lies inside the text of the version it was published for, versions
  never go backwards, and every request was answered within the bound;
- after closing, the file's diagnostics go back to those of its disk copy.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
import pytest_lsp
from hypothesis import given
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from tests.hostile.edits import SCRIPTS, Script, legal
from tests.hostile.harness import (
    BOUND,
    Lines,
    compare,
    copy_examples,
    expected_keys,
    fresh_findings,
    profile,
    ranges_in,
    server_env,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

T = TypeVar("T")
EEE = "eee/data/arith-demo/acme/tiny-model/3b1f6c2e-7a4d-4e8b-9c5f-2d1e0a9b8c7d"

# ---------------------------------------------------------------------------------- clients


def _vscode(pull: bool) -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None and caps.workspace is not None
    if pull:
        caps.text_document.diagnostic = types.DiagnosticClientCapabilities(
            dynamic_registration=True, related_document_support=False)
        caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(
            refresh_support=True)
    else:
        caps.text_document.diagnostic = None
        caps.workspace.diagnostics = None
    caps.general = types.GeneralClientCapabilities(
        position_encodings=[types.PositionEncodingKind.Utf16])
    return caps


def _neovim() -> types.ClientCapabilities:
    caps = client_capabilities("neovim@v0.11.0")
    assert caps.text_document is not None
    caps.text_document.diagnostic = None
    caps.general = types.GeneralClientCapabilities(position_encodings=[
        types.PositionEncodingKind.Utf8, types.PositionEncodingKind.Utf16])
    return caps


CLIENTS: dict[str, tuple[Callable[[], types.ClientCapabilities], str, bool]] = {
    "utf16-push": (lambda: _vscode(False), "utf-16", False),
    "utf8-push": (_neovim, "utf-8", False),
    "utf16-pull": (lambda: _vscode(True), "utf-16", True),
}


def _client_factory() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]

    def publish(client_: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client_.published.append(params)  # type: ignore[attr-defined]

    def ignore(client_: LanguageClient, params: Any) -> None:
        return None

    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES,
                                   types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish,
                                   types.CLIENT_REGISTER_CAPABILITY: ignore,
                                   types.WORKSPACE_CODE_LENS_REFRESH: ignore})
    return client


SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "evalyaml", "lsp"],
    server_env=server_env(),
    client_factory=_client_factory,
)

STATS: dict[str, int] = {"scripts": 0, "edits": 0, "notifications": 0, "comparisons": 0,
                         "requests": 0, "publishes_checked": 0}


@dataclass
class Player:
    """Plays scripts against one server and checks every answer."""

    client: LanguageClient
    root: Path
    encoding: str
    pull: bool
    versions: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    texts: dict[tuple[str, int], str] = field(default_factory=dict)

    def uri(self, rel: str) -> str:
        return (self.root / rel).as_uri()

    @property
    def published(self) -> list[types.PublishDiagnosticsParams]:
        found: list[types.PublishDiagnosticsParams] = self.client.published  # type: ignore[attr-defined]
        return found

    async def bounded(self, awaitable: Awaitable[T], what: str) -> T:
        process = self.client._server
        if process is not None and process.returncode is not None:
            raise AssertionError(f"the server died (status {process.returncode})")
        try:
            return await asyncio.wait_for(awaitable, BOUND)
        except TimeoutError:
            raise AssertionError(f"hang: {what} not answered within {BOUND:.0f} s") from None

    # -- the client's side of the document -------------------------------------------------
    def open(self, rel: str, text: str) -> int:
        version = next(self.versions)
        uri = self.uri(rel)
        self.texts[(uri, version)] = text
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="yaml", version=version, text=text)))
        return version

    def send(self, uri: str, text: str, edits: list[tuple[int, int, str] | None]
             ) -> tuple[str, int]:
        """Apply edits (code-point start, end, new text; None: the whole text) in one
        `didChange`; returns the new text and version."""
        changes: list[types.TextDocumentContentChangeEvent] = []
        for edit in edits:
            if edit is None:
                changes.append(types.TextDocumentContentChangeWholeDocument(text=text))
                continue
            start, end, new = edit
            rng = Lines(text).range(start, end, self.encoding)
            changes.append(types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(**rng["start"]), types.Position(**rng["end"])),
                text=new))
            text = text[:start] + new + text[end:]
        version = next(self.versions)
        self.texts[(uri, version)] = text
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version), changes))
        STATS["edits"] += len(edits)
        STATS["notifications"] += 1
        return text, version

    # -- diagnostics -------------------------------------------------------------------------
    async def diagnostics(self, uri: str, version: int) -> list[dict[str, Any]]:
        if self.pull:
            report = await self.bounded(self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(types.TextDocumentIdentifier(uri))),
                "textDocument/diagnostic")
            assert isinstance(report, types.RelatedFullDocumentDiagnosticReport), report
            return [self._json(d) for d in report.items]
        deadline = asyncio.get_running_loop().time() + BOUND
        while True:
            last = next((p for p in reversed(self.published) if p.uri == uri), None)
            if last is not None and last.version == version:
                return [self._json(d) for d in last.diagnostics]
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"hang: no diagnostics for {uri} v{version} within "
                                     f"{BOUND:.0f} s (last: v{last and last.version})")
            await asyncio.sleep(0.01)

    @staticmethod
    def _json(diagnostic: types.Diagnostic) -> dict[str, Any]:
        data: dict[str, Any] = default_converter().unstructure(  # type: ignore[no-untyped-call]
            diagnostic)
        return data

    def expected(self, texts: dict[str, str]) -> dict[str, list[tuple[Any, ...]]]:
        found = fresh_findings(self.root, {self.root / rel: text for rel, text in texts.items()})
        out = {}
        for rel, text in texts.items():
            findings = found[self.root / rel]
            lines = Lines(text)
            for finding in findings:  # the core itself must stay inside the document
                for pos in (finding.span.start, finding.span.end):
                    problem = lines.valid(lines.core_to_lsp(pos.line, pos.character,
                                                            "utf-32"), "utf-32")
                    assert problem is None, f"fresh analysis of {rel}: {finding}: {problem}"
            out[rel] = expected_keys(findings, text, self.uri(rel), self.encoding)
        STATS["comparisons"] += len(texts)
        return out

    async def eventually(self, uri: str, version: int, expected: list[tuple[Any, ...]],
                         what: str) -> None:
        """The document's diagnostics reach `expected` within the bound (another file's
        change reaches it through a re-publish, or a refresh and a new pull)."""
        deadline = asyncio.get_running_loop().time() + BOUND
        while True:
            difference = compare(expected, await self.diagnostics(uri, version))
            if difference is None:
                return
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"{what}: stale diagnostics: {difference}")
            await asyncio.sleep(0.05)

    # -- requests ----------------------------------------------------------------------------
    async def ask(self, method: str, uri: str, text: str, where: int) -> None:
        lines = Lines(text)
        position = lines.position(where % (len(text) + 1), self.encoding)
        pos = types.Position(**position)
        doc = types.TextDocumentIdentifier(uri)
        client = self.client
        call: Awaitable[Any]
        if method == "hover":
            call = client.text_document_hover_async(
                types.HoverParams(text_document=doc, position=pos))
        elif method == "completion":
            call = client.text_document_completion_async(
                types.CompletionParams(text_document=doc, position=pos))
        elif method == "definition":
            call = client.text_document_definition_async(
                types.DefinitionParams(text_document=doc, position=pos))
        elif method == "documentSymbol":
            call = client.text_document_document_symbol_async(
                types.DocumentSymbolParams(doc))
        elif method == "codeLens":
            call = client.text_document_code_lens_async(types.CodeLensParams(doc))
        elif method == "references":
            call = client.text_document_references_async(types.ReferenceParams(
                context=types.ReferenceContext(include_declaration=True), text_document=doc,
                position=pos))
        elif method == "documentLink":
            call = client.text_document_document_link_async(types.DocumentLinkParams(doc))
        elif method == "prepareRename":
            call = client.text_document_prepare_rename_async(
                types.PrepareRenameParams(text_document=doc, position=pos))
        else:
            end = lines.position(min(len(text), where % (len(text) + 1) + 40), self.encoding)
            call = client.text_document_code_action_async(types.CodeActionParams(
                text_document=doc, range=types.Range(pos, types.Position(**end)),
                context=types.CodeActionContext(diagnostics=[])))
        result = await self.bounded(call, f"textDocument/{method}")
        STATS["requests"] += 1
        self.check_ranges(method, uri, lines, result)

    def check_ranges(self, method: str, uri: str, lines: Lines, result: Any) -> None:
        """Ranges in an answer about `uri` lie inside the text the request was made on."""
        data = default_converter().unstructure(  # type: ignore[no-untyped-call]
            result)
        for rng in ranges_in(data, uri):
            problem = lines.valid_range(rng, self.encoding)
            assert problem is None, f"{method} answered a range outside the document: {problem}"

    # -- one script ------------------------------------------------------------------------
    async def play(self, script: Script) -> None:
        STATS["scripts"] += 1
        rel = script.file
        uri = self.uri(rel)
        original = (self.root / rel).read_text("utf-8")
        dependents = self.dependents(rel) if script.with_dependent else []
        dependent = dependents[0] if dependents else None
        dependent_version = 0
        if dependent is not None:
            dependent_text = (self.root / dependent).read_text("utf-8")
            dependent_version = self.open(dependent, dependent_text)
        first = len(self.published)
        text = original
        version = self.open(rel, text)
        undo: list[tuple[int, int, str]] = []
        batch: list[tuple[int, int, str] | None] = []
        batch_left = 0
        batch_text = text

        def edit(start: int, end: int, new: str) -> None:
            nonlocal text, version, batch_left, batch_text
            start, end = legal(text, start), \
                legal(text, end, forward=True) if end > start else legal(text, start)
            undo.append((start, start + len(new), text[start:end]))
            if batch_left:
                batch.append((start, end, new))
                text = text[:start] + new + text[end:]
                batch_left -= 1
                if not batch_left:
                    text, version = self.send(uri, batch_text, list(batch))
                    batch.clear()
                return
            text, version = self.send(uri, text, [(start, end, new)])

        def flush() -> None:
            nonlocal text, version, batch_left
            if batch:
                text, version = self.send(uri, batch_text, list(batch))
                batch.clear()
            batch_left = 0

        for step in script.steps:
            kind = step[0]
            size = len(text)
            if kind not in ("insert", "append", "delete", "replace", "paste"):
                flush()  # a batch holds edits only: anything else sends it first
            if kind == "insert":
                at = step[1] % (size + 1)
                edit(at, at, step[2])
            elif kind == "append":
                edit(size, size, step[1])
            elif kind == "delete":
                at = step[1] % (size + 1)
                edit(at, min(size, at + step[2]), "")
            elif kind == "replace":
                at = step[1] % (size + 1)
                edit(at, min(size, at + step[2]), step[3])
            elif kind == "paste":
                source = step[2] % (size + 1)
                at = step[1] % (size + 1)
                edit(at, at, text[source : source + step[3]])
            elif kind == "undo" and undo:
                start, end, old = undo.pop()
                if (legal(text, start), legal(text, end)) == (start, end):
                    text, version = self.send(uri, text, [(start, end, old)])
                # else: the edit made a CRLF with its neighbour; a client cannot name half
            elif kind == "batch":
                batch_left, batch_text = step[1], text
            elif kind == "full":
                text, version = self.send(uri, text, [None])
            elif kind == "wait":
                expected = self.expected({rel: text})[rel]
                difference = compare(expected, await self.diagnostics(uri, version))
                assert difference is None, f"v{version} of {rel}: {difference}"
            elif kind == "ask":
                await self.ask(step[1], uri, text, step[2])
        flush()  # a batch cut short by the end of the script
        texts = {rel: text}
        if dependent is not None:
            texts[dependent] = (self.root / dependent).read_text("utf-8")
        final = self.expected(texts)
        difference = compare(final[rel], await self.diagnostics(uri, version))
        assert difference is None, f"final v{version} of {rel}: {difference}\n" \
                                   f"text: {json.dumps(text)[:3000]}"
        if dependent is not None:
            await self.eventually(self.uri(dependent), dependent_version, final[dependent],
                                  f"{dependent} after editing {rel}")
        self.check_published(first, uri)
        # Close everything: the files go back to their disk copies.
        for name in [rel, *([dependent] if dependent else [])]:
            self.client.text_document_did_close(types.DidCloseTextDocumentParams(
                types.TextDocumentIdentifier(self.uri(name))))
        if not self.pull:
            await self.back_to_disk(rel)

    def dependents(self, rel: str) -> list[str]:
        from evalyaml.workspace.index import Workspace

        workspace = Workspace([self.root], workers=1)
        workspace.index_all()
        found = workspace.dependents(self.root / rel)
        return sorted(p.relative_to(self.root).as_posix() for p in found
                      if self.root in p.parents and "mistakes" not in p.parts)

    def check_published(self, first: int, uri: str) -> None:
        """Every publish since `first`: ranges inside its version's text, versions ordered."""
        last_version = -1
        for params in self.published[first:]:
            if params.uri != uri or params.version is None:
                continue
            assert params.version >= last_version, \
                f"v{params.version} published after v{last_version}"
            last_version = params.version
            text = self.texts.get((uri, params.version))
            assert text is not None, f"a publish for v{params.version}, never sent"
            lines = Lines(text)
            for diagnostic in params.diagnostics:
                for rng in ranges_in(self._json(diagnostic), uri):
                    problem = lines.valid_range(rng, self.encoding)
                    assert problem is None, f"v{params.version}: {diagnostic.code}: {problem}"
                STATS["publishes_checked"] += 1

    async def back_to_disk(self, rel: str) -> None:
        """After didClose, the client's last word on the file is its disk copy's findings."""
        uri = self.uri(rel)
        disk = (self.root / rel).read_text("utf-8")
        expected = self.expected({rel: disk})[rel] if "mistakes" not in rel else None
        deadline = asyncio.get_running_loop().time() + BOUND
        while True:
            last = next((p for p in reversed(self.published) if p.uri == uri), None)
            got = [self._json(d) for d in last.diagnostics] if last is not None else []
            settled = last is None or last.version is None or not got
            if expected is None:  # excluded from the workspace: nothing may linger
                if not got:
                    return
            elif settled and compare(expected, got) is None:
                return
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"{rel} after close: stale diagnostics {got}")
            await asyncio.sleep(0.02)


@pytest_lsp.fixture(config=SERVER, params=sorted(CLIENTS), scope="module")  # type: ignore[untyped-decorator]
async def server(lsp_client: LanguageClient, request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[None]:
    make_caps, encoding, pull = CLIENTS[request.param]
    root = copy_examples(tmp_path_factory.mktemp(request.param) / "ws")
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=make_caps(), root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")],
        client_info=types.ClientInfo(name="hostile")))
    negotiated = result.capabilities.position_encoding
    assert str(getattr(negotiated, "value", negotiated)) == encoding
    deadline = asyncio.get_running_loop().time() + 60
    while not any(any(isinstance(v, types.WorkDoneProgressEnd) for v in values)
                  for values in lsp_client.progress_reports.values()):
        assert asyncio.get_running_loop().time() < deadline, "indexing never finished"
        await asyncio.sleep(0.02)
    lsp_client.player = Player(lsp_client, root, encoding, pull)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()
    process = lsp_client._server
    assert process is not None and process.returncode == 0, "exit status after shutdown"


@pytest.fixture(scope="module")
def player(server: LanguageClient) -> Player:
    found: Player = server.player  # type: ignore[attr-defined]
    return found


async def test_random_edits_match_a_fresh_analysis(player: Player) -> None:
    loop = asyncio.get_running_loop()

    @profile(40)
    @given(script=SCRIPTS)
    def run(script: Script) -> None:
        asyncio.run_coroutine_threadsafe(player.play(script), loop).result(BOUND * 10)

    await loop.run_in_executor(None, run)
    _record()


async def test_the_edited_examples(player: Player) -> None:
    """Fixed scripts that must always be covered: a CRLF join, a broken then repaired file,
    a rubric's version changed under an open dataset, a BOM, NUL and U+2028 typed in."""
    scripts = [
        Script("datasets/support_faq.yaml", [("insert", 200, "\r"), ("insert", 201, "\n"),
                                             ("wait",), ("undo",), ("undo",)], False),
        Script("rubrics/factuality.yaml", [("replace", 30, 12, 'version: "9.9.9"\n'),
                                           ("wait",)], True),
        Script("judges/tone.yaml", [("insert", 0, "\ufeff"), ("insert", 40, "\x00"),
                                    ("insert", 60, "\u2028"), ("ask", "hover", 61)], True),
        Script("datasets/agent_tasks.yaml", [("batch", 3), ("delete", 10, 50),
                                             ("insert", 300, "😀"), ("paste", 0, 100, 60),
                                             ("full",), ("ask", "documentSymbol", 0)], False),
        Script("agentv/evals/support.eval.yaml", [("insert", 180, "😀"), ("wait",),
                                                  ("insert", 12, "\r\n  ouner: x"),
                                                  ("ask", "hover", 200),
                                                  ("ask", "documentLink", 0), ("undo",)], False),
        Script("agentv/evals/prompts/support-grader.md", [
            ("insert", 30, "{{ ouput }} 中文"), ("wait",), ("ask", "completion", 33),
            ("delete", 0, 60), ("ask", "hover", 5)], False),
        Script(EEE + "_samples.jsonl", [
            ("insert", 30, "😀"), ("wait",), ("insert", 0, '{"sample_id": "中文"}\r\n'),
            ("ask", "completion", 3), ("paste", 40, 900, 300), ("wait",), ("undo",),
            ("append", '{"schema_version": "0.3.0"}\n'), ("ask", "documentSymbol", 0)], True),
        Script(EEE + ".json", [
            ("insert", 2, '"schema_version": "0.2.1", '), ("wait",), ("replace", 600, 4, "NaN"),
            ("ask", "hover", 20), ("ask", "definition", 1500), ("ask", "documentLink", 0),
            ("insert", 1700, ",}"), ("wait",), ("undo",), ("undo",), ("ask", "codeAction", 1600)],
               True),
    ]
    for script in scripts:
        await player.play(script)
    _record()


def _record() -> None:
    """Figures for the closing note: EVALYAML_HOSTILE_STATS=<file> appends them as JSON."""
    target = os.environ.get("EVALYAML_HOSTILE_STATS")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(json.dumps({"suite": "differential", **STATS}) + "\n")
