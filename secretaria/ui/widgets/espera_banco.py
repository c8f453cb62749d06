"""The window's wait policy for the database (`db.PoliticaDeEspera`), injected into `secretaria.db`.

What the window decides, per thread, about a busy database:

- an act run on the GUI thread (`ato_da_janela(espera)`, from `gravacao.gravar`): its write transactions wait
  at most `espera` seconds for a lock and then raise `BancoOcupado` at once, never retried; the window then
  waits visibly, off the GUI thread's freeze, and counts the act's commits (`AtoDaJanela.gravadas`) to know
  whether running it again would repeat a written part;
- a background task (`aguardando_banco(aviso)`, from `tarefas.Tarefa.run`): its transactions wait in short
  slices, `aviso(segundos)` after each (the progress dialog says so, and Cancelar stops with nothing written).

Each entry point injects the policy (`db.definir_politica_de_espera`): the database layer then asks it at
each BEGIN, retry and commit, and it answers from this module's context variables, which only the window
sets.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from secretaria import db


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
_ao_esperar_banco: contextvars.ContextVar[Callable[[float], None] | None] = contextvars.ContextVar(
    "ao_esperar_banco", default=None
)


class PoliticaDaJanela:
    """`db.PoliticaDeEspera` answered from the calling thread's act and task (context variables)."""

    def espera_curta(self) -> float | None:
        ato = _ato_da_janela.get()
        return None if ato is None else ato.espera

    def aviso(self) -> Callable[[float], None] | None:
        return _ao_esperar_banco.get()

    def gravou(self) -> None:
        ato = _ato_da_janela.get()
        if ato is not None:
            ato.gravadas += 1


POLITICA = PoliticaDaJanela()


def _injetar() -> None:
    if db.politica_de_espera() is not POLITICA:
        db.definir_politica_de_espera(POLITICA)


@contextmanager
def ato_da_janela(espera: float | None = None) -> Iterator[AtoDaJanela]:
    """Run one act of the window, counting its commits. With `espera` (the GUI thread), every write
    transaction begun inside, unless its unit of work says otherwise (`variante(espera=...)`), waits at most
    `espera` seconds for the database's locks and then raises `BancoOcupado` at once, never retried: the
    window then waits off the GUI thread instead of freezing for SQLITE_ESPERA_MS, or for as long as a
    PostgreSQL row lock is held."""
    _injetar()
    ato = AtoDaJanela(espera)
    marca = _ato_da_janela.set(ato)
    try:
        yield ato
    finally:
        _ato_da_janela.reset(marca)


def aguardando_banco(aviso: Callable[[float], None]) -> None:
    """From now on, this thread's units of work wait for a busy database in short slices and call
    `aviso(segundos)` after each (a background task's thread: set once, it lives as long as the thread)."""
    _injetar()
    _ao_esperar_banco.set(aviso)
