"""The program's one clock: every "today" and "now" — audit moments, record stamps, file names, defaults.

It sits below the models (it imports nothing of the project) so that models, services, the database layer
and the window all read the same clock, and a test that moves it moves all of them. Callers look the
functions up on the module at call time (`relogio.agora()`), never bind them at import, so that a
monkeypatched clock is the one they see.
"""

from __future__ import annotations

from datetime import date, datetime


def hoje() -> date:
    """The office's calendar day."""
    return agora().date()


def agora() -> datetime:
    """Local wall-clock time, to the second: the office works in one time zone and reads hh:mm."""
    return datetime.now().replace(microsecond=0)


def carimbo() -> str:
    """`AAAAMMDD-HHMMSS` of now, for the names of backup and aside copies."""
    return agora().strftime("%Y%m%d-%H%M%S")
