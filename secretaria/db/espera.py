"""How long a transaction waits for the database's locks when a window runs it: the short wait of an act on
the GUI thread (`ato_da_janela`) and the sliced, told wait of a background task (`ao_esperar_banco`)."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

OPCAO_ESPERA = "secretaria_espera"
"""Execution option: the seconds a transaction may wait for the database's locks (SQLite's write lock,
PostgreSQL's row and advisory locks) before giving up with `BancoOcupado`. Set by `UnidadeDeTrabalho`'s
`espera` for the short writes of a login; every other transaction waits SQLITE_ESPERA_MS (SQLite) or as
long as it takes (PostgreSQL)."""


ESPERA_COM_AVISO = 5.0
"""Seconds a unit of work run with `ao_esperar_banco` set (a background task of the window) waits for a busy
database in all before `BancoOcupado`: it waits in short slices (`_FATIA_DE_ESPERA`), telling the hook after
each, and the hook may raise (the user gave up) with nothing written."""


_FATIA_DE_ESPERA = 0.25


ao_esperar_banco: contextvars.ContextVar[Callable[[float], None] | None] = contextvars.ContextVar(
    "ao_esperar_banco", default=None
)
"""Set by the window's background tasks: called with the seconds waited so far while the database is
busy (another program holds SQLite's write lock, or a PostgreSQL row/table lock)."""


@dataclass
class AtoDaJanela:
    """An act the window runs (`ato_da_janela`): how long its transactions may wait for a lock (None: as
    usual), and how many of them it has committed so far (the window runs a busy act again only while that
    is 0: nothing of it written yet)."""

    espera: float | None
    gravadas: int = 0


_ato_da_janela: contextvars.ContextVar[AtoDaJanela | None] = contextvars.ContextVar(
    "ato_da_janela", default=None
)


@contextmanager
def ato_da_janela(espera: float | None = None) -> Iterator[AtoDaJanela]:
    """Run one act of the window, counting its commits. With `espera` (the GUI thread), every write
    transaction begun inside, unless its unit of work says otherwise (`variante(espera=...)`), waits at most
    `espera` seconds for the database's locks and then raises `BancoOcupado` at once, never retried: the
    window then waits off the GUI thread instead of freezing for SQLITE_ESPERA_MS, or for as long as a
    PostgreSQL row lock is held."""
    ato = AtoDaJanela(espera)
    marca = _ato_da_janela.set(ato)
    try:
        yield ato
    finally:
        _ato_da_janela.reset(marca)


def _curta() -> bool:
    ato = _ato_da_janela.get()
    return ato is not None and ato.espera is not None


def _espera_na_janela(opcoes: dict[str, Any]) -> float | None:
    """The lock wait of a write transaction beginning now: its own option, else the GUI thread's short one."""
    espera = opcoes.get(OPCAO_ESPERA)
    if espera is None and opcoes.get("sqlite_begin") != "DEFERRED":
        ato = _ato_da_janela.get()
        if ato is not None:
            return ato.espera
    return cast(float | None, espera)
