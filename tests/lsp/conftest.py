"""End-to-end fixtures: the real server over stdio, driven by pytest-lsp, once per client.

Two capability sets, taken from pytest-lsp's recordings of real editors and adjusted to the two
shapes the server must handle:

- `vscode`: VS Code 1.65's capabilities plus pull diagnostics (`textDocument/diagnostic`,
  `workspace/diagnostic` with refresh), as every VS Code since 1.67 sends; no position
  encodings offered, so UTF-16; snippets on.
- `neovim`: Neovim 0.11's capabilities without pull diagnostics (push only, like Neovim up to
  0.10), offering `utf-8` first in `general.positionEncodings`, so UTF-8.

Expected ranges are written in code points (what a person counts) and converted to the
session's encoding by `Session.pos`, independently of the server's own conversion code.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
TODAY = "2026-11-21"
TIMEOUT = 20.0


def vscode_capabilities() -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None and caps.workspace is not None
    caps.text_document.diagnostic = types.DiagnosticClientCapabilities(
        dynamic_registration=True, related_document_support=False)
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(
        refresh_support=True)
    caps.general = None
    return caps


def neovim_capabilities() -> types.ClientCapabilities:
    caps = client_capabilities("neovim@v0.11.0")
    assert caps.text_document is not None
    caps.text_document.diagnostic = None
    caps.general = types.GeneralClientCapabilities(position_encodings=[
        types.PositionEncodingKind.Utf8, types.PositionEncodingKind.Utf16,
        types.PositionEncodingKind.Utf32])
    return caps


CLIENTS = {
    "vscode": (vscode_capabilities, "Visual Studio Code"),
    "neovim": (neovim_capabilities, "Neovim"),
}


def units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


@dataclass
class Session:
    client: LanguageClient
    name: str
    root: Path
    encoding: str = "utf-16"
    pull: bool = False
    texts: dict[str, str] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)

    # -- paths and positions ---------------------------------------------------------------
    def uri(self, rel: str) -> str:
        return (self.root / rel).as_uri()

    def line_text(self, uri: str, line: int) -> str:
        text = self.texts.get(uri)
        if text is None:
            text = Path(uri.removeprefix("file://")).read_text("utf-8")
        return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[line]

    def pos(self, uri: str, line: int, column: int) -> types.Position:
        """A code-point column -> the session's encoding."""
        return types.Position(line, units(self.line_text(uri, line)[:column], self.encoding))

    def rng(self, uri: str, line: int, start: int, end: int,
            end_line: int | None = None) -> types.Range:
        return types.Range(self.pos(uri, line, start),
                           self.pos(uri, line if end_line is None else end_line, end))

    def find(self, uri: str, needle: str, nth: int = 0, offset: int = 0) -> types.Position:
        """The position of `needle` (plus `offset` code points) in the current text."""
        text = self.texts.get(uri) or Path(uri.removeprefix("file://")).read_text("utf-8")
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        seen = 0
        for number, line in enumerate(lines):
            start = 0
            while (at := line.find(needle, start)) >= 0:
                if seen == nth:
                    return self.pos(uri, number, at + offset)
                seen += 1
                start = at + 1
        raise AssertionError(f"{needle!r} not found")

    # -- documents --------------------------------------------------------------------------
    def open(self, rel: str, text: str | None = None) -> str:
        uri = self.uri(rel)
        if text is None:
            text = (self.root / rel).read_text("utf-8")
        self.texts[uri] = text
        self.versions[uri] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(
            types.TextDocumentIdentifier(uri)))
        self.texts.pop(uri, None)

    def edit(self, uri: str, start: tuple[int, int], end: tuple[int, int], new: str) -> None:
        """Replace code-point range `start`..`end` (line, column) with `new`."""
        text = self.texts[uri]
        rng = types.Range(self.pos(uri, *start), self.pos(uri, *end))
        lines = text.split("\n")
        offset = sum(len(x) + 1 for x in lines[:start[0]]) + start[1]
        end_offset = sum(len(x) + 1 for x in lines[:end[0]]) + end[1]
        self.texts[uri] = text[:offset] + new + text[end_offset:]
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [types.TextDocumentContentChangePartial(range=rng, text=new)]))

    def replace(self, uri: str, old: str, new: str) -> None:
        """Replace the first `old` in the document with `new`, as an incremental edit."""
        text = self.texts[uri]
        at = text.index(old)
        before = text[:at]
        line = before.count("\n")
        col = len(before) - (before.rfind("\n") + 1)
        end_before = text[:at + len(old)]
        end_line = end_before.count("\n")
        end_col = len(end_before) - (end_before.rfind("\n") + 1)
        self.edit(uri, (line, col), (end_line, end_col), new)

    # -- diagnostics ------------------------------------------------------------------------
    async def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """The diagnostics of an open document's current version (pulled or pushed)."""
        version = self.versions.get(uri)
        if self.pull:
            result = await asyncio.wait_for(self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(types.TextDocumentIdentifier(uri))), TIMEOUT)
            assert isinstance(result, types.RelatedFullDocumentDiagnosticReport)
            return list(result.items)
        return await self.pushed(uri, version)

    async def until(self, uri: str, predicate: Any) -> list[types.Diagnostic]:
        """An open document's diagnostics once `predicate` holds (they may change without an
        edit: settings, configuration or another file changed)."""
        if not self.pull:
            return await self.pushed(uri, self.versions.get(uri), predicate)
        deadline = asyncio.get_running_loop().time() + TIMEOUT
        while True:
            found = await self.diagnostics(uri)
            if predicate(found):
                return found
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"diagnostics of {uri} never matched: {found}")
            await asyncio.sleep(0.05)

    async def pushed(self, uri: str, version: int | None,
                     predicate: Any = None) -> list[types.Diagnostic]:
        published: list[types.PublishDiagnosticsParams] = self.client.published  # type: ignore[attr-defined]
        deadline = asyncio.get_running_loop().time() + TIMEOUT
        while True:
            for params in reversed(published):
                if params.uri != uri:
                    continue
                if version is not None and params.version != version:
                    break
                if predicate is None or predicate(list(params.diagnostics)):
                    return list(params.diagnostics)
                break
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"no diagnostics for {uri} v{version}")
            await asyncio.sleep(0.02)

    async def closed_diagnostics(self, uri: str, predicate: Any = None
                                 ) -> list[types.Diagnostic]:
        """Diagnostics of a closed file: pushed, or from workspace/diagnostic."""
        if not self.pull:
            return await self.pushed(uri, None, predicate)
        deadline = asyncio.get_running_loop().time() + TIMEOUT
        while True:
            report = await self.client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(previous_result_ids=[]))
            for item in report.items:
                full = isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
                if item.uri == uri and full and (predicate is None or predicate(list(item.items))):
                    return list(item.items)
            if predicate is None:
                return []
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"no matching workspace diagnostics for {uri}")
            await asyncio.sleep(0.05)

    async def ready(self) -> None:
        """Wait until the initial index is installed (its progress has ended)."""
        deadline = asyncio.get_running_loop().time() + TIMEOUT
        while True:
            reports = self.client.progress_reports
            if any(any(isinstance(v, types.WorkDoneProgressEnd) for v in values)
                   for values in reports.values()):
                await asyncio.sleep(0.1)
                return
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError("indexing never finished")
            await asyncio.sleep(0.02)


