"""`publish` writes the bytes pygls would: each fragment equals the cattrs + json.dumps of
`convert.diagnostic`, the notification equals pygls' serialisation of
`PublishDiagnosticsNotification`, and reused fragments are reused only for the same finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from evalyaml.core.codes import Severity
from evalyaml.core.findings import Finding, Related
from evalyaml.lsp import convert, publish
from evalyaml.lsp.positions import Encoding, PositionMapper
from evalyaml.lsp.session import EvalServer
from evalyaml.syntax.text import Position, Span

TEXT = "name: x\nquestions:\n  - id: 😀é日本 \"q\"\n    input: a\tb\r\n  - id: b\n"
OTHER = "id: 日本😀\nversion: 1\n"


def _serialised(value: object) -> str:
    protocol = EvalServer().protocol
    return json.dumps(value, default=protocol._serialize_message)


def _mapper_for(encoding: Encoding):  # type: ignore[no-untyped-def]
    return lambda path: PositionMapper(OTHER, encoding)


positions = st.builds(Position, st.integers(0, 7), st.integers(0, 30))
spans = st.builds(Span, positions, positions)
codes = st.sampled_from(["EY202", "EY301", "EY210", "EY999", "EY101"])
messages = st.text(max_size=30)
related = st.lists(st.builds(Related, st.sampled_from([None, "/w/rubrics/x.yaml"]), spans,
                             messages), max_size=2)
findings = st.builds(Finding, codes, messages, spans, st.sampled_from(list(Severity)),
                     related.map(tuple))


@settings(max_examples=300, deadline=None)
@given(findings, st.sampled_from(list(Encoding)), st.booleans())
def test_a_fragment_is_what_pygls_would_write(finding: Finding, encoding: Encoding,
                                               related_support: bool) -> None:
    mapper = PositionMapper(TEXT, encoding)
    uri = "file:///w/datasets/d%20x.yaml"
    expected = _serialised(convert.diagnostic(finding, mapper, uri, _mapper_for(encoding),
                                              related_support=related_support))
    got = publish.fragment(finding, mapper, uri, _mapper_for(encoding),
                           related_support=related_support)
    assert got == expected
    back = publish.LazyDiagnostics([got.encode("ascii")])[0]
    assert _serialised(back) == expected


def test_the_notification_is_what_pygls_would_write() -> None:
    mapper = PositionMapper(TEXT, Encoding.UTF16)
    finding = Finding("EY202", "é", Span.point(2, 4), Severity.WARNING)
    diagnostic = convert.diagnostic(finding, mapper, "file:///a", _mapper_for(Encoding.UTF16))
    for version in (None, 0, 7):
        for diagnostics in ([], [diagnostic, diagnostic]):
            expected = _serialised(types.PublishDiagnosticsNotification(
                method=types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                params=types.PublishDiagnosticsParams(uri="file:///a é", diagnostics=diagnostics,
                                                      version=version),
                jsonrpc="2.0"))
            payload = ", ".join(_serialised(d) for d in diagnostics).encode("ascii")
            assert publish.notification("file:///a é", payload, version) == expected.encode()


def test_fragments_are_reused_for_the_same_finding_only() -> None:
    mapper = PositionMapper(TEXT, Encoding.UTF16)
    local = Finding("EY202", "a", Span.point(2, 9), Severity.WARNING)
    elsewhere = Finding("EY305", "b", Span.point(0, 0), Severity.WARNING,
                        (Related("/w/o.yaml", Span.point(0, 7), "there"),))
    texts = [OTHER]

    def mapper_for(path: Path) -> PositionMapper:
        return PositionMapper(texts[0], Encoding.UTF16)

    cache = publish.Fragments()
    parts, payload = cache.render([local, elsewhere], mapper, "file:///a", mapper_for,
                                  related_support=True)
    again, payload_again = cache.render([local, elsewhere], mapper, "file:///a", mapper_for,
                                        related_support=True)
    assert again[0] is parts[0] and payload_again == payload
    texts[0] = "id: xyzw\n"  # the other file changed under the related position
    moved, _ = cache.render([local, elsewhere], mapper, "file:///a", mapper_for,
                            related_support=True)
    assert moved[0] is parts[0]
    assert moved[1] != parts[1]  # converted afresh through the other file's new text
    # an equal finding that is another object is converted again (it may stand for new text)
    copy = Finding("EY202", "a", Span.point(2, 9), Severity.WARNING)
    fresh, _ = cache.render([copy], mapper, "file:///a", mapper_for, related_support=True)
    assert fresh[0] == parts[0] and fresh[0] is not parts[0]


def test_the_frame_is_what_pygls_would_write() -> None:
    """`send_parts` writes the frame `_send_data` writes for the same notification."""
    class Sink:
        def __init__(self) -> None:
            self.data: list[bytes] = []

        def write(self, data: bytes) -> None:
            self.data.append(data)

    protocol = EvalServer().protocol
    sink = Sink()
    protocol.set_writer(sink)  # type: ignore[arg-type]
    mapper = PositionMapper(TEXT, Encoding.UTF16)
    finding = Finding("EY202", "日本 \"x\"", Span.point(2, 9), Severity.WARNING)
    diagnostic = convert.diagnostic(finding, mapper, "file:///a", _mapper_for(Encoding.UTF16))
    protocol._send_data(types.PublishDiagnosticsNotification(
        method=types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
        params=types.PublishDiagnosticsParams(uri="file:///a", diagnostics=[diagnostic],
                                              version=4), jsonrpc="2.0"))
    payload = publish.fragment(finding, mapper, "file:///a", _mapper_for(Encoding.UTF16),
                               related_support=True).encode("ascii")
    protocol.send_parts(publish.notification_parts("file:///a", payload, 4))  # type: ignore[attr-defined]
    assert len(sink.data) == 2 and sink.data[0] == sink.data[1]


def _sent(protocol_call: str, msg_id: int | str, result: object) -> bytes:
    """What the protocol writes for a response with `result`."""
    class Sink:
        data = b""

        def write(self, data: bytes) -> None:
            Sink.data = data

    protocol = EvalServer().protocol
    protocol.set_writer(Sink())  # type: ignore[arg-type]
    getattr(protocol, protocol_call)(msg_id, result)
    return Sink.data


def test_pull_answers_are_what_pygls_would_write() -> None:
    """A pulled full report is the push payload in a raw result: the same bytes pygls writes
    for the `lsprotocol` report built from the same diagnostics."""
    mapper = PositionMapper(TEXT, Encoding.UTF16)
    found = [Finding("EY202", "日本 \"x\"", Span.point(2, 9), Severity.WARNING),
             Finding("EY301", "b", Span(Position(3, 4), Position(3, 9)), Severity.ERROR)]
    diagnostics = [convert.diagnostic(f, mapper, "file:///a", _mapper_for(Encoding.UTF16))
                   for f in found]
    payload = b", ".join(publish.fragment(f, mapper, "file:///a", _mapper_for(Encoding.UTF16),
                                          related_support=True).encode("ascii") for f in found)
    for msg_id in (7, "req-é"):
        expected = _sent("_send_response", msg_id, types.RelatedFullDocumentDiagnosticReport(
            items=diagnostics, result_id="12"))
        assert _sent("_send_response", msg_id, publish.full_report(payload, "12")) == expected
        expected = _sent("_send_response", msg_id, types.WorkspaceDiagnosticReport(items=[
            types.WorkspaceFullDocumentDiagnosticReport(uri="file:///a", version=3,
                                                        items=diagnostics, result_id="12"),
            types.WorkspaceUnchangedDocumentDiagnosticReport(uri="file:///b é", version=None,
                                                             result_id="4"),
            types.WorkspaceFullDocumentDiagnosticReport(uri="file:///c", version=None,
                                                        items=[], result_id="5")]))
        raw = publish.workspace_report([("file:///a", 3, "12", payload),
                                        ("file:///b é", None, "4", None),
                                        ("file:///c", None, "5", b"")])
        assert json.loads(_sent("_send_response", msg_id, raw).split(b"\r\n\r\n", 1)[1]) == \
            json.loads(expected.split(b"\r\n\r\n", 1)[1])


BLOCK = "  - id: 😀é日本\n    input: \"a\tb\"\r\n"


@settings(max_examples=200, deadline=None)
@given(st.builds(Span, st.builds(Position, st.integers(0, 1), st.integers(0, 14)),
                 st.builds(Position, st.integers(1, 2), st.integers(0, 14))),
       st.integers(0, 5), st.integers(0, 5), st.sampled_from(list(Encoding)))
def test_a_moved_case_keeps_its_fragment_with_new_line_numbers(
        span: Span, first: int, second: int, encoding: Encoding) -> None:
    """A finding moved with its case (a line inserted above) is rendered by moving the
    fragment of an earlier placement: byte-equal to converting it afresh."""
    text = "questions:\n" + BLOCK * 8
    mapper = PositionMapper(text, encoding)
    relative = Finding("EY202", "é \"x\"", span, Severity.WARNING)
    at_first = relative.shifted(1 + 2 * first)
    at_second = relative.shifted(1 + 2 * second)
    cache = publish.Fragments()
    cache.render([at_first], mapper, "file:///a", _mapper_for(encoding), related_support=True)
    parts, _ = cache.render([at_second], mapper, "file:///a", _mapper_for(encoding),
                            related_support=True)
    assert parts == [publish.fragment(at_second, mapper, "file:///a", _mapper_for(encoding),
                                      related_support=True).encode("ascii")]
    moved_again, _ = cache.render([at_first.shifted(2)], mapper, "file:///a",
                                  _mapper_for(encoding), related_support=True)
    assert moved_again == [publish.fragment(at_first.shifted(2), mapper, "file:///a",
                                            _mapper_for(encoding),
                                            related_support=True).encode("ascii")]


@pytest.mark.parametrize("encoding", list(Encoding))
def test_a_finding_made_on_its_line_moves_its_fragment_too(encoding: Encoding,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The case worker's findings arrive on their lines with no origin (`core.wire.decode`):
    a line inserted above them moves their fragments, as for findings moved from line 0,
    instead of converting them again."""
    text = "questions:\n" + BLOCK * 8
    mapper = PositionMapper(text, encoding)
    made = Finding("EY202", "é \"x\"", Span(Position(3, 4), Position(3, 9)), Severity.WARNING)
    cache = publish.Fragments()
    cache.render([made], mapper, "file:///a", _mapper_for(encoding), related_support=True)
    fresh = publish.fragment(made.shifted(2), mapper, "file:///a", _mapper_for(encoding),
                             related_support=True).encode("ascii")
    converted: list[Finding] = []
    real = publish.fragment
    monkeypatch.setattr(publish, "fragment", lambda f, *a, **k: converted.append(f) or real(
        f, *a, **k))
    parts, _ = cache.render([made.shifted(2)], mapper, "file:///a", _mapper_for(encoding),
                            related_support=True)
    assert parts == [fresh]
    assert converted == []


