"""The log of recent group calls that a restarted bot reads: the last minute only, whatever the
killed process left in the file."""

from __future__ import annotations

from tables import call_log
from tables.call_log import CallLog


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_new_process_reads_the_calls_of_the_last_minute_and_keeps_only_those(tmp_path):
    path, clock = str(tmp_path / "k.db.calls"), Clock()
    killed = CallLog(path, 60, clock)
    killed.record(-1)
    clock.now += 30
    killed.record(-2)
    killed.record(-2)
    with open(path, "a") as file:
        file.write("1000031.5 -")  # the line a kill cut short
    clock.now += 40
    assert CallLog(path, 60, clock).recent() == [(-2, 40.0), (-2, 40.0)]
    assert len(open(path).read().splitlines()) == 2, "the file holds the last minute only"


def test_the_file_is_rewritten_with_the_last_minute_every_so_many_calls(tmp_path, monkeypatch):
    monkeypatch.setattr(call_log, "COMPACT_EVERY", 10)
    path, clock = str(tmp_path / "k.db.calls"), Clock()
    log = CallLog(path, 60, clock)
    for _call in range(25):
        log.record(-1)
        clock.now += 5
    assert len(open(path).read().splitlines()) <= 12 + 10
    assert [chat for chat, _ago in CallLog(path, 60, clock).recent()] == [-1] * 11


def test_without_a_file_nothing_is_kept():
    log = CallLog(None, 60)
    log.record(-1)
    assert log.recent() == []
