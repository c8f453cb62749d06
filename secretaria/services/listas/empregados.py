"""The employees and agents list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from secretaria.models import Empregado, Operadora
from secretaria.services.listas.nucleo import (
    Coluna,
    DefinicaoLista,
    _Chave,
    _Consulta,
    _contem_documento,
    _Contexto,
    _f,
    _nome_operadora,
    _operadoras_que_contem,
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
    _f("funcao", FUNCOES) + _f("vinculo", {"em_atividade": "Em atividade", "desligado": "Desligado"}),
    ("nome", True),
    por_operadora=True,
)


def construir(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
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
