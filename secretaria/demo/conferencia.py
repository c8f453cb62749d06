"""Checks that a generated city is legally coherent, recomputed from the rows alone (no generator state).

Used by the tests of the demo and of the benchmark's generator. Each problem is one Portuguese line naming
the auto; an empty list means the city holds together:
- numbers: one sequence per year, 1…N without gaps, and `numeracao` ending at N (AI and REP);
- penalties: each decision's range recomputed with `calcular_sancao` over *all* the operator's earlier autos
  of the same provision, each counted from the day its penalty became final (REGRAS § 3 rule 1: the day
  after the appeal deadline with no timely appeal, or the day a timely appeal was denied or granted in part),
  recomputed here from the decision notice and the appeal rows; the fine and the suspension inside it
  (`conferir_penalidade`); R$ = URM of the decision day; the auto's stored `data_definitiva` is that day;
- deadlines: intimações on business days; `prazo_defesa`/`prazo_recurso` = `vencimento` of the first
  successful intimação; defences and appeals marked timely exactly when filed by the deadline;
- the auto's `fase` and its denormalized penalty columns agree with the act rows.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.lei.erros import ErroLei
from secretaria.lei.prazos import Calendario
from secretaria.lei.sancoes import Antecedente, calcular_sancao, conferir_penalidade
from secretaria.lei.urm import ValorUrm, urm_para_reais, valor_em
from secretaria.models import (
    AutoInfracao,
    Decisao,
    Defesa,
    DiaNaoUtil,
    Intimacao,
    Numeracao,
    Pagamento,
    Recurso,
    Representacao,
    Suspensao,
    ValorURM,
)


@dataclass
class _Caso:
    id: int
    rotulo: str
    operadora_id: int
    dispositivo: str
    tipo: str
    infracao: date
    lavratura: date
    fase: str
    cancelado: date | None
    prazo_defesa: date | None
    prazo_recurso: date | None
    data_decisao: date | None
    data_definitiva: date | None
    multa_ur: Decimal
    suspensao_dias: int
    anulada: bool
    decisao: Decisao | None = None
    recurso: Recurso | None = None


def conferir_cidade(sessao: so.Session, hoje: date) -> list[str]:
    """Every incoherence found in the database's cases (empty when none)."""
    problemas: list[str] = []
    problemas += _conferir_numeracao(sessao)

    feriados = {d.data: d.descricao for d in sessao.scalars(sa.select(DiaNaoUtil))}
    cal = Calendario(feriados)
    urm = [ValorUrm(v.vigencia, v.valor, v.ato) for v in sessao.scalars(sa.select(ValorURM))]

    casos: dict[int, _Caso] = {}
    for a in sessao.execute(
        sa.select(
            AutoInfracao.id,
            AutoInfracao.ano,
            AutoInfracao.numero,
            AutoInfracao.operadora_id,
            AutoInfracao.dispositivo_codigo,
            AutoInfracao.tipo,
            AutoInfracao.data_infracao,
            AutoInfracao.data_lavratura,
            AutoInfracao.fase,
            AutoInfracao.cancelado_em,
            AutoInfracao.prazo_defesa,
            AutoInfracao.prazo_recurso,
            AutoInfracao.data_decisao,
            AutoInfracao.data_definitiva,
            AutoInfracao.multa_ur,
            AutoInfracao.suspensao_dias,
            AutoInfracao.penalidade_anulada,
        )
    ):
        casos[a.id] = _Caso(
            a.id,
            f"AI {a.numero:04d}/{a.ano}",
            a.operadora_id,
            a.dispositivo_codigo,
            a.tipo,
            a.data_infracao,
            a.data_lavratura,
            a.fase,
            a.cancelado_em.date() if a.cancelado_em else None,
            a.prazo_defesa,
            a.prazo_recurso,
            a.data_decisao,
            a.data_definitiva,
            a.multa_ur,
            a.suspensao_dias,
            a.penalidade_anulada,
        )
    for d in sessao.scalars(sa.select(Decisao)):
        casos[d.auto_id].decisao = d
    por_decisao = {c.decisao.id: c for c in casos.values() if c.decisao is not None}
    for r in sessao.scalars(sa.select(Recurso)):
        por_decisao[r.decisao_id].recurso = r

    intimacoes: dict[tuple[int, str], list[Intimacao]] = defaultdict(list)
    for i in sessao.scalars(sa.select(Intimacao).order_by(Intimacao.data, Intimacao.id)):
        intimacoes[(i.auto_id, i.objeto)].append(i)
        if not cal.eh_dia_util(i.data):
            problemas.append(f"Intimação {i.id}: feita em dia sem expediente ({i.data:%d/%m/%Y}).")
        if i.data > hoje:
            problemas.append(f"Intimação {i.id}: data futura.")

    for c in casos.values():
        problemas += _conferir_fase_e_prazos(c, intimacoes, cal, hoje)

    for df in sessao.scalars(sa.select(Defesa)):
        c = casos[df.auto_id]
        if c.prazo_defesa is None:
            problemas.append(f"{c.rotulo}: defesa sem intimação.")
        elif df.tempestiva != (df.protocolada_em <= c.prazo_defesa):
            problemas.append(
                f"{c.rotulo}: defesa marcada tempestiva={df.tempestiva} com prazo {c.prazo_defesa}."
            )

    problemas += _conferir_penalidades(casos, urm)
    problemas += _conferir_pagamentos_e_suspensoes(sessao, por_decisao, urm)
    return problemas


