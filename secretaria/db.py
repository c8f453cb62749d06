"""Engine, unit of work and schema migrations at start-up.

One URL names the database: a SQLite file (the embedded default, one PC) or a PostgreSQL server (several
PCs). Opening a database runs the pending Alembic migrations, after a backup copy on SQLite, and refuses a
file that is not a Secretaria database or whose schema is newer than this program.
"""

from __future__ import annotations

import contextvars
import functools
import json
import logging
import ntpath
import os
import random
import re
import sqlite3
import sys
import threading
import time
import urllib.parse
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy import event

if TYPE_CHECKING:
    # The ORM loads with the first unit of work (`Banco.fabrica`), not when the database opens: the login
    # window, shown right after, needs none of it.
    import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.erros import (
    ConflitoEdicao,
    DiscoCheio,
    ErroDominio,
    FalhaDeDisco,
    SessaoEncerrada,
    recusa_de_disco,
    verificar_versao,
)

VARIAVEL_URL = "SECRETARIA_DB"
SQLITE_ESPERA_MS = 15_000
SQLITE_AMOSTRA_ANALISE = 1000
"""Rows of each index `PRAGMA optimize` samples for the planner's statistics (SQLite's analysis_limit)."""
# Bounded retries of a transaction that met a busy database (SQLite) or lost a race the server resolved by
# aborting it (PostgreSQL serialization failure or deadlock): attempts, and the first pause (doubled, with
# jitter, up to PAUSA_MAXIMA) between them.
TENTATIVAS = 5
PAUSA_INICIAL = 0.05
PAUSA_MAXIMA = 1.0
# SQLSTATEs that mean "nothing of yours was kept: run the same transaction again" (55P03: a lock not
# obtained within the transaction's own `lock_timeout`, set only by a short-wait unit of work).
_PG_TRANSITORIOS = frozenset({"40001", "40P01", "55P03"})
OPCAO_ESPERA = "secretaria_espera"
"""Execution option: the seconds a transaction may wait for the database's locks (SQLite's write lock,
PostgreSQL's row and advisory locks) before giving up with `BancoOcupado`. Set by `UnidadeDeTrabalho`'s
`espera` for the short writes of a login; every other transaction waits SQLITE_ESPERA_MS (SQLite) or as
long as it takes (PostgreSQL)."""
# SQLite primary result codes SQLITE_BUSY and SQLITE_LOCKED (extended codes keep them in the low byte).
_SQLITE_OCUPADO = frozenset({5, 6})
# SQLITE_IOERR and SQLITE_FULL; PostgreSQL's disk_full and io_error.
_SQLITE_IOERR, _SQLITE_FULL = 10, 13
_PG_DISCO_CHEIO, _PG_FALHA_DE_DISCO = "53100", "58030"
NOTA_DESFEITA = "Secretaria: a unidade de trabalho foi desfeita (rollback); nada dela foi gravado."
"""Added to an unexpected exception that left a unit of work uncommitted: the error hook then tells the user
that the interrupted act saved nothing."""

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


_log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")


MENSAGEM_OCUPADO = (
    "O banco de dados está ocupado por outro programa (uma gravação longa ou outro computador com o banco "
    "aberto) e a operação esperou alguns segundos sem conseguir gravar; nada foi gravado. Tente de novo "
    "daqui a pouco."
)


class ErroBanco(Exception):
    """A database that cannot be opened: the message says which URL, what failed and what to do."""


class BancoOcupado(ErroBanco, ErroDominio):
    """The database stayed busy through every retry: nothing was written, the user may simply try again.

    Both an ErroBanco (the command line prints it) and an ErroDominio (a window shows it like any refusal).
    """

    def __init__(self, mensagem: str | None = None, *, repetir: bool = True) -> None:
        ErroDominio.__init__(
            self,
            mensagem
            or "O banco de dados está ocupado por outro usuário neste momento e a operação não pôde ser "
            "concluída; nada foi gravado. Tente novamente em alguns segundos.",
        )
        # False when the waiting was already done (BEGIN retried until its deadline): running the whole
        # act again would only multiply the wait.
        self.repetir = repetir


class ValorRecusadoPeloBanco(ErroDominio):
    """Last line of defence: a value the database itself refused (a NUL character or a text too long for
    PostgreSQL, a number too big for the column). Services validate before writing, so this reaching a user
    means a validation is missing; the act was rolled back whole and the user reads Portuguese, not a
    driver's error."""

    def __init__(self) -> None:
        super().__init__(
            "Um dos valores informados não pode ser gravado no banco de dados (caractere inválido, texto "
            "longo demais ou número grande demais); nada foi gravado. Corrija o valor e tente de novo."
        )


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


def recusa_do_banco(exc: BaseException) -> ErroDominio | None:
    """The refusal a full disk or an I/O error met by the database becomes (SQLite's SQLITE_FULL and
    SQLITE_IOERR, PostgreSQL's disk_full and io_error, or an OSError saying so), else None."""
    original = exc.orig if isinstance(exc, sa.exc.DBAPIError) else exc
    if isinstance(original, sqlite3.Error):
        codigo = getattr(original, "sqlite_errorcode", None)
        texto = str(original).lower()
        if (codigo is not None and codigo & 0xFF == _SQLITE_FULL) or "database or disk is full" in texto:
            return DiscoCheio()
        if (codigo is not None and codigo & 0xFF == _SQLITE_IOERR) or "disk i/o error" in texto:
            return FalhaDeDisco()
        return None
    sqlstate = getattr(original, "sqlstate", None)
    if sqlstate == _PG_DISCO_CHEIO:
        return DiscoCheio("o banco de dados no servidor")
    if sqlstate == _PG_FALHA_DE_DISCO:
        return FalhaDeDisco("o banco de dados no servidor")
    return recusa_de_disco(original) if original is not None else None


