"""Whether this machine can run the browser tests: Debian's Chromium, which CI must have.

Every browser test module calls :func:`skip_without_chromium` before importing the shared browser
fixtures of ``test_table_browser``: once that module has been skipped, importing names from it
fails, so the check comes first (without Chromium, ``bash scripts/test`` skips them, never errs).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")


def skip_without_chromium() -> None:
    """Skip the calling test module when Chromium is missing, except under CI (where it must run)."""
    if not CHROMIUM.exists() and not os.environ.get("CI"):
        pytest.skip("browser tests need Debian's Chromium at /usr/bin/chromium", allow_module_level=True)
