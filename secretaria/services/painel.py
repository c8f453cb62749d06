"""The Secretary's picture (the "Painel" page, the monthly workbook's charts, the annual report): what the
office is doing, aggregated by the database.

Each chart is ONE aggregated query on indexed columns (`auto_infracao.data_infracao`, `decisao.data`,
`pagamento.situacao`, …): the database groups by month and returns a few dozen rows, never the autos. Months
are "aaaa-mm" text from one portable expression (`_mes`), day counts from `_dias`; medians are computed in SQL
from a histogram of day counts and its running sums (window functions, which both SQLite and PostgreSQL
have — SQLite has no `percentile_cont`).

The definitions are the program's own: a decision is late by `filas.primeiro_dia_de_atraso` (the "Decisões
atrasadas" queue's rule, with the "Dias para decidir" setting), a case is final by
`definitividade.decisao_definitiva_em` (mirrored here as a CASE), the recidivism level by
`lei.sancoes.calcular_sancao` over the operator's final penalties of the same provision.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import Banco
from secretaria.lei.formato import formatar_decimal, formatar_reais
from secretaria.lei.sancoes import (
    JANELA_MESES,
    NIVEL_SUSPENSAO,
    Antecedente,
    calcular_sancao,
    classificar_antecedentes,
    limite_reincidencia,
    somar_meses,
)
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
from secretaria.reports.graficos import Grafico, Serie, rotulo_mes
from secretaria.reports.relatorio_anual import DadosAnuais, DispositivoAnual, LinhaAnual, MesAnual
from secretaria.services import cifras
from secretaria.services.base import ErroDominio
from secretaria.services.filas import dias_para_decidir
from secretaria.services.listas.nucleo import EtapaAuto, nome_operadora, rotulo_do_dispositivo
from secretaria.services.rotulos import formatar_cnpj

ANOS_PRESCRICAO = 4
"""A warning, not a legal reading: an undecided case this many years after the infraction is at risk."""
MESES_AVISO_PRESCRICAO = 6
"""… and one that reaches it within this many months is shown as nearing it."""
MESES_CADEIA = 24
"""How far back a recidivism chain is read at first: the suspension level (plus one) times the window of its
tipo (E: 3 × 8 months) fits in it. A chain whose oldest link may continue before that is read further back
until it ends, so a chain of any length shows its true level (`_cadeias_inteiras`)."""

ETAPAS = ("intimacao", "decisao", "final")
ROTULOS_ETAPAS = {
    "intimacao": "Até a intimação",
    "decisao": "Até a decisão",
    "final": "Até a decisão definitiva",
}
ETAPAS_AUTOS = {"intimacao": "intimado", "decisao": "decidido", "final": "definitivo"}
"""The autos list's step (`listas.EtapaAuto`) behind each line of the times chart."""
ROTULOS_ETAPAS_LISTA = {
    "intimacao": "Autos intimados",
    "decisao": "Autos decididos",
    "final": "Autos com decisão definitiva",
}
"""Above the list (its period, the month of the infraction, is in the list's own date fields)."""
SERIES_MULTAS = ("decidida", "paga", "divida_ativa")
ETAPAS_MULTAS = {"decidida": "multa_aplicada", "paga": "multa_paga", "divida_ativa": "divida_ativa"}
ROTULOS_MULTAS_LISTA = {
    "decidida": "Multas aplicadas",
    "paga": "Multas pagas",
    "divida_ativa": "Dívida ativa",
}
ROTULOS_MULTAS = {
    "decidida": "Multas aplicadas",
    "paga": "Pagas",
    "divida_ativa": "Inscritas em dívida ativa",
}


@dataclass(frozen=True)
class FiltroPainel:
    desde: date
    ate: date
    operadora_id: int | None = None
    linha_id: int | None = None


@dataclass(frozen=True)
class Contagem:
    """One bar segment: `valor` autos in month `mes` ("aaaa-mm") for `chave` (an operator id or a tipo)."""

    mes: str
    chave: str
    rotulo: str
    valor: int


@dataclass(frozen=True)
class DispositivoCitado:
    codigo: str
    rotulo: str
    tipo: str
    autos: int


@dataclass(frozen=True)
class AutosPorFrota:
    operadora_id: int
    operadora: str
    autos: int
    veiculos: int

    @property
    def por_100(self) -> Decimal | None:
        """Autos per 100 vehicles of its fleet (None with no vehicle registered)."""
        if not self.veiculos:
            return None
        return (Decimal(self.autos) * 100 / self.veiculos).quantize(Decimal("0.1"))


@dataclass(frozen=True)
class ValorMes:
    mes: str
    serie: str
    """"decidida" (fines applied, by decision day), "paga" (by payment day), "divida_ativa" (by inscription)."""
    valor: Decimal


@dataclass(frozen=True)
class Mediana:
    mes: str
    """The month of the infraction."""
    etapa: str
    """"intimacao", "decisao" or "final": from the infraction to that step."""
    dias: float
    casos: int


@dataclass(frozen=True)
class PrazoMes:
    mes: str
    no_prazo: int
    fora_do_prazo: int


@dataclass(frozen=True)
class Prazos:
    decisoes: tuple[PrazoMes, ...]
    """Decisions by month of decision: within the office's limit (defence deadline + "Dias para decidir")."""
    recursos: tuple[PrazoMes, ...]
    """Appeals by month of filing: timely (`no_prazo`) or late."""
    dias_para_decidir: int
    prescricao_vencida: int
    """Undecided, not cancelled autos (of the filter) whose infraction is 4 years old or more today."""
    prescricao_proxima: int
    """… and those that reach 4 years within the next 6 months."""


@dataclass(frozen=True)
class CadeiaAberta:
    """An operator's open recidivism chain on one provision: a new infraction today would be level `nivel`."""

    operadora_id: int
    operadora: str
    dispositivo: str
    rotulo_dispositivo: str
    tipo: str
    nivel: int
    nivel_suspensao: int
    suspensao_cabivel: bool
    ultima_infracao: date
    aberta_ate: date
    """The last day on which a new infraction still continues the chain (latest counted prior + window)."""


@dataclass(frozen=True)
class Painel:
    filtro: FiltroPainel
    meses: tuple[str, ...]
    por_operadora: tuple[Contagem, ...]
    por_tipo: tuple[Contagem, ...]
    dispositivos: tuple[DispositivoCitado, ...]
    frota: tuple[AutosPorFrota, ...]
    multas: tuple[ValorMes, ...]
    medianas: tuple[Mediana, ...]
    prazos: Prazos
    cadeias: tuple[CadeiaAberta, ...]


# --- portable SQL pieces --------------------------------------------------------------------------------


def _postgres(sessao: so.Session) -> bool:
    return sessao.get_bind().dialect.name == "postgresql"


def _sem_jit(sessao: so.Session) -> None:
    """PostgreSQL compiles (JIT) any plan estimated above `jit_above_cost` (100,000 by default, which a year
    of autos joined to their decisions passes): 0.2–0.3 s of compiling per chart on the bench city, more
    than the query itself runs. Off for this read transaction only (SET LOCAL)."""
    if _postgres(sessao):
        sessao.execute(sa.text("SET LOCAL jit = off"))


