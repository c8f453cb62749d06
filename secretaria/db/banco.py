"""An opened database (`Banco`) and how one is opened: migrated, refused when it is not a Secretaria
database or is newer than this program."""

from __future__ import annotations

import logging
import sqlite3
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import sqlalchemy as sa
from sqlalchemy import event

if TYPE_CHECKING:
    # The ORM loads with the first unit of work (`Banco.fabrica`), not when the database opens: the login
    # window, shown right after, needs none of it.
    import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db.arquivos import registrar_arquivo
from secretaria.db.copia import copiar_sqlite
from secretaria.db.falhas import ErroBanco
from secretaria.db.motor import criar_engine
from secretaria.db.rede import conferir_pasta_local
from secretaria.db.sqlite import configurar_sqlite
from secretaria.db.unidade import UnidadeDeTrabalho, anotar_versoes
from secretaria.db.url import arquivo_sqlite, eh_sqlite, mascarar_url, resolver_url, url_padrao
from secretaria.erros import SessaoEncerrada

_log = logging.getLogger(__name__)


class Observador(Protocol):
    """A watcher with a connection of its own to the database (not from the engine's pool)."""

    def pausar(self) -> None: ...

    def retomar(self) -> None: ...

    def fechar(self) -> None: ...


CHAVE_ORIGEM = "secretaria_origem"
"""The key of a write session's `info` that holds its Banco's `Origem` (what the change notification, a
service, reads: `services.notificacao`)."""


@dataclass
class Origem:
    """Who this Banco is among the program's windows: an id sent with its notifications, and the audit rows
    its own units of work committed (recent ones), so a window can tell its own acts from another PC's."""

    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    proprios: deque[int] = field(default_factory=lambda: deque(maxlen=5000))

    def eh_proprio(self, auditoria_id: int) -> bool:
        return auditoria_id in self.proprios


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
            registrar_arquivo(arquivo, -1)
        self._fechado = True


def _fabricas(
    engine: sa.Engine, origem: Origem
) -> tuple[so.sessionmaker[so.Session], so.sessionmaker[so.Session]]:
    import sqlalchemy.orm as so

    escrita = so.sessionmaker(bind=engine, expire_on_commit=False, info={CHAVE_ORIGEM: origem})
    event.listen(escrita, "before_flush", anotar_versoes)
    leitura = so.sessionmaker(bind=engine.execution_options(sqlite_begin="DEFERRED"), expire_on_commit=False)
    return escrita, leitura


def banco_sobre_conexao(url: str, conexao: sqlite3.Connection) -> Banco:
    """A Banco whose sessions all run on the one SQLite connection `conexao`, configured like any other
    (WAL, foreign keys, BEGIN IMMEDIATE): for work that must happen while that connection holds the file's
    exclusive lock (a restore migrates and audits the restored file before anyone else may open it).
    Closing the Banco closes `conexao`."""
    engine = sa.create_engine("sqlite://", creator=lambda: conexao, poolclass=sa.pool.StaticPool)
    configurar_sqlite(engine)
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
        registrar_arquivo(arquivo, +1)
    return banco


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
