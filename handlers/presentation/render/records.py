"""What /stats, /top and /history show: pure text from the records (tables/records.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from html import escape

from babel.dates import format_date
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from handlers.i18n import Translator
from handlers.presentation.callback_data import MatchReplay
from handlers.presentation.games import renderer_for
from handlers.presentation.games.base import winners_line
from handlers.presentation.render.common import game_title, rows
from tables.records import PROVISIONAL_BELOW, Board, GameRecord, PastMatch, Ranked
from tables.seasons import PLAYERS_TIME  # dates are East Africa Time; the bot keeps no zone per chat

HISTORY_BUTTONS_PER_ROW = 5


def shown_rating(rating: float) -> int:
    """A rating as players read it: 1000 for a newcomer (mu - 3 sigma = 0), about 100 more per
    early win; openskill's ordinal itself is a small number around 0."""
    return round(1000 + 40 * rating)


def match_date(finished_at: float, _: Translator, now: float | None = None) -> str:
    """«3 Des»; the year too when it is not this year's."""
    day = datetime.fromtimestamp(finished_at, PLAYERS_TIME)
    this_year = datetime.fromtimestamp(now, PLAYERS_TIME).year if now is not None else datetime.now(PLAYERS_TIME).year
    return format_date(day, "d MMM" if day.year == this_year else "d MMM y", locale=_.language)


# ----- /stats -------------------------------------------------------------------------------------
def stats_text(name: str, records: Sequence[GameRecord], in_group: bool, _: Translator) -> str:
    """A player's record per game: in this group, or across all groups (the private chat)."""
    who = f"<b>{escape(name)}</b>"
    if not records:
        if in_group:
            return _("{name} has not finished a match in this group yet.", name=who)
        return _("{name} has not finished a match yet.", name=who)
    heading = _("📊 {name} in this group", name=who) if in_group else _("📊 {name} in all groups", name=who)
    lines = [heading]
    for record in records:
        lines.append("")
        lines.extend(game_record_lines(record, _))
    return "\n".join(lines)


def game_record_lines(record: GameRecord, _: Translator) -> list[str]:
    game = f"<b>{escape(game_title(record.game, _))}</b>"
    played = _.plural(
        "{game}: {count} match, {won} won ({rate}%)",
        "{game}: {count} matches, {won} won ({rate}%)",
        record.played,
        game=game,
        won=record.won,
        rate=round(100 * record.win_rate),
    )
    details = []
    if record.rating is not None:
        rating = shown_rating(record.rating)
        if record.played < PROVISIONAL_BELOW:
            details.append(_("rating {rating} (provisional)", rating=rating))
        else:
            details.append(_("rating {rating}", rating=rating))
    details.append(_("best: {score}", score=renderer_for(record.game).score_text(record.best, _)))
    details.append(streak_text(record.streak, _))
    return [played, " · ".join(details)]


def streak_text(streak: int, _: Translator) -> str:
    if streak > 0:
        return _.plural("{count} win in a row", "{count} wins in a row", streak)
    return _.plural("{count} match without a win", "{count} matches without a win", -streak)


def hidden_text(name: str, _: Translator) -> str:
    return _("{name} keeps their record private.", name=f"<b>{escape(name)}</b>")


# ----- /top ---------------------------------------------------------------------------------------
def board_text(board: Board, other_games: Sequence[str], _: Translator, command: str = "/top") -> str:
    """The ratings of all time; `command` is how the other games' boards are asked for."""
    game = f"<b>{escape(game_title(board.game, _))}</b>"
    lines = [_("🏆 {game} leaderboard in this group", game=game)]
    if not (board.ranked or board.provisional or board.computers):
        lines.append(_("No finished matches of this game here yet."))
    for number, ranked in enumerate(board.ranked, start=1):
        shown = ranked_name(ranked, _)  # outside the call: Babel stops reading a call at a nested `_`
        lines.append(
            _.plural(
                "{number}. {name}: {rating} ({count} match)",
                "{number}. {name}: {rating} ({count} matches)",
                ranked.matches,
                number=number,
                name=shown,
                rating=shown_rating(ranked.rating),
            )
        )
    for title, part in (
        (_.plural("Provisional (fewer than {count} match):", "Provisional (fewer than {count} matches):",
                  PROVISIONAL_BELOW), board.provisional),
        (_("Computer players:"), board.computers),
    ):  # fmt: skip
        if not part:
            continue
        lines.extend(["", title])
        for ranked in part:
            shown = ranked_name(ranked, _)
            lines.append(
                _.plural(
                    "{name}: {rating} ({count} match)",
                    "{name}: {rating} ({count} matches)",
                    ranked.matches,
                    name=shown,
                    rating=shown_rating(ranked.rating),
                )
            )
    others = [game for game in other_games if game != board.game]
    if others:
        lines.extend(["", _("Other games: {commands}", commands=" · ".join(f"{command} {game}" for game in others))])
    return "\n".join(lines)


def ranked_name(ranked: Ranked, _: Translator) -> str:
    """A player who keeps their record private is "a player"."""
    return escape(ranked.name) if ranked.name is not None else _("a player")


# ----- /history -----------------------------------------------------------------------------------
def history_text(matches: Sequence[PastMatch], _: Translator, now: float | None = None) -> str:
    lines = [_("📜 <b>The last matches in this group</b>")]
    for number, match in enumerate(matches, start=1):
        names = {str(seat.user_id): seat.name for seat in match.seats}
        winners = winners_line([str(seat.user_id) for seat in match.winners], _, names)
        title = escape(game_title(match.game, _))
        lines.append("")
        arena = " · " + _("🏟 arena") if match.arena else ""
        lines.append(f"{number}. <b>{title}</b>{arena} · {match_date(match.finished_at, _, now)} · {winners}")
        lines.append(result_line(match, _))
    lines.append("")
    lines.append(_("Press a number to get that match's replay file in our private chat."))
    return "\n".join(lines)


def result_line(match: PastMatch, _: Translator) -> str:
    """Everyone's final total, best first; partners together."""
    sides: dict[object, list] = {}
    for seat in sorted(match.seats, key=lambda seat: (seat.place, seat.team if seat.team is not None else -1)):
        sides.setdefault(("team", seat.team) if seat.team is not None else ("seat", seat.user_id), []).append(seat)
    parts = [f"{_.list(escape(seat.name) for seat in side)}: {side[0].score}" for side in sides.values()]
    return " · ".join(parts)


def history_keyboard(matches: Sequence[PastMatch]) -> InlineKeyboardMarkup:
    buttons = [
        InlineKeyboardButton(f"📄 {number}", callback_data=MatchReplay(match.table_id).encode())
        for number, match in enumerate(matches, start=1)
    ]
    return InlineKeyboardMarkup(rows(buttons, HISTORY_BUTTONS_PER_ROW))


def replay_caption(game: str, finished_at: float, names: Sequence[str], _: Translator) -> str:
    """Plain text (a document caption sent without HTML): names are not escaped."""
    title, date, listed = game_title(game, _), match_date(finished_at, _), _.list(names)
    return _("Replay of {game}, {date}: {names}", game=title, date=date, names=listed)