@contextlib.contextmanager
def _leitura_por_indice(sessao: so.Session, sim: bool) -> Iterator[None]:
    """PostgreSQL's default `random_page_cost` (4, a spinning disk's) made a year's fines a sequential scan of
    every auto stored, hashed against that year's decisions (130 ms on the bench city, and growing with the
    archive); at an SSD's 1.1 the planner reads each decision's auto by its key (60–90 ms, growing with the
    year's decisions only). Even so, a period's decisions joined to their autos (the deadlines' chart) or an
    auto's decision and appeal (the medians) were still hashed against an index scan of every auto or appeal
    stored, which grows with the archive: hash and merge joins are off too, so each row of the period reads
    its partners by key. Over many years (`sim` false) the scans are the right plan and stay. For this read
    only, then back to the server's settings."""
    if not (sim and _postgres(sessao)):
        yield
        return
    ajustes = ("random_page_cost", "1.1"), ("enable_hashjoin", "off"), ("enable_mergejoin", "off")
    for nome, valor in ajustes:
        sessao.execute(sa.text(f"SET LOCAL {nome} = {valor}"))
    try:
        yield
    finally:
        for nome, _valor in ajustes:
            sessao.execute(sa.text(f"SET LOCAL {nome} TO DEFAULT"))


def _mes(sessao: so.Session, coluna: Any, anual: bool = False) -> sa.ColumnElement[str]:
    """ "aaaa-mm" of a date column (with `anual`, "aaaa"), the same text on both databases."""
    if _postgres(sessao):
        return sa.func.to_char(coluna, sa.literal_column("'YYYY'" if anual else "'YYYY-MM'"))
    return sa.func.strftime(sa.literal_column("'%Y'" if anual else "'%Y-%m'"), coluna)


def _dias(sessao: so.Session, fim: Any, inicio: Any) -> sa.ColumnElement[int]:
    """Whole days from `inicio` to `fim` (date columns)."""
    if _postgres(sessao):
        return sa.cast(fim - inicio, sa.Integer)
    return sa.cast(sa.func.julianday(fim) - sa.func.julianday(inicio), sa.Integer)


MESES_NO_GRAFICO = 36
"""Up to this many months the charts show a bar per month; a longer period (ten, twenty years) is shown per
year: 240 months of 200 operators' stacked bars are 48,000 slivers nobody can read, and minutes to draw."""


def periodo_anual(f: FiltroPainel) -> bool:
    """Whether the period is shown per year (`MESES_NO_GRAFICO`)."""
    return (f.ate.year - f.desde.year) * 12 + f.ate.month - f.desde.month + 1 > MESES_NO_GRAFICO


def periodos_do_filtro(f: FiltroPainel) -> tuple[str, ...]:
    """The charts' categories: every month "aaaa-mm" of the period, or every year "aaaa" of a long one."""
    if periodo_anual(f):
        return tuple(str(ano) for ano in range(f.desde.year, f.ate.year + 1))
    return meses_do_periodo(f.desde, f.ate)


def meses_do_periodo(desde: date, ate: date) -> tuple[str, ...]:
    """Every month "aaaa-mm" from `desde`'s to `ate`'s, so a month without autos still shows (as zero)."""
    meses: list[str] = []
    ano, mes = desde.year, desde.month
    while (ano, mes) <= (ate.year, ate.month):
        meses.append(f"{ano:04d}-{mes:02d}")
        ano, mes = (ano + 1, 1) if mes == 12 else (ano, mes + 1)
    return tuple(meses)


def filtro_padrao(hoje: date | None = None) -> FiltroPainel:
    """The last 12 months: from the first day of the month 11 months back to today."""
    dia = hoje or relogio.hoje()
    inicio = somar_meses(date(dia.year, dia.month, 1), -11)
    return FiltroPainel(inicio, dia)


def _condicoes_auto(f: FiltroPainel, periodo: bool = True) -> list[sa.ColumnElement[bool]]:
    a = AutoInfracao
    conds: list[sa.ColumnElement[bool]] = []
    if periodo:
        conds += [a.data_infracao >= f.desde, a.data_infracao <= f.ate]
    if f.operadora_id is not None:
        conds.append(a.operadora_id == f.operadora_id)
    if f.linha_id is not None:
        conds.append(a.linha_id == f.linha_id)
    return conds


# --- the charts -----------------------------------------------------------------------------------------


def autos_por_mes(sessao: so.Session, f: FiltroPainel, por: str = "operadora") -> tuple[Contagem, ...]:
    """Autos by month of the infraction (every auto drawn up, cancelled ones too: the list shows the same),
    one segment per operator (`por="operadora"`) or per tipo (`por="tipo"`)."""
    _sem_jit(sessao)
    a = AutoInfracao
    mes = _mes(sessao, a.data_infracao, periodo_anual(f)).label("mes")
    if por == "tipo":
        chave: Any = a.tipo
        consulta = sa.select(mes, chave, chave, sa.func.count()).where(*_condicoes_auto(f))
        consulta = consulta.group_by(mes, chave).order_by(mes, chave)
        linhas = sessao.execute(consulta).all()
        return tuple(Contagem(m, str(c), f"Tipo {c}", int(n)) for m, c, _r, n in linhas)
    if por != "operadora":
        raise ValueError(f"agrupamento desconhecido: {por}")
    contagem = (
        sa.select(mes, a.operadora_id.label("operadora_id"), sa.func.count().label("n"))
        .where(*_condicoes_auto(f))
        .group_by(mes, a.operadora_id)
        .subquery()
    )
    consulta2 = (
        sa.select(contagem.c.mes, contagem.c.operadora_id, nome_operadora(), contagem.c.n)
        .join(Operadora, Operadora.id == contagem.c.operadora_id)
        .order_by(contagem.c.mes, nome_operadora())
    )
    return tuple(Contagem(m, str(i), nome, int(n)) for m, i, nome, n in sessao.execute(consulta2))


def dispositivos_mais_citados(
    sessao: so.Session, f: FiltroPainel, limite: int = 10
) -> tuple[DispositivoCitado, ...]:
    _sem_jit(sessao)
    a, dc = AutoInfracao, DispositivoCatalogo
    contagem = (
        sa.select(a.dispositivo_codigo.label("codigo"), sa.func.count().label("n"))
        .where(*_condicoes_auto(f))
        .group_by(a.dispositivo_codigo)
        .order_by(sa.func.count().desc(), a.dispositivo_codigo)
        .limit(limite)
        .subquery()
    )
    consulta = (
        sa.select(contagem.c.codigo, dc.rotulo, dc.tipo, contagem.c.n)
        .outerjoin(dc, dc.codigo == contagem.c.codigo)
        .order_by(contagem.c.n.desc(), contagem.c.codigo)
    )
    return tuple(
        DispositivoCitado(codigo, rotulo_do_dispositivo(codigo, rotulo), tipo or "", int(n))
        for codigo, rotulo, tipo, n in sessao.execute(consulta)
    )


