"""How long a transaction waits for the database's locks, and who decides it.

The database layer has no window: by default every write transaction waits as usual (SQLITE_ESPERA_MS on
SQLite, as long as it takes on PostgreSQL). A program with a window injects its wait policy
(`definir_politica_de_espera`), and the begin listeners, the retries and the unit of work ask that policy,
never the window's own state: the window's short wait for an act on the GUI thread and the sliced, told
wait of a background task are the window's business (`secretaria.ui.widgets.espera_banco`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

OPCAO_ESPERA = "secretaria_espera"
"""Execution option: the seconds a transaction may wait for the database's locks (SQLite's write lock,
PostgreSQL's row and advisory locks) before giving up with `BancoOcupado`. Set by `UnidadeDeTrabalho`'s
`espera` for the short writes of a login; every other transaction waits SQLITE_ESPERA_MS (SQLite) or as
long as it takes (PostgreSQL)."""


ESPERA_COM_AVISO = 5.0
"""Seconds a unit of work run while the policy gives an `aviso` (a background task of the window) waits for a
busy database in all before `BancoOcupado`: it waits in short slices (`FATIA_DE_ESPERA`), telling the hook
after each, and the hook may raise (the user gave up) with nothing written."""


FATIA_DE_ESPERA = 0.25


class PoliticaDeEspera(Protocol):
    """What the program running the database (its window) says about the transactions begun now, on this
    thread. Asked at each BEGIN, each retry and each commit, so it answers for the calling thread."""

    def espera_curta(self) -> float | None:
        """Seconds a write transaction begun now may wait for a lock before `BancoOcupado` at once, never
        retried (an act on the GUI thread: the window waits visibly instead of freezing); None: as usual."""
        ...

    def aviso(self) -> Callable[[float], None] | None:
        """Called with the seconds waited so far while the database is busy (another program holds SQLite's
        write lock, or a PostgreSQL row/table lock): the transaction then waits in slices of
        `FATIA_DE_ESPERA` up to `ESPERA_COM_AVISO`. None: no one to tell (waits as usual)."""
        ...

    def gravou(self) -> None:
        """A unit of work committed (the window counts an act's commits: it runs a busy act again only while
        nothing of it was written)."""
        ...


class _SemJanela:
    """No window: every transaction waits as usual, nobody is told, nothing is counted."""

    def espera_curta(self) -> float | None:
        return None

    def aviso(self) -> Callable[[float], None] | None:
        return None

    def gravou(self) -> None:
        return None


_politica: PoliticaDeEspera = _SemJanela()


def definir_politica_de_espera(politica: PoliticaDeEspera | None) -> None:
    """Inject the window's wait policy (None: back to none). One per process: the window's answers depend
    on the calling thread, not on which database is used."""
    global _politica
    _politica = _SemJanela() if politica is None else politica


def politica_de_espera() -> PoliticaDeEspera:
    return _politica


def espera_da_transacao(opcoes: dict[str, Any]) -> float | None:
    """The lock wait of a write transaction beginning now: its own option, else the GUI thread's short one."""
    espera = opcoes.get(OPCAO_ESPERA)
    if espera is None and opcoes.get("sqlite_begin") != "DEFERRED":
        return _politica.espera_curta()
    return cast(float | None, espera)


def espera_curta() -> bool:
    """Whether the transactions begun now give up at once when busy (an act on the GUI thread)."""
    return _politica.espera_curta() is not None


def aviso_de_espera() -> Callable[[float], None] | None:
    return _politica.aviso()


def contar_gravacao() -> None:
    _politica.gravou()