def _conferir_numeracao(sessao: so.Session) -> list[str]:
    problemas: list[str] = []
    ultimos = {(n.serie, n.ano): n.ultimo for n in sessao.scalars(sa.select(Numeracao))}
    for serie, modelo in (("AI", AutoInfracao), ("REP", Representacao)):
        por_ano: dict[int, list[int]] = defaultdict(list)
        for ano, numero in sessao.execute(sa.select(modelo.ano, modelo.numero)):
            por_ano[ano].append(numero)
        for ano, numeros in por_ano.items():
            if sorted(numeros) != list(range(1, len(numeros) + 1)):
                problemas.append(f"{serie} {ano}: numeração com lacunas ou repetições.")
            if ultimos.get((serie, ano)) != len(numeros):
                problemas.append(
                    f"{serie} {ano}: numeração termina em {ultimos.get((serie, ano))}, último usado {len(numeros)}."
                )
    return problemas


def _conferir_fase_e_prazos(  # noqa: C901 (one check per phase, read top to bottom)
    c: _Caso, intimacoes: dict[tuple[int, str], list[Intimacao]], cal: Calendario, hoje: date
) -> list[str]:
    problemas: list[str] = []
    ok_auto = [i for i in intimacoes.get((c.id, "auto"), []) if i.sucesso]
    ok_dec = [i for i in intimacoes.get((c.id, "decisao"), []) if i.sucesso]
    d, r = c.decisao, c.recurso
    if c.cancelado is not None:
        esperada = "cancelado"
    elif not ok_auto:
        esperada = "lavrado"
    elif d is None:
        esperada = "intimado"
    elif r is not None and r.resultado == "pendente":
        esperada = "em_recurso" if r.tempestivo else "decidido"
    elif r is not None or d.resultado == "arquivado":
        esperada = "encerrado"
    else:
        esperada = "decidido"
    if c.cancelado is not None and d is not None:
        problemas.append(f"{c.rotulo}: cancelado depois de decidido.")
    if c.fase != esperada:
        problemas.append(f"{c.rotulo}: fase {c.fase}, mas os atos indicam {esperada}.")
    if c.infracao > c.lavratura or c.lavratura > hoje:
        problemas.append(f"{c.rotulo}: datas de infração/lavratura fora de ordem.")
    prazo_def = cal.vencimento(ok_auto[0].data, 15) if ok_auto else None
    if c.prazo_defesa != prazo_def:
        problemas.append(f"{c.rotulo}: prazo de defesa {c.prazo_defesa}, calculado {prazo_def}.")
    prazo_rec = cal.vencimento(ok_dec[0].data, 15) if ok_dec else None
    if c.prazo_recurso != prazo_rec:
        problemas.append(f"{c.rotulo}: prazo de recurso {c.prazo_recurso}, calculado {prazo_rec}.")
    if ok_auto and ok_auto[0].data < c.lavratura:
        problemas.append(f"{c.rotulo}: intimado antes da lavratura.")
    if d is not None:
        if not ok_auto or d.data < ok_auto[0].data:
            problemas.append(f"{c.rotulo}: decisão sem intimação anterior do auto.")
        aplicada = d.resultado == "aplicada"
        anulada = r is not None and r.resultado == "provido"
        parcial = r is not None and r.resultado == "provido_parcialmente"
        multa = (r.multa_ur_nova if parcial and r else d.multa_ur) if aplicada else Decimal(0)
        susp = (r.suspensao_dias_nova if parcial and r else d.suspensao_dias) if aplicada else 0
        if c.data_decisao != (d.data if aplicada else None):
            problemas.append(f"{c.rotulo}: data_decisao {c.data_decisao} difere da decisão.")
        if c.data_definitiva != _definitiva(c, prazo_rec):
            problemas.append(
                f"{c.rotulo}: data_definitiva {c.data_definitiva}, calculada {_definitiva(c, prazo_rec)}."
            )
        if c.multa_ur != multa or c.suspensao_dias != susp or c.anulada != anulada:
            problemas.append(f"{c.rotulo}: penalidade do auto não confere com decisão e recurso.")
        if r is not None and prazo_rec is not None and r.tempestivo != (r.protocolado_em <= prazo_rec):
            problemas.append(f"{c.rotulo}: recurso marcado tempestivo={r.tempestivo} com prazo {prazo_rec}.")
        if r is not None and ok_dec and r.protocolado_em < ok_dec[0].data:
            problemas.append(f"{c.rotulo}: recurso antes da intimação da decisão.")
    elif c.data_decisao is not None or c.data_definitiva is not None or c.multa_ur or c.suspensao_dias:
        problemas.append(f"{c.rotulo}: penalidade no auto sem decisão.")
    return problemas


