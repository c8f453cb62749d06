"""Revision of a decided sanction (Lei 9.784/1999, art. 65; REGRAS § 5).

When a prior that a decided case counted as recidivism is later annulled or reduced (an appeal granted or
granted in part, an auto cancelled, a revision itself), the decided case goes to the Secretary's review
list with the level and range it would have today (`sinalizar`, called by every act that annuls or reduces
a penalty). The Secretary then either revises the penalty into the new range by a numbered "termo de
revisão" ("TRV nº 0001/2026", notified like a decision) — never raising it (art. 65, parágrafo único) —
or keeps it with reasons; either takes the case off the list. A fine already paid beyond the revised amount
is recorded as to be refunded; an open one is reduced; a running suspension is shortened.

A revision reduces a penalty, so it feeds the list in turn: a later case that counted this one is reviewed
too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import UnidadeDeTrabalho, retentavel
from secretaria.lei.formato import formatar_data, formatar_reais, formatar_urm
from secretaria.lei.urm import urm_para_reais
from secretaria.models import AutoInfracao, Decisao, Pagamento, RevisaoSancao, Suspensao
from secretaria.services import auditoria
from secretaria.services.base import Ator, ErroDominio, NaoEncontrado, exigir_papel, texto_obrigatorio
from secretaria.services.numeracao import proximo_numero
from secretaria.services.orgao import dados_pagamento, timbre_para_assinar
from secretaria.services.processo_base import dias_validos, id_valido, imagem, urm_valida
from secretaria.services.sancao import conferir_penalidade_nos_campos, sancao_do_auto

__all__ = [
    "PedidoManutencao",
    "PedidoRevisao",
    "ResumoRevisao",
    "conferir_manutencao",
    "conferir_revisao_sancao",
    "manter_sancao",
    "revisar_sancao",
    "revisoes_pendentes_do_auto",
    "sinalizar",
]


def sinalizar(s: so.Session, ator: Ator, antecedente: AutoInfracao, motivo: str) -> list[int]:
    """After `antecedente`'s penalty was annulled or reduced (`motivo`: how, in words), put on the review
    list every decided case of the same operator and provision, of a later fact, whose sanction today is
    lighter than the one decided (a lower level, a lower ceiling than the fine applied, or a shorter
    suspension allowed); a case already pending is not listed twice. Returns the new rows' ids."""
    punido = s.scalar(
        sa.select(Decisao.id).where(Decisao.auto_id == antecedente.id, Decisao.resultado == "aplicada")
    )
    if punido is None:  # never punished, so never counted as recidivism (art. 7º, § 3º)
        return []
    a = AutoInfracao
    candidatos = s.execute(
        sa.select(a, Decisao)
        .join(Decisao, Decisao.auto_id == a.id)
        .where(
            a.operadora_id == antecedente.operadora_id,
            a.dispositivo_codigo == antecedente.dispositivo_codigo,
            a.data_infracao > antecedente.data_infracao,
            a.id != antecedente.id,
            a.penalidade_anulada.is_(False),
            a.fase != "cancelado",
            Decisao.resultado == "aplicada",
        )
        .order_by(a.data_infracao, a.id)
    ).tuples()
    novas: list[int] = []
    hoje = relogio.hoje()
    for auto, decisao in candidatos:
        pendente = s.scalar(
            sa.select(RevisaoSancao.id).where(
                RevisaoSancao.auto_id == auto.id, RevisaoSancao.situacao == "pendente"
            )
        )
        if pendente is not None:
            continue
        sancao = sancao_do_auto(s, auto, decisao.data)
        suspensao_max = sancao.suspensao_max_dias if sancao.suspensao_cabivel else None
        mais_leve = (
            sancao.reincidencia < decisao.reincidencia
            or sancao.multa_max_ur < auto.multa_ur
            or (suspensao_max or 0) < auto.suspensao_dias
        )
        if not mais_leve:
            continue
        revisao = RevisaoSancao(
            auto_id=auto.id,
            antecedente_auto_id=antecedente.id,
            origem=f"O auto nº {antecedente.numero_formatado}, que contava como reincidência, {motivo}.",
            registrada_em=hoje,
            reincidencia_anterior=decisao.reincidencia,
            reincidencia_atual=sancao.reincidencia,
            faixa_min_ur=sancao.multa_min_ur,
            faixa_max_ur=sancao.multa_max_ur,
            suspensao_max_dias=suspensao_max,
            situacao="pendente",
        )
        s.add(revisao)
        s.flush()
        auditoria.registrar(s, ator, "sinalizar_revisao", "revisao_sancao", revisao.id, None, imagem(revisao))
        novas.append(revisao.id)
    return novas


