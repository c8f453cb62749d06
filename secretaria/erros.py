"""The domain's refusals and the optimistic version check, below the database layer.

Services raise these; `db` raises them too (a busy database, a lost optimistic-lock race), so they live
below both and import nothing of the project.
"""

from __future__ import annotations

import errno
from datetime import datetime
from typing import Protocol


class ErroDominio(Exception):
    """A refused act. `campo` names the form field the message belongs beside, when there is one."""

    def __init__(self, mensagem: str, campo: str | None = None) -> None:
        super().__init__(mensagem)
        self.mensagem = mensagem
        self.campo = campo


class ErrosDominio(ErroDominio):
    """Several independent refusals found together (a form's fields, a spreadsheet row's cells). The first
    is the message and the field (what a form shows beside it); `erros` holds them all, in order (what the
    import's preview lists)."""

    def __init__(self, erros: list[ErroDominio]) -> None:
        super().__init__(erros[0].mensagem, erros[0].campo)
        self.erros = tuple(erros)


class AcessoNegado(ErroDominio):
    """The acting user lacks the role the act needs; the message names it."""


class SessaoEncerrada(ErroDominio):
    """The account of a logged-in user changed under the open session (deactivated, locked, roles taken
    away): the act was refused and rolled back, and the window must go back to the login screen."""

    def __init__(self, mensagem: str, *, login: str, usuario_id: int) -> None:
        super().__init__(mensagem)
        self.login = login
        self.usuario_id = usuario_id


class ConflitoEdicao(ErroDominio):
    """Someone else saved the record since it was loaded: reload, never overwrite."""


class NaoEncontrado(ErroDominio):
    pass


class Cancelado(ErroDominio):
    """The user pressed Cancelar during a long task: the work stopped and its transaction rolled back, so
    nothing of it was written. A long service raises it from its `progresso` callback (see
    `ui.widgets.tarefas.Tarefa`), never half-way through a write it cannot undo."""

    def __init__(self, mensagem: str = "Cancelado pelo usuário; nada foi gravado.") -> None:
        super().__init__(mensagem)


class DiscoCheio(ErroDominio):
    """No room left on the disk (the computer's, or the database server's): nothing was written."""

    def __init__(self, onde: str = "o banco de dados") -> None:
        super().__init__(
            f"O disco está cheio: não há espaço para gravar {onde}, e nada foi gravado. "
            "Libere espaço no disco (ou avise o suporte) e tente de novo."
        )


class FalhaDeDisco(ErroDominio):
    """The disk (or the network share) failed to read or write: nothing was written."""

    def __init__(self, onde: str = "o banco de dados") -> None:
        super().__init__(
            f"O disco falhou ao ler ou gravar {onde} (erro de entrada e saída), e nada foi gravado. "
            "Verifique o disco, ou a rede se o arquivo estiver numa pasta compartilhada, e tente de novo; "
            "se o erro continuar, avise o suporte."
        )


_DISCO_CHEIO = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
_FALHA_DE_DISCO = frozenset({errno.EIO})


def recusa_de_disco(exc: BaseException, onde: str = "o banco de dados") -> ErroDominio | None:
    """The refusal a full disk or an I/O error becomes (OSError ENOSPC/EDQUOT/EIO), else None."""
    if isinstance(exc, OSError):
        if exc.errno in _DISCO_CHEIO:
            return DiscoCheio(onde)
        if exc.errno in _FALHA_DE_DISCO:
            return FalhaDeDisco(onde)
    return None


class Versionavel(Protocol):
    """What the version check reads of a record (`models.Versionado` has it)."""

    @property
    def versao(self) -> int: ...

    @property
    def alterado_por(self) -> str | None: ...

    @property
    def alterado_em(self) -> datetime: ...


def verificar_versao(registro: Versionavel, versao_esperada: int | None, descricao: str) -> None:
    """Optimistic lock: refuse a save based on a stale copy, saying who changed the record and when."""
    if versao_esperada is not None and registro.versao != versao_esperada:
        quem = registro.alterado_por or "outro usuário"
        quando = registro.alterado_em.strftime("%d/%m/%Y às %H:%M")
        # The description starts with its article, which the words agree with: "A representação … foi
        # alterada … você a abriu", "Os dados do órgão foram alterados … você os abriu".
        artigo = descricao.split(" ", 1)[0].lower()
        verbo, pronome = {
            "a": ("foi alterada", "a"),
            "os": ("foram alterados", "os"),
            "as": ("foram alteradas", "as"),
        }.get(artigo, ("foi alterado", "o"))
        raise ConflitoEdicao(
            f"{descricao} {verbo} por {quem} em {quando} depois que você {pronome} abriu. "
            "Recarregue para ver a versão atual; nada foi gravado."
        )
