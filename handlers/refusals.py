"""Refusal codes (from the table service and the engines) as short localized answers.

An answer says what to do next where it can. Engine codes a game renderer does not know fall
back to the engine's own English message, so a player is never left with a bare code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.i18n import N_, Translator

if TYPE_CHECKING:
    from tables.models import Outcome

SERVICE_REFUSALS: dict[str, str] = {
    "no_table": N_("This table is closed. Start a new one with /newgame."),
    "not_lobby": N_("This table has already started."),
    "not_playing": N_("This match is over."),
    "already_joined": N_("You are already at this table."),
    "table_full": N_("The table is full ({limit} players)."),
    "not_seated": N_("You are not playing at this table."),
    "not_creator": N_("Only the player who opened the table can start it."),
    "not_creator_or_admin": N_("Only the player who opened the table or a group admin can cancel it."),
    "not_creator_or_admin_end": N_("Only the player who opened the table or a group admin can end the session."),
    "not_member": N_("Only members of the table's group can join it."),
    "group_only": N_("Tables are opened in groups: add me to a group and send /newgame there."),
    "player_count": N_("This game needs {low}-{high} players."),
    "table_exists": N_("This chat already has a table. Finish or /cancel it first."),
    "unknown_game": N_("I do not know the game {game}."),
    "bad_option": N_("Bad option: {detail}"),
    "stale": N_("That button is from an earlier move. Here are your current cards."),
    "malformed": N_("I did not understand that button."),
    "too_late": N_("Too late: the game has moved on."),
    "round_pause": N_("The next round starts in a moment."),
    "unknown_button": N_("That button no longer exists. Here are your current cards."),
    "not_admin": N_("Only a group admin can do that."),
}

ENGINE_REFUSALS: dict[str, str] = {
    "not_your_turn": N_("It is not your turn."),
    "not_in_hand": N_("You do not hold that card."),
    "illegal_card": N_("That card cannot be played now."),
    "must_follow_suit": N_("You must follow suit."),
    "penalty_pending": N_("Answer the penalty or draw the cards."),
}


def refusal_text(code: str | None, message: str | None, values: Mapping[str, Any], _: Translator, game_texts: Mapping[str, str] | None = None) -> str:
    texts = {**ENGINE_REFUSALS, **(game_texts or {}), **SERVICE_REFUSALS}
    if code in texts:
        try:
            return _(texts[code], **values)
        except (KeyError, IndexError):
            return _(texts[code])
    return message or (code or "")


def outcome_text(outcome: Outcome, _: Translator, game_texts: Mapping[str, str] | None = None) -> str:
    """`refusal_text` for a refused request of the table service."""
    return refusal_text(outcome.code, outcome.message, outcome.values, _, game_texts)
