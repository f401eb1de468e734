"""Kadi: the Kenyan-style last-card game of seed 002 (rules: docs/games/rules/kadi.md).

`GAME` is the engine behind the shared protocol (engine.core.protocol). Cards are codes such as
"10H", "QS" and "X" (a joker; the 54-card deck holds two identical jokers).

Actions (docs/games/rules/kadi.md, section 7), canonical form as `legal_actions` lists them:
    {"type": "play", "cards": [...], "command"?: {"suit": "H"} | {"power": true}, "call"?: true}
    {"type": "draw"}  {"type": "pass"}  {"type": "call"}
    {"type": "hide", "card": "5D"}  {"type": "unhide"}  {"type": "accuse", "target": p}
    {"type": "accept"}   and  CLOCK: {"type": "timeout"}
`to_act` is the player whose turn it is, or during a provisional win's challenge window every
other seated player who has not accepted. A "Kadi Moja!" `call` and `accuse` are offered by
`legal_actions` to players outside `to_act` (the bot shows them as buttons).

View keys (`view(state, player)`; `player=None` is a spectator):
    game, round, phase ("play" | "challenge" | "over"), players (all seats, clockwise),
    seats (still playing), eliminated, dealer, turn (player or None), direction
    ("clockwise" | "anticlockwise"), top (top discard), match_top (the card a play must match:
    the card under jokers when `after_joker` is "card_below"; None = anything matches),
    discard_size, stock_size, counts (visible cards per seated player; a hidden card is not
    counted), penalty (None or {"kind": "two"|"joker", "amount": n}), command (None,
    {"suit": s} or {"power": true}), call_window (player whose "Kadi Moja!" window is open),
    call_due (that player if they still owe the call), announced (players who announced
    "Niko Kadi" for their next turn), provisional_winner, accepted, scores, points_limit,
    finished, winners, you.
    Players only: hand (own visible cards), hidden (own hidden card or None), drawn (the card
    drawn this turn that may still be played, or None).

Event kinds (public fields; private fields only the named player sees):
    dealt            round, dealer, seats, hand_size, start_card, buried (power cards turned up
                     and put under the stock), first; private: hand
    played           player, cards, left (cards left), command?, penalty? (amount now pending),
                     skipped? (players skipped), direction? (after eights, 3+ players)
    drew             player, count, timeout?; private: cards
    penalty_drawn    player, owed, count; private: cards (turn lost)
    power_finish_draw player, count; private: cards (last card was a power card, KAD-A18)
    missed_call      player, count; private: cards (the engine applies the missed-call penalty)
    called           player ("Kadi Moja!" / "Niko Kadi")
    passed           player, timeout?
    reshuffled       cards (new stock size)
    hid / unhid      player, left; private: card
    accused          accuser, target, caught, payer, count; private: cards (payer), returned
                     (target's hidden card, when caught)
    provisional_win  player;  accepted  player;  win_voided  player
    won              player
    blocked          round (nobody could play or draw for a whole round of turns)
    round_scored     round, winner (None if blocked), points, totals, hands (revealed)
    eliminated       players
    match_over       winners, totals

Refusal codes: not_your_turn, challenge_open, match_over, eliminated, not_a_player,
unknown_action, clock_only_times_out, empty_play, not_in_hand, card_hidden, must_play_drawn,
mixed_ranks, penalty_pending, must_follow_command, power_card_required, illegal_card,
power_finish_forbidden, not_announced, command_required, bad_command, command_not_allowed,
already_drew, must_play, nothing_to_pass, no_call_due, hiding_off, not_before_acting,
hide_used, already_hiding, too_few_cards, not_hiding, cannot_accuse_self, target_not_seated,
no_challenge, not_waiting_for_you.
"""

from engine.kadi.game import KadiGame
from engine.kadi.options import KadiOptions
from engine.kadi.state import KadiState

GAME = KadiGame()

__all__ = ["GAME", "KadiGame", "KadiOptions", "KadiState"]
