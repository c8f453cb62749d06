"""SQLite's connection settings (WAL, foreign keys, BEGIN IMMEDIATE, busy timeout, `PRAGMA optimize` on
closing) and the BEGIN that waits for the write lock."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from secretaria.db.espera import (
    ESPERA_COM_AVISO,
    FATIA_DE_ESPERA,
    OPCAO_ESPERA,
    aviso_de_espera,
    espera_da_transacao,
)
from secretaria.db.falhas import MENSAGEM_OCUPADO, BancoOcupado
from secretaria.db.retentativas import ESTATISTICAS, TENTATIVAS, eh_transitorio, pausa

_log = logging.getLogger(__name__)


SQLITE_ESPERA_MS = 15_000


SQLITE_AMOSTRA_ANALISE = 1000
"""Rows of each index `PRAGMA optimize` samples for the planner's statistics (SQLite's analysis_limit)."""


def configurar_sqlite(engine: sa.Engine) -> None:
    @event.listens_for(engine, "connect")
    def _ao_conectar(dbapi_conn: sqlite3.Connection, _registro: Any) -> None:
        # Take over BEGIN from pysqlite so that writers can ask for BEGIN IMMEDIATE: the write lock is
        # taken (and waited for, by busy_timeout) at the start, never as a deadlocked upgrade mid-way.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={SQLITE_ESPERA_MS}")
        # FULL: a committed act survives a power cut, not only a killed process.
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    @event.listens_for(engine, "close")
    def _ao_fechar(dbapi_conn: sqlite3.Connection, _registro: Any) -> None:
        # The query planner's statistics (sqlite_stat1) kept current as the file grows, as SQLite advises:
        # `PRAGMA optimize` on closing analyses only the tables this connection's queries would have planned
        # better with them, each index sampled (analysis_limit), so it costs milliseconds. Without them the
        # Painel's and the queues' plans are guesses (a queue read 0.7 s instead of 44 ms). Never waited for:
        # another writer holding the file makes it give up at once.
        try:
            dbapi_conn.execute("PRAGMA busy_timeout=0")
            dbapi_conn.execute(f"PRAGMA analysis_limit={SQLITE_AMOSTRA_ANALISE}")
            dbapi_conn.execute("PRAGMA optimize")
        except sqlite3.Error:
            _log.debug("PRAGMA optimize não rodou ao fechar a conexão", exc_info=True)

    @event.listens_for(engine, "begin")
    def _ao_iniciar(conn: sa.Connection) -> None:
        opcoes = conn.get_execution_options()
        modo = opcoes.get("sqlite_begin", "IMMEDIATE")
        espera = espera_da_transacao(opcoes)
        bruta = conn.connection.driver_connection
        assert isinstance(bruta, sqlite3.Connection)
        # busy_timeout belongs to the connection: set it for this transaction only when it differs from
        # what the connection has now (a pooled connection remembers it in its record's info).
        info = conn.connection.info
        aviso = aviso_de_espera() if espera is None and modo != "DEFERRED" else None
        if aviso is not None:  # a background task: short slices, the user told after each
            espera_ms = int(FATIA_DE_ESPERA * 1000)
        else:
            espera_ms = SQLITE_ESPERA_MS if espera is None else max(1, int(espera * 1000))
        if info.get(OPCAO_ESPERA, SQLITE_ESPERA_MS) != espera_ms:
            bruta.execute(f"PRAGMA busy_timeout={espera_ms}")
            info[OPCAO_ESPERA] = espera_ms
        if aviso is not None:
            _iniciar_sqlite_avisando(bruta, modo, aviso)
        else:
            _iniciar_sqlite(bruta, modo, espera)


def _iniciar_sqlite_avisando(bruta: sqlite3.Connection, modo: str, aviso: Callable[[float], None]) -> None:
    """BEGIN for a background task: tried every `FATIA_DE_ESPERA` (busy_timeout) until ESPERA_COM_AVISO,
    `aviso(segundos)` after each busy attempt (it may raise: nothing has happened yet)."""
    inicio = time.monotonic()
    while True:
        try:
            bruta.execute(f"BEGIN {modo}")
            return
        except sqlite3.OperationalError as exc:
            if not eh_transitorio(exc):
                raise
            esperado = time.monotonic() - inicio
            if esperado >= ESPERA_COM_AVISO:
                raise BancoOcupado(MENSAGEM_OCUPADO, repetir=False) from exc
            ESTATISTICAS.retentativas += 1
            aviso(esperado)


def _iniciar_sqlite(bruta: sqlite3.Connection, modo: str, espera: float | None = None) -> None:
    """BEGIN, retried a bounded number of times while the database stays busy beyond busy_timeout (or
    answers SQLITE_BUSY without waiting, as during WAL recovery). Nothing has happened yet in the
    transaction, so retrying here is always safe and invisible to the service. With `espera`, gives up
    once that many seconds have passed."""
    inicio = time.monotonic()
    # never waits much beyond two busy timeouts in all
    prazo = max(2 * SQLITE_ESPERA_MS / 1000, 1.0) if espera is None else espera
    for tentativa in range(TENTATIVAS):
        try:
            bruta.execute(f"BEGIN {modo}")
            return
        except sqlite3.OperationalError as exc:
            if not eh_transitorio(exc):
                raise
            if tentativa == TENTATIVAS - 1 or time.monotonic() - inicio >= prazo:
                raise BancoOcupado(repetir=False) from exc
            ESTATISTICAS.retentativas += 1
            time.sleep(pausa(tentativa))
