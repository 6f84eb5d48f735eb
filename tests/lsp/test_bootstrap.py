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
