"""The building blocks every list is made of: the definitions the screens read (columns, status filters,
the search and period filter) and the SQL pieces the lists share (accent-free search words, document
numbers, sort keys, the query of one list). See the package's docstring for how a list is paged and searched."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Literal

import sqlalchemy as sa

from secretaria.db import texto_invalido
from secretaria.lei.catalogo import dispositivos, rotulo_do_codigo
from secretaria.models import DispositivoCatalogo, Operadora
from secretaria.services.base import ErroDominio

TipoColuna = Literal[
    "texto", "nome", "codigo", "documento", "placa", "data", "data_hora", "dinheiro", "numero"
]
"""How a column's values read, for its width: "nome" a long name that takes the room left; "codigo" a short
code or number ("L10", "0001/2026"); "documento" a CNPJ or CPF; "placa" a plate; the others as said."""
Expr = sa.SQLColumnExpression[Any]
Ordem = tuple[str, bool]
"""(column key, ascending)."""


@dataclass(frozen=True)
class Coluna:
    chave: str
    cabecalho: str
    tipo: TipoColuna = "texto"

    @property
    def alinhamento(self) -> Literal["esquerda", "direita", "centro"]:
        if self.tipo in ("dinheiro", "numero"):
            return "direita"
        if self.tipo in ("data", "data_hora"):
            return "centro"
        return "esquerda"


@dataclass(frozen=True)
class OpcaoFiltro:
    """One choice of a list's status filter. Choices of one `grupo` combine with OR, groups with AND
    (vehicles: "ativo" OR "reserva", AND "vistoria vencida")."""

    chave: str
    rotulo: str
    grupo: str


@dataclass(frozen=True)
class DefinicaoLista:
    nome: str
    titulo: str
    colunas: tuple[Coluna, ...]
    filtros: tuple[OpcaoFiltro, ...] = ()
    ordem_padrao: Ordem = ("id", True)
    por_operadora: bool = False
    """Whether `Filtro.operadora_id` applies."""
    periodo: str | None = None
    """Header of the date `Filtro.desde`/`ate` apply to, or None if the list has no period filter."""
    na_hora: bool = False
    """Its SQL compares with the time of the read (`ContextoConsulta.agora`), not only with the day: built
    afresh for each read, where the others are built once a day (`listas._consulta`)."""

    def indice(self, chave: str) -> int:
        """Position of column `chave` in the row tuple (the id is position 0)."""
        for i, coluna in enumerate(self.colunas, start=1):
            if coluna.chave == chave:
                return i
        raise KeyError(chave)

    @property
    def grupos(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.grupo for f in self.filtros))


ETAPAS_AUTO = (
    "multa_aplicada",
    "multa_paga",
    "divida_ativa",
    "intimado",
    "decidido",
    "definitivo",
    "decisao_no_prazo",
    "decisao_atrasada",
    "recurso_tempestivo",
    "recurso_intempestivo",
)
"""What `EtapaAuto.etapa` may say: the steps the Painel's fines, times and deadlines charts count."""


@dataclass(frozen=True)
class EtapaAuto:
    """Autos only: the autos that reached a step of the case, the step's day within `desde`…`ate` (None = any
    day) — what a bar of the Painel's fines, times or deadlines chart counts.

    "multa_aplicada" (decided with a fine, by the decision's day), "multa_paga" (by the payment's day),
    "divida_ativa" (by the inscription's day); "intimado" (the auto delivered), "decidido", "definitivo" (the
    decision final today) — these three of autos not cancelled; "decisao_no_prazo"/"decisao_atrasada" (by the
    decision's day, late when more than `dias_para_decidir` days after the defence deadline);
    "recurso_tempestivo"/"recurso_intempestivo" (by the appeal's filing day)."""

    etapa: str
    desde: date | None = None
    ate: date | None = None
    dias_para_decidir: int | None = None


