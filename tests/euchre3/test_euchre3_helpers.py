"""Helpers for the Euchre-3 tests: explicit decks that give chosen cards to chosen seats, and
short-hands to act and to check refusals. The tests at the bottom check the helpers themselves."""

from __future__ import annotations

import copy

from engine.core.protocol import Applied, Refused
from engine.euchre3 import GAME
from engine.euchre3.ranking import DECKS

PLAYERS = ("amina", "baraka", "chausiku")
A, B, C = PLAYERS  # with amina dealing: baraka is left ("order up"), chausiku opposite ("assist")


def build_deck(
    dealer: str = A,
    hands: dict[str, list[str]] | None = None,
    dummy: list[str] | None = None,
    up: str | None = None,
    kitty: list[str] | None = None,
    size: int = 24,
) -> list[str]:
    """A deck that deals `hands[player]`, `dummy`, the up-card `up` and then `kitty` (top first).

    Unnamed places are filled with the remaining cards in canonical order. Dealing follows
    docs/REPLAY.md: one card at a time from the dealer's left, the dummy a seat at the dealer's right.
    """
    hands = {player: list(cards) for player, cards in (hands or {}).items()}
    seat = PLAYERS.index(dealer)
    order = [PLAYERS[(seat + 1) % 3], PLAYERS[(seat + 2) % 3], "dummy", dealer]
    wanted = {place: list(hands.get(place, [])) for place in order}
    wanted["dummy"] = list(dummy or [])
    rest_wanted = ([up] if up else []) + list(kitty or [])
    named = [card for cards in wanted.values() for card in cards] + rest_wanted
    assert len(named) == len(set(named)), "a card is named twice"
    spare = [card for card in DECKS[size] if card not in named]
    for place in order:
        assert len(wanted[place]) <= 5
        while len(wanted[place]) < 5:
            wanted[place].append(spare.pop(0))
    deck = [wanted[order[index % 4]][index // 4] for index in range(20)]
    if up is None:
        rest = spare
    else:
        rest = [up] + list(kitty or []) + spare
    deck += rest
    assert sorted(deck) == sorted(DECKS[size]), "not a permutation of the deck"
    return deck


def new_game(*decks: list[str], dealer: str = A, seed: int = 0, **options):
    return GAME.new(PLAYERS, GAME.Options(**options), seed, dealer, list(decks))


def act(state, player: str, action: dict):
    """Apply an action that must be accepted; return (new state, events)."""
    result = GAME.apply(state, player, action)
    assert isinstance(result, Applied), (
        f"{player} {action} refused: {getattr(result, 'code', '')} {getattr(result, 'message', '')}"
    )
    return result.state, result.events


def step(state, player: str, action: dict):
    return act(state, player, action)[0]


def refused(state, player: str, action: dict) -> str:
    """Apply an action that must be refused; check the state is untouched; return the code."""
    before = copy.deepcopy(GAME.dump(state))
    result = GAME.apply(state, player, action)
    assert isinstance(result, Refused), f"{player} {action} was accepted"
    assert GAME.dump(state) == before
    assert result.message
    return result.code


def kinds(events) -> list[str]:
    return [event.kind for event in events]


def event(events, kind: str):
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind} event in {kinds(events)}"
    return found[0]


def baraka_makes_hearts_with_own_hand(state, dealer_action=None):
    """Round-1 order-up by baraka (amina dealing), dealer leaves, baraka merges the dummy but
    keeps his own five, both defenders pass: ready for the first lead."""
    state = step(state, B, {"type": "accept"})
    state = step(state, A, dealer_action or {"type": "leave"})
    state = step(state, B, {"type": "with_dummy"})
    state = step(state, B, {"type": "keep", "cards": list(state.hands[1])})
    state = step(state, C, {"type": "pass"})
    state = step(state, A, {"type": "pass"})
    assert state.phase == "play"
    return state


def play_out_hand(state):
    """Play the first legal card for whoever is to act until the hand is over; return
    (state, all events)."""
    events = []
    round_number = state.round
    while state.phase == "play" and state.round == round_number:
        player = GAME.to_act(state)[0]
        state, new_events = act(state, player, GAME.legal_actions(state, player)[0])
        events.extend(new_events)
    return state, events


def with_scores(state, scores):
    data = GAME.dump(state)
    data["scores"] = list(scores)
    return GAME.load(data)


# ----- the helpers' own tests -----------------------------------------------------------------
def test_build_deck_gives_each_place_its_cards():
    deck = build_deck(dealer=B, hands={A: ["JH", "JD"], C: ["9S"]}, dummy=["AC"], up="QD", kitty=["9H"])
    state = new_game(deck, dealer=B)
    assert {"JH", "JD"} <= set(state.hands[0])
    assert "9S" in state.hands[2]
    assert "AC" in state.dummy
    assert state.up_card == "QD" and state.kitty[:2] == ("QD", "9H")


def test_build_deck_fills_32_card_decks():
    deck = build_deck(hands={B: ["7H", "8H"]}, up="7S", size=32)
    state = new_game(deck, deck=32)
    assert {"7H", "8H"} <= set(state.hands[1]) and len(state.kitty) == 12
