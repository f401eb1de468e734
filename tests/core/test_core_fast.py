"""The hot-path builders of engine/core/fast.py make exactly the protocol's objects."""

from engine.core.fast import applied, event
from engine.core.protocol import Applied, Event


def test_cheap_builders_make_the_protocol_objects():
    made = event("played", {"player": "amina", "card": "AS"})
    assert type(made) is Event and made == Event("played", {"player": "amina", "card": "AS"})
    assert made.private == {} and made.private is not event("x", {}).private
    assert event("a", {}, {"amina": {"hand": []}}) == Event("a", {}, {"amina": {"hand": []}})
    result = applied("state", [made])
    assert type(result) is Applied and result == Applied("state", [made]) and result.ok
    for frozen in (made, result):
        try:
            frozen.kind = "changed"
        except AttributeError:
            pass
        else:
            raise AssertionError("protocol objects stay frozen")