@dataclass(frozen=True)
class Filtro:
    texto: str = ""
    situacoes: frozenset[str] = field(default_factory=frozenset)
    """Keys of `DefinicaoLista.filtros`; empty = no status filter."""
    operadora_id: int | None = None
    desde: date | None = None
    ate: date | None = None
    usuario: str | None = None
    """Audit log only: the user's login."""
    entidade: str | None = None
    """Audit log only: the kind of record ("operadora", "auto", …)."""
    dispositivo: str | None = None
    """Autos only: the provision cited (its code), e.g. from a bar of the Painel."""
    linha_id: int | None = None
    """Autos only: the line recorded on the auto."""
    etapa: EtapaAuto | None = None
    """Autos only: the autos that reached a step of the case in a period (a bar of the Painel)."""


def opcoes_filtro(grupo: str, rotulos: dict[str, str]) -> tuple[OpcaoFiltro, ...]:
    return tuple(OpcaoFiltro(k, v, grupo) for k, v in rotulos.items())


_COM_ACENTO = "áàâãäåéèêëíìîïóòôõöúùûüçñýÿÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝ"
_SEM_ACENTO = "aaaaaaeeeeiiiiooooouuuucnyyaaaaaaeeeeiiiiooooouuuucny"
_TABELA_ACENTOS = str.maketrans(_COM_ACENTO, _SEM_ACENTO)
# Every character that reads as a given unaccented lower-case letter (for SQLite's GLOB classes).
_VARIANTES = {
    b: "".join(sorted({b, b.upper()} | {a for a, x in zip(_COM_ACENTO, _SEM_ACENTO, strict=True) if x == b}))
    for b in set(_SEM_ACENTO)
}
_NUMERO_PROCESSO = re.compile(r"(\d{1,6})/(\d{4})")
_PONTUACAO_DOCUMENTO = str.maketrans("", "", " .-/")


def sem_acento(texto: str | None) -> str | None:
    return None if texto is None else texto.lower().translate(_TABELA_ACENTOS)


# Limits on what a search box can send, far beyond any real search (one to five words of a few letters) but
# below what the databases take: on SQLite a LIKE or GLOB pattern may be 50,000 bytes, and the GLOB pattern
# turns each letter into a class of its accented forms (up to 24 bytes), so about 2,000 letters; a query of
# thousands of words would pass SQLite's expression depth (1,000) and parameter count. A longer word is
# longer than any name, number or text worth searching a word of, and finds nothing; words past the count
# (distinct ones; they must all match, so repeats add nothing) are not searched.
_LETRAS_POR_PALAVRA = 500
_PALAVRAS_POR_BUSCA = 32


def _palavras_da_busca(texto: str) -> list[str] | None:
    """The words of a search box's text, or None when the search can find nothing (a word too long, or
    holding a lone surrogate).

    Any text a line edit accepts gives a normal result: control characters (NUL, which PostgreSQL refuses in
    a text value, and the others) separate words like spaces; the text is composed (NFC) so an accent typed
    as a combining mark finds the same as the accented letter."""
    limpo = "".join(" " if unicodedata.category(c) == "Cc" else c for c in texto)
    palavras = unicodedata.normalize("NFC", limpo).split()
    if any(len(p) > _LETRAS_POR_PALAVRA for p in palavras):
        return None
    if any(texto_invalido(p) for p in palavras):
        return None  # a lone surrogate: no stored text holds one (`db.TextoInvalido`), so nothing matches
    if len(palavras) > _PALAVRAS_POR_BUSCA:
        palavras = list(dict.fromkeys(palavras))[:_PALAVRAS_POR_BUSCA]
    return palavras


def _escapar_like(texto: str) -> str:
    return texto.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@dataclass(frozen=True)