def _pausa(tentativa: int) -> float:
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
            aviso = ao_esperar_banco.get()
            if aviso is not None:
                aviso(time.monotonic() - inicio)
            time.sleep(_pausa(tentativa))
    raise AssertionError("inalcançável")  # pragma: no cover


def retentavel(funcao: Callable[P, T]) -> Callable[P, T]:
    """Decorator form of `com_retentativas` for a service whose first argument is a re-enterable uow."""

    @functools.wraps(funcao)
    def envolvida(*args: P.args, **kwargs: P.kwargs) -> T:
        return com_retentativas(lambda: funcao(*args, **kwargs))

    return envolvida


def pasta_dados() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("Secretaria", appauthor=False))


def url_padrao() -> str:
    return url_sqlite(pasta_dados() / "secretaria.sqlite")


def url_sqlite(arquivo: Path) -> str:
    """The SQLAlchemy URL of the SQLite file `arquivo`. SQLAlchemy keeps "#", "%" and spaces of the path as
    they are, but reads a "?" as the start of the query: such a path is refused rather than silently
    naming another file."""
    url = sa.URL.create("sqlite", database=str(arquivo)).render_as_string(hide_password=False)
    if arquivo_sqlite(url) != Path(arquivo):
        raise ErroBanco(
            f"O caminho {arquivo} não pode ser usado para o banco de dados (tem “?” no nome); "
            "renomeie a pasta ou o arquivo."
        )
    return url


def uri_sqlite(arquivo: Path, **parametros: str) -> str:
    """The `file:` URI of `arquivo` for `sqlite3.connect(..., uri=True)`, with `parametros` as its query.

    Every character that means something in a URI is percent-encoded ("#" starts a fragment, "%" an escape,
    "?" the query): `f"file:{arquivo}?mode=ro"` of a database in "Fiscalização #2 100%" opened a new, empty
    "Fiscalização " beside that folder, read-write, and the backup copied that. Windows: "C:/…" becomes
    "file:///C:/…" and "\\\\servidor\\pasta\\…" "file:////servidor/pasta/…", the forms SQLite reads."""
    caminho = Path(os.path.abspath(arquivo)).as_posix()
    if not caminho.startswith("/"):
        caminho = "/" + caminho
    uri = "file://" + urllib.parse.quote_from_bytes(os.fsencode(caminho), safe="/:")
    return uri + ("?" + urllib.parse.urlencode(parametros) if parametros else "")


def resolver_url(url: str | None) -> str:
    """The URL given on the command line, else $SECRETARIA_DB, else the default SQLite file."""
    return url or os.environ.get(VARIAVEL_URL) or url_padrao()


_SENHA_NA_URL = re.compile(r"(//[^/@:]*:)[^@/]*@")


def mascarar_url(url: str | sa.URL) -> str:
    """The URL as it may be shown or logged: never with its password (even when it cannot be parsed)."""
    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):
        return _SENHA_NA_URL.sub(r"\1***@", str(url))


def analisar_url(url: str | sa.URL) -> sa.URL:
    """The parsed URL, or ErroBanco saying how to write one (the password masked)."""
    try:
        return sa.make_url(url)
    except (sa.exc.ArgumentError, ValueError) as exc:
        raise ErroBanco(
            f"Endereço de banco de dados inválido: {mascarar_url(url)}.\n"
            "Use um arquivo (sqlite:///caminho/secretaria.sqlite) ou um servidor "
            "(postgresql+psycopg://usuario@servidor/banco)."
        ) from exc


def eh_sqlite(url: str | sa.URL) -> bool:
    return analisar_url(url).get_backend_name() == "sqlite"


def arquivo_sqlite(url: str | sa.URL) -> Path | None:
    u = analisar_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return Path(u.database)


def arquivo_inexistente(url: str | None) -> Path | None:
    """The SQLite file the (resolved) `url` names, when there is no such file; None for a server or a file
    that exists. Opening it would create a new empty database: the command line refuses that unless asked."""
    arquivo = arquivo_sqlite(resolver_url(url))
    return arquivo if arquivo is not None and not arquivo.exists() else None


class TextoInvalido(ErroDominio):
    """A text holding a lone surrogate (a UTF-16 half, "\\ud800"): no letter at all, and not encodable as
    UTF-8, so neither database can store or search it. Any text reaching the database meets this one rule
    (`_recusar_texto_invalido`): the act, search or login is refused as a normal refusal, nothing written."""

    def __init__(self, campo: str | None) -> None:
        super().__init__(
            "O texto informado contém um caractere inválido (um código Unicode solto, que não forma nenhuma "
            "letra); nada foi gravado nem buscado. Apague esse caractere e digite o texto de novo.",
            campo,
        )


_SURROGATO = re.compile("[\ud800-\udfff]")
_SUFIXO_DO_PARAMETRO = re.compile(r"_\d+$")


def texto_invalido(valor: object) -> bool:
    """Whether `valor` is a text with a lone surrogate (Python keeps them; UTF-8 cannot)."""
    return isinstance(valor, str) and not valor.isascii() and _SURROGATO.search(valor) is not None


def _recusar_texto_invalido(
    _conn: sa.Connection,
    _cursor: Any,
    _sql: str,
    parametros: Any,
    contexto: Any,
    varios: bool,
) -> None:
    """The one rule for text that cannot be stored: every statement's parameters, before the driver would
    fail to encode them (a raw UnicodeEncodeError), refused as `TextoInvalido` naming the parameter's column
    (the form field, for the records' columns)."""
    for linha in parametros if varios else (parametros,):
        if isinstance(linha, dict):
            pares: Iterator[tuple[Any, Any]] = iter(linha.items())
        elif isinstance(linha, list | tuple):
            nomes = getattr(getattr(contexto, "compiled", None), "positiontup", None) or ()
            pares = ((nomes[i] if i < len(nomes) else None, v) for i, v in enumerate(linha))
        else:
            continue
        for nome, valor in pares:
            if texto_invalido(valor):
                raise TextoInvalido(_SUFIXO_DO_PARAMETRO.sub("", nome) if isinstance(nome, str) else None)


