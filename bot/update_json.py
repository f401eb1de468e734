"""A webhook's body read as a Telegram update, or refused whole: the bot's handlers only ever see
updates whose objects have the fields Telegram always sends.

python-telegram-bot's `Update.de_json` trusts its input: a `message` that is a number fails with
AttributeError, a date too large with OverflowError, and `my_chat_member: {}` becomes an object
whose chat and users are None, which fails later in a handler. Here every such body is one
`NotAnUpdate`, for the webhook to answer 400.
"""

from __future__ import annotations

import functools
import inspect
import json

from telegram import Bot, TelegramObject, Update


class NotAnUpdate(ValueError):
    """The body is not a Telegram update (the message says why, briefly, in English)."""


def read_update(raw: bytes, bot: Bot) -> Update:
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
        raise NotAnUpdate("not JSON") from None
    if not isinstance(data, dict) or type(data.get("update_id")) is not int:
        raise NotAnUpdate("not an object with an update_id")
    try:
        update = Update.de_json(data, bot)
        missing = _missing_field(update)
    except Exception as error:  # de_json fails on wrong types with whatever the type does
        raise NotAnUpdate(f"not an update ({type(error).__name__})") from None
    if missing is not None:
        raise NotAnUpdate(f"no {missing}")
    return update


def _missing_field(found: TelegramObject) -> str | None:
    """The first field Telegram always sends that is None in `found` or an object inside it."""
    for name in _required(type(found)):
        if getattr(found, name, None) is None:
            return f"{type(found).__name__}.{name}"
    for name in _fields(type(found)):
        value = getattr(found, name, None)
        for inner in value if isinstance(value, tuple) else (value,):
            missing = _missing_field(inner) if isinstance(inner, TelegramObject) else None
            if missing is not None:
                return missing
    return None


@functools.cache
def _fields(cls: type[TelegramObject]) -> tuple[str, ...]:
    return tuple(name for name in inspect.signature(cls).parameters if name != "api_kwargs")


@functools.cache
def _required(cls: type[TelegramObject]) -> tuple[str, ...]:
    parameters = inspect.signature(cls).parameters.values()
    return tuple(p.name for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
