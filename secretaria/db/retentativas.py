"""Bounded retries of a transaction that met a busy database or lost a race the server resolved by
aborting it."""

from __future__ import annotations

import functools
import logging
import random
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

import sqlalchemy as sa

from secretaria.db.espera import aviso_de_espera
from secretaria.db.falhas import BancoOcupado

_log = logging.getLogger(__name__)


# Bounded retries of a transaction that met a busy database (SQLite) or lost a race the server resolved by
# aborting it (PostgreSQL serialization failure or deadlock): attempts, and the first pause (doubled, with
# jitter, up to PAUSA_MAXIMA) between them.
TENTATIVAS = 5


PAUSA_INICIAL = 0.05


PAUSA_MAXIMA = 1.0


# SQLSTATEs that mean "nothing of yours was kept: run the same transaction again" (55P03: a lock not
# obtained within the transaction's own `lock_timeout`, set only by a short-wait unit of work).
_PG_TRANSITORIOS = frozenset({"40001", "40P01", "55P03"})


# SQLite primary result codes SQLITE_BUSY and SQLITE_LOCKED (extended codes keep them in the low byte).
_SQLITE_OCUPADO = frozenset({5, 6})


P = ParamSpec("P")


T = TypeVar("T")


@dataclass
class Estatisticas:
    """Counters for diagnostics and tests: how many transactions had to be retried (this process)."""

    retentativas: int = 0


ESTATISTICAS = Estatisticas()


def eh_transitorio(exc: BaseException) -> bool:
    """A failure that a second run of the same transaction can cure: SQLite busy/locked, PostgreSQL
    serialization failure or deadlock. Anything else (a constraint, a bug) is not retried."""
    if isinstance(exc, BancoOcupado):
        return True
    original = exc.orig if isinstance(exc, sa.exc.DBAPIError) else exc
    if isinstance(original, sqlite3.OperationalError):
        codigo = getattr(original, "sqlite_errorcode", None)
        if codigo is not None:
            return codigo & 0xFF in _SQLITE_OCUPADO
        texto = str(original).lower()
        return "database is locked" in texto or "database is busy" in texto or "table is locked" in texto
    sqlstate = getattr(original, "sqlstate", None)
    return isinstance(sqlstate, str) and sqlstate in _PG_TRANSITORIOS


def pausa(tentativa: int) -> float:
    base: float = min(PAUSA_MAXIMA, PAUSA_INICIAL * 2**tentativa)
    return base * random.uniform(0.5, 1.0)


def com_retentativas(funcao: Callable[[], T], *, tentativas: int | None = None) -> T:
    """Run `funcao` (one whole act: its own `with uow:` inside) and run it again, up to `tentativas` times
    in all, when the database was busy or the server aborted it to resolve a race; then `BancoOcupado`.

    Safe because an act that failed that way wrote nothing: its transaction was rolled back entirely.
    """
    limite = TENTATIVAS if tentativas is None else max(1, tentativas)
    inicio = time.monotonic()
    for tentativa in range(limite):
        try:
            return funcao()
        except (sa.exc.DBAPIError, BancoOcupado) as exc:
            if not eh_transitorio(exc) or (isinstance(exc, BancoOcupado) and not exc.repetir):
                raise
            if tentativa == limite - 1:
                if isinstance(exc, BancoOcupado):
                    raise
                raise BancoOcupado() from exc
            ESTATISTICAS.retentativas += 1
            _log.info("Transação repetida (%s/%s): %s", tentativa + 1, limite, type(exc).__name__)
            aviso = aviso_de_espera()
            if aviso is not None:
                aviso(time.monotonic() - inicio)
            time.sleep(pausa(tentativa))
    raise AssertionError("inalcançável")  # pragma: no cover


def retentavel(funcao: Callable[P, T]) -> Callable[P, T]:
    """Decorator form of `com_retentativas` for a service whose first argument is a re-enterable uow."""

    @functools.wraps(funcao)
    def envolvida(*args: P.args, **kwargs: P.kwargs) -> T:
        return com_retentativas(lambda: funcao(*args, **kwargs))

    return envolvida