def criar_engine(url: str) -> sa.Engine:
    """An engine with the project's connection settings (WAL, foreign keys, BEGIN IMMEDIATE on SQLite)."""
    engine = _criar_engine(url)
    event.listen(engine, "before_cursor_execute", _recusar_texto_invalido)
    return engine


def _criar_engine(url: str) -> sa.Engine:
    u = analisar_url(url)
    backend = u.get_backend_name()
    if backend == "sqlite":
        engine = sa.create_engine(u, connect_args={"timeout": SQLITE_ESPERA_MS / 1000})
        _configurar_sqlite(engine)
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


def _configurar_sqlite(engine: sa.Engine) -> None:
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
        espera = _espera_na_janela(opcoes)
        bruta = conn.connection.driver_connection
        assert isinstance(bruta, sqlite3.Connection)
        # busy_timeout belongs to the connection: set it for this transaction only when it differs from
        # what the connection has now (a pooled connection remembers it in its record's info).
        info = conn.connection.info
        aviso = ao_esperar_banco.get() if espera is None and modo != "DEFERRED" else None
        if aviso is not None:  # a background task: short slices, the user told after each
            espera_ms = int(_FATIA_DE_ESPERA * 1000)
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
    """BEGIN for a background task: tried every `_FATIA_DE_ESPERA` (busy_timeout) until ESPERA_COM_AVISO,
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


def _configurar_postgresql(engine: sa.Engine) -> None:
    @event.listens_for(engine, "begin")
    def _ao_iniciar(conn: sa.Connection) -> None:
        opcoes = conn.get_execution_options()
        espera = _espera_na_janela(opcoes)
        leitura = opcoes.get("sqlite_begin") == "DEFERRED"  # `Banco.leitura()`: never cut short
        if espera is None and not leitura and ao_esperar_banco.get() is not None:
            # a background task: each attempt waits a second for a lock, com_retentativas tells the hook
            espera = ESPERA_COM_AVISO / TENTATIVAS
        if espera is not None:  # for this transaction only (SET LOCAL)
            conn.exec_driver_sql(f"SET LOCAL lock_timeout = {max(1, int(espera * 1000))}")


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
            time.sleep(_pausa(tentativa))


class UnidadeDeTrabalho:
    """One session per user action; rolls back unless `commit()` was called (cosmicpython's UoW).

    Re-enterable: each `with uow:` opens a fresh session, so a caller can hand the same object to
    several services in turn. `variante()` gives a unit of work on the same database for a read
    transaction (never takes SQLite's write lock) or one that waits at most `espera` seconds for locks.

    `ao_encerrar_sessao`: called with every `SessaoEncerrada` that leaves an act (the window listening
    there goes back to the login screen, wherever the act's refusal was shown).
    """

    def __init__(
        self,
        fabrica: so.sessionmaker[so.Session],
        *,
        opcoes: dict[str, Any] | None = None,
        ao_encerrar_sessao: list[Callable[[SessaoEncerrada], None]] | None = None,
    ) -> None:
        self._fabrica = fabrica
        self._opcoes = dict(opcoes or {})
        self._ao_encerrar_sessao = ao_encerrar_sessao if ao_encerrar_sessao is not None else []
        self._sessao: so.Session | None = None
        self._confirmado = False

    def variante(self, *, leitura: bool = False, espera: float | None = None) -> UnidadeDeTrabalho:
        """The same database, another kind of transaction: `leitura` = BEGIN DEFERRED on SQLite (reads
        never wait for a writer in WAL mode); `espera` = give up with BancoOcupado after that many seconds
        waiting for a lock (SQLite's write lock, PostgreSQL's row and advisory locks)."""
        opcoes = dict(self._opcoes)
        if leitura:
            opcoes["sqlite_begin"] = "DEFERRED"
        if espera is not None:
            opcoes[OPCAO_ESPERA] = espera
        return UnidadeDeTrabalho(self._fabrica, opcoes=opcoes, ao_encerrar_sessao=self._ao_encerrar_sessao)

    @property
    def session(self) -> so.Session:
        if self._sessao is None:
            raise RuntimeError("A unidade de trabalho só pode ser usada dentro de 'with'.")
        return self._sessao

    def __enter__(self) -> UnidadeDeTrabalho:
        if self._sessao is not None:
            raise RuntimeError("Unidade de trabalho já aberta.")
        self._sessao = self._fabrica()
        self._confirmado = False
        if self._opcoes:
            # The transaction begins now, with its options (the begin listeners read them).
            try:
                self._sessao.connection(execution_options=self._opcoes)
            except BaseException as exc:
                self._sessao.close()
                self._sessao = None
                if isinstance(exc, sa.exc.DBAPIError) and eh_transitorio(exc):
                    raise BancoOcupado(repetir=False) from exc
                raise
        return self

    def __exit__(
        self, tipo: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        from sqlalchemy.orm.exc import StaleDataError

        sessao = self.session
        suspeitos = _suspeitos_de_conflito(sessao) if isinstance(exc, StaleDataError) else []
        try:
            if not self._confirmado:
                sessao.rollback()
        except sa.exc.DBAPIError:
            if exc is None:
                raise
            # The rollback met the same broken disk or connection: the act's own error says more.
            _log.warning("Rollback falhou depois de %s", type(exc).__name__, exc_info=True)
        finally:
            sessao.close()
            self._sessao = None
        if isinstance(exc, SessaoEncerrada):
            for ouvinte in list(self._ao_encerrar_sessao):
                try:
                    ouvinte(exc)
                except Exception:  # a listener's failure must not replace the act's refusal
                    _log.exception("Falha ao avisar o encerramento da sessão")
        # What the user must never see raw: a lost optimistic-lock race, a busy database, a full disk.
        if isinstance(exc, StaleDataError):
            raise self._conflito(suspeitos) from exc
        if isinstance(exc, sa.exc.DBAPIError) and eh_transitorio(exc):
            # On the GUI thread a lock not obtained within its short wait is told at once (the window waits
            # off the GUI thread instead): retrying here would freeze the window once per attempt.
            raise BancoOcupado(repetir=not _curta()) from exc
        if isinstance(exc, sa.exc.DataError | OverflowError):
            _log.warning("Valor recusado pelo banco de dados: %s", type(exc).__name__)
            raise ValorRecusadoPeloBanco() from exc
        if isinstance(exc, sa.exc.DBAPIError | OSError):
            recusa = recusa_do_banco(exc)
            if recusa is not None:
                _log.error("Gravação recusada pelo disco: %s", exc)
                raise recusa from exc
        if isinstance(exc, Exception) and not isinstance(exc, ErroDominio) and not self._confirmado:
            exc.add_note(NOTA_DESFEITA)

    def commit(self) -> None:
        self.session.commit()
        self._confirmado = True
        ato = _ato_da_janela.get()
        if ato is not None:
            ato.gravadas += 1

    def rollback(self) -> None:
        self.session.rollback()

    def _conflito(self, suspeitos: list[tuple[type[Any], tuple[Any, ...], int | None]]) -> ConflitoEdicao:
        """The same refusal as `verificar_versao`, for a save that lost the race between its version check
        and its UPDATE (the row changed in between): it names who changed the record and when."""
        from secretaria.models import Versionado

        with self._fabrica() as sessao:
            sessao.connection(execution_options={"sqlite_begin": "DEFERRED"})
            for classe, identidade, versao in suspeitos:
                atual = sessao.get(classe, identidade)
                descricao = f"O registro de {_rotulo(classe)} nº {', '.join(map(str, identidade))}"
                if atual is None:
                    return ConflitoEdicao(
                        f"{descricao} foi excluído por outro usuário depois que você o abriu; nada foi gravado."
                    )
                if isinstance(atual, Versionado) and atual.versao != versao:
                    try:
                        verificar_versao(atual, versao, descricao)
                    except ConflitoEdicao as conflito:
                        return conflito
        return ConflitoEdicao(
            "O registro foi alterado por outro usuário depois que você o abriu. "
            "Recarregue para ver a versão atual; nada foi gravado."
        )


_ROTULOS = {
    "auto_infracao": "auto de infração",
    "representacao": "representação",
    "decisao": "decisão",
    "suspensao": "suspensão",
    "cassacao": "cassação",
    "usuario": "usuário",
    "veiculo": "veículo",
    "valor_urm": "valor da URM",
    "dia_nao_util": "dia não útil",
    "dados_orgao": "dados do órgão",
}


def _rotulo(classe: type[Any]) -> str:
    tabela = str(getattr(classe, "__tablename__", classe.__name__))
    return _ROTULOS.get(tabela, tabela.replace("_", " "))


def _suspeitos_de_conflito(sessao: so.Session) -> list[tuple[type[Any], tuple[Any, ...], int | None]]:
    """The versioned records this session was updating or deleting, with the version it had loaded
    (noted before each flush: a failed flush leaves nothing to read back)."""
    anotadas: dict[tuple[type[Any], tuple[Any, ...]], int | None] = sessao.info.get(_CHAVE_VERSOES, {})
    return [(classe, identidade, versao) for (classe, identidade), versao in anotadas.items()]


_CHAVE_VERSOES = "secretaria_versoes_carregadas"


def _anotar_versoes(sessao: so.Session, _contexto: Any, _instancias: Any) -> None:
    import sqlalchemy.orm as so

    from secretaria.models import Versionado

    anotadas = sessao.info.setdefault(_CHAVE_VERSOES, {})
    for obj in [*sessao.dirty, *sessao.deleted]:
        if not isinstance(obj, Versionado):
            continue
        estado = so.attributes.instance_state(obj)
        if estado.identity is None:
            continue
        chave = (type(obj), tuple(estado.identity))
        if chave not in anotadas:
            anotadas[chave] = estado.committed_state.get("versao", estado.dict.get("versao"))


_SUFIXOS_SQLITE = ("", "-wal", "-shm", "-journal")
_arquivos_abertos: dict[Path, int] = {}


def _registrar_arquivo(arquivo: Path, abertos: int) -> None:
    chave = arquivo.absolute()
    restantes = _arquivos_abertos.get(chave, 0) + abertos
    if restantes > 0:
        _arquivos_abertos[chave] = restantes
    else:
        _arquivos_abertos.pop(chave, None)


def eh_arquivo_de_banco_aberto(caminho: Path) -> bool:
    """Whether `caminho` is a file of a SQLite database this process has open (the database, its -wal,
    -shm or -journal), by path or as the same file under another name. Only stat() is used: opening the
    file to find out would drop the process's locks on it (see `secretaria.ui.seletor_arquivo`)."""
    alvo = caminho.absolute()
    for arquivo in _arquivos_abertos:
        for sufixo in _SUFIXOS_SQLITE:
            parte = Path(f"{arquivo}{sufixo}")
            if parte == alvo:
                return True
            try:
                if os.path.samefile(parte, alvo):
                    return True
            except OSError:
                continue
    return False


CANAL_MUDANCAS = "secretaria"
"""The PostgreSQL channel every committed act notifies (`services.mudancas` listens on it)."""
_MAX_ENTIDADES_AVISO = 40
"""Entities named in one notification at most; beyond that it says only "see the audit" (a payload is
limited to 8,000 bytes, and the listener reads the audit rows then)."""
_CHAVE_AUDITADOS = "secretaria_auditados"


class Observador(Protocol):
    """A watcher with a connection of its own to the database (not from the engine's pool)."""

    def pausar(self) -> None: ...

    def retomar(self) -> None: ...

    def fechar(self) -> None: ...


@dataclass
class Origem:
    """Who this Banco is among the program's windows: an id sent with its notifications, and the audit rows
    its own units of work committed (recent ones), so a window can tell its own acts from another PC's."""

    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    proprios: deque[int] = field(default_factory=lambda: deque(maxlen=5000))

    def eh_proprio(self, auditoria_id: int) -> bool:
        return auditoria_id in self.proprios


def _ouvir_confirmacoes(fabrica: so.sessionmaker[so.Session], origem: Origem) -> None:
    """Every write session notes the audit rows it inserts; just before COMMIT a PostgreSQL session sends
    `pg_notify(CANAL_MUDANCAS, …)` inside the transaction (delivered only if it commits), naming the
    entities, the acting login and `origem.id`; after COMMIT the rows become `origem.proprios`."""

    def depois_do_flush(sessao: so.Session, _contexto: Any) -> None:
        # Imported at the first flush, not when the database opens: the models are a fifth of the
        # program's start, and the login window needs none of them.
        from secretaria.models import Auditoria

        novos = [obj for obj in sessao.new if isinstance(obj, Auditoria)]
        if novos:
            sessao.info.setdefault(_CHAVE_AUDITADOS, []).extend(
                (a.id, a.entidade, a.entidade_id, a.usuario_login) for a in novos
            )

    def antes_do_commit(sessao: so.Session) -> None:
        if sessao.get_bind().dialect.name != "postgresql":
            return
        sessao.flush()
        auditados = sessao.info.get(_CHAVE_AUDITADOS)
        if auditados:
            sessao.execute(
                sa.select(sa.func.pg_notify(CANAL_MUDANCAS, aviso_de_mudanca(origem.id, auditados)))
            )

    def depois_do_commit(sessao: so.Session) -> None:
        for auditado in sessao.info.pop(_CHAVE_AUDITADOS, ()):
            origem.proprios.append(auditado[0])

    def depois_do_rollback(sessao: so.Session) -> None:
        sessao.info.pop(_CHAVE_AUDITADOS, None)

    event.listen(fabrica, "after_flush", depois_do_flush)
    event.listen(fabrica, "before_commit", antes_do_commit)
    event.listen(fabrica, "after_commit", depois_do_commit)
    event.listen(fabrica, "after_soft_rollback", lambda sessao, _t: depois_do_rollback(sessao))


def aviso_de_mudanca(origem: str, auditados: Sequence[tuple[int, str, str | None, str | None]]) -> str:
    """The notification's payload (small JSON): origin `o`, audit ids `a` [first, last], moment `m`, and `e` =
    [[entidade, id, login], …], or null when there were too many (the listener reads the audit then)."""
    ids = [a[0] for a in auditados]
    entidades = sorted({(a[1], a[2], a[3]) for a in auditados}, key=lambda e: (e[0], e[1] or "", e[2] or ""))
    dados: dict[str, Any] = {
        "o": origem,
        "a": [min(ids), max(ids)],
        "m": relogio.agora().isoformat(timespec="seconds"),
        "e": [list(e) for e in entidades] if len(entidades) <= _MAX_ENTIDADES_AVISO else None,
    }
    texto = json.dumps(dados, ensure_ascii=False, separators=(",", ":"))
    if len(texto.encode("utf-8")) > 7000:  # long logins or ids: still below the server's 8,000 bytes
        dados["e"] = None
        texto = json.dumps(dados, ensure_ascii=False, separators=(",", ":"))
    return texto


@dataclass
class Banco:
    """An opened, migrated database: engine plus the session factories for writing and for reading."""

    url: str
    engine: sa.Engine
    _fechado: bool = field(default=False, init=False, repr=False)
    ao_encerrar_sessao: list[Callable[[SessaoEncerrada], None]] = field(
        default_factory=list, init=False, repr=False
    )
    """Called with each `SessaoEncerrada` an act of this database's units of work raised (the main window
    registers here to go back to the login screen)."""
    origem: Origem = field(default_factory=Origem)
    """This Banco's id in change notifications and the audit rows it committed (`Origem`)."""
    observadores: list[Observador] = field(default_factory=list, init=False, repr=False)
    """What watches this database on a connection of its own (`services.mudancas.Vigia`): closed by
    `fechar()`, paused while a restore needs every connection of this process closed."""
    _sessoes: tuple[so.sessionmaker[so.Session], so.sessionmaker[so.Session]] | None = field(
        default=None, init=False, repr=False
    )
    _trava_sessoes: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def _fabricas_de_sessao(self) -> tuple[so.sessionmaker[so.Session], so.sessionmaker[so.Session]]:
        # Made (and the ORM imported) at the first unit of work, by whichever thread comes first.
        with self._trava_sessoes:
            if self._sessoes is None:
                self._sessoes = _fabricas(self.engine, self.origem)
            return self._sessoes

    @property
    def fabrica(self) -> so.sessionmaker[so.Session]:
        """Sessions that write (BEGIN IMMEDIATE on SQLite)."""
        return self._fabricas_de_sessao()[0]

    @property
    def fabrica_leitura(self) -> so.sessionmaker[so.Session]:
        """Sessions that only read (BEGIN DEFERRED on SQLite)."""
        return self._fabricas_de_sessao()[1]

    @property
    def url_exibicao(self) -> str:
        return mascarar_url(self.url)

    @property
    def descricao_local(self) -> str:
        """Where the data is, as a person reads it: "arquivo /srv/dados/secretaria.sqlite" or "servidor
        PostgreSQL 10.0.0.5:5432, banco secretaria" (the URL, `sqlite:////…`, is no name for a clerk)."""
        arquivo = arquivo_sqlite(self.url)
        if arquivo is not None:
            return f"arquivo {arquivo}"
        u = sa.make_url(self.url)
        porta = f":{u.port}" if u.port else ""
        return f"servidor PostgreSQL {u.host or 'localhost'}{porta}, banco {u.database}"

    @property
    def eh_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @property
    def nome_curto(self) -> str:
        arquivo = arquivo_sqlite(self.url)
        if arquivo is not None:
            return arquivo.name
        u = sa.make_url(self.url)
        return f"{u.database}@{u.host or 'localhost'}"

    def uow(self, somente_leitura: bool = False) -> UnidadeDeTrabalho:
        return UnidadeDeTrabalho(
            self.fabrica_leitura if somente_leitura else self.fabrica,
            ao_encerrar_sessao=self.ao_encerrar_sessao,
        )

    @contextmanager
    def leitura(self) -> Iterator[so.Session]:
        """A read-only session (BEGIN DEFERRED on SQLite: readers never take the write lock)."""
        with self.fabrica_leitura() as sessao:
            try:
                yield sessao
            finally:
                sessao.rollback()

    def pausar_observadores(self) -> None:
        """Close the watchers' own connections until `retomar_observadores()` (a restore takes the file's
        exclusive lock, which no connection of this process may hold)."""
        for observador in list(self.observadores):
            observador.pausar()

    def retomar_observadores(self) -> None:
        for observador in list(self.observadores):
            observador.retomar()

    def fechar(self) -> None:
        for observador in list(reversed(self.observadores)):
            try:
                observador.fechar()
            except Exception:  # closing a watcher must not keep the database open
                _log.warning("Falha ao fechar um observador do banco", exc_info=True)
        self.observadores.clear()
        self.engine.dispose()
        arquivo = arquivo_sqlite(self.url)
        if arquivo is not None and not self._fechado:
            _registrar_arquivo(arquivo, -1)
        self._fechado = True


def _fabricas(
    engine: sa.Engine, origem: Origem
) -> tuple[so.sessionmaker[so.Session], so.sessionmaker[so.Session]]:
    import sqlalchemy.orm as so

    escrita = so.sessionmaker(bind=engine, expire_on_commit=False)
    event.listen(escrita, "before_flush", _anotar_versoes)
    _ouvir_confirmacoes(escrita, origem)
    leitura = so.sessionmaker(bind=engine.execution_options(sqlite_begin="DEFERRED"), expire_on_commit=False)
    return escrita, leitura


def banco_sobre_conexao(url: str, conexao: sqlite3.Connection) -> Banco:
    """A Banco whose sessions all run on the one SQLite connection `conexao`, configured like any other
    (WAL, foreign keys, BEGIN IMMEDIATE): for work that must happen while that connection holds the file's
    exclusive lock (a restore migrates and audits the restored file before anyone else may open it).
    Closing the Banco closes `conexao`."""
    engine = sa.create_engine("sqlite://", creator=lambda: conexao, poolclass=sa.pool.StaticPool)
    _configurar_sqlite(engine)
    return Banco(url=url, engine=engine)


def abrir_banco(url: str | None = None, *, migrar: bool = True, criar_pasta: bool = True) -> Banco:
    """Open (and, if needed, create or upgrade) the database at `url`; raise ErroBanco with a clear message."""
    from secretaria import migracoes

    url = resolver_url(url)
    arquivo = arquivo_sqlite(url)
    if arquivo is not None:
        conferir_pasta_local(arquivo)
    engine = criar_engine(url)
    if arquivo is not None and criar_pasta and url == url_padrao():
        arquivo.parent.mkdir(parents=True, exist_ok=True)
    if arquivo is not None and not arquivo.parent.is_dir():
        engine.dispose()
        raise ErroBanco(
            f"Não foi possível abrir o banco de dados {mascarar_url(url)}:\n"
            f"a pasta {arquivo.parent} não existe.\nCrie a pasta ou indique outro arquivo com --db."
        )
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
            situacao = migracoes.situacao(conn)
    except (sa.exc.OperationalError, sa.exc.DatabaseError, sa.exc.InterfaceError) as exc:
        engine.dispose()
        raise ErroBanco(_mensagem_conexao(url, exc)) from exc
    if situacao.estranho:
        engine.dispose()
        raise ErroBanco(
            f"O banco de dados {mascarar_url(url)} não é um banco da Secretaria "
            f"(tem outras tabelas: {', '.join(sorted(situacao.tabelas)[:5])}…).\n"
            "Nada foi alterado. Indique o arquivo ou servidor correto com --db."
        )
    if situacao.mais_novo:
        engine.dispose()
        raise ErroBanco(
            f"O banco de dados {mascarar_url(url)} foi criado por uma versão mais nova da Secretaria "
            f"(esquema {situacao.revisao_atual}).\nNada foi alterado. Atualize o programa para abri-lo."
        )
    if migrar and situacao.pendente and not _pode_migrar(engine):
        engine.dispose()
        raise ErroBanco(
            f"O banco de dados {mascarar_url(url)} precisa ser atualizado para esta versão do programa "
            f"(esquema {situacao.revisao_atual or 'vazio'} → {migracoes.revisao_head()}), e o usuário "
            f"{sa.make_url(url).username or '(padrão)'} não pode alterar o esquema (é o usuário do programa, "
            "não o dono do banco).\nNada foi alterado. Peça ao administrador do servidor que abra o banco uma "
            "vez com o usuário dono (secretaria --db postgresql+psycopg://…_dono@servidor/banco) ou execute "
            "secretaria servidor preparar de novo."
        )
    if migrar and situacao.pendente:
        if arquivo is not None and situacao.revisao_atual is not None and arquivo.exists():
            try:
                copiar_sqlite(
                    arquivo,
                    arquivo.with_name(f"{arquivo.stem}.antes-de-atualizar-{relogio.carimbo()}.sqlite"),
                )
            except BaseException:
                engine.dispose()  # not upgraded without its copy: the refusal says why
                raise
        migracoes.atualizar(engine)
    banco = Banco(url=url, engine=engine)
    if arquivo is not None:
        _registrar_arquivo(arquivo, +1)
    return banco


VARIAVEL_REDE = "SECRETARIA_SQLITE_EM_REDE"
"""Set to 1 to open a SQLite file on a network share anyway (to copy it off to this computer, say)."""
_SISTEMAS_DE_REDE = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb3",
        "smbfs",
        "sshfs",
        "fuse.sshfs",
        "afs",
        "ceph",
        "glusterfs",
        "fuse.glusterfs",
    }
)
_MONTAGENS = Path("/proc/mounts")
_DRIVE_REMOTE = 4  # GetDriveTypeW: a mapped network drive


def conferir_pasta_local(arquivo: Path) -> None:
    """Refuse a SQLite file on a network share unless VARIAVEL_REDE=1: the program runs SQLite in WAL mode,
    whose shared memory and locks do not work over SMB or NFS; several PCs writing one file there corrupt
    it. Several PCs are what the PostgreSQL server is for."""
    onde = pasta_de_rede(arquivo)
    if onde is None or os.environ.get(VARIAVEL_REDE) == "1":
        return
    raise ErroBanco(
        f"O banco de dados {arquivo} está numa pasta de rede ({onde}). O SQLite não funciona com segurança "
        "em pastas compartilhadas (SMB, NFS): o arquivo pode ser corrompido quando é usado pela rede.\n"
        "Nada foi aberto. Deixe o arquivo numa pasta deste computador ou, para usar o programa em vários "
        "computadores, use um servidor PostgreSQL (veja o README, seção “Servidor PostgreSQL”).\n"
        f"Para abri-lo mesmo assim (por exemplo, só para copiá-lo para este computador), defina a variável "
        f"{VARIAVEL_REDE}=1."
    )


def pasta_de_rede(arquivo: Path) -> str | None:
    """Which network share `arquivo` lies on, as the message names it; None when local (or unknown: macOS)."""
    if sys.platform == "win32":
        return _rede_windows(str(arquivo))
    if sys.platform.startswith("linux"):
        return _rede_linux(arquivo)
    return None


def _rede_windows(caminho: str) -> str | None:
    """A UNC path (\\\\servidor\\pasta, \\\\?\\UNC\\servidor\\pasta) or a mapped network drive."""
    unidade = ntpath.splitdrive(caminho)[0] or ntpath.splitdrive(os.getcwd())[0]
    unidade = unidade.replace("/", "\\")
    if unidade.startswith(("\\\\?\\", "\\\\.\\")):  # the long form of a path: \\?\C:\… is local
        unidade = unidade[4:]
        if unidade.upper().startswith("UNC\\"):
            return f"compartilhamento \\\\{unidade[4:]}"
    elif unidade.startswith("\\\\"):
        return f"compartilhamento {unidade}"
    if len(unidade) == 2 and unidade[1] == ":" and _tipo_de_unidade(unidade + "\\") == _DRIVE_REMOTE:
        return f"unidade de rede {unidade.upper()}"
    return None


def _tipo_de_unidade(raiz: str) -> int:
    """GetDriveTypeW of a drive's root ("Z:\\"). Windows only."""
    import ctypes

    return int(getattr(ctypes, "windll").kernel32.GetDriveTypeW(raiz))  # noqa: B009 - absent off Windows


def _rede_linux(arquivo: Path) -> str | None:
    """The file system of the mount `arquivo` is on (the deepest mount point above it, /proc/mounts)."""
    try:
        linhas = _MONTAGENS.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    caminho = os.path.realpath(arquivo)
    ponto, tipo = "", ""
    for linha in linhas:
        partes = linha.split()
        if len(partes) < 3:
            continue
        montagem = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), partes[1])  # "\040" is a space
        dentro = caminho == montagem or caminho.startswith(montagem.rstrip("/") + "/")
        if dentro and len(montagem) >= len(ponto):  # the deepest; of two on one point, the later
            ponto, tipo = montagem, partes[2]
    return f"{tipo} em {ponto}" if tipo in _SISTEMAS_DE_REDE else None


