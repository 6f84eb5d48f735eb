"""The editor opened on lm-evaluation-harness's whole `lm_eval/tasks` tree (about 14,000 YAML
files, issue #24 item 6): how long until the first opened file's diagnostics, against how long
the workspace index takes to build.

Each run spawns `evalyaml lsp` on a fresh copy of the tree at the pinned commit (`git
archive`), sends `initialize` and `initialized`, and right after them `didOpen` of one task
file (push client, like Neovim; `--pull` also sends `textDocument/diagnostic` right after the
open, like VS Code). Printed, as medians over `--runs` spawns: spawn -> initialize result,
didOpen -> that file's diagnostics (the first publish for version 1), spawn -> the index's
`$/progress` end, and whether the diagnostics came before the index was in. Nothing of
lm-eval is imported or run.

    python bench/lmeval_editor.py --upstream /work/.mirror/EleutherAI+lm-evaluation-harness/repo
    python bench/lmeval_editor.py --tree /tmp/x   # a tree already extracted (x/lm_eval/tasks)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lmeval_tree import PINNED, extract
from lsp_bench import Client, evalyaml_server, initialize

OPENED = ("lm_eval/tasks/hellaswag/hellaswag.yaml", "lm_eval/tasks/mmlu/default/mmlu_anatomy.yaml",
          "lm_eval/tasks/gsm8k/gsm8k.yaml")


class _Stamped(threading.Event):
    """An event that remembers when it was first set (the reader thread sets it on the
    index's `$/progress` end)."""

    def __init__(self) -> None:
        super().__init__()
        self.at: float | None = None

    def set(self) -> None:
        if self.at is None:
            self.at = time.perf_counter()
        super().set()


class TimedClient(Client):
    """The lsp_bench client, also noting when the index's progress ended (set before any
    message can arrive: the server says nothing before `initialize`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.progress_ended = _Stamped()


def one_run(root: Path, opened: str, *, pull: bool, timeout: float,
            wait_index: bool) -> dict[str, float]:
    """One spawn: the opened file's first diagnostics; with `wait_index`, also when the
    index's progress ended (else the server is shut down at once, to keep the bench short)."""
    server = evalyaml_server()
    client = TimedClient(server.command, server.settings, root, server.env)
    try:
        init_ms = initialize(client, root, pull=pull)
        path = root / opened
        uri = path.as_uri()
        sent = client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1,
            "text": path.read_text("utf-8")}})
        if pull:
            first_ms = client.pull_diagnostics(uri, sent, timeout=timeout)
        else:
            first_ms = client.wait_diagnostics(uri, 1, sent, timeout, versioned=True)
        first_at = sent + first_ms / 1000
        out = {"initialize": init_ms, "first": first_ms,
               "first_from_spawn": (first_at - client.started) * 1000,
               "indexed_first": 1.0 if client.progress_ended.is_set() else 0.0}
        if wait_index:
            if not client.progress_ended.wait(timeout):
                raise TimeoutError("the index never reported its end")
            assert isinstance(client.progress_ended, _Stamped)
            index_at = client.progress_ended.at
            assert index_at is not None
            out["index"] = (index_at - client.started) * 1000
            out["rss"] = client.peak_rss_mb()
        return out
    finally:
        client.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--upstream", help="lm-evaluation-harness git dir (git archive)")
    source.add_argument("--tree", type=Path, help="a folder holding lm_eval/tasks")
    parser.add_argument("--commit", default=PINNED)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pull", action="store_true")
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = args.tree.resolve() if args.tree else extract(args.upstream, args.commit,
                                                              Path(tmp)).parents[1]
        count = sum(1 for _ in (root / "lm_eval" / "tasks").rglob("*.yaml"))
        print(f"lm_eval/tasks at {args.commit[:8]}: {count} .yaml files; "
              f"{'pull' if args.pull else 'push'} client; {args.runs} runs per file")
        print(f"{'file':<40} {'initialize':>10} {'open->diag':>10} {'spawn->diag':>11} "
              f"{'index done first':>16}")
        for opened in OPENED:
            runs = [one_run(root, opened, pull=args.pull, timeout=args.timeout,
                            wait_index=False) for _ in range(args.runs)]

            def med(key: str, runs: list[dict[str, float]] = runs) -> float:
                return statistics.median(r[key] for r in runs)

            early = sum(int(r["indexed_first"]) for r in runs)
            print(f"{opened.removeprefix('lm_eval/tasks/'):<40} {med('initialize'):>8.0f}ms "
                  f"{med('first'):>8.0f}ms {med('first_from_spawn'):>9.0f}ms "
                  f"{early:>12}/{len(runs)}")
        whole = one_run(root, OPENED[0], pull=args.pull, timeout=args.timeout, wait_index=True)
        print(f"one more spawn, waiting for the index: spawn -> index built "
              f"{whole['index']:.0f} ms, first file's diagnostics at "
              f"{whole['first_from_spawn']:.0f} ms, server peak RSS {whole['rss']:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
