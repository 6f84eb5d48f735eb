"""Allows `python -m evalyaml ...`, which editors use when the script is not on PATH."""

from evalyaml.cli import main

raise SystemExit(main())