def _pode_migrar(engine: sa.Engine) -> bool:
    """Whether the connected role may change the schema (PostgreSQL: the application role of
    `secretaria servidor preparar` may not; SQLite: whoever can write the file can)."""
    if engine.dialect.name != "postgresql":
        return True
    with engine.connect() as conn:
        return bool(conn.exec_driver_sql("SELECT has_schema_privilege('public', 'CREATE')").scalar())


def _mensagem_conexao(url: str, exc: Exception) -> str:
    original = str(getattr(exc, "orig", exc)).strip().splitlines()
    causa = original[0] if original else type(exc).__name__
    if eh_sqlite(url):
        if "not a database" in causa or "file is encrypted" in causa:
            return (
                f"O arquivo {mascarar_url(url)} não é um banco de dados da Secretaria.\n"
                "Nada foi alterado. Indique o arquivo correto com --db."
            )
        return (
            f"Não foi possível abrir o banco de dados {mascarar_url(url)}: {causa}.\n"
            "Verifique o caminho e as permissões do arquivo."
        )
    return (
        f"Não foi possível conectar ao banco de dados {mascarar_url(url)}: {causa}.\n"
        "Verifique se o servidor PostgreSQL está ligado e acessível, e o endereço, usuário e banco indicados."
    )


def copiar_sqlite(
    origem: Path, destino: Path, progresso: Callable[[int, int, str], None] | None = None
) -> None:
    """A consistent copy of a live SQLite database (online backup API), checked with integrity_check and
    against the source: the copy holds every table the source holds, and the source opened is `origem`
    itself (never a new empty file some other path named), so an empty copy is never reported as done.
    With `progresso(feitas, total, texto)`, the copy goes in steps of 1,024 pages and reports each; whatever
    `progresso` raises (Cancelar) stops the copy. A copy that fails (a full disk included) leaves nothing
    behind: the partial file and its journal are removed."""
    try:
        fonte = sqlite3.connect(uri_sqlite(origem, mode="ro"), uri=True, timeout=SQLITE_ESPERA_MS / 1000)
    except sqlite3.Error as exc:
        raise ErroBanco(
            f"Não foi possível ler o banco {origem} para copiá-lo ({exc}); nada foi copiado."
        ) from exc
    try:
        _conferir_fonte(fonte, origem)
        alvo = sqlite3.connect(destino)
        try:
            _copiar_paginas(fonte, alvo, progresso)
            resultado = _verificar_integridade(alvo, progresso)
            faltam = sorted(_objetos(fonte) - _objetos(alvo))
        finally:
            alvo.close()
    except BaseException as exc:
        _apagar_copia(destino)
        recusa = recusa_do_banco(exc) if isinstance(exc, Exception) else None
        if recusa is not None:
            onde = f"a cópia de segurança em {destino.parent}"
            texto = str(DiscoCheio(onde) if isinstance(recusa, DiscoCheio) else FalhaDeDisco(onde))
            raise ErroBanco(f"{texto} (A cópia incompleta foi apagada.)") from exc
        raise
    finally:
        fonte.close()
    if not resultado or resultado[0] != "ok":
        _apagar_copia(destino)
        raise ErroBanco(f"A cópia de segurança em {destino} não passou na verificação de integridade.")
    if faltam:
        _apagar_copia(destino)
        raise ErroBanco(
            f"A cópia de segurança em {destino} saiu incompleta (faltam {', '.join(faltam[:5])}); "
            "ela foi apagada. Tente de novo."
        )


