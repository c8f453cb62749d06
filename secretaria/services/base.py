"""What every service shares: the acting user, role checks, domain errors and optimistic version checks."""

from __future__ import annotations

import errno
from collections.abc import Iterable
from dataclasses import dataclass

from secretaria.models import Versionado

ROTULOS_PAPEIS = {
    "administrador": "Administrador",
    "fiscal": "Fiscal",
    "protocolo": "Protocolo",
    "autoridade": "Autoridade competente",
    "secretario": "Secretário",
    "consulta": "Consulta",
}


class ErroDominio(Exception):
    """A refused act. `campo` names the form field the message belongs beside, when there is one."""

    def __init__(self, mensagem: str, campo: str | None = None) -> None:
        super().__init__(mensagem)
        self.mensagem = mensagem
        self.campo = campo


class AcessoNegado(ErroDominio):
    """The acting user lacks the role the act needs; the message names it."""


class ConflitoEdicao(ErroDominio):
    """Someone else saved the record since it was loaded: reload, never overwrite."""


class NaoEncontrado(ErroDominio):
    pass


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


@dataclass(frozen=True)
class Ator:
    """The user acting: what services check roles against and what the audit row names."""

    login: str
    nome: str
    papeis: frozenset[str]

    def tem(self, *papeis: str) -> bool:
        return bool(self.papeis.intersection(papeis))


SISTEMA = Ator("sistema", "Sistema", frozenset({"administrador"}))


def exigir_papel(ator: Ator, *papeis: str, acao: str) -> None:
    """Refuse unless the user holds one of `papeis`; the message names the act and the role(s) needed."""
    if not ator.tem(*papeis):
        nomes = " ou ".join(ROTULOS_PAPEIS[p] for p in papeis)
        raise AcessoNegado(f"Para {acao} é necessário o papel {nomes}. O usuário {ator.login} não o possui.")


def verificar_versao(registro: Versionado, versao_esperada: int | None, descricao: str) -> None:
    """Optimistic lock: refuse a save based on a stale copy, saying who changed the record and when."""
    if versao_esperada is not None and registro.versao != versao_esperada:
        quem = registro.alterado_por or "outro usuário"
        quando = registro.alterado_em.strftime("%d/%m/%Y às %H:%M")
        raise ConflitoEdicao(
            f"{descricao} foi alterado por {quem} em {quando} depois que você o abriu. "
            "Recarregue para ver a versão atual; nada foi gravado."
        )


def texto_obrigatorio(valor: str | None, campo: str, rotulo: str, maximo: int = 10_000) -> str:
    """Trimmed text, refused when empty or longer than the column allows, with control characters removed."""
    limpo = limpar_texto(valor or "")
    if not limpo:
        raise ErroDominio(f"Informe {rotulo}.", campo)
    if len(limpo) > maximo:
        raise ErroDominio(f"{rotulo[0].upper()}{rotulo[1:]} pode ter no máximo {maximo} caracteres.", campo)
    return limpo


def texto_opcional(valor: str | None, campo: str, rotulo: str, maximo: int = 10_000) -> str:
    limpo = limpar_texto(valor or "")
    if len(limpo) > maximo:
        raise ErroDominio(f"{rotulo[0].upper()}{rotulo[1:]} pode ter no máximo {maximo} caracteres.", campo)
    return limpo


def limpar_texto(valor: str) -> str:
    """Strip, and drop control characters other than line breaks and tabs (they break XML, PDF and Excel)."""
    return "".join(c for c in valor if c in "\n\t" or (ord(c) >= 32 and ord(c) != 127)).strip()


def papeis_validos(papeis: Iterable[str]) -> frozenset[str]:
    conjunto = frozenset(papeis)
    desconhecidos = conjunto - ROTULOS_PAPEIS.keys()
    if desconhecidos:
        nomes = ", ".join(repr(p) if p.strip() else "(vazio)" for p in sorted(desconhecidos))
        raise ErroDominio(f"Papel desconhecido: {nomes}.", "papeis")
    if not conjunto:
        raise ErroDominio("Escolha ao menos um papel.", "papeis")
    return conjunto