def _definitiva(c: _Caso, prazo_recurso: date | None) -> date | None:
    """The day `c`'s penalty became final, from the rows (REGRAS § 3 rule 1), None if it never does."""
    d, r = c.decisao, c.recurso
    if d is None or d.resultado != "aplicada":
        return None
    if r is not None and r.tempestivo:
        return r.julgado_em if r.resultado in ("negado", "provido_parcialmente") else None
    return None if prazo_recurso is None else prazo_recurso + timedelta(days=1)


def _antecedente(c: _Caso) -> Antecedente:
    """`c` as an antecedent: counted from the day its penalty became final, with the final penalty.

    A penalty final on a day can no longer change after it (an appeal that annuls or reduces it is judged on
    that day), so the prior is the same for any later decision that sees it as final.
    """
    d, r = c.decisao, c.recurso
    if d is None or d.resultado != "aplicada":
        return Antecedente(c.infracao, None, anulada=c.cancelado is not None)
    anulada = c.cancelado is not None or (r is not None and r.resultado == "provido")
    multa, susp = d.multa_ur, d.suspensao_dias
    if r is not None and r.resultado == "provido_parcialmente":
        assert r.multa_ur_nova is not None and r.suspensao_dias_nova is not None
        multa, susp = r.multa_ur_nova, r.suspensao_dias_nova
    return Antecedente(c.infracao, _definitiva(c, c.prazo_recurso), multa, susp, anulada)


