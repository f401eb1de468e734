"""The player's legal actions as a tree of buttons, so any game gets a phone keyboard for free.

A game renderer gives each legal action a path of button labels: ("7♥",) for a one-card play,
("J♥", "♥ kopa") for a Jack and its command, ("5♠", "5♥", "✔") for several cards tapped in
order then confirmed. The tree merges common prefixes. Nodes are numbered breadth-first, so
the same legal actions always give the same numbers: a button carries only its number and the
server rebuilds the tree to find what it meant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

Action = dict[str, Any]


@dataclass
class Node:
    label: str
    number: int = -1
    action: Action | None = None
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None


@dataclass
class ActionTree:
    root: Node
    nodes: list[Node]

    def node(self, number: int) -> Node | None:
        return self.nodes[number] if 0 <= number < len(self.nodes) else None


def build_tree(actions: Sequence[Action], path_of: Callable[[Action], Sequence[str]]) -> ActionTree:
    root = Node(label="")
    for action in actions:
        node = root
        for label in path_of(action):
            child = next((c for c in node.children if c.label == label), None)
            if child is None:
                child = Node(label=label, parent=node)
                node.children.append(child)
            node = child
        if node.action is None:
            node.action = action
    nodes: list[Node] = []
    queue = [root]
    while queue:
        current = queue.pop(0)
        current.number = len(nodes)
        nodes.append(current)
        queue.extend(current.children)
    return ActionTree(root, nodes)
