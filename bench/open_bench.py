"""Open while indexing (issue #27 item 2), run by `lsp_bench.py --opening`.

What an editor restoring its tabs at start does: the findings-heavy 10,000-case dataset
(`../shared/bench/gen_corpus.py`, the `heavy` workload) is opened `delay` seconds after
`initialized`, without waiting for the workspace index. Each run is a fresh server:

- open -> diagnostics: `didOpen` until the first diagnostics for the file that hold findings
  (push: a `publishDiagnostics` of version 1; pull: the answer of the `textDocument/diagnostic`
  sent right after `didOpen`, pulled again if it came back empty);
- spawn -> first diagnostics: the same arrival, from the process spawn;
- re-open: once the index is in and the server is quiet, `didClose` then `didOpen` again (the
  same text, version 1), until its diagnostics, as above.

A second session per run (evalyaml only) opens the file only once the index is in (`first
open, indexed`), the figure a re-open must not exceed. yaml-language-server reports no findings
on this file with the schema settings the corpus writes for it (its first publish is empty), so
its figures are to its first publish. Push clients for both servers; with `--pull` evalyaml is
a pull client and yaml-language-server (which does not answer pulls) is left out.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from lsp_bench import Client, Server, heavy_workload, initialize, wait_ready

SIZE = 10_000


@dataclass
class Opening:
    open_ms: list[float] = field(default_factory=list)
    spawn_ms: list[float] = field(default_factory=list)
    reopen_ms: list[float] = field(default_factory=list)
    indexed_ms: list[float] = field(default_factory=list)
    reopen_indexed_ms: list[float] = field(default_factory=list)


def diagnostics_with_findings(client: Client, server: Server, uri: str, sent: float) -> float:
    """ms from `sent` to the first diagnostics of `uri` (version 1) holding findings; for
    yaml-language-server, its first publish (with the corpus' own schema settings it reports
    none on this file: it is timed to the publish that says so)."""
    deadline = sent + 300
    while time.perf_counter() < deadline:
        if server.pull:
            _, result = client.request("textDocument/diagnostic",
                                       {"textDocument": {"uri": uri}}, timeout=300)
            if isinstance(result, dict) and result.get("items"):
                return (time.perf_counter() - sent) * 1000
            time.sleep(0.02)
            continue
        arrived, _, params = client.diagnostics.get(
            timeout=max(0.1, deadline - time.perf_counter()))
        if params["uri"] != uri or arrived < sent:
            continue
        if server.evalyaml and params.get("version") != 1:
            continue
        if params["diagnostics"] or not server.evalyaml:
            return (arrived - sent) * 1000
    raise TimeoutError(f"no diagnostics with findings for {uri}")


def reopen(client: Client, server: Server, uri: str, text: str) -> float:
    """Close, let the server settle, open the same text again: ms to its diagnostics."""
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    time.sleep(1.0)
    client.drain()
    sent = client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    return diagnostics_with_findings(client, server, uri, sent)


def one_run(server: Server, base: Path, delay: float, result: Opening) -> None:
    workload = heavy_workload(base, server, SIZE)
    root, text, uri = workload.root, workload.path.read_text("utf-8"), workload.path.as_uri()
    settings = workload.settings if server.name == "yaml-language-server" and \
        workload.settings is not None else server.settings
    # 1. opened `delay` s after `initialized`, while the index is built
    client = Client(server.command, settings, root, server.env)
    try:
        initialize(client, root, server.pull)
        time.sleep(delay)
        sent = client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
        result.open_ms.append(diagnostics_with_findings(client, server, uri, sent))
        result.spawn_ms.append(result.open_ms[-1] + (sent - client.started) * 1000)
        wait_ready(client, server)
        result.reopen_ms.append(reopen(client, server, uri, text))
    finally:
        client.close()
    if not server.evalyaml:
        return
    # 2. opened once the index is in, then re-opened
    client = Client(server.command, settings, root, server.env)
    try:
        initialize(client, root, server.pull)
        wait_ready(client, server)
        client.drain()
        sent = client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
        result.indexed_ms.append(diagnostics_with_findings(client, server, uri, sent))
        time.sleep(0.3)
        result.reopen_indexed_ms.append(reopen(client, server, uri, text))
    finally:
        client.close()


def table(results: dict[str, Opening], delay: float) -> tuple[str, list[str]]:
    """Medians per server, evalyaml's ratios to yaml-language-server, and the targets:
    open and spawn -> diagnostics <= 0.6x yaml-language-server, re-open <= first open."""
    names = list(results)
    other = results.get("yaml-language-server")
    rows = [("open -> diagnostics, during indexing", "open_ms"),
            ("spawn -> first diagnostics", "spawn_ms"),
            ("re-open (after indexing)", "reopen_ms"),
            ("first open, indexed", "indexed_ms"),
            ("re-open of that", "reopen_indexed_ms")]
    failures: list[str] = []
    header = [f"heavy {SIZE:,}, opened {delay:g} s after initialized", *names,
              *(f"{n}/yls" for n in names if other is not None and n != "yaml-language-server"),
              "target"]
    cells: list[list[str]] = []
    for label, attr in rows:
        values = [statistics.median(getattr(results[n], attr) or [float("nan")]) for n in names]
        line = [label, *(f"{v:,.0f} ms" for v in values)]
        goal = ""
        for name, value in zip(names, values, strict=True):
            if name == "yaml-language-server":
                continue
            theirs = statistics.median(getattr(other, attr) or [float("nan")]) \
                if other is not None else float("nan")
            if other is not None:
                line.append(f"{value / theirs:.2f}")
            if attr in ("open_ms", "spawn_ms") and other is not None:
                ok = value <= 0.6 * theirs
                goal = ("ok" if ok else "MISSED") + " (<= 0.6x yls)"
                if not ok:
                    failures.append(f"opening {name} {attr}: {value / theirs:.2f}x yls")
            elif attr.startswith("reopen"):
                first = statistics.median(results[name].indexed_ms or [float("nan")])
                ok = value <= first
                goal = ("ok" if ok else "MISSED") + " (<= first open, indexed)"
                if not ok:
                    failures.append(f"opening {name} {attr}: {value:.0f} > {first:.0f}")
        cells.append([*line, goal])
    widths = [max(len(c[i]) for c in [header, *cells]) for i in range(len(header))]
    lines = ["  ".join([c[0].ljust(widths[0]), *(v.rjust(w) for v, w in
                                                  zip(c[1:-1], widths[1:-1], strict=True)),
                        c[-1]]) for c in [header, *cells]]
    return "\n".join(lines), failures


def run(servers: list[Server], base: Path, runs: int, delay: float) -> tuple[str, list[str]]:
    results = {server.name: Opening() for server in servers}
    for index in range(runs):
        for server in servers:  # taking turns, so a noisy minute hurts both alike
            print(f"opening {server.name}: run {index + 1}/{runs} ...", flush=True)
            one_run(server, base, delay, results[server.name])
    return table(results, delay)