def autos_por_frota(sessao: so.Session, f: FiltroPainel) -> tuple[AutosPorFrota, ...]:
    """Per operator: its autos in the period and its fleet (vehicles registered and not retired today)."""
    _sem_jit(sessao)
    a, v, o = AutoInfracao, Veiculo, Operadora
    autos = (
        sa.select(a.operadora_id.label("oid"), sa.func.count().label("n"))
        .where(*_condicoes_auto(f))
        .group_by(a.operadora_id)
        .subquery()
    )
    frota_conds: list[sa.ColumnElement[bool]] = [v.situacao != "baixado"]
    if f.linha_id is not None:
        frota_conds.append(v.linha_id == f.linha_id)
    frota = (
        sa.select(v.operadora_id.label("oid"), sa.func.count().label("n"))
        .where(*frota_conds)
        .group_by(v.operadora_id)
        .subquery()
    )
    consulta = (
        sa.select(o.id, nome_operadora(), sa.func.coalesce(autos.c.n, 0), sa.func.coalesce(frota.c.n, 0))
        .outerjoin(autos, autos.c.oid == o.id)
        .outerjoin(frota, frota.c.oid == o.id)
        .where(sa.or_(autos.c.n.is_not(None), frota.c.n.is_not(None)))
        .order_by(nome_operadora())
    )
    if f.operadora_id is not None:
        consulta = consulta.where(o.id == f.operadora_id)
    return tuple(AutosPorFrota(i, nome, int(n), int(q)) for i, nome, n, q in sessao.execute(consulta))


def multas_por_mes(sessao: so.Session, f: FiltroPainel) -> tuple[ValorMes, ...]:
    """R$ per month: fines applied (by decision day, as `cifras.multas_aplicadas` counts them), paid (by
    payment day, the amount paid), inscribed in dívida ativa (by inscription day) — grouped queries."""
    _sem_jit(sessao)
    a, d, p = AutoInfracao, Decisao, Pagamento
    filtros = _condicoes_auto(f, periodo=False)

    def ramo(serie: str, dia: Any, valor: Any, *conds: sa.ColumnElement[bool]) -> sa.Select[Any]:
        mes = _mes(sessao, dia, periodo_anual(f))
        consulta = (
            sa.select(mes.label("mes"), sa.literal(serie).label("serie"), sa.func.sum(valor).label("valor"))
            .select_from(p)
            .where(dia >= f.desde, dia <= f.ate, *conds)
            .group_by(mes)
        )
        if filtros:  # the auto's operator or line: only then the joins
            consulta = consulta.join(d, d.id == p.decisao_id).join(a, a.id == d.auto_id).where(*filtros)
        return consulta

    # Fines applied as every report counts them (services.cifras): annulled ones nowhere, reduced ones at
    # their final value.
    with _leitura_por_indice(sessao, not periodo_anual(f)):
        decididas = cifras.multas_aplicadas(
            sessao, [_mes(sessao, d.data, periodo_anual(f))], d.data >= f.desde, d.data <= f.ate, *filtros
        )
    # The situation as a literal, not a bound parameter: the partial indexes `ix_pagamento_pago` and
    # `ix_pagamento_divida_ativa` (WHERE situacao = '…') serve only a query whose condition visibly implies
    # theirs — a PostgreSQL generic plan (psycopg prepares a statement run five times) never proves it.
    pago = p.situacao == sa.literal_column("'pago'")
    inscrito = p.situacao == sa.literal_column("'divida_ativa'")
    pagas = ramo("paga", p.pago_em, sa.func.coalesce(p.valor_pago, p.valor), pago)
    divida = ramo("divida_ativa", p.inscrito_divida_em, p.valor, inscrito)
    uniao = sa.union_all(pagas, divida).subquery()
    linhas = [
        *((mes, "decidida", m.reais) for (mes,), m in decididas.items() if m.reais > 0),
        *sessao.execute(sa.select(uniao)).all(),
    ]
    linhas.sort(key=lambda x: (x[0], x[1]))
    return tuple(ValorMes(m, s, Decimal(str(v or 0)).quantize(Decimal("0.01"))) for m, s, v in linhas)


def _dias_ate_final(sessao: so.Session, hoje: date) -> sa.ColumnElement[int]:
    """Days from the infraction to the day the decision became final, when final on `hoje`, else NULL —
    `definitividade.decisao_definitiva_em` as one CASE."""
    a, d, r = AutoInfracao, Decisao, Recurso
    return sa.case(
        (d.resultado == "arquivado", _dias(sessao, d.data, a.data_infracao)),
        (
            r.tempestivo.is_(True),
            sa.case((r.julgado_em <= hoje, _dias(sessao, r.julgado_em, a.data_infracao)), else_=None),
        ),
        (
            sa.and_(d.resultado == "aplicada", a.prazo_recurso < hoje),
            _dias(sessao, a.prazo_recurso, a.data_infracao) + 1,
        ),
        else_=None,
    )


