"""The Lopti `Game`: action checks, refusals, legal actions and the dispatch to turns and session."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from engine.core.fast import UNHEARD, applied, event
from engine.core.options import parse_options
from engine.core.protocol import (
    CHAMPION_WINDOW,
    CLOCK,
    VOTE_WINDOW,
    Action,
    Event,
    Game,
    MalformedAction,
    Refused,
    Result,
)
from engine.core.rng import pick
from engine.lopti import house, meta, session, turns
from engine.lopti.actions import (
    BIT,
    CHUNK_0,
    CHUNK_1,
    CHUNK_2,
    CHUNK_3,
    CHUNKS,
    COMBO,
    COUNT_TAG,
    FLIPS,
    MATCH_SIZES,
    PLAYS,
    RANK_MASK,
    TAKE,
    THREES,
)
from engine.lopti.dealing import deal_round
from engine.lopti.options import LoptiOptions
from engine.lopti.rules import DECK, VALUE, lowest_card, play_problem, sort_cards
from engine.lopti.state import AUTHORING, PLAY, SETUP, LoptiState
from engine.lopti.views import player_view, replay_hands

# `close_author` ends the wait for a duel's author, `close_champion` the wait for a champion (it
# also ends the author's wait, as the spec's replays write it): both are waits for a champion.
CLOCK_WINDOWS = {"close_vote": VOTE_WINDOW, "close_author": CHAMPION_WINDOW, "close_champion": CHAMPION_WINDOW}
RULE_KEYS = ("when", "event", "if", "do", "text")
SIGNS = ("rock", "paper", "scissors")

VOTES: list[Action] = [{"type": "vote", "yes": True}, {"type": "vote", "yes": False}]
THROWS: list[Action] = [{"type": "throw", "sign": sign} for sign in SIGNS]
CHAMPION: Action = {"type": "champion"}
# What a computer player never does: the house rules and the Rule Vote are the people's.
COMPUTERS_SKIP = frozenset({"vote", "withdraw_vote", "throw", "champion", "delete_rule", "propose"})
WITHDRAW: Action = {"type": "withdraw_vote"}

_BIT_OF = BIT.__getitem__


def _problem_now(state: LoptiState, rank: int, count: int) -> tuple[str, str] | None:
    """Why `count` cards of `rank` may not go on this state's pile now (None: they may).

    The usual answer, "they may", comes from the state's situation table (`state.follow`, built
    from `rules.rank_mode` for its options) and `MATCH_SIZES` (from `rules.matches_enough`);
    `rules.play_problem` judges the rest and says why."""
    if not state.obligation:
        pile = state.pile
        if not pile:
            return None
        any_number, match, _ = state.follow[pile[-1]]
        mask = RANK_MASK[rank]
        if mask & any_number or mask & match and MATCH_SIZES[state.last_play][state.run] >> count & 1:
            return None
    options = state.options
    return play_problem(
        rank, count, state.pile, state.last_play, state.run, state.obligation,
        options["sevens_stack_singly"], options["ten_on_seven"],
    )  # fmt: skip


def _refuse(code: str, message: str) -> Refused:
    return Refused(code, message)


def _check_rule_fields(rule: dict[str, Any]) -> None:
    unknown = [key for key in rule if key not in RULE_KEYS]
    if unknown:
        raise MalformedAction(f"a rule has no field {unknown[0]!r}")


def _check_rule(rule: dict[str, Any]) -> None:
    """The shape of a rule a player writes (section 8); its content is for the rules to refuse."""
    _check_rule_fields(rule)
    if "text" in rule and not isinstance(rule["text"], str):
        raise MalformedAction("a rule's 'text' must be a string")


def _check_change(change: dict[str, Any]) -> dict[str, Any]:
    """The shape of a proposal (section 7): {"remove": id}, {"amend": id, "rule": {...}} or
    {"option": name, "value": v}; its content is for the rules to refuse."""
    keys = set(change)
    if keys == {"remove"} and type(change["remove"]) is int:
        return {"remove": change["remove"]}
    if keys == {"amend", "rule"} and type(change["amend"]) is int and isinstance(change["rule"], dict):
        _check_rule(change["rule"])
        return {"amend": change["amend"], "rule": change["rule"]}
    if keys == {"option", "value"} and isinstance(change["option"], str):
        return {"option": change["option"], "value": change["value"]}
    if keys == {"restore"} and isinstance(change["restore"], list):
        restored = []
        for item in change["restore"]:
            if not (
                isinstance(item, dict)
                and set(item) == {"author", "rule"}
                and isinstance(item["author"], str)
                and isinstance(item["rule"], dict)
            ):
                raise MalformedAction("each restored rule is {'author': name, 'rule': {...}}")
            _check_rule_fields(item["rule"])
            restored.append({"author": item["author"], "rule": item["rule"]})
        return {"restore": restored}
    raise MalformedAction(
        "'change' is {'remove': id}, {'amend': id, 'rule': {...}}, {'option': name, 'value': v} or {'restore': [...]}"
    )


def _land_with_rules(state: LoptiState, seat: int, cards: list[str], events: list[Event]) -> bool:
    """`turns.land_play` with the house rules on `play` before and after it (section 9: they
    resolve as soon as the play has resolved, before the draw step). Returns whether a burn (the
    play's own or a rule's custom burn) gives the extra play: one extra play per play."""
    if "play" not in state.hooks:
        return turns.land_play(state, seat, cards, events)
    context = {"rank": cards[0][:-1], "count": len(cards), "pile": len(state.pile)}
    burned = house.fire(state, "before", "play", seat, context, events)
    if turns.land_play(state, seat, cards, events):
        burned = True
    if house.fire(state, "after", "play", seat, context, events):
        burned = True
    return burned


def play_keys(state: LoptiState, seat: int) -> tuple[int, ...]:
    """The `actions.PLAYS` keys, one per chunk of ranks, whose lists together are the plays that
    `seat` may make now: section 5.2 decided once per rank, with the hand as a bit mask (an
    empty chunk's key is 0, which lists nothing). `legal_actions` lists them; a rollout policy
    may pick among them without listing. Four keys: one per chunk of `actions.CHUNKS`."""
    held = sum(map(_BIT_OF, state.hands[seat]))  # distinct cards: the sum is the union
    if state.obligation:
        held &= THREES
    elif state.pile:
        any_number, match, tag = state.follow[state.pile[-1]]
        match &= held
        if match:  # only the allowed sizes of the match rank: keys tagged with them
            held &= any_number | match
            tag |= COUNT_TAG[state.last_play][state.run]
            return tuple(part | tag if part & match else part for part in (held & chunk for chunk in CHUNKS))
        held &= any_number
    return held & CHUNK_0, held & CHUNK_1, held & CHUNK_2, held & CHUNK_3


def play_listed(state: LoptiState, cards: list[str]) -> None:
    """The player to act plays `cards`, a play `legal_actions` lists for them now, changing
    `state` in place; nothing is checked and no events are kept. A search's rollouts play this
    way: the play's rules are `advance`'s own, only the checks a listed play passes are skipped."""
    Lopti._play_cards(state, state.turn, cards[:], UNHEARD)


class Lopti(Game):
    name = "lopti"
    min_players = 2
    max_players = 5
    usual_players = 3
    lower_totals_win = False
    plays_in_sessions = True
    clock_windows = CLOCK_WINDOWS
    Options = LoptiOptions
    schema_version = 1
    action_fields = {
        "swap": {"hand": "card", "face_up": "card"},
        "ready": {},
        "play": {"cards": "cards"},
        "flip": {"position": "int"},
        "take": {},
        "author_rule": {"rule": "object"},
        "no_rule": {},
        "delete_rule": {"rule": "int"},
        "propose": {"change": "object", "starts": "str"},
        "vote": {"yes": "bool"},
        "withdraw_vote": {},
        "champion": {},
        "throw": {"sign": "str"},
    }

    # ----- set-up -------------------------------------------------------------------------
    def deck(self, options: BaseModel, players: Sequence[str]) -> list[str]:
        return list(DECK)

    def new(
        self,
        players: Sequence[str],
        options: BaseModel | Mapping[str, Any] | None,
        seed: int | str,
        dealer: str | None = None,
        decks: Sequence[Sequence[str]] = (),
    ) -> LoptiState:
        if not isinstance(options, BaseModel):
            options = parse_options(LoptiOptions, options)
        players = list(players)
        problem = self.player_count_problem(players, options)
        if problem:
            raise ValueError(problem)
        self.check_decks(decks, options, players)
        if dealer is None:
            dealer = pick(players, seed, "dealer")
        state = LoptiState(
            seed=seed,
            options=options.model_dump(mode="json"),
            players=players,
            decks=[list(deck) for deck in decks],
            first_dealer=players.index(dealer),
            ready=[],
            swaps=[],
            wins=[0] * len(players),
            rules=[],
            hands=[],
            face_up=[],
            face_down=[],
            stock=[],
            pile=[],
            chain=[],
            burned=[],
            out=[],
            round=0,
            dealer=0,
            starter=0,
            phase=SETUP,
            turn=0,
            extra=False,
            obligation=False,
            last_play=0,
            run=0,
            round_winner=None,
            next_rule_id=1,
        )
        deal_round(state, 1, [])
        return state

    def check_action(self, player: str, action: Any, players: Sequence[str]) -> Action:
        if player == CLOCK and isinstance(action, dict) and action.get("type") in CLOCK_WINDOWS:
            if len(action) != 1:
                raise MalformedAction(f"{action['type']!r} has no fields")
            return {"type": action["type"]}
        canonical = super().check_action(player, action, players)
        kind = canonical["type"]
        if kind == "author_rule":
            _check_rule(canonical["rule"])
        elif kind == "propose":
            if canonical["starts"] not in ("now", "next_round"):
                raise MalformedAction("'starts' must be 'now' or 'next_round'")
            canonical["change"] = _check_change(canonical["change"])
        elif kind == "throw" and canonical["sign"] not in SIGNS:
            raise MalformedAction("'sign' must be rock, paper or scissors")
        return canonical

    # ----- play ---------------------------------------------------------------------------
    def to_act(self, state: LoptiState) -> list[str]:
        if state.phase == PLAY:
            return [state.players[state.turn]]
        if state.phase == SETUP:
            return [name for name, ready in zip(state.players, state.ready) if not ready]
        return [state.players[state.winner_seat()]]

    def legal_actions(self, state: LoptiState, player: str) -> list[Action]:
        """Every action `player` may take now (a new list; the action dicts in it may be shared
        between calls, so treat them as read-only)."""
        if player == CLOCK:
            actions = [{"type": "timeout"}]
            if state.vote is not None:
                actions.append({"type": "close_vote"})
            if state.duel is not None and state.duel["stage"] != "throws":
                actions.append({"type": "close_author" if state.duel["stage"] == "author" else "close_champion"})
            return actions
        seat = state.players.index(player)
        phase = state.phase
        if phase == PLAY:
            if seat != state.turn:
                actions = []
            elif state.hands[seat]:
                first, second, third, fourth = play_keys(state, seat)
                actions = [*PLAYS[first], *PLAYS[second], *PLAYS[third], *PLAYS[fourth]]
                if state.pile:
                    actions.append(TAKE)
            else:
                actions = [FLIPS[position] for position, card in enumerate(state.face_down[seat]) if card is not None]
                if state.pile and state.options["face_down_may_take"]:
                    actions.append(TAKE)
        elif phase == SETUP:
            actions = []
            if not state.ready[seat]:
                if state.swaps[seat] == 0 or state.options["unlimited_swaps"]:
                    for hand_card in sort_cards(state.hands[seat]):
                        for up_card in state.face_up[seat]:
                            actions.append({"type": "swap", "hand": hand_card, "face_up": up_card})
                actions.append({"type": "ready"})
        elif seat == state.round_winner:
            actions = [{"type": "no_rule"}]
        else:
            actions = []
        if state.rules:
            for record in state.rules:
                if record["active"] and record["author"] == player:
                    actions.append({"type": "delete_rule", "rule": record["id"]})
        if state.vote is not None:
            actions += VOTES
            if player in state.vote["ballots"]:
                actions.append(WITHDRAW)
        if state.duel is not None:
            if meta.throw_problem(state, player) is None:
                actions += THROWS
            elif meta.champion_problem(state, player) is None:
                actions.append(CHAMPION)
        if state.computers and player in state.computers:
            # A computer plays its turns and passes the house rule; the meta-game is the people's.
            actions = [action for action in actions if action["type"] not in COMPUTERS_SKIP]
        return actions

    def apply(self, state: LoptiState, player: str, action: Action) -> Result:
        """`advance` on a copy: the same rules, and `state` is never changed."""
        return self.advance(state.copy(), player, action)

    def advance(self, state: LoptiState, player: str, action: Action) -> Result:
        """Apply an action in canonical form (from `check_action` or `legal_actions`), changing
        `state` in place; every check is made before anything changes, so after a refusal
        `state` is as it was."""
        kind = action.get("type")
        if player == CLOCK:
            if kind == "timeout":
                return self._timeout(state)
            if kind == "close_vote":
                if state.vote is None:
                    return _refuse("no_vote", "No Rule Vote is open.")
                events: list[Event] = []
                meta.close_vote(state, events)
                return applied(state, events)
            if kind in ("close_author", "close_champion"):
                problem = meta.close_champion_problem(state, kind)
                if problem:
                    return _refuse(*problem)
                events = []
                meta.close_champion(state, events)
                return applied(state, events)
            raise MalformedAction("@clock can only time out")
        try:
            seat = state.players.index(player)
        except ValueError:
            raise MalformedAction(f"unknown player {player!r}") from None
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise MalformedAction(f"unknown action type {kind!r}")
        # The action's shape was checked by `check_action`: an exception from here on is an
        # engine bug and must surface as one, not read as a malformed action.
        return handler(self, state, seat, action)

    # ----- setup --------------------------------------------------------------------------
    def _swap(self, state: LoptiState, seat: int, action: Action) -> Result:
        if state.phase != SETUP:
            return _refuse("wrong_phase", "Swaps are only allowed before the first play of the round.")
        if state.ready[seat]:
            return _refuse("already_ready", "You are ready: swaps are closed for you this round.")
        if state.swaps[seat] and not state.options["unlimited_swaps"]:
            return _refuse("swap_used", "You have used your one swap this round; say ready.")
        hand_card, up_card = action["hand"], action["face_up"]
        if hand_card not in state.hands[seat]:
            return _refuse("not_in_hand", f"{hand_card} is not in your hand.")
        if up_card not in state.face_up[seat]:
            return _refuse("not_face_up", f"{up_card} is not one of your face-up cards.")
        hand, row = state.hands[seat], state.face_up[seat]
        hand[hand.index(hand_card)] = up_card
        row[row.index(up_card)] = hand_card
        swaps = list(state.swaps)
        swaps[seat] += 1
        state.swaps = swaps
        swapped = event("swapped", {"player": state.players[seat], "to_face_up": hand_card, "to_hand": up_card})
        return applied(state, [swapped])

    def _ready(self, state: LoptiState, seat: int, action: Action) -> Result:
        if state.phase != SETUP:
            return _refuse("wrong_phase", "The round has already started.")
        if state.ready[seat]:
            return _refuse("already_ready", "You are already ready; waiting for the others.")
        events = [event("ready", {"player": state.players[seat]})]
        self._make_ready(state, [seat], events)
        return applied(state, events)

    @staticmethod
    def _make_ready(state: LoptiState, seats: list[int], events: list[Event]) -> None:
        ready = list(state.ready)
        for seat in seats:
            ready[seat] = True
        state.ready = ready
        if all(ready):
            turns.start_play(state, events)

    # ----- a turn -------------------------------------------------------------------------
    def _turn_problem(self, state: LoptiState, seat: int) -> Refused | None:
        if state.phase != PLAY or seat != state.turn:
            return self._turn_refusal(state)
        return None

    @staticmethod
    def _turn_refusal(state: LoptiState) -> Refused:
        """Why a seat that may not play now (not its turn, or no round under way) may not."""
        if state.phase != PLAY:
            if state.phase == SETUP:
                return _refuse("wrong_phase", "The round has not started: swap or say ready.")
            return _refuse("wrong_phase", "The round is over; waiting for the winner's rule.")
        return _refuse("not_your_turn", f"It is {state.players[state.turn]}'s turn.")

    def _play(self, state: LoptiState, seat: int, action: Action) -> Result:
        """A play: the checks in the order of the refusals (the turn, the play's shape, the cards
        held, one rank, then section 5.2), and the play if it passes them. A play of the shape
        `legal_actions` lists (one rank, distinct cards, suit order: `COMBO`) needs no shape check."""
        if state.phase != PLAY or seat != state.turn:
            return self._turn_refusal(state)
        cards = action["cards"]
        known = COMBO.get(tuple(cards)) if type(cards) is list else None
        if known is None:
            if not cards:
                return _refuse("empty_play", "Play at least one card.")
            if len(set(cards)) != len(cards):
                return _refuse("duplicate_cards", "A card is named twice.")
        hand = state.hands[seat]
        for card in cards:
            if card not in hand:
                if not hand:
                    return _refuse("not_in_hand", "Your hand is empty: flip a face-down card (or take the pile).")
                return _refuse("not_in_hand", f"{card} is not in your hand.")
        if known is None:
            rank = VALUE[cards[0]]
            for card in cards:
                if VALUE[card] != rank:
                    return _refuse("mixed_ranks", "All the cards of a play must have the same rank.")
            cards = sort_cards(cards)
        else:
            rank = known[0]
            cards = cards[:]
        if state.obligation or state.pile:
            problem = _problem_now(state, rank, len(cards))
            if problem:
                return _refuse(*problem)
        events: list[Event] = []
        self._play_cards(state, seat, cards, events)
        return applied(state, events)

    @staticmethod
    def _play_cards(state: LoptiState, seat: int, cards: list[str], events: list[Event]) -> None:
        """Play `cards` from the hand (checked by the caller): every play, the timer's and a
        rollout's (`play_listed`)."""
        hand = state.hands[seat]
        for card in cards:
            hand.remove(card)
        if events is not UNHEARD:
            events.append(event("played", {"player": state.players[seat], "cards": cards, "extra": state.extra}))
        if state.hooks:
            burned = _land_with_rules(state, seat, cards, events)
        else:
            burned = turns.land_play(state, seat, cards, events)
        turns.after_play(state, seat, burned, events)

    def _flip(self, state: LoptiState, seat: int, action: Action) -> Result:
        refusal = self._turn_problem(state, seat)
        if refusal:
            return refusal
        if state.hands[seat]:
            return _refuse("hand_not_empty", "Play from your hand first; face-down cards come last.")
        if state.face_up[seat]:
            return _refuse("face_up_left", "Your face-up cards come before your face-down cards.")
        position = action["position"]
        row = state.face_down[seat]
        if not 0 <= position < len(row):
            return _refuse("bad_position", "Face-down positions are 0, 1 and 2.")
        if row[position] is None:
            unused = [index for index, card in enumerate(row) if card is not None]
            return _refuse("position_used", f"That card is already played; choose position {unused}.")
        events: list[Event] = []
        self._flip_card(state, seat, position, events)
        return applied(state, events)

    @staticmethod
    def _flip_card(state: LoptiState, seat: int, position: int, events: list[Event]) -> None:
        """L16.3-L16.6: reveal the card; resolve it if legal, else it joins the pile and the pile is taken."""
        card = state.face_down[seat][position]
        if card is None:  # the callers chose a position that holds a card
            raise ValueError(f"face-down position {position} is already played")
        state.face_down[seat][position] = None
        legal = _problem_now(state, VALUE[card], 1) is None
        player = state.players[seat]
        hooked = "flip" in state.hooks
        if hooked:
            context = {"rank": card[:-1], "legal": legal, "pile": len(state.pile)}
            house.fire(state, "before", "flip", seat, context, events)
        events.append(
            event(
                "flipped", {"player": player, "position": position, "card": card, "legal": legal, "extra": state.extra}
            )
        )
        if hooked:
            house.fire(state, "after", "flip", seat, context, events)
        if legal:
            if state.hooks:
                burned = _land_with_rules(state, seat, [card], events)
            else:
                burned = turns.land_play(state, seat, [card], events)
            turns.after_play(state, seat, burned, events)
        else:
            state.pile.append(card)
            turns.take_pile(state, seat, True, events)

    def _take(self, state: LoptiState, seat: int, action: Action) -> Result:
        if state.phase != PLAY or seat != state.turn:
            return self._turn_refusal(state)
        if not state.pile:
            return _refuse("empty_pile", "The table is empty: open with any one rank.")
        if not state.options["face_down_may_take"] and turns.in_face_down_phase(state, seat):
            return _refuse("must_flip", "At this table a face-down player must flip a card.")
        events: list[Event] = []
        turns.take_pile(state, seat, False, events)
        return applied(state, events)

    # ----- between rounds -----------------------------------------------------------------
    def _winner_problem(self, state: LoptiState, seat: int) -> Refused | None:
        if state.phase != AUTHORING:
            return _refuse("wrong_phase", "A rule is given by the round's winner after the round.")
        if seat != state.round_winner:
            return _refuse("not_round_winner", f"Only {state.players[state.winner_seat()]} may give this round's rule.")
        return None

    def _author_rule(self, state: LoptiState, seat: int, action: Action) -> Result:
        refusal = self._winner_problem(state, seat)
        if refusal:
            return refusal
        rule = action["rule"]
        problem = session.rule_problem(rule, state.options["house_rules"]) or session.removed_problem(state, rule)
        if problem:
            return _refuse(*problem)
        events: list[Event] = []
        session.add_rule(state, seat, rule, events)
        deal_round(state, state.round + 1, events)
        return applied(state, events)

    def _no_rule(self, state: LoptiState, seat: int, action: Action) -> Result:
        refusal = self._winner_problem(state, seat)
        if refusal:
            return refusal
        events = [event("no_rule", {"player": state.players[seat]})]
        deal_round(state, state.round + 1, events)
        return applied(state, events)

    def _delete_rule(self, state: LoptiState, seat: int, action: Action) -> Result:
        player = state.players[seat]
        problem = session.delete_problem(state, player, action["rule"])
        if problem:
            return _refuse(*problem)
        events: list[Event] = []
        session.delete_rule(state, player, action["rule"], events)
        meta.rule_deleted(state, action["rule"], events)
        return applied(state, events)

    # ----- the Rule Vote and the duel (out of turn: never in `to_act`) ---------------------
    def _propose(self, state: LoptiState, seat: int, action: Action) -> Result:
        change = action["change"]
        problem = meta.proposal_problem(state, change)
        if problem:
            return _refuse(*problem)
        events: list[Event] = []
        meta.propose(state, seat, change, action["starts"], events)
        return applied(state, events)

    def _vote(self, state: LoptiState, seat: int, action: Action) -> Result:
        if state.vote is None:
            return _refuse("no_vote", "No Rule Vote is open.")
        yes = action["yes"]
        if type(yes) is not bool:
            raise TypeError("'yes' must be a boolean")
        events: list[Event] = []
        meta.cast(state, seat, yes, events)
        return applied(state, events)

    def _withdraw_vote(self, state: LoptiState, seat: int, action: Action) -> Result:
        problem = meta.withdraw_problem(state, state.players[seat])
        if problem:
            return _refuse(*problem)
        events: list[Event] = []
        meta.withdraw(state, seat, events)
        return applied(state, events)

    def _champion(self, state: LoptiState, seat: int, action: Action) -> Result:
        player = state.players[seat]
        problem = meta.champion_problem(state, player)
        if problem:
            return _refuse(*problem)
        events: list[Event] = []
        meta.champion(state, player, events)
        return applied(state, events)

    def _throw(self, state: LoptiState, seat: int, action: Action) -> Result:
        player = state.players[seat]
        sign = action["sign"]
        if sign not in SIGNS:
            raise ValueError("'sign' must be rock, paper or scissors")
        problem = meta.throw_problem(state, player)
        if problem:
            return _refuse(*problem)
        events: list[Event] = []
        meta.throw(state, player, sign, events)
        return applied(state, events)

    # ----- the turn timer -----------------------------------------------------------------
    def _timeout(self, state: LoptiState) -> Result:
        events: list[Event] = []
        players = state.players
        if state.phase == SETUP:
            waiting = [seat for seat, ready in enumerate(state.ready) if not ready]
            events.append(event("timed_out", {"players": [players[seat] for seat in waiting], "phase": SETUP}))
            for seat in waiting:
                events.append(event("ready", {"player": players[seat]}))
            self._make_ready(state, waiting, events)
        elif state.phase == AUTHORING:
            seat = state.winner_seat()
            events.append(event("timed_out", {"players": [players[seat]], "phase": AUTHORING}))
            events.append(event("no_rule", {"player": players[seat]}))
            deal_round(state, state.round + 1, events)
        else:
            seat = state.turn
            events.append(event("timed_out", {"players": [players[seat]], "phase": PLAY}))
            face_down = turns.in_face_down_phase(state, seat)
            if state.pile and not (face_down and not state.options["face_down_may_take"]):
                turns.take_pile(state, seat, False, events)
            elif state.hands[seat]:
                self._play_cards(state, seat, [lowest_card(state.hands[seat])], events)
            else:
                position = next(index for index, card in enumerate(state.face_down[seat]) if card is not None)
                self._flip_card(state, seat, position, events)
        return applied(state, events)

    _handlers = {
        "swap": _swap,
        "ready": _ready,
        "play": _play,
        "flip": _flip,
        "take": _take,
        "author_rule": _author_rule,
        "no_rule": _no_rule,
        "delete_rule": _delete_rule,
        "propose": _propose,
        "vote": _vote,
        "withdraw_vote": _withdraw_vote,
        "champion": _champion,
        "throw": _throw,
    }

    # ----- what may be seen ---------------------------------------------------------------
    def view(self, state: LoptiState, player: str | None) -> dict[str, Any]:
        return player_view(state, player, self.to_act(state))

    def replay_hands(self, state: LoptiState) -> dict[str, Any]:
        return replay_hands(state)

    # ----- outcome ------------------------------------------------------------------------
    def scores(self, state: LoptiState) -> dict[str, int]:
        return dict(zip(state.players, state.wins))

    def is_finished(self, state: LoptiState) -> bool:
        return False

    def winners(self, state: LoptiState) -> list[str]:
        return []

    def round_number(self, state: LoptiState) -> int:
        return state.round

    def with_computers(self, state: LoptiState, computers: Sequence[str]) -> LoptiState:
        changed = state.copy()
        changed.computers = [name for name in state.players if name in computers]
        return changed

    def decision_seconds(self, state: LoptiState, default: float) -> float:
        """LOP-A23: writing a house rule has its own timer, the option `authoring_timeout_s`."""
        return state.options["authoring_timeout_s"] if state.phase == AUTHORING else default

    # ----- persistence --------------------------------------------------------------------
    def dump(self, state: LoptiState) -> dict[str, Any]:
        return state.to_dict()

    def load(self, data: Mapping[str, Any]) -> LoptiState:
        return LoptiState.from_dict(data)
