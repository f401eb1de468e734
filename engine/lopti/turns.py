"""A Lopti turn (LOP-A11): the opening play or take, burns, the draw step, the face-up pick-up,
extra plays after burns, going out and the end of a round.

Every function changes the state it is given in place (the state `advance` owns, or the copy
`apply` made) and appends the events it causes. What may be changed in place is fixed by
`LoptiState.copy`: the seats' rows, `pile` and `chain`; every other list is replaced, never
changed, because a copy shares it with the state it was made from.
"""

from __future__ import annotations

from engine.core.fast import UNHEARD, event
from engine.core.protocol import Event
from engine.lopti.dealing import deal_round
from engine.lopti.house import fire
from engine.lopti.rules import SEVEN, TEN, THREE, VALUE
from engine.lopti.state import AUTHORING, PLAY, LoptiState
from engine.lopti.table import burn_pile, is_out, next_active


def next_turn(state: LoptiState, seat: int, events: list[Event] | None = None) -> int:
    """Who plays after `seat`: the next active player, passing over (and, with `events`, using
    up) house-rule skips; a skipped player misses that turn (event `skipped`)."""
    candidate = next_active(state, seat)
    if not state.skips:
        return candidate
    skips = list(state.skips)
    while candidate in skips:
        skips.remove(candidate)
        if events is not None:
            events.append(event("skipped", {"player": state.players[candidate]}))
        candidate = next_active(state, candidate)
    if events is not None:
        state.skips = skips
    return candidate


def pass_turn(state: LoptiState, seat: int, events: list[Event]) -> None:
    """The turn passes from `seat` to `next_turn`'s player (using up house-rule skips), whose
    turn starts (`turn_start` house rules)."""
    # Without pending skips `next_turn` is `next_active`, called directly: nearly every turn ends here.
    state.turn = turn = next_turn(state, seat, events) if state.skips else next_active(state, seat)
    state.extra = False
    if state.hooks:
        turn_started(state, turn, events)


def turn_started(state: LoptiState, seat: int, events: list[Event]) -> None:
    if "turn_start" in state.hooks:
        context = {"pile": len(state.pile)}
        fire(state, "before", "turn_start", seat, context, events)
        fire(state, "after", "turn_start", seat, context, events)


def in_face_down_phase(state: LoptiState, seat: int) -> bool:
    return not state.hands[seat] and not state.face_up[seat]


def _clear_chain(state: LoptiState) -> None:
    if state.chain:
        state.burned = state.burned + state.chain
        state.chain = []


def _burn(
    state: LoptiState,
    seat: int,
    cause: str,
    extra_cards: list[str],
    events: list[Event],
    played: list[str] | None = None,
) -> None:
    """LOP-A21: the pile (and the 10s / 3s involved) leaves the round; pending effects end.
    House rules on `burn` resolve before / after it (`played`: the play that caused it)."""
    if state.hooks and "burn" in state.hooks:
        cards = played or extra_cards
        context = {
            "cause": cause,
            "pile": len(state.pile),
            "count": len(cards),
            "rank": cards[0][:-1] if cards else None,
        }
        fire(state, "before", "burn", seat, context, events)
        context["burned"] = burn_pile(state, seat, cause, extra_cards, events)
        fire(state, "after", "burn", seat, context, events)
        return
    burn_pile(state, seat, cause, extra_cards, events)


def land_play(state: LoptiState, seat: int, cards: list[str], events: list[Event]) -> bool:
    """Put a legal play on the table and resolve it; return whether it burned the pile."""
    rank = VALUE[cards[0]]
    if rank == THREE:
        chain = state.chain
        chain.extend(cards)
        if len(chain) >= 4:
            _burn(state, seat, "threes", [], events, cards)
            return True
        if state.pile:
            state.obligation = True
            players = state.players
            hooked = state.hooks and "obligation_passed" in state.hooks
            if hooked:
                context = {"count": len(cards), "pile": len(state.pile)}
                fire(state, "before", "obligation_passed", seat, context, events)
            receiver = next_turn(state, seat)
            events.append(event("obligation_passed", {"player": players[seat], "to": players[receiver]}))
            if hooked:
                fire(state, "after", "obligation_passed", seat, context, events)
        else:
            state.obligation = False
        return False
    if state.chain:
        _clear_chain(state)
    state.obligation = False
    if rank == TEN:
        _burn(state, seat, "ten", list(cards), events)
        return True
    count = len(cards)
    pile = state.pile
    if pile and VALUE[pile[-1]] == rank:
        run = state.run + count
    else:
        run = count
    state.run = run
    pile.extend(cards)
    state.last_play = count
    if run >= 4:
        _burn(state, seat, "sevens" if rank == SEVEN else "four", [], events, cards)
        return True
    return False