class ContextoConsulta:
    postgres: bool
    hoje: date
    agora: datetime

    def chave(self, expr: Expr) -> sa.ColumnElement[str]:
        """Lower case without accents: the key text searches and registry sorts compare."""
        if self.postgres:
            return sa.func.translate(sa.func.lower(expr), _COM_ACENTO, _SEM_ACENTO)
        return sa.func.sem_acento(expr, type_=sa.String)

    def contem(self, expr: Expr, palavra: str) -> sa.ColumnElement[bool]:
        """`expr` contains `palavra` (already lower case without accents), ignoring case and accents.

        A plain (I)LIKE first, with "_" where an accent may hide, is native and cheap and leaves the exact
        test only the candidate rows, when the word has a letter no accent can hide ("silva" → "%s_lv_%").
        """
        if self.postgres:
            # translate(lower()) over 200,000 rows costs about 0.4 s; the prefilter skips most of them.
            exato = self.chave(expr).like(f"%{_escapar_like(palavra)}%", escape="\\")
        else:
            # SQLite: GLOB with a character class per letter ("[aAáÁàÀâÂãÃ…]") runs in C and needs no
            # Python function per row (0.1–0.4 s on 200,000 rows, where a normalizing function took 0.8 s).
            exato = expr.op("GLOB", is_comparison=True)(_padrao_glob(palavra))
        curinga = "".join(
            "_" if c in _VARIANTES and len(_VARIANTES[c]) > 2 else _escapar_like(c) for c in palavra
        )
        if not curinga.replace("_", "").replace("\\", ""):
            return exato
        prefiltro = f"%{curinga}%"
        rapido = expr.ilike(prefiltro, escape="\\") if self.postgres else expr.like(prefiltro, escape="\\")
        return sa.and_(rapido, exato)


def _padrao_glob(palavra: str) -> str:
    partes = []
    for c in palavra:
        variantes = _VARIANTES.get(c) or (c + c.upper() if c.upper() != c else c)
        partes.append(f"[{variantes}]" if len(variantes) > 1 or c in "*?[]" else c)
    return f"*{''.join(partes)}*"


def contem_documento(expr: Expr, palavra: str) -> sa.ColumnElement[bool] | None:
    """Match a stored document number (digits and capital letters only) typed with or without punctuation.

    A fragment of letters alone counts from three of them: an alphanumeric CNPJ ("AB.UZO.123/0001-95") is
    found by "AB.UZO" or "ABUZO" as well as by its digits. The stored column holds the compact form, so the
    match is one LIKE in SQL on both databases."""
    compacto = palavra.translate(_PONTUACAO_DOCUMENTO).upper()
    if not compacto or not (compacto.isascii() and compacto.isalnum()):
        return None
    if not any(c.isdigit() for c in compacto) and len(compacto) < 3:
        return None
    return expr.like(f"%{_escapar_like(compacto)}%", escape="\\")


@dataclass(frozen=True)
class ChaveOrdem:
    expr: Expr
    anulavel: bool = False


_TODAS: dict[str, sa.FromClause] = {}


