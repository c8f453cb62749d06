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

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.services import vencimentos
from secretaria.services.base import ErroDominio
from secretaria.services.listas import (
    auditoria,
    autos,
    empregados,
    fiscais,
    linhas,
    operadoras,
    representacoes,
    usuarios,
    veiculos,
)
from secretaria.services.listas.nucleo import (
    Coluna,
    ConsultaLista,
    ContextoConsulta,
    DefinicaoLista,
    Filtro,
    OpcaoFiltro,
    Ordem,
    sem_acento,
)
from secretaria.services.listas.operadoras import situacao_operadora_sql
from secretaria.services.rotulos import FASES, SITUACOES_REPRESENTACAO, SITUACOES_VEICULO

__all__ = [
    "LISTAS",
    "Coluna",
    "DefinicaoLista",
    "Filtro",
    "OpcaoFiltro",
    "Ordem",
    "contar",
    "definicao",
    "destaque",
    "exportar_linhas",
    "pagina",
    "pagina_e_total",
    "situacao_operadora_sql",
]

_MODULOS = (operadoras, linhas, veiculos, empregados, fiscais, autos, representacoes, usuarios, auditoria)
LISTAS: dict[str, DefinicaoLista] = {m.DEFINICAO.nome: m.DEFINICAO for m in _MODULOS}
_CONSTRUTORES: dict[str, Callable[[DefinicaoLista, ContextoConsulta], ConsultaLista]] = {
    m.DEFINICAO.nome: m.construir for m in _MODULOS
}


def definicao(lista: str) -> DefinicaoLista:
    try:
        return LISTAS[lista]
    except KeyError:
        raise ErroDominio(f"Lista desconhecida: {lista}.") from None


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
    total: int | None = None,
) -> list[tuple[Any, ...]]:
    """Rows `inicio` … `inicio + quantidade - 1` of the list under `filtro`, sorted by `ordem`.

    With `total` (the list's count, which the table already holds), a window in the list's second half is
    read from the end, in the reverse order, and turned round: OFFSET walks the index from where the read
    starts, so the last rows (a scroll to the end) cost what the first ones do (PostgreSQL: 121 ms → a few)."""
    if inicio < 0 or quantidade < 0:
        raise ValueError("início e quantidade não podem ser negativos")
    consulta = _consulta(sessao, lista)
    # Two steps: the sorted window of ids, joining only what the sort key needs (the sorter then carries
    # ids, not whole rows: 0.65 s → 0.05 s for 200,000 autos sorted by phase); then those rows, joined.
    if total is not None and inicio * 2 > total and inicio < total:
        quantos = min(quantidade, total - inicio)
        do_fim = total - inicio - quantos
        stmt = consulta.select_ids(filtro or Filtro(), ordem, inverter=True).offset(do_fim).limit(quantos)
        ids = list(reversed(list(sessao.scalars(stmt))))
    else:
        stmt = consulta.select_ids(filtro or Filtro(), ordem).offset(inicio).limit(quantidade)
        ids = list(sessao.scalars(stmt))
    return _linhas_dos_ids(sessao, consulta, ids)


def _linhas_dos_ids(sessao: so.Session, consulta: ConsultaLista, ids: list[Any]) -> list[tuple[Any, ...]]:
    """The rows of `ids`, joined, in that order."""
    if not ids:
        return []
    linhas = {r[0]: r for r in sessao.execute(consulta.select_linhas().where(consulta.id_.in_(ids)))}
    return [consulta.montar(linhas[i]) for i in ids if i in linhas]


def pagina_e_total(
    sessao: so.Session,
    lista: str,
    filtro: Filtro | None = None,
    *,
    ordem: Ordem | None = None,
    quantidade: int = 200,
) -> tuple[int, list[tuple[Any, ...]]]:
    """`contar` and the first `pagina` at once: what a new search shows.

    A search of one word (`busca_ids`: the union of index reads) with no other filter finds its ids once:
    a materialized CTE that the count and the sorted window both read, in one query (16,216 autos found for
    "laranjal" were read twice before, 32,432 index entries each time: half the search's time). Anything
    else is `contar` then `pagina`."""
    if quantidade < 0:
        raise ValueError("quantidade não pode ser negativa")
    consulta = _consulta(sessao, lista)
    filtro = filtro or Filtro()
    ids = consulta.ids_buscados(filtro)
    if ids is None or consulta.condicoes(replace(filtro, texto="")) or quantidade == 0:
        total = contar(sessao, lista, filtro)
        return total, pagina(sessao, lista, filtro, ordem, 0, quantidade) if total else []
    # UNION, not UNION ALL: the ids once each (an operator's name typed as the infractor finds an auto twice),
    # so the count reads the CTE as it is and the window's IN list holds half as many.
    selects = ids.selects if isinstance(ids, sa.CompoundSelect) else [ids]
    achados = sa.union(*selects).cte("achados").prefix_with("MATERIALIZED")
    total_ = sa.select(sa.func.count()).select_from(achados).scalar_subquery()
    janela = consulta.select_ids(filtro, ordem, sa.select(achados.c[0])).add_columns(total_.label("total"))
    lidas = sessao.execute(janela.limit(quantidade)).all()
    if not lidas:
        return 0, []
    return int(lidas[0][1]), _linhas_dos_ids(sessao, consulta, [r[0] for r in lidas])


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
    """How a row should stand out: "alerta" (red: expired or missing validity, suspended, cassada), "aviso"
    (amber: a validity or contract ending within `vencimentos.DIAS_AVISO` days), "apagado" (grey: inactive,
    cancelled, filed), or None. Read from the row's own values, so it costs no query."""
    d = definicao(lista)
    dia = hoje or relogio.hoje()

    def valor(chave: str) -> Any:
        return linha[d.indice(chave)]

    if lista == "operadoras":
        situacao = str(valor("situacao"))
        if situacao.startswith(("Suspensa", "Cassada")):
            return "alerta"
        fim = valor("contrato_fim")
        return None if fim is None else vencimentos.DESTAQUES[vencimentos.estado(fim, dia)]
    if lista == "veiculos":
        if valor("situacao") == SITUACOES_VEICULO["baixado"]:
            return "apagado"
        estados = (vencimentos.estado(valor(c), dia) for c in ("vistoria_validade", "licenca_validade"))
        return vencimentos.DESTAQUES[vencimentos.pior(*estados)]
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


def _consulta(sessao: so.Session, lista: str) -> ConsultaLista:
    d = definicao(lista)
    conexao = sessao.connection()
    postgres = conexao.dialect.name == "postgresql"
    if not postgres:
        bruta: Any = conexao.connection.driver_connection
        bruta.create_function("sem_acento", 1, sem_acento, deterministic=True)
    agora = relogio.agora()
    return _construida(lista, postgres, relogio.hoje(), agora if d.na_hora else None)


@functools.lru_cache(maxsize=64)
def _construida(lista: str, postgres: bool, hoje: date, agora: datetime | None) -> ConsultaLista:
    """The list's SQL for that database and day, built once and shared by every read (threads included: it
    only describes statements, each read builds its own from it). Built for each read, it was a third of
    reading a window of the autos list (5 of 14 ms, the end of 200,000 autos on PostgreSQL)."""
    ctx = ContextoConsulta(postgres=postgres, hoje=hoje, agora=agora or relogio.agora())
    return _CONSTRUTORES[lista](definicao(lista), ctx)
