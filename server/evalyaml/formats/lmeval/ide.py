"""The editor's view of an lm-eval task: hover on a key shows the effective (merged) config."""

from __future__ import annotations

from evalyaml.formats.base import FormatIde

IDE = FormatIde()
