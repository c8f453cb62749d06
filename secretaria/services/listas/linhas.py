"""The bus lines list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from secretaria.models import Linha, Operadora, Veiculo
from secretaria.services.listas.nucleo import (
    Coluna,
    DefinicaoLista,
    _Chave,
    _Consulta,
    _Contexto,
    _f,
    _natural,
    _nome_operadora,
    _operadoras_que_contem,
)

DEFINICAO = DefinicaoLista(
    "linhas",
    "Linhas",
    (
        Coluna("codigo", "Código", "codigo"),
        Coluna("nome", "Nome", "nome"),
        Coluna("operadora", "Operadora", "nome"),
        Coluna("situacao", "Situação"),
        Coluna("veiculos", "Veículos", "numero"),
    ),
    _f("situacao", {"ativa": "Ativa", "inativa": "Inativa"}),
    ("codigo", True),
    por_operadora=True,
)


def construir(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
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
