"""Pitch (Auction Pitch / Setback) for 2-7 players, cut-throat or 2 v 2, per docs/games/rules/pitch.md.

`GAME` is the engine (a `engine.core.protocol.Game`). Options: section 6 of docs/games/rules/pitch.md
(`target`, `low_to`, `win_condition`, `min_bid`, `smudge`, `dealer_steal`, `partnerships`).

Actions (canonical form, as `legal_actions` lists them)
    {"type": "pass"}                 bidding, in turn (not a dealer whom everyone passed)
    {"type": "bid", "value": v}      bidding, in turn; 4 (or 5, a smudge) ends the auction at once
    {"type": "play", "card": "AS"}   trick play, in turn; the pitcher's first card sets trumps
    "@clock" {"type": "timeout"}     bidding: pass (a forced dealer bids 2); play: the lowest
                                     legal card, non-trumps first, then rank, then suit S H D C
`legal_actions(state, player)` is empty for anyone but the player to act; for "@clock" it is
[{"type": "timeout"}] until the match ends. Hands are kept sorted by suit (S H D C), then rank.

`advance(state, player, action)` is `apply` in place (the fast path for playouts and the table
service): all checks come before the first change, so a refusal leaves `state` untouched, and
`apply` is `advance` on `state.copy()`, so both run the same rules code. `legal_actions` returns a list
cached on the state (one shared dict per card and bid; callers never change them), and `advance`
accepts an action equal to one of that list without re-checking the rules.
benchmarks/bench_pitch.py measures random-playout throughput through `advance`.

Phases: "bidding" -> "playing" -> (next hand's "bidding" ...) -> "finished". A hand is scored
and the next one dealt (dealer moves left) inside the action that ends the sixth trick.

Events (kind: public fields; private fields in brackets, only for the named player)
    dealt        hand, dealer, counts {player: 6}   [each player: cards (their own hand)]
    timed_out    player                             (precedes the events of the default action)
    passed       player
    bid          player, value, steal (dealer matched the high bid), forced (dealer, all passed)
    auction_won  pitcher, bid, smudge
    played       player, card, trick (1-6)
    trump_set    player, suit                       (after the pitcher's first `played`)
    trick_won    player (winner), trick (1-6), plays [{player, card}] in play order
    hand_scored  hand, dealer, pitcher, bid, smudge, made, trump,
                 high {card, by}, low {card, by}, jack {card, by} | null   (by: the player who
                 won the card in a trick, or for low_to "dealt" was dealt it; with partnerships
                 the point goes to that player's team),
                 game {by: [players credited (the team), empty when tied], trick_points {player: n}},
                 tricks {player: n}, points {player: won this hand}, change {player: delta},
                 scores {player: total}   (with partnerships points/change/scores are team values)
    match_won    winners [players], scores {player: total}

View keys (`view(state, player)`; `view(state, None)` is the spectator's, with `hand` and `you` None)
    game, phase, hand_number, players, teams ([[p0, p2], [p1, p3]] or None), you, dealer,
    to_act, awaiting ("bid" | "play" | None), dealer_forced, hand (your cards, sorted),
    hand_counts {player: n}, bids [{player, value (None for a pass)}], high_bid {player, value} | None,
    pitcher, bid, trump (suit letter | None), trick_number, leader, trick [{player, card}],
    last_trick {plays [{player, card}], winner} | None, tricks_won {player: n}, scores {player: total},
    target, options, last_hand (the last hand_scored summary | None), finished, winners.

Refusal codes
    not_your_turn, bidding_in_progress (play during the auction), auction_over (bid/pass during
    play), match_over, unknown_player, unknown_action, bid_out_of_range (not 1-4, or 5 without
    smudge), bid_below_minimum (min_bid 2), bid_too_low (not above the high bid, or matching a
    bid that cannot be stolen), dealer_must_bid (pass or bid 1 by a dealer everyone passed),
    steal_not_allowed (dealer_steal off), cannot_steal_from_partner, not_in_hand, must_follow_suit.
"""

from engine.pitch.game import PitchGame
from engine.pitch.options import PitchOptions
from engine.pitch.state import PitchState

GAME = PitchGame()

__all__ = ["GAME", "PitchGame", "PitchOptions", "PitchState"]
