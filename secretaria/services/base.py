"""What every service shares: the acting user, role checks, domain errors and optimistic version checks."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

# Re-exported: the windows and lists import the roles' labels from here.
from secretaria.codigos import ROTULOS_PAPEIS as ROTULOS_PAPEIS

# The domain's refusals and the version check live below the database layer; services keep importing
# them from here, beside the acting user and the role checks.
from secretaria.erros import AcessoNegado as AcessoNegado
from secretaria.erros import Cancelado as Cancelado
from secretaria.erros import ConflitoEdicao as ConflitoEdicao
from secretaria.erros import DiscoCheio as DiscoCheio
from secretaria.erros import ErroDominio as ErroDominio
from secretaria.erros import ErrosDominio as ErrosDominio
from secretaria.erros import FalhaDeDisco as FalhaDeDisco
from secretaria.erros import NaoEncontrado as NaoEncontrado
from secretaria.erros import SessaoEncerrada as SessaoEncerrada
from secretaria.erros import recusa_de_disco as recusa_de_disco
from secretaria.erros import verificar_versao as verificar_versao
from secretaria.lei.formato import formatar_data

if TYPE_CHECKING:
    import sqlalchemy.orm as so


class Assinante(Protocol):
    """A user's signing key opened by their login (`services.chaves.ChaveAberta`): what the audit writer
    needs of it. A protocol here, so the acting user's type needs no cryptography to be read."""

    @property
    def chave_id(self) -> int: ...

    def assinar(self, hash_linha: str) -> str: ...

    def certificar(self, texto: bytes) -> str: ...


@dataclass(frozen=True)
class Ator:
    """The user acting: what services check roles against and what the audit row names."""

    login: str
    nome: str
    papeis: frozenset[str]
    usuario_id: int | None = None
    """The account, set only by a real login (`contas.autenticar`): every audited act of such an actor
    re-reads it in its own transaction (`auditoria.conferir_ator`). None for the system, the demo generator
    and literal actors, which are not accounts."""
    sessao: str | None = None
    """The login's token: the audit rows of this session's entry and exit carry it."""
    entrada_pendente: datetime | None = None
    """When the login could not be recorded in time (the database was busy): the moment of the login, which
    the session's first audited act records before its own row."""
    chave: Assinante | None = field(default=None, repr=False, compare=False)
    """The user's signing key, unsealed by the login on SQLite (`services.chaves`): every audit row this
    actor writes is signed with it. None on PostgreSQL and for actors that did not log in."""

    def tem(self, *papeis: str) -> bool:
        return bool(self.papeis.intersection(papeis))


_T = TypeVar("_T")


class Conferencia:
    """The checks of one form (or one spreadsheet row) run each in turn, every refusal kept: `tentar` runs a
    check and gives its value, or `padrao` when it refused; `concluir` refuses with all of them at once (an
    `ErrosDominio` whose first is what the form shows), or with the only one as it was."""

    def __init__(self) -> None:
        self.erros: list[ErroDominio] = []

    def tentar(self, passo: Callable[[], _T], padrao: _T) -> _T:
        try:
            return passo()
        except ErroDominio as exc:
            self.erros.extend(erros_de(exc))
            return padrao

    def recusou(self, *campos: str) -> bool:
        """Whether a check of one of `campos` refused (a later check that needs its value is skipped)."""
        return any(e.campo in campos for e in self.erros)

    def concluir(self) -> None:
        if len(self.erros) == 1:
            raise self.erros[0]
        if self.erros:
            raise ErrosDominio(self.erros)


def erros_de(exc: ErroDominio) -> tuple[ErroDominio, ...]:
    """Each refusal `exc` carries: the several of an `ErrosDominio`, else itself."""
    return exc.erros if isinstance(exc, ErrosDominio) else (exc,)


SISTEMA = Ator("sistema", "Sistema", frozenset({"administrador"}))


def exigir_papel(ator: Ator, *papeis: str, acao: str) -> None:
    """Refuse unless the user holds one of `papeis`; the message names the act and the role(s) needed."""
    if not ator.tem(*papeis):
        nomes = " ou ".join(ROTULOS_PAPEIS[p] for p in papeis)
        raise AcessoNegado(f"Para {acao} é necessário o papel {nomes}. O usuário {ator.login} não o possui.")


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


def data_obrigatoria(valor: date | None, campo: str, rotulo: str) -> date:
    """A date the form must have, refused when missing, not a plain date or outside 1900–2200."""
    if valor is None:
        raise ErroDominio(f"Informe {rotulo}.", campo)
    if isinstance(valor, datetime) or not isinstance(valor, date):
        raise ErroDominio("Data inválida: use dd/mm/aaaa.", campo)
    if valor < date(1900, 1, 1) or valor > date(2200, 12, 31):
        raise ErroDominio(f"Data fora dos limites: {formatar_data(valor)}.", campo)
    return valor


# The first words of the feminine things a refusal may name ("Linha não encontrada").
_FEMININOS = frozenset(
    {"operadora", "linha", "representação", "revisão", "intimação", "decisão", "multa", "cópia"}
)


def feminino(descricao: str) -> bool:
    """Whether `descricao` ("Linha", "Revisão de prazo", "Veículo") is a feminine noun."""
    primeira = descricao.strip().split(" ", 1)[0].lower()
    return primeira in _FEMININOS


def mensagem_nao_encontrado(descricao: str, ident: object = None) -> str:
    """ "Linha não encontrada (nº 7). Talvez tenha sido removida." — no "nº None" when there is no number."""
    fem = feminino(descricao)
    numero = f" (nº {ident})" if isinstance(ident, int) and not isinstance(ident, bool) and ident > 0 else ""
    final = "a" if fem else "o"
    return f"{descricao} não encontrad{final}{numero}. Talvez tenha sido removid{final} por outro usuário."


def obter_registro(s: so.Session, modelo: Any, ident: int, descricao: str) -> Any:
    """The record `ident` of `modelo`, or the refusal saying another user may have deleted it."""
    registro = s.get(modelo, ident)
    if registro is None:
        raise NaoEncontrado(mensagem_nao_encontrado(descricao, ident))
    return registro
