"""Runs the evalyaml language server bundled with the VS Code extension.

The extension starts it as `<python> -I evalyaml_server.py lsp` (isolated mode: PYTHONPATH,
the user site and the current folder are ignored), so whatever the interpreter has installed,
the bundled evalyaml and its bundled dependencies in ../libs (built by
scripts/bundle-server.mjs) are the ones imported. Arguments are passed to the `evalyaml`
command line; none means `lsp`.
"""

import os
import sys

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")


def main() -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 - any interpreter may run this file
        version = ".".join(map(str, sys.version_info[:2]))
        sys.stderr.write(
            f"evalyaml: the bundled server needs Python 3.11 or newer; this is {version}"
            f" ({sys.executable})\n"
        )
        return 2
    if not os.path.isdir(os.path.join(LIBS, "evalyaml")):
        sys.stderr.write(f"evalyaml: the bundled server is missing ({LIBS})\n")
        return 2
    # First on sys.path, so an evalyaml or dependency of another version installed in this
    # interpreter is never mixed in. Spawned worker processes inherit this sys.path.
    sys.path.insert(0, LIBS)
    from evalyaml.cli import main as cli_main

    return cli_main(sys.argv[1:] or ["lsp"])


# The guard matters: a spawned worker process imports this file again as __mp_main__.
if __name__ == "__main__":
    sys.exit(main())
