"""A webhook's body read as a Telegram update, or refused whole: the bot's handlers only ever see
updates whose objects have the fields Telegram always sends.

python-telegram-bot's `Update.de_json` trusts its input: a `message` that is a number fails with
AttributeError, a date too large with OverflowError, `my_chat_member: {}` becomes an object whose
chat and users are None and a `text` of 5 stays a number, each of which fails later in a
handler. Here every such body is one `NotAnUpdate`, for the webhook to answer 400: each object
must have the fields its class requires, and each string, number or boolean field (or list of
them) must hold that type, as the library's own annotations say.
"""

from __future__ import annotations

import functools
import inspect
import json
import types
import typing
from collections.abc import Sequence

from telegram import Bot, TelegramObject, Update

# The JSON types a field annotated with each scalar type may hold (a bool is no int here).
SCALARS: dict[object, tuple[type, ...]] = {str: (str,), int: (int,), float: (int, float), bool: (bool,)}


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
        missing = _problem(update)
    except Exception as error:  # de_json fails on wrong types with whatever the type does
        raise NotAnUpdate(f"not an update ({type(error).__name__})") from None
    if missing is not None:
        raise NotAnUpdate(f"not an update: {missing}")
    return update


def _problem(found: TelegramObject) -> str | None:
    """The first field of `found` or of an object inside it that is absent though required, or
    not of its scalar type."""
    # The caches take the class, which is hashable; mypy checks TelegramObject's instance
    # __hash__ against Hashable instead (hence the two ignores).
    for name in _required(type(found)):  # type: ignore[arg-type]
        if getattr(found, name, None) is None:
            return f"{type(found).__name__}.{name} missing"
    for name, (scalar, many) in _fields(type(found)).items():  # type: ignore[arg-type]
        value = getattr(found, name, None)
        values = value if isinstance(value, tuple) else (value,)
        if scalar is not None and value is not None:
            if many != isinstance(value, tuple) or not all(_holds(inner, scalar) for inner in values):
                return f"{type(found).__name__}.{name} of a wrong type"
        for inner in values:
            missing = _problem(inner) if isinstance(inner, TelegramObject) else None
            if missing is not None:
                return missing
    return None


@functools.cache
def _fields(cls: type[TelegramObject]) -> dict[str, tuple[tuple[type, ...] | None, bool]]:
    """Each field's name: the JSON types it may hold if it is a scalar or a list of scalars
    (None otherwise), and whether it is a list."""
    found = {}
    for name, parameter in _parameters(cls).items():
        kinds = [kind for kind in _union(parameter.annotation) if kind is not type(None)]
        single = kinds[0] if len(kinds) == 1 else None
        if typing.get_origin(single) is Sequence and len(typing.get_args(single)) == 1:
            found[name] = (SCALARS.get(typing.get_args(single)[0]), True)
        else:
            found[name] = (SCALARS.get(single), False)
    return found


def _holds(value: object, kinds: tuple[type, ...]) -> bool:
    """`value` is one of `kinds` (an enum of str is a str: the library converts known values)."""
    return isinstance(value, kinds) and (bool in kinds or not isinstance(value, bool))


def _union(annotation: object) -> tuple[object, ...]:
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return typing.get_args(annotation)
    return (annotation,)


@functools.cache
def _required(cls: type[TelegramObject]) -> tuple[str, ...]:
    parameters = _parameters(cls).values()
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(p.name for p in parameters if p.default is p.empty and p.kind in named)


def _parameters(cls: type[TelegramObject]) -> dict[str, inspect.Parameter]:
    """The class's fields, but those read through a property: the library's deprecated names
    and durations given as seconds or timedelta, which warn when read and are never scalars."""
    return {
        name: parameter
        for name, parameter in inspect.signature(cls).parameters.items()
        if name != "api_kwargs" and not isinstance(inspect.getattr_static(cls, name, None), property)
    }
