"""The representações list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from secretaria.models import DispositivoCatalogo, Operadora, Representacao
from secretaria.services.listas.nucleo import (
    ChaveOrdem,
    Coluna,
    ConsultaLista,
    ContextoConsulta,
    DefinicaoLista,
    busca_numero,
    dispositivos_que_contem,
    nome_operadora,
    opcoes_filtro,
    operadoras_que_contem,
    ordem_dispositivo,
    rotulo_do_dispositivo,
)
from secretaria.services.rotulos import SITUACOES_REPRESENTACAO, formatar_numero_processo, rotulo

DEFINICAO = DefinicaoLista(
    "representacoes",
    "Representações",
    (
        Coluna("numero", "Número", "codigo"),
        Coluna("recebida_em", "Recebida em", "data"),
        Coluna("peticionario", "Peticionário", "nome"),
        Coluna("operadora", "Operadora", "nome"),
        Coluna("dispositivo", "Dispositivo"),
        Coluna("situacao", "Situação"),
    ),
    opcoes_filtro("situacao", SITUACOES_REPRESENTACAO),
    ("numero", False),
    por_operadora=True,
    periodo="Recebida em",
)


def construir(d: DefinicaoLista, ctx: ContextoConsulta) -> ConsultaLista:
    r_, o, dc = Representacao, Operadora, DispositivoCatalogo

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        ano, numero, recebida, peticionario, operadora, codigo, rot, situacao = r
        return (
            formatar_numero_processo(numero, ano),
            recebida,
            peticionario,
            operadora or "",
            rotulo_do_dispositivo(codigo, rot),
            rotulo(SITUACOES_REPRESENTACAO, situacao),
        )

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        alternativas = [
            ctx.contem(r_.peticionario_nome, palavra),
            ctx.contem(r_.fatos, palavra),
            r_.operadora_id.in_(operadoras_que_contem(ctx, palavra)),
            r_.dispositivo_codigo.in_(dispositivos_que_contem(ctx, original, palavra)),
        ]
        numero = busca_numero(original, r_.ano, r_.numero)
        if numero is not None and not original.isdigit():
            return [numero]
        return [numero, *alternativas] if numero is not None else alternativas

    return ConsultaLista(
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
            nome_operadora(),
            r_.dispositivo_codigo,
            dc.rotulo,
            r_.situacao,
        ),
        ordens={
            "numero": [ChaveOrdem(r_.ano), ChaveOrdem(r_.numero)],
            "recebida_em": [ChaveOrdem(r_.recebida_em)],
            "peticionario": [ChaveOrdem(ctx.chave(r_.peticionario_nome))],
            "operadora": [ChaveOrdem(ctx.chave(nome_operadora()), True)],
            "dispositivo": ordem_dispositivo(r_.dispositivo_codigo, anulavel=True),
            "situacao": [
                ChaveOrdem(sa.case({k: i for i, k in enumerate(SITUACOES_REPRESENTACAO)}, value=r_.situacao))
            ],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={k: r_.situacao == k for k in SITUACOES_REPRESENTACAO},
        operadora=r_.operadora_id,
        periodo=r_.recebida_em,
        unicas=frozenset({"numero"}),
    )
