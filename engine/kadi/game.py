"""Kadi behind the shared `Game` protocol: set-up, the action handlers, the round and match end.

There is one implementation of the rules: `advance`, which changes the state it is given.
Each action has a judge, which says why it is refused on the state as it is (a refusal
changes nothing), and a move, which changes the state in place: it closes an open "Kadi
Moja!" window (drawing the missed-call penalty, KAD-A16), resolves the action, and returns the
state with the events it caused. An action that `legal_actions` offered for this very state
skips its judge. `apply` is `advance` on a copy (`KadiState.copy` copies exactly what
`advance` changes in place).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from engine.core.cards import SUITS
from engine.core.fast import applied, event
from engine.core.options import parse_options
from engine.core.protocol import CLOCK, Action, Event, Game, MalformedAction, Refused, Result
from engine.core.rng import pick
from engine.core.shapes import check_action
from engine.kadi.cards import DECK, PENALTY_KIND, PENALTY_PER_CARD, POWER_RANKS, RANK
from engine.kadi.options import KadiOptions, TableRules
from engine.kadi.piles import deal_round, draw_cards
from engine.kadi.rules import legal_plays, may_call, offered_actions, play_problem
from engine.kadi.scoring import hand_points, lowest, match_outcome
from engine.kadi.state import KadiState
from engine.kadi.views import player_view


def _refuse_turn(state: KadiState, player: str) -> Refused | None:
    if state.phase == "challenge":
        return Refused("challenge_open", "A win is waiting for acceptance: accept it or accuse.")
    if player != state.turn:
        return Refused("not_your_turn", f"It is {state.turn}'s turn; wait for yours.")
    return None


def _hiding_turn_refusal(state: KadiState, player: str) -> Refused | None:
    if not state.rules.hiding:
        return Refused("hiding_off", "Hiding mode is off at this table.")
    refusal = _refuse_turn(state, player)
    if refusal:
        return refusal
    if state.drawn is not None:
        return Refused("not_before_acting", "Hide or unhide at the start of your turn, before you act.")
    if state.hide_used:
        return Refused("hide_used", "You hid or unhid already this turn; do it on a later turn.")
    return None


def _command_value(command: Any) -> str | None:
    """'S'/'H'/'D'/'C' or 'power' for a well-formed command object, else None."""
    if not isinstance(command, Mapping):
        return None
    if set(command) == {"suit"} and command["suit"] in SUITS:
        return command["suit"]
    if set(command) == {"power"} and command["power"] is True:
        return "power"
    return None


class KadiGame(Game):
    name = "kadi"
    min_players = 2
    max_players = 7
    usual_players = 3
    lower_totals_win = True
    Options = KadiOptions
    # K9: hiding mode needs every player's consent (KAD-A22).
    consent_options = ("hiding",)
    action_fields = {
        "play": {"cards": "cards", "command": "?object", "call": "?bool"},
        "draw": {},
        "pass": {},
        "call": {},
        "hide": {"card": "card"},
        "unhide": {},
        "accuse": {"target": "player"},
        "accept": {},
    }

    # ----- set-up -------------------------------------------------------------------------
    def player_range(self, options: BaseModel) -> tuple[int, int]:
        # KAD-A2: seven hands of 7 would leave 4 cards in the stock.
        return 2, 7 if _own(options).hand_size <= 6 else 6

    def player_count_problem(self, players: Sequence[str], options: BaseModel) -> str | None:
        low, high = self.player_range(options)
        if not low <= len(players) <= high:
            return f"kadi needs {low}-{high} players with hands of {_own(options).hand_size}"
        return None

    def deck(self, options: BaseModel, players: Sequence[str]) -> list[str]:
        return list(DECK)

    def new(
        self,
        players: Sequence[str],
        options: BaseModel | Mapping[str, Any] | None,
        seed: int | str,
        dealer: str | None = None,
        decks: Sequence[Sequence[str]] = (),
    ) -> KadiState:
        if not isinstance(options, KadiOptions):
            options = parse_options(KadiOptions, options if isinstance(options, Mapping) else None)
        problem = self.player_count_problem(players, options)
        if problem:
            raise ValueError(problem)
        state = object.__new__(KadiState)
        state.seed = seed
        state.options = options
        state.players = list(players)
        state.seats = list(players)
        state.decks = [list(deck) for deck in decks]
        state.round = 1
        state.dealer = dealer if dealer is not None else pick(players, seed, "dealer")
        state.scores = {p: 0 for p in players}
        state.winners = []
        state.rules = TableRules(options)
        state.legal = []
        state.legal_for = None
        deal_round(state)
        return state

    def check_action(self, player: str, action: Any, players: Sequence[str]) -> Action:
        canonical = check_action(self.action_fields, player, action, players)
        if "command" in canonical:
            command = canonical["command"]
            if isinstance(command.get("suit"), str):
                command = {**command, "suit": command["suit"].upper()}
            value = _command_value(command)
            if value is None:
                raise MalformedAction('a command is {"suit": "S"|"H"|"D"|"C"} or {"power": true}')
            canonical["command"] = {"power": True} if value == "power" else {"suit": value}
        if canonical.get("call") is False:
            del canonical["call"]
        return canonical

    # ----- play ---------------------------------------------------------------------------
    def to_act(self, state: KadiState) -> list[str]:
        if state.phase == "play":
            return [state.player_to_move()]
        if state.phase == "challenge":
            return [p for p in state.seats if p != state.provisional and p not in state.accepted]
        return []

    def legal_actions(self, state: KadiState, player: str) -> list[Action]:
        # Cached on the state: the table renders every hand from it, and `advance` accepts an
        # action found in it without judging it again.
        if state.legal_for == player:
            return state.legal
        legal = state.legal = offered_actions(state, player)
        state.legal_for = player
        return legal

    def apply(self, state: KadiState, player: str, action: Action) -> Result:
        """`advance` on a copy: the same rules, and `state` is never changed."""
        return self.advance(state.copy(), player, action)

    def advance(self, state: KadiState, player: str, action: Action) -> Result:
        """Apply `action`, changing `state` in place; a refusal is judged before any change."""
        if state.legal_for == player and action in state.legal:
            # Offered for this very state (the cache is dropped before any change): the rules
            # accept it, so it is resolved without judging it again.
            state.legal_for = None
            return self._moves[action["type"]](self, state, player, action)
        state.legal_for = None
        if state.phase == "over":
            return Refused("match_over", "The match is over; start a new one.")
        kind = action.get("type")
        if player == CLOCK:
            if kind != "timeout":
                return Refused("clock_only_times_out", "The clock can only time out.")
            return self._timeout(state, player, action)
        if player not in state.seats:
            if player in state.players:
                return Refused("eliminated", "You have left the table (over the points limit).")
            return Refused("not_a_player", "Only players at this table can act.")
        judge = self._judges.get(kind) if isinstance(kind, str) else None
        if judge is None:
            return Refused("unknown_action", f"Kadi has no action {kind!r}.")
        refusal = judge(self, state, player, action)
        if refusal is not None:
            return refusal
        return self._moves[action["type"]](self, state, player, action)

    # ----- judges: why an action is refused on the state as it is, or None ------------------
    def _judge_play(self, state: KadiState, player: str, action: Action) -> Refused | None:
        if player != state.turn or state.phase == "challenge":
            return _refuse_turn(state, player)
        cards = list(action.get("cards", []))
        refusal = play_problem(state, player, cards)
        if refusal:
            return refusal
        command = action.get("command")
        if RANK[cards[0]] == "J":
            if command is None:
                return Refused("command_required", "With a J, name a suit or demand a power card.")
            if _command_value(command) is None:
                return Refused("bad_command", "A command names a suit (S, H, D, C) or demands a power card.")
        elif command is not None:
            return Refused("command_not_allowed", "Only a J carries a command; play without one.")
        return None

    def _judge_draw(self, state: KadiState, player: str, action: Action) -> Refused | None:
        if player != state.turn or state.phase == "challenge":
            return _refuse_turn(state, player)
        if state.drawn is not None:
            return Refused("already_drew", "You have drawn already: play the drawn card or pass.")
        if not state.pen_amount and not state.rules.voluntary_draw and legal_plays(state, player):
            return Refused("must_play", "You have a card that fits: play it (draw only when nothing fits).")
        return None

    def _judge_pass(self, state: KadiState, player: str, action: Action) -> Refused | None:
        refusal = _refuse_turn(state, player)
        if refusal:
            return refusal
        if state.drawn is None:
            return Refused("nothing_to_pass", "You may pass only right after drawing a card you could play.")
        return None

    def _judge_call(self, state: KadiState, player: str, action: Action) -> Refused | None:
        if not may_call(state, player):
            return Refused("no_call_due", "There is no call to make now.")
        return None

    def _judge_hide(self, state: KadiState, player: str, action: Action) -> Refused | None:
        refusal = _hiding_turn_refusal(state, player)
        if refusal:
            return refusal
        card = action.get("card")
        if state.hidden[player] is not None:
            return Refused("already_hiding", "You already hide a card; only one at a time.")
        if card not in state.hands[player]:
            return Refused("not_in_hand", f"You do not hold {card}; hide a card from your hand.")
        if len(state.hands[player]) < 3:
            return Refused("too_few_cards", "Hide a card only while two or more others stay visible.")
        return None

    def _judge_unhide(self, state: KadiState, player: str, action: Action) -> Refused | None:
        refusal = _hiding_turn_refusal(state, player)
        if refusal:
            return refusal
        if state.hidden[player] is None:
            return Refused("not_hiding", "You hide no card.")
        return None

    def _judge_accuse(self, state: KadiState, player: str, action: Action) -> Refused | None:
        if not state.rules.hiding:
            return Refused("hiding_off", "Hiding mode is off at this table.")
        target = action.get("target")
        if target == player:
            return Refused("cannot_accuse_self", "Accuse another player.")
        if target not in state.seats:
            return Refused("target_not_seated", f"{target} is not playing at this table.")
        return None

    def _judge_accept(self, state: KadiState, player: str, action: Action) -> Refused | None:
        if state.phase != "challenge":
            return Refused("no_challenge", "There is no provisional win to accept.")
        if player == state.provisional or player in state.accepted:
            return Refused("not_waiting_for_you", "Nothing to accept from you; wait for the others.")
        return None

    # ----- moves: an accepted action, resolved in place ----------------------------------------
    def _play(self, state: KadiState, player: str, action: Action) -> Result:
        cards = list(action["cards"])
        hand = state.hands[player]
        events: list[Event] = []
        if state.call_due:
            self._close_window(state, events)  # adds the missed-call penalty to a hand (maybe `hand`)
        else:
            state.window = None
        for card in cards:
            hand.remove(card)
        state.discard.extend(cards)
        state.command = None
        state.command_for = None
        state.idle = 0
        rank = RANK[cards[0]]
        public: dict[str, Any] = {"player": player, "cards": cards, "left": len(hand)}
        if rank in POWER_RANKS:
            following = self._power_effect(state, player, cards, action.get("command"), public)
        else:  # an ordinary card: no effect but the turn passes on
            seats = state.seats
            following = seats[(seats.index(player) + state.direction) % len(seats)]
            if state.pen_amount:
                public["penalty"] = state.pen_amount
        events.append(event("played", public))

        if not hand:
            if rank not in POWER_RANKS:
                if state.hidden[player] is not None:
                    return self._open_challenge(state, player, following, events)
                events.append(event("won", {"player": player}))
                return self._end_round(state, player, events)
            got = draw_cards(state, player, 1, events)  # KAD-A18: the journey is not over
            events.append(event("power_finish_draw", {"player": player, "count": len(got)}, {player: {"cards": got}}))
        self._end_turn(state, player, following)
        state.call_due = len(hand) == 1
        if action.get("call"):
            self._record_call(state, player, events)
        return applied(state, events)

    def _power_effect(
        self, state: KadiState, player: str, cards: list[str], command: Mapping[str, Any] | None, public: dict[str, Any]
    ) -> str:
        """Apply the effect of power cards just played (K6.5); return who plays next."""
        rank = RANK[cards[0]]
        count = len(cards)
        seats = state.seats
        steps = 1
        if rank in PENALTY_PER_CARD:
            state.pen_amount += PENALTY_PER_CARD[rank] * count
            state.pen_kind = PENALTY_KIND[rank]
        elif rank == "7" or (rank == "8" and len(seats) == 2):
            steps = count + 1
        elif rank == "8" and count % 2:
            state.direction = -state.direction
        direction = state.direction
        here = seats.index(player)
        following = seats[(here + direction * steps) % len(seats)]
        if rank == "J":
            assert command is not None  # judged well-formed: a J's play carries its command
            value = command.get("suit", "power")
            state.command = value
            state.command_for = following
            public["command"] = {"power": True} if value == "power" else {"suit": value}
        if state.pen_amount:
            public["penalty"] = state.pen_amount
        if steps > 1:
            public["skipped"] = [seats[(here + direction * i) % len(seats)] for i in range(1, steps)]
        if rank == "8" and len(seats) > 2:
            public["direction"] = "clockwise" if direction == 1 else "anticlockwise"
        return following

    def _draw(self, state: KadiState, player: str, action: Action) -> Result:
        events: list[Event] = []
        if state.call_due:
            self._close_window(state, events)
        else:
            state.window = None
        if state.pen_amount:
            return self._take_penalty(state, player, events)
        return self._draw_one(state, player, events, keep=False)

    def _pass(self, state: KadiState, player: str, action: Action) -> Result:
        events: list[Event] = []
        self._close_window(state, events)
        events.append(event("passed", {"player": player}))
        return self._finish_turn(state, player, events, moved=True)

    def _call(self, state: KadiState, player: str, action: Action) -> Result:
        events: list[Event] = []
        self._record_call(state, player, events)
        return applied(state, events)

    def _hide(self, state: KadiState, player: str, action: Action) -> Result:
        card = action["card"]
        events: list[Event] = []
        self._close_window(state, events)
        hand = list(state.hands[player])
        hand.remove(card)
        state.hands[player] = hand
        state.hidden = {**state.hidden, player: card}
        state.hide_used = True
        events.append(event("hid", {"player": player, "left": len(hand)}, {player: {"card": card}}))
        return applied(state, events)

    def _unhide(self, state: KadiState, player: str, action: Action) -> Result:
        card = state.hidden[player]
        assert card is not None  # _judge_unhide refused a player who hides no card
        events: list[Event] = []
        self._close_window(state, events)
        state.hands[player] = [*state.hands[player], card]
        state.hidden = {**state.hidden, player: None}
        state.hide_used = True
        events.append(event("unhid", {"player": player, "left": len(state.hands[player])}, {player: {"card": card}}))
        return applied(state, events)

    def _accuse(self, state: KadiState, player: str, action: Action) -> Result:
        target = action["target"]
        events: list[Event] = []
        hidden = state.hidden[target]
        payer = target if hidden is not None else player
        private: dict[str, dict[str, Any]] = {}
        if hidden is not None:
            state.hands[target] = [*state.hands[target], hidden]
            state.hidden = {**state.hidden, target: None}
            private[target] = {"returned": hidden}
        got = draw_cards(state, payer, state.rules.hiding_penalty, events)
        private.setdefault(payer, {})["cards"] = got
        public = {"accuser": player, "target": target, "caught": hidden is not None, "payer": payer, "count": len(got)}
        events.append(event("accused", public, private))
        if state.window is not None and len(state.hands[state.window]) != 1:
            state.call_due = False
        if hidden is not None and target == state.provisional:
            events.append(event("win_voided", {"player": target}))
            state.phase = "play"
            state.turn = state.resume_turn
            state.provisional = None
            state.accepted = []
            state.resume_turn = None
        return applied(state, events)

    def _accept(self, state: KadiState, player: str, action: Action) -> Result:
        events = [event("accepted", {"player": player})]
        state.accepted = [*state.accepted, player]
        if all(p == state.provisional or p in state.accepted for p in state.seats):
            return self._confirm_win(state, events)
        return applied(state, events)

    def _timeout(self, state: KadiState, player: str, action: Action) -> Result:
        events: list[Event] = []
        if state.phase == "challenge":
            return self._confirm_win(state, events)
        player = state.player_to_move()  # the clock acts for the player to move
        self._close_window(state, events)
        if state.drawn is not None:
            events.append(event("passed", {"player": player, "timeout": True}))
            return self._finish_turn(state, player, events, moved=True)
        if state.pen_amount:
            return self._take_penalty(state, player, events)
        return self._draw_one(state, player, events, keep=True)

    _judges: dict[str, Callable[..., Refused | None]] = {
        "play": _judge_play,
        "draw": _judge_draw,
        "pass": _judge_pass,
        "call": _judge_call,
        "hide": _judge_hide,
        "unhide": _judge_unhide,
        "accuse": _judge_accuse,
        "accept": _judge_accept,
    }
    _moves: dict[str, Callable[..., Result]] = {
        "play": _play,
        "draw": _draw,
        "pass": _pass,
        "call": _call,
        "hide": _hide,
        "unhide": _unhide,
        "accuse": _accuse,
        "accept": _accept,
        "timeout": _timeout,
    }

    # ----- steps shared by the moves (they change `new` in place) ---------------------------
    def _close_window(self, new: KadiState, events: list[Event]) -> None:
        """The next action closes the "Kadi Moja!" window; a missed call costs cards (KAD-A16)."""
        caller = new.window
        if caller is None:
            return
        if new.call_due:  # a missed call
            got = draw_cards(new, caller, new.rules.missed_call_penalty, events)
            events.append(event("missed_call", {"player": caller, "count": len(got)}, {caller: {"cards": got}}))
            new.call_due = False
        new.window = None

    def _record_call(self, new: KadiState, player: str, events: list[Event]) -> None:
        kadi_moja = new.call_due
        new.call_due = False
        niko = new.rules.niko_kadi_ahead and player not in new.announced
        if niko:
            new.announced = [*new.announced, player]
        if kadi_moja or niko:
            events.append(event("called", {"player": player}))

    def _end_turn(self, new: KadiState, player: str, following: str) -> None:
        new.window = player
        new.call_due = False
        new.drawn = None
        new.hide_used = False
        if player in new.announced:
            new.announced = [p for p in new.announced if p != player]
        if new.command is not None and new.command_for == player and new.rules.next_player_only:
            new.command = None
            new.command_for = None
        new.turn = following

    def _finish_turn(self, new: KadiState, player: str, events: list[Event], moved: bool) -> Result:
        """End a turn that played nothing; a whole table of empty draws ends the round (blocked)."""
        new.idle = 0 if moved else new.idle + 1
        seats = new.seats
        self._end_turn(new, player, seats[(seats.index(player) + new.direction) % len(seats)])
        if new.idle >= len(new.seats):
            events.append(event("blocked", {"round": new.round}))
            return self._end_round(new, None, events)
        return applied(new, events)

    def _take_penalty(self, new: KadiState, player: str, events: list[Event]) -> Result:
        owed = new.pen_amount
        got = draw_cards(new, player, owed, events)
        events.append(
            event("penalty_drawn", {"player": player, "owed": owed, "count": len(got)}, {player: {"cards": got}})
        )
        new.pen_amount = 0
        new.pen_kind = None
        return self._finish_turn(new, player, events, moved=bool(got))

    def _draw_one(self, new: KadiState, player: str, events: list[Event], keep: bool) -> Result:
        got = draw_cards(new, player, 1, events)
        public = {"player": player, "count": len(got)}
        if keep:
            public["timeout"] = True
        events.append(event("drew", public, {player: {"cards": got}}))
        if got and not keep:
            new.drawn = got[0]
            # What the player may do now says whether the drawn card can be played; it is what
            # `legal_actions` offers this very state, so it is cached for it.
            legal = offered_actions(new, player)
            if legal[0]["type"] == "play":  # plays are offered first
                new.legal = legal
                new.legal_for = player
                new.idle = 0
                return applied(new, events)
            new.drawn = None
        return self._finish_turn(new, player, events, moved=bool(got))

    def _open_challenge(self, new: KadiState, player: str, following: str, events: list[Event]) -> Result:
        """A win with a hidden card is provisional until the others accept (KAD-A25)."""
        self._end_turn(new, player, following)
        new.window = None
        new.phase = "challenge"
        new.provisional = player
        new.accepted = []
        new.resume_turn = following
        new.turn = None
        events.append(event("provisional_win", {"player": player}))
        return applied(new, events)

    def _confirm_win(self, new: KadiState, events: list[Event]) -> Result:
        winner = new.provisional
        assert winner is not None
        hidden = new.hidden[winner]
        new.hidden = {**new.hidden, winner: None}
        if hidden is not None:
            new.discard.insert(0, hidden)  # it "does not exist" (K9.2): out of play, not scored
        new.provisional = None
        new.accepted = []
        new.resume_turn = None
        events.append(event("won", {"player": winner}))
        return self._end_round(new, winner, events)

    def _end_round(self, new: KadiState, winner: str | None, events: list[Event]) -> Result:
        """Score the round (K7.1, KAD-A19/A26), eliminate (KAD-A21), then deal again or end."""
        scoring = new.options.scoring
        revealed: dict[str, list[str]] = {}
        points: dict[str, int] = {}
        for p in new.seats:
            cards = list(new.hands[p])
            hidden = new.hidden[p]
            if hidden is not None:
                cards.append(hidden)
            revealed[p] = cards
            points[p] = 0 if p == winner else hand_points(cards, scoring)
        new.scores = {p: new.scores[p] + points.get(p, 0) for p in new.players}
        events.append(
            event(
                "round_scored",
                {"round": new.round, "winner": winner, "points": points, "totals": dict(new.scores), "hands": revealed},
            )
        )
        options = new.options
        leaving, staying, over = match_outcome(new.scores, new.seats, options.points_limit, options.elimination)
        if leaving:
            events.append(event("eliminated", {"players": leaving}))
        new.window = None
        new.call_due = False
        new.drawn = None
        if over:
            new.winners = staying if options.elimination else lowest(new.scores, new.seats)
            new.seats = staying
            new.phase = "over"
            new.turn = None
            new.provisional = None
            events.append(event("match_over", {"winners": list(new.winners), "totals": dict(new.scores)}))
            return applied(new, events)
        players = new.players
        start = players.index(new.dealer)
        dealer = next(
            players[(start + i) % len(players)]
            for i in range(1, len(players) + 1)
            if players[(start + i) % len(players)] in staying
        )
        new.seats = staying
        new.dealer = dealer
        new.round += 1
        events.append(deal_round(new))
        return applied(new, events)

    # ----- what may be seen ---------------------------------------------------------------
    def view(self, state: KadiState, player: str | None) -> dict[str, Any]:
        return player_view(state, player)

    def replay_hands(self, state: KadiState) -> dict[str, Any]:
        hands = {}
        for p in state.players:
            cards = list(state.hands[p]) if p in state.seats else []
            hidden = state.hidden[p] if p in state.seats else None
            if hidden is not None:
                cards.append(hidden)
            hands[p] = cards
        return hands

    # ----- outcome ------------------------------------------------------------------------
    def scores(self, state: KadiState) -> dict[str, int]:
        return dict(state.scores)

    def is_finished(self, state: KadiState) -> bool:
        return state.phase == "over"

    def winners(self, state: KadiState) -> list[str]:
        return list(state.winners)

    def round_number(self, state: KadiState) -> int:
        return state.round

    # ----- persistence --------------------------------------------------------------------
    def dump(self, state: KadiState) -> dict[str, Any]:
        return state.to_dict()

    def load(self, data: Mapping[str, Any]) -> KadiState:
        return KadiState.from_dict(data)


def _own(options: BaseModel) -> KadiOptions:
    """The game's own options: the protocol passes them as any model (`Game.parse_options`)."""
    if not isinstance(options, KadiOptions):
        raise TypeError(f"Kadi takes KadiOptions, not {type(options).__name__}")
    return options
