"""The protocol's own bookkeeping stays bounded: a long editing session leaves nothing behind
per message (the soak's leak was one pygls future per didChange). In-process, through the same
`structure_message` / `handle_message` path that pygls' reader uses."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from evalyaml.lsp.app import create_server
from evalyaml.lsp.session import EvalServer


class Writer:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        _, _, body = data.partition(b"\r\n\r\n")
        self.messages.append(json.loads(body))

    def close(self) -> None:
        return


def feed(server: EvalServer, message: dict[str, Any]) -> None:
    protocol = server.protocol
    protocol.handle_message(json.loads(json.dumps(message),
                                       object_hook=protocol.structure_message))


async def test_a_thousand_notifications_leave_no_futures(tmp_path: Path) -> None:
    server = create_server()
    writer = Writer()
    server.protocol.set_writer(writer)
    uri = (tmp_path / "notes.yaml").as_uri()
    try:
        feed(server, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"processId": None, "capabilities": {}, "rootUri": None}})
        await asyncio.sleep(0.05)
        feed(server, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        feed(server, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": "a: 1\n"}}})
        for version in range(2, 1002):
            feed(server, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": f"a: {version}\n"}]}})
        feed(server, {"jsonrpc": "2.0", "method": "textDocument/didClose",
                      "params": {"textDocument": {"uri": uri}}})
        for _ in range(20):
            await asyncio.sleep(0.01)
        futures = server.protocol._request_futures
        assert len(futures) < 5, f"{len(futures)} futures kept"
        # Requests still work, and are forgotten once answered.
        feed(server, {"jsonrpc": "2.0", "id": 2, "method": "workspace/symbol",
                      "params": {"query": "x"}})
        for _ in range(200):
            if any(m.get("id") == 2 for m in writer.messages):
                break
            await asyncio.sleep(0.01)
        assert any(m.get("id") == 2 and "result" in m for m in writer.messages)
        await asyncio.sleep(0.01)
        assert len(futures) < 5, f"{len(futures)} futures kept"
    finally:
        if server.engine is not None:
            server.engine.stop()
        server.pool.shutdown(wait=False)