def _conferir_penalidades(casos: dict[int, _Caso], urm: list[ValorUrm]) -> list[str]:
    problemas: list[str] = []
    grupos: dict[tuple[int, str], list[_Caso]] = defaultdict(list)
    for c in casos.values():
        grupos[(c.operadora_id, c.dispositivo)].append(c)
    for grupo in grupos.values():
        grupo.sort(key=lambda c: c.infracao)
        for c in grupo:
            d = c.decisao
            if d is None or d.resultado != "aplicada":
                continue
            ants = [_antecedente(o) for o in grupo if o is not c and o.infracao < c.infracao]
            sancao = calcular_sancao(c.tipo, c.infracao, ants)
            if (d.reincidencia, d.faixa_min_ur, d.faixa_max_ur) != (
                sancao.reincidencia,
                sancao.multa_min_ur,
                sancao.multa_max_ur,
            ):
                problemas.append(
                    f"{c.rotulo}: faixa gravada nível {d.reincidencia} {d.faixa_min_ur}–{d.faixa_max_ur}, "
                    f"calculada nível {sancao.reincidencia} {sancao.multa_min_ur}–{sancao.multa_max_ur}."
                )
            try:
                conferir_penalidade(sancao, d.multa_ur, d.suspensao_dias)
                r = c.recurso
                if r is not None and r.resultado == "provido_parcialmente":
                    assert r.multa_ur_nova is not None and r.suspensao_dias_nova is not None
                    conferir_penalidade(sancao, r.multa_ur_nova, r.suspensao_dias_nova)
            except ErroLei as exc:
                problemas.append(f"{c.rotulo}: {exc}")
            valor = valor_em(urm, d.data)
            if d.valor_urm != valor or d.multa_reais != urm_para_reais(d.multa_ur, valor):
                problemas.append(f"{c.rotulo}: valor em R$ não confere com a URM de {d.data:%d/%m/%Y}.")
    return problemas


def _conferir_pagamentos_e_suspensoes(
    sessao: so.Session, por_decisao: dict[int, _Caso], urm: list[ValorUrm]
) -> list[str]:
    problemas: list[str] = []
    cobrados: set[int] = set()
    for p in sessao.scalars(sa.select(Pagamento)):
        c = por_decisao[p.decisao_id]
        cobrados.add(p.decisao_id)
        assert c.decisao is not None
        if c.decisao.resultado != "aplicada":
            problemas.append(f"{c.rotulo}: cobrança de auto arquivado.")
        elif (p.situacao == "cancelado") != c.anulada:
            problemas.append(f"{c.rotulo}: cobrança {p.situacao} com penalidade anulada={c.anulada}.")
        elif p.valor != urm_para_reais(c.multa_ur, valor_em(urm, c.decisao.data)):
            problemas.append(f"{c.rotulo}: valor da cobrança não confere com a multa.")
        if (p.situacao == "pago") != (p.pago_em is not None) or (p.situacao == "divida_ativa") != (
            p.inscrito_divida_em is not None
        ):
            problemas.append(f"{c.rotulo}: cobrança {p.situacao} sem a data correspondente.")
    for decisao_id, c in por_decisao.items():
        if c.decisao is not None and c.decisao.resultado == "aplicada" and decisao_id not in cobrados:
            problemas.append(f"{c.rotulo}: penalidade aplicada sem cobrança registrada.")
    for s in sessao.scalars(sa.select(Suspensao)):
        c = por_decisao[s.decisao_id]
        if s.operadora_id != c.operadora_id or s.dias != c.suspensao_dias or s.dias < 1 or c.anulada:
            problemas.append(f"{c.rotulo}: suspensão não confere com a decisão.")
        if (s.fim - s.inicio).days != s.dias - 1:
            problemas.append(f"{c.rotulo}: suspensão de {s.dias} dias de {s.inicio} a {s.fim}.")
    return problemas
