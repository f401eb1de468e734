"""Scoring a hand of Pitch (P15-P24, PIT-A1 to PIT-A4, PIT-A9, PIT-A10, PIT-A14) and deciding who wins the
match (P27, PIT-A11, section 8).

Points are credited to teams: one team per seat in cut-throat play, seat % 2 with partnerships.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.pitch.cards import RANK, SUIT, TRICK_POINTS
from engine.pitch.rules import SMUDGE
from engine.pitch.state import PitchState


@dataclass(frozen=True)
class HandResult:
    points: tuple[int, ...]  # points won this hand, by team
    change: tuple[int, ...]  # what is added to each team's total (the set-back pitcher: minus the bid)
    made: bool
    high: tuple[str, int]  # (card, seat credited)
    low: tuple[str, int]
    jack: tuple[str, int] | None
    game: int | None  # team that took Game, None when tied
    trick_points: tuple[int, ...]  # by seat
    winning_teams: tuple[int, ...]  # teams that win the match on this hand (empty: play on)


def score_hand(state: PitchState) -> HandResult:
    """Score the six tricks just played; `state.scores` are the totals before this hand."""
    seats = len(state.players)
    teams = len(state.scores)
    trump = state.trump
    captured_by = {card: seat for seat in range(seats) for card in state.won[seat]}
    dealt_to = {card: seat for seat in range(seats) for card in state.dealt[seat]}
    trumps = [card for card in dealt_to if SUIT[card] == trump]  # PIT-A3: dealt cards only
    high = max(trumps, key=RANK.__getitem__)
    low = min(trumps, key=RANK.__getitem__)
    points = [0] * teams
    high_seat = captured_by[high]  # PIT-A1
    points[state.team_of(high_seat)] += 1
    low_seat = dealt_to[low] if state.options.low_to == "dealt" else captured_by[low]  # PIT-A2
    points[state.team_of(low_seat)] += 1  # P22/PIT-A4: a single trump counts as both High and Low
    jack_card = "J" + trump
    jack = None
    if jack_card in captured_by:  # P20: no Jack point when the Jack is not in play
        jack = (jack_card, captured_by[jack_card])
        points[state.team_of(jack[1])] += 1
    trick_points = tuple(sum(TRICK_POINTS[card] for card in state.won[seat]) for seat in range(seats))
    team_trick_points = [0] * teams
    for seat in range(seats):
        team_trick_points[state.team_of(seat)] += trick_points[seat]
    best = max(team_trick_points)
    game = None
    if team_trick_points.count(best) == 1:  # P19, P21, PIT-A10: strictly the most, ties (and all-zero) none
        game = team_trick_points.index(best)
        points[game] += 1

    pitching = state.team_of(state.pitcher)
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
