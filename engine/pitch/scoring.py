"""Scoring a hand of Pitch (P15-P24, PIT-A1 to PIT-A4, PIT-A9, PIT-A10, PIT-A14) and deciding who wins the
match (P27, PIT-A11, section 8).

Points are credited to teams: one team per seat in cut-throat play, seat % 2 with partnerships.
"""

from __future__ import annotations

from itertools import chain
from typing import NamedTuple

from engine.core.cards import SUITS
from engine.pitch.cards import OF_SUIT, RANK, TRICK_POINTS
from engine.pitch.rules import SMUDGE
from engine.pitch.state import PitchState


class HandResult(NamedTuple):  # a NamedTuple: built once a hand, and cheaper than a frozen dataclass
    points: tuple[int, ...]  # points won this hand, by team
    change: tuple[int, ...]  # what is added to each team's total (the set-back pitcher: minus the bid)
    made: bool
    high: tuple[str, int]  # (card, seat credited)
    low: tuple[str, int]
    jack: tuple[str, int] | None
    game: int | None  # team that took Game, None when tied
    trick_points: tuple[int, ...]  # by seat
    winning_teams: tuple[int, ...]  # teams that win the match on this hand (empty: play on)


JACK: dict[str, str] = {suit: "J" + suit for suit in SUITS}
_rank = RANK.__getitem__
_trick_points = TRICK_POINTS.__getitem__


def _capturer(won: list[list[str]], card: str) -> int:
    for seat, cards in enumerate(won):
        if card in cards:
            return seat
    raise ValueError(f"{card} was not captured")


def score_hand(state: PitchState) -> HandResult:
    """Score the six tricks just played; `state.scores` are the totals before this hand."""
    teams = len(state.scores)
    trump = state.trump
    assert trump is not None  # a hand is scored after its tricks, in trumps
    team_of = state.seat_team
    # After six tricks every dealt card has been captured, so the trumps in play (PIT-A3: dealt
    # cards only) are the captured trumps: High is the highest of them, Low the lowest (the same
    # card when only one trump was in play).
    won = state.won
    trumps = OF_SUIT[trump].intersection(chain.from_iterable(won))
    high = max(trumps, key=_rank)
    low = min(trumps, key=_rank)
    high_seat = _capturer(won, high)
    low_seat = _capturer(won, low)
    jack_card = JACK[trump]
    jack = (jack_card, _capturer(won, jack_card)) if jack_card in trumps else None  # P20: not in play, no point
    trick_points = tuple([sum(map(_trick_points, cards)) for cards in won])
    points = [0] * teams
    points[team_of[high_seat]] += 1  # PIT-A1
    if state.options.low_to == "dealt":  # PIT-A2
        low_seat = next(seat for seat, hand in enumerate(state.dealt) if low in hand)
    points[team_of[low_seat]] += 1  # P22/PIT-A4: a single trump counts as both High and Low
    if jack is not None:
        points[team_of[jack[1]]] += 1
    team_trick_points = [0] * teams
    for seat, seat_points in enumerate(trick_points):
        team_trick_points[team_of[seat]] += seat_points
    best = max(team_trick_points)
    game = None
    if team_trick_points.count(best) == 1:  # P19, P21, PIT-A10: strictly the most, ties (and all-zero) none
        game = team_trick_points.index(best)
        points[game] += 1

    pitching = team_of[state.pitcher]
    if state.bid == SMUDGE:
        made = sum(state.tricks_won[seat] for seat in state.team_seats(pitching)) == 6
    else:
        made = points[pitching] >= state.bid  # PIT-A9: the pitcher's (team's) own points only
    change = list(points)
    if not made:
        change[pitching] = -state.bid  # P23: set back by the bid, nothing added
    totals = [score + delta for score, delta in zip(state.scores, change)]
    return HandResult(
        points=tuple(points),
        change=tuple(change),
        made=made,
        high=(high, high_seat),
        low=(low, low_seat),
        jack=jack,
        game=game,
        trick_points=trick_points,
        winning_teams=match_winners(state, totals, pitching, made),
    )


def match_winners(state: PitchState, totals: list[int], pitching: int, made: bool) -> tuple[int, ...]:
    """Teams winning the match at the end of this hand (P27, PIT-A11, section 8)."""
    target = state.options.target
    if state.bid == SMUDGE and made:
        return (pitching,)  # a made smudge wins at once, whatever the scores
    condition = state.options.win_condition
    if condition == "pitcher_made_bid":
        return (pitching,) if made and totals[pitching] >= target else ()
    if totals[pitching] >= target:
        return (pitching,)
    if condition == "anyone":
        reached = [team for team, total in enumerate(totals) if total >= target]
        if reached:
            best = max(totals[team] for team in reached)
            return tuple(team for team in reached if totals[team] == best)
    return ()
