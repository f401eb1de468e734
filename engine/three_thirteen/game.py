"""Three Thirteen on the shared protocol: turns, going out, final turns, scoring, the match.

Rules cited by ID from docs/games/rules/three_thirteen.md. Melds are checked and hands scored
by the meld solver (`melds.py`), so nobody is penalised for arranging badly (T13-A6).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.cards import JOKER, Card, is_card_code, parse_card
from engine.core.options import options_dict
from engine.core.protocol import CLOCK, Action, Applied, Event, Game, MalformedAction, Refused, Result
from engine.core.rng import pick, shuffled
from engine.three_thirteen.melds import best_arrangement, deadwood_without, outable_discards
from engine.three_thirteen.options import ThreeThirteenOptions
from engine.three_thirteen.rules import (
    RANK_CODE,
    RANK_NUMBER,
    ROUNDS,
    SUIT_ORDER,
    TIEBREAK_ROUND,
    MeldRules,
    deal_size,
    game_deck,
    sorted_cards,
)
from engine.three_thirteen.state import ThreeThirteenState, deal, deep_copy, left_of

SOURCES = ("stock", "discard")


def _refuse(code: str, message: str) -> Refused:
    return Refused(code, message)


class ThreeThirteen(Game):
    name = "three_thirteen"
    min_players = 2
    max_players = 4
    usual_players = 3
    lower_totals_win = True
    Options = ThreeThirteenOptions
    action_fields = {
        "draw": {"from": "str"},
        "discard": {"card": "card"},
        "go_out": {"discard": "card", "melds": "?any"},
    }

    # ----- set-up -------------------------------------------------------------------------
    def deck(self, options: Any, players: Sequence[str]) -> list[Card]:
        return game_deck(len(players), options.jokers)

    def new(self, players, options, seed, dealer=None, decks=()) -> ThreeThirteenState:
        players = list(players)
        problem = self.player_count_problem(players, options)
        if problem:
            raise ValueError(problem)
        self.check_decks(decks, options, players)
        if dealer is None:
            dealer = pick(players, seed, "dealer")  # T6
        elif dealer not in players:
            raise ValueError(f"unknown dealer {dealer!r}")
        state = ThreeThirteenState()
        state.seed = seed
        state.options = options_dict(options)
        state.players = players
        state.decks = [list(deck) for deck in decks]
        state.scores = {player: 0 for player in players}
        state.history = []
        state.last_round = None
        state.winners = []
        deal(state, 1, dealer, players)
        return state

    def check_action(self, player: str, action: Any, players: Sequence[str]) -> Action:
        canonical = super().check_action(player, action, players)
        kind = canonical["type"]
        if kind == "draw" and canonical["from"] not in SOURCES:
            raise MalformedAction("draw: 'from' must be 'stock' or 'discard'")
        if kind == "go_out" and "melds" in canonical:
            melds = canonical["melds"]
            if not isinstance(melds, list) or not all(
                isinstance(meld, list) and all(is_card_code(card) for card in meld) for meld in melds
            ):
                raise MalformedAction("go_out: 'melds' must be a list of lists of card codes")
            canonical["melds"] = [[parse_card(card) for card in meld] for meld in melds]
        return canonical

    # ----- helpers --------------------------------------------------------------------------
    @staticmethod
    def rules(state: ThreeThirteenState) -> MeldRules:
        return MeldRules.for_round(state.round, state.options)

    @staticmethod
    def _forbidden_discard(state: ThreeThirteenState) -> Card | None:
        """T13-A7 option: the card just taken from the pile (and its identical twin) may not go."""
        if state.options["discard_taken_card"]:
            return None
        return state.taken

    @staticmethod
    def _may_go_out_now(state: ThreeThirteenState, player: str) -> bool:
        """T13-A11 option: with first_turn_go_out false, not on one's own first turn of a round."""
        return state.options["first_turn_go_out"] or state.turns_taken[player] > 0

    def _go_out_discards(self, state: ThreeThirteenState, player: str) -> set[Card]:
        if not self._may_go_out_now(state, player):
            return set()
        outable = outable_discards(state.hands[player], self.rules(state))
        outable.discard(self._forbidden_discard(state))
        return outable

    # ----- play -----------------------------------------------------------------------------
    def to_act(self, state: ThreeThirteenState) -> list[str]:
        return [] if state.phase == "finished" else [state.turn]

    def legal_actions(self, state: ThreeThirteenState, player: str) -> list[Action]:
        if state.phase == "finished":
            return []
        if player == CLOCK:
            return [{"type": "timeout"}]
        if player != state.turn:
            return []
        if state.phase == "draw":
            actions = []
            if state.stock or len(state.discard) > 1:
                actions.append({"type": "draw", "from": "stock"})
            if state.discard:
                actions.append({"type": "draw", "from": "discard"})
            return actions
        hand = state.hands[player]
        forbidden = self._forbidden_discard(state)
        distinct = [card for card in sorted_cards(list(set(hand))) if card != forbidden]
        actions = [{"type": "discard", "card": card} for card in distinct]
        outs = self._go_out_discards(state, player)
        actions += [{"type": "go_out", "discard": card} for card in distinct if card in outs]
        return actions

    def apply(self, state: ThreeThirteenState, player: str, action: Action) -> Result:
        """`advance` on a copy: the same rules, and `state` is never changed."""
        return self.advance(state.copy(), player, action)

    def advance(self, state: ThreeThirteenState, player: str, action: Action) -> Result:
        """Apply `action`, changing `state` in place; every check comes before the first change,
        so after a refusal `state` is as it was."""
        if state.phase == "finished":
            return _refuse("match_over", "The match is over; start a new one.")
        kind = action.get("type") if isinstance(action, Mapping) else None
        if player == CLOCK:
            if kind != "timeout":
                return _refuse("unknown_action", "The clock can only time out.")
            return self._timeout(state)
        if player not in state.players:
            return _refuse("not_at_table", "Only players at this table can act.")
        if player != state.turn:
            return _refuse("not_your_turn", f"Wait for {state.turn} to play.")
        if kind == "draw":
            return self._draw(state, player, action.get("from"))
        if kind in ("discard", "go_out"):
            if state.phase != "discard":
                return _refuse("must_draw_first", "Draw a card from the stock or the discard pile first.")
            card = action.get("card") if kind == "discard" else action.get("discard")
            problem = self._check_discard(state, player, card)
            if problem:
                return problem
            assert isinstance(card, str)  # _check_discard refused anything else
            card = parse_card(card)
            if kind == "discard":
                return Applied(state, self._discard(state, player, card))
            return self._go_out(state, player, card, action.get("melds"))
        return _refuse("unknown_action", "Draw, discard or go out.")

    def _check_discard(self, state: ThreeThirteenState, player: str, card: Any) -> Refused | None:
        if not isinstance(card, str) or not is_card_code(card):
            return _refuse("not_a_card", "Name a card from your hand.")
        card = parse_card(card)
        if card == JOKER and not state.options["jokers"]:
            return _refuse("not_in_deck", "This game is played without jokers.")
        if card not in state.hands[player]:
            return _refuse("not_in_hand", "Discard a card from your hand.")
        if card == self._forbidden_discard(state):
            return _refuse("cannot_discard_taken_card", "You may not discard the card you just took from the pile.")
        return None

    # ----- draw (T9, T13-A7, T13-A8) ---------------------------------------------------------
    def _draw(self, state: ThreeThirteenState, player: str, source: Any) -> Result:
        if state.phase != "draw":
            return _refuse("already_drew", "You have drawn already: discard a card or go out.")
        if source not in SOURCES:
            return _refuse("unknown_source", "Draw from 'stock' or 'discard'.")
        if source == "discard" and not state.discard:
            return _refuse("discard_pile_empty", "The discard pile is empty: draw from the stock.")
        if source == "stock" and not state.stock and len(state.discard) < 2:
            return _refuse("stock_empty", "The stock is empty: take the top discard.")
        return Applied(state, self._do_draw(state, player, source))

    def _do_draw(self, state: ThreeThirteenState, player: str, source: str) -> list[Event]:
        events = []
        if source == "stock":
            if not state.stock:  # T13-A8: the pile but its top card becomes the new stock
                state.reshuffles += 1
                top = state.discard[-1]
                state.stock = shuffled(state.discard[:-1], state.seed, "reshuffle", state.round, state.reshuffles)
                state.discard = [top]
                events.append(Event("stock_reshuffled", {"stock_count": len(state.stock)}))
            card = state.stock.pop(0)
            state.taken = None
            events.append(Event("drew", {"player": player, "from": "stock"}, {player: {"card": card}}))
        else:
            card = state.discard.pop()
            state.taken = card
            events.append(Event("drew", {"player": player, "from": "discard", "card": card}))
        state.hands[player].append(card)
        state.drawn_from = source
        state.phase = "discard"
        return events

    # ----- discard, going out (T10, T11, T13-A4, T13-A5) -------------------------------------
    def _discard(self, state: ThreeThirteenState, player: str, card: Card, **extra: Any) -> list[Event]:
        state.hands[player].remove(card)
        state.discard.append(card)
        events = [Event("discarded", {"player": player, "card": card, **extra})]
        return events + self._end_turn(state, player)

    def _go_out(self, state: ThreeThirteenState, player: str, card: Card, melds: Any) -> Result:
        if not self._may_go_out_now(state, player):
            return _refuse("first_turn_no_go_out", "You may not go out on your first turn: discard a card.")
        rules = self.rules(state)
        rest = list(state.hands[player])
        rest.remove(card)
        if melds is None:
            if card not in outable_discards(state.hands[player], rules):
                return _refuse("cannot_go_out", "The rest of your hand does not form sets and runs: discard instead.")
            melds = [list(meld) for meld in best_arrangement(rest, rules).melds]
        else:
            if not isinstance(melds, list) or not all(
                isinstance(meld, list) and all(is_card_code(c) for c in meld) for meld in melds
            ):
                return _refuse("invalid_meld", "State melds as lists of card codes.")
            melds = [[parse_card(c) for c in meld] for meld in melds]
            if Counter(c for meld in melds for c in meld) != Counter(rest):
                return _refuse(
                    "melds_do_not_match_hand", "Your melds must use every card of your hand except the discard."
                )
            for meld in melds:
                if not rules.is_valid_meld(meld):
                    return _refuse("invalid_meld", "Each meld must be a set or a run of 3+ cards with a natural card.")
        state.hands[player] = []
        state.discard.append(card)
        state.table[player] = melds
        first = state.went_out is None
        if first:
            state.went_out = player
            seated = state.seated
            start = seated.index(player)
            state.final_turns = [seated[(start + k) % len(seated)] for k in range(1, len(seated))]
        event = Event(
            "went_out",
            {
                "player": player,
                "melds": deep_copy(melds),
                "discard": card,
                "first": first,
                "final_turns": list(state.final_turns),
            },
        )
        if first:
            state.final_turns.insert(0, player)  # _end_turn pops the player who just played
        return Applied(state, [event] + self._end_turn(state, player))

    def _end_turn(self, state: ThreeThirteenState, player: str) -> list[Event]:
        state.turns_taken[player] += 1
        state.taken = None
        state.drawn_from = None
        state.phase = "draw"
        if state.went_out is None:
            state.turn = left_of(state.seated, player)
            return []
        state.final_turns.pop(0)
        if state.final_turns:
            state.turn = state.final_turns[0]
            return []
        return self._end_round(state)

    # ----- timeout (section 7, section 8) -------------------------------------------------------
    def _timeout(self, state: ThreeThirteenState) -> Result:
        player = state.turn
        events = [Event("timed_out", {"player": player, "phase": state.phase})]
        if state.phase == "draw":
            events += self._do_draw(state, player, "stock")
        card = self._timeout_discard(state, player)
        if card in self._go_out_discards(state, player):
            result = self._go_out(state, player, card, None)
            assert isinstance(result, Applied)
            return Applied(result.state, events + result.events)
        return Applied(state, events + self._discard(state, player, card))

    def _timeout_discard(self, state: ThreeThirteenState, player: str) -> Card:
        """The card whose removal leaves the least deadwood; ties: higher penalty, higher rank, S H D C."""
        rules = self.rules(state)
        left = deadwood_without(state.hands[player], rules)
        forbidden = self._forbidden_discard(state)

        def key(card: Card) -> tuple[int, int, int, int]:
            if card == JOKER:
                return (left[card], -rules.value(card), -14, 4)
            return (left[card], -rules.value(card), -RANK_NUMBER[card[:-1]], SUIT_ORDER[card[-1]])

        return min((card for card in left if card != forbidden), key=key)

    # ----- end of a round, end of the match (T11, T16, T17, T13-A6, T13-A12) ------------------
    def _end_round(self, state: ThreeThirteenState) -> list[Event]:
        rules = self.rules(state)
        hands: dict[str, Any] = {}
        points: dict[str, int] = {}
        for player in state.seated:
            if player in state.table:
                hands[player] = {"melds": state.table[player], "deadwood_cards": [], "deadwood": 0}
            else:
                hands[player] = best_arrangement(state.hands[player], rules).to_json()
            points[player] = hands[player]["deadwood"]
            state.scores[player] += points[player]
        summary = {
            "round": state.round,
            "went_out": state.went_out,
            "hands": hands,
            "points": points,
            "totals": dict(state.scores),
        }
        state.history.append({"round": state.round, "points": points})
        state.last_round = summary
        events = [Event("round_scored", deep_copy(summary))]
        next_dealer = left_of(state.players, state.dealer)  # T6
        if state.round < ROUNDS:
            deal(state, state.round + 1, next_dealer, state.players)
            return events + [self._round_started(state)]
        contenders = state.seated
        low = min(state.scores[player] for player in contenders)
        tied = [player for player in contenders if state.scores[player] == low]
        if len(tied) > 1 and state.round == ROUNDS and state.options["tie"] == "tiebreak_round":
            dealer = next_dealer
            while dealer not in tied:
                dealer = left_of(state.players, dealer)
            deal(state, TIEBREAK_ROUND, dealer, tied)
            return events + [Event("tie_break", {"players": tied}), self._round_started(state)]
        state.phase = "finished"
        state.winners = tied
        return events + [Event("match_over", {"winners": tied, "totals": dict(state.scores)})]

    def _round_started(self, state: ThreeThirteenState) -> Event:
        public = {
            "round": state.round,
            "dealer": state.dealer,
            "players": list(state.seated),
            "deal_size": deal_size(state.round),
            "wild_rank": RANK_CODE[self.rules(state).wild],
            "upcard": state.discard[-1],
            "stock_count": len(state.stock),
            "turn": state.turn,
        }
        private = {player: {"hand": list(state.hands[player])} for player in state.seated}
        return Event("round_started", public, private)

    # ----- what may be seen -----------------------------------------------------------------
    def view(self, state: ThreeThirteenState, player: str | None) -> dict[str, Any]:
        rules = self.rules(state)
        seen: dict[str, Any] = {
            "game": self.name,
            "round": state.round,
            "rounds": ROUNDS,
            "tiebreak": state.round == TIEBREAK_ROUND,
            "deal_size": deal_size(state.round),
            "wild_rank": RANK_CODE[rules.wild],
            "players": list(state.players),
            "seated": list(state.seated),
            "dealer": state.dealer,
            "phase": state.phase,
            "turn": None if state.phase == "finished" else state.turn,
            "to_act": self.to_act(state),
            "drawn_from": state.drawn_from,
            "taken_card": state.taken,
            "stock_count": len(state.stock),
            "discard_top": state.discard[-1] if state.discard else None,
            "discard_count": len(state.discard),
            "discard": list(state.discard),  # public: every card on the pile was discarded face up
            "hand_counts": {p: len(state.hands[p]) for p in state.players},
            "table_melds": deep_copy(state.table),
            "went_out": state.went_out,
            "final_turns": list(state.final_turns) if state.went_out else [],
            "scores": dict(state.scores),
            "round_scores": deep_copy(state.history),
            "last_round": deep_copy(state.last_round),
            "winners": list(state.winners),
            "options": dict(state.options),
        }
        if player is not None and player in state.hands:
            hand = state.hands[player]
            seen["you"] = player
            seen["hand"] = sorted_cards(list(hand))
            seen["best_arrangement"] = best_arrangement(hand, rules).to_json() if hand else None
        return seen

    def replay_hands(self, state: ThreeThirteenState) -> dict[str, Any]:
        return {player: list(state.hands[player]) for player in state.players}

    # ----- outcome --------------------------------------------------------------------------
    def scores(self, state: ThreeThirteenState) -> dict[str, int]:
        return dict(state.scores)

    def is_finished(self, state: ThreeThirteenState) -> bool:
        return state.phase == "finished"

    def winners(self, state: ThreeThirteenState) -> list[str]:
        return list(state.winners)

    def round_number(self, state: ThreeThirteenState) -> int:
        return state.round

    # ----- persistence ----------------------------------------------------------------------
    def dump(self, state: ThreeThirteenState) -> dict[str, Any]:
        return state.to_dict()

    def load(self, data: Mapping[str, Any]) -> ThreeThirteenState:
        return ThreeThirteenState.from_dict(data)


GAME = ThreeThirteen()
