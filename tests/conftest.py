from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With pytest-xdist (``scripts/test`` runs ``-n auto --dist loadgroup``), the browser tests
    share one worker (one Chromium at a time) and so do the PostgreSQL ones (one database)."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        callspec = getattr(item, "callspec", None)
        if "browser" in names:
            item.add_marker(pytest.mark.xdist_group("browser"))
        elif "postgres" in item.path.name or (callspec is not None and callspec.params.get("db_url") == "postgresql"):
            item.add_marker(pytest.mark.xdist_group("postgresql"))