@dataclass
class ConsultaLista:
    """The SQL of one list: `base` is the table counted and filtered; `origem` adds the joins the row needs."""

    definicao: DefinicaoLista
    ctx: ContextoConsulta
    base: sa.Table
    id_: Expr
    origem: sa.FromClause
    campos: Sequence[Expr]
    ordens: dict[str, Sequence[ChaveOrdem]]
    montar_valores: Callable[[Sequence[Any]], tuple[Any, ...]]
    busca: Callable[[str, str], list[sa.ColumnElement[bool]]]
    """(original word, normalized word) → the alternatives one of which must hold."""
    situacoes: dict[str, sa.ColumnElement[bool]] = field(default_factory=dict)
    operadora: Expr | None = None
    periodo: Expr | None = None
    periodo_hora: bool = False
    unicas: frozenset[str] = frozenset()
    """Sort keys that are unique on their own (no id tie-breaker needed)."""
    extras: Callable[[Filtro], list[sa.ColumnElement[bool]]] | None = None
    origens_ordem: dict[str, sa.FromClause] = field(default_factory=lambda: _TODAS)
    """FROM clause each sort key needs (the base table when absent); by default every sort joins `origem`."""
    busca_ids: Callable[[str, str], sa.Select[Any] | None] | None = None
    """For a search of one word, instead of `busca`: (original word, normalized word) → the ids of the
    matching rows, one query (a union of index reads), or None to test the rows with `busca`. Several words
    keep `busca`: their unions, large for common words, intersected cost more than testing the rows."""
    ordens_sondadas: frozenset[str] = frozenset()
    """Sort keys read in order from an index that carries the id: a page under a text search walks that index
    and tests each id against the matching ones, stopping at the page's end, rather than fetching every
    matching row to sort them all."""

    def ids_buscados(self, filtro: Filtro) -> sa.Select[Any] | None:
        """With `busca_ids` and a search of one word: the query of the matching ids, else None."""
        palavras = _palavras_da_busca(filtro.texto)
        if self.busca_ids is None or palavras is None or len(palavras) != 1:
            return None
        return self.busca_ids(palavras[0], sem_acento(palavras[0]) or "")

    def condicoes(  # noqa: C901 (one clause per filter field)
        self, filtro: Filtro, sondar: bool = False, achados: sa.Select[Any] | None = None
    ) -> list[sa.ColumnElement[bool]]:
        """The WHERE clauses of `filtro`. `achados`: the ids of the one-word search already at hand (a CTE
        the caller reads twice), used instead of `ids_buscados`."""
        conds: list[sa.ColumnElement[bool]] = []
        ids = achados if achados is not None else self.ids_buscados(filtro)
        if ids is None:
            pass
        elif not sondar:
            conds.append(self.id_.in_(ids))
        elif self.ctx.postgres:  # under an OR the planner keeps a hashed set, tested along the index
            conds.append(sa.or_(self.id_.in_(ids), self.id_.is_(None)))
        else:  # "+ 0": SQLite does not turn the ids into primary-key lookups, it walks the index
            conds.append((self.id_ + 0).in_(ids))
        palavras = _palavras_da_busca(filtro.texto)
        if palavras is None:
            conds.append(sa.false())
        for original in (palavras or ()) if ids is None else ():
            normal = sem_acento(original) or ""
            alternativas = self.busca(original, normal)
            conds.append(sa.or_(*alternativas) if alternativas else sa.false())
        if filtro.situacoes:
            desconhecidas = filtro.situacoes - self.situacoes.keys()
            if desconhecidas:
                raise ErroDominio(f"Filtro desconhecido: {', '.join(sorted(desconhecidas))}.")
            for grupo in self.definicao.grupos:
                escolhidas = [
                    self.situacoes[f.chave]
                    for f in self.definicao.filtros
                    if f.grupo == grupo and f.chave in filtro.situacoes
                ]
                if escolhidas:
                    conds.append(sa.or_(*escolhidas))
        if filtro.operadora_id is not None and self.operadora is not None:
            conds.append(self.operadora == filtro.operadora_id)
        if self.periodo is not None:
            if self.periodo_hora:
                if filtro.desde is not None:
                    conds.append(self.periodo >= datetime.combine(filtro.desde, datetime.min.time()))
                if filtro.ate is not None:
                    fim = datetime.combine(filtro.ate + timedelta(days=1), datetime.min.time())
                    conds.append(self.periodo < fim)
            else:
                if filtro.desde is not None:
                    conds.append(self.periodo >= filtro.desde)
                if filtro.ate is not None:
                    conds.append(self.periodo <= filtro.ate)
        if self.extras is not None:
            conds.extend(self.extras(filtro))
        return conds

    def ordenacao(self, ordem: Ordem | None, inverter: bool = False) -> tuple[str, list[Expr]]:
        """The ORDER BY of `ordem`; `inverter`: its exact reverse (the blanks a key puts last come first), to
        read the end of a list from its own end."""
        chave, crescente = ordem or self.definicao.ordem_padrao
        if chave not in self.ordens:
            raise ErroDominio(f"Não é possível ordenar a lista {self.definicao.titulo} por “{chave}”.")
        sobe = crescente != inverter
        clausulas: list[Expr] = []
        for k in self.ordens[chave]:
            e = k.expr.asc() if sobe else k.expr.desc()
            if k.anulavel:
                e = e.nulls_first() if inverter else e.nulls_last()
            clausulas.append(e)
        if chave not in self.unicas:
            clausulas.append(self.id_.asc() if sobe else self.id_.desc())
        return chave, clausulas

    def select_ids(
        self,
        filtro: Filtro,
        ordem: Ordem | None,
        achados: sa.Select[Any] | None = None,
        inverter: bool = False,
    ) -> sa.Select[Any]:
        chave, clausulas = self.ordenacao(ordem, inverter)
        origem = self.origens_ordem.get(chave, self.origem if self.origens_ordem is _TODAS else self.base)
        condicoes = self.condicoes(filtro, sondar=chave in self.ordens_sondadas, achados=achados)
        return sa.select(self.id_).select_from(origem).where(*condicoes).order_by(*clausulas)

    def select_linhas(self) -> sa.Select[Any]:
        return sa.select(self.id_, *self.campos).select_from(self.origem)

    def select(self, filtro: Filtro, ordem: Ordem | None) -> sa.Select[Any]:
        """Everything in one query (for the export, which streams every row anyway)."""
        _chave, clausulas = self.ordenacao(ordem)
        return self.select_linhas().where(*self.condicoes(filtro)).order_by(*clausulas)

    def montar(self, linha: Sequence[Any]) -> tuple[Any, ...]:
        return (linha[0], *self.montar_valores(linha[1:]))


