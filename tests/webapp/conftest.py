"""The Mini App's tests run the real bot on the fake Bot API, as the end-to-end tests do."""

from tests.e2e.conftest import api, db_path, start_bot, token  # noqa: F401  (fixtures)
