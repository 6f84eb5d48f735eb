"""Allows `python -m evalyaml ...`, which editors use when the script is not on PATH."""

from evalyaml.cli import main

# The guard matters: a spawned worker process (index loading, the language server's case
# worker) imports the parent's main module, and must not start a second command.
if __name__ == "__main__":
    raise SystemExit(main())