@settings(max_examples=100, deadline=None)
@given(st.lists(findings, max_size=8), st.sampled_from(list(Encoding)), st.booleans())
def test_findings_rendered_ahead_publish_as_rendered_then(batch: list[Finding],
                                                          encoding: Encoding,
                                                          related_support: bool) -> None:
    """`Fragments.prerender` (a large document's findings rendered share by share while the
    case worker works) gives the very payload a plain render gives, and `render` uses the
    fragments rendered ahead for every finding but those whose related places lie in another
    file, which it converts afresh."""
    mapper = PositionMapper(TEXT, encoding)
    uri = "file:///w/datasets/d.yaml"
    mapper_for = _mapper_for(encoding)
    plain = publish.Fragments().render(batch, mapper, uri, mapper_for,
                                       related_support=related_support)
    ahead = publish.Fragments()
    ahead.prerender(batch, mapper, uri, mapper_for, related_support=related_support)
    taken = dict(ahead._entries)
    parts, payload = ahead.render(batch, mapper, uri, mapper_for, related_support=related_support)
    assert (parts, payload) == plain
    for finding, part in zip(batch, parts, strict=True):
        elsewhere = related_support and any(r.path is not None for r in finding.related)
        assert (id(finding) in taken) is not elsewhere
        if not elsewhere:
            assert part is taken[id(finding)][1]
