"""What the editor features know of the contract beyond its JSON Schemas, as data."""

from __future__ import annotations

from evalyaml.formats.base import FormatIde, KeyDoc
from evalyaml.formats.contract.judge import TEMPLATE_VARIABLES

TEMPLATE_DOCS = {
    "input": "The case's `input`: the prompt or question sent to the system under test.",
    "output": "The answer being judged: what the system under test replied.",
    "expected": "The case's expected answer (`expected`), for reference-based judging.",
    "context": "Supplied or retrieved context (documents, tool results) the answer may use.",
}

IDE = FormatIde(
    template_variables={("judge", ("template",)): tuple(
        KeyDoc(name, TEMPLATE_DOCS.get(name, "")) for name in TEMPLATE_VARIABLES)},
)
