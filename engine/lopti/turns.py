"""A Lopti turn (LOP-A11): the opening play or take, burns, the draw step, the face-up pick-up,
extra plays after burns, going out and the end of a round.

Every function changes the state it is given in place (the state `advance` owns, or the copy
`apply` made) and appends the events it causes. What may be changed in place is fixed by
`LoptiState.clone`: the acting seat's rows, `pile` and `chain`; every other list is replaced,
never changed, because a copy shares it with the state it was made from.
"""

from __future__ import annotations

from engine.core.protocol import Event
from engine.lopti.events import event
from engine.lopti.rules import SEVEN, TEN, THREE, VALUE
from engine.lopti.state import AUTHORING, PLAY, LoptiState


def next_active(state: LoptiState, seat: int) -> int:
    """The next seat clockwise that is not out (LOP-A10)."""
    out = state.out
    seats = len(state.players)
    candidate = seat + 1
    if candidate == seats:
        candidate = 0
    if out:
        while candidate in out:
            candidate += 1
            if candidate == seats:
                candidate = 0
    return candidate


def is_out(state: LoptiState, seat: int) -> bool:
    if state.hands[seat] or state.face_up[seat]:
        return False
    for card in state.face_down[seat]:
        if card is not None:
            return False
    return True


def in_face_down_phase(state: LoptiState, seat: int) -> bool:
    return not state.hands[seat] and not state.face_up[seat]


def _clear_chain(state: LoptiState) -> None:
    if state.chain:
        state.burned = state.burned + state.chain
        state.chain = []


def _burn(state: LoptiState, seat: int, cause: str, extra_cards: list[str], events: list[Event]) -> None:
    """LOP-A21: the pile (and the 10s / 3s involved) leaves the round; pending effects end."""
    removed = state.pile + state.chain + extra_cards
    state.burned = state.burned + removed
    state.pile = []
    state.chain = []
    state.obligation = False
    state.last_play = 0
    state.run = 0
    events.append(event("burned", {"player": state.players[seat], "cause": cause, "cards": removed}))


def land_play(state: LoptiState, seat: int, cards: list[str], events: list[Event]) -> bool:
    """Put a legal play on the table and resolve it; return whether it burned the pile."""
    rank = VALUE[cards[0]]
    if rank == THREE:
        chain = state.chain
        chain.extend(cards)
        if len(chain) >= 4:
            _burn(state, seat, "threes", [], events)
            return True
        if state.pile:
            state.obligation = True
            players = state.players
            receiver = next_active(state, seat)
            events.append(event("obligation_passed", {"player": players[seat], "to": players[receiver]}))
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
        _burn(state, seat, "sevens" if rank == SEVEN else "four", [], events)
        return True
    return False


def take_pile(state: LoptiState, seat: int, forced: bool, events: list[Event]) -> None:
    """L4.1-L4.2, L14.5: the pile goes into the hand and the turn ends; the next player opens."""
    taken = state.pile
    state.hands[seat].extend(taken)
    state.pile = []
    if state.chain:
        _clear_chain(state)
    state.obligation = False
    state.last_play = 0
    state.run = 0
    events.append(event("took", {"player": state.players[seat], "cards": taken, "forced": forced}))
    state.turn = next_active(state, seat)
    state.extra = False


def after_play(state: LoptiState, seat: int, burned: bool, events: list[Event]) -> None:
    """Steps 3-6 of LOP-A11 after a legal play has landed."""
    players = state.players
    hand = state.hands[seat]
    if not hand and is_out(state, seat):
        out = state.out = state.out + [seat]
        events.append(event("out", {"player": players[seat], "place": len(out)}))
        if len(out) == 1:
            state.round_winner = seat
        active = len(players) - len(out)
        if len(out) == 1 and not state.options["play_for_places"] or active <= 1:
            end_round(state, events)
            return
        state.turn = next_active(state, seat)
        state.extra = False
        return
    if len(hand) < 3 and not state.extra and state.stock:
        stock = state.stock
        wanted = 3 - len(hand) if state.options["draw_up_to_three"] else 1
        drawn = stock[:wanted]
        state.stock = stock[wanted:]
        hand.extend(drawn)
        player = players[seat]
        events.append(event("drew", {"player": player, "count": len(drawn)}, {player: {"cards": drawn}}))
    if not hand and state.face_up[seat]:
        picked = state.face_up[seat]
        state.face_up[seat] = []
        hand.extend(picked)
        events.append(event("face_up_taken", {"player": players[seat], "cards": picked}))
    if burned:
        state.turn = seat
        state.extra = True
        events.append(event("extra_play", {"player": players[seat]}))
    else:
        if state.out:
            state.turn = next_active(state, seat)
        else:
            state.turn = seat + 1 if seat + 1 < len(players) else 0
        state.extra = False


def end_round(state: LoptiState, events: list[Event]) -> None:
    """The round is over: count the win; the winner may author a rule before the next deal."""
    from engine.lopti.dealing import deal_round

    winner = state.round_winner
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
