"""The data behind every list screen, for a lazy table model over up to 200,000 rows.

Each list (``LISTAS``) declares its columns and its status filters; ``contar`` and ``pagina`` run SQL
queries with the search, the filters and the sort done by the database. Nothing here loads a whole
table: a QSortFilterProxyModel over 100,000 loaded rows took 23 s to sort; an indexed ORDER BY … LIMIT
takes milliseconds.

Rows are tuples ``(id, valor_1, …, valor_n)``: the record id first, then one value per column of the
definition, in order. Values are display-ready text for text columns (formatted CNPJ, plate, labels in
Portuguese) and typed for the others (``date``, ``datetime``, ``int``, ``Decimal``) so the table can align
them and the spreadsheet can keep them as dates and numbers; ``rotulos.formatar_valor`` renders any of them.

Paging is by OFFSET, on purpose: a windowed table model asks for "rows 150,000 to 150,200" when the user
drags the scroll bar, and keyset paging cannot jump there. A page is two queries: the sorted window of ids
(joining only what the sort key needs, so the database sorts ids, not whole rows), then those rows with
their joins. Every ORDER BY ends with the record id (unless the sort key is already unique), so pages never
overlap or skip rows. Near the top OFFSET costs nothing; deep in 200,000 autos it costs a walk along the
index (about 20 ms on the default sort, measured on SQLite and PostgreSQL).

Search: the text is split into words and every word must match some searched column, ignoring case and
accents ("viacao" finds "Viação"). PostgreSQL compares ``translate(lower(col))``; SQLite uses GLOB with a
character class per letter. Both first try a plain LIKE with "_" where an accent may hide, which skips most
rows cheaply. Numbers like "0001/2026" find autos and representações by number (one index lookup);
documents (CNPJ, CPF, plate, RENAVAM) match with or without punctuation, and a plate in either form finds
the vehicle registered with the other.

Text sorts on the registries compare the same accent-free lower-case key (so "Água" sorts with the A's;
on SQLite through a small function registered on the connection); on the big lists (autos, audit log) the
joined names sort by the stored text.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any, Literal

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.lei.catalogo import dispositivos, rotulo_do_codigo
from secretaria.lei.documentos import DocumentoInvalido, chave_placa
from secretaria.lei.urm import urm_para_reais
from secretaria.models import (
    Auditoria,
    AutoInfracao,
    Decisao,
    DispositivoCatalogo,
    Empregado,
    Fiscal,
    Linha,
    Operadora,
    Representacao,
    Suspensao,
    Usuario,
    UsuarioPapel,
    Veiculo,
)
from secretaria.services.base import ErroDominio
from secretaria.services.rotulos import (
    DELEGACOES,
    FASES,
    FUNCOES,
    ROTULOS_PAPEIS,
    SITUACOES_OPERADORA,
    SITUACOES_REPRESENTACAO,
    SITUACOES_VEICULO,
    formatar_cnpj,
    formatar_cpf,
    formatar_data,
    formatar_numero_processo,
    formatar_placa,
    rotulo,
    rotulo_acao,
)

__all__ = [
    "LISTAS",
    "Coluna",
    "DefinicaoLista",
    "Filtro",
    "OpcaoFiltro",
    "contar",
    "definicao",
    "destaque",
    "exportar_linhas",
    "pagina",
    "situacao_operadora_sql",
]

TipoColuna = Literal["texto", "data", "data_hora", "dinheiro", "numero"]
Expr = sa.SQLColumnExpression[Any]
Ordem = tuple[str, bool]
"""(column key, ascending)."""


# -- the definitions the screens read -------------------------------------------------------------


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

    def indice(self, chave: str) -> int:
        """Position of column `chave` in the row tuple (the id is position 0)."""
        for i, coluna in enumerate(self.colunas, start=1):
            if coluna.chave == chave:
                return i
        raise KeyError(chave)

    @property
    def grupos(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.grupo for f in self.filtros))


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


def _f(grupo: str, rotulos: dict[str, str]) -> tuple[OpcaoFiltro, ...]:
    return tuple(OpcaoFiltro(k, v, grupo) for k, v in rotulos.items())


LISTAS: dict[str, DefinicaoLista] = {
    d.nome: d
    for d in (
        DefinicaoLista(
            "operadoras",
            "Operadoras",
            (
                Coluna("razao_social", "Razão social"),
                Coluna("nome_fantasia", "Nome fantasia"),
                Coluna("cnpj", "CNPJ"),
                Coluna("delegacao", "Delegação"),
                Coluna("situacao", "Situação"),
                Coluna("contrato_numero", "Contrato/permissão"),
                Coluna("contrato_fim", "Vigente até", "data"),
                Coluna("veiculos", "Veículos", "numero"),
            ),
            _f("situacao", SITUACOES_OPERADORA) + _f("delegacao", DELEGACOES),
            ("razao_social", True),
        ),
        DefinicaoLista(
            "linhas",
            "Linhas",
            (
                Coluna("codigo", "Código"),
                Coluna("nome", "Nome"),
                Coluna("operadora", "Operadora"),
                Coluna("situacao", "Situação"),
                Coluna("veiculos", "Veículos", "numero"),
            ),
            _f("situacao", {"ativa": "Ativa", "inativa": "Inativa"}),
            ("codigo", True),
            por_operadora=True,
        ),
        DefinicaoLista(
            "veiculos",
            "Veículos",
            (
                Coluna("prefixo", "Prefixo"),
                Coluna("placa", "Placa"),
                Coluna("operadora", "Operadora"),
                Coluna("linha", "Linha"),
                Coluna("marca_modelo", "Marca/modelo"),
                Coluna("ano_fabricacao", "Ano", "numero"),
                Coluna("lotacao", "Lotação", "numero"),
                Coluna("vistoria_validade", "Vistoria até", "data"),
                Coluna("licenca_validade", "Licença até", "data"),
                Coluna("situacao", "Situação"),
            ),
            _f("situacao", SITUACOES_VEICULO)
            + _f(
                "documentos",
                {"vistoria_vencida": "Vistoria vencida", "licenca_vencida": "Licença vencida"},
            ),
            ("prefixo", True),
            por_operadora=True,
        ),
        DefinicaoLista(
            "empregados",
            "Empregados e agentes",
            (
                Coluna("nome", "Nome"),
                Coluna("cpf", "CPF"),
                Coluna("funcao", "Função"),
                Coluna("operadora", "Operadora"),
                Coluna("carteira_cadastro", "Carteira de cadastro"),
                Coluna("admissao", "Admissão", "data"),
                Coluna("demissao", "Demissão", "data"),
            ),
            _f("funcao", FUNCOES) + _f("vinculo", {"em_atividade": "Em atividade", "desligado": "Desligado"}),
            ("nome", True),
            por_operadora=True,
        ),
        DefinicaoLista(
            "fiscais",
            "Fiscais da SMSU",
            (
                Coluna("nome", "Nome"),
                Coluna("matricula", "Matrícula"),
                Coluna("situacao", "Situação"),
                Coluna("usuario", "Usuário do sistema"),
            ),
            _f("situacao", {"ativo": "Ativo", "inativo": "Inativo"}),
            ("nome", True),
        ),
        DefinicaoLista(
            "autos",
            "Autos de infração",
            (
                Coluna("numero", "Número"),
                Coluna("data_infracao", "Data da infração", "data"),
                Coluna("operadora", "Operadora"),
                Coluna("dispositivo", "Dispositivo"),
                Coluna("tipo", "Tipo"),
                Coluna("veiculo", "Veículo"),
                Coluna("fase", "Fase"),
                Coluna("multa_urm", "Multa (URM)", "numero"),
                Coluna("multa_reais", "Multa (R$)", "dinheiro"),
            ),
            _f("fase", FASES) + _f("tipo", {t: f"Tipo {t}" for t in "ABCDE"}),
            ("numero", False),
            por_operadora=True,
            periodo="Data da infração",
        ),
        DefinicaoLista(
            "representacoes",
            "Representações",
            (
                Coluna("numero", "Número"),
                Coluna("recebida_em", "Recebida em", "data"),
                Coluna("peticionario", "Peticionário"),
                Coluna("operadora", "Operadora"),
                Coluna("dispositivo", "Dispositivo"),
                Coluna("situacao", "Situação"),
            ),
            _f("situacao", SITUACOES_REPRESENTACAO),
            ("numero", False),
            por_operadora=True,
            periodo="Recebida em",
        ),
        DefinicaoLista(
            "usuarios",
            "Usuários",
            (
                Coluna("login", "Login"),
                Coluna("nome", "Nome"),
                Coluna("papeis", "Papéis"),
                Coluna("situacao", "Situação"),
                Coluna("ultimo_acesso", "Último acesso", "data_hora"),
            ),
            _f("situacao", {"ativo": "Ativo", "inativo": "Inativo", "bloqueado": "Bloqueado"}),
            ("login", True),
        ),
        DefinicaoLista(
            "auditoria",
            "Registro de auditoria",
            (
                Coluna("id", "Nº", "numero"),
                Coluna("momento", "Data e hora", "data_hora"),
                Coluna("usuario", "Usuário"),
                Coluna("acao", "Ação"),
                Coluna("entidade", "Registro"),
                Coluna("entidade_id", "Identificador"),
            ),
            (),
            ("id", False),
            periodo="Data e hora",
        ),
    )
}


def definicao(lista: str) -> DefinicaoLista:
    try:
        return LISTAS[lista]
    except KeyError:
        raise ErroDominio(f"Lista desconhecida: {lista}.") from None


# -- public queries -------------------------------------------------------------------------------


def contar(sessao: so.Session, lista: str, filtro: Filtro | None = None) -> int:
    """How many rows match `filtro` (the table model's rowCount)."""
    consulta = _consulta(sessao, lista)
    filtro = filtro or Filtro()
    ids = consulta.ids_buscados(filtro)
    if ids is not None and not consulta.condicoes(replace(filtro, texto="")):
        # Only a text search: count the matching ids themselves (distinct: an operator's name typed as the
        # infractor is found twice), without reading the rows.
        distintos = sa.select(ids.subquery().c[0]).distinct().subquery()
        return int(sessao.execute(sa.select(sa.func.count()).select_from(distintos)).scalar_one())
    stmt = sa.select(sa.func.count()).select_from(consulta.base).where(*consulta.condicoes(filtro))
    return int(sessao.execute(stmt).scalar_one())


def pagina(
    sessao: so.Session,
    lista: str,
    filtro: Filtro | None = None,
    ordem: Ordem | None = None,
    inicio: int = 0,
    quantidade: int = 200,
) -> list[tuple[Any, ...]]:
    """Rows `inicio` … `inicio + quantidade - 1` of the list under `filtro`, sorted by `ordem`."""
    if inicio < 0 or quantidade < 0:
        raise ValueError("início e quantidade não podem ser negativos")
    consulta = _consulta(sessao, lista)
    # Two steps: the sorted window of ids, joining only what the sort key needs (the sorter then carries
    # ids, not whole rows: 0.65 s → 0.05 s for 200,000 autos sorted by phase); then those rows, joined.
    ids = list(
        sessao.scalars(consulta.select_ids(filtro or Filtro(), ordem).offset(inicio).limit(quantidade))
    )
    if not ids:
        return []
    linhas = {r[0]: r for r in sessao.execute(consulta.select_linhas().where(consulta.id_.in_(ids)))}
    return [consulta.montar(linhas[i]) for i in ids if i in linhas]


def exportar_linhas(
    sessao: so.Session, lista: str, filtro: Filtro | None = None, ordem: Ordem | None = None
) -> Iterator[tuple[Any, ...]]:
    """Every matching row, in order, streamed from the database (for "Exportar para Excel")."""
    consulta = _consulta(sessao, lista)
    stmt = consulta.select(filtro or Filtro(), ordem)
    resultado = sessao.execute(stmt.execution_options(yield_per=1000))
    try:
        for r in resultado:
            yield consulta.montar(r)
    finally:
        resultado.close()


def destaque(lista: str, linha: Sequence[Any], hoje: date | None = None) -> str | None:
    """How a row should stand out: "alerta" (red: expired, suspended, cassada), "apagado" (grey: inactive,
    cancelled, filed), or None. Read from the row's own values, so it costs no query."""
    d = definicao(lista)
    dia = hoje or relogio.hoje()

    def valor(chave: str) -> Any:
        return linha[d.indice(chave)]

    if lista == "operadoras":
        situacao = str(valor("situacao"))
        return "alerta" if situacao.startswith(("Suspensa", "Cassada")) else None
    if lista == "veiculos":
        if valor("situacao") == SITUACOES_VEICULO["baixado"]:
            return "apagado"
        vencidas = [v for v in (valor("vistoria_validade"), valor("licenca_validade")) if v is not None]
        return "alerta" if any(v < dia for v in vencidas) else None
    if lista == "empregados":
        demissao = valor("demissao")
        return "apagado" if demissao is not None and demissao <= dia else None
    if lista in ("fiscais", "linhas"):
        return "apagado" if str(valor("situacao")).startswith("Inativ") else None
    if lista == "autos":
        return "apagado" if valor("fase") == FASES["cancelado"] else None
    if lista == "representacoes":
        return "apagado" if valor("situacao") == SITUACOES_REPRESENTACAO["arquivada"] else None
    if lista == "usuarios":
        situacao = str(valor("situacao"))
        if situacao.startswith("Bloqueado"):
            return "alerta"
        return "apagado" if situacao == "Inativo" else None
    return None


def situacao_operadora_sql(hoje: date) -> sa.ColumnElement[str]:
    """The operator's status as of `hoje` as an SQL expression over `operadora` ("ativa", "suspensa",
    "cassada"), the same rule as `services.execucao.situacao_operadora`: cassada from the day the cassação
    was decided, suspensa on the days of a final, not annulled suspension, ativa otherwise. Never typed by
    hand; the list filters and sorts on it."""
    cassada = sa.and_(Operadora.cassada_em.is_not(None), Operadora.cassada_em <= hoje)
    return sa.case((cassada, "cassada"), (_suspensa_em(hoje), "suspensa"), else_="ativa")


def _suspensa_em(hoje: date) -> sa.ColumnElement[bool]:
    return sa.exists().where(
        Suspensao.operadora_id == Operadora.id,
        Suspensao.anulada.is_(False),
        Suspensao.inicio <= hoje,
        Suspensao.fim >= hoje,
    )


# -- the SQL behind each list ---------------------------------------------------------------------

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


def _sem_acento(texto: str | None) -> str | None:
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
    """The words of a search box's text, or None when the search can find nothing (a word too long).

    Any text a line edit accepts gives a normal result: control characters (NUL, which PostgreSQL refuses in
    a text value, and the others) separate words like spaces; the text is composed (NFC) so an accent typed
    as a combining mark finds the same as the accented letter."""
    limpo = "".join(" " if unicodedata.category(c) == "Cc" else c for c in texto)
    palavras = unicodedata.normalize("NFC", limpo).split()
    if any(len(p) > _LETRAS_POR_PALAVRA for p in palavras):
        return None
    if len(palavras) > _PALAVRAS_POR_BUSCA:
        palavras = list(dict.fromkeys(palavras))[:_PALAVRAS_POR_BUSCA]
    return palavras


def _escapar_like(texto: str) -> str:
    return texto.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@dataclass(frozen=True)
class _Contexto:
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


def _contem_documento(expr: Expr, palavra: str) -> sa.ColumnElement[bool] | None:
    """Match a stored document number (digits and capital letters only) typed with or without punctuation."""
    compacto = palavra.translate(_PONTUACAO_DOCUMENTO).upper()
    if not compacto or not any(c.isdigit() for c in compacto):
        return None
    return expr.like(f"%{_escapar_like(compacto)}%", escape="\\")


@dataclass(frozen=True)
class _Chave:
    expr: Expr
    anulavel: bool = False


_TODAS: dict[str, sa.FromClause] = {}


@dataclass
class _Consulta:
    """The SQL of one list: `base` is the table counted and filtered; `origem` adds the joins the row needs."""

    definicao: DefinicaoLista
    ctx: _Contexto
    base: sa.Table
    id_: Expr
    origem: sa.FromClause
    campos: Sequence[Expr]
    ordens: dict[str, Sequence[_Chave]]
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
        return self.busca_ids(palavras[0], _sem_acento(palavras[0]) or "")

    def condicoes(  # noqa: C901 (one clause per filter field; issue 11 point 6 splits listas)
        self, filtro: Filtro, sondar: bool = False
    ) -> list[sa.ColumnElement[bool]]:
        conds: list[sa.ColumnElement[bool]] = []
        ids = self.ids_buscados(filtro)
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
            normal = _sem_acento(original) or ""
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

    def ordenacao(self, ordem: Ordem | None) -> tuple[str, list[Expr]]:
        chave, crescente = ordem or self.definicao.ordem_padrao
        if chave not in self.ordens:
            raise ErroDominio(f"Não é possível ordenar a lista {self.definicao.titulo} por “{chave}”.")
        clausulas: list[Expr] = []
        for k in self.ordens[chave]:
            e = k.expr.asc() if crescente else k.expr.desc()
            clausulas.append(e.nulls_last() if k.anulavel else e)
        if chave not in self.unicas:
            clausulas.append(self.id_.asc() if crescente else self.id_.desc())
        return chave, clausulas

    def select_ids(self, filtro: Filtro, ordem: Ordem | None) -> sa.Select[Any]:
        chave, clausulas = self.ordenacao(ordem)
        origem = self.origens_ordem.get(chave, self.origem if self.origens_ordem is _TODAS else self.base)
        condicoes = self.condicoes(filtro, sondar=chave in self.ordens_sondadas)
        return sa.select(self.id_).select_from(origem).where(*condicoes).order_by(*clausulas)

    def select_linhas(self) -> sa.Select[Any]:
        return sa.select(self.id_, *self.campos).select_from(self.origem)

    def select(self, filtro: Filtro, ordem: Ordem | None) -> sa.Select[Any]:
        """Everything in one query (for the export, which streams every row anyway)."""
        _chave, clausulas = self.ordenacao(ordem)
        return self.select_linhas().where(*self.condicoes(filtro)).order_by(*clausulas)

    def montar(self, linha: Sequence[Any]) -> tuple[Any, ...]:
        return (linha[0], *self.montar_valores(linha[1:]))


def _consulta(sessao: so.Session, lista: str) -> _Consulta:
    d = definicao(lista)
    conexao = sessao.connection()
    postgres = conexao.dialect.name == "postgresql"
    if not postgres:
        bruta: Any = conexao.connection.driver_connection
        bruta.create_function("sem_acento", 1, _sem_acento, deterministic=True)
    ctx = _Contexto(postgres=postgres, hoje=relogio.hoje(), agora=relogio.agora())
    return _CONSTRUTORES[lista](d, ctx)


def _nome_operadora(o: Any = Operadora) -> sa.ColumnElement[str]:
    """What lists call an operator: its trade name, or the company name when it has none."""
    return sa.func.coalesce(sa.func.nullif(o.nome_fantasia, ""), o.razao_social)


def _operadoras_que_contem(ctx: _Contexto, palavra: str) -> sa.Select[Any]:
    """Operator ids whose names contain the word: a subquery over the small table, not a join."""
    return sa.select(Operadora.id).where(
        sa.or_(ctx.contem(Operadora.razao_social, palavra), ctx.contem(Operadora.nome_fantasia, palavra))
    )


def _natural(expr: Expr) -> list[_Chave]:
    """Fleet numbers and line codes: "850" before "1001" (shorter first, then by text)."""
    return [_Chave(sa.func.length(expr)), _Chave(expr)]


def _operadoras(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
    o = Operadora
    situacao = situacao_operadora_sql(ctx.hoje)
    suspensa_ate = (
        sa.select(sa.func.max(Suspensao.fim))
        .where(
            Suspensao.operadora_id == o.id,
            Suspensao.anulada.is_(False),
            Suspensao.inicio <= ctx.hoje,
            Suspensao.fim >= ctx.hoje,
        )
        .scalar_subquery()
    )
    veiculos = (
        sa.select(sa.func.count(Veiculo.id))
        .where(Veiculo.operadora_id == o.id, Veiculo.situacao != "baixado")
        .scalar_subquery()
    )
    ordem_situacao = sa.case({"ativa": 0, "suspensa": 1, "cassada": 2}, value=situacao)

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        razao, fantasia, cnpj, delegacao, sit, ate, contrato, fim, n = r
        texto_sit = rotulo(SITUACOES_OPERADORA, sit)
        if sit == "suspensa" and ate is not None:
            texto_sit = f"Suspensa até {formatar_data(ate)}"
        return (
            razao,
            fantasia,
            formatar_cnpj(cnpj),
            rotulo(DELEGACOES, delegacao),
            texto_sit,
            contrato,
            fim,
            n,
        )

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        alternativas = [
            ctx.contem(o.razao_social, palavra),
            ctx.contem(o.nome_fantasia, palavra),
            ctx.contem(o.representante_nome, palavra),
            ctx.contem(o.contrato_numero, palavra),
        ]
        doc = _contem_documento(o.cnpj, original)
        return [*alternativas, doc] if doc is not None else alternativas

    return _Consulta(
        d,
        ctx,
        base=o.__table__,  # type: ignore[arg-type]
        id_=o.id,
        origem=o.__table__,
        campos=(
            o.razao_social,
            o.nome_fantasia,
            o.cnpj,
            o.delegacao,
            situacao,
            suspensa_ate,
            o.contrato_numero,
            o.contrato_fim,
            veiculos,
        ),
        ordens={
            "razao_social": [_Chave(ctx.chave(o.razao_social))],
            "nome_fantasia": [_Chave(ctx.chave(o.nome_fantasia))],
            "cnpj": [_Chave(o.cnpj)],
            "delegacao": [_Chave(o.delegacao)],
            "situacao": [_Chave(ordem_situacao), _Chave(suspensa_ate, True)],
            "contrato_numero": [_Chave(ctx.chave(o.contrato_numero))],
            "contrato_fim": [_Chave(o.contrato_fim, True)],
            "veiculos": [_Chave(veiculos)],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={
            **{k: situacao == k for k in SITUACOES_OPERADORA},
            **{k: o.delegacao == k for k in DELEGACOES},
        },
        unicas=frozenset({"cnpj"}),
    )


def _linhas(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
    li, o = Linha, Operadora
    veiculos = (
        sa.select(sa.func.count(Veiculo.id))
        .where(Veiculo.linha_id == li.id, Veiculo.situacao != "baixado")
        .scalar_subquery()
    )

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        codigo, nome, operadora, ativa, n = r
        return (codigo, nome, operadora, "Ativa" if ativa else "Inativa", n)

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        return [
            ctx.contem(li.codigo, palavra),
            ctx.contem(li.nome, palavra),
            ctx.contem(li.itinerario, palavra),
            li.operadora_id.in_(_operadoras_que_contem(ctx, palavra)),
        ]

    return _Consulta(
        d,
        ctx,
        base=li.__table__,  # type: ignore[arg-type]
        id_=li.id,
        origem=sa.join(li, o, li.operadora_id == o.id),
        campos=(li.codigo, li.nome, _nome_operadora(), li.ativa, veiculos),
        ordens={
            "codigo": _natural(li.codigo),
            "nome": [_Chave(ctx.chave(li.nome))],
            "operadora": [_Chave(ctx.chave(_nome_operadora()))],
            "situacao": [_Chave(sa.not_(li.ativa))],
            "veiculos": [_Chave(veiculos)],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={"ativa": li.ativa.is_(True), "inativa": li.ativa.is_(False)},
        operadora=li.operadora_id,
    )


def _veiculos(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
    v, o, li = Veiculo, Operadora, Linha
    lotacao = v.lugares_sentados + v.lugares_em_pe

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        prefixo, placa, operadora, linha, modelo, ano, lot, vistoria, licenca, situacao = r
        return (
            prefixo,
            formatar_placa(placa),
            operadora,
            linha or "",
            modelo,
            ano,
            lot,
            vistoria,
            licenca,
            rotulo(SITUACOES_VEICULO, situacao),
        )

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        alternativas: list[sa.ColumnElement[bool]] = [
            ctx.contem(v.prefixo, palavra),
            ctx.contem(v.marca_modelo, palavra),
            v.operadora_id.in_(_operadoras_que_contem(ctx, palavra)),
            v.linha_id.in_(
                sa.select(li.id).where(sa.or_(ctx.contem(li.codigo, palavra), ctx.contem(li.nome, palavra)))
            ),
        ]
        for coluna in (v.placa, v.renavam):
            doc = _contem_documento(coluna, original)
            if doc is not None:
                alternativas.append(doc)
        with contextlib.suppress(DocumentoInvalido):
            alternativas.append(v.placa_chave == chave_placa(original))
        return alternativas

    return _Consulta(
        d,
        ctx,
        base=v.__table__,  # type: ignore[arg-type]
        id_=v.id,
        origem=sa.join(v, o, v.operadora_id == o.id).outerjoin(li, v.linha_id == li.id),
        campos=(
            v.prefixo,
            v.placa,
            _nome_operadora(),
            li.codigo,
            v.marca_modelo,
            v.ano_fabricacao,
            lotacao,
            v.vistoria_validade,
            v.licenca_validade,
            v.situacao,
        ),
        ordens={
            "prefixo": _natural(v.prefixo),
            "placa": [_Chave(v.placa)],
            "operadora": [_Chave(ctx.chave(_nome_operadora()))],
            "linha": [_Chave(sa.func.length(li.codigo), True), _Chave(li.codigo, True)],
            "marca_modelo": [_Chave(ctx.chave(v.marca_modelo))],
            "ano_fabricacao": [_Chave(v.ano_fabricacao, True)],
            "lotacao": [_Chave(lotacao)],
            "vistoria_validade": [_Chave(v.vistoria_validade, True)],
            "licenca_validade": [_Chave(v.licenca_validade, True)],
            "situacao": [_Chave(sa.case({"ativo": 0, "reserva": 1, "baixado": 2}, value=v.situacao))],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={
            **{k: v.situacao == k for k in SITUACOES_VEICULO},
            "vistoria_vencida": v.vistoria_validade < ctx.hoje,
            "licenca_vencida": v.licenca_validade < ctx.hoje,
        },
        operadora=v.operadora_id,
        unicas=frozenset({"placa"}),
    )


def _empregados(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
    e, o = Empregado, Operadora

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        nome, cpf, funcao, operadora, carteira, admissao, demissao = r
        return (nome, formatar_cpf(cpf), rotulo(FUNCOES, funcao), operadora, carteira, admissao, demissao)

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        alternativas = [
            ctx.contem(e.nome, palavra),
            ctx.contem(e.carteira_cadastro, palavra),
            e.operadora_id.in_(_operadoras_que_contem(ctx, palavra)),
        ]
        doc = _contem_documento(e.cpf, original)
        return [*alternativas, doc] if doc is not None else alternativas

    return _Consulta(
        d,
        ctx,
        base=e.__table__,  # type: ignore[arg-type]
        id_=e.id,
        origem=sa.join(e, o, e.operadora_id == o.id),
        campos=(e.nome, e.cpf, e.funcao, _nome_operadora(), e.carteira_cadastro, e.admissao, e.demissao),
        ordens={
            "nome": [_Chave(ctx.chave(e.nome))],
            "cpf": [_Chave(e.cpf)],
            "funcao": [_Chave(sa.case({k: i for i, k in enumerate(FUNCOES)}, value=e.funcao))],
            "operadora": [_Chave(ctx.chave(_nome_operadora()))],
            "carteira_cadastro": [_Chave(e.carteira_cadastro)],
            "admissao": [_Chave(e.admissao, True)],
            "demissao": [_Chave(e.demissao, True)],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={
            **{k: e.funcao == k for k in FUNCOES},
            "em_atividade": sa.or_(e.demissao.is_(None), e.demissao > ctx.hoje),
            "desligado": e.demissao <= ctx.hoje,
        },
        operadora=e.operadora_id,
    )


def _fiscais(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
    f, u = Fiscal, Usuario

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        nome, matricula, ativo, login = r
        return (nome, matricula, "Ativo" if ativo else "Inativo", login or "")

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        return [ctx.contem(f.nome, palavra), ctx.contem(f.matricula, palavra)]

    return _Consulta(
        d,
        ctx,
        base=f.__table__,  # type: ignore[arg-type]
        id_=f.id,
        origem=sa.outerjoin(f, u, f.usuario_id == u.id),
        campos=(f.nome, f.matricula, f.ativo, u.login),
        ordens={
            "nome": [_Chave(ctx.chave(f.nome))],
            "matricula": _natural(f.matricula),
            "situacao": [_Chave(sa.not_(f.ativo))],
            "usuario": [_Chave(u.login, True)],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={"ativo": f.ativo.is_(True), "inativo": f.ativo.is_(False)},
    )


def _ordem_dispositivo(codigo: Expr, anulavel: bool = False) -> list[_Chave]:
    """The law's order (Art. 1º, I … Art. 6º, V), then contractual provisions by code; blanks last."""
    posicoes = {dp.codigo: i for i, dp in enumerate(dispositivos())}
    posicao: Expr = sa.case(posicoes, value=codigo, else_=len(posicoes))
    if anulavel:
        posicao = sa.case((codigo.is_(None), sa.null()), else_=posicao)
    return [_Chave(posicao, anulavel), _Chave(codigo, anulavel)]


def _rotulo_dispositivo(codigo: str | None, rotulo_catalogo: str | None) -> str:
    if rotulo_catalogo:
        return rotulo_catalogo
    if not codigo:
        return ""
    try:
        return rotulo_do_codigo(codigo)
    except ValueError:
        return codigo


def _dispositivos_que_contem(ctx: _Contexto, original: str, palavra: str) -> sa.Select[Any]:
    dc = DispositivoCatalogo
    return sa.select(dc.codigo).where(
        sa.or_(dc.codigo.ilike(_escapar_like(original), escape="\\"), ctx.contem(dc.rotulo, palavra))
    )


def _busca_numero(original: str, ano: Expr, numero: Expr) -> sa.ColumnElement[bool] | None:
    """ "0001/2026" → that number of that year; "17" → number 17 of any year."""
    m = _NUMERO_PROCESSO.fullmatch(original)
    if m:
        return sa.and_(numero == int(m.group(1)), ano == int(m.group(2)))
    if original.isdigit() and len(original) <= 6:
        return numero == int(original)
    return None


def _nomes_distintos(coluna: Any) -> sa.CTE:
    """The distinct values of an indexed text column, one index seek each (a "loose index scan").

    The names typed as the infractor are few (mostly the operators' names) though the autos are many: the
    search tests the names, then reads the autos of the matching ones from the index.
    """
    tabela = coluna.table
    nomes = sa.select(sa.func.min(coluna).label("nome")).cte("nomes_distintos", recursive=True)
    outra = tabela.alias("seguinte")
    proximo = (
        sa.select(sa.func.min(outra.c[coluna.key]))
        .where(outra.c[coluna.key] > nomes.c.nome)
        .scalar_subquery()
    )
    return nomes.union_all(sa.select(proximo).where(nomes.c.nome.is_not(None)))


def _autos(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
    a, o, dc, v, dec = AutoInfracao, Operadora, DispositivoCatalogo, Veiculo, Decisao
    tem_multa = sa.and_(a.data_decisao.is_not(None), a.penalidade_anulada.is_(False), a.multa_ur > 0)
    multa_urm = sa.case((tem_multa, a.multa_ur), else_=None)
    multa_reais = sa.case((tem_multa, a.multa_ur * dec.valor_urm), else_=None)

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        ano, numero, data, operadora, codigo, rot, tipo, prefixo, placa, fase, urm, valor_urm = r
        veiculo = f"{prefixo} / {formatar_placa(placa)}" if prefixo is not None else ""
        reais = urm_para_reais(urm, valor_urm) if urm is not None and valor_urm is not None else None
        return (
            formatar_numero_processo(numero, ano),
            data,
            operadora,
            _rotulo_dispositivo(codigo, rot),
            tipo or "",
            veiculo,
            rotulo(FASES, fase),
            urm,
            reais,
        )

    nomes_infratores = _nomes_distintos(a.infrator_nome)

    def _veiculos_que_contem(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        veiculos = [ctx.contem(v.prefixo, palavra)]
        doc = _contem_documento(v.placa, original)
        if doc is not None:
            veiculos.append(doc)
        with contextlib.suppress(DocumentoInvalido):
            veiculos.append(v.placa_chave == chave_placa(original))
        return veiculos

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        """Tested row by row: for a number, and for searches of several words (see `busca_ids`)."""
        numero = _busca_numero(original, a.ano, a.numero)
        if numero is not None and not original.isdigit():
            return [numero]  # "0001/2026" is a number and nothing else: one index lookup
        veiculos = a.veiculo_id.in_(sa.select(v.id).where(sa.or_(*_veiculos_que_contem(original, palavra))))
        alternativas: list[sa.ColumnElement[bool]] = [
            a.operadora_id.in_(_operadoras_que_contem(ctx, palavra)),
            a.dispositivo_codigo.in_(_dispositivos_que_contem(ctx, original, palavra)),
            ctx.contem(a.infrator_nome, palavra),
            veiculos,
        ]
        if numero is not None:
            alternativas.insert(0, numero)
        return alternativas

    def busca_ids(original: str, palavra: str) -> sa.Select[Any] | None:
        numero = _busca_numero(original, a.ano, a.numero)
        if numero is not None and not original.isdigit():
            return None  # "0001/2026" is a number and nothing else: one index lookup, row by row
        # Each alternative reads one index and their ids are united: one OR over the wide auto rows scanned all
        # of them (0.2–0.8 s for 200,000). The indexes: `ix_auto_recidiva` (operator), `ix_auto_dispositivo`,
        # the vehicle's, `ix_auto_infrator` (through the few distinct names, see `_nomes_distintos`).
        nomes = sa.select(nomes_infratores.c.nome).where(ctx.contem(nomes_infratores.c.nome, palavra))
        veiculos = _veiculos_que_contem(original, palavra)
        ramos: list[sa.ColumnElement[bool]] = [
            a.operadora_id.in_(_operadoras_que_contem(ctx, palavra)),
            a.dispositivo_codigo.in_(_dispositivos_que_contem(ctx, original, palavra)),
            a.infrator_nome.in_(nomes),
            a.veiculo_id.in_(sa.select(v.id).where(sa.or_(*veiculos))),
        ]
        if numero is not None:
            ramos.insert(0, numero)
        return sa.union_all(*(sa.select(a.id).where(r) for r in ramos))  # type: ignore[return-value]

    ordem_fase = sa.case({k: i for i, k in enumerate(FASES)}, value=a.fase)
    return _Consulta(
        d,
        ctx,
        base=a.__table__,  # type: ignore[arg-type]
        id_=a.id,
        origem=sa.join(a, o, a.operadora_id == o.id)
        .join(dc, a.dispositivo_codigo == dc.codigo)
        .outerjoin(v, a.veiculo_id == v.id)
        .outerjoin(dec, dec.auto_id == a.id),
        campos=(
            a.ano,
            a.numero,
            a.data_infracao,
            _nome_operadora(),
            a.dispositivo_codigo,
            dc.rotulo,
            a.tipo,
            v.prefixo,
            v.placa,
            a.fase,
            multa_urm,
            dec.valor_urm,
        ),
        ordens={
            "numero": [_Chave(a.ano), _Chave(a.numero)],
            "data_infracao": [_Chave(a.data_infracao)],
            "operadora": [_Chave(_nome_operadora())],
            "dispositivo": _ordem_dispositivo(a.dispositivo_codigo),
            "tipo": [_Chave(a.tipo)],
            "veiculo": [_Chave(sa.func.length(v.prefixo), True), _Chave(v.prefixo, True)],
            "fase": [_Chave(ordem_fase)],
            "multa_urm": [_Chave(multa_urm, True)],
            "multa_reais": [_Chave(multa_reais, True)],
        },
        montar_valores=montar,
        busca=busca,
        busca_ids=busca_ids,
        ordens_sondadas=frozenset({"numero", "data_infracao"}),
        situacoes={**{k: a.fase == k for k in FASES}, **{t: a.tipo == t for t in "ABCDE"}},
        origens_ordem={
            "operadora": sa.join(a, o, a.operadora_id == o.id),
            "veiculo": sa.outerjoin(a, v, a.veiculo_id == v.id),
            "multa_reais": sa.outerjoin(a, dec, dec.auto_id == a.id),
        },
        operadora=a.operadora_id,
        periodo=a.data_infracao,
        unicas=frozenset({"numero"}),
    )


def _representacoes(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
    r_, o, dc = Representacao, Operadora, DispositivoCatalogo

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        ano, numero, recebida, peticionario, operadora, codigo, rot, situacao = r
        return (
            formatar_numero_processo(numero, ano),
            recebida,
            peticionario,
            operadora or "",
            _rotulo_dispositivo(codigo, rot),
            rotulo(SITUACOES_REPRESENTACAO, situacao),
        )

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        alternativas = [
            ctx.contem(r_.peticionario_nome, palavra),
            ctx.contem(r_.fatos, palavra),
            r_.operadora_id.in_(_operadoras_que_contem(ctx, palavra)),
            r_.dispositivo_codigo.in_(_dispositivos_que_contem(ctx, original, palavra)),
        ]
        numero = _busca_numero(original, r_.ano, r_.numero)
        if numero is not None and not original.isdigit():
            return [numero]
        return [numero, *alternativas] if numero is not None else alternativas

    return _Consulta(
        d,
        ctx,
        base=r_.__table__,  # type: ignore[arg-type]
        id_=r_.id,
        origem=sa.outerjoin(r_, o, r_.operadora_id == o.id).outerjoin(dc, r_.dispositivo_codigo == dc.codigo),
        campos=(
            r_.ano,
            r_.numero,
            r_.recebida_em,
            r_.peticionario_nome,
            _nome_operadora(),
            r_.dispositivo_codigo,
            dc.rotulo,
            r_.situacao,
        ),
        ordens={
            "numero": [_Chave(r_.ano), _Chave(r_.numero)],
            "recebida_em": [_Chave(r_.recebida_em)],
            "peticionario": [_Chave(ctx.chave(r_.peticionario_nome))],
            "operadora": [_Chave(ctx.chave(_nome_operadora()), True)],
            "dispositivo": _ordem_dispositivo(r_.dispositivo_codigo, anulavel=True),
            "situacao": [
                _Chave(sa.case({k: i for i, k in enumerate(SITUACOES_REPRESENTACAO)}, value=r_.situacao))
            ],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={k: r_.situacao == k for k in SITUACOES_REPRESENTACAO},
        operadora=r_.operadora_id,
        periodo=r_.recebida_em,
        unicas=frozenset({"numero"}),
    )


def _usuarios(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
    u, up = Usuario, UsuarioPapel
    if ctx.postgres:
        from sqlalchemy.dialects.postgresql import aggregate_order_by

        agregado: sa.ColumnElement[str] = sa.func.string_agg(
            up.papel, aggregate_order_by(sa.literal(","), up.papel)
        )
    else:
        agregado = sa.func.group_concat(up.papel, ",")
    papeis = sa.select(agregado).where(up.usuario_id == u.id).scalar_subquery()
    bloqueado = sa.and_(u.bloqueado_ate.is_not(None), u.bloqueado_ate > ctx.agora)
    situacao = sa.case((u.ativo.is_(False), "inativo"), (bloqueado, "bloqueado"), else_="ativo")

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        login, nome, lista_papeis, sit, ate, acesso = r
        codigos = [p for p in (lista_papeis or "").split(",") if p]
        # Alphabetical by code, the order the SQL sorts on ("administrador,secretario").
        rotulos = ", ".join(ROTULOS_PAPEIS.get(p, p) for p in sorted(codigos))
        texto_sit = {"ativo": "Ativo", "inativo": "Inativo"}.get(sit, "Bloqueado")
        if sit == "bloqueado" and ate is not None:
            texto_sit = f"Bloqueado até {ate:%H:%M}"
        return (login, nome, rotulos, texto_sit, acesso)

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        return [ctx.contem(u.login, palavra), ctx.contem(u.nome, palavra)]

    return _Consulta(
        d,
        ctx,
        base=u.__table__,  # type: ignore[arg-type]
        id_=u.id,
        origem=u.__table__,
        campos=(u.login, u.nome, papeis, situacao, u.bloqueado_ate, u.ultimo_acesso),
        ordens={
            "login": [_Chave(u.login)],
            "nome": [_Chave(ctx.chave(u.nome))],
            "papeis": [_Chave(papeis, True)],
            "situacao": [_Chave(sa.case({"ativo": 0, "bloqueado": 1, "inativo": 2}, value=situacao))],
            "ultimo_acesso": [_Chave(u.ultimo_acesso, True)],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={
            "ativo": sa.and_(u.ativo.is_(True), sa.not_(bloqueado)),
            "inativo": u.ativo.is_(False),
            "bloqueado": sa.and_(u.ativo.is_(True), bloqueado),
        },
        unicas=frozenset({"login"}),
    )


def _auditoria(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
    au = Auditoria

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        id_, momento, usuario, acao, entidade, entidade_id = r
        return (id_, momento, usuario or "", rotulo_acao(acao), entidade, entidade_id or "")

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        return [
            ctx.contem(au.usuario_login, palavra),
            ctx.contem(au.acao, palavra),
            ctx.contem(au.entidade, palavra),
            au.entidade_id == original,
            ctx.contem(au.antes, palavra),
            ctx.contem(au.depois, palavra),
        ]

    def extras(filtro: Filtro) -> list[sa.ColumnElement[bool]]:
        conds: list[sa.ColumnElement[bool]] = []
        if filtro.usuario:
            conds.append(au.usuario_login == filtro.usuario)
        if filtro.entidade:
            conds.append(au.entidade == filtro.entidade)
        return conds

    return _Consulta(
        d,
        ctx,
        base=au.__table__,  # type: ignore[arg-type]
        id_=au.id,
        origem=au.__table__,
        campos=(au.id, au.momento, au.usuario_login, au.acao, au.entidade, au.entidade_id),
        ordens={
            "id": [_Chave(au.id)],
            "momento": [_Chave(au.momento)],
            "usuario": [_Chave(au.usuario_login, True)],
            "acao": [_Chave(au.acao)],
            "entidade": [_Chave(au.entidade)],
            "entidade_id": [_Chave(au.entidade_id, True)],
        },
        montar_valores=montar,
        busca=busca,
        periodo=au.momento,
        periodo_hora=True,
        unicas=frozenset({"id"}),
        extras=extras,
    )


_CONSTRUTORES: dict[str, Callable[[DefinicaoLista, _Contexto], _Consulta]] = {
    "operadoras": _operadoras,
    "linhas": _linhas,
    "veiculos": _veiculos,
    "empregados": _empregados,
    "fiscais": _fiscais,
    "autos": _autos,
    "representacoes": _representacoes,
    "usuarios": _usuarios,
    "auditoria": _auditoria,
}
