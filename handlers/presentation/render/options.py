"""What a refused /newgame option may be: each game's options read from its engine's Options
model (the one place their ranges live), and the bot's own words (timer, bots, level, standin).

A refusal names the valid range: `/newgame kadi hand_size=99` gets «hand_size can be 5-8.»
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from annotated_types import Ge, Le
from pydantic.fields import FieldInfo

from engine.registry import get_game
from handlers.i18n import Translator
from handlers.presentation.render.common import game_title

# The words /newgame reads besides the game's options (handlers/chat/lobby.py checks them), as
# (low, high) for numbers or the accepted values.
TABLE_WORDS: dict[str, tuple[int, int] | tuple[Any, ...]] = {
    "timer": (0, 3600),
    "bots": (0, 6),
    "level": ("easy", "strong"),
    "standin": (True, False),
}


def shown(value: Any) -> str:
    """A value as it is typed after `=`: true, false, 7, pagat."""
    return "true" if value is True else "false" if value is False else str(value)


def either(values: Sequence[Any], _: Translator) -> str:
    """«easy or strong», «24, 32 or 40» (the reader's «or»)."""
    words = [shown(value) for value in values]
    if len(words) == 1:
        return words[0]
    # TRANSLATORS: joins the last two values an option may take: «easy or strong», «5, 7 au 10».
    return _("{values} or {last}", values=", ".join(words[:-1]), last=words[-1])


def field_values(field: FieldInfo, _: Translator) -> str | None:
    """The values a game option's field accepts, as a player types them."""
    annotation = field.annotation
    if annotation is bool:
        return either((True, False), _)
    if typing.get_origin(annotation) is typing.Literal:
        return either(typing.get_args(annotation), _)
    if annotation is int:
        low = next((item.ge for item in field.metadata if isinstance(item, Ge)), None)
        high = next((item.le for item in field.metadata if isinstance(item, Le)), None)
        if low is not None and high is not None:
            return f"{low}-{high}"
        if low is not None:
            return _("{low} or more", low=low)
        return _("a whole number")
    return None


def accepted(game: str, option: str, _: Translator) -> str | None:
    """«hand_size can be 5-8.», or None when the option is not one of this game's or the bot's."""
    if option in TABLE_WORDS:
        values = TABLE_WORDS[option]
        numbers = all(isinstance(value, int) and not isinstance(value, bool) for value in values)
        text = f"{values[0]}-{values[1]}" if numbers else either(values, _)
    else:
        field = get_game(game).Options.model_fields.get(option)
        text = field_values(field, _) if field is not None else None
    if text is None:
        return None
    return _("{option} can be {values}.", option=escape(option), values=escape(text))


def option_names(game: str) -> list[str]:
    return [*get_game(game).Options.model_fields, *TABLE_WORDS]


def option_refusal(game: str, option: str, _: Translator) -> str:
    """Why an option word was refused, naming what it may be, or which options the game has."""
    range_text = accepted(game, option, _)
    if range_text is not None:
        return range_text
    return _(
        "{game} has no option {option}. Its options: {options}.",
        game=escape(game_title(game, _)),
        option=escape(option),
        options=", ".join(option_names(game)),
    )


def refused_word(game: str, word: str, options: Mapping[str, Any], _: Translator) -> str:
    """The answer to a /newgame whose `word` (name=value) was refused."""
    option = word.partition("=")[0]
    return _("I cannot use {word}.", word=escape(word)) + " " + option_refusal(game, option, _)
