"""Refusal codes (from the table service and the engines) as short localized answers.

An answer says what to do next where it can. Every code an engine or the table service can
return has a text here or in its game's renderer (tests/bot/test_refusals.py checks this); an
unknown code would fall back to the engine's own English message, never to a bare code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from handlers.i18n import N_, Translator

if TYPE_CHECKING:
    from tables.models import Outcome

SERVICE_REFUSALS: dict[str, str] = {
    "no_table": N_("This table is closed. Start a new one with /newgame."),
    "not_lobby": N_("This table has already started."),
    "cancelled": N_("This table was closed: it was cancelled. Start a new one with /newgame."),
    "closed_empty": N_("This table was closed: everyone left. Start a new one with /newgame."),
    "not_playing": N_("This match is over."),
    "already_joined": N_("You are already at this table."),
    "table_full": N_("The table is full ({limit} players)."),
    "not_seated": N_("You are not playing at this table."),
    "not_creator": N_("Only the player who opened the table can start it."),
    "not_creator_or_admin": N_("Only the player who opened the table or a group admin can cancel it."),
    "not_creator_or_admin_end": N_("Only the player who opened the table or a group admin can end the session."),
    "not_member": N_("Only members of the table's group can join it."),
    "group_only": N_("Tables are opened in groups: add me to a group and send /newgame there."),
    "player_count": N_("This table needs {low}-{high} players."),
    "player_count_exact": N_("This table needs {count} players."),
    "table_exists": N_("This chat already has a table. Finish or /cancel it first."),
    "unknown_game": N_("I do not know the game {game}."),
    "bad_option": N_(
        "I cannot use the option {option}: its name or value is wrong. Write options as name=value, "
        "for example timer=60."
    ),
    "stale": N_("That button is from an earlier move. Here are your current cards."),
    "malformed": N_("I did not understand that button."),
    "too_late": N_("Too late: the game has moved on."),
    "round_pause": N_("The next round starts in a moment."),
    "unknown_button": N_("That button no longer exists. Here are your current cards."),
    "not_admin": N_("Only a group admin can do that."),
    "no_human": N_("A match needs at least one person: computer players do not play alone."),
    "not_creator_computers": N_("Only the player who opened the table can add or remove computer players."),
    "dm_closed": N_("I cannot write to you: open the private chat with me, press Start, then try again."),
    "no_computer": N_("There is no computer player at this table."),
    "last_human": N_("You are the last person at this table: end it with /endsession or /cancel instead."),
    "no_rule_vote": N_("This game has no Rule Vote: only Lopti's players change its rules by vote."),
}

# Codes several engines share, with the same meaning in each (a game's own text wins).
# Engines give no values with a refusal, so these texts have no placeholders.
ENGINE_REFUSALS: dict[str, str] = {
    "not_your_turn": N_("It is not your turn."),
    "not_in_hand": N_("You do not hold that card."),
    "illegal_card": N_("That card cannot be played now."),
    "must_follow_suit": N_("You must follow suit."),
    "penalty_pending": N_("Answer the penalty or draw the cards."),
    "match_over": N_("This match is over. Press Play again for a new one."),
    "unknown_action": N_("I cannot do that here. Use the buttons under your cards."),
    "not_a_player": N_("Only players at this table can act."),
    "not_a_card": N_("That is not a card. Choose one with the buttons."),
    "not_in_deck": N_("That card is not in this game's deck. Choose one of your cards."),
    "empty_play": N_("Choose at least one card to play."),
    "mixed_ranks": N_("Cards played together must be of one rank, like 7 and 7."),
}


def refusal_text(
    code: str | None,
    message: str | None,
    values: Mapping[str, Any],
    _: Translator,
    game_texts: Mapping[str, str] | None = None,
) -> str:
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
