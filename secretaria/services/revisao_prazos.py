"""Deadlines only move later (REGRAS § 4): a non-business day registered after deadlines were counted.

Arts. 14 and 15 with Lei 9.784/1999, art. 66: a deadline ending on a day without office hours moves to the
next business day. A day registered later (a ponto facultativo decreed for a date already counted) therefore
moves every deadline that ended on it, and only those: a deadline ends on a business day, so a day registered
before its end or after it changes nothing. The deadline only ever moves later (`max` of the stored one and the
one counted now — removing a day never shortens a deadline already counted). The petitions already recorded
are classified again against the new deadline (an "intempestiva" may become "tempestiva"; a timely appeal then
holds the decision back from becoming final), the case's timeline records the change and why (one
`RevisaoPrazo` row per deadline), and a decided case whose petition changed class waits on the home screen for
the Secretary's review (`filas.revisoes_de_prazo_a_conferir`, cleared by `conferir_revisao`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import UnidadeDeTrabalho, retentavel
from secretaria.lei.formato import formatar_data
from secretaria.lei.prazos import PRAZO_DEFESA_DIAS, PRAZO_RECURSO_DIAS
from secretaria.models import AutoInfracao, Decisao, Defesa, Intimacao, Recurso, RevisaoPrazo
from secretaria.services import auditoria, definitividade
from secretaria.services.base import Ator, ErroDominio, exigir_papel
from secretaria.services.lei_db import calendario
from secretaria.services.processo_base import imagem, obter

ACAO = "rever_prazos"


def rever_prazos(sessao: so.Session, ator: Ator, dia: date) -> list[int]:
    """Move later every deadline that ended on `dia`, now a non-business day (already flushed); returns the
    ids of the `RevisaoPrazo` rows written. Runs inside the caller's unit of work (the calendar service's)."""
    cal = calendario(sessao)
    motivo_dia = cal.motivo_sem_expediente(dia)
    if motivo_dia is None:  # pragma: no cover - the caller has just registered `dia`
        return []
    intimacoes = sessao.scalars(
        sa.select(Intimacao).where(Intimacao.prazo == dia).order_by(Intimacao.auto_id, Intimacao.id)
    ).all()
    revisoes: list[int] = []
    for intimacao in intimacoes:
        auto = sessao.scalar(
            sa.select(AutoInfracao).where(AutoInfracao.id == intimacao.auto_id).with_for_update()
        )
        if auto is None or auto.fase == "cancelado":
            continue
        defesa = intimacao.objeto == "auto"
        anterior = auto.prazo_defesa if defesa else auto.prazo_recurso
        if anterior is None:  # pragma: no cover - the intimação that started it set both
            continue
        dias = PRAZO_DEFESA_DIAS if defesa else PRAZO_RECURSO_DIAS
        # The deadline as counted now, or — when a longer one was kept (a day removed since) — the stored one
        # moved past the new day: whichever is later.
        novo = max(cal.proximo_dia_util(anterior), cal.vencimento(intimacao.data, dias))
        if novo <= anterior:
            continue
        antes_auto, antes_intimacao = imagem(auto), imagem(intimacao)
        intimacao.prazo = novo
        if defesa:
            auto.prazo_defesa = novo
        else:
            auto.prazo_recurso = novo
        mudancas = _reclassificar(sessao, ator, auto, defesa, novo)
        definitividade.atualizar(sessao, auto)
        auto.alterado_por = ator.login
        decidido = sessao.scalar(sa.select(Decisao.id).where(Decisao.auto_id == auto.id)) is not None
        revisao = RevisaoPrazo(
            auto_id=auto.id,
            data=relogio.hoje(),
            prazo="defesa" if defesa else "recurso",
            anterior=anterior,
            novo=novo,
            motivo=(
                f"{formatar_data(dia)} cadastrado depois como dia sem expediente ({motivo_dia}); "
                f"o prazo contado da intimação de {formatar_data(intimacao.data)} vence no primeiro dia "
                "útil seguinte (Lei nº 9.784/1999, art. 66, § 1º)"
            ),
            reclassificacao="; ".join(mudancas),
            reclassificou=bool(mudancas),
            decidido=decidido,
            registrado_por=ator.login,
            registrado_em=relogio.agora(),
        )
        sessao.add(revisao)
        sessao.flush()
        auditoria.registrar(sessao, ator, ACAO, "intimacao", intimacao.id, antes_intimacao, imagem(intimacao))
        auditoria.registrar(sessao, ator, ACAO, "auto_infracao", auto.id, antes_auto, imagem(auto))
        auditoria.registrar(sessao, ator, ACAO, "revisao_prazo", revisao.id, None, imagem(revisao))
        revisoes.append(revisao.id)
    return revisoes


def _reclassificar(sessao: so.Session, ator: Ator, auto: AutoInfracao, defesa: bool, novo: date) -> list[str]:
    """Classify the recorded petitions again against the new deadline; one sentence per change (audited)."""
    mudancas: list[str] = []
    if defesa:
        for d in sessao.scalars(sa.select(Defesa).where(Defesa.auto_id == auto.id).order_by(Defesa.id)):
            tempestiva = d.protocolada_em <= novo
            if tempestiva != d.tempestiva:
                antes = imagem(d)
                d.tempestiva, d.alterado_por = tempestiva, ator.login
                sessao.flush()
                auditoria.registrar(sessao, ator, ACAO, "defesa", d.id, antes, imagem(d))
                mudancas.append(
                    f"defesa protocolada em {formatar_data(d.protocolada_em)}: "
                    f"{'intempestiva → tempestiva' if tempestiva else 'tempestiva → intempestiva'}"
                )
        return mudancas
    recurso = sessao.scalar(
        sa.select(Recurso).join(Decisao, Decisao.id == Recurso.decisao_id).where(Decisao.auto_id == auto.id)
    )
    if recurso is not None and not recurso.tempestivo and recurso.protocolado_em <= novo:
        antes = imagem(recurso)
        recurso.tempestivo, recurso.alterado_por = True, ator.login
        if recurso.resultado == "pendente" and auto.fase == "decidido":
            auto.fase = "em_recurso"  # a timely appeal now holds the decision back from becoming final
        sessao.flush()
        auditoria.registrar(sessao, ator, ACAO, "recurso", recurso.id, antes, imagem(recurso))
        mudancas.append(
            f"recurso protocolado em {formatar_data(recurso.protocolado_em)}: intempestivo → tempestivo"
        )
    return mudancas


@dataclass(frozen=True)
class RevisaoResumo:
    id: int
    auto_id: int
    data: date
    prazo: str
    anterior: date
    novo: date
    motivo: str
    reclassificacao: str
    decidido: bool
    conferida_em: date | None
    conferida_por: str | None

    @property
    def titulo(self) -> str:
        nome = "defesa (art. 14)" if self.prazo == "defesa" else "recurso (art. 15)"
        return f"Prazo de {nome} prorrogado"

    @property
    def descricao(self) -> str:
        texto = f"De {formatar_data(self.anterior)} para {formatar_data(self.novo)}: {self.motivo}."
        if self.reclassificacao:
            texto += f" Reclassificado: {self.reclassificacao}."
            if self.decidido:
                texto += (
                    f" Conferido por {self.conferida_por} em {formatar_data(self.conferida_em)}."
                    if self.conferida_em
                    else " Caso já decidido: aguarda a conferência do Secretário de Serviços Urbanos."
                )
        return texto


def revisoes_do_auto(sessao: so.Session, auto_id: int) -> tuple[RevisaoResumo, ...]:
    return tuple(
        RevisaoResumo(
            r.id, r.auto_id, r.data, r.prazo, r.anterior, r.novo, r.motivo, r.reclassificacao, r.decidido,
            r.conferida_em, r.conferida_por,
        )
        for r in sessao.scalars(
            sa.select(RevisaoPrazo).where(RevisaoPrazo.auto_id == auto_id).order_by(RevisaoPrazo.id)
        )
    )  # fmt: skip


@retentavel
def conferir_revisoes_do_auto(uow: UnidadeDeTrabalho, ator: Ator, *, auto_id: int) -> int:
    """The Secretary has reviewed the case: every reclassified revision of this decided auto still waiting
    for review leaves the home screen, in one act. Returns how many were reviewed."""
    exigir_papel(ator, "secretario", acao="conferir revisões de prazo")
    with uow:
        s = uow.session
        pendentes = list(
            s.scalars(
                sa.select(RevisaoPrazo)
                .where(
                    RevisaoPrazo.auto_id == auto_id,
                    RevisaoPrazo.reclassificou.is_(True),
                    RevisaoPrazo.decidido.is_(True),
                    RevisaoPrazo.conferida_em.is_(None),
                )
                .order_by(RevisaoPrazo.id)
            )
        )
        if not pendentes:
            raise ErroDominio("Este caso não tem revisão de prazo a conferir.")
        for revisao in pendentes:
            antes = imagem(revisao)
            revisao.conferida_em, revisao.conferida_por = relogio.hoje(), ator.login
            s.flush()
            auditoria.registrar(
                s, ator, "conferir_revisao_prazo", "revisao_prazo", revisao.id, antes, imagem(revisao)
            )
        uow.commit()
    return len(pendentes)


@retentavel
def conferir_revisao(uow: UnidadeDeTrabalho, ator: Ator, *, revisao_id: int) -> None:
    """The Secretary has reviewed a decided case whose petition changed class: it leaves the home screen."""
    exigir_papel(ator, "secretario", acao="conferir revisões de prazo")
    with uow:
        s = uow.session
        revisao = obter(s, RevisaoPrazo, revisao_id, "Revisão de prazo", "revisao_id")
        if revisao.conferida_em is not None:
            raise ErroDominio(
                f"Esta revisão já foi conferida em {formatar_data(revisao.conferida_em)}.", "revisao_id"
            )
        antes = imagem(revisao)
        revisao.conferida_em, revisao.conferida_por = relogio.hoje(), ator.login
        s.flush()
        auditoria.registrar(
            s, ator, "conferir_revisao_prazo", "revisao_prazo", revisao.id, antes, imagem(revisao)
        )
        uow.commit()
