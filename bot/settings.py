"""Settings from the environment. A missing or bad setting stops start-up with one clear line."""

from __future__ import annotations

from enum import Enum

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

TELEGRAM_API = "https://api.telegram.org/bot"


class Mode(str, Enum):
    polling = "polling"
    webhook = "webhook"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    bot_token: SecretStr = Field(validation_alias=AliasChoices("BOT_TOKEN"))
    telegram_api_base_url: str = Field(TELEGRAM_API, validation_alias=AliasChoices("TELEGRAM_API_BASE_URL"))
    db_path: str = Field("karata.db", validation_alias=AliasChoices("KARATA_DB"))
    mode: Mode = Field(Mode.polling, validation_alias=AliasChoices("KARATA_MODE"))
    webhook_url: str | None = Field(None, validation_alias=AliasChoices("KARATA_WEBHOOK_URL"))
    # The bot's one HTTP server (bot/web.py): the webhook, /healthz, /metrics and the Mini App.
    # Port 0 lets the system choose (tests). The webhook's old names still work.
    http_listen: str = Field(
        "0.0.0.0", validation_alias=AliasChoices("KARATA_HTTP_LISTEN", "KARATA_WEBHOOK_LISTEN")
    )
    http_port: int = Field(
        8080, ge=0, le=65535, validation_alias=AliasChoices("KARATA_HTTP_PORT", "KARATA_WEBHOOK_PORT")
    )
    webhook_secret: SecretStr | None = Field(None, validation_alias=AliasChoices("KARATA_WEBHOOK_SECRET"))
    # The language of a group until an admin chooses one with /language.
    group_language: str = Field("sw", pattern="^(sw|en)$", validation_alias=AliasChoices("KARATA_GROUP_LANGUAGE"))
    log_level: str = Field("INFO", validation_alias=AliasChoices("KARATA_LOG_LEVEL"))
    # How long a player has for a decision unless the table chose otherwise (0: no timer).
    turn_seconds: int = Field(90, ge=0, le=3600, validation_alias=AliasChoices("KARATA_TURN_SECONDS"))
    # Seconds before a timeout at which the table warns.
    warn_seconds: int = Field(20, ge=0, le=600, validation_alias=AliasChoices("KARATA_WARN_SECONDS"))
    # Telegram allows a bot about 30 calls a second in all, and 20 a minute in one group (edits,
    # deletions and polls count too).
    bot_messages_per_second: int = Field(30, ge=1, le=10000, validation_alias=AliasChoices("KARATA_BOT_RATE"))
    group_messages_per_minute: int = Field(20, ge=1, le=6000, validation_alias=AliasChoices("KARATA_GROUP_RATE"))
    # Seconds between a round's end and the next deal being shown.
    round_pause_seconds: float = Field(5.0, ge=0, le=120, validation_alias=AliasChoices("KARATA_ROUND_PAUSE_SECONDS"))
    # How long a Rule Vote stays open.
    vote_seconds: float = Field(120, gt=0, le=3600, validation_alias=AliasChoices("KARATA_VOTE_SECONDS"))
    # How long a tied vote waits for a champion to defend a rule whose author is away.
    champion_seconds: float = Field(120, gt=0, le=3600, validation_alias=AliasChoices("KARATA_CHAMPION_SECONDS"))
    # A table nobody touched for this long ends (a Lopti session's end; abandoned games).
    session_idle_hours: float = Field(12, gt=0, le=720, validation_alias=AliasChoices("KARATA_SESSION_IDLE_HOURS"))
    # Seconds a player may be idle on their turn before a private "your turn" nudge.
    nudge_seconds: float = Field(8, ge=0, le=600, validation_alias=AliasChoices("KARATA_NUDGE_SECONDS"))
    # A computer player's pause before its move, so that a group can follow the game.
    computer_seconds: float = Field(1.5, ge=0, le=30, validation_alias=AliasChoices("KARATA_COMPUTER_SECONDS"))
    # Processes in which strong computer players search (0: a thread of the bot's own process,
    # which then slows other tables' presses while it thinks: tables/thinking.py).
    computer_workers: int = Field(1, ge=0, le=64, validation_alias=AliasChoices("KARATA_COMPUTER_WORKERS"))
    # The Mini App (docs/MINIAPP.md): the public HTTPS URL at which the bot's server serves it
    # (its /app/ path behind the operator's TLS proxy); unset, the app is off.
    webapp_url: str | None = Field(None, validation_alias=AliasChoices("KARATA_WEBAPP_URL"))
    # The Mini App's short name registered with @BotFather, for links from groups (t.me/<bot>/<name>).
    webapp_name: str | None = Field(None, pattern="^[A-Za-z0-9_]{3,30}$", validation_alias=AliasChoices("KARATA_WEBAPP_NAME"))
    # The games' full guides (<game>.md, sw/<game>.md) that /guide sends; unset: the source checkout's.
    guides_dir: str | None = Field(None, validation_alias=AliasChoices("KARATA_GUIDES_DIR"))

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        token = value.get_secret_value().strip()
        bot_id, _, secret = token.partition(":")
        if not bot_id.isdigit() or len(secret) < 8:
            raise ValueError("BOT_TOKEN does not look like a token from @BotFather (digits:letters)")
        return SecretStr(token)

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("KARATA_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level

    @field_validator("telegram_api_base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("TELEGRAM_API_BASE_URL must start with http:// or https://")
        return value

    @field_validator("webapp_url")
    @classmethod
    def _webapp_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        # Telegram opens Mini Apps over HTTPS only; plain http is for this machine (the demo).
        if not value.startswith(("https://", "http://127.0.0.1", "http://localhost")):
            raise ValueError("KARATA_WEBAPP_URL must start with https://")
        return value if value.endswith("/") else value + "/"

    @model_validator(mode="after")
    def _webhook_needs_url(self) -> Settings:
        if self.mode is Mode.webhook and not self.webhook_url:
            raise ValueError("KARATA_MODE=webhook needs KARATA_WEBHOOK_URL")
        return self

    @property
    def token(self) -> str:
        return self.bot_token.get_secret_value()

    @property
    def base_file_url(self) -> str:
        base = self.telegram_api_base_url
        return base[: -len("/bot")] + "/file/bot" if base.endswith("/bot") else base


_ENV_NAMES = {
    "bot_token": "BOT_TOKEN",
    "telegram_api_base_url": "TELEGRAM_API_BASE_URL",
    "db_path": "KARATA_DB",
    "mode": "KARATA_MODE",
    "webhook_url": "KARATA_WEBHOOK_URL",
    "http_listen": "KARATA_HTTP_LISTEN",
    "http_port": "KARATA_HTTP_PORT",
    "webhook_secret": "KARATA_WEBHOOK_SECRET",
    "log_level": "KARATA_LOG_LEVEL",
    "group_language": "KARATA_GROUP_LANGUAGE",
    "turn_seconds": "KARATA_TURN_SECONDS",
    "warn_seconds": "KARATA_WARN_SECONDS",
    "nudge_seconds": "KARATA_NUDGE_SECONDS",
    "computer_seconds": "KARATA_COMPUTER_SECONDS",
    "computer_workers": "KARATA_COMPUTER_WORKERS",
    "group_messages_per_minute": "KARATA_GROUP_RATE",
    "bot_messages_per_second": "KARATA_BOT_RATE",
    "round_pause_seconds": "KARATA_ROUND_PAUSE_SECONDS",
    "session_idle_hours": "KARATA_SESSION_IDLE_HOURS",
    "vote_seconds": "KARATA_VOTE_SECONDS",
    "champion_seconds": "KARATA_CHAMPION_SECONDS",
    "guides_dir": "KARATA_GUIDES_DIR",
    "webapp_url": "KARATA_WEBAPP_URL",
    "webapp_name": "KARATA_WEBAPP_NAME",
}


class SettingsError(SystemExit):
    """Raised with one human line; never a traceback, never a secret value."""


def load_settings(**overrides: object) -> Settings:
    try:
        return Settings(**overrides)
    except ValidationError as error:
        first = error.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else ""
        name = _ENV_NAMES.get(field, field.upper() or "settings")
        if first["type"] == "missing":
            raise SettingsError(f"karata: {name} is not set") from None
        # The message is pydantic's description, never the input value (it may be the token).
        message = str(first["msg"]).removeprefix("Value error, ")
        raise SettingsError(f"karata: bad setting {name}: {message}") from None
