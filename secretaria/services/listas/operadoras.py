"""The operators list (and the SQL rule of an operator's status it filters and sorts on)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import sqlalchemy as sa

from secretaria.models import Operadora, Suspensao, Veiculo
from secretaria.services import vencimentos
from secretaria.services.execucao import fim_da_suspensao_sql
from secretaria.services.listas.nucleo import (
    ChaveOrdem,
    Coluna,
    ConsultaLista,
    ContextoConsulta,
    DefinicaoLista,
    contem_documento,
    opcoes_filtro,
)
from secretaria.services.rotulos import DELEGACOES, SITUACOES_OPERADORA, formatar_cnpj, formatar_data, rotulo

DEFINICAO = DefinicaoLista(
    "operadoras",
    "Operadoras",
    (
        Coluna("razao_social", "Razão social", "nome"),
        Coluna("nome_fantasia", "Nome fantasia", "nome"),
        Coluna("cnpj", "CNPJ", "documento"),
        Coluna("delegacao", "Delegação"),
        Coluna("situacao", "Situação"),
        Coluna("contrato_numero", "Contrato/permissão", "codigo"),
        Coluna("contrato_fim", "Vigente até", "data"),
        Coluna("veiculos", "Veículos", "numero"),
    ),
    opcoes_filtro("situacao", SITUACOES_OPERADORA) + opcoes_filtro("delegacao", DELEGACOES),
    ("razao_social", True),
)


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


def construir(d: DefinicaoLista, ctx: ContextoConsulta) -> ConsultaLista:
    o = Operadora
    situacao = situacao_operadora_sql(ctx.hoje)
    # The end of the suspensions served back to back, as the operator's own screen says (REGRAS § 5).
    suspensa_ate = fim_da_suspensao_sql(o.id, ctx.hoje)
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
        contrato_texto = (
            vencimentos.texto_contrato(delegacao, fim, ctx.hoje, com_data=False) if sit != "cassada" else ""
        )
        if contrato_texto:  # no status of the law, but never a plain "Ativa" (the date: "Vigente até")
            texto_sit = f"{texto_sit} — {contrato_texto}"
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
        doc = contem_documento(o.cnpj, original)
        return [*alternativas, doc] if doc is not None else alternativas

    return ConsultaLista(
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
            "razao_social": [ChaveOrdem(ctx.chave(o.razao_social))],
            "nome_fantasia": [ChaveOrdem(ctx.chave(o.nome_fantasia))],
            "cnpj": [ChaveOrdem(o.cnpj)],
            "delegacao": [ChaveOrdem(o.delegacao)],
            "situacao": [ChaveOrdem(ordem_situacao), ChaveOrdem(suspensa_ate, True)],
            "contrato_numero": [ChaveOrdem(ctx.chave(o.contrato_numero))],
            "contrato_fim": [ChaveOrdem(o.contrato_fim, True)],
            "veiculos": [ChaveOrdem(veiculos)],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={
            **{k: situacao == k for k in SITUACOES_OPERADORA},
            **{k: o.delegacao == k for k in DELEGACOES},
        },
        unicas=frozenset({"cnpj"}),
    )
