"""Settings from the environment. A missing or bad setting stops start-up with one clear line."""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping
from enum import Enum
from typing import Any
from urllib.parse import SplitResult, urlsplit

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

TELEGRAM_API = "https://api.telegram.org/bot"
# The ports Telegram posts webhook updates to.
WEBHOOK_PORTS = (443, 80, 88, 8443)


class Mode(str, Enum):
    polling = "polling"
    webhook = "webhook"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    # The bot's token from @BotFather (never printed).
    bot_token: SecretStr = Field(validation_alias=AliasChoices("BOT_TOKEN"))
    # Where the Bot API is (a local Bot API server, or the fake one in tests).
    telegram_api_base_url: str = Field(TELEGRAM_API, validation_alias=AliasChoices("TELEGRAM_API_BASE_URL"))
    # The SQLite database file (in the image: /data/karata.db on the volume), or a PostgreSQL URL.
    db_path: str = Field("karata.db", validation_alias=AliasChoices("KARATA_DB"))
    # How updates arrive: polling (the bot asks) or webhook (Telegram posts to KARATA_WEBHOOK_URL).
    mode: Mode = Field(Mode.polling, validation_alias=AliasChoices("KARATA_MODE"))
    # The public https URL Telegram posts updates to (webhook mode); its path is served locally.
    webhook_url: str | None = Field(None, validation_alias=AliasChoices("KARATA_WEBHOOK_URL"))
    # The bot's one HTTP server (bot/web.py): the webhook, /healthz, /metrics and the Mini App.
    # Loopback unless told otherwise: a proxy on this host reaches it, nobody else (the image
    # sets 0.0.0.0 for the proxy's container). The old names KARATA_WEBHOOK_LISTEN/PORT still work.
    http_listen: str = Field("127.0.0.1", validation_alias=AliasChoices("KARATA_HTTP_LISTEN", "KARATA_WEBHOOK_LISTEN"))
    # Its port (0: the system chooses a free one, as tests do).
    http_port: int = Field(
        8080, ge=0, le=65535, validation_alias=AliasChoices("KARATA_HTTP_PORT", "KARATA_WEBHOOK_PORT")
    )
    # Telegram sends it with every webhook update; an update without it is refused (403).
    webhook_secret: SecretStr | None = Field(None, validation_alias=AliasChoices("KARATA_WEBHOOK_SECRET"))
    # The language of a group until an admin chooses one with /language.
    group_language: str = Field("sw", pattern="^(sw|en)$", validation_alias=AliasChoices("KARATA_GROUP_LANGUAGE"))
    # DEBUG, INFO, WARNING, ERROR or CRITICAL.
    log_level: str = Field("INFO", validation_alias=AliasChoices("KARATA_LOG_LEVEL"))
    # How long a player has for a decision unless the table chose otherwise (0: no timer).
    turn_seconds: int = Field(90, ge=0, le=3600, validation_alias=AliasChoices("KARATA_TURN_SECONDS"))
    # Seconds before a timeout at which the table warns.
    warn_seconds: int = Field(20, ge=0, le=600, validation_alias=AliasChoices("KARATA_WARN_SECONDS"))
    # Telegram allows a bot about 30 calls a second in all, and 20 a minute in one group (edits,
    # deletions and polls count too).
    bot_messages_per_second: int = Field(30, ge=1, le=10000, validation_alias=AliasChoices("KARATA_BOT_RATE"))
    # (KARATA_BOT_RATE a second bot-wide, KARATA_GROUP_RATE a minute in one group.)
    group_messages_per_minute: int = Field(20, ge=1, le=6000, validation_alias=AliasChoices("KARATA_GROUP_RATE"))
    # How long Telegram's second lasts for those limits: 1. Tests keep the limits on a faster clock
    # (0.1: a group's minute lasts 6 s), with the fake Bot API's `telegram_second` the same.
    telegram_second: float = Field(1.0, gt=0, le=1, validation_alias=AliasChoices("KARATA_TELEGRAM_SECOND"))
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
    # How long an arena night's minute lasts, in seconds: 60 (tests and demos run arenas faster).
    arena_minute_seconds: float = Field(60.0, gt=0, le=60, validation_alias=AliasChoices("KARATA_ARENA_MINUTE_SECONDS"))
    # Processes in which strong computer players search (0: a thread of the bot's own process,
    # which then slows other tables' presses while it thinks: tables/thinking.py).
    computer_workers: int = Field(1, ge=0, le=64, validation_alias=AliasChoices("KARATA_COMPUTER_WORKERS"))
    # The Mini App (docs/MINIAPP.md): the public HTTPS URL at which the bot's server serves it
    # (its /app/ path behind the operator's TLS proxy); unset, the app is off.
    webapp_url: str | None = Field(None, validation_alias=AliasChoices("KARATA_WEBAPP_URL"))
    # The Mini App's short name registered with @BotFather, for links from groups (t.me/<bot>/<name>).
    webapp_name: str | None = Field(
        None, pattern="^[A-Za-z0-9_]{3,30}$", validation_alias=AliasChoices("KARATA_WEBAPP_NAME")
    )
    # The games' full guides (<game>.md, sw/<game>.md) that /guide sends; unset: the source checkout's.
    guides_dir: str | None = Field(None, validation_alias=AliasChoices("KARATA_GUIDES_DIR"))
    # /healthz says unhealthy when no update arrived (polling: no getUpdates answered) for this long.
    health_seconds: float = Field(120, gt=0, le=86400, validation_alias=AliasChoices("KARATA_HEALTH_SECONDS"))
    # "text": a line a person reads; "json": one JSON object a line, for log stacks.
    log_format: str = Field("text", pattern="^(text|json)$", validation_alias=AliasChoices("KARATA_LOG_FORMAT"))
    # Telegram user ids (comma-separated) of the bot's owners, who get /status in private.
    owner_ids: str = Field("", validation_alias=AliasChoices("KARATA_OWNER_IDS"))
    # Whose matches /stats, /top and /history count in a fleet on one database: this bot's
    # ("bot") or every bot's ("fleet"); docs/OPERATIONS.md, "A fleet".
    records: str = Field("bot", pattern="^(bot|fleet)$", validation_alias=AliasChoices("KARATA_RECORDS"))

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

    @field_validator("webhook_secret")
    @classmethod
    def _telegram_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", value.get_secret_value()):
            raise ValueError("KARATA_WEBHOOK_SECRET must be 1 to 256 letters, digits, _ or - (Telegram's rule)")
        return value

    @field_validator("owner_ids")
    @classmethod
    def _user_ids(cls, value: str) -> str:
        if not all(part.strip().isdigit() for part in value.split(",") if part.strip()):
            raise ValueError("KARATA_OWNER_IDS must be Telegram user ids separated by commas (like 12345,67890)")
        return value

    @field_validator("webapp_name", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        # An empty variable (as compose.yaml passes an unset one) means the setting is not set.
        return None if value == "" else value

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        url = _one_url(value, "KARATA_WEBHOOK_URL")
        # Telegram's setWebhook refuses anything else, and only after start-up.
        if url.scheme != "https":
            raise ValueError("KARATA_WEBHOOK_URL must start with https:// (Telegram posts updates over HTTPS only)")
        if url.port not in (None, *WEBHOOK_PORTS):
            raise ValueError("KARATA_WEBHOOK_URL's port must be 443, 80, 88 or 8443 (Telegram posts to no other)")
        return value

    @field_validator("webapp_url")
    @classmethod
    def _webapp_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        url = _one_url(value, "KARATA_WEBAPP_URL")
        # Telegram opens Mini Apps over HTTPS only; plain http is for this machine (the demo).
        if url.scheme != "https" and not (url.scheme == "http" and url.hostname in ("127.0.0.1", "localhost")):
            raise ValueError("KARATA_WEBAPP_URL must start with https://")
        value = value if value.endswith("/") else value + "/"
        # The bot serves the app under /app/ (a proxy may put it under a longer path).
        if not urlsplit(value).path.endswith("/app/") or url.query or url.fragment:
            raise ValueError(
                "KARATA_WEBAPP_URL must end in /app/, where the bot serves the app (like https://karata.example/app/)"
            )
        return value

    @model_validator(mode="after")
    def _webhook_needs_url(self) -> Settings:
        if self.mode is Mode.webhook and not self.webhook_url:
            raise SettingProblem("KARATA_WEBHOOK_URL", "KARATA_MODE=webhook needs the bot's public https URL here")
        return self

    @property
    def owners(self) -> frozenset[int]:
        return frozenset(int(part) for part in self.owner_ids.split(",") if part.strip())

    @property
    def token(self) -> str:
        return self.bot_token.get_secret_value()

    @property
    def bot_id(self) -> int:
        """The bot's own number (the token's first part): a fleet's tables and locks are told apart by it."""
        return int(self.token.partition(":")[0])

    @property
    def base_file_url(self) -> str:
        base = self.telegram_api_base_url
        return base[: -len("/bot")] + "/file/bot" if base.endswith("/bot") else base


def _one_url(value: str, variable: str) -> SplitResult:
    """An absolute URL without spaces (a space is a paste that went wrong, never part of a URL)."""
    if any(character.isspace() for character in value):
        raise ValueError(f"{variable} must be one URL, without spaces")
    url = urlsplit(value)
    if not url.hostname:
        raise ValueError(f"{variable} must be a whole URL with its host, like https://karata.example/...")
    return url


def env_name(field: str) -> str:
    """A setting's environment variable: the first name its field accepts."""
    alias = Settings.model_fields[field].validation_alias
    assert isinstance(alias, AliasChoices)
    return str(alias.choices[0])


_ENV_NAMES = {field: env_name(field) for field in Settings.model_fields}


def _comments() -> dict[str, str]:
    """Each setting's comment in the class above: what `karata --help` says of it."""
    found: dict[str, str] = {}
    lines: list[str] = []
    for line in inspect.getsource(Settings).splitlines():
        text = line.strip()
        if text.startswith("#"):
            lines.append(text.lstrip("# "))
            continue
        name = text.partition(":")[0]
        if name in Settings.model_fields and lines:
            found[name] = " ".join(lines)
        if not text.startswith(")"):
            lines = []
    return found


def settings_help() -> str:
    """Every setting: its variable, its default, and what it is for."""
    comments = _comments()
    lines = ["settings (environment variables):"]
    for field, info in Settings.model_fields.items():
        if info.is_required():
            default = "required"
        elif info.default is None or info.default == "":
            default = "not set"
        else:
            value = info.default.value if isinstance(info.default, Enum) else info.default
            default = f"default {value}"
        lines.append(f"  {_ENV_NAMES[field]} ({default})")
        if field in comments:
            lines.append(f"      {comments[field]}")
    return "\n".join(lines)


class SettingsError(SystemExit):
    """Raised with one human line; never a traceback, never a secret value."""


class SettingProblem(ValueError):
    """A problem found across settings, blamed on the variable that must change."""

    def __init__(self, variable: str, message: str):
        super().__init__(message)
        self.variable = variable


def load_settings(**overrides: Any) -> Settings:
    try:
        return Settings(**overrides)
    except ValidationError as error:
        first = error.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else ""
        problem = (first.get("ctx") or {}).get("error")
        name = problem.variable if isinstance(problem, SettingProblem) else _ENV_NAMES.get(field, field.upper())
        if first["type"] == "missing":
            raise SettingsError(f"karata: {name} is not set") from None
        # Said in plain words, never with the input value (it may be the token).
        raise SettingsError(f"karata: bad setting {name}: {plain_problem(first)}") from None


def _number(value: object) -> object:
    """2.0 as 2: a limit reads as the operator would write it."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def plain_problem(error: Mapping[str, Any]) -> str:
    """What a setting must be, for one of pydantic's errors, in the command line's own words."""
    kind = error["type"]
    context = {key: _number(value) for key, value in (error.get("ctx") or {}).items()}
    choices = re.fullmatch(r"\^\(([\w|]+)\)\$", str(context.get("pattern", "")))
    name = re.fullmatch(r"\^\[A-Za-z0-9_\]\{(\d+),(\d+)\}\$", str(context.get("pattern", "")))
    said = {
        "int_parsing": "must be a whole number",
        "int_from_float": "must be a whole number",
        "float_parsing": "must be a number",
        "bool_parsing": "must be true or false",
        "greater_than_equal": f"must be at least {context.get('ge')}",
        "less_than_equal": f"must be at most {context.get('le')}",
        "greater_than": f"must be more than {context.get('gt')}",
        "less_than": f"must be less than {context.get('lt')}",
        "enum": f"must be {str(context.get('expected', '')).replace(chr(39), '')}",
        "string_pattern_mismatch": (
            f"must be {' or '.join(choices[1].split('|'))}"
            if choices
            else f"must be {name[1]} to {name[2]} letters, digits or _"
            if name
            else "is not in the expected form (see karata --help)"
        ),
    }
    if kind in said:
        return said[kind]
    return str(error["msg"]).removeprefix("Value error, ")