def revisoes_pendentes_do_auto(sessao: so.Session, auto_id: int) -> list[RevisaoSancao]:
    return list(
        sessao.scalars(
            sa.select(RevisaoSancao)
            .where(RevisaoSancao.auto_id == auto_id, RevisaoSancao.situacao == "pendente")
            .order_by(RevisaoSancao.id)
        )
    )


@dataclass(frozen=True)
class ResumoRevisao:
    id: int
    numero_formatado: str | None
    """"0001/2026" (TRV nº) when revised; None when kept."""
    mensagem: str
    valor_restituir: Decimal | None


@dataclass(frozen=True)
class _Conferida:
    revisao: RevisaoSancao
    auto: AutoInfracao
    decisao: Decisao
    fundamentos: str
    multa: Decimal
    dias: int


def _revisao_pendente(s: so.Session, revisao_id: int) -> RevisaoSancao:
    revisao = s.get(RevisaoSancao, revisao_id) if id_valido(revisao_id) else None
    if revisao is None:
        raise NaoEncontrado(f"Revisão de sanção não encontrada (nº interno {revisao_id}).", "revisao_id")
    if revisao.situacao != "pendente":
        quando = f" em {formatar_data(revisao.decidida_em)}" if revisao.decidida_em else ""
        raise ErroDominio(f"Esta revisão já foi decidida{quando}.", "revisao_id")
    return revisao


@dataclass(frozen=True)
class PedidoRevisao:
    """What `revisar_sancao` and `conferir_revisao_sancao` are asked: the revised (never higher) penalty."""

    revisao_id: int
    multa_ur: Decimal | int | str | None
    suspensao_dias: int | None = 0
    fundamentacao: str = ""


def _conferir_revisao(s: so.Session, ator: Ator, pedido: PedidoRevisao) -> _Conferida:
    """Every check of `revisar_sancao`, in its order, writing nothing."""
    exigir_papel(ator, "secretario", acao="revisar sanções")
    revisao = _revisao_pendente(s, pedido.revisao_id)
    multa = urm_valida(pedido.multa_ur, "multa_ur", "a multa revista (URM)")
    dias = dias_validos(pedido.suspensao_dias, "suspensao_dias", "a suspensão revista")
    fundamentos = texto_obrigatorio(pedido.fundamentacao, "fundamentacao", "a fundamentação da revisão")
    auto = s.get(AutoInfracao, revisao.auto_id)
    decisao = s.scalar(sa.select(Decisao).where(Decisao.auto_id == revisao.auto_id))
    if auto is None or decisao is None:  # the review list is fed from decided cases only
        raise NaoEncontrado("O caso desta revisão não foi encontrado.", "revisao_id")
    if multa > auto.multa_ur or dias > auto.suspensao_dias:
        raise ErroDominio(
            "A revisão nunca agrava a penalidade (Lei federal nº 9.784/1999, art. 65, parágrafo único): a "
            f"penalidade em vigor é {formatar_urm(auto.multa_ur)}"
            + (f" e {auto.suspensao_dias} dias de suspensão" if auto.suspensao_dias else "")
            + ".",
            "multa_ur" if multa > auto.multa_ur else "suspensao_dias",
        )
    if multa == auto.multa_ur and dias == auto.suspensao_dias:
        raise ErroDominio(
            "A penalidade revista é igual à aplicada: para mantê-la, escolha “Manter a penalidade”.",
            "multa_ur",
        )
    conferir_penalidade_nos_campos(sancao_do_auto(s, auto, decisao.data), multa, dias)
    _conferir_papeis(s)
    return _Conferida(revisao, auto, decisao, fundamentos, multa, dias)


def _conferir_papeis(s: so.Session) -> None:
    """What the termo de revisão needs, checked before it takes a number (REGRAS § 5: notified like a
    decision, signed by the Secretary, saying where and how to pay)."""
    timbre_para_assinar(s, "o termo de revisão")
    dados_pagamento(s)


def conferir_revisao_sancao(sessao: so.Session, ator: Ator, pedido: PedidoRevisao) -> None:
    """`revisar_sancao`'s refusals from a read session, writing nothing: what the dialog runs before asking
    to confirm a termo that takes a number."""
    _conferir_revisao(sessao, ator, pedido)


