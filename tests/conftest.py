"""Shared test configuration: every hypothesis test checks the same examples on every run.

A derandomized profile without an example database makes a run depend only on the code: CI
and every machine see the same examples, and a failure found once is found again. The
examples of a test come from its name and settings, so adding a test changes no other test's.
Deadlines are off because a random match's length varies, and a shared CI machine is slow.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("karata", derandomize=True, database=None, deadline=None)
settings.load_profile("karata")
