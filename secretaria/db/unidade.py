"""The unit of work (one session per user action) and the refusal of a save that lost an optimistic-lock
race."""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

if TYPE_CHECKING:
    # The ORM loads with the first unit of work (`Banco.fabrica`), not when the database opens: the login
    # window, shown right after, needs none of it.
    import sqlalchemy.orm as so

from secretaria.db.espera import OPCAO_ESPERA, contar_gravacao, espera_curta
from secretaria.db.falhas import BancoOcupado, ValorRecusadoPeloBanco, recusa_do_banco
from secretaria.db.retentativas import eh_transitorio
from secretaria.erros import ConflitoEdicao, ErroDominio, SessaoEncerrada, verificar_versao

_log = logging.getLogger(__name__)


NOTA_DESFEITA = "Secretaria: a unidade de trabalho foi desfeita (rollback); nada dela foi gravado."
"""Added to an unexpected exception that left a unit of work uncommitted: the error hook then tells the user
that the interrupted act saved nothing."""


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
            raise BancoOcupado(repetir=not espera_curta()) from exc
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
        contar_gravacao()

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


def anotar_versoes(sessao: so.Session, _contexto: Any, _instancias: Any) -> None:
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
