#!/usr/bin/env python3
"""Runs the `aei_fuzz` package beside this file (hostile AEI sessions
checked against pyrimaa.board): see `aei_fuzz/__init__.py` for what it
checks, or pass `--help`."""

import os
import sys

# This file's own folder holds the package; when this file is run, Python
# already searches it first, but not when it is loaded another way.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from aei_fuzz.__main__ import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
