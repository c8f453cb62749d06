"""The day a penalty became final ("definitiva"), in one place (REGRAS § 3, rule 1; arts. 7º caput and 15).

Art. 7º caput applies a penalty only "após ... decisão em última instância", so an earlier auto counts as
"punido" for recidivism only from the day its penalty became final:
- the day after the appeal deadline (art. 15, counted from the delivered intimação of the decision) when no
  timely appeal was filed — a late appeal changes nothing;
- on a timely appeal, the day the Prefeito judged it: denied, or granted in part (the reduced penalty is then
  the penalty); granted in full annuls it, so it never becomes final;
- never while the decision was not notified, nor while a timely appeal is pending.

The day is stored on the auto (`AutoInfracao.data_definitiva`) so the sanction panel's indexed reading of the
antecedents needs no join; `atualizar` recomputes it and every act that changes one of its inputs calls it
(decision, intimação of the decision, appeal, appeal judgement, a deadline moved by the calendar).
"""

from __future__ import annotations

from datetime import date, timedelta

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.lei.formato import formatar_data
from secretaria.models import AutoInfracao, Decisao, Recurso


def penalidade_definitiva_em(
    *,
    resultado: str | None,
    prazo_recurso: date | None,
    recurso_tempestivo: bool | None,
    recurso_resultado: str | None,
    recurso_julgado_em: date | None,
) -> date | None:
    """The day the applied penalty becomes final (possibly still ahead), or None when it never does as things
    stand (not applied, not notified, timely appeal pending, or annulled on appeal)."""
    if resultado != "aplicada":
        return None
    if recurso_tempestivo:
        if recurso_julgado_em is None or recurso_resultado in (None, "pendente", "provido"):
            return None
        return recurso_julgado_em
    if prazo_recurso is None:
        return None
    return prazo_recurso + timedelta(days=1)


def decisao_definitiva_em(
    *,
    resultado: str | None,
    data_decisao: date | None,
    prazo_recurso: date | None,
    recurso_tempestivo: bool | None,
    recurso_julgado_em: date | None,
) -> date | None:
    """The day the decision itself became final, whatever it decided: a dismissal when made (no appeal lies),
    a timely appeal's judgement (an annulment too is final), else as `penalidade_definitiva_em`."""
    if resultado is None or data_decisao is None:
        return None
    if resultado == "arquivado":
        return data_decisao
    if recurso_tempestivo:
        return recurso_julgado_em
    return penalidade_definitiva_em(
        resultado=resultado,
        prazo_recurso=prazo_recurso,
        recurso_tempestivo=recurso_tempestivo,
        recurso_resultado=None,
        recurso_julgado_em=None,
    )


def calcular(sessao: so.Session, auto: AutoInfracao) -> date | None:
    """`penalidade_definitiva_em` for `auto`, from its decision and appeal rows as they are now."""
    sessao.flush()
    linha = sessao.execute(
        sa.select(Decisao.resultado, Recurso.tempestivo, Recurso.resultado, Recurso.julgado_em)
        .outerjoin(Recurso, Recurso.decisao_id == Decisao.id)
        .where(Decisao.auto_id == auto.id)
    ).first()
    if linha is None:
        return None
    return penalidade_definitiva_em(
        resultado=linha[0],
        prazo_recurso=auto.prazo_recurso,
        recurso_tempestivo=linha[1],
        recurso_resultado=linha[2],
        recurso_julgado_em=linha[3],
    )


def atualizar(sessao: so.Session, auto: AutoInfracao) -> bool:
    """Store the day `auto`'s penalty becomes final; True when it changed. Callers audit the auto after."""
    novo = None if auto.fase == "cancelado" or auto.penalidade_anulada else calcular(sessao, auto)
    if auto.data_definitiva == novo:
        return False
    auto.data_definitiva = novo
    return True


def motivo_nao_definitiva(
    *,
    data_decisao: date,
    data_definitiva: date | None,
    prazo_recurso: date | None,
    recurso_pendente: bool,
    dia: date,
) -> str | None:
    """Why a decided prior was not yet final on `dia` (the new fact's day), saying until when; None if it was.

    The words of REGRAS § 3 rule 1: "decisão de dd/mm ainda recorrível até dd/mm" / "recurso pendente" /
    "decisão não notificada".
    """
    if data_definitiva is not None and data_definitiva <= dia:
        return None
    decisao = f"decisão de {formatar_data(data_decisao)}"
    if data_definitiva is None:
        if recurso_pendente:
            return f"{decisao} com recurso pendente ao Prefeito: penalidade ainda não definitiva"
        if prazo_recurso is None:
            return f"{decisao} não notificada: sem intimação entregue, a penalidade não é definitiva"
        return f"{decisao}: penalidade não definitiva"  # pragma: no cover - annulled priors say so first
    if prazo_recurso is not None and data_definitiva == prazo_recurso + timedelta(days=1):
        return (
            f"{decisao} ainda recorrível até {formatar_data(prazo_recurso)} "
            f"(definitiva só em {formatar_data(data_definitiva)}, após o novo fato)"
        )
    return (
        f"{decisao}: recurso julgado só em {formatar_data(data_definitiva)}, após o novo fato — "
        "penalidade ainda não definitiva nele"
    )
