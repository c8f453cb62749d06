"""The figures every report shows, defined once (REGRAS § 5, "Figures in reports"): the annual report (PDF and
workbook), the monthly workbook, the operator's ficha and the Painel all read them from here, so they agree.

- A fine counts as applied only while it stands: a decision that applied it, on an auto not cancelled, whose
  penalty no appeal annulled; a fine annulled on appeal counts nowhere.
- A fine counts at its final value: the URM quantity as it stands on the auto (reduced on appeal or by a
  revision) times the URM of the decision's day. Where nothing changed that is the decision's own stored
  amount; the few changed ones are recomputed here (`urm_para_reais`, half up), never by the database's own
  rounding, so SQLite and PostgreSQL give the same cents.
- An auto is counted by the date the column names: "lavrados" by the day it was drawn up (the numbering's
  year), "por mês da infração" by the day of the fact.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.lei.urm import urm_para_reais
from secretaria.models import AutoInfracao, Decisao, DispositivoCatalogo, Pagamento, Recurso, Suspensao

__all__ = [
    "MultaVigente",
    "Multas",
    "autos_lavrados",
    "autos_por_dispositivo",
    "consulta_casos",
    "multa_da_linha",
    "multa_vale",
    "multa_vigente",
    "multas_aplicadas",
    "suspensao_vale",
]


Chave = sa.ColumnElement[Any] | so.QueryableAttribute[Any]
"""A grouping key: a column of `AutoInfracao` or `Decisao`, or an expression over them."""


@dataclass(frozen=True)
class MultaVigente:
    """A fine as it stands: URM quantity and R$ at the URM of the decision's day."""

    urm: Decimal
    reais: Decimal


@dataclass(frozen=True)
class Multas:
    quantidade: int
    reais: Decimal


def multa_vigente(
    *,
    resultado: str | None,
    anulada: bool,
    fase: str,
    multa_ur_auto: Decimal,
    multa_ur_decisao: Decimal | None,
    multa_reais_decisao: Decimal | None,
    valor_urm: Decimal | None,
) -> MultaVigente | None:
    """The fine of one case as every report shows it, or None when none stands (undecided, dismissed,
    annulled on appeal, cancelled, or a penalty without a fine)."""
    if resultado != "aplicada" or anulada or fase == "cancelado" or not multa_ur_auto:
        return None
    if multa_ur_decisao == multa_ur_auto and multa_reais_decisao is not None:
        return MultaVigente(multa_ur_auto, multa_reais_decisao)
    if valor_urm is None:
        return None
    return MultaVigente(multa_ur_auto, urm_para_reais(multa_ur_auto, valor_urm))


def multa_da_linha(r: Any) -> MultaVigente | None:
    """`multa_vigente` of a query row that selects the auto's `resultado`, `penalidade_anulada`, `fase` and
    `multa_ur` with its decision's `multa_decidida`, `multa_reais` and `valor_urm` (the ficha's and the
    monthly report's rows), so those reports read the row the same way."""
    return multa_vigente(
        resultado=r.resultado,
        anulada=r.penalidade_anulada,
        fase=r.fase,
        multa_ur_auto=r.multa_ur,
        multa_ur_decisao=r.multa_decidida,
        multa_reais_decisao=r.multa_reais,
        valor_urm=r.valor_urm,
    )


def consulta_casos(
    *colunas: Any,
    decididos: bool = False,
    pagamento: bool = False,
    suspensao: bool = False,
    por_auto: bool = False,
) -> sa.Select[Any]:
    """The one auto ⋈ decisão ⋈ recurso (⋈ pagamento ⋈ suspensão) select of the ficha and the monthly report:
    a row per auto (with `decididos`, per decided auto only), joined to its provision, with what
    `multa_da_linha` reads (`ano`, `numero`, `tipo`, `fase`, `multa_ur`, `penalidade_anulada`, `resultado`,
    `multa_decidida`, `multa_reais`, `valor_urm`), the provision's `rotulo` and the appeal's result as
    `recurso`; with `pagamento`, the payment's situation as `pagamento`, `pago_em` and `valor_pago`; with
    `suspensao`, the auto's days as they stand as `suspensao_auto` and the suspension's `inicio`, `fim`, `dias`
    and `anulada`; then `colunas`. The caller adds its other joins, its filter and its order.

    `por_auto` (PostgreSQL, without `decididos`, for a caller that filters on the auto's own columns): the
    decision is reached per auto through its unique key (a LEFT JOIN LATERAL), so the plan drives from the
    filtered autos instead of hashing every decision; the caller must then not name `Decisao` itself."""
    a = AutoInfracao
    d: Any = Decisao
    juncao_decisao: Any = d
    condicao_decisao: Any = Decisao.auto_id == a.id
    if por_auto and not decididos:
        # OFFSET 0 keeps the planner from pulling the subquery up into a plain join (and a hash of all).
        d = (
            sa.select(Decisao.id, Decisao.resultado, Decisao.valor_urm, Decisao.multa_ur, Decisao.multa_reais)
            .where(Decisao.auto_id == a.id)
            .offset(0)
            .lateral("decisao_do_auto")
            .c
        )
        juncao_decisao, condicao_decisao = d.id.table, sa.true()
    extras: list[Any] = []
    if pagamento:
        extras += [Pagamento.situacao.label("pagamento"), Pagamento.pago_em, Pagamento.valor_pago]
    if suspensao:
        extras += [
            a.suspensao_dias.label("suspensao_auto"),
            Suspensao.inicio,
            Suspensao.fim,
            Suspensao.dias,
            Suspensao.anulada,
        ]
    consulta = (
        sa.select(
            a.ano,
            a.numero,
            a.tipo,
            a.fase,
            a.multa_ur,
            a.penalidade_anulada,
            DispositivoCatalogo.rotulo,
            d.resultado,
            d.valor_urm,
            d.multa_ur.label("multa_decidida"),
            d.multa_reais,
            Recurso.resultado.label("recurso"),
            *extras,
            *colunas,
        )
        .select_from(a)
        .join(DispositivoCatalogo, DispositivoCatalogo.codigo == a.dispositivo_codigo)
        .join(juncao_decisao, condicao_decisao, isouter=not decididos)
        .outerjoin(Recurso, Recurso.decisao_id == d.id)
    )
    if pagamento:
        consulta = consulta.outerjoin(Pagamento, Pagamento.decisao_id == d.id)
    if suspensao:
        consulta = consulta.outerjoin(Suspensao, Suspensao.decisao_id == d.id)
    return consulta


