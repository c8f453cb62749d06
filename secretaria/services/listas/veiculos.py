"""The vehicles list."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import date
from typing import Any

import sqlalchemy as sa

from secretaria.lei.documentos import DocumentoInvalido, chave_placa
from secretaria.models import Linha, Operadora, Veiculo
from secretaria.services import vencimentos
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
    ordem_natural,
)
from secretaria.services.rotulos import SITUACOES_VEICULO, formatar_placa, rotulo

DEFINICAO = DefinicaoLista(
    "veiculos",
    "Veículos",
    (
        Coluna("prefixo", "Prefixo", "codigo"),
        Coluna("placa", "Placa", "placa"),
        Coluna("operadora", "Operadora", "nome"),
        Coluna("linha", "Linha"),
        Coluna("marca_modelo", "Marca/modelo", "nome"),
        Coluna("ano_fabricacao", "Ano", "numero"),
        Coluna("lotacao", "Lotação", "numero"),
        Coluna("vistoria_validade", "Vistoria até", "data"),
        Coluna("licenca_validade", "Licença até", "data"),
        Coluna("situacao", "Situação"),
    ),
    opcoes_filtro("situacao", SITUACOES_VEICULO)
    + opcoes_filtro(
        "documentos",
        {
            "vistoria_vencida": "Vistoria vencida",
            "licenca_vencida": "Licença vencida",
            "sem_data": "Sem data de vistoria ou licença",
            "a_vencer": f"Vencendo em {vencimentos.DIAS_AVISO} dias",
        },
    ),
    ("prefixo", True),
    por_operadora=True,
)


def construir(d: DefinicaoLista, ctx: ContextoConsulta) -> ConsultaLista:
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
            _situacao(situacao, vistoria, licenca, ctx.hoje),
        )

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        alternativas: list[sa.ColumnElement[bool]] = [
            ctx.contem(v.prefixo, palavra),
            ctx.contem(v.marca_modelo, palavra),
            v.operadora_id.in_(operadoras_que_contem(ctx, palavra)),
            v.linha_id.in_(
                sa.select(li.id).where(sa.or_(ctx.contem(li.codigo, palavra), ctx.contem(li.nome, palavra)))
            ),
        ]
        for coluna in (v.placa, v.renavam):
            doc = contem_documento(coluna, original)
            if doc is not None:
                alternativas.append(doc)
        with contextlib.suppress(DocumentoInvalido):
            alternativas.append(v.placa_chave == chave_placa(original))
        return alternativas

    return ConsultaLista(
        d,
        ctx,
        base=v.__table__,  # type: ignore[arg-type]
        id_=v.id,
        origem=sa.join(v, o, v.operadora_id == o.id).outerjoin(li, v.linha_id == li.id),
        campos=(
            v.prefixo,
            v.placa,
            nome_operadora(),
            li.codigo,
            v.marca_modelo,
            v.ano_fabricacao,
            lotacao,
            v.vistoria_validade,
            v.licenca_validade,
            v.situacao,
        ),
        ordens={
            "prefixo": ordem_natural(v.prefixo),
            "placa": [ChaveOrdem(v.placa)],
            "operadora": [ChaveOrdem(ctx.chave(nome_operadora()))],
            "linha": [ChaveOrdem(sa.func.length(li.codigo), True), ChaveOrdem(li.codigo, True)],
            "marca_modelo": [ChaveOrdem(ctx.chave(v.marca_modelo))],
            "ano_fabricacao": [ChaveOrdem(v.ano_fabricacao, True)],
            "lotacao": [ChaveOrdem(lotacao)],
            "vistoria_validade": [ChaveOrdem(v.vistoria_validade, True)],
            "licenca_validade": [ChaveOrdem(v.licenca_validade, True)],
            "situacao": [ChaveOrdem(sa.case({"ativo": 0, "reserva": 1, "baixado": 2}, value=v.situacao))],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={
            **{k: v.situacao == k for k in SITUACOES_VEICULO},
            "vistoria_vencida": v.vistoria_validade < ctx.hoje,
            "licenca_vencida": v.licenca_validade < ctx.hoje,
            "sem_data": sa.or_(v.vistoria_validade.is_(None), v.licenca_validade.is_(None)),
            "a_vencer": sa.or_(
                v.vistoria_validade.between(ctx.hoje, vencimentos.janela(ctx.hoje)),
                v.licenca_validade.between(ctx.hoje, vencimentos.janela(ctx.hoje)),
            ),
        },
        operadora=v.operadora_id,
        unicas=frozenset({"placa"}),
    )


def _situacao(situacao: str, vistoria: date | None, licenca: date | None, hoje: date) -> str:
    """ "Ativo", or "Ativo — vistoria vencida; licença vence em 12 dias" (the dates are the columns beside it;
    a withdrawn vehicle's dates no longer matter)."""
    texto = rotulo(SITUACOES_VEICULO, situacao)
    if situacao == "baixado":
        return texto
    problemas = [
        t
        for t in (
            vencimentos.texto_vistoria(vistoria, hoje, com_data=False),
            vencimentos.texto_licenca(licenca, hoje, com_data=False),
        )
        if t
    ]
    return f"{texto} — {'; '.join(problemas)}" if problemas else texto
