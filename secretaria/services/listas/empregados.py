"""The employees and agents list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from secretaria.models import Empregado, Operadora
from secretaria.services.listas.nucleo import (
    ChaveOrdem,
    Coluna,
    ConsultaLista,
    ContextoConsulta,
    DefinicaoLista,
    contem_documento,
    nome_operadora,
    opcoes_filtro,
    operadoras_que_contem,
)
from secretaria.services.rotulos import FUNCOES, formatar_cpf, rotulo

DEFINICAO = DefinicaoLista(
    "empregados",
    "Empregados e agentes",
    (
        Coluna("nome", "Nome", "nome"),
        Coluna("cpf", "CPF", "documento"),
        Coluna("funcao", "Função"),
        Coluna("operadora", "Operadora", "nome"),
        Coluna("carteira_cadastro", "Carteira de cadastro"),
        Coluna("admissao", "Admissão", "data"),
        Coluna("demissao", "Demissão", "data"),
    ),
    opcoes_filtro("funcao", FUNCOES)
    + opcoes_filtro("vinculo", {"em_atividade": "Em atividade", "desligado": "Desligado"}),
    ("nome", True),
    por_operadora=True,
)


def construir(d: DefinicaoLista, ctx: ContextoConsulta) -> ConsultaLista:
    e, o = Empregado, Operadora

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        nome, cpf, funcao, operadora, carteira, admissao, demissao = r
        return (nome, formatar_cpf(cpf), rotulo(FUNCOES, funcao), operadora, carteira, admissao, demissao)

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        alternativas = [
            ctx.contem(e.nome, palavra),
            ctx.contem(e.carteira_cadastro, palavra),
            e.operadora_id.in_(operadoras_que_contem(ctx, palavra)),
        ]
        doc = contem_documento(e.cpf, original)
        return [*alternativas, doc] if doc is not None else alternativas

    return ConsultaLista(
        d,
        ctx,
        base=e.__table__,  # type: ignore[arg-type]
        id_=e.id,
        origem=sa.join(e, o, e.operadora_id == o.id),
        campos=(e.nome, e.cpf, e.funcao, nome_operadora(), e.carteira_cadastro, e.admissao, e.demissao),
        ordens={
            "nome": [ChaveOrdem(ctx.chave(e.nome))],
            "cpf": [ChaveOrdem(e.cpf)],
            "funcao": [ChaveOrdem(sa.case({k: i for i, k in enumerate(FUNCOES)}, value=e.funcao))],
            "operadora": [ChaveOrdem(ctx.chave(nome_operadora()))],
            "carteira_cadastro": [ChaveOrdem(e.carteira_cadastro)],
            "admissao": [ChaveOrdem(e.admissao, True)],
            "demissao": [ChaveOrdem(e.demissao, True)],
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
