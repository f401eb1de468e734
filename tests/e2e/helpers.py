"""What a player sees, read back from the fake Bot API, and the engine truth to compare it with."""

from __future__ import annotations

import json
import re

from engine.core.cards import RANK_VALUE
from tests.kadi.test_kadi_helpers import build_deck
from tests.tables.matches import QUICK_KADI, winning_policy

# `/newgame kadi` options for a short match.
QUICK = " ".join(f"{name}={json.dumps(value)}" for name, value in QUICK_KADI.items())
# Players and options for a short whole match of each game (Lopti: its first round and the start
# of the second, with the results post between them; a session has no end).
SHORT_MATCHES = {
    "kadi": (3, "points_limit=40"),
    "pitch": (4, 'win_condition="anyone"'),
    "euchre3": (3, "target=5"),
    "three_thirteen": (2, ""),
    "lopti": (3, ""),
}

CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])([♠♥♦♣])")
SYMBOL_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(text: str | None) -> list[str]:
    """Card codes shown in a message text (jokers are identical, so they prove nothing)."""
    return [rank + SYMBOL_SUIT[suit] for rank, suit in CARD.findall(text or "")]


def hand_line_cards(text: str | None) -> list[str]:
    for line in (text or "").splitlines():
        if line.startswith(("Your hand:", "Karata zako:")):
            return cards_in(line)
    return []


async def table_state(application, table_id):
    service = application.bot_data["karata"].service
    return await service.load(table_id)


def sensible_player(rng):
    """A simulated player who plays like a person in a hurry: goes out when it can, keeps the
    cards that meld (Three Thirteen's view tells the deadwood left after a discard) and its five
    strongest (Euchre's keep), plays a card in Lopti rather than taking the pile, bids cautiously
    in Pitch, proposes no rule changes; anything else at random. Random play alone can take
    thousands of moves a match."""

    def choose(player, actions, loaded):
        game, state = loaded.game, loaded.state
        out = [action for action in actions if action["type"] == "go_out"]
        if out:
            return out[0]
        if game.name == "lopti":
            for kind in ("ready", "no_rule"):
                if any(action["type"] == kind for action in actions):
                    return next(action for action in actions if action["type"] == kind)
            plays = [action for action in actions if action["type"] == "play"]
            if plays and rng.random() < 0.8:  # mostly the lowest card, as people do; never a loop
                return min(
                    plays, key=lambda action: (RANK_VALUE.get(action["cards"][0][:-1], 99), -len(action["cards"]))
                )
            plays += [action for action in actions if action["type"] == "flip"]
            others = [action for action in actions if action["type"] not in ("propose", "amend_rule")]
            return rng.choice(plays or others) if plays or others else None
        discards = [action for action in actions if action["type"] == "discard"]
        if discards and game.name == "three_thirteen":

            def deadwood_after(action):
                arranged = game.view(game.apply(state, player, action).state, player).get("best_arrangement")
                return arranged["deadwood"] if arranged else 0

            return min(discards, key=deadwood_after)
        if game.name == "euchre3" and any(action["type"] == "keep" for action in actions):
            best = sorted(game.timeout_actions(state)[0]["cards"])  # the five strongest, as people keep them
            return next(action for action in actions if action["type"] == "keep" and sorted(action["cards"]) == best)
        passes = [action for action in actions if action["type"] == "pass"]
        if game.name == "pitch" and passes and rng.random() < 0.6:
            return passes[0]
        return rng.choice(actions)

    return choose


async def play_a_match_amina_wins(application, sim):
    """A short Kadi match at the simulation's group, dealt so that its first player (Amina) wins;
    returns the finished table as loaded (its chat shows it all)."""
    karata = application.bot_data["karata"]
    players = [str(user.id) for user in sim.users]
    # A fixed deal (its dealer and deck are what a replay needs besides the seed).
    deck = build_deck(players, players[-1], hands={players[0]: ["5H", "5S", "5D", "5C", "9C"]}, start="6H")
    karata.service.lobby.deal_override = lambda table: (players[-1], [deck])
    await sim.open_table("kadi", QUICK)
    table = await karata.store.live_table(sim.group_id, 0)
    while (loaded := await karata.service.load(table.table_id)).table.status == "playing":
        player = loaded.game.to_act(loaded.state)[0]
        action = winning_policy(loaded.game, loaded.state, player, players[0])
        assert (await karata.service.play.act(table.table_id, player, loaded.table.version, action)).ok
    await karata.publisher.flush()
    return loaded
