"""The bus lines list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from secretaria.models import Linha, Operadora, Veiculo
from secretaria.services.listas.nucleo import (
    ChaveOrdem,
    Coluna,
    ConsultaLista,
    ContextoConsulta,
    DefinicaoLista,
    nome_operadora,
    opcoes_filtro,
    operadoras_que_contem,
    ordem_natural,
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
    opcoes_filtro("situacao", {"ativa": "Ativa", "inativa": "Inativa"}),
    ("codigo", True),
    por_operadora=True,
)


def construir(d: DefinicaoLista, ctx: ContextoConsulta) -> ConsultaLista:
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
            li.operadora_id.in_(operadoras_que_contem(ctx, palavra)),
        ]

    return ConsultaLista(
        d,
        ctx,
        base=li.__table__,  # type: ignore[arg-type]
        id_=li.id,
        origem=sa.join(li, o, li.operadora_id == o.id),
        campos=(li.codigo, li.nome, nome_operadora(), li.ativa, veiculos),
        ordens={
            "codigo": ordem_natural(li.codigo),
            "nome": [ChaveOrdem(ctx.chave(li.nome))],
            "operadora": [ChaveOrdem(ctx.chave(nome_operadora()))],
            "situacao": [ChaveOrdem(sa.not_(li.ativa))],
            "veiculos": [ChaveOrdem(veiculos)],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={"ativa": li.ativa.is_(True), "inativa": li.ativa.is_(False)},
        operadora=li.operadora_id,
    )
