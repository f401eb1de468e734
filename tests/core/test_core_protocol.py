"""Seeds, options, action shapes and events: the parts of the protocol every game shares."""

import pytest
from pydantic import Field

from engine.core.options import OptionsError, OptionsModel, parse_options
from engine.core.protocol import CLOCK, Event, MalformedAction
from engine.core.rng import rng_for, shuffled
from engine.core.shapes import check_action


class DemoOptions(OptionsModel):
    hand_size: int = Field(7, ge=5, le=8)
    elimination: bool = False


def test_the_same_seed_and_label_always_shuffle_alike():
    cards = list(range(52))
    assert shuffled(cards, 7, "deal", 1) == shuffled(cards, 7, "deal", 1)
    assert shuffled(cards, 7, "deal", 1) != shuffled(cards, 7, "deal", 2)
    assert shuffled(cards, 7, "deal", 1) != shuffled(cards, 8, "deal", 1)
    assert rng_for(3, "dealer").random() == rng_for(3, "dealer").random()


def test_options_take_defaults_and_refuse_an_unknown_name():
    assert parse_options(DemoOptions, {}).hand_size == 7
    with pytest.raises(OptionsError, match="hand_sise") as caught:
        parse_options(DemoOptions, {"hand_sise": 6})
    assert caught.value.option == "hand_sise"


def test_options_refuse_a_bad_value_naming_the_option():
    with pytest.raises(OptionsError, match="hand_size"):
        parse_options(DemoOptions, {"hand_size": 9})
    with pytest.raises(OptionsError, match="elimination"):
        parse_options(DemoOptions, {"elimination": "yes"})


FIELDS = {"play": {"cards": "cards", "call": "?bool"}, "accuse": {"target": "player"}, "draw": {}}


def test_actions_are_checked_for_shape_and_card_codes_canonicalised():
    assert check_action(FIELDS, "amina", {"type": "play", "cards": ["7h"]}, ["amina"]) == {
        "type": "play",
        "cards": ["7H"],
    }


@pytest.mark.parametrize(
    ("player", "action"),
    [
        ("zawadi", {"type": "draw"}),
        ("amina", {"type": "fly"}),
        ("amina", {"type": "play"}),
        ("amina", {"type": "play", "cards": ["7Z"]}),
        ("amina", {"type": "play", "cards": "7H"}),
        ("amina", {"type": "play", "cards": ["7H"], "call": 1}),
        ("amina", {"type": "draw", "extra": 1}),
        ("amina", {"type": "accuse", "target": "zawadi"}),
        (CLOCK, {"type": "draw"}),
        ("amina", ["draw"]),
    ],
)
def test_malformed_actions_are_named(player, action):
    with pytest.raises(MalformedAction):
        check_action(FIELDS, player, action, ["amina", "baraka"])


def test_an_event_shows_private_fields_only_to_their_owner():
    event = Event("drew", {"player": "amina", "count": 1}, {"amina": {"cards": ["7H"]}})
    assert event.view("amina")["cards"] == ["7H"]
    assert "cards" not in event.view("baraka")
    assert "cards" not in event.view(None)
    assert Event.from_json(event.to_json()) == event


@pytest.mark.parametrize("name", ["lopti", "pitch", "euchre3", "three_thirteen"])
def test_a_game_is_dealt_an_explicit_deck_only_when_it_holds_exactly_its_cards(name):
    from engine.registry import get_game

    game = get_game(name)
    players = ["amina", "baraka", "chausiku"]
    options = parse_options(game.Options, {})
    deck = game.deck(options, players)
    game.new(players, options, 1, decks=[list(reversed(deck))])  # any order of the right cards
    swapped = [deck[0], *deck[:-1]]  # one card twice, one missing
    with pytest.raises(ValueError, match=f"deck 2 does not hold exactly the cards of {name}"):
        game.new(players, options, 1, decks=[deck, swapped])
    with pytest.raises(ValueError, match="deck 1"):
        game.new(players, options, 1, decks=[deck[1:]])