_PAGINAS_POR_PASSO = 1024
"""Pages the online backup copies between two calls of `progresso` (4 MB of a 4 KB-page file)."""


def _copiar_paginas(
    fonte: sqlite3.Connection, alvo: sqlite3.Connection, progresso: Callable[[int, int, str], None] | None
) -> None:
    if progresso is None:
        fonte.backup(alvo)
        return

    def passo(_estado: int, restantes: int, total: int) -> None:
        progresso(total - restantes, total, "Copiando o banco de dados…")

    fonte.backup(alvo, pages=_PAGINAS_POR_PASSO, progress=passo)


_TEXTO_VERIFICACAO = "Verificando a integridade da cópia…"
_PASSOS_SQLITE_POR_AVISO = 200_000
"""SQLite virtual-machine steps between two calls of the copy's `progresso` during integrity_check (a few
milliseconds each): the bar keeps moving and Cancelar is heard while a 1 GB copy is checked (about 8 s)."""


def _verificar_integridade(
    alvo: sqlite3.Connection, progresso: Callable[[int, int, str], None] | None
) -> tuple[Any, ...] | None:
    """PRAGMA integrity_check of the copy. With `progresso`, the check (whose length SQLite does not tell)
    reports (0, 0, texto) as it runs, a busy bar, and whatever `progresso` raises (Cancelar) interrupts it
    and is raised here."""
    resultado: tuple[Any, ...] | None
    if progresso is None:
        resultado = alvo.execute("PRAGMA integrity_check").fetchone()
        return resultado
    progresso(0, 0, _TEXTO_VERIFICACAO)
    interrompido: list[BaseException] = []

    def aviso() -> int:
        try:
            progresso(0, 0, _TEXTO_VERIFICACAO)
        except BaseException as exc:  # Cancelar: SQLite stops the check when the handler answers non-zero
            interrompido.append(exc)
            return 1
        return 0

    alvo.set_progress_handler(aviso, _PASSOS_SQLITE_POR_AVISO)
    try:
        resultado = alvo.execute("PRAGMA integrity_check").fetchone()
    except sqlite3.OperationalError:
        if interrompido:
            raise interrompido[0] from None
        raise
    finally:
        alvo.set_progress_handler(None, 0)
    if interrompido:
        raise interrompido[0]
    progresso(1, 1, _TEXTO_VERIFICACAO)
    return resultado