def _code_lens_refresh(ls: LanguageClient, params: None) -> None:
    ls.code_lens_refreshes = getattr(ls, "code_lens_refreshes", 0) + 1  # type: ignore[attr-defined]


def _client_factory() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]

    def publish(client_: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client_.diagnostics[params.uri] = params.diagnostics
        client_.published.append(params)  # type: ignore[attr-defined]

    client.registrations = []  # type: ignore[attr-defined]

    def register(client_: LanguageClient, params: types.RegistrationParams) -> None:
        client_.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    client.applied_edits = []  # type: ignore[attr-defined]

    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES,
                                   types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish,
                                   types.CLIENT_REGISTER_CAPABILITY: register,
                                   types.WORKSPACE_CODE_LENS_REFRESH: _code_lens_refresh})
    return client


SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "evalyaml", "lsp"],
    server_env={**os.environ, "EVALYAML_TODAY": TODAY},
    client_factory=_client_factory,
)


def make_workspace(tmp_path_factory: pytest.TempPathFactory, name: str,
                   extra: dict[str, str] | None = None) -> Path:
    """A copy of examples/ (mistakes included, with the example config) plus `extra` files."""
    root = tmp_path_factory.mktemp(name) / "ws"
    shutil.copytree(EXAMPLES, root)
    for rel, text in (extra or {}).items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    return root


async def start(client: LanguageClient, name: str, root: Path,
                settings: dict[str, Any] | None = None) -> Session:
    make_caps, client_name = CLIENTS[name]
    caps = make_caps()
    if settings is not None:
        client.set_configuration({"evalyaml": settings})
    result = await client.initialize_session(types.InitializeParams(
        capabilities=caps,
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")],
        client_info=types.ClientInfo(name=client_name)))
    encoding = result.capabilities.position_encoding or "utf-16"
    session = Session(client, name, root, str(getattr(encoding, "value", encoding)),
                      pull=caps.text_document is not None
                      and caps.text_document.diagnostic is not None)
    session.capabilities = result.capabilities  # type: ignore[attr-defined]
    return session


@pytest_lsp.fixture(config=SERVER, params=["vscode", "neovim"], scope="module")
async def lsp(lsp_client: LanguageClient, request: pytest.FixtureRequest
              ) -> AsyncIterator[None]:
    root = make_workspace(request.getfixturevalue("tmp_path_factory"), request.param,
                          getattr(request.module, "EXTRA_FILES", None))
    settings = getattr(request.module, "SETTINGS", None)
    lsp_client.session = await start(lsp_client, request.param, root,  # type: ignore[attr-defined]
                                     settings)
    await lsp_client.session.ready()  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def session(lsp: LanguageClient) -> Session:
    found: Session = lsp.session  # type: ignore[attr-defined]
    return found
