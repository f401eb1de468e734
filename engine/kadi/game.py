"""Kadi behind the shared `Game` protocol: set-up, the action handlers, the round and match end.

There is one implementation of the rules: `advance`, which changes the state it is given.
Every handler first judges the action on the state as it is (a refusal changes nothing), then
changes it in place: it closes an open "Kadi Moja!" window (drawing the missed-call penalty,
KAD-A16), resolves the action, and returns the state with the events it caused. `apply` is
`advance` on a copy (`KadiState.copy` copies exactly what `advance` changes in place).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from engine.core.cards import SUITS
from engine.core.options import parse_options
from engine.core.protocol import CLOCK, Action, Event, Game, MalformedAction, Refused, Result
from engine.core.rng import rng_for
from engine.core.shapes import check_action
from engine.kadi.cards import DECK, PENALTY_KIND, PENALTY_PER_CARD, POWER_RANKS, RANK
from engine.kadi.events import applied, event
from engine.kadi.options import KadiOptions
from engine.kadi.piles import deal_round, draw_cards
from engine.kadi.rules import drawn_playable, has_play, legal_plays, openers, play_problem
from engine.kadi.scoring import hand_points, lowest, match_outcome
from engine.kadi.state import KadiState
from engine.kadi.views import player_view

Handler = Callable[[KadiState, str, Action], Result]

_COMMANDS = [{"suit": suit} for suit in SUITS] + [{"power": True}]


def _refuse_turn(state: KadiState, player: str) -> Refused | None:
    if state.phase == "challenge":
        return Refused("challenge_open", "A win is waiting for acceptance: accept it or accuse.")
    if player != state.turn:
        return Refused("not_your_turn", f"It is {state.turn}'s turn; wait for yours.")
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
    def player_count_problem(self, players: Sequence[str], options: BaseModel) -> str | None:
        most = 7 if options.hand_size <= 6 else 6  # type: ignore[attr-defined]
        if not 2 <= len(players) <= most:
            return f"kadi needs 2-{most} players with hands of {options.hand_size}"  # type: ignore[attr-defined]
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
        state = object.__new__(KadiState)
        state.seed = seed
        state.options = options
        state.players = list(players)
        state.seats = list(players)
        state.decks = [list(deck) for deck in decks]
        state.round = 1
        state.dealer = dealer if dealer is not None else rng_for(seed, "dealer").choice(list(players))
        state.scores = {p: 0 for p in players}
        state.winners = []
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
            return [state.turn]  # type: ignore[list-item]
        if state.phase == "challenge":
            return [p for p in state.seats if p != state.provisional and p not in state.accepted]
        return []

    def legal_actions(self, state: KadiState, player: str) -> list[Action]:
        phase = state.phase
        if phase == "over":
            return []
        if player == CLOCK:
            return [{"type": "timeout"}]
        if player not in state.seats:
            return []
        options = state.options
        actions: list[Action] = []
        if phase == "play" and player == state.turn:
            plays = legal_plays(state, player)
            size = len(state.hands[player])
            niko = options.niko_kadi_ahead
            draw_one = options.power_finish == "draw_one"
            append = actions.append
            for cards in plays:
                left = size - len(cards)
                rank = RANK[cards[0]]
                if left > 1 and not niko:  # the usual play: no call to offer with it
                    if rank == "J":
                        actions += [{"type": "play", "cards": cards, "command": command} for command in _COMMANDS]
                    else:
                        append({"type": "play", "cards": cards})
                    continue
                wins = left == 0 and rank not in POWER_RANKS
                with_call = not wins and (niko or left == 1 or (left == 0 and draw_one))
                if rank == "J":
                    for command in _COMMANDS:
                        append({"type": "play", "cards": cards, "command": command})
                        if with_call:
                            append({"type": "play", "cards": cards, "command": command, "call": True})
                else:
                    append({"type": "play", "cards": cards})
                    if with_call:
                        append({"type": "play", "cards": cards, "call": True})
            if state.drawn is not None:
                actions.append({"type": "pass"})
            elif state.pen_amount or not plays or options.voluntary_draw:
                actions.append({"type": "draw"})
            if options.hiding and state.drawn is None and not state.hide_used:
                hidden = state.hidden[player]
                if hidden is not None:
                    actions.append({"type": "unhide"})
                elif size >= 3:
                    actions += [{"type": "hide", "card": card} for card in dict.fromkeys(state.hands[player])]
        if state.window == player and (
            state.call_due or (options.niko_kadi_ahead and player not in state.announced)
        ):
            actions.append({"type": "call"})
        if phase == "challenge" and player != state.provisional and player not in state.accepted:
            actions.append({"type": "accept"})
        if options.hiding:
            actions += [{"type": "accuse", "target": p} for p in state.seats if p != player]
        return actions

    def apply(self, state: KadiState, player: str, action: Action) -> Result:
        """`advance` on a copy: the same rules, and `state` is never changed."""
        return self.advance(state.copy(), player, action)

    def advance(self, state: KadiState, player: str, action: Action) -> Result:
        """Apply `action`, changing `state` in place; a refusal is judged before any change."""
        if state.phase == "over":
            return Refused("match_over", "The match is over; start a new one.")
        kind = action.get("type")
        if player == CLOCK:
            if kind != "timeout":
                return Refused("clock_only_times_out", "The clock can only time out.")
            return self._timeout(state)
        if player not in state.seats:
            if player in state.players:
                return Refused("eliminated", "You have left the table (over the points limit).")
            return Refused("not_a_player", "Only players at this table can act.")
        handler = self._handlers.get(kind)  # type: ignore[arg-type]
        if handler is None:
            return Refused("unknown_action", f"Kadi has no action {kind!r}.")
        return handler(self, state, player, action)

    # ----- handlers -----------------------------------------------------------------------
    def _play(self, state: KadiState, player: str, action: Action) -> Result:
        if player != state.turn or state.phase == "challenge":
            return _refuse_turn(state, player)  # type: ignore[return-value]
        cards = list(action.get("cards", []))
        hand = state.hands[player]
        if len(cards) == 1 and len(hand) > 1:
            # The usual single card, judged as play_problem would judge it (no finish, no mix).
            card = cards[0]
            if card not in hand or card not in openers(state) or (state.drawn is not None and state.drawn != card):
                refusal = play_problem(state, player, cards)
                if refusal:
                    return refusal
        else:
            refusal = play_problem(state, player, cards)
            if refusal:
                return refusal
        rank = RANK[cards[0]]
        command = action.get("command")
        if rank == "J":
            if command is None:
                return Refused("command_required", "With a J, name a suit or demand a power card.")
            value = _command_value(command)
            if value is None:
                return Refused("bad_command", "A command names a suit (S, H, D, C) or demands a power card.")
        elif command is not None:
            return Refused("command_not_allowed", "Only a J carries a command; play without one.")

        new = state
        events: list[Event] = []
        if new.call_due:
            self._close_window(new, events)  # adds the missed-call penalty to a hand (maybe `hand`)
        else:
            new.window = None
        if len(cards) == 1:
            hand.remove(cards[0])
            new.discard.append(cards[0])
        else:
            for card in cards:
                hand.remove(card)
            new.discard.extend(cards)
        new.command = None
        new.command_for = None
        new.idle = 0
        seats = new.seats
        public: dict[str, Any] = {"player": player, "cards": cards, "left": len(hand)}
        if rank not in POWER_RANKS:  # an ordinary card: no effect but the turn passes on
            following = seats[(seats.index(player) + new.direction) % len(seats)]
            if new.pen_amount:
                public["penalty"] = new.pen_amount
        else:
            count = len(cards)
            steps = 1
            if rank in PENALTY_PER_CARD:
                new.pen_amount += PENALTY_PER_CARD[rank] * count
                new.pen_kind = PENALTY_KIND[rank]
            elif rank == "7" or (rank == "8" and len(seats) == 2):
                steps = count + 1
            elif rank == "8" and count % 2:
                new.direction = -new.direction
            direction = new.direction
            here = seats.index(player)
            following = seats[(here + direction * steps) % len(seats)]
            if rank == "J":
                new.command = value
                new.command_for = following
                public["command"] = {"power": True} if value == "power" else {"suit": value}
            if new.pen_amount:
                public["penalty"] = new.pen_amount
            if steps > 1:
                public["skipped"] = [seats[(here + direction * i) % len(seats)] for i in range(1, steps)]
            if rank == "8" and len(seats) > 2:
                public["direction"] = "clockwise" if direction == 1 else "anticlockwise"
        events.append(event("played", public))

        if not hand:
            if rank not in POWER_RANKS:
                if new.hidden[player] is not None:
                    return self._open_challenge(new, player, following, events)
                events.append(event("won", {"player": player}))
                return self._end_round(new, player, events)
            got = draw_cards(new, player, 1, events)  # KAD-A18: the journey is not over
            events.append(event("power_finish_draw", {"player": player, "count": len(got)}, {player: {"cards": got}}))
        self._end_turn(new, player, following)
        new.call_due = len(hand) == 1
        if action.get("call"):
            self._record_call(new, player, events)
        return applied(new, events)

    def _draw(self, state: KadiState, player: str, action: Action) -> Result:
        if player != state.turn or state.phase == "challenge":
            return _refuse_turn(state, player)  # type: ignore[return-value]
        if state.drawn is not None:
            return Refused("already_drew", "You have drawn already: play the drawn card or pass.")
        if not state.pen_amount and not state.options.voluntary_draw and has_play(state, player):
            return Refused("must_play", "You have a card that fits: play it (draw only when nothing fits).")
        new = state
        events: list[Event] = []
        if new.call_due:
            self._close_window(new, events)
        else:
            new.window = None
        if new.pen_amount:
            return self._take_penalty(new, player, events)
        return self._draw_one(new, player, events, keep=False)

    def _pass(self, state: KadiState, player: str, action: Action) -> Result:
        refusal = _refuse_turn(state, player)
        if refusal:
            return refusal
        if state.drawn is None:
            return Refused("nothing_to_pass", "You may pass only right after drawing a card you could play.")
        new = state
        events: list[Event] = []
        self._close_window(new, events)
        events.append(event("passed", {"player": player}))
        return self._finish_turn(new, player, events, moved=True)

    def _call(self, state: KadiState, player: str, action: Action) -> Result:
        niko = state.options.niko_kadi_ahead and player not in state.announced
        if state.window != player or not (state.call_due or niko):
            return Refused("no_call_due", "There is no call to make now.")
        new = state
        events: list[Event] = []
        self._record_call(new, player, events)
        return applied(new, events)

    def _hide(self, state: KadiState, player: str, action: Action) -> Result:
        refusal = self._hiding_turn_refusal(state, player)
        if refusal:
            return refusal
        card = action.get("card")
        if state.hidden[player] is not None:
            return Refused("already_hiding", "You already hide a card; only one at a time.")
        if card not in state.hands[player]:
            return Refused("not_in_hand", f"You do not hold {card}; hide a card from your hand.")
        if len(state.hands[player]) < 3:
            return Refused("too_few_cards", "Hide a card only while two or more others stay visible.")
        new = state
        events: list[Event] = []
        self._close_window(new, events)
        hand = list(new.hands[player])
        hand.remove(card)
        new.hands[player] = hand
        new.hidden = {**new.hidden, player: card}
        new.hide_used = True
        events.append(event("hid", {"player": player, "left": len(new.hands[player])}, {player: {"card": card}}))
        return applied(new, events)

    def _unhide(self, state: KadiState, player: str, action: Action) -> Result:
        refusal = self._hiding_turn_refusal(state, player)
        if refusal:
            return refusal
        card = state.hidden[player]
        if card is None:
            return Refused("not_hiding", "You hide no card.")
        new = state
        events: list[Event] = []
        self._close_window(new, events)
        new.hands[player] = [*new.hands[player], card]
        new.hidden = {**new.hidden, player: None}
        new.hide_used = True
        events.append(event("unhid", {"player": player, "left": len(new.hands[player])}, {player: {"card": card}}))
        return applied(new, events)

    def _accuse(self, state: KadiState, player: str, action: Action) -> Result:
        if not state.options.hiding:
            return Refused("hiding_off", "Hiding mode is off at this table.")
        target = action.get("target")
        if target == player:
            return Refused("cannot_accuse_self", "Accuse another player.")
        if target not in state.seats:
            return Refused("not_seated", f"{target} is not playing at this table.")
        new = state
        events: list[Event] = []
        hidden = state.hidden[target]
        payer = target if hidden is not None else player
        private: dict[str, dict[str, Any]] = {}
        if hidden is not None:
            new.hands[target] = [*new.hands[target], hidden]
            new.hidden = {**new.hidden, target: None}
            private[target] = {"returned": hidden}
        got = draw_cards(new, payer, state.options.hiding_penalty, events)
        private.setdefault(payer, {})["cards"] = got
        public = {"accuser": player, "target": target, "caught": hidden is not None, "payer": payer, "count": len(got)}
        events.append(event("accused", public, private))
        if new.window is not None and len(new.hands[new.window]) != 1:
            new.call_due = False
        if hidden is not None and target == new.provisional:
            events.append(event("win_voided", {"player": target}))
            new.phase = "play"
            new.turn = new.resume_turn
            new.provisional = None
            new.accepted = []
            new.resume_turn = None
        return applied(new, events)

    def _accept(self, state: KadiState, player: str, action: Action) -> Result:
        if state.phase != "challenge":
            return Refused("no_challenge", "There is no provisional win to accept.")
        if player == state.provisional or player in state.accepted:
            return Refused("not_waiting_for_you", "Nothing to accept from you; wait for the others.")
        new = state
        events = [event("accepted", {"player": player})]
        new.accepted = [*state.accepted, player]
        if all(p == new.provisional or p in new.accepted for p in new.seats):
            return self._confirm_win(new, events)
        return applied(new, events)

    def _timeout(self, state: KadiState) -> Result:
        new = state
        events: list[Event] = []
        if state.phase == "challenge":
            return self._confirm_win(new, events)
        player = new.turn
        self._close_window(new, events)
        if new.drawn is not None:
            events.append(event("passed", {"player": player, "timeout": True}))
            return self._finish_turn(new, player, events, moved=True)  # type: ignore[arg-type]
        if new.pen_amount:
            return self._take_penalty(new, player, events)  # type: ignore[arg-type]
        return self._draw_one(new, player, events, keep=True)  # type: ignore[arg-type]

    _handlers: dict[str, Callable[..., Result]] = {
        "play": _play,
        "draw": _draw,
        "pass": _pass,
        "call": _call,
        "hide": _hide,
        "unhide": _unhide,
        "accuse": _accuse,
        "accept": _accept,
    }

    # ----- steps shared by the handlers (they change `new` in place) ------------------------
    def _hiding_turn_refusal(self, state: KadiState, player: str) -> Refused | None:
        if not state.options.hiding:
            return Refused("hiding_off", "Hiding mode is off at this table.")
        refusal = _refuse_turn(state, player)
        if refusal:
            return refusal
        if state.drawn is not None:
            return Refused("not_before_acting", "Hide or unhide at the start of your turn, before you act.")
        if state.hide_used:
            return Refused("hide_used", "You hid or unhid already this turn; do it on a later turn.")
        return None

    def _close_window(self, new: KadiState, events: list[Event]) -> None:
        """The next action closes the "Kadi Moja!" window; a missed call costs cards (KAD-A16)."""
        caller = new.window
        if caller is None:
            return
        if new.call_due:  # a missed call
            got = draw_cards(new, caller, new.options.missed_call_penalty, events)
            events.append(event("missed_call", {"player": caller, "count": len(got)}, {caller: {"cards": got}}))
            new.call_due = False
        new.window = None

    def _record_call(self, new: KadiState, player: str, events: list[Event]) -> None:
        kadi_moja = new.call_due
        new.call_due = False
        niko = new.options.niko_kadi_ahead and player not in new.announced
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
        if new.command is not None and new.command_for == player and new.options.command_scope == "next_player":
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
        events.append(event("penalty_drawn", {"player": player, "owed": owed, "count": len(got)}, {player: {"cards": got}}))
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
            if drawn_playable(new, player):
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
            if new.hidden[p] is not None:
                cards.append(new.hidden[p])  # type: ignore[arg-type]
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
        dealer = next(players[(start + i) % len(players)] for i in range(1, len(players) + 1) if players[(start + i) % len(players)] in staying)
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
            if p in state.seats and state.hidden[p] is not None:
                cards.append(state.hidden[p])
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
