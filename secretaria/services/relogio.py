"""The clock the services read: one place for tests to move "today"."""

from __future__ import annotations

from datetime import date, datetime


def hoje() -> date:
    return date.today()


def agora() -> datetime:
    return datetime.now().replace(microsecond=0)
