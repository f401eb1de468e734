"""Start-up settings: one clear line for a missing or bad setting, and the token never shown."""

import logging

import pytest

from bot.logs import RedactSecrets
from bot.settings import SettingsError, load_settings

TOKEN = "123456789:AAHsecretsecretsecret"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in (
        "BOT_TOKEN",
        "TELEGRAM_API_BASE_URL",
        "KARATA_DB",
        "KARATA_MODE",
        "KARATA_WEBHOOK_URL",
        "KARATA_LOG_LEVEL",
        "KARATA_WEBAPP_URL",
    ):
        monkeypatch.delenv(name, raising=False)


def test_a_missing_token_stops_start_up_with_one_line():
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert str(caught.value) == "karata: BOT_TOKEN is not set"


def test_a_malformed_token_is_refused_without_echoing_it(monkeypatch):
    monkeypatch.setenv("BOT_TOKEN", "not-a-token-but-secret")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert "BOT_TOKEN" in str(caught.value)
    assert "not-a-token-but-secret" not in str(caught.value)


def test_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", "http://127.0.0.1:9999/bot")
    monkeypatch.setenv("KARATA_DB", "/tmp/x.db")
    settings = load_settings()
    assert settings.token == TOKEN
    assert settings.telegram_api_base_url == "http://127.0.0.1:9999/bot"
    assert settings.db_path == "/tmp/x.db"
    assert TOKEN not in repr(settings)


def test_webhook_mode_needs_its_url(monkeypatch):
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("KARATA_MODE", "webhook")
    with pytest.raises(SettingsError, match="KARATA_WEBHOOK_URL"):
        load_settings()


def test_an_unknown_mode_is_named(monkeypatch):
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("KARATA_MODE", "carrier-pigeon")
    with pytest.raises(SettingsError, match="KARATA_MODE"):
        load_settings()


def test_the_log_filter_removes_the_token_from_messages_and_tracebacks():
    record = logging.LogRecord("httpx", logging.INFO, __file__, 1, "POST %s", (f"https://x/bot{TOKEN}/getMe",), None)
    RedactSecrets(TOKEN).filter(record)
    assert TOKEN not in record.getMessage()
    try:
        raise RuntimeError(f"failed at /bot{TOKEN}/sendMessage")
    except RuntimeError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "boom", (), sys.exc_info())
    RedactSecrets(TOKEN).filter(record)
    formatted = logging.Formatter().format(record)
    assert TOKEN not in formatted
    assert "<BOT_TOKEN>" in formatted


def test_a_problem_across_settings_names_the_variable_to_set(monkeypatch):
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("KARATA_MODE", "webhook")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    line = str(caught.value)
    assert line.startswith("karata: bad setting KARATA_WEBHOOK_URL: ") and "\n" not in line
    assert "settings" not in line.removeprefix("karata: bad setting")


@pytest.mark.parametrize(
    "variable, value",
    [("KARATA_HTTP_PORT", "99999"), ("KARATA_OWNER_IDS", "12,alice"), ("KARATA_LOG_FORMAT", "xml"),
     ("KARATA_HEALTH_SECONDS", "0"), ("KARATA_TURN_SECONDS", "soon"), ("KARATA_WEBHOOK_SECRET", "has spaces")],
)  # fmt: skip
def test_every_bad_setting_is_one_line_naming_its_variable(monkeypatch, variable, value):
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert str(caught.value).startswith(f"karata: bad setting {variable}: ") and "\n" not in str(caught.value)


def test_owners_are_read_from_a_comma_separated_list(monkeypatch):
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("KARATA_OWNER_IDS", "12, 34,")
    assert load_settings().owners == {12, 34}


def test_karata_help_lists_every_setting_with_its_default(capsys):
    from bot.cli import main
    from bot.settings import Settings, env_name

    with pytest.raises(SystemExit):
        main(["--help"])
    printed = capsys.readouterr().out
    for field in Settings.model_fields:
        assert env_name(field) in printed, field
    assert "KARATA_HTTP_PORT (default 8080)" in printed
    assert "KARATA_HEALTH_SECONDS (default 120)" in printed
    assert "BOT_TOKEN (required)" in printed


def test_empty_mini_app_variables_leave_the_app_off(monkeypatch):
    """compose.yaml passes unset variables as empty strings: the app stays off, start-up goes on."""
    monkeypatch.setenv("BOT_TOKEN", "123456:ABCDEFGHIJ")
    monkeypatch.setenv("KARATA_WEBAPP_URL", "")
    monkeypatch.setenv("KARATA_WEBAPP_NAME", "")
    settings = load_settings()
    assert settings.webapp_url is None and settings.webapp_name is None


@pytest.mark.parametrize(
    "value, complaint",
    [
        ("http://karata.example/telegram/hook", "must start with https://"),
        ("https://karata.example:8080/telegram/hook", "port must be 443, 80, 88 or 8443"),
        ("https://karata.example/telegram/ hook", "without spaces"),
        ("karata.example/telegram/hook", "with its host"),
    ],
)
def test_a_webhook_url_telegram_would_refuse_is_one_line_at_start_up(monkeypatch, value, complaint):
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("KARATA_MODE", "webhook")
    monkeypatch.setenv("KARATA_WEBHOOK_URL", value)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    line = str(caught.value)
    assert line.startswith("karata: bad setting KARATA_WEBHOOK_URL: ") and complaint in line and "\n" not in line


def test_a_webhook_url_on_a_port_telegram_posts_to_is_taken(monkeypatch):
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("KARATA_MODE", "webhook")
    monkeypatch.setenv("KARATA_WEBHOOK_URL", "https://karata.example:8443/telegram/hook")
    assert load_settings().webhook_url == "https://karata.example:8443/telegram/hook"


@pytest.mark.parametrize(
    "value, complaint",
    [
        ("https://karata.example/", "must end in /app/"),
        ("https://karata.example/application/", "must end in /app/"),
        ("https://karata.example/app/?x=1", "must end in /app/"),
        ("https://karata.example/app/ ", "without spaces"),
        ("https://karata .example/app/", "without spaces"),
        ("http://karata.example/app/", "must start with https://"),
        ("http://localhost.evil.example/app/", "must start with https://"),
    ],
)
def test_a_mini_app_url_the_bot_does_not_serve_is_one_line_at_start_up(monkeypatch, value, complaint):
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("KARATA_WEBAPP_URL", value)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    line = str(caught.value)
    assert line.startswith("karata: bad setting KARATA_WEBAPP_URL: ") and complaint in line and "\n" not in line


@pytest.mark.parametrize(
    "value, taken",
    [
        ("https://karata.example/app/", "https://karata.example/app/"),
        ("https://karata.example/app", "https://karata.example/app/"),
        ("https://karata.example/games/app/", "https://karata.example/games/app/"),
        ("http://127.0.0.1:8080/app/", "http://127.0.0.1:8080/app/"),
    ],
)
def test_a_mini_app_url_ending_in_app_is_taken(monkeypatch, value, taken):
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("KARATA_WEBAPP_URL", value)
    assert load_settings().webapp_url == taken
