"""The autos de infração list."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.lei.documentos import DocumentoInvalido, chave_placa
from secretaria.lei.urm import urm_para_reais
from secretaria.models import (
    AutoInfracao,
    Decisao,
    DispositivoCatalogo,
    Intimacao,
    Operadora,
    Pagamento,
    Recurso,
    Veiculo,
)
from secretaria.services import cifras
from secretaria.services.base import ErroDominio
from secretaria.services.listas.nucleo import (
    ETAPAS_AUTO,
    ChaveOrdem,
    Coluna,
    ConsultaLista,
    ContextoConsulta,
    DefinicaoLista,
    EtapaAuto,
    Filtro,
    busca_numero,
    contem_documento,
    dispositivos_que_contem,
    nome_operadora,
    opcoes_filtro,
    operadoras_que_contem,
    ordem_dispositivo,
    rotulo_do_dispositivo,
)
from secretaria.services.rotulos import FASES, formatar_numero_processo, formatar_placa, rotulo

DEFINICAO = DefinicaoLista(
    "autos",
    "Autos de infração",
    (
        Coluna("numero", "Número", "codigo"),
        Coluna("data_infracao", "Data da infração", "data"),
        Coluna("operadora", "Operadora", "nome"),
        Coluna("dispositivo", "Dispositivo"),
        Coluna("tipo", "Tipo"),
        Coluna("veiculo", "Veículo"),
        Coluna("fase", "Fase"),
        Coluna("multa_urm", "Multa (URM)", "numero"),
        Coluna("multa_reais", "Multa (R$)", "dinheiro"),
    ),
    opcoes_filtro("fase", FASES) + opcoes_filtro("tipo", {t: f"Tipo {t}" for t in "ABCDE"}),
    ("numero", False),
    por_operadora=True,
    periodo="Data da infração",
)


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


def construir(d: DefinicaoLista, ctx: ContextoConsulta) -> ConsultaLista:
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
            rotulo_do_dispositivo(codigo, rot),
            tipo or "",
            veiculo,
            rotulo(FASES, fase),
            urm,
            reais,
        )

    nomes_infratores = _nomes_distintos(a.infrator_nome)

    def _veiculos_que_contem(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        veiculos = [ctx.contem(v.prefixo, palavra)]
        doc = contem_documento(v.placa, original)
        if doc is not None:
            veiculos.append(doc)
        with contextlib.suppress(DocumentoInvalido):
            veiculos.append(v.placa_chave == chave_placa(original))
        return veiculos

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        """Tested row by row: for a number, and for searches of several words (see `busca_ids`)."""
        numero = busca_numero(original, a.ano, a.numero)
        if numero is not None and not original.isdigit():
            return [numero]  # "0001/2026" is a number and nothing else: one index lookup
        veiculos = a.veiculo_id.in_(sa.select(v.id).where(sa.or_(*_veiculos_que_contem(original, palavra))))
        alternativas: list[sa.ColumnElement[bool]] = [
            a.operadora_id.in_(operadoras_que_contem(ctx, palavra)),
            a.dispositivo_codigo.in_(dispositivos_que_contem(ctx, original, palavra)),
            ctx.contem(a.infrator_nome, palavra),
            veiculos,
        ]
        if numero is not None:
            alternativas.insert(0, numero)
        return alternativas

    def busca_ids(original: str, palavra: str) -> sa.Select[Any] | None:
        numero = busca_numero(original, a.ano, a.numero)
        if numero is not None and not original.isdigit():
            return None  # "0001/2026" is a number and nothing else: one index lookup, row by row
        # Each alternative reads one index and their ids are united: one OR over the wide auto rows scanned all
        # of them (0.2–0.8 s for 200,000). The indexes: `ix_auto_recidiva` (operator), `ix_auto_dispositivo`,
        # the vehicle's, `ix_auto_infrator` (through the few distinct names, see `_nomes_distintos`).
        nomes = sa.select(nomes_infratores.c.nome).where(ctx.contem(nomes_infratores.c.nome, palavra))
        veiculos = _veiculos_que_contem(original, palavra)
        ramos: list[sa.ColumnElement[bool]] = [
            a.operadora_id.in_(operadoras_que_contem(ctx, palavra)),
            a.dispositivo_codigo.in_(dispositivos_que_contem(ctx, original, palavra)),
            a.infrator_nome.in_(nomes),
            a.veiculo_id.in_(sa.select(v.id).where(sa.or_(*veiculos))),
        ]
        if numero is not None:
            ramos.insert(0, numero)
        return sa.union_all(*(sa.select(a.id).where(r) for r in ramos))  # type: ignore[return-value]

    ordem_fase = sa.case({k: i for i, k in enumerate(FASES)}, value=a.fase)
    return ConsultaLista(
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
            nome_operadora(),
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
            "numero": [ChaveOrdem(a.ano), ChaveOrdem(a.numero)],
            "data_infracao": [ChaveOrdem(a.data_infracao)],
            "operadora": [ChaveOrdem(nome_operadora())],
            "dispositivo": ordem_dispositivo(a.dispositivo_codigo),
            "tipo": [ChaveOrdem(a.tipo)],
            "veiculo": [ChaveOrdem(sa.func.length(v.prefixo), True), ChaveOrdem(v.prefixo, True)],
            "fase": [ChaveOrdem(ordem_fase)],
            "multa_urm": [ChaveOrdem(multa_urm, True)],
            "multa_reais": [ChaveOrdem(multa_reais, True)],
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
        extras=lambda filtro: _filtros_painel(filtro, ctx),
    )


def _filtros_painel(filtro: Filtro, ctx: ContextoConsulta) -> list[sa.ColumnElement[bool]]:
    """The provision, the line and the step of the case (the Painel opens the list on the autos behind a
    bar)."""
    a = AutoInfracao
    conds: list[sa.ColumnElement[bool]] = []
    if filtro.dispositivo is not None:
        conds.append(a.dispositivo_codigo == filtro.dispositivo)
    if filtro.linha_id is not None:
        conds.append(a.linha_id == filtro.linha_id)
    if filtro.etapa is not None:
        conds.append(_na_etapa(filtro.etapa, ctx))
    return conds


def _dias(ctx: ContextoConsulta, fim: Any, inicio: Any) -> sa.ColumnElement[int]:
    """Whole days from `inicio` to `fim` (date columns), as `services.painel` counts them."""
    if ctx.postgres:
        return sa.cast(fim - inicio, sa.Integer)
    return sa.cast(sa.func.julianday(fim) - sa.func.julianday(inicio), sa.Integer)


def _na_etapa(e: EtapaAuto, ctx: ContextoConsulta) -> sa.ColumnElement[bool]:
    """The autos at step `e.etapa` (its day within the period): the ids read from the step's own table by
    its day's index (`ix_pagamento_pago_em`, `ix_pagamento_divida`, …), never a test per auto of the whole
    table. The definitions are the Painel's (`services.painel.multas_por_mes`, `medianas_por_mes`, `prazos`),
    so the list holds exactly the autos a bar counts."""
    a, d, p, r, i = AutoInfracao, Decisao, Pagamento, Recurso, Intimacao
    outro = so.aliased(AutoInfracao)  # the auto's own dates, inside a subquery that reads the decisions
    if e.etapa not in ETAPAS_AUTO:
        raise ErroDominio(f"Etapa desconhecida: {e.etapa}.")

    def no_periodo(dia: Any) -> list[sa.ColumnElement[bool]]:
        conds: list[sa.ColumnElement[bool]] = []
        if e.desde is not None:
            conds.append(dia >= e.desde)
        if e.ate is not None:
            conds.append(dia <= e.ate)
        return conds

    if e.etapa == "multa_aplicada":
        # The fines the Painel's bar sums (services.cifras): never one annulled on appeal.
        ids = (
            sa.select(d.auto_id)
            .join(outro, outro.id == d.auto_id)
            .where(cifras.multa_vale(outro, d), *no_periodo(d.data))
        )
        return a.id.in_(ids)
    if e.etapa in ("multa_paga", "divida_ativa"):
        dia = p.pago_em if e.etapa == "multa_paga" else p.inscrito_divida_em
        situacao = "pago" if e.etapa == "multa_paga" else "divida_ativa"
        ids = (
            sa.select(d.auto_id).join(p, p.decisao_id == d.id).where(p.situacao == situacao, *no_periodo(dia))
        )
        return a.id.in_(ids)
    if e.etapa in ("recurso_tempestivo", "recurso_intempestivo"):
        tempestivo = r.tempestivo.is_(True)
        ids = (
            sa.select(d.auto_id)
            .join(r, r.decisao_id == d.id)
            .where(tempestivo if e.etapa == "recurso_tempestivo" else sa.not_(tempestivo))
            .where(*no_periodo(r.protocolado_em))
        )
        return a.id.in_(ids)
    if e.etapa in ("decisao_no_prazo", "decisao_atrasada"):
        # `filas.primeiro_dia_de_atraso`: decided more than "Dias para decidir" after the defence deadline.
        limite = e.dias_para_decidir if e.dias_para_decidir is not None else 0
        atrasada = _dias(ctx, d.data, outro.prazo_defesa) > limite
        ids = (
            sa.select(d.auto_id)
            .join(outro, outro.id == d.auto_id)
            .where(outro.prazo_defesa.is_not(None), *no_periodo(d.data))
            .where(atrasada if e.etapa == "decisao_atrasada" else sa.not_(atrasada))
        )
        return a.id.in_(ids)
    # The times chart: autos not cancelled that reached the step (its day is not the bar's month: the
    # month is the infraction's, the list's own period). Tested per auto of that period (EXISTS on the
    # step's index by auto): the steps of every auto of the database are never read.
    ativo = a.fase != "cancelado"
    if e.etapa == "intimado":
        entregue = sa.exists().where(
            i.auto_id == a.id, i.objeto == "auto", i.sucesso.is_(True), *no_periodo(i.data)
        )
        return sa.and_(ativo, entregue)
    if e.etapa == "decidido":
        return sa.and_(ativo, sa.exists().where(d.auto_id == a.id, *no_periodo(d.data)))
    # "definitivo": `definitividade.decisao_definitiva_em` on today, the Painel's `_dias_ate_final` CASE.
    hoje = ctx.hoje
    final = sa.case(
        (d.resultado == "arquivado", d.data),
        (r.tempestivo.is_(True), sa.case((r.julgado_em <= hoje, r.julgado_em), else_=None)),
        (sa.and_(d.resultado == "aplicada", a.prazo_recurso < hoje), a.prazo_recurso),
        else_=None,
    )
    definitiva = (
        sa.exists()
        .select_from(sa.outerjoin(d, r, r.decisao_id == d.id))
        .where(d.auto_id == a.id, final.is_not(None))
    )
    return sa.and_(ativo, definitiva)