def multa_vale(a: Any = AutoInfracao, d: Any = Decisao) -> sa.ColumnElement[bool]:
    """`multa_vigente`'s "a fine stands" in SQL, over `AutoInfracao` (or an alias of it) joined to its
    `Decisao`."""
    return sa.and_(
        d.resultado == "aplicada", a.penalidade_anulada.is_(False), a.fase != "cancelado", a.multa_ur > 0
    )


def suspensao_vale(a: Any = AutoInfracao, d: Any = Decisao) -> sa.ColumnElement[bool]:
    """A suspension stands: applied by the decision, not annulled on appeal nor reduced to none, on an auto
    not cancelled (its days are the auto's, as they stand after the appeal)."""
    return sa.and_(
        d.resultado == "aplicada",
        a.penalidade_anulada.is_(False),
        a.fase != "cancelado",
        a.suspensao_dias > 0,
    )


def multas_aplicadas(
    sessao: so.Session, chaves: Sequence[Chave], *condicoes: sa.ColumnElement[bool]
) -> dict[tuple[Any, ...], Multas]:
    """The standing fines grouped by `chaves` (SQL expressions over `AutoInfracao` and `Decisao`, e.g. the
    decision's month or the auto's operator), among the decisions that meet `condicoes`: how many and their
    final R$, in one grouped query."""
    a, d = AutoInfracao, Decisao
    # One grouped scan: a fine whose quantity is the decision's own sums its stored amount; the others (a
    # reduction on appeal, a revision) are grouped by their final quantity and URM, each group's fine
    # recomputed once here and counted as many times as it occurs.
    mudou = a.multa_ur != d.multa_ur
    urm_final = sa.case((mudou, a.multa_ur), else_=sa.null())
    valor_final = sa.case((mudou, d.valor_urm), else_=sa.null())
    linhas = sessao.execute(
        sa.select(*chaves, urm_final, valor_final, sa.func.count(), sa.func.sum(d.multa_reais))
        .select_from(d)
        .join(a, a.id == d.auto_id)
        .where(multa_vale(), *condicoes)
        .group_by(*chaves, urm_final, valor_final)
    ).all()
    somas: dict[tuple[Any, ...], list[Any]] = defaultdict(lambda: [0, Decimal(0)])
    n = len(chaves)
    for linha in linhas:
        urm, valor, quantidade, soma = linha[n], linha[n + 1], int(linha[n + 2]), linha[n + 3]
        if urm is not None and valor is None:
            continue  # a changed fine without the URM of its day has no final value (as `multa_vigente`)
        total = somas[tuple(linha[:n])]
        total[0] += quantidade
        if urm is None:
            total[1] += Decimal(str(soma or 0))
        else:
            total[1] += quantidade * urm_para_reais(Decimal(str(urm)), Decimal(str(valor)))
    return {k: Multas(q, r.quantize(Decimal("0.01"))) for k, (q, r) in somas.items()}


def autos_lavrados(
    sessao: so.Session, desde: date, ate: date, chaves: Sequence[Chave] = ()
) -> dict[tuple[Any, ...], int]:
    """Autos drawn up from `desde` to `ate` (by the lavratura, cancelled ones too: each took a number),
    grouped by `chaves` over `AutoInfracao`; `()` → the single total under the key `()`."""
    a = AutoInfracao
    consulta = sa.select(*chaves, sa.func.count()).where(a.data_lavratura >= desde, a.data_lavratura <= ate)
    if chaves:
        consulta = consulta.group_by(*chaves)
    n = len(chaves)
    return {tuple(linha[:n]): int(linha[n]) for linha in sessao.execute(consulta)}


@dataclass(frozen=True)
class AutosDispositivo:
    codigo: str
    rotulo: str
    tipo: str
    autos: int


def autos_por_dispositivo(
    sessao: so.Session, desde: date, ate: date, *, data: str = "lavratura"
) -> tuple[AutosDispositivo, ...]:
    """Every provision cited by the autos of the period (by the lavratura or, with `data="infracao"`, by the
    day of the fact), most cited first: the whole list, so a report's total is every auto's."""
    a, dc = AutoInfracao, DispositivoCatalogo
    coluna = a.data_lavratura if data == "lavratura" else a.data_infracao
    consulta = (
        sa.select(a.dispositivo_codigo, dc.rotulo, dc.tipo, sa.func.count())
        .outerjoin(dc, dc.codigo == a.dispositivo_codigo)
        .where(coluna >= desde, coluna <= ate)
        .group_by(a.dispositivo_codigo, dc.rotulo, dc.tipo)
        .order_by(sa.func.count().desc(), a.dispositivo_codigo)
    )
    return tuple(
        AutosDispositivo(codigo, rotulo or codigo, tipo or "", int(n))
        for codigo, rotulo, tipo, n in sessao.execute(consulta)
    )
