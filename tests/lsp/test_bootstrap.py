"""The early `initialize` answer equals what pygls computes for the registered features."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.protocol import default_converter
from tests.lsp.conftest import neovim_capabilities, vscode_capabilities

from evalyaml.lsp import bootstrap
from evalyaml.lsp.app import create_server
from evalyaml.lsp.positions import choose_encoding

CONVERTER = default_converter()


def recorded_clients() -> dict[str, dict[str, Any]]:
    folder = resources.files("pytest_lsp") / "clients"
    out = {}
    for item in folder.iterdir():
        if item.name.endswith(".json"):
            out[item.name] = json.loads(item.read_text("utf-8"))["capabilities"]
    return out


CLIENTS: dict[str, dict[str, Any]] = {
    **recorded_clients(),
    "vscode-profile": CONVERTER.unstructure(vscode_capabilities()),
    "neovim-profile": CONVERTER.unstructure(neovim_capabilities()),
    "bare": {},
}


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_early_answer_matches_pygls(name: str) -> None:
    raw = CLIENTS[name]
    caps = CONVERTER.structure(raw, types.ClientCapabilities)
    server = create_server()
    fm = server.protocol.fm
    general = caps.general
    encoding = choose_encoding(list(general.position_encodings)
                               if general and general.position_encodings else None)
    built = ServerCapabilitiesBuilder(  # type: ignore[no-untyped-call]
        caps, set({**fm.features, **fm.builtin_features}), fm.feature_options,
        list(fm.commands), types.TextDocumentSyncKind.Incremental, None, encoding.lsp).build()
    expected = CONVERTER.unstructure(built)
    early = bootstrap.initialize_result({"capabilities": raw})
    assert early["capabilities"] == expected
    assert early["serverInfo"] == {"name": "evalyaml", "version": server.version}


def test_replay_reader_and_answer_filter() -> None:
    import io

    first = b'Content-Length: 2\r\n\r\n{}'
    rest = io.BufferedReader(io.BytesIO(b"Content-Length: 3\r\n\r\n[1]"))  # type: ignore[arg-type]
    reader = io.BufferedReader(bootstrap.Prefixed(first, rest))
    assert reader.read() == first + b"Content-Length: 3\r\n\r\n[1]"
    out = io.BytesIO()
    writer = bootstrap.ClientStream(out, 1)  # type: ignore[arg-type]
    writer.write(b'Content-Length: 30\r\n\r\n{"jsonrpc":"2.0","id":1,"result":{}}')
    writer.write(b'Content-Length: 30\r\n\r\n{"jsonrpc":"2.0","id":1,"result":{}}')
    assert out.getvalue().count(b'"id":1') == 1


def test_writes_after_the_client_is_gone_are_dropped_quietly() -> None:
    """A publish racing `exit` finds stdout closed: it is dropped, not raised (pygls would log a
    traceback per write, and fail again reporting it)."""
    import io

    out = io.BytesIO()
    writer = bootstrap.ClientStream(out, None)  # type: ignore[arg-type]
    message = b'Content-Length: 2\r\n\r\n{}'
    assert writer.write(message) == len(message)
    assert out.getvalue() == message
    out.close()
    assert writer.write(message) == len(message)
    writer.flush()


def _frame(payload: dict[str, Any]) -> bytes:
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class _Recorder:
    """A `bootstrap.Peek` that remembers what it was shown, and lets the import finish once it
    has seen a `didOpen` (so that the test does not depend on how fast anything runs)."""

    def __init__(self) -> None:
        import threading

        self.seen: list[tuple[str, Any]] = []
        self.opened = threading.Event()

    def coming(self, length: int) -> None:
        self.seen.append(("coming", length))

    def message(self, message: dict[str, Any]) -> None:
        self.seen.append(("message", message.get("method")))
        if message.get("method") == "textDocument/didOpen":
            self.opened.set()


def test_messages_read_while_importing_are_peeked_and_replayed_whole() -> None:
    """Real pipes: what the client sends while the server is still imported is shown to the
    peek (a large message's length as soon as its header is read) and then replayed to the
    server byte for byte, `initialize` answered once, by the bootstrap."""
    import os
    import threading

    initialize = _frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"capabilities": {}}})
    initialized = _frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    text = "questions:\n" + "".join(f"  - id: q{n}\n    input: é 😀\n" for n in range(40_000))
    did_open = _frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": "file:///w/d.yaml", "languageId": "yaml", "version": 1,
                         "text": text}}})
    sent = initialize + initialized + did_open
    client_in, server_in = os.pipe()
    server_out, client_out = os.pipe()
    recorder = _Recorder()
    replayed: list[bytes] = []

    def load() -> Any:
        assert recorder.opened.wait(30), "the peek never saw the didOpen"

        def serve(stdin: Any, stdout: Any) -> int:
            replayed.append(stdin.read(len(sent)))
            stdout.write(_frame({"jsonrpc": "2.0", "id": 1, "result": {"from": "pygls"}}))
            stdout.write(_frame({"jsonrpc": "2.0", "method": "window/logMessage"}))
            return 7
        return serve

    def client() -> None:
        os.write(server_in, initialize)
        # the rest in small pieces, the big body split across many reads
        rest = initialized + did_open
        for start in range(0, len(rest), 50_000):
            os.write(server_in, rest[start : start + 50_000])
        os.close(server_in)

    writer = threading.Thread(target=client)
    writer.start()
    with os.fdopen(client_in, "rb") as stdin, os.fdopen(client_out, "wb") as stdout:
        status = bootstrap.serve_stdio(load, stdin, stdout, recorder)
    writer.join()
    with os.fdopen(server_out, "rb") as answers:
        out = answers.read()
    assert status == 7
    assert replayed == [sent]
    body_length = len(did_open) - did_open.index(b"\r\n\r\n") - 4
    assert recorder.seen == [("message", "initialize"), ("message", "initialized"),
                             ("coming", body_length),
                             ("message", "textDocument/didOpen")]
    # the bootstrap's answer, then the server's writes but its second answer to `initialize`
    assert out.count(b'"result"') == 1 and b'"from": "pygls"' not in out
    assert out.index(b'"capabilities"') < out.index(b"window/logMessage")
