"""Three Thirteen (3-13 rummy) for Karata: rules engine and meld solver.

Spec: docs/games/rules/three_thirteen.md (rule IDs T1-T17, resolutions T13-A1 to T13-A14).
`GAME` implements engine.core.protocol.Game; modules: `rules` (ranks, penalties, wild rank,
meld validity), `melds` (the meld solver), `state` (the state record, dealing),
`options` (section 6), `game` (turns, going out, scoring, the match).

Players 2-4 (one pack for two, two packs for three or four; `jokers` adds 0, 2 or 4 jokers to
the whole game). Rounds 1-11 deal 3-13 cards, wild rank = cards dealt (3 ... K); the optional
tie-break round is round 12 (13 cards, kings wild, only the tied players are seated).

Actions (canonical forms, as `legal_actions` lists them)
    {"type": "draw", "from": "stock" | "discard"}       first step of a turn
    {"type": "discard", "card": "7H"}                   after drawing
    {"type": "go_out", "discard": "7H"}                 after drawing; optional "melds": [[...], ...]
                                                        states the arrangement, else the solver finds it
    CLOCK {"type": "timeout"}                           the turn timer: at the draw step draws from the
        stock, then (as at the discard step) goes out if it can, else discards the card whose
        removal leaves the least deadwood (ties: higher penalty, higher rank, suits S H D C),
        never a card that `discard_taken_card: false` forbids.
    `legal_actions(state, CLOCK)` is [{"type": "timeout"}] while the match runs.

Refusal codes (Refused.code; the message says what to do instead)
    match_over, not_at_table, not_your_turn, unknown_action, unknown_source,
    must_draw_first (discard/go_out before drawing), already_drew (a second draw),
    discard_pile_empty, stock_empty (never happens with the game's decks),
    not_a_card, not_in_deck (a joker when the table plays without), not_in_hand,
    cannot_discard_taken_card (discard_taken_card: false; also its identical twin),
    first_turn_no_go_out (first_turn_go_out: false), cannot_go_out (the rest does not meld),
    invalid_meld (a stated meld is not a valid set or run), melds_do_not_match_hand (stated
    melds + discard are not exactly the hand). A `draw` whose `from` is not stock/discard and
    a `go_out` whose `melds` is not a list of lists of card codes are malformed (check_action).

Events (Event.kind: public fields; private fields only the named player sees)
    round_started    round, dealer, players (seated, clockwise), deal_size, wild_rank ("3".."K"),
                     upcard, stock_count, turn; private {player: {"hand": [...]}} for each seat.
                     Emitted after each round_scored that leads to a new deal; the first deal
                     is what `new` returns (seen through `view`).
    timed_out        player, phase ("draw" | "discard"): the clock acted for them; the default's
                     own events follow.
    stock_reshuffled stock_count: the discard pile but its top card became the stock (T13-A8).
    drew             player, from ("stock" | "discard"), card (only when from the discard pile);
                     private {player: {"card": ...}} when from the stock.
    discarded        player, card.
    went_out         player, melds (list of lists), discard, first (True for the player who
                     ended the round, False for a go_out during the final turns), final_turns
                     (who still plays one more turn, in order).
    round_scored     round, went_out, hands {player: {"melds", "deadwood_cards", "deadwood"}}
                     (everyone's best arrangement, revealed: T13-A14), points {player: int},
                     totals {player: int}.
    tie_break        players: the tied players who play round 12 (tie: "tiebreak_round").
    match_over       winners [players], totals.

View keys (`view(state, player)`; `view(state, None)` is the spectator's, without the
"you", "hand" and "best_arrangement" keys)
    game, round, rounds (11), tiebreak (bool), deal_size, wild_rank, players (all seats),
    seated (playing this round), dealer, phase ("draw" | "discard" | "finished"),
    turn (None when finished), to_act, drawn_from (None | "stock" | "discard"),
    taken_card (card taken from the pile this turn, public), stock_count, discard_top,
    discard_count, hand_counts {player: int}, table_melds {player: [[...]]} (melds of players
    who went out this round), went_out, final_turns, scores (totals), round_scores
    ([{"round", "points"}]), last_round (the latest round_scored payload or None), winners,
    options; for a player: you, hand (sorted by suit then rank), best_arrangement
    ({"melds", "deadwood_cards", "deadwood"} of the hand as it is now, or None when empty).

State (`ThreeThirteenState`, a slotted record; `dump` gives these keys as JSON-ready data):
seed, options, players, seated, decks, round, dealer, phase, turn, hands, stock (index 0 is the
top), discard (last is the top), drawn_from, taken, went_out, final_turns, table, turns_taken,
reshuffles, scores, history, last_round, winners. `apply` is `advance` on `state.copy()`.
"""

from engine.three_thirteen.game import GAME, ThreeThirteen
from engine.three_thirteen.melds import Arrangement, best_arrangement, least_deadwood, outable_discards
from engine.three_thirteen.options import ThreeThirteenOptions
from engine.three_thirteen.rules import MeldRules
from engine.three_thirteen.state import ThreeThirteenState

__all__ = [
    "GAME",
    "Arrangement",
    "MeldRules",
    "ThreeThirteen",
    "ThreeThirteenOptions",
    "ThreeThirteenState",
    "best_arrangement",
    "least_deadwood",
    "outable_discards",
]
