"""The Mini App's initData, checked as Telegram documents ("Validating data received via the
Mini App"): the data is signed with a key derived from the bot token, so only Telegram (or
whoever holds the token) can say who the user is.

secret_key = HMAC_SHA256(key="WebAppData", msg=bot_token); the hash is
hex(HMAC_SHA256(key=secret_key, msg=data_check_string)), where data_check_string is every
received field but `hash`, sorted by key, as `key=value` lines joined by "\\n".
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

# How long a signed initData stands: Telegram signs it when the app opens.
MAX_AGE_SECONDS = 24 * 3600
# A clock a little ahead of ours is not a forgery.
FUTURE_SLACK_SECONDS = 60
MAX_INIT_DATA = 4096


@dataclass(frozen=True)
class WebAppUser:
    id: int
    name: str
    language_code: str | None
    start_param: str | None
    auth_date: int


class BadInitData(ValueError):
    """The initData is missing, forged, malformed or expired (the message says which, in English,
    for logs; players get the catalog's sentence). An expired one was signed by Telegram: it
    still says who the user is (`user`), so that they are refused in their own language."""

    def __init__(self, reason: str, user: WebAppUser | None = None):
        super().__init__(reason)
        self.user = user

    @property
    def expired(self) -> bool:
        return self.user is not None


def claimed_language(init_data: str) -> str | None:
    """The language code an initData says its user has, signed or not: only to choose the
    language of a refusal (the page, which cannot check the signature, chooses the same way)."""
    try:
        user = json.loads(dict(parse_qsl(init_data[:MAX_INIT_DATA])).get("user", ""))
    except ValueError:
        return None
    code = user.get("language_code") if isinstance(user, dict) else None
    return code if isinstance(code, str) else None


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def signature(key: bytes, fields: dict[str, str]) -> str:
    return hmac.new(key, data_check_string(fields).encode(), hashlib.sha256).hexdigest()


def check_init_data(init_data: str, key: bytes, now: float) -> WebAppUser:
    """The user the initData vouches for; `key` is `secret_key(token)` (computed once)."""
    if not init_data or len(init_data) > MAX_INIT_DATA:
        raise BadInitData("missing or over-long initData")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise BadInitData("initData is not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise BadInitData("a field given twice")
    given = fields.get("hash", "")
    if not hmac.compare_digest(signature(key, fields).encode(), given.encode()):
        raise BadInitData("wrong hash")
    try:
        auth_date = int(fields.get("auth_date", ""))
    except ValueError:
        raise BadInitData("no auth_date") from None
    try:
        user = json.loads(fields.get("user", ""))
        user_id = int(user["id"])
    except (ValueError, TypeError, KeyError):
        raise BadInitData("no user") from None
    if not isinstance(user, dict) or user_id <= 0:
        raise BadInitData("no user")
    name = str(user.get("first_name") or user.get("username") or user_id)[:32]
    language = user.get("language_code") if isinstance(user.get("language_code"), str) else None
    found = WebAppUser(user_id, name, language, fields.get("start_param") or None, auth_date)
    if auth_date < now - MAX_AGE_SECONDS or auth_date > now + FUTURE_SLACK_SECONDS:
        raise BadInitData("expired auth_date", user=found)
    return found
