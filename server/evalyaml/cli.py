"""`evalyaml check | validate-dataset | validate-rubric | validate-judge | schema | lsp`.

Exit codes: 0 when nothing reaches error severity, 1 when something does, 2 for usage or I/O
errors (argparse already exits 2 on bad arguments).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

from evalyaml import __version__

if TYPE_CHECKING:
    import argparse

    from evalyaml.core.kinds import Kind

# The formats, the checker, the renderers and the schemas are imported where they are used: an
# editor starting `evalyaml lsp` must not wait for them (`_lsp_fast`; the server imports them
# after it has answered `initialize`, lsp/bootstrap.py).


def _validate_kinds() -> dict[str, Kind]:
    """`validate-<kind>`: the kinds of the fallback format (the contract)."""
    from evalyaml.formats import FALLBACK

    return {f"validate-{kind.value}": kind for kind in FALLBACK.kinds}


def _schema_kinds() -> dict[str, Kind]:
    from evalyaml.formats import FALLBACK

    return {kind.value: kind for kind in FALLBACK.kinds}


def _date(text: str) -> date:
    import argparse

    try:
        return date.fromisoformat(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text}") from err


def _add_check_options(parser: argparse.ArgumentParser) -> None:
    import argparse

    from evalyaml.report import RENDERERS

    parser.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None,
                        help="every contract finding is an error; --no-strict: soft mode "
                        "(either overrides the config file)")
    parser.add_argument("--format", choices=sorted(RENDERERS), default="text",
                        help="output format (default: text)")
    parser.add_argument("--today", type=_date, default=None, metavar="YYYY-MM-DD",
                        help="judge freshness as of this date instead of today")
    parser.add_argument("--fix", action="store_true",
                        help="apply the safe fixes (checksums, digests, row counts, pins, "
                        "quotes...), re-checking until stable, then report what is left")
    parser.add_argument("--unsafe-fixes", action="store_true",
                        help="with --fix or --diff, also the fixes that change meaning "
                        "(did-you-mean renames)")
    parser.add_argument("--diff", action="store_true",
                        help="print the fixes as a unified diff and write nothing (exit 1 "
                        "when there is something to fix)")
    parser.add_argument("--show-kinds", action="store_true",
                        help="print each checked file's format and kind, and why it was "
                        "taken for one, instead of the findings")
    parser.add_argument("--statistics", action="store_true",
                        help="print a count per code (and how many are fixable) instead of "
                        "the findings")


_CHECK_EPILOG = """exit codes:
  0  nothing reaches error severity (warnings and hints do not fail a run; --strict makes
     every contract finding an error)
  1  at least one error (with --diff: there is something to fix)
  2  usage or I/O error

