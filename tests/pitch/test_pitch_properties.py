"""Random-play properties of the Pitch engine (hypothesis over seeds, seat counts and option sets).

The players bid cautiously (a pass more often than not, as real players do): under uniformly
random bids nearly every hand's pitcher is set back, totals drift downwards and, true to the
rules, nobody ever reaches the target. Card play is uniformly random among the legal cards,
and the turn timer fires now and then.

The rules do not promise that a match ends: only the pitcher may win at the target (PIT-A11),
and random bidders can be set back for ever (six players, target 21, say). What they promise is
that every hand ends, after one round of bidding and six tricks, and that each hand's scores and
the match's end follow from its tricks; so matches are played for at most MAX_HANDS hands.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import RANK_VALUE
from engine.core.protocol import CLOCK, Applied, Refused
from engine.pitch import GAME, PitchOptions
from engine.pitch.cards import DECK

# P19: the trick points of each rank (others count 0).
TRICK_POINTS = {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}
NAMES = ["amina", "baraka", "chausiku", "dudu", "eshe", "faraji", "gasira"]
MAX_HANDS = 30


@st.composite
def tables(draw):
    partnerships = draw(st.booleans())
    seats = 4 if partnerships else draw(st.integers(2, 7))
    options = PitchOptions(
        target=draw(st.sampled_from([7, 11, 15, 21])),
        low_to=draw(st.sampled_from(["capturer", "dealt"])),
        win_condition=draw(st.sampled_from(["pitcher_at_target", "pitcher_made_bid", "anyone"])),
        min_bid=draw(st.sampled_from([1, 2])),
        smudge=draw(st.booleans()),
        dealer_steal=draw(st.booleans()),
        partnerships=partnerships,
    )
    seed = draw(st.integers(0, 10**9) | st.text(max_size=8))
    dealer = draw(st.none() | st.sampled_from(NAMES[:seats]))
    return NAMES[:seats], options, seed, dealer


def choose(state, rng: random.Random):
    """A cautious random player, with an occasional timeout."""
    [player] = GAME.to_act(state)
    actions = GAME.legal_actions(state, player)
    if rng.random() < 0.05:
        return CLOCK, {"type": "timeout"}
    if actions[0]["type"] == "pass" and rng.random() < 0.6:
        return player, actions[0]
    if actions[0]["type"] in ("pass", "bid"):
        bids = [a for a in actions if a["type"] == "bid"]
        return player, bids[0] if rng.random() < 0.7 else rng.choice(bids)
    return player, rng.choice(actions)


def card_places(state) -> Counter:
    places = Counter(state.stock) + Counter(state.trick)
    for hand in state.hands:
        places.update(hand)
    for cards in state.won:
        places.update(cards)
    return places


def illegal_actions(state, player):
    legal = GAME.legal_actions(state, player)
    tries = [{"type": "play", "card": card} for card in DECK if {"type": "play", "card": card} not in legal]
    tries += [{"type": "bid", "value": v} for v in range(0, 7) if {"type": "bid", "value": v} not in legal]
    if {"type": "pass"} not in legal:
        tries.append({"type": "pass"})
    others = [p for p in state.players if p != player]
    return [(player, action) for action in tries] + [(others[0], legal[0])]


def hand_bound(seats: int) -> int:
    """The most actions one hand takes: each seat bids or passes at most once, then six tricks.
    (A timeout stands for the decision it makes.)"""
    return seats + 6 * seats


def play_match(players, options, seed, dealer, rng, check_each_step, max_hands=MAX_HANDS):
    """Play until the match ends or `max_hands` hands are over; every hand must end within
    `hand_bound` actions. Returns the last state and the actions applied."""
    state = GAME.new(players, options, seed, dealer)
    actions = []
    in_hand = 0
    while not GAME.is_finished(state) and state.hand_number <= max_hands:
        check_each_step(state)
        player, action = choose(state, rng)
        result = GAME.apply(state, player, action)
        assert isinstance(result, Applied), (action, result)
        actions.append((player, action))
        in_hand += 1
        assert in_hand <= hand_bound(len(players)), "a hand did not end within its bound"
        if result.state.hand_number != state.hand_number:
            in_hand = 0
        state = result.state
    check_each_step(state)
    return state, actions


@settings(deadline=None, max_examples=10)
@given(tables(), st.randoms(use_true_random=False))
def test_every_card_is_in_exactly_one_place_and_every_hand_ends(table, rng):
    players, options, seed, dealer = table

    def check(state):
        assert card_places(state) == Counter(DECK)
        in_trick = _played_this_trick(state)
        for seat, hand in enumerate(state.hands):
            assert len(hand) == 6 - state.tricks_played - (seat in in_trick)

    state, _ = play_match(players, options, seed, dealer, rng, check)
    if GAME.is_finished(state):
        assert GAME.winners(state) and GAME.to_act(state) == []
    else:
        assert state.hand_number == MAX_HANDS + 1 and GAME.to_act(state)


@settings(deadline=None, max_examples=12)
@given(tables(), st.randoms(use_true_random=False))
def test_each_hand_scores_as_the_rules_say_and_the_match_ends_exactly_when_they_say(table, rng):
    """P15-P24, PIT-A1 to PIT-A4, PIT-A9, PIT-A10, and P27/PIT-A11 with section 8's options, worked
    out from the cards dealt and the tricks won: High and Low (the highest and lowest trump in
    play) always score, Jack when it is in play, Game unless tied; the pitching side adds its
    points if it made the bid (a smudge: all six tricks) and loses the bid otherwise, the others
    add theirs; the match ends after a hand exactly when the win condition holds."""
    players, options, seed, dealer = table
    team = {player: seat % 2 if options.partnerships else seat for seat, player in enumerate(players)}
    teams = sorted(set(team.values()))
    totals = dict.fromkeys(teams, 0)
    state = GAME.new(players, options, seed, dealer)
    dealt = {player: GAME.view(state, player)["hand"] for player in players}
    captured = {player: [] for player in players}
    while not GAME.is_finished(state) and state.hand_number <= MAX_HANDS:
        player, action = choose(state, rng)
        result = GAME.apply(state, player, action)
        state = result.state
        kinds = [event.kind for event in result.events]
        for event in result.events:
            if event.kind == "trick_won":
                captured[event.public["player"]] += [play["card"] for play in event.public["plays"]]
        if "hand_scored" not in kinds:
            assert "match_won" not in kinds and not GAME.is_finished(state)
            continue
        hand = next(event.public for event in result.events if event.kind == "hand_scored")
        trump, pitching, bid = hand["trump"], team[hand["pitcher"]], hand["bid"]
        capturer = {card: taker for taker, cards in captured.items() for card in cards}
        holder = {card: player for player, cards in dealt.items() for card in cards}
        trumps = sorted((card for card in holder if card[-1] == trump), key=lambda card: RANK_VALUE[card[:-1]])
        high, low, jack = trumps[-1], trumps[0], "J" + trump
        assert hand["high"] == {"card": high, "by": capturer[high]}
        assert hand["low"] == {"card": low, "by": holder[low] if options.low_to == "dealt" else capturer[low]}
        assert hand["jack"] == ({"card": jack, "by": capturer[jack]} if jack in holder else None)
        points = dict.fromkeys(teams, 0)
        points[team[hand["high"]["by"]]] += 1
        points[team[hand["low"]["by"]]] += 1
        if hand["jack"] is not None:
            points[team[capturer[jack]]] += 1
        trick_points = dict.fromkeys(teams, 0)
        for taker, cards in captured.items():
            trick_points[team[taker]] += sum(TRICK_POINTS.get(card[:-1], 0) for card in cards)
        best = [t for t in teams if trick_points[t] == max(trick_points.values())]
        if len(best) == 1:
            points[best[0]] += 1
        assert hand["game"]["by"] == ([p for p in players if team[p] == best[0]] if len(best) == 1 else [])
        tricks = sum(hand["tricks"][p] for p in players if team[p] == pitching)
        made = tricks == 6 if hand["smudge"] else points[pitching] >= bid
        assert hand["made"] is made and hand["smudge"] == (bid == 5)
        change = {t: points[t] if t != pitching or made else -bid for t in teams}
        for t in teams:
            totals[t] += change[t]
        for p in players:
            assert (hand["points"][p], hand["change"][p], hand["scores"][p]) == (
                points[team[p]],
                change[team[p]],
                totals[team[p]],
            )
        target = options.target
        if hand["smudge"] and made:
            winning = [pitching]
        elif options.win_condition == "pitcher_made_bid":
            winning = [pitching] if made and totals[pitching] >= target else []
        elif totals[pitching] >= target:
            winning = [pitching]
        elif options.win_condition == "anyone" and max(totals.values()) >= target:
            winning = [t for t in teams if totals[t] == max(totals.values())]
        else:
            winning = []
        assert GAME.is_finished(state) == bool(winning) == ("match_won" in kinds)
        assert GAME.winners(state) == [p for p in players if team[p] in winning]
        assert GAME.scores(state) == {p: totals[team[p]] for p in players}
        if not winning:
            assert kinds[-1] == "dealt"
            dealt = {player: GAME.view(state, player)["hand"] for player in players}
            captured = {player: [] for player in players}


def _played_this_trick(state):
    seats = len(state.players)
    return {(state.leader + i) % seats for i in range(len(state.trick))}


@settings(deadline=None, max_examples=4)
@given(tables(), st.randoms(use_true_random=False))
def test_every_offered_action_is_accepted_and_refused_ones_change_nothing(table, rng):
    players, options, seed, dealer = table

    def check(state):
        if GAME.is_finished(state):
            assert GAME.legal_actions(state, players[0]) == []
            return
        before = GAME.dump(state)
        [player] = GAME.to_act(state)
        for action in GAME.legal_actions(state, player):
            assert isinstance(GAME.apply(state, player, action), Applied), action
        for who, action in rng.sample(illegal_actions(state, player), 6):
            assert isinstance(GAME.apply(state, who, action), Refused), (who, action)
        assert GAME.dump(state) == before

    play_match(players, options, seed, dealer, rng, check)


@settings(deadline=None, max_examples=8)
@given(tables(), st.randoms(use_true_random=False))
def test_replaying_the_recorded_actions_reproduces_the_match(table, rng):
    players, options, seed, dealer = table
    final, actions = play_match(players, options, seed, dealer, rng, lambda state: None)
    state = GAME.new(players, options, seed, dealer)
    for player, action in actions:
        state = GAME.apply(state, player, action).state
    assert GAME.dump(state) == GAME.dump(final)
    assert GAME.winners(state) == GAME.winners(final) and GAME.scores(state) == GAME.scores(final)


@settings(deadline=None, max_examples=8)
@given(tables(), st.randoms(use_true_random=False))
def test_state_survives_a_json_round_trip(table, rng):
    players, options, seed, dealer = table
    check_rng = random.Random(rng.random())

    def check(state):
        if check_rng.random() > 0.2:
            return
        copy = GAME.load(json.loads(json.dumps(GAME.dump(state))))
        assert copy == state
        assert GAME.view(copy, None) == GAME.view(state, None)
        if GAME.is_finished(state):
            return
        [player] = GAME.to_act(state)
        assert GAME.legal_actions(copy, player) == GAME.legal_actions(state, player)
        action = check_rng.choice(GAME.legal_actions(state, player))
        one, two = GAME.apply(state, player, action), GAME.apply(copy, player, action)
        assert GAME.dump(one.state) == GAME.dump(two.state)
        assert [e.to_json() for e in one.events] == [e.to_json() for e in two.events]

    play_match(players, options, seed, dealer, rng, check)


def test_uniformly_random_bids_never_break_the_engine():
    """Uniformly random legal actions (the core playout's policy) for a long stretch: always legal, cards conserved."""
    from engine.core.playout import random_steps

    for seed in range(6):
        state = GAME.new(NAMES[: 2 + seed], PitchOptions(), seed)
        for step in random_steps(GAME, state, random.Random(seed), max_steps=10**9):
            assert card_places(step.state) == Counter(DECK)
            if step.state.hand_number > 15:
                break
        assert step.state.hand_number > 15 or GAME.is_finished(step.state)
