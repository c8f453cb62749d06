"""What other PCs changed: the database-level watcher behind the live refresh of the screens.

Every act writes an audit row naming the entity and id it touched (`auditoria.registrar`), so "what changed
since X" is one indexed read of the audit after the last row seen. How a window learns that there is
something to read depends on the database:

- PostgreSQL: every unit of work that commits an audited act sends `pg_notify('secretaria', payload)` inside
  its transaction (`services.notificacao`); the watcher keeps one autocommit connection of its own that
  `LISTEN`s, whose socket (`descritor()`) the window watches, and `ler()` drains the notifications without
  blocking. When the server drops that connection the watcher reconnects quietly, in a thread of its own (a
  server that does not answer holds a connection attempt for `TEMPO_CONEXAO`; the window's thread never
  waits for it), and reads the audit for whatever it missed.
- SQLite: nothing is sent. `ler()` asks `PRAGMA data_version` on a connection of its own (SQLite's own
  connection to the file, never another open of it): the number changes when another connection committed,
  and only then is the audit read.

Each change says who acted and whether it came from this very Banco (`proprio`), so a window that already
refreshed after its own act can leave it alone. Entries, exits and lockouts come too, as entity
`ENTIDADE_ACESSO` ("acesso"): they change no record on a screen except the accounts list (last access,
"Bloqueado"), the only one that listens to them (`ouve_acessos`).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from secretaria.db import Banco, arquivo_sqlite, credenciais_do_servidor
from secretaria.services.auditoria import ENTIDADE_ACESSO as ENTIDADE_ACESSO
from secretaria.services.notificacao import CANAL_MUDANCAS

_log = logging.getLogger(__name__)
LIMITE_LEITURA = 500
"""Audit rows read at most in one `ler()`; the rest comes at the next call."""
ESPERA_INICIAL, ESPERA_MAXIMA = 1.0, 60.0
"""Seconds between reconnection attempts while the server is away (doubling from the first to the last)."""
TEMPO_CONEXAO = 3
"""Seconds a PostgreSQL reconnection may take before giving up (in the watcher's reconnecting thread)."""


@dataclass(frozen=True)
class Mudanca:
    """One record another act changed: `entidade` and `entidade_id` as the audit names them ("auto_infracao",
    "12"), the acting `login`, the moment (when read from the audit), and whether this Banco did it."""

    entidade: str
    entidade_id: str | None
    login: str | None
    momento: datetime | None = None
    proprio: bool = False


class Vigia:
    """The watcher of one Banco (one per window). `ler()` is non-blocking and returns the changes committed
    since the previous call (the first call: since the watcher was made); `descritor()` is the socket to
    wait on (PostgreSQL) or None (SQLite: poll `ler()` every half second). `fechar()` also runs when the
    Banco closes.

        vigia = Vigia(banco)    # banco.fechar() closes it; banco.pausar_observadores() pauses it
        ...
        for m in vigia.ler():
            print(m.entidade, m.entidade_id, m.login)
    """

    def __init__(self, banco: Banco) -> None:
        self.banco = banco
        self.eh_sqlite = banco.eh_sqlite
        self._conexao: Any = None
        self._versao: int | None = None
        self._ultimo = 0
        self.reconexoes = 0
        self._fechado = False
        self._pausado = False
        self._ha_mais = False
        self._espera = ESPERA_INICIAL
        self._proxima_tentativa = 0.0
        self.antes_de_soltar: Callable[[], None] | None = None
        """Called just before the watcher's connection closes (the window stops watching its socket)."""
        self.ao_reconectar: Callable[[], None] | None = None
        """Called from the reconnecting thread when a new PostgreSQL connection is ready for `ler()` to take
        over (the window then calls `ler()` at once instead of at its next tick)."""
        self._trava = threading.Lock()
        self._tentativa: threading.Thread | None = None
        self._pronta: Any = None  # a connection the reconnecting thread made, not yet taken over
        self._geracao = 0  # moved on by a pause or the end: a connection made before is closed, not used
        self._conectar()
        self._ultimo = self._maior_id()
        banco.observadores.append(self)

    # -- what the window uses ---------------------------------------------------------------------
    def descritor(self) -> int | None:
        """The listening connection's socket (PostgreSQL), to watch for reading; None on SQLite or while
        disconnected."""
        if self.eh_sqlite or self._conexao is None:
            return None
        try:
            return int(self._conexao.fileno())
        except Exception:  # a closed connection has no socket
            return None

    @property
    def conectado(self) -> bool:
        return self._conexao is not None

    @property
    def reconectando(self) -> bool:
        """Whether a PostgreSQL reconnection is under way in its thread."""
        tentativa = self._tentativa
        return tentativa is not None and tentativa.is_alive()

    def ler(self) -> list[Mudanca]:
        """The changes committed since the last call, without waiting; [] when nothing changed. A dropped
        PostgreSQL connection is reopened here (the missed changes are read from the audit)."""
        if self._fechado or self._pausado:
            return []
        try:
            if self._conexao is None:
                # Reopened (after a pause or a failed reconnect): what was committed meanwhile is in the audit.
                return self._ler_auditoria() if self._reconectar() else []
            mudancas = self._ler_sqlite() if self.eh_sqlite else self._ler_pg()
            if self._ha_mais:  # a long burst: the next batch of the audit, one per call
                mudancas += self._ler_auditoria()
            return mudancas
        except Exception:
            # A watcher never bothers the user: the connection is dropped and reopened at the next call.
            _log.info("Observador de mudanças perdeu a conexão; reconectando", exc_info=True)
            self._descartar()
            return []

    def pausar(self) -> None:
        """Close the connection until `retomar()`; nothing is missed (the audit is read on resuming)."""
        self._pausado = True
        self._abandonar_tentativa()
        self._descartar()

    def retomar(self) -> None:
        self._pausado = False

    def fechar(self) -> None:
        self._fechado = True
        self._abandonar_tentativa()
        self._descartar()
        if self in self.banco.observadores:
            self.banco.observadores.remove(self)

    # -- SQLite -----------------------------------------------------------------------------------
    def _ler_sqlite(self) -> list[Mudanca]:
        versao = int(self._conexao.execute("PRAGMA data_version").fetchone()[0])
        if versao == self._versao:
            return []
        self._versao = versao
        return self._ler_auditoria()

    # -- PostgreSQL -------------------------------------------------------------------------------
    def _ler_pg(self) -> list[Mudanca]:
        # timeout=0: what already arrived (and what psycopg kept while the audit was being read), no wait;
        # raises when the server closed the connection.
        mudancas: list[Mudanca] = []
        incompleto = False
        for aviso in self._conexao.notifies(timeout=0):
            if aviso.channel != CANAL_MUDANCAS:
                continue
            lidas = self._do_aviso(aviso.payload)
            if lidas is None:
                incompleto = True
            else:
                mudancas.extend(lidas)
        if self._conexao.closed or self._conexao.broken:
            raise ConnectionError("conexão de escuta encerrada")
        if incompleto:
            return self._ler_auditoria()
        return mudancas

    def _do_aviso(self, texto: str) -> list[Mudanca] | None:
        """The changes a notification names, or None when it names none (too many: read the audit)."""
        try:
            dados = json.loads(texto)
            primeiro, ultimo = (int(v) for v in dados["a"])
        except (ValueError, KeyError, TypeError):
            return None
        if primeiro > self._ultimo + 1 or dados.get("e") is None:
            return None  # a gap (a notification lost while reconnecting) or too many to name
        self._ultimo = max(self._ultimo, ultimo)
        proprio = dados.get("o") == self.banco.origem.id
        momento = _momento(dados.get("m"))
        return [
            Mudanca(str(e[0]), None if e[1] is None else str(e[1]), e[2], momento, proprio)
            for e in dados["e"]
        ]

    # -- both -------------------------------------------------------------------------------------
    def _ler_auditoria(self) -> list[Mudanca]:
        """The audit rows after the last one seen (one read by primary key)."""
        marca = "?" if self.eh_sqlite else "%s"
        linhas = self._conexao.execute(
            "SELECT id, entidade, entidade_id, usuario_login, momento FROM auditoria "
            f"WHERE id > {marca} ORDER BY id LIMIT {LIMITE_LEITURA}",
            (self._ultimo,),
        ).fetchall()
        self._ha_mais = len(linhas) == LIMITE_LEITURA
        if not linhas:
            return []
        self._ultimo = int(linhas[-1][0])
        origem = self.banco.origem
        return [
            Mudanca(str(entidade), entidade_id, login, _momento(momento), origem.eh_proprio(int(id_)))
            for id_, entidade, entidade_id, login, momento in linhas
        ]

    def _maior_id(self) -> int:
        if self._conexao is None:
            return 0
        linha = self._conexao.execute("SELECT max(id) FROM auditoria").fetchone()
        return int(linha[0] or 0)

    def _conectar(self) -> None:
        if self.eh_sqlite:
            arquivo = arquivo_sqlite(self.banco.url)
            if arquivo is None:
                raise ValueError("O observador de mudanças precisa de um banco SQLite em arquivo.")
            # SQLite's own connection (isolation_level=None: each statement its own read, nothing held).
            conexao = sqlite3.connect(str(arquivo), isolation_level=None, check_same_thread=False)
            conexao.execute("PRAGMA query_only = ON")
            self._versao = int(conexao.execute("PRAGMA data_version").fetchone()[0])
            self._conexao = conexao
            return
        self._conexao = self._escuta_pg()

    def _escuta_pg(self) -> Any:
        conexao = _conexao_pg(self.banco.engine)
        try:
            conexao.execute(f"LISTEN {CANAL_MUDANCAS}")
        except BaseException:
            conexao.close()
            raise
        return conexao

    def _reconectar(self) -> bool:
        """Reconnect, at most once per `_espera` seconds, doubling while the server stays away. SQLite's
        local file opens here at once; PostgreSQL's connection is made in a thread of its own (one that does
        not answer holds an attempt for TEMPO_CONEXAO) and taken over by a later call: True once it is."""
        if not self.eh_sqlite:
            return self._reconectar_pg()
        agora = time.monotonic()
        if agora < self._proxima_tentativa:
            return False
        try:
            self._conectar()
        except Exception:
            _log.info("Observador de mudanças ainda sem conexão", exc_info=True)
            self._descartar()
            self._espera = min(ESPERA_MAXIMA, self._espera * 2)
            self._proxima_tentativa = agora + self._espera
            return False
        self._espera = ESPERA_INICIAL
        self._proxima_tentativa = 0.0
        self.reconexoes += 1
        return True

    def _reconectar_pg(self) -> bool:
        with self._trava:
            pronta, self._pronta = self._pronta, None
        if pronta is not None:
            self._conexao = pronta
            self._espera = ESPERA_INICIAL
            self._proxima_tentativa = 0.0
            self.reconexoes += 1
            return True
        inicio = time.monotonic()
        if self.reconectando or inicio < self._proxima_tentativa:
            return False
        self._tentativa = threading.Thread(
            target=self._tentar_conexao_pg,
            args=(self._geracao, inicio),
            name="secretaria-vigia-reconexao",
            daemon=True,  # never keeps the program from ending: the attempt gives up by itself
        )
        self._tentativa.start()
        return False

    def _tentar_conexao_pg(self, geracao: int, inicio: float) -> None:
        """The reconnecting thread: a connection for `ler()` to take over, or the next attempt's time."""
        try:
            conexao = self._escuta_pg()
        except Exception:
            _log.info("Observador de mudanças ainda sem conexão", exc_info=True)
            with self._trava:
                self._espera = min(ESPERA_MAXIMA, self._espera * 2)
                self._proxima_tentativa = inicio + self._espera
            return
        with self._trava:
            atual = geracao == self._geracao
            if atual:
                self._pronta = conexao
        if not atual:  # paused or closed meanwhile
            conexao.close()
            return
        aviso = self.ao_reconectar
        if aviso is not None:
            try:
                aviso()
            except Exception:  # the window went away meanwhile: its next watcher reads the audit anyway
                _log.debug("Aviso de reconexão sem destinatário", exc_info=True)

    def _abandonar_tentativa(self) -> None:
        """A connection the reconnecting thread made (or is making) is closed, never used."""
        with self._trava:
            self._geracao += 1
            pronta, self._pronta = self._pronta, None
        if pronta is not None:
            pronta.close()

    def _descartar(self) -> None:
        conexao, self._conexao = self._conexao, None
        if conexao is not None:
            if self.antes_de_soltar is not None:
                self.antes_de_soltar()
            try:
                conexao.close()
            except Exception:  # already broken: nothing left to close
                _log.debug("Conexão do observador já estava fechada", exc_info=True)


def _conexao_pg(engine: sa.Engine) -> Any:
    """A psycopg connection of its own (not from the pool), made as the engine makes its connections,
    in autocommit (LISTEN takes effect at once and no transaction stays open), as the logged-in user's role
    when the server gives each user one (`db.conectar_como`)."""
    cargs, cparams = engine.dialect.create_connect_args(engine.url)
    cparams.update(credenciais_do_servidor(engine))
    cparams.setdefault("connect_timeout", TEMPO_CONEXAO)
    conexao = engine.dialect.loaded_dbapi.connect(*cargs, **cparams)
    conexao.autocommit = True
    return conexao


def _momento(valor: Any) -> datetime | None:
    if isinstance(valor, datetime):
        return valor
    if isinstance(valor, str):
        try:
            return datetime.fromisoformat(valor)
        except ValueError:
            return None
    return None


__all__ = ["LIMITE_LEITURA", "Mudanca", "Vigia"]
