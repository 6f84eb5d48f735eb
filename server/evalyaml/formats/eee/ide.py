"""Editor data the schemas cannot give. The shipped schemas describe every key and enum, so
completion and hover walk them (the JSON cursor, `evalyaml.ide.json_cursor`); nothing extra is
needed yet."""

from __future__ import annotations

from evalyaml.formats.base import FormatIde

IDE = FormatIde()
