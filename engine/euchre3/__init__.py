"""Three-handed (Cutthroat) Euchre with a dummy, per docs/games/rules/euchre3.md.

Three players, 24 (or 32) cards, a dummy hand dealt to the empty seat at the dealer's right,
two rounds of bidding, the maker alone against a temporary partnership of the other two,
first to the target (10) wins. `GAME` is the protocol object.

Game methods
------------
`new(players, options, seed, dealer=None, decks=())` deals hand 1 (explicit `decks[i]` for deal
i+1, else `shuffled(deck, seed, "deal", n)`; dealer None: `rng_for(seed, "dealer")`).
`apply` never changes its input; `advance` is the in-place fast path (same results; a refused
action leaves the state unchanged). `legal_actions(state, player)` is exact and complete (for
`keep`: every five-card combination of hand + dummy, in that order; `apply` takes any order);
for "@clock" it is `[{"type": "timeout"}]` while the match runs. `timeout_actions(state)` gives
the default(s) a timeout will apply. `to_act` has one player (empty when finished).
`replay_hands` adds "dummy" while the dummy exists. `dump`/`load` give/take JSON-ready data.

Seats and phases
----------------
Seats are the players in clockwise order; relative to the dealer: left ("order_up"),
opposite ("assist"), dealer ("accept"); the dummy sits at the dealer's right (EU3-A1).
Phases: `bid1` -> (`pickup`) -> `maker_choice` -> (`keep`) -> (`defend`) -> `play`; or
`bid1` -> `bid2` -> ...; a passed-out `bid2` redeals (new round). `over` when the match ends.

Actions (section 7)
-------------------
`accept`/`pass` (bid1), `pick_up` {discard} / `leave` (dealer after another seat accepted),
`name` {suit: S|H|D|C} / `pass` (bid2), `alone` {discard only with six cards} / `with_dummy`
(maker), `keep` {cards: five of hand+dummy} (maker after with_dummy), `alone`/`pass`
(defenders, in turn from the maker's left), `play` {card}. `["@clock", {"type": "timeout"}]`
applies the section 7 default for whoever is to act.

Events (kind: public fields; private fields in brackets, seen only by the named player)
------------------------------------------------------------------------------------------
- dealt: round, dealer, up_card, hand_size; [each player: hand]
- passed: player, bidding_round (1|2)
- up_card_turned_down: card
- trump_made: player, trump, bidding_round, label ("order_up"|"assist"|"accept"|"name")
- took_up_card: player (the dealer-maker), card
- picked_up: player (dealer), card (the up-card); [dealer: discard]
- left_up_card: player (dealer), card
- thrown_in: round, next_dealer (followed by `dealt` of the next round)
- maker_alone: player; [maker: discard, when they held six cards]
- maker_with_dummy: player; [maker: dummy (its five cards)]
- kept: player, discarded (count); [maker: hand (the five kept), discards]
- defender_alone: player, sitting_out
- defender_passed: player
- play_started: leader, trump, maker, maker_alone, lone_defender, sitting_out
- played: player, card
- trick_won: player, trick (1-5), cards (in play order)
- round_scored: round, maker, maker_tricks, euchred, points {player: n}, scores {player: n}
- match_won: winners [players], scores (otherwise `round_scored` is followed by `dealt`)
- timed_out: player, phase (first event of a `@clock` timeout, then the default's events)

View keys (`view(state, player)`; `player=None` is the spectator view)
---------------------------------------------------------------------
game, players, round, phase, to_act, dealer, accept_labels {player: label}, bidding_round
(1|2|None), up_card, up_card_status ("face_up"|"turned_down"|"picked_up"|"taken"|"left"),
trump, maker, maker_alone (None until chosen), lone_defender, sitting_out,
defenders_to_speak, hand_counts, dummy_count (None once the maker chose), kitty_count,
discard_counts, trick [{player, card}], leader, tricks_won, last_trick ({cards, winner} or
None), scores, target, options, finished, winners, you. A seated player also gets `hand` and
`discards` (their own face-down discards) and, as maker in phase `keep`, `dummy`.

Refusal codes
-------------
not_your_turn, not_now (action not of this phase), match_over, not_a_player, bad_action,
not_a_card, not_in_deck (a card code outside this deck, e.g. 2H), not_in_hand,
must_follow_suit, must_pick_up (dealer_must_pick_up), turned_down_suit (EU3-A5),
dealer_must_name (stick the dealer), unknown_suit, discard_required (six-card lone maker),
no_discard (five-card lone maker), wrong_keep_size, duplicate_card.
"""

from engine.euchre3.game import GAME, Euchre3
from engine.euchre3.options import Euchre3Options
from engine.euchre3.ranking import strongest_first
from engine.euchre3.state import Euchre3State

# strongest_first(cards, trump): the cards strongest first, the order a timeout keeps five by.
__all__ = ["GAME", "Euchre3", "Euchre3Options", "Euchre3State", "strongest_first"]
