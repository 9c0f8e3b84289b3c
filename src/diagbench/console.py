"""Exit codes and progress bars, shared by every command (the CLI's and those a
benchmark contributes).

Exit codes: 0 success; 1 some item has errors (diagnostics, invalid renders,
failed calls above the allowed rate); 2 usage error; 3 some input could not be
used (the others are still processed); 4 internal error.
"""

from __future__ import annotations

import sys

import click

EXIT_OK, EXIT_DIAGNOSTICS, EXIT_USAGE, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3, 4


def progress_bar(length: int, label: str):
    """A progress bar on stderr, shown only on a terminal and for more than a few items."""
    return click.progressbar(length=length, label=label, file=sys.stderr,
                             hidden=not (sys.stderr.isatty() and length > 20))
