"""What /top (a season's standings), /season and a season's end show: pure text from tables/seasons.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape

from babel.dates import format_date

from handlers.i18n import Translator
from handlers.presentation.render.common import game_title
from tables.seasons import MONTH, PLAYERS_TIME, WEEK, Line, Season

BOARD_SIZE = 10


def season_name(season: Season, _: Translator) -> str:
    """«December 2026» (a month's season), «the week of 7 Dec» (a week's)."""
    start = datetime.fromtimestamp(season.start, PLAYERS_TIME)
    if season.length == WEEK:
        return _("the week of {date}", date=format_date(start, "d MMM y", locale=_.language))
    return format_date(start, "LLLL y", locale=_.language)


def last_day(season: Season, _: Translator) -> str:
    """The season's last day (it ends at that day's midnight, East Africa Time)."""
    return format_date(datetime.fromtimestamp(season.end - 1, PLAYERS_TIME), "d MMM y", locale=_.language)


def line_text(line: Line, name: str, _: Translator) -> str:
    points = _.plural("{count} point", "{count} points", line.points)
    wins = _.plural("{count} win", "{count} wins", line.wins)
    matches = _.plural("{count} match", "{count} matches", line.matches)
    return _("{place}. {name}: {points} ({wins}, {matches})", place=line.place, name=name, points=points, wins=wins,
             matches=matches)  # fmt: skip


def shown_name(user_id: int, names: Mapping[int, str | None], _: Translator) -> str:
    """Escaped; a player who keeps their record private is "a player"."""
    name = names.get(user_id)
    return escape(name) if name is not None else _("a player")


# ----- /top -----------------------------------------------------------------------------------
def season_board_text(game: str, season: Season, lines: Sequence[Line], names: Mapping[int, str | None],
                      other_games: Sequence[str], _: Translator) -> str:  # fmt: skip
    title = f"<b>{escape(game_title(game, _))}</b>"
    heading = _("🏆 {game} this season ({season}, until {day})", game=title, season=season_name(season, _),
                day=last_day(season, _))  # fmt: skip
    out = [heading]
    if not lines:
        out.append(_("No matches of this game this season yet: the first win takes the lead."))
    out.extend(line_text(line, shown_name(line.user_id, names, _), _) for line in lines[:BOARD_SIZE])
    out.append("")
    out.append(_("A win scores 2 points, second place 1 (with three players or more). Ratings of all time: /top all"))
    others = [other for other in other_games if other != game]
    if others:
        out.append(_("Other games: {commands}", commands=" · ".join(f"/top {other}" for other in others)))
    return "\n".join(out)


# ----- /season --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Placing:
    """A player's place in one game's standings this season, out of how many players."""

    game: str
    line: Line
    players: int


def season_text(season: Season | None, name: str, placings: Sequence[Placing], _: Translator) -> str:
    if season is None:
        return "\n".join([
            _("This group plays without seasons: /top shows the ratings of all time."),
            _("An admin turns seasons on with /season month or /season week."),
        ])  # fmt: skip
    out = [
        _("📅 Season: <b>{season}</b>", season=season_name(season, _)),
        _("It ends after {day}; then its champions are announced and the standings start again "
          "(ratings carry over).", day=last_day(season, _)),
        "",
    ]  # fmt: skip
    who = f"<b>{escape(name)}</b>"
    if not placings:
        out.append(_("{name} has not finished a match this season yet.", name=who))
    else:
        out.append(_("{name} this season:", name=who))
    for placing in placings:
        points = _.plural("{count} point", "{count} points", placing.line.points)
        out.append(_("{game}: place {place} of {players}, {points}", game=escape(game_title(placing.game, _)),
                     place=placing.line.place, players=placing.players, points=points))  # fmt: skip
    out.extend(["", _("Standings: /top · an admin changes the season's length: /season week, /season month or "
                      "/season off")])  # fmt: skip
    return "\n".join(out)


def length_chosen_text(length: str, _: Translator) -> str:
    if length == MONTH:
        return _("Seasons now last a month. /season shows the one running now.")
    if length == WEEK:
        return _("Seasons now last a week, Monday to Sunday. /season shows the one running now.")
    return _("Seasons are off: /top shows the ratings of all time. /season month turns them on again.")


# ----- a season's end -------------------------------------------------------------------------
@dataclass(frozen=True)
class Champions:
    """A game's champions of a season (several when they finished level)."""

    game: str
    user_ids: list[int]
    points: int


def season_end_text(season: Season, champions: Sequence[Champions], names: Mapping[int, str | None],
                    _: Translator) -> str:  # fmt: skip
    out = [_("🏁 <b>The season {season} is over.</b>", season=season_name(season, _))]
    if champions:
        out.append(_("Champions:"))
    for champion in champions:
        who = _.list(shown_name(user, names, _) for user in champion.user_ids)
        points = _.plural("{count} point", "{count} points", champion.points)
        out.append(f"🥇 {escape(game_title(champion.game, _))}: {who} ({points})")
    out.extend(["", _("A new season starts now: everyone starts again from 0 points, and ratings carry over. "
                      "/top shows the standings.")])  # fmt: skip
    return "\n".join(out)