def medianas_por_mes(sessao: so.Session, f: FiltroPainel, hoje: date | None = None) -> tuple[Mediana, ...]:
    """Median days from the infraction to the (first delivered) intimação of the auto, to the decision and
    to the final decision, per month of the infraction; each median computed in SQL.

    One pass over the period's autos gives each case's three day counts (the first intimação by
    `ix_intimacao_entregue`, the decision and its appeal by their unique keys); the counts are grouped into a
    histogram (month, step, days → cases), a few thousand rows where the cases are tens of thousands, and the
    median is read from its running sums: the lower and upper middle case (the same for an odd count).
    """
    _sem_jit(sessao)
    dia = hoje or relogio.hoje()
    a, d, r, i = AutoInfracao, Decisao, Recurso, Intimacao
    primeira_intimacao = (
        sa.select(sa.func.min(i.data))
        .where(i.auto_id == a.id, i.sucesso.is_(True), i.objeto == "auto")
        .scalar_subquery()
    )
    # The decision and its appeal joined by their unique keys (one row per auto), each read once: as two
    # subqueries the decision was looked up twice per auto. PostgreSQL joins them by index for a period of
    # months (`_leitura_por_indice`); at its default costs it hashed every decision stored for the period's few.
    casos = (
        sa.select(
            _mes(sessao, a.data_infracao, periodo_anual(f)).label("mes"),
            _dias(sessao, primeira_intimacao, a.data_infracao).label("intimacao"),
            _dias(sessao, d.data, a.data_infracao).label("decisao"),
            _dias_ate_final(sessao, dia).label("final"),
        )
        .select_from(a)
        .outerjoin(d, d.auto_id == a.id)
        .outerjoin(r, r.decisao_id == d.id)
        .where(*_condicoes_auto(f), a.fase != "cancelado")
        .cte("casos")
    )
    histograma = sa.union_all(
        *(
            sa.select(
                casos.c.mes,
                sa.literal(etapa).label("etapa"),
                casos.c[etapa].label("dias"),
                sa.func.count().label("casos"),
            )
            .where(casos.c[etapa].is_not(None))
            .group_by(casos.c.mes, casos.c[etapa])
            for etapa in ETAPAS
        )
    ).subquery("histograma")
    h = histograma.c
    # Integers on both databases (PostgreSQL's sum of counts is numeric): `//` below must stay integer
    # division, or an even count's lower middle case would be missed.
    acumulado = sa.select(
        h.mes,
        h.etapa,
        h.dias,
        sa.cast(sa.func.sum(h.casos).over(partition_by=(h.mes, h.etapa), order_by=h.dias), sa.Integer).label(
            "ate_aqui"
        ),
        # The same partition and order as the running sum, over the whole partition: one sort for both.
        sa.cast(
            sa.func.sum(h.casos).over(partition_by=(h.mes, h.etapa), order_by=h.dias, rows=(None, None)),
            sa.Integer,
        ).label("total"),
    ).subquery("acumulado")
    c = acumulado.c
    baixo = sa.func.min(sa.case((c.ate_aqui >= (c.total + 1) // 2, c.dias)))
    alto = sa.func.min(sa.case((c.ate_aqui >= (c.total + 2) // 2, c.dias)))
    consulta = (
        sa.select(c.mes, c.etapa, baixo, alto, sa.func.max(c.total))
        .group_by(c.mes, c.etapa)
        .order_by(c.mes, c.etapa)
    )
    with _leitura_por_indice(sessao, not periodo_anual(f)):
        linhas = sessao.execute(consulta).all()
    return tuple(Mediana(m, e, (int(b) + int(t)) / 2, int(n)) for m, e, b, t, n in linhas)


def prazos(sessao: so.Session, f: FiltroPainel, hoje: date | None = None) -> Prazos:
    """Decisions within the office's limit, appeals timely or late (per month), and the prescription
    warning (undecided autos 4 years after the infraction) — three statements: two grouped, one count."""
    _sem_jit(sessao)
    dia = hoje or relogio.hoje()
    a, d, r = AutoInfracao, Decisao, Recurso
    limite = dias_para_decidir(sessao)
    filtros = _condicoes_auto(f, periodo=False)
    mes_d = _mes(sessao, d.data, periodo_anual(f))
    # Late from `filas.primeiro_dia_de_atraso(prazo_defesa, dias)`: decided more than `dias` after the deadline.
    atrasada = _dias(sessao, d.data, a.prazo_defesa) > limite
    with _leitura_por_indice(sessao, not periodo_anual(f)):
        decisoes = sessao.execute(
            sa.select(
                mes_d,
                sa.func.sum(sa.case((atrasada, 0), else_=1)),
                sa.func.sum(sa.case((atrasada, 1), else_=0)),
            )
            .join(a, a.id == d.auto_id)
            .where(d.data >= f.desde, d.data <= f.ate, a.prazo_defesa.is_not(None), *filtros)
            .group_by(mes_d)
            .order_by(mes_d)
        ).all()
    mes_r = _mes(sessao, r.protocolado_em, periodo_anual(f))
    consulta_r = (
        sa.select(
            mes_r,
            sa.func.sum(sa.case((r.tempestivo.is_(True), 1), else_=0)),
            sa.func.sum(sa.case((r.tempestivo.is_(True), 0), else_=1)),
        )
        .where(r.protocolado_em >= f.desde, r.protocolado_em <= f.ate)
        .group_by(mes_r)
        .order_by(mes_r)
    )
    if filtros:  # read from `ix_recurso_protocolado` alone unless the auto's operator or line is asked
        consulta_r = consulta_r.join(d, d.id == r.decisao_id).join(a, a.id == d.auto_id).where(*filtros)
    recursos = sessao.execute(consulta_r).all()
    vence = somar_meses(dia, -12 * ANOS_PRESCRICAO)
    proxima = somar_meses(vence, MESES_AVISO_PRESCRICAO)
    sem_decisao = [a.fase.in_(("lavrado", "intimado")), *filtros]
    vencidas, proximas = sessao.execute(
        sa.select(
            sa.func.coalesce(sa.func.sum(sa.case((a.data_infracao <= vence, 1), else_=0)), 0),
            sa.func.coalesce(sa.func.sum(sa.case((a.data_infracao > vence, 1), else_=0)), 0),
        ).where(a.data_infracao <= proxima, *sem_decisao)
    ).one()
    return Prazos(
        tuple(PrazoMes(m, int(s), int(n)) for m, s, n in decisoes),
        tuple(PrazoMes(m, int(s), int(n)) for m, s, n in recursos),
        limite,
        int(vencidas),
        int(proximas),
    )


def _selecionar_elos() -> sa.Select[Any]:
    """The columns of a chain's links as `_cadeia` reads them (the walk and the re-read of a long chain)."""
    a, dc = AutoInfracao, DispositivoCatalogo
    return sa.select(
        a.operadora_id,
        nome_operadora(),
        a.dispositivo_codigo,
        dc.rotulo,
        dc.tipo,
        a.data_infracao,
        a.data_definitiva,
        a.multa_ur,
        a.suspensao_dias,
    )


def cadeias_abertas(
    sessao: so.Session, f: FiltroPainel, hoje: date | None = None
) -> tuple[CadeiaAberta, ...]:
    """Operators with a recidivism chain open today (§ 4º): on some provision, a new infraction today would
    be level 1 or more. The most advanced chain of each operator, closest to suspension (§ 5º) first.

    The database walks each chain (a recursive query): from today, the latest infraction of the same operator
    and provision punished by then (final by that day, not annulled), then the latest punished before that
    one, while the step stays within the tipo's window — each step one seek on `ix_auto_recidiva`. Only the
    autos of those steps are read, and the level is `calcular_sancao`'s, the law's one reading, over them:
    the chain the law walks over all the operator's penalties passes through exactly these (each of its steps
    takes the latest punished infraction, which the walk found), so the level is the same. The walk's window
    is a few days generous (31 days a month), never short; `calcular_sancao` stops the chain exactly.
    A chain that may reach further back than that walk (MESES_CADEIA) is read further back
    until it ends (`_cadeias_inteiras`): the level shown is the true one at any length.
    """
    _sem_jit(sessao)
    dia = hoje or relogio.hoje()
    a, dc = AutoInfracao, DispositivoCatalogo
    conds = [a.penalidade_anulada.is_(False), a.fase != "cancelado"]
    if f.operadora_id is not None:
        conds.append(a.operadora_id == f.operadora_id)
    # How far back a chain is read: at most the suspension level times its tipo's window (§ 5º), plus one
    # window of margin, and never beyond MESES_CADEIA.
    inicio = somar_meses(dia, -MESES_CADEIA)
    alcance = {
        t: max(somar_meses(dia, -(NIVEL_SUSPENSAO[t] + 1) * m), inicio) for t, m in JANELA_MESES.items()
    }
    janela_dias = {t: 31 * m + 1 for t, m in JANELA_MESES.items()}

    def anterior(operadora: Any, dispositivo: Any, tipo: Any, atual: Any) -> sa.ScalarSelect[Any]:
        """The latest infraction of the pair before `atual` punished by `atual` (rule 1 at that day): read
        backwards on the index from `atual`, stopping at the first (a MAX would read the whole range)."""
        return (
            sa.select(a.data_infracao)
            .where(
                a.operadora_id == operadora,
                a.dispositivo_codigo == dispositivo,
                a.data_infracao < atual,
                a.data_infracao >= sa.case(alcance, value=tipo, else_=dia),
                a.data_definitiva <= atual,
                *conds,
            )
            .order_by(a.data_infracao.desc())
            .limit(1)
            .scalar_subquery()
        )

    # Every (operator, provision) pair is walked from today; a step further back than the tipo's window (a
    # generous one) ends the walk, and a pair whose first step does so has no chain open today (§ 4º).
    pares = (
        sa.select(Operadora.id.label("operadora_id"), dc.codigo.label("dispositivo_codigo"), dc.tipo)
        .join(dc, sa.true())
        .where(dc.tipo.in_(tuple(JANELA_MESES)))
    )
    if f.operadora_id is not None:
        pares = pares.where(Operadora.id == f.operadora_id)
    p = pares.subquery("pares")
    elos = sa.select(
        p.c.operadora_id,
        p.c.dispositivo_codigo,
        p.c.tipo,
        sa.literal(dia, sa.Date).label("atual"),
        anterior(p.c.operadora_id, p.c.dispositivo_codigo, p.c.tipo, dia).label("anterior"),
    ).cte("elos", recursive=True)

    def na_janela(elo: Any) -> sa.ColumnElement[bool]:
        return sa.and_(
            elo.c.anterior.is_not(None),
            _dias(sessao, elo.c.atual, elo.c.anterior) <= sa.case(janela_dias, value=elo.c.tipo, else_=-1),
        )

    e = elos.alias("e")
    elos = elos.union_all(
        sa.select(
            e.c.operadora_id,
            e.c.dispositivo_codigo,
            e.c.tipo,
            e.c.anterior,
            anterior(e.c.operadora_id, e.c.dispositivo_codigo, e.c.tipo, e.c.anterior),
        ).where(na_janela(e))
    )
    passos = (
        sa.select(elos.c.operadora_id, elos.c.dispositivo_codigo, elos.c.anterior)
        .where(na_janela(elos))
        .distinct()
        .subquery("passos")
    )
    linhas = sessao.execute(
        _selecionar_elos()
        .join(
            passos,
            sa.and_(
                passos.c.operadora_id == a.operadora_id,
                passos.c.dispositivo_codigo == a.dispositivo_codigo,
                passos.c.anterior == a.data_infracao,
            ),
        )
        .join(Operadora, Operadora.id == a.operadora_id)
        .join(dc, dc.codigo == a.dispositivo_codigo)
        .where(a.data_definitiva <= dia, *conds)
    ).all()
    grupos: dict[tuple[int, str], list[Any]] = defaultdict(list)
    for linha in linhas:
        grupos[(linha[0], linha[2])].append(linha)
    melhores: dict[int, CadeiaAberta] = {}
    for cadeia in _cadeias_inteiras(sessao, grupos, dia, conds):
        oid = cadeia.operadora_id
        atual = melhores.get(oid)
        if atual is None or _proximidade(cadeia) > _proximidade(atual):
            melhores[oid] = cadeia
    return tuple(
        sorted(
            melhores.values(), key=lambda c: (-min(c.nivel / c.nivel_suspensao, 1.0), -c.nivel, c.operadora)
        )
    )


def _proximidade(c: CadeiaAberta) -> tuple[float, int, date]:
    return (min(c.nivel / c.nivel_suspensao, 1.0), c.nivel, c.ultima_infracao)


def _cadeia(oid: int, codigo: str, itens: Sequence[Any], dia: date) -> CadeiaAberta | None:
    tipo = itens[0].tipo
    if tipo not in NIVEL_SUSPENSAO:
        return None
    antecedentes = [
        Antecedente(i.data_infracao, i.data_definitiva, Decimal(i.multa_ur or 0), int(i.suspensao_dias or 0))
        for i in itens
    ]
    sancao = calcular_sancao(tipo, dia, antecedentes)
    if sancao.reincidencia < 1:
        return None
    ultima = max(i.data_infracao for i in itens)
    return CadeiaAberta(
        oid,
        itens[0][1],
        codigo,
        rotulo_do_dispositivo(codigo, itens[0].rotulo),
        tipo,
        sancao.reincidencia,
        NIVEL_SUSPENSAO[tipo],
        sancao.suspensao_cabivel,
        ultima,
        limite_reincidencia(tipo, ultima),
    )


def ler_painel(
    sessao: so.Session,
    f: FiltroPainel,
    hoje: date | None = None,
    ao_ler: Callable[[int, Painel], None] | None = None,
) -> Painel:
    """Everything the page shows, in one read session, read chart by chart in the page's order: after the
    numbers of chart k are read, `ao_ler(k, parcial)` — the Painel with what is read so far (the rest empty),
    from which `grafico_do_painel(parcial, k)` draws — so the page can draw a chart while the next one's
    numbers are read."""
    dia = hoje or relogio.hoje()
    leituras: tuple[Callable[[], dict[str, Any]], ...] = (
        lambda: {
            "por_operadora": autos_por_mes(sessao, f, "operadora"),
            "por_tipo": autos_por_mes(sessao, f, "tipo"),
        },
        lambda: {"dispositivos": dispositivos_mais_citados(sessao, f)},
        lambda: {"frota": autos_por_frota(sessao, f)},
        lambda: {"multas": multas_por_mes(sessao, f)},
        lambda: {"medianas": medianas_por_mes(sessao, f, dia)},
        lambda: {"prazos": prazos(sessao, f, dia)},
        lambda: {"cadeias": cadeias_abertas(sessao, f, dia)},
    )
    p = Painel(f, periodos_do_filtro(f), (), (), (), (), (), (), Prazos((), (), 0, 0, 0), ())
    for k, ler in enumerate(leituras):
        p = dataclasses.replace(p, **ler())
        if ao_ler is not None:
            ao_ler(k, p)
    return p


def _cadeias_inteiras(
    sessao: so.Session, grupos: dict[tuple[int, str], list[Any]], dia: date, conds: Sequence[Any]
) -> list[CadeiaAberta]:
    """The open chain of each pair of `grupos` (the first read) at its true level, however long: a chain
    that may continue before what was read is read further back — as far again as read so far, one query
    for all such pairs (`ix_auto_recidiva`) — until it ends inside the read. A pair's whole history (up to
    a thousand penalties in ten years) is never handed to the law at once."""
    cadeias: list[CadeiaAberta] = []
    pendentes: dict[tuple[int, str], tuple[list[Any], date]] = {}
    for (oid, codigo), itens in grupos.items():
        cadeia = _cadeia(oid, codigo, itens, dia)
        if cadeia is None:
            continue
        janela = JANELA_MESES[cadeia.tipo]
        limite = max(
            somar_meses(dia, -MESES_CADEIA), somar_meses(dia, -(NIVEL_SUSPENSAO[cadeia.tipo] + 1) * janela)
        )
        if _pode_continuar_antes(cadeia, itens, limite, dia):
            pendentes[(oid, codigo)] = (itens, limite)
        else:
            cadeias.append(cadeia)
    while pendentes:
        a, dc = AutoInfracao, DispositivoCatalogo
        novos = {par: limite - (dia - limite) for par, (_itens, limite) in pendentes.items()}
        faixas = [
            sa.and_(
                a.operadora_id == oid,
                a.dispositivo_codigo == codigo,
                a.data_infracao >= novos[(oid, codigo)],
                a.data_infracao < limite,
            )
            for (oid, codigo), (_itens, limite) in pendentes.items()
        ]
        linhas = sessao.execute(
            _selecionar_elos()
            .join(Operadora, Operadora.id == a.operadora_id)
            .join(dc, dc.codigo == a.dispositivo_codigo)
            # Final by today, whatever `conds` says (the operator's filter, not annulled, not cancelled).
            .where(*conds, a.data_definitiva.is_not(None), a.data_definitiva <= dia, sa.or_(*faixas))
        ).all()
        lidas: dict[tuple[int, str], list[Any]] = defaultdict(list)
        for linha in linhas:
            lidas[(linha[0], linha[2])].append(linha)
        seguintes: dict[tuple[int, str], tuple[list[Any], date]] = {}
        for (oid, codigo), (itens, _limite) in pendentes.items():
            todos = [*lidas.get((oid, codigo), []), *itens]
            cadeia = _cadeia(oid, codigo, todos, dia)
            if cadeia is None:  # cannot happen (more priors never shorten a chain); kept total
                continue
            # Nothing further back read: the chain ends inside what was read (the gap passes one window).
            if (oid, codigo) in lidas and _pode_continuar_antes(cadeia, todos, novos[(oid, codigo)], dia):
                seguintes[(oid, codigo)] = (todos, novos[(oid, codigo)])
            else:
                cadeias.append(cadeia)
        pendentes = seguintes
    return cadeias


def _pode_continuar_antes(cadeia: CadeiaAberta, itens: Sequence[Any], limite: date, dia: date) -> bool:
    """Whether a final penalty before `limite` (not read) could continue `cadeia`: only when its oldest link
    lies within one window after `limite` (§ 4º). Each link lies at most one window before the next, so
    first a bound without the law (`nivel` windows before today); then the links themselves, as the law
    counts them (`classificar_antecedentes`)."""
    janela = JANELA_MESES[cadeia.tipo]
    alcance = somar_meses(limite - timedelta(days=1), janela)
    mais_cedo = dia
    for _ in range(cadeia.nivel):
        mais_cedo = somar_meses(mais_cedo, -janela)
        if mais_cedo <= alcance:
            break
    if mais_cedo > alcance:
        return False
    contados = [
        c.antecedente.data_infracao
        for c in classificar_antecedentes(cadeia.tipo, dia, [_antecedente(i) for i in itens])
        if c.contado
    ]
    return bool(contados) and min(contados) <= alcance


def _antecedente(linha: Any) -> Antecedente:
    return Antecedente(
        linha.data_infracao,
        linha.data_definitiva,
        Decimal(linha.multa_ur or 0),
        int(linha.suspensao_dias or 0),
    )


# --- the charts' descriptions and where a click leads ----------------------------------------------------


@dataclass(frozen=True)
class DestinoLista:
    """The autos list filtered to what a bar counts (None = no filter on that field)."""

    desde: date | None = None
    ate: date | None = None
    operadora_id: int | None = None
    linha_id: int | None = None
    tipo: str | None = None
    dispositivo: str | None = None
    etapa: EtapaAuto | None = None
    """The step of the case the bar counts, in its own period (a fine paid in that month, …)."""
    rotulo: str = ""
    """What the filter is, in words (shown above the list)."""


@dataclass(frozen=True)
class GraficoPainel:
    grafico: Grafico
    destinos: dict[tuple[int, int], DestinoLista]
    """(série, categoria) → the autos behind that bar; empty for a chart that does not count autos."""


def _limites_mes(mes: str, f: FiltroPainel) -> tuple[date, date]:
    """The days of a chart's month "aaaa-mm" (or year "aaaa") inside the period."""
    if "-" not in mes:
        return max(date(int(mes), 1, 1), f.desde), min(date(int(mes), 12, 31), f.ate)
    ano, numero = (int(x) for x in mes.split("-"))
    inicio = date(ano, numero, 1)
    fim = somar_meses(inicio, 1) - timedelta(days=1)
    return max(inicio, f.desde), min(fim, f.ate)


def _por_periodo(p: Painel) -> str:
    """ "mês" or "ano": what one bar of the period's charts is."""
    return "ano" if periodo_anual(p.filtro) else "mês"


SERIES_NO_GRAFICO = 10
"""At most this many operators stacked in a bar: beyond it (a city of 200 operators) the nine with most autos in
the period, and the rest summed as one segment, "Demais operadoras (N)"."""
_DEMAIS = "demais"


def _grafico_autos_mes(p: Painel, por: str) -> GraficoPainel:
    contagens = p.por_operadora if por == "operadora" else p.por_tipo
    chaves: dict[str, str] = {}
    totais: dict[str, int] = {}
    for c in contagens:
        chaves.setdefault(c.chave, c.rotulo)
        totais[c.chave] = totais.get(c.chave, 0) + c.valor
    ordem = sorted(chaves, key=lambda k: chaves[k]) if por == "operadora" else sorted(chaves)
    agrupadas: set[str] = set()
    if len(ordem) > SERIES_NO_GRAFICO:
        maiores = set(sorted(ordem, key=lambda k: (-totais[k], chaves[k]))[: SERIES_NO_GRAFICO - 1])
        agrupadas = {k for k in ordem if k not in maiores}
        ordem = [k for k in ordem if k in maiores] + [_DEMAIS]
        chaves[_DEMAIS] = f"Demais operadoras ({len(agrupadas)})"
    indice = {m: i for i, m in enumerate(p.meses)}
    valores = {k: [0.0] * len(p.meses) for k in ordem}
    for c in contagens:
        if c.mes in indice:
            valores[_DEMAIS if c.chave in agrupadas else c.chave][indice[c.mes]] += c.valor
    destinos: dict[tuple[int, int], DestinoLista] = {}
    f = p.filtro
    for j, k in enumerate(ordem):
        if k == _DEMAIS:  # many operators: no one list of the autos behind that segment
            continue
        for i, mes in enumerate(p.meses):
            desde, ate = _limites_mes(mes, f)
            destinos[(j, i)] = DestinoLista(
                desde,
                ate,
                operadora_id=int(k) if por == "operadora" else f.operadora_id,
                linha_id=f.linha_id,
                tipo=k if por == "tipo" else None,
                rotulo=f"{chaves[k]}, {rotulo_mes(mes)}",
            )
    titulo = f"Autos por {_por_periodo(p)} da infração, por " + (
        "operadora" if por == "operadora" else "tipo"
    )
    g = Grafico(
        "autos_mes",
        titulo,
        tuple(rotulo_mes(m) for m in p.meses),
        tuple(Serie(chaves[k], tuple(valores[k])) for k in ordem),
        empilhado=True,
        nota="Todos os autos lavrados, cancelados inclusive.",
    )
    return GraficoPainel(g, destinos)


def _grafico_dispositivos(p: Painel) -> GraficoPainel:
    f = p.filtro
    g = Grafico(
        "dispositivos",
        "Os dez dispositivos mais citados",
        tuple(f"{d.rotulo} (tipo {d.tipo})" if d.tipo else d.rotulo for d in p.dispositivos),
        (Serie("Autos", tuple(float(d.autos) for d in p.dispositivos)),),
        forma="barras_h",
    )
    destinos = {
        (0, i): DestinoLista(
            f.desde, f.ate, f.operadora_id, f.linha_id, dispositivo=d.codigo, rotulo=d.rotulo
        )
        for i, d in enumerate(p.dispositivos)
    }
    return GraficoPainel(g, destinos)


BARRAS_NO_GRAFICO = 15
"""At most this many horizontal bars (operators, open chains): the highest, the title saying of how many."""
_T = TypeVar("_T")


def _maiores(itens: list[_T], valor: Callable[[_T], float]) -> list[_T]:
    """The `BARRAS_NO_GRAFICO` items of highest `valor`, in their own order; all of them when fewer."""
    if len(itens) <= BARRAS_NO_GRAFICO:
        return itens
    escolhidos = {id(x) for x in sorted(itens, key=lambda x: -valor(x))[:BARRAS_NO_GRAFICO]}
    return [x for x in itens if id(x) in escolhidos]


def _dos_maiores(mostrados: Sequence[object], todos: Sequence[object], quais: str) -> str:
    return "" if len(mostrados) == len(todos) else f" — as {len(mostrados)} {quais}, de {len(todos)}"


def _grafico_frota(p: Painel) -> GraficoPainel:
    f = p.filtro
    todos = [x for x in p.frota if x.por_100 is not None]
    itens = _maiores(todos, lambda x: float(x.por_100 or 0))
    g = Grafico(
        "frota",
        "Autos por 100 veículos da frota" + _dos_maiores(itens, todos, "operadoras com mais"),
        tuple(x.operadora for x in itens),
        (Serie("Autos por 100 veículos", tuple(float(x.por_100 or 0) for x in itens)),),
        forma="barras_h",
        formato="decimal",
        nota="Frota: veículos cadastrados e não baixados hoje.",
    )
    destinos = {
        (0, i): DestinoLista(f.desde, f.ate, x.operadora_id, f.linha_id, rotulo=x.operadora)
        for i, x in enumerate(itens)
    }
    return GraficoPainel(g, destinos)


def _grafico_multas(p: Painel) -> GraficoPainel:
    indice = {m: i for i, m in enumerate(p.meses)}
    valores = {s: [0.0] * len(p.meses) for s in SERIES_MULTAS}
    for v in p.multas:
        if v.mes in indice:
            valores[v.serie][indice[v.mes]] = float(v.valor)
    g = Grafico(
        "multas",
        f"Multas por {_por_periodo(p)} (R$): aplicadas, pagas e inscritas em dívida ativa",
        tuple(rotulo_mes(m) for m in p.meses),
        tuple(Serie(ROTULOS_MULTAS[s], tuple(valores[s])) for s in SERIES_MULTAS),
        formato="reais",
    )
    # A bar is the fines of the month by its own day (decision, payment, inscription), whatever the day of
    # the infraction: the list keeps the Painel's operator and line, not its period.
    f = p.filtro
    destinos = {
        (j, i): DestinoLista(
            operadora_id=f.operadora_id,
            linha_id=f.linha_id,
            etapa=EtapaAuto(ETAPAS_MULTAS[s], *_limites_mes(mes, f)),
            rotulo=f"{ROTULOS_MULTAS_LISTA[s]} em {rotulo_mes(mes)}",
        )
        for j, s in enumerate(SERIES_MULTAS)
        for i, mes in enumerate(p.meses)
    }
    return GraficoPainel(g, destinos)


def _grafico_tempos(p: Painel) -> GraficoPainel:
    indice = {m: i for i, m in enumerate(p.meses)}
    valores = {e: [float("nan")] * len(p.meses) for e in ETAPAS}
    for m in p.medianas:
        if m.mes in indice:
            valores[m.etapa][indice[m.mes]] = m.dias
    g = Grafico(
        "tempos",
        f"Mediana de dias desde a infração, por {_por_periodo(p)} da infração",
        tuple(rotulo_mes(m) for m in p.meses),
        tuple(Serie(ROTULOS_ETAPAS[e], tuple(valores[e])) for e in ETAPAS),
        forma="linhas",
        formato="dias",
    )
    # A point is the autos of that month of the infraction that reached the step (the median's cases).
    f = p.filtro
    destinos = {
        (j, i): DestinoLista(
            *_limites_mes(mes, f),
            f.operadora_id,
            f.linha_id,
            etapa=EtapaAuto(ETAPAS_AUTOS[e]),
            rotulo=ROTULOS_ETAPAS_LISTA[e],
        )
        for j, e in enumerate(ETAPAS)
        for i, mes in enumerate(p.meses)
    }
    return GraficoPainel(g, destinos)


def _grafico_prazos(p: Painel) -> GraficoPainel:
    indice = {m: i for i, m in enumerate(p.meses)}
    series = {k: [0.0] * len(p.meses) for k in ("d_sim", "d_nao", "r_sim", "r_nao")}
    for x in p.prazos.decisoes:
        if x.mes in indice:
            series["d_sim"][indice[x.mes]] = x.no_prazo
            series["d_nao"][indice[x.mes]] = x.fora_do_prazo
    for x in p.prazos.recursos:
        if x.mes in indice:
            series["r_sim"][indice[x.mes]] = x.no_prazo
            series["r_nao"][indice[x.mes]] = x.fora_do_prazo
    total_d = sum(x.no_prazo + x.fora_do_prazo for x in p.prazos.decisoes)
    no_prazo = sum(x.no_prazo for x in p.prazos.decisoes)
    parte = f"{round(100 * no_prazo / total_d)} %" if total_d else "—"
    aviso = ""
    if p.prazos.prescricao_vencida or p.prazos.prescricao_proxima:
        aviso = (
            f" Atenção: {p.prazos.prescricao_vencida} sem decisão há 4 anos ou mais da infração e "
            f"{p.prazos.prescricao_proxima} chegando lá em 6 meses (aviso, não parecer jurídico)."
        )
    g = Grafico(
        "prazos",
        f"Prazos: decisões no prazo do órgão ({parte}) e recursos",
        tuple(rotulo_mes(m) for m in p.meses),
        (
            Serie(f"Decisões até {p.prazos.dias_para_decidir} dias após a defesa", tuple(series["d_sim"])),
            Serie("Decisões atrasadas", tuple(series["d_nao"])),
            Serie("Recursos tempestivos", tuple(series["r_sim"])),
            Serie("Recursos intempestivos", tuple(series["r_nao"])),
        ),
        nota=aviso.strip(),
    )
    f = p.filtro
    etapas = (
        ("decisao_no_prazo", "Decisões no prazo"),
        ("decisao_atrasada", "Decisões atrasadas"),
        ("recurso_tempestivo", "Recursos tempestivos"),
        ("recurso_intempestivo", "Recursos intempestivos"),
    )
    destinos = {
        (j, i): DestinoLista(
            operadora_id=f.operadora_id,
            linha_id=f.linha_id,
            etapa=EtapaAuto(etapa, *_limites_mes(mes, f), p.prazos.dias_para_decidir),
            rotulo=f"{rotulo} em {rotulo_mes(mes)}",
        )
        for j, (etapa, rotulo) in enumerate(etapas)
        for i, mes in enumerate(p.meses)
    }
    return GraficoPainel(g, destinos)


def _grafico_reincidencia(p: Painel) -> GraficoPainel:
    cadeias = _maiores(list(p.cadeias), lambda c: float(c.nivel))
    g = Grafico(
        "reincidencia",
        "Reincidência aberta hoje: nível da próxima infração e o da suspensão (§ 5º)"
        + _dos_maiores(cadeias, p.cadeias, "cadeias de nível mais alto"),
        tuple(f"{c.operadora} — {c.rotulo_dispositivo} (tipo {c.tipo})" for c in cadeias),
        (Serie("Nível de reincidência", tuple(float(c.nivel) for c in cadeias)),),
        forma="barras_h",
        referencia=tuple(float(c.nivel_suspensao) for c in cadeias),
        rotulo_referencia="Suspensão cabível a partir de",
        vazio="Nenhuma operadora com cadeia de reincidência aberta hoje.",
    )
    destinos = {
        (0, i): DestinoLista(
            operadora_id=c.operadora_id,
            dispositivo=c.dispositivo,
            rotulo=f"{c.operadora}, {c.rotulo_dispositivo}",
        )
        for i, c in enumerate(cadeias)
    }
    return GraficoPainel(g, destinos)


_GRAFICOS: tuple[Callable[[Painel, str], GraficoPainel], ...] = (
    _grafico_autos_mes,
    lambda p, _por: _grafico_dispositivos(p),
    lambda p, _por: _grafico_frota(p),
    lambda p, _por: _grafico_multas(p),
    lambda p, _por: _grafico_tempos(p),
    lambda p, _por: _grafico_prazos(p),
    lambda p, _por: _grafico_reincidencia(p),
)
QUANTOS_GRAFICOS = len(_GRAFICOS)


def grafico_do_painel(p: Painel, k: int, por: str = "operadora") -> GraficoPainel:
    """The page's chart k (`ler_painel`'s order): it needs only the numbers `ler_painel` reads up to its k."""
    return _GRAFICOS[k](p, por)


def graficos_do_painel(p: Painel, por: str = "operadora") -> tuple[GraficoPainel, ...]:
    """The page's charts, in order, each with where a click on its bars leads."""
    return tuple(grafico(p, por) for grafico in _GRAFICOS)


# --- the annual report --------------------------------------------------------------------------------------


def dados_anuais(sessao: so.Session, ano: int, hoje: date | None = None) -> DadosAnuais:
    """The year's numbers for the annual report, without personal data, all read through `services.cifras`
    (the figures every report shows): per operator and tipo, the autos drawn up in the year and what became
    of each (fine as it stands, dismissed, suspension), so a row's fines and dismissals never exceed its
    autos; per month, the autos drawn up, the fines applied (by the decision's day), paid and inscribed; every
    provision cited; and the Painel's charts for the year. Grouped queries only."""
    from secretaria.services.documentos import timbre

    dia = hoje or relogio.hoje()
    desde, ate = date(ano, 1, 1), date(ano, 12, 31)
    f = FiltroPainel(desde, ate)
    a, d = AutoInfracao, Decisao
    # By the operator's id, as the Painel counts: one row per operator and tipo whatever its name, and two
    # operators that share a trade name stay two rows (each named so a reader tells them apart).
    chaves = [a.operadora_id, a.tipo]
    lavrado_no_ano = (a.data_lavratura >= desde, a.data_lavratura <= ate)
    autos = cifras.autos_lavrados(sessao, desde, ate, chaves)
    multas = cifras.multas_aplicadas(sessao, chaves, *lavrado_no_ano)
    suspensa = cifras.suspensao_vale()
    desfechos = sessao.execute(
        sa.select(
            *chaves,
            sa.func.sum(sa.case((d.resultado == "arquivado", 1), else_=0)),
            sa.func.sum(sa.case((suspensa, 1), else_=0)),
            sa.func.coalesce(sa.func.sum(sa.case((suspensa, a.suspensao_dias), else_=0)), 0),
        )
        .select_from(d)
        .join(a, a.id == d.auto_id)
        .where(*lavrado_no_ano)
        .group_by(*chaves)
    ).all()
    por_chave: dict[tuple[int, str], list[Any]] = defaultdict(lambda: [0, 0, 0, Decimal(0), 0, 0])
    for (oid, tipo), n in autos.items():
        por_chave[(oid, tipo)][0] = n
    for (oid, tipo), m in multas.items():
        por_chave[(oid, tipo)][1] = m.quantidade
        por_chave[(oid, tipo)][3] = m.reais
    for oid, tipo, arquivados, suspensoes, dias in desfechos:
        por_chave[(oid, tipo)][2] = int(arquivados or 0)
        por_chave[(oid, tipo)][4:] = [int(suspensoes or 0), int(dias or 0)]
    nomes = _nomes_das_operadoras(sessao, {oid for oid, _t in por_chave})
    linhas = tuple(
        LinhaAnual(nomes[oid], tipo, *valores)
        for (oid, tipo), valores in sorted(
            por_chave.items(), key=lambda x: (nomes[x[0][0]].casefold(), x[0][1])
        )
    )
    painel = ler_painel(sessao, f, dia)
    lavrados_mes = cifras.autos_lavrados(sessao, desde, ate, [_mes(sessao, a.data_lavratura)])
    valores: dict[tuple[str, str], Decimal] = {(v.mes, v.serie): v.valor for v in painel.multas}
    meses = tuple(
        MesAnual(
            date(int(m[:4]), int(m[5:]), 1),
            lavrados_mes.get((m,), 0),
            valores.get((m, "decidida"), Decimal(0)),
            valores.get((m, "paga"), Decimal(0)),
            valores.get((m, "divida_ativa"), Decimal(0)),
        )
        for m in painel.meses
    )
    citados = cifras.autos_por_dispositivo(sessao, desde, ate)
    dispositivos = tuple(DispositivoAnual(x.rotulo, x.tipo, x.autos) for x in citados)
    graficos = tuple(
        _grafico_dispositivos_do_ano(dispositivos) if g.grafico.chave == "dispositivos" else g.grafico
        for g in graficos_do_painel(painel, "tipo")
        if g.grafico.chave != "reincidencia"
    )
    return DadosAnuais(ano, timbre(sessao), dia, linhas, meses, dispositivos, graficos)


def _grafico_dispositivos_do_ano(dispositivos: Sequence[DispositivoAnual]) -> Grafico:
    """The ten provisions most cited by the autos drawn up in the year: the report's own table, charted."""
    dez = dispositivos[:10]
    return Grafico(
        "dispositivos",
        "Os dez dispositivos mais citados nos autos lavrados no ano",
        tuple(f"{x.rotulo} (tipo {x.tipo})" if x.tipo else x.rotulo for x in dez),
        (Serie("Autos", tuple(float(x.autos) for x in dez)),),
        forma="barras_h",
    )


def _nomes_das_operadoras(sessao: so.Session, ids: set[int]) -> dict[int, str]:
    """Each operator's name as the lists say it (trade name, else company name); where two share it, the
    company name beside it (and the CNPJ where that too is the same): a legal entity's, not personal data."""
    o = Operadora
    linhas = sessao.execute(
        sa.select(o.id, nome_operadora(), o.razao_social, o.cnpj).where(o.id.in_(ids))
    ).all()
    vezes = Counter(nome for _i, nome, _r, _c in linhas)
    razoes = Counter((nome, razao) for _i, nome, razao, _c in linhas)
    nomes: dict[int, str] = {}
    for oid, nome, razao, cnpj in linhas:
        if vezes[nome] == 1:
            nomes[oid] = nome
        elif razoes[(nome, razao)] == 1 and razao != nome:
            nomes[oid] = f"{nome} ({razao})"
        else:
            nomes[oid] = f"{nome} (CNPJ {formatar_cnpj(cnpj)})"
    return nomes


def gerar_relatorio_anual(banco: Banco, ano: int, destino: Path) -> str:
    """Write the year's report to `destino`: a PDF (.pdf) or a workbook (.xlsx), by its extension. Written
    beside it first and renamed at the end, so an interrupted run never leaves half a file. Returns what
    to tell the user."""
    from secretaria.reports.relatorio_anual import gerar_pdf_anual, gerar_planilha_anual

    extensao = destino.suffix.lower()
    if extensao not in (".pdf", ".xlsx"):
        raise ErroDominio("O relatório anual é gravado em PDF (.pdf) ou planilha (.xlsx).", campo="saida")
    if not 2000 <= ano <= 2100:
        raise ErroDominio(f"Ano inválido: {ano}.", campo="ano")
    with banco.leitura() as sessao:
        dados = dados_anuais(sessao, ano)
    temporario = destino.with_name(f".{destino.name}.parcial")
    try:
        if extensao == ".pdf":
            temporario.write_bytes(gerar_pdf_anual(dados))
        else:
            gerar_planilha_anual(dados, temporario)
        temporario.replace(destino)
    finally:
        temporario.unlink(missing_ok=True)
    return (
        f"Relatório anual de {ano} gravado em {destino}: {formatar_decimal(dados.total_autos, 0)} autos "
        "lavrados, "
        f"{formatar_reais(dados.total_multas_no_ano)} em multas aplicadas."
    )