configuration: evalyaml.toml, or [tool.evalyaml] in pyproject.toml, in the workspace root
(found upwards from each path): strict, freshness_days, include, exclude, select, ignore,
extend-select, extend-ignore, [per-file-ignores], [severity], bundles. Silence one finding
with a trailing '# evalyaml: ignore[EYnnn]'. Each code: 'evalyaml rule EYnnn'."""


def _formats_named() -> str:
    from evalyaml.formats import FORMATS

    titles = [f.title for f in FORMATS]
    return ", ".join(titles[:-1]) + f" and {titles[-1]}" if len(titles) > 1 else titles[0]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; `only`: the top level and that one command's parser, which parses
    `evalyaml <only> ...` the same (each command's options are its own parser's) without
    building the others (argparse looks up translations for every help text it formats)."""
    import argparse

    parser = argparse.ArgumentParser(prog="evalyaml", description=(
        f"Checks LLM-evaluation files: {_formats_named()}."))
    parser.add_argument("--version", action="version", version=f"evalyaml {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    validate = _validate_kinds()
    if only not in {"check", "schema", "lsp", "rule", "graph", *validate}:
        only = None  # an option first, a typo, or nothing: the whole parser says what is wrong

    def wanted(name: str) -> bool:
        return only is None or only == name

    if wanted("check"):
        check = commands.add_parser(
            "check", help="check files and folders (default: .)",
            description=f"Check the eval files ({_formats_named()}) under the named files and "
            "folders.", epilog=_CHECK_EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter)
        check.add_argument("paths", nargs="*", type=Path, default=[Path()], metavar="PATH")
        _add_check_options(check)

    for name, kind in validate.items():
        if not wanted(name):
            continue
        sub = commands.add_parser(name, help=f"check files as {kind.value} files, whatever "
                                  "their folder or shape")
        sub.add_argument("paths", nargs="+", type=Path, metavar="FILE")
        _add_check_options(sub)

    if wanted("schema"):
        schema = commands.add_parser("schema", help="print a JSON Schema")
        schema.add_argument("kind", choices=list(_schema_kinds()))

    if wanted("lsp"):
        lsp = commands.add_parser("lsp", help="run the language server (stdio by default)")
        lsp.add_argument("--stdio", action="store_true",
                         help="talk over stdin/stdout (default)")
        lsp.add_argument("--tcp", metavar="HOST:PORT",
                         help="listen on a TCP port, for debugging")
        lsp.add_argument("--log-level", default="WARNING",
                         choices=["DEBUG", "INFO", "WARNING", "ERROR"])

    if wanted("rule"):
        rule = commands.add_parser("rule",
                                   help="explain a diagnostic code (its documentation)")
        rule.add_argument("code", metavar="CODE")

    if wanted("graph"):
        graph = commands.add_parser("graph", help="print the reference graph (cases -> "
                                    "rubrics -> judges)")
        graph.add_argument("paths", nargs="*", type=Path, default=[Path()], metavar="PATH")
        graph.add_argument("--format", choices=["dot", "json"], default="dot")
    return parser


def _lsp_fast(argv: list[str]) -> int | None:
    """`evalyaml lsp [--stdio] [--tcp HOST:PORT] [--log-level L]` without building the full
    parser (which imports the checker); None for anything else (the full parser decides)."""
    if argv[:1] != ["lsp"] or any(a in ("-h", "--help") for a in argv):
        return None
    import argparse

    parser = argparse.ArgumentParser(prog="evalyaml lsp", add_help=False)
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--tcp")
    parser.add_argument("--log-level", default="WARNING",
                        choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    known, rest = parser.parse_known_args(argv[1:])
    if rest:
        return None
    from evalyaml.lsp.server import run

    return int(run(tcp=known.tcp, log_level=known.log_level))


CHECK_DEFAULTS = {"strict": None, "format": "text", "today": None, "fix": False,
                  "unsafe_fixes": False, "diff": False, "show_kinds": False,
                  "statistics": False}
"""What `check`'s parser sets for the options not given (`_add_check_options`)."""


def check_fast(argv: list[str]) -> SimpleNamespace | None:
    """`evalyaml check [PATH...]` with no option, as a pre-commit hook runs it, parsed without
    argparse (whose import, help formatter and translation look-ups cost a one-file check a
    tenth of its start): the attributes `build_parser` would give. None for anything else
    (an option, `--`, `-`, another command): the full parser decides."""
    if argv[:1] != ["check"] or any(arg.startswith("-") for arg in argv[1:]):
        return None
    return SimpleNamespace(command="check", paths=[Path(arg) for arg in argv[1:]] or [Path()],
                           **CHECK_DEFAULTS)


def main(argv: Sequence[str] | None = None) -> int:
    fast = _lsp_fast(list(sys.argv[1:] if argv is None else argv))
    if fast is not None:
        return fast
    # Importing the checker builds thousands of long-lived objects (classes, compiled patterns)
    # and no garbage: collecting during it costs a tenth of a small check's start. Frozen
    # afterwards, later collections do not rescan them either.
    gc.disable()
    try:
        from evalyaml.checker import CheckError
    finally:
        gc.freeze()
        gc.enable()

    args_list = list(sys.argv[1:] if argv is None else argv)
    args: argparse.Namespace | SimpleNamespace | None = check_fast(args_list)
    if args is None:
        parser = build_parser(args_list[0] if args_list else None)
        args = parser.parse_args(args_list)
        if args.command is None:
            parser.print_help()
            return 0
    try:
        if args.command == "rule":
            from evalyaml.rule import explain

            text, code = explain(args.code)
            (sys.stdout if code == 0 else sys.stderr).write(text)
            return code
        if args.command == "check" or args.command.startswith("validate-"):
            return _check(args)
        if args.command == "schema":
            from evalyaml.core.schemas import schema_text

            sys.stdout.write(schema_text(_schema_kinds()[args.kind]))
            return 0
        if args.command == "lsp":
            from evalyaml.lsp.server import run

            return int(run(tcp=args.tcp, log_level=args.log_level))
        if args.command == "graph":
            return _graph(args.paths, args.format)
    except CheckError as err:
        print(f"evalyaml: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return 2  # pragma: no cover - argparse rejects unknown commands first


def _check(args: argparse.Namespace | SimpleNamespace) -> int:
    from evalyaml.checker import check_paths
    from evalyaml.core.codes import Severity
    from evalyaml.report import RENDERERS

    if args.command == "check":
        # A path pre-commit passes for a deleted file, or one a script names that went away:
        # told, not a usage error, so the rest is still checked.
        for gone in [p for p in args.paths if not p.exists()]:
            print(f"evalyaml: notice: skipped {gone}: no such file or directory",
                  file=sys.stderr)
        args.paths = [p for p in args.paths if p.exists()]
        if not args.paths:
            return 0
    result = check_paths(args.paths, strict=args.strict, today=args.today,
                         force_kind=_validate_kinds().get(args.command))
    if args.fix or args.diff:
        from evalyaml.fixes import fix_workspaces
        from evalyaml.report import display_path

        fixed = fix_workspaces(result, unsafe=args.unsafe_fixes)
        if args.diff:
            sys.stdout.write(fixed.diff({p: display_path(p) for p in fixed.after}))
            return 1 if fixed.after else 0
        fixed.write()
        print(f"Fixed {fixed.applied} finding{'s' if fixed.applied != 1 else ''} in "
              f"{len(fixed.after)} file{'s' if len(fixed.after) != 1 else ''}", file=sys.stderr)
        result = check_paths(args.paths, strict=args.strict, today=args.today,
                             force_kind=_validate_kinds().get(args.command))
    if args.show_kinds:
        from evalyaml.report import render_kinds

        sys.stdout.write(render_kinds(result))
    elif args.statistics:
        from evalyaml.report import render_statistics

        sys.stdout.write(render_statistics(result))
    else:
        sys.stdout.write(RENDERERS[args.format](result))
    has_error = any(f.severity is Severity.ERROR for _, f in result.all_findings())
    return 1 if has_error else 0


def _graph(paths: list[Path], fmt: str) -> int:
    """`evalyaml graph`: 0 on success, 2 (a `CheckError`) for a path that does not exist."""
    from evalyaml.checker import group_by_workspace
    from evalyaml.report import display_path
    from evalyaml.workspace.graph import Graph, build_graph, to_dot, to_json
    from evalyaml.workspace.index import Workspace

    graph = Graph()
    for root, asked in group_by_workspace(list(paths)).items():
        workspace = Workspace([root], include_paths=asked)
        workspace.index_all()
        part = build_graph(workspace, workspace.included_files(), display_path)
        for node in part.nodes.values():
            graph.add(node)
        graph.edges.extend(part.edges)
    sys.stdout.write(to_json(graph) if fmt == "json" else to_dot(graph))
    return 0
