"""What the styles add to the common check of drawn statistics (`check_drawn_as_read`):
per language, the check's seconds without its styles and with them, side by side in one
run (a warm-up run first, so that engines shared by a process are started in both),
with the load average.

    PYTHONPATH=src python bench/language_styles.py [LANGUAGE …]
"""

from __future__ import annotations

import os
import sys
import time
from unittest import mock

from diagbench.languages import LANGUAGES, named
from diagbench.languages.checks import check_drawn_as_read
from diagbench.languages.record import Language


def seconds(language: Language, styled: bool) -> float:
    styles = language.styles() if styled else ()
    with mock.patch.object(type(language), "styles", lambda self: styles):
        start = time.perf_counter()
        check_drawn_as_read(language)
        return time.perf_counter() - start


def main(names: list[str]) -> None:
    languages = [named(n) for n in names] if names else list(LANGUAGES)
    print(f"load average at start: {os.getloadavg()}")
    print(f"{'language':16} {'styles':>6} {'without s':>10} {'with s':>8} {'added s':>8}")
    total = [0.0, 0.0]
    for language in languages:
        seconds(language, styled=False)  # warm-up: a process's shared engines started
        without, with_styles = seconds(language, False), seconds(language, True)
        total[0] += without
        total[1] += with_styles
        print(f"{language.name:16} {len(language.styles()):6d} {without:10.1f} "
              f"{with_styles:8.1f} {with_styles - without:8.1f}", flush=True)
    print(f"{'all':16} {'':6} {total[0]:10.1f} {total[1]:8.1f} {total[1] - total[0]:8.1f}")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main(sys.argv[1:])