def take_pile(state: LoptiState, seat: int, forced: bool, events: list[Event]) -> None:
    """L4.1-L4.2, L14.5: the pile goes into the hand and the turn ends; the next player opens."""
    hooked = state.hooks and "take" in state.hooks
    if hooked:
        context = {"pile": len(state.pile)}
        fire(state, "before", "take", seat, context, events)
    taken = state.pile
    state.hands[seat].extend(taken)
    state.pile = []
    if state.chain:
        _clear_chain(state)
    state.obligation = False
    state.last_play = 0
    state.run = 0
    events.append(event("took", {"player": state.players[seat], "cards": taken, "forced": forced}))
    if hooked:
        fire(state, "after", "take", seat, context, events)
    pass_turn(state, seat, events)


def after_play(state: LoptiState, seat: int, burned: bool, events: list[Event]) -> None:
    """Steps 3-6 of LOP-A11 after a legal play has landed, with the house rules on `out` and
    `face_up_taken` around their base events."""
    players = state.players
    hooks = state.hooks
    if not state.hands[seat] and is_out(state, seat):
        if hooks:
            fire(state, "before", "out", seat, {}, events)
        out = state.out = state.out + [seat]
        events.append(event("out", {"player": players[seat], "place": len(out)}))
        if hooks:
            fire(state, "after", "out", seat, {}, events)
        if _round_over(state, seat, events):
            return
        pass_turn(state, seat, events)
        return
    hand = state.hands[seat]
    if len(hand) < 3 and not state.extra and state.stock:
        _draw_step(state, seat, hand, events)
    if not state.hands[seat] and state.face_up[seat]:
        hooked = "face_up_taken" in hooks
        if hooked:
            fire(state, "before", "face_up_taken", seat, {}, events)
        picked = state.face_up[seat]
        state.face_up[seat] = []
        state.hands[seat].extend(picked)  # a house rule may have given the seat a new hand list
        events.append(event("face_up_taken", {"player": players[seat], "cards": picked}))
        if hooked:
            fire(state, "after", "face_up_taken", seat, {}, events)
    if burned:
        state.turn = seat
        state.extra = True
        events.append(event("extra_play", {"player": players[seat]}))
    else:
        pass_turn(state, seat, events)


def _draw_step(state: LoptiState, seat: int, hand: list[str], events: list[Event]) -> None:
    stock = state.stock
    wanted = 3 - len(hand) if state.options["draw_up_to_three"] else 1
    drawn = stock[:wanted]
    state.stock = stock[wanted:]
    hand.extend(drawn)
    if events is not UNHEARD:
        player = state.players[seat]
        events.append(event("drew", {"player": player, "count": len(drawn)}, {player: {"cards": drawn}}))


def _round_over(state: LoptiState, seat: int, events: list[Event]) -> bool:
    out = state.out
    if len(out) == 1:
        state.round_winner = seat
    active = len(state.players) - len(out)
    if len(out) == 1 and not state.options["play_for_places"] or active <= 1:
        end_round(state, events)
        return True
    return False


def end_round(state: LoptiState, events: list[Event]) -> None:
    """The round is over: count the win; the winner may author a rule before the next deal."""
    winner = state.winner_seat()
    wins = list(state.wins)
    wins[winner] += 1
    state.wins = wins
    players = state.players
    events.append(
        event(
            "round_won",
            {
                "player": players[winner],
                "round": state.round,
                "places": [players[seat] for seat in state.out],
                "scores": {players[seat]: wins[seat] for seat in range(len(players))},
                # Whether the winner now writes a house rule (not at a table without them).
                "writes_rule": state.options["house_rules"] != "off",
            },
        )
    )
    state.extra = False
    state.obligation = False
    if state.options["house_rules"] == "off":
        deal_round(state, state.round + 1, events)
    else:
        state.phase = AUTHORING
        state.turn = winner


def start_play(state: LoptiState, events: list[Event]) -> None:
    """Everyone is ready: the starting player (LOP-A19) opens on an empty table."""
    state.phase = PLAY
    state.turn = state.starter
    state.extra = False
    events.append(event("play_started", {"player": state.players[state.starter]}))
    if state.hooks:
        turn_started(state, state.starter, events)