@retentavel
def revisar_sancao(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoRevisao) -> ResumoRevisao:
    """Revise the decided penalty into today's range by the next "termo de revisão" (never raising it).
    An open fine is reduced; a fine paid beyond the revised amount is recorded as to be refunded; a
    suspension is shortened (or annulled at 0 days). Later cases that counted this one are listed in turn."""
    with uow:
        s = uow.session
        c = _conferir_revisao(s, ator, pedido)
        revisao, auto, decisao = c.revisao, c.auto, c.decisao
        hoje = relogio.hoje()
        antes_auto, antes_revisao = imagem(auto), imagem(revisao)
        revisao.multa_ur_anterior, revisao.suspensao_dias_anterior = auto.multa_ur, auto.suspensao_dias
        revisao.multa_ur_nova, revisao.suspensao_dias_nova = c.multa, c.dias
        auto.multa_ur, auto.suspensao_dias = c.multa, c.dias
        auto.alterado_por = ator.login
        alterados: list[tuple[str, Any, dict[str, Any]]] = []
        novo_valor = urm_para_reais(c.multa, decisao.valor_urm) if decisao.valor_urm is not None else None
        pagamento = s.scalar(sa.select(Pagamento).where(Pagamento.decisao_id == decisao.id))
        if pagamento is not None and novo_valor is not None:
            alterados.append(("pagamento", pagamento, imagem(pagamento)))
            if pagamento.situacao == "pago":
                pago = pagamento.valor_pago if pagamento.valor_pago is not None else pagamento.valor
                if pago > novo_valor:
                    revisao.valor_restituir = pago - novo_valor
            elif pagamento.situacao in ("aberto", "divida_ativa"):
                pagamento.valor = novo_valor
        suspensao = s.scalar(sa.select(Suspensao).where(Suspensao.decisao_id == decisao.id))
        if suspensao is not None and not suspensao.anulada:
            alterados.append(("suspensao", suspensao, imagem(suspensao)))
            if c.dias == 0:
                suspensao.anulada = True
            else:
                suspensao.dias = c.dias
                suspensao.fim = suspensao.inicio + timedelta(days=c.dias - 1)
        revisao.situacao = "revisada"
        revisao.decidida_em = hoje
        revisao.decidida_por, revisao.decidida_por_nome = ator.login, ator.nome
        revisao.fundamentacao = c.fundamentos
        revisao.ano, revisao.numero = hoje.year, proximo_numero(s, "TRV", hoje.year)
        for _nome, registro, antes in alterados:
            if imagem(registro) != antes:
                registro.alterado_por = ator.login
        s.flush()
        auditoria.registrar(
            s, ator, "revisar_sancao", "revisao_sancao", revisao.id, antes_revisao, imagem(revisao)
        )
        auditoria.registrar(s, ator, "revisar_sancao", "auto_infracao", auto.id, antes_auto, imagem(auto))
        for nome, registro, antes in alterados:
            if imagem(registro) != antes:
                auditoria.registrar(s, ator, "revisar_sancao", nome, registro.id, antes, imagem(registro))
        sinalizar(
            s, ator, auto, f"teve a penalidade revista pelo termo de revisão nº {revisao.numero_formatado}"
        )
        uow.commit()
        restituir = revisao.valor_restituir
        mensagem = (
            f"Termo de revisão nº {revisao.numero_formatado} lavrado: penalidade revista para "
            f"{formatar_urm(c.multa)}"
            + (f" e {c.dias} {'dia' if c.dias == 1 else 'dias'} de suspensão" if c.dias else "")
            + "."
        )
        if restituir is not None:
            mensagem += f" A multa já paga excede o valor revisto: {formatar_reais(restituir)} a restituir."
        return ResumoRevisao(revisao.id, revisao.numero_formatado, mensagem, restituir)


@dataclass(frozen=True)
class PedidoManutencao:
    """What `manter_sancao` and `conferir_manutencao` are asked: the reasons to keep the penalty."""

    revisao_id: int
    fundamentacao: str = ""


def _conferir_manutencao(s: so.Session, ator: Ator, pedido: PedidoManutencao) -> tuple[RevisaoSancao, str]:
    exigir_papel(ator, "secretario", acao="revisar sanções")
    revisao = _revisao_pendente(s, pedido.revisao_id)
    return revisao, texto_obrigatorio(
        pedido.fundamentacao, "fundamentacao", "a fundamentação para manter a penalidade"
    )


def conferir_manutencao(sessao: so.Session, ator: Ator, pedido: PedidoManutencao) -> None:
    _conferir_manutencao(sessao, ator, pedido)


@retentavel
def manter_sancao(uow: UnidadeDeTrabalho, ator: Ator, pedido: PedidoManutencao) -> ResumoRevisao:
    """Keep the decided penalty, with the reasons (the case leaves the review list)."""
    with uow:
        s = uow.session
        revisao, fundamentos = _conferir_manutencao(s, ator, pedido)
        antes = imagem(revisao)
        revisao.situacao = "mantida"
        revisao.decidida_em = relogio.hoje()
        revisao.decidida_por, revisao.decidida_por_nome = ator.login, ator.nome
        revisao.fundamentacao = fundamentos
        s.flush()
        auditoria.registrar(s, ator, "manter_sancao", "revisao_sancao", revisao.id, antes, imagem(revisao))
        uow.commit()
        return ResumoRevisao(revisao.id, None, "Penalidade mantida; a revisão saiu da lista.", None)
