"""Shared test configuration: every hypothesis test checks the same examples on every run.

A derandomized profile without an example database makes a run depend only on the code: CI
and every machine see the same examples, and a failure found once is found again. The
examples of a test come from its name and settings, so adding a test changes no other test's.
Deadlines are off because a random match's length varies, and a shared CI machine is slow.
"""

from __future__ import annotations

import logging

import pytest
from hypothesis import settings

from tests.postgres_server import PostgresServer

settings.register_profile("karata", derandomize=True, database=None, deadline=None)
settings.load_profile("karata")


# Tests that take many seconds of their own (many random matches, processes started, Chromium),
# marked long here in one place besides those marked in their files:
# `pytest -m "not long"`, the inner loop, leaves them out.
LONG = (
    "tests/lopti/test_lopti_advance.py::test_advance_and_apply_give_identical_states_and_events",
    "tests/lopti/test_lopti_house_rules.py::test_random_sessions_with_house_rules_votes_and_duels",
    "tests/lopti/test_lopti_properties.py::test_random_sessions_keep_every_invariant",
    "tests/lopti/test_lopti_views.py::test_views_and_events_show_only_what_the_viewer_may_see",
    "tests/kadi/test_kadi_properties.py::test_random_matches_keep_every_invariant",
    "tests/kadi/test_kadi_views.py::test_no_view_or_event_shows_a_card_its_viewer_may_not_see",
    "tests/pitch/test_pitch_views.py::test_no_view_or_event_shows_a_hidden_card",
    "tests/core/test_core_rng.py::test_a_shuffle_is_the_order_random_shuffle_gives_for_the_same_label",
    "tests/handlers/test_input_parsers.py::test_start_payloads_are_ours_or_nothing",
    "tests/render/test_prompts_match_keyboards.py::test_the_prompt_names_exactly_what_the_keyboard_offers",
    "tests/bot/test_cli.py::test_the_same_seed_gives_the_same_swahili_transcript",
    "tests/bot/test_cli.py::test_verbose_prints_every_message_in_english_on_request",
    "tests/bot/test_cli.py::test_a_piped_arena_prints_",
    "tests/e2e/test_process.py::",
    "tests/e2e/test_database_at_start.py::test_",
    "tests/e2e/test_games_at_the_table.py::test_a_whole_match_of_euchre_for_three",
    "tests/e2e/test_house_rule_text.py::test_the_winner_",
    "tests/e2e/test_backup_and_restore.py::test_a_backup_taken_mid_match_restores_every_acknowledged_move",
    "tests/e2e/test_crashes_and_strangers.py::test_without_a_turn_timer_every_round_and_pause_moves_on",
    "tests/e2e/test_chat_changes.py::test_a_fault_window_loses_no_acknowledged_move",
    "tests/bot/test_cli.py::test_a_demo_that_never_deals_says_why_and_fails",
    "tests/webapp/test_demo.py::test_karata_demo_webapp_prints_a_working_link_and_stops_on_ctrl_c",
    "tests/webapp/browser/",
)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """The workers of `-n auto` (pyproject.toml): six for the whole suite, whose long tests mostly
    wait (timers, processes, the browser) so that their waiting overlaps the rest; four for the
    inner loop (`-m "not long"`), whose tests keep a core busy: the same wall time as six on two
    cores, with a fifth less CPU time (each worker collects the whole suite, about 6 s of a core)."""
    return 4 if "not long" in (config.option.markexpr or "") else 6


# The slowest tests, slowest first (their latency on a busy machine: docs/DEVELOPMENT.md). Each
# worker takes the next test when it is done with its own (`--maxschedchunk 1` in pyproject.toml),
# so starting these before the rest leaves no worker alone with one of them at the end of the run.
SLOWEST = (
    "tests/webapp/browser/test_play_in_the_app.py::test_pitch_match_",
    "tests/webapp/browser/test_play_in_the_app.py::test_lopti_swaps_",
    "tests/webapp/browser/test_play_in_the_app.py::test_euchre3_match_",
    "tests/e2e/test_flood_after_restart.py::",
    "tests/e2e/test_process.py::test_kill_9_",
    "tests/webapp/browser/test_play_in_the_app.py::test_kadi_match_",
    "tests/e2e/test_fleet.py::",
    "tests/e2e/test_crashes_and_strangers.py::test_without_a_turn_timer_",
    "tests/webapp/browser/test_play_in_the_app.py::test_three_thirteen_round_",
    "tests/e2e/test_backup_and_restore.py::test_a_backup_taken_mid_match_",
    "tests/e2e/test_flood_budget.py::test_a_whole_match_",
)


def _start_rank(item: pytest.Item) -> tuple[int, int]:
    """The slowest first, in SLOWEST's order; then the other long tests; then the rest."""
    for rank, prefix in enumerate(SLOWEST):
        if item.nodeid.startswith(prefix):
            return 0, rank
    return (1, 0) if item.get_closest_marker("long") else (2, 0)


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked `long` go first, the slowest of them first: handed to the workers one at a
    time, their waiting overlaps the quick tests instead of ending the run alone (the order is
    the same on every worker)."""
    for item in items:
        if item.nodeid.startswith(LONG):
            item.add_marker(pytest.mark.long)
    items.sort(key=_start_rank)


@pytest.fixture(autouse=True)
def logging_as_pytest_set_it():
    """Each test leaves logging as it found it. `karata run` called in-process (tests/bot/test_cli.py)
    puts a handler on the test's captured stderr in place of the root logger's and quiets some
    loggers: every later record of that worker then printed a "Logging error" with its stack, and
    the later tests ran with other levels than alone."""
    root = logging.getLogger()
    handlers = [handler for handler in root.handlers if not _pytests(handler)]
    levels = {logger: logger.level for logger in _loggers()}
    yield
    # pytest's own handlers come and go with each phase of the test: those of this phase stay.
    root.handlers[:] = handlers + [handler for handler in root.handlers if _pytests(handler)]
    for logger in _loggers():
        if logger.level != levels.get(logger, logging.NOTSET):  # setLevel clears every logger's cache
            logger.setLevel(levels.get(logger, logging.NOTSET))
    logging.captureWarnings(False)


def _pytests(handler: logging.Handler) -> bool:
    return type(handler).__module__.startswith("_pytest.")


def _loggers() -> list[logging.Logger]:
    named = logging.Logger.manager.loggerDict.values()
    return [logging.getLogger(), *(logger for logger in named if isinstance(logger, logging.Logger))]


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