def nome_operadora(o: Any = Operadora) -> sa.ColumnElement[str]:
    """What lists call an operator: its trade name, or the company name when it has none."""
    return sa.func.coalesce(sa.func.nullif(o.nome_fantasia, ""), o.razao_social)


def operadoras_que_contem(ctx: ContextoConsulta, palavra: str) -> sa.Select[Any]:
    """Operator ids whose names contain the word: a subquery over the small table, not a join."""
    return sa.select(Operadora.id).where(
        sa.or_(ctx.contem(Operadora.razao_social, palavra), ctx.contem(Operadora.nome_fantasia, palavra))
    )


def ordem_natural(expr: Expr) -> list[ChaveOrdem]:
    """Fleet numbers and line codes: "850" before "1001" (shorter first, then by text)."""
    return [ChaveOrdem(sa.func.length(expr)), ChaveOrdem(expr)]


def ordem_dispositivo(codigo: Expr, anulavel: bool = False) -> list[ChaveOrdem]:
    """The law's order (Art. 1º, I … Art. 6º, V), then contractual provisions by code; blanks last."""
    posicoes = {dp.codigo: i for i, dp in enumerate(dispositivos())}
    posicao: Expr = sa.case(posicoes, value=codigo, else_=len(posicoes))
    if anulavel:
        posicao = sa.case((codigo.is_(None), sa.null()), else_=posicao)
    return [ChaveOrdem(posicao, anulavel), ChaveOrdem(codigo, anulavel)]


def rotulo_do_dispositivo(codigo: str | None, rotulo_catalogo: str | None) -> str:
    if rotulo_catalogo:
        return rotulo_catalogo
    if not codigo:
        return ""
    try:
        return rotulo_do_codigo(codigo)
    except ValueError:
        return codigo


def dispositivos_que_contem(ctx: ContextoConsulta, original: str, palavra: str) -> sa.Select[Any]:
    dc = DispositivoCatalogo
    return sa.select(dc.codigo).where(
        sa.or_(dc.codigo.ilike(_escapar_like(original), escape="\\"), ctx.contem(dc.rotulo, palavra))
    )


def busca_numero(original: str, ano: Expr, numero: Expr) -> sa.ColumnElement[bool] | None:
    """ "0001/2026" → that number of that year; "17" → number 17 of any year."""
    m = _NUMERO_PROCESSO.fullmatch(original)
    if m:
        return sa.and_(numero == int(m.group(1)), ano == int(m.group(2)))
    if original.isdigit() and len(original) <= 6:
        return numero == int(original)
    return None
