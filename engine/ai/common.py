"""What every game's computer player shares: which offered actions a computer player takes part in."""

from __future__ import annotations

from engine.core.protocol import Action

# Lopti's meta-game (Rule Votes, duels, writing and deleting rules) is for the human members:
# a computer player never votes, proposes, throws, champions or deletes (issue 20's decision).
META = frozenset({"vote", "throw", "champion", "propose", "delete_rule", "author_rule"})


def playable(game: str, legal: list[Action]) -> list[Action]:
    """The offered actions a computer player chooses among (all of them but Lopti's meta-game)."""
    if game != "lopti":
        return legal
    kept = [action for action in legal if action["type"] not in META]
    return kept or legal
