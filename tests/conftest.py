"""Shared test configuration: every hypothesis test checks the same examples on every run.

A derandomized profile without an example database makes a run depend only on the code: CI
and every machine see the same examples, and a failure found once is found again. The
examples of a test come from its name and settings, so adding a test changes no other test's.
Deadlines are off because a random match's length varies, and a shared CI machine is slow.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

from tests.postgres_server import PostgresServer

settings.register_profile("karata", derandomize=True, database=None, deadline=None)
settings.load_profile("karata")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked `long` go first: spread over the workers at the start, their waiting overlaps
    the quick tests instead of ending the run alone (the order is the same on every worker)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.fixture(scope="session")
def postgres():
    """The session's PostgreSQL server (tests/postgres_server.py), started when a test first needs it."""
    server = PostgresServer()
    if server.unavailable is None:
        server.start()
    yield server
    server.stop()


def postgres_database(request: pytest.FixtureRequest) -> str:
    """A fresh database on the session's server, or the test skips saying why there is none."""
    server = request.getfixturevalue("postgres")
    if server.unavailable:
        pytest.skip(server.unavailable)
    return server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path) -> str:
    """Where the test's store lives (`KARATA_DB`): an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "karata.db")
    return postgres_database(request)
