"""The registry of formats is imported before any test is collected: it adds every format's
codes to the catalogue (`core.codes.register`), which tests parametrize over and which the
contract's rules (`formats/contract/`) report into."""

import pytest

import evalyaml.formats  # noqa: F401
from evalyaml.syntax.yaml.parse import c_parser_available


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Which YAML parser this run exercised, in every run's summary (`-q` included): CI runs
    the suite with libyaml (ruamel.yaml.clib) and again without it, as the VS Code bundle
    ships (`.ci/run`)."""
    terminalreporter.write_line(f"ruamel parser: {'C' if c_parser_available() else 'pure'}")
