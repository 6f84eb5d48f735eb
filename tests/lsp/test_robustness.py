"""A failing feature logs and answers empty; odd requests get empty answers; the server lives."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from tests.lsp.conftest import TODAY, Session, _client_factory, make_workspace, start
from tests.lsp.test_open_while_indexing import large_dataset, shown

pytestmark = pytest.mark.asyncio(loop_scope="module")

FAULTY = ClientServerConfig(
    server_command=[sys.executable, "-m", "evalyaml", "lsp"],
    server_env={**os.environ, "EVALYAML_TODAY": TODAY,
                "EVALYAML_LSP_FAIL": "textDocument/hover,textDocument/completion,render-ahead"},
    client_factory=_client_factory,
)


@pytest_lsp.fixture(config=FAULTY, params=["vscode", "neovim"], scope="module")
async def faulty(lsp_client: LanguageClient, request: pytest.FixtureRequest
                 ) -> AsyncIterator[None]:
    root = make_workspace(request.getfixturevalue("tmp_path_factory"), "faulty-" + request.param)
    lsp_client.session = await start(lsp_client, request.param, root)  # type: ignore[attr-defined]
    await lsp_client.session.ready()  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_failing_handlers_answer_empty(faulty: LanguageClient) -> None:
    session: Session = faulty.session  # type: ignore[attr-defined]
    uri = session.open("datasets/support_faq.yaml")
    hover = await session.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), session.pos(uri, 7, 6)))
    assert hover is None
    completion = await session.client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), session.pos(uri, 14, 20)))
    assert completion is not None and not completion.items
    # ... and everything else still works
    definition = await session.client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri), session.pos(uri, 14, 25)))
    assert definition
    assert await session.diagnostics(uri) == []
    session.close(uri)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: no case worker, no map")
async def test_a_large_document_whose_rendering_ahead_fails_gets_every_finding(
        faulty: LanguageClient) -> None:
    """Rendering a large document's findings during its analysis (`Engine.map_cases`) is a
    speed-up: when it fails, the publish renders them all, and every case's finding arrives."""
    session: Session = faulty.session  # type: ignore[attr-defined]
    text = large_dataset(2_400)
    uri = session.open("datasets/large_faulty.yaml", text)
    found = await session.until(uri, bool)
    message = ("unknown key 'critera' in case 'q{n}'; did you mean 'criteria'? (an unknown key "
               "is ignored, so its value has no effect)")
    assert shown(found) == [("EY205", (4 + 4 * n, 4, 4 + 4 * n, 11), message.format(n=n))
                            for n in range(2_400)]
    session.close(uri)


async def test_odd_requests_get_empty_answers(session: Session) -> None:
    missing = session.uri("datasets/never_opened.yaml")
    identifier = types.TextDocumentIdentifier(missing)
    assert await session.client.text_document_hover_async(
        types.HoverParams(identifier, types.Position(0, 0))) is None
    assert not await session.client.text_document_definition_async(
        types.DefinitionParams(identifier, types.Position(3, 3)))
    uri = session.open("datasets/support_faq.yaml")
    far = types.Position(10_000, 500)
    assert await session.client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), far)) is None
    result = await session.client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), far))
    assert result is None or not getattr(result, "items", result)
    session.close(uri)


async def test_broken_and_foreign_yaml(session: Session) -> None:
    junk = session.open("datasets/junk.yaml", "questions:\n  - id: [unclosed\n\x00\x01 ::: {{\n")
    diagnostics = await session.diagnostics(junk)
    assert [d.code for d in diagnostics] == ["EY101"]
    foreign = session.open("config/other.yaml", "apiVersion: v1\nkind: Pod\n")
    assert await session.diagnostics(foreign) == []
    assert await session.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(foreign), types.Position(1, 2))) is None
    for uri in (junk, foreign):
        session.close(uri)


async def test_tcp_mode(tmp_path: Path) -> None:
    """`evalyaml lsp --tcp HOST:PORT` serves one client over a socket (for debugging)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "evalyaml", "lsp", "--tcp", f"127.0.0.1:{port}",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.1)
        else:
            raise AssertionError("the TCP server never listened")
        body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
        writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await writer.drain()
        header = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
        length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
        reply = await reader.readexactly(length)
        assert b'"positionEncoding":"utf-16"' in reply.replace(b" ", b"")
        writer.close()
    finally:
        process.kill()
        await process.wait()
