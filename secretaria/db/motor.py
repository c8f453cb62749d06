"""The engine: the project's connection settings for SQLite and PostgreSQL, and the text rule on every
statement."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import event

from secretaria.db.credenciais import aplicar_credenciais
from secretaria.db.espera import ESPERA_COM_AVISO, aviso_de_espera, espera_da_transacao
from secretaria.db.falhas import ErroBanco
from secretaria.db.retentativas import TENTATIVAS
from secretaria.db.sqlite import SQLITE_ESPERA_MS, configurar_sqlite
from secretaria.db.texto import recusar_texto_invalido
from secretaria.db.url import analisar_url, mascarar_url


def criar_engine(url: str) -> sa.Engine:
    """An engine with the project's connection settings (WAL, foreign keys, BEGIN IMMEDIATE on SQLite)."""
    engine = _criar_engine(url)
    event.listen(engine, "before_cursor_execute", recusar_texto_invalido)
    return engine


def _criar_engine(url: str) -> sa.Engine:
    u = analisar_url(url)
    backend = u.get_backend_name()
    if backend == "sqlite":
        engine = sa.create_engine(u, connect_args={"timeout": SQLITE_ESPERA_MS / 1000})
        configurar_sqlite(engine)
        return engine
    if backend == "postgresql":
        if u.drivername == "postgresql":
            u = u.set(drivername="postgresql+psycopg")
        engine = sa.create_engine(
            u, pool_pre_ping=True, connect_args={"connect_timeout": 5, "application_name": "secretaria"}
        )
        _configurar_postgresql(engine)
        return engine
    raise ErroBanco(
        f"Banco de dados não suportado: {mascarar_url(u)}.\nA Secretaria funciona com SQLite ou PostgreSQL."
    )


def _configurar_postgresql(engine: sa.Engine) -> None:
    aplicar_credenciais(engine)

    @event.listens_for(engine, "begin")
    def _ao_iniciar(conn: sa.Connection) -> None:
        opcoes = conn.get_execution_options()
        espera = espera_da_transacao(opcoes)
        leitura = opcoes.get("sqlite_begin") == "DEFERRED"  # `Banco.leitura()`: never cut short
        if espera is None and not leitura and aviso_de_espera() is not None:
            # a background task: each attempt waits a second for a lock, com_retentativas tells the hook
            espera = ESPERA_COM_AVISO / TENTATIVAS
        if espera is not None:  # for this transaction only (SET LOCAL)
            conn.exec_driver_sql(f"SET LOCAL lock_timeout = {max(1, int(espera * 1000))}")
