"""`python -m bidi_lsp`: the client's command line.

The daemon is `--server PATH`, else $BIDI_LSP, else the `bidi-lsp` this
wheel installed beside the interpreter (so that it is found even when the
environment's bin folder is not on the PATH), else `bidi-lsp` on the PATH.
"""

import os
import sys
import sysconfig

from bidi_lsp import main

if not os.environ.get("BIDI_LSP"):
    installed = os.path.join(sysconfig.get_path("scripts"), "bidi-lsp")
    if os.access(installed, os.X_OK):
        os.environ["BIDI_LSP"] = installed

sys.exit(main())