def _conferir_fonte(fonte: sqlite3.Connection, origem: Path) -> None:
    """Refuse to copy unless the connection reads `origem` and it holds tables: a source that is empty, or
    another file than the one named, would give a "whole" copy of nothing."""
    aberto = str(fonte.execute("PRAGMA database_list").fetchone()[2] or "")
    try:
        mesmo = bool(aberto) and os.path.samefile(aberto, origem)
    except OSError:
        mesmo = False
    if not mesmo:
        raise ErroBanco(f"Não foi possível ler o banco {origem} para copiá-lo; nada foi copiado.")
    if not _objetos(fonte):
        raise ErroBanco(f"O banco {origem} está vazio (não tem nenhuma tabela); nada foi copiado.")


def _objetos(conexao: sqlite3.Connection) -> set[str]:
    """The tables, indexes, views and triggers a database holds ("tabela usuario", as a message names them)."""
    linhas = conexao.execute("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
    return {f"{_TIPOS_DE_OBJETO.get(tipo, tipo)} {nome}" for tipo, nome in linhas}


_TIPOS_DE_OBJETO = {"table": "a tabela", "index": "o índice", "trigger": "o gatilho", "view": "a visão"}


def _apagar_copia(destino: Path) -> None:
    """A failed copy and whatever SQLite wrote beside it (a full disk leaves the rollback journal)."""
    for sufixo in ("", "-journal", "-wal", "-shm"):
        try:
            Path(f"{destino}{sufixo}").unlink(missing_ok=True)
        except OSError:  # pragma: no cover - nothing more to do for a file the disk will not let go
            _log.warning("Não foi possível apagar %s%s", destino, sufixo, exc_info=True)
