"""The Painel's numbers: each chart's query against the test's own reading of the rows (plain SELECTs,
aggregated here), on both databases."""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.lei.sancoes import NIVEL_SUSPENSAO
from secretaria.models import AutoInfracao, Decisao, Intimacao, Pagamento, Recurso, Veiculo
from secretaria.services import painel
from secretaria.services.filas import dias_para_decidir
from secretaria.services.tramitacao import decisao_final
from tests.helpers.cenario_painel import cenario as _cenario
from tests.helpers.fabrica import Roteiro

HOJE = date(2026, 11, 30)
FILTRO = painel.FiltroPainel(date(2025, 12, 1), HOJE)
LONGO = painel.FiltroPainel(date(2021, 3, 15), HOJE)
"""More than 36 months: every chart per year."""


def _autos(banco: Banco) -> list[sa.Row[tuple[object, ...]]]:
    with banco.leitura() as s:
        return list(
            s.execute(
                sa.select(
                    AutoInfracao.id,
                    AutoInfracao.operadora_id,
                    AutoInfracao.tipo,
                    AutoInfracao.dispositivo_codigo,
                    AutoInfracao.data_infracao,
                    AutoInfracao.fase,
                    AutoInfracao.prazo_defesa,
                    AutoInfracao.prazo_recurso,
                )
            )
        )


def _mes(dia: date) -> str:
    return f"{dia.year:04d}-{dia.month:02d}"


def _periodo_de(filtro: painel.FiltroPainel) -> Callable[[date], str]:
    """The test's own category of a day: its month, or its year for a period of more than 36 months."""
    meses = (filtro.ate.year - filtro.desde.year) * 12 + filtro.ate.month - filtro.desde.month + 1
    return (lambda dia: f"{dia.year:04d}") if meses > 36 else _mes


def _no_periodo(dia: date | None) -> bool:
    return dia is not None and FILTRO.desde <= dia <= FILTRO.ate


def test_autos_por_mes_dispositivos_e_frota(banco: Banco, roteiro: Roteiro) -> None:
    _cenario(roteiro)
    autos = [a for a in _autos(banco) if _no_periodo(a.data_infracao)]
    with banco.leitura() as s:
        p = painel.ler_painel(s, FILTRO, HOJE)
        frota = Counter(s.scalars(sa.select(Veiculo.operadora_id).where(Veiculo.situacao != "baixado")).all())
    assert p.meses[0] == "2025-12" and p.meses[-1] == "2026-11" and len(p.meses) == 12
    esperado_op = Counter((_mes(a.data_infracao), str(a.operadora_id)) for a in autos)
    assert {(c.mes, c.chave): c.valor for c in p.por_operadora} == dict(esperado_op)
    esperado_tipo = Counter((_mes(a.data_infracao), a.tipo) for a in autos)
    assert {(c.mes, c.chave): c.valor for c in p.por_tipo} == dict(esperado_tipo)
    assert all(c.rotulo == f"Tipo {c.chave}" for c in p.por_tipo)
    citados = Counter(a.dispositivo_codigo for a in autos)
    assert [(d.codigo, d.autos) for d in p.dispositivos] == sorted(
        citados.items(), key=lambda x: (-x[1], x[0])
    )
    assert p.dispositivos[0].rotulo.startswith("Art. ")
    por_op = Counter(a.operadora_id for a in autos)
    assert {(x.operadora_id, x.autos, x.veiculos) for x in p.frota} == {
        (o, por_op.get(o, 0), frota.get(o, 0)) for o in set(por_op) | set(frota)
    }
    for x in p.frota:
        assert x.por_100 == (Decimal(x.autos) * 100 / x.veiculos).quantize(Decimal("0.1"))
    # One operator: only its autos.
    so_uma = painel.FiltroPainel(FILTRO.desde, FILTRO.ate, operadora_id=roteiro.cidade.operadora2_id)
    with banco.leitura() as s:
        uma = painel.autos_por_mes(s, so_uma)
    assert sum(c.valor for c in uma) == por_op[roteiro.cidade.operadora2_id]
    assert {c.chave for c in uma} == {str(roteiro.cidade.operadora2_id)}


def test_multas_decididas_pagas_e_em_divida_ativa(banco: Banco, roteiro: Roteiro) -> None:
    _cenario(roteiro)
    with banco.leitura() as s:
        decisoes = s.execute(sa.select(Decisao.data, Decisao.multa_reais, Decisao.resultado)).all()
        pagamentos = s.execute(
            sa.select(
                Pagamento.situacao,
                Pagamento.pago_em,
                Pagamento.valor_pago,
                Pagamento.valor,
                Pagamento.inscrito_divida_em,
            )
        ).all()
        custo = sa.text("SHOW random_page_cost")
        antes = None if banco.eh_sqlite else s.execute(custo).scalar()
        multas = painel.multas_por_mes(s, FILTRO)
        if not banco.eh_sqlite:  # a year's fines read by index: the planner's setting back for the next chart
            assert s.execute(custo).scalar() == antes
    esperado: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for dia, reais, resultado in decisoes:
        if resultado == "aplicada" and reais > 0 and _no_periodo(dia):
            esperado[(_mes(dia), "decidida")] += reais
    for situacao, pago_em, valor_pago, valor, inscrito in pagamentos:
        if situacao == "pago" and _no_periodo(pago_em):
            esperado[(_mes(pago_em), "paga")] += valor_pago or valor
        if situacao == "divida_ativa" and _no_periodo(inscrito):
            esperado[(_mes(inscrito), "divida_ativa")] += valor
    assert {(m.mes, m.serie): m.valor for m in multas} == dict(esperado)
    assert {m.serie for m in multas} == set(painel.SERIES_MULTAS)


def test_medianas_de_tempo_calculadas_no_banco(banco: Banco, roteiro: Roteiro) -> None:
    _cenario(roteiro)
    with banco.leitura() as s:
        medianas = painel.medianas_por_mes(s, FILTRO, HOJE)
    assert {(m.mes, m.etapa): (m.dias, m.casos) for m in medianas} == _medianas_esperadas(banco, FILTRO)
    assert {m.etapa for m in medianas} == set(painel.ETAPAS)


def test_prazos_e_aviso_de_prescricao(banco: Banco, roteiro: Roteiro) -> None:
    ids = _cenario(roteiro)
    with banco.leitura() as s:
        limite = dias_para_decidir(s)
        decisoes = s.execute(
            sa.select(Decisao.data, AutoInfracao.prazo_defesa).join(
                AutoInfracao, AutoInfracao.id == Decisao.auto_id
            )
        ).all()
        recursos = s.execute(sa.select(Recurso.protocolado_em, Recurso.tempestivo)).all()
        p = painel.prazos(s, FILTRO, HOJE)
    esperado_d: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for dia, prazo in decisoes:
        if _no_periodo(dia) and prazo is not None:
            esperado_d[_mes(dia)][0 if dia <= prazo + timedelta(days=limite) else 1] += 1
    assert {x.mes: [x.no_prazo, x.fora_do_prazo] for x in p.decisoes} == dict(esperado_d)
    assert sum(x.fora_do_prazo for x in p.decisoes) >= 1  # the 70-day decision
    esperado_r: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for dia, tempestivo in recursos:
        if _no_periodo(dia):
            esperado_r[_mes(dia)][0 if tempestivo else 1] += 1
    assert {x.mes: [x.no_prazo, x.fora_do_prazo] for x in p.recursos} == dict(esperado_r)
    assert sorted(t for x in p.recursos for t in (x.no_prazo, x.fora_do_prazo) if t) == [1, 1]
    autos = _autos(banco)
    vence, proxima = date(2022, 11, 30), date(2023, 5, 30)  # 4 years before today; 6 months after that
    sem_decisao = [a for a in autos if a.fase in ("lavrado", "intimado")]
    assert p.prescricao_vencida == sum(1 for a in sem_decisao if a.data_infracao <= vence) == 1
    assert p.prescricao_proxima == sum(1 for a in sem_decisao if vence < a.data_infracao <= proxima) == 1
    assert {ids["antigo"], ids["quase"]} <= {a.id for a in sem_decisao}


def test_cadeias_de_reincidencia_abertas(banco: Banco, roteiro: Roteiro) -> None:
    ids = _cenario(roteiro)
    with banco.leitura() as s:
        cadeias = painel.cadeias_abertas(s, FILTRO, HOJE)
        finais = s.execute(
            sa.select(
                AutoInfracao.operadora_id,
                AutoInfracao.dispositivo_codigo,
                AutoInfracao.tipo,
                AutoInfracao.data_infracao,
                AutoInfracao.data_definitiva,
            ).where(AutoInfracao.id.in_([ids["cadeia0"], ids["cadeia1"], ids["cadeia2"]]))
        ).all()
    assert all(f.data_definitiva is not None and f.data_definitiva <= HOJE for f in finais)
    from secretaria.lei.sancoes import Antecedente, calcular_sancao

    tipo = finais[0].tipo
    sancao = calcular_sancao(tipo, HOJE, [Antecedente(f.data_infracao, f.data_definitiva) for f in finais])
    assert sancao.reincidencia >= 2  # the scenario builds a chain that reaches § 5º for tipo E
    (cadeia,) = cadeias
    assert cadeia.operadora_id == roteiro.cidade.operadora_id and cadeia.dispositivo == "1-I"
    assert cadeia.nivel == sancao.reincidencia
    assert cadeia.nivel_suspensao == NIVEL_SUSPENSAO[tipo]
    assert cadeia.suspensao_cabivel is sancao.suspensao_cabivel is True
    assert cadeia.ultima_infracao == date(2026, 7, 1)
    # Another operator's filter: none of its chains is open.
    so_outra = painel.FiltroPainel(FILTRO.desde, FILTRO.ate, operadora_id=roteiro.cidade.operadora2_id)
    with banco.leitura() as s:
        assert painel.cadeias_abertas(s, so_outra, HOJE) == ()


def test_mediana_de_quantidade_par_e_a_media_dos_dois_do_meio(banco: Banco, roteiro: Roteiro) -> None:
    """Two autos of one month intimated 1 and 4 days after the infraction: the median is 2.5 days."""
    for dias in (1, 4):
        r = roteiro.lavrar(data_infracao=date(2026, 3, 2), dispositivo="1-II")
        roteiro.intimar(r.id, date(2026, 3, 2) + timedelta(days=dias))
    r = roteiro.lavrar(data_infracao=date(2026, 4, 1), dispositivo="1-II")
    roteiro.intimar(r.id, date(2026, 4, 8))
    with banco.leitura() as s:
        medianas = {(m.mes, m.etapa): (m.dias, m.casos) for m in painel.medianas_por_mes(s, FILTRO, HOJE)}
    assert medianas == {("2026-03", "intimacao"): (2.5, 2), ("2026-04", "intimacao"): (7.0, 1)}


def _medianas_esperadas(
    banco: Banco, filtro: painel.FiltroPainel
) -> dict[tuple[str, str], tuple[float, int]]:
    """The test's own medians: each step's day counts read with plain SELECTs, `statistics.median` here."""
    with banco.leitura() as s:
        autos = {
            a.id: a
            for a in s.execute(
                sa.select(
                    AutoInfracao.id,
                    AutoInfracao.data_infracao,
                    AutoInfracao.prazo_recurso,
                    AutoInfracao.operadora_id,
                    AutoInfracao.linha_id,
                    AutoInfracao.fase,
                )
            )
            if filtro.desde <= a.data_infracao <= filtro.ate
            and a.fase != "cancelado"
            and filtro.operadora_id in (None, a.operadora_id)
            and filtro.linha_id in (None, a.linha_id)
        }
        intimacoes = s.execute(
            sa.select(Intimacao.auto_id, Intimacao.data, Intimacao.sucesso, Intimacao.objeto)
        ).all()
        decisoes = s.execute(
            sa.select(
                Decisao.auto_id, Decisao.resultado, Decisao.data, Recurso.tempestivo, Recurso.julgado_em
            ).outerjoin(Recurso, Recurso.decisao_id == Decisao.id)
        ).all()
    primeira: dict[int, date] = {}
    for auto_id, dia, sucesso, objeto in intimacoes:
        if auto_id in autos and sucesso and objeto == "auto":
            primeira[auto_id] = min(dia, primeira.get(auto_id, dia))
    dias: dict[tuple[str, str], list[int]] = defaultdict(list)
    _mes = _periodo_de(filtro)
    for auto_id, dia in primeira.items():
        a = autos[auto_id]
        dias[(_mes(a.data_infracao), "intimacao")].append((dia - a.data_infracao).days)
    for auto_id, resultado, dia, tempestivo, julgado in decisoes:
        if auto_id not in autos:
            continue
        a = autos[auto_id]
        dias[(_mes(a.data_infracao), "decisao")].append((dia - a.data_infracao).days)
        final = decisao_final(
            resultado=resultado,
            data_decisao=dia,
            prazo_recurso=a.prazo_recurso,
            recurso_tempestivo=tempestivo,
            recurso_julgado_em=julgado,
            dia=HOJE,
        )
        if final is not None:
            dias[(_mes(a.data_infracao), "final")].append((final - a.data_infracao).days)
    return {k: (float(statistics.median(v)), len(v)) for k, v in dias.items()}


def test_medianas_impar_par_empates_meses_vazios_e_filtros(banco: Banco, roteiro: Roteiro) -> None:
    """Odd and even counts, ties in the middle, a failed intimação before the delivered one, an intimação of
    the decision (not the auto's), months with autos but no intimação and months with no auto; and the
    same medians for one operator and for one line."""
    c = roteiro.cidade
    # March, first operator, its line: intimated 1, 3, 3, 7 days after (even count, tied middle: 3.0).
    for dias in (7, 3, 1, 3):
        r = roteiro.lavrar(data_infracao=date(2026, 3, 9), dispositivo="1-II", linha_id=c.linha_id)
        roteiro.intimar(r.id, date(2026, 3, 9) + timedelta(days=dias))
    # May, second operator, its line: 2, 5 and 9 days (odd: 5.0); the 9-day one had a returned letter first.
    for dias in (9, 2, 5):
        r = roteiro.lavrar(
            data_infracao=date(2026, 5, 4),
            dispositivo="1-VI",
            operadora_id=c.operadora2_id,
            linha_id=c.linha2_id,
        )
        if dias == 9:
            roteiro.intimar(r.id, date(2026, 5, 6), resultado="devolvida")
        roteiro.intimar(r.id, date(2026, 5, 4) + timedelta(days=dias))
    # June: an auto never intimated; July: decided cases of both operators (decision and final steps too).
    roteiro.lavrar(data_infracao=date(2026, 6, 10), dispositivo="1-II")
    for dias, operadora in ((20, c.operadora_id), (35, c.operadora_id), (50, c.operadora2_id)):
        roteiro.decidido(
            data_infracao=date(2026, 7, 1), multa="0.30", dispositivo="1-VI", operadora_id=operadora,
            dias_ate_decisao=dias,
        )  # fmt: skip
    filtros = (
        FILTRO,
        painel.FiltroPainel(FILTRO.desde, FILTRO.ate, operadora_id=c.operadora2_id),
        painel.FiltroPainel(FILTRO.desde, FILTRO.ate, linha_id=c.linha_id),
        painel.FiltroPainel(date(2026, 4, 1), date(2026, 4, 30)),  # no auto at all
    )
    for filtro in filtros:
        with banco.leitura() as s:
            medianas = {(m.mes, m.etapa): (m.dias, m.casos) for m in painel.medianas_por_mes(s, filtro, HOJE)}
        assert medianas == _medianas_esperadas(banco, filtro), filtro
    with banco.leitura() as s:
        todas = {(m.mes, m.etapa): (m.dias, m.casos) for m in painel.medianas_por_mes(s, FILTRO, HOJE)}
        linha = {(m.mes, m.etapa): (m.dias, m.casos) for m in painel.medianas_por_mes(s, filtros[2], HOJE)}
    assert todas[("2026-03", "intimacao")] == (3.0, 4)
    assert todas[("2026-05", "intimacao")] == (5.0, 3)
    assert not any(mes in ("2026-04", "2026-06") for mes, _ in todas)
    assert ("2026-05", "intimacao") not in linha and linha[("2026-03", "intimacao")] == (3.0, 4)


def test_cadeias_conferem_com_calcular_sancao_sobre_todas_as_penalidades(
    banco: Banco, roteiro: Roteiro
) -> None:
    """The chains the database walks give the level `calcular_sancao` reads over ALL of each operator's autos
    of each provision: a chain of three (two autos on one day among them), one broken by its window, one
    whose latest auto is not final yet; the most advanced chain of each operator."""
    from secretaria.lei.sancoes import Antecedente, calcular_sancao

    c = roteiro.cidade
    _cenario(roteiro)  # first operator: 1-I (tipo E), three final penalties
    # Each fine inside the range of its own level then (twice the first range per level).
    for dia, multa in (
        (date(2026, 7, 1), "0.50"),
        (date(2026, 7, 1), "0.50"),
        (date(2026, 8, 20), "1.00"),
        (date(2026, 10, 10), "2.00"),
    ):  # 1-V, tipo B (2-month window)
        roteiro.decidido(data_infracao=dia, multa=multa, dispositivo="1-V", operadora_id=c.operadora2_id)
    for dia, multa in (
        (date(2026, 1, 5), "2.00"),
        (date(2026, 4, 1), "4.00"),
    ):  # 1-VIII, tipo D: 8 months old
        roteiro.decidido(data_infracao=dia, multa=multa, dispositivo="1-VIII", operadora_id=c.operadora2_id)
    roteiro.decidido(data_infracao=date(2026, 6, 15), multa="1.00", dispositivo="1-XV")  # tipo C
    roteiro.decidido(data_infracao=date(2026, 9, 10), multa="2.00", dispositivo="1-XV", notificar=False)
    with banco.leitura() as s:
        cadeias = painel.cadeias_abertas(s, FILTRO, HOJE)
        autos = s.execute(
            sa.select(
                AutoInfracao.operadora_id,
                AutoInfracao.dispositivo_codigo,
                AutoInfracao.tipo,
                AutoInfracao.data_infracao,
                AutoInfracao.data_definitiva,
                AutoInfracao.penalidade_anulada,
                AutoInfracao.fase,
            )
        ).all()
    pares: dict[tuple[int, str], list[Antecedente]] = defaultdict(list)
    tipos: dict[tuple[int, str], str] = {}
    for a in autos:
        if a.tipo in NIVEL_SUSPENSAO and a.data_infracao < HOJE:
            anulada = a.penalidade_anulada or a.fase == "cancelado"
            pares[(a.operadora_id, a.dispositivo_codigo)].append(
                Antecedente(a.data_infracao, a.data_definitiva, anulada=anulada)
            )
            tipos[(a.operadora_id, a.dispositivo_codigo)] = a.tipo
    niveis = {
        par: calcular_sancao(tipos[par], HOJE, antecedentes).reincidencia
        for par, antecedentes in pares.items()
    }
    abertas = {par: n for par, n in niveis.items() if n >= 1}
    assert abertas == {(c.operadora_id, "1-I"): 3, (c.operadora2_id, "1-V"): 3}
    assert {(x.operadora_id, x.dispositivo): x.nivel for x in cadeias} == abertas
    # The first operator's chain is at the suspension level (3 of 2), the second's at 3 of 5.
    assert [x.operadora_id for x in cadeias] == [c.operadora_id, c.operadora2_id]
    (segunda,) = [x for x in cadeias if x.operadora_id == c.operadora2_id]
    assert (segunda.ultima_infracao, segunda.nivel_suspensao, segunda.suspensao_cabivel) == (
        date(2026, 10, 10), NIVEL_SUSPENSAO["B"], False,
    )  # fmt: skip


def test_cadeia_mais_longa_que_a_primeira_leitura_mostra_o_nivel_inteiro(
    banco: Banco, roteiro: Roteiro
) -> None:
    """A tipo C chain (4-month window, suspension from level 4) with a link every 3 months for almost three
    years: longer than the 20 months first read for tipo C. The level shown is the law's over every final
    penalty of the pair, not over the last 20 months."""
    from secretaria.lei.sancoes import Antecedente, calcular_sancao, somar_meses

    def finais(ate: date, desde: date | None = None) -> list[Antecedente]:
        a = AutoInfracao
        with banco.leitura() as s:
            linhas = s.execute(
                sa.select(a.data_infracao, a.data_definitiva, a.multa_ur, a.suspensao_dias).where(
                    a.dispositivo_codigo == "1-XV", a.operadora_id == roteiro.cidade.operadora_id
                )
            ).all()
        return [
            Antecedente(d, f, m or Decimal(0), s or 0)
            for d, f, m, s in linhas
            if f is not None and f <= ate and (desde is None or d >= desde)
        ]

    dia = date(2024, 2, 5)
    while dia < date(2026, 11, 1):
        multa = calcular_sancao("C", dia, finais(dia)).multa_min_ur
        roteiro.decidido(data_infracao=dia, multa=str(multa), dispositivo="1-XV")
        dia = somar_meses(dia, 3)
    esperado = calcular_sancao("C", HOJE, finais(HOJE))
    assert esperado.reincidencia == 11  # every link of the eleven counts
    # What the last 20 months alone say (the old cap): fewer links.
    assert calcular_sancao("C", HOJE, finais(HOJE, somar_meses(HOJE, -20))).reincidencia < 11
    with banco.leitura() as s:
        (cadeia,) = painel.cadeias_abertas(s, FILTRO, HOJE)
    assert (cadeia.dispositivo, cadeia.tipo) == ("1-XV", "C")
    assert cadeia.nivel == esperado.reincidencia and cadeia.suspensao_cabivel
    assert cadeia.ultima_infracao == date(2026, 8, 5)
    # The sanction panel, drawing up an auto today, says the same level.
    from secretaria.services.sancao import avaliar_sancao

    with banco.leitura() as s:
        avaliacao = avaliar_sancao(
            s, operadora_id=roteiro.cidade.operadora_id, dispositivo_codigo="1-XV", data_infracao=HOJE
        )
    assert avaliacao.sancao.reincidencia == cadeia.nivel


@pytest.mark.parametrize("periodo", [FILTRO, LONGO], ids=["12 meses", "6 anos"])
def test_cada_barra_de_multas_tempos_e_prazos_leva_aos_autos_que_conta(
    banco: Banco, roteiro: Roteiro, periodo: painel.FiltroPainel
) -> None:
    """Every bar (and point) of the fines, times and deadlines charts: the autos list under its filter holds
    exactly the autos the test's own reading says; a deadline bar counts them, a times point is the median
    of them."""
    from secretaria.services import listas
    from secretaria.services.autos import PedidoCancelamento, cancelar_auto
    from tests.helpers.autos_do_painel import autos_esperados
    from tests.helpers.fabrica import ATORES

    _cenario(roteiro)
    # A cancelled auto, delivered before: no step of the times chart counts it.
    cancelado = roteiro.lavrar(data_infracao=date(2026, 10, 5), dispositivo="1-II").id
    roteiro.intimar(cancelado, date(2026, 10, 7))
    cancelar_auto(
        roteiro.uow(),
        ATORES["secretario"],
        PedidoCancelamento(auto_id=cancelado, motivo="Lavrado em duplicidade."),
    )
    # A fine annulled on appeal: no "Multas aplicadas" bar counts it, nor the list it opens.
    anulado = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30", dispositivo="5-II").id
    roteiro.recorrer(anulado, date(2026, 6, 25))
    roteiro.julgar(anulado, date(2026, 7, 10), "provido")
    with banco.leitura() as s:
        p = painel.ler_painel(s, periodo, HOJE)
    graficos = {g.grafico.chave: g for g in painel.graficos_do_painel(p)}
    casos = {(m.mes, m.etapa): m.casos for m in p.medianas}
    vistos: Counter[str] = Counter()
    for chave in ("multas", "tempos", "prazos"):
        g = graficos[chave]
        assert len(g.destinos) == len(g.grafico.series) * len(p.meses)
        for (j, i), destino in g.destinos.items():
            assert destino.etapa is not None
            filtro = listas.Filtro(
                operadora_id=destino.operadora_id,
                desde=destino.desde,
                ate=destino.ate,
                linha_id=destino.linha_id,
                etapa=destino.etapa,
            )
            with banco.leitura() as s:
                ids = {linha[0] for linha in listas.pagina(s, "autos", filtro, None, 0, 10_000)}
                assert listas.contar(s, "autos", filtro) == len(ids)
            assert ids == autos_esperados(banco, destino, HOJE), (chave, destino.rotulo)
            valor = g.grafico.series[j].valores[i]
            if chave == "prazos":
                assert valor == len(ids)
            elif chave == "tempos":
                assert len(ids) == casos.get((p.meses[i], painel.ETAPAS[j]), 0)
            else:
                assert (valor > 0) == bool(ids)
            vistos[chave] += bool(ids)
    assert all(vistos[c] >= 2 for c in ("multas", "tempos", "prazos")), vistos


def test_periodo_longo_por_ano_com_os_mesmos_numeros(banco: Banco, roteiro: Roteiro) -> None:
    """A period of more than 36 months is shown per year: the categories are its years, each chart's numbers
    the test's own per-year reading (medians too, computed per year in SQL), the titles say "por ano" and a
    bar leads to that year's days inside the period."""
    _cenario(roteiro)
    por_ano = _periodo_de(LONGO)
    autos = [a for a in _autos(banco) if LONGO.desde <= a.data_infracao <= LONGO.ate]
    with banco.leitura() as s:
        p = painel.ler_painel(s, LONGO, HOJE)
        mensal = painel.ler_painel(s, FILTRO, HOJE)
    assert p.meses == tuple(str(a) for a in range(2021, 2027))
    assert {(c.mes, c.chave): c.valor for c in p.por_operadora} == dict(
        Counter((por_ano(a.data_infracao), str(a.operadora_id)) for a in autos)
    )
    assert {(c.mes, c.chave): c.valor for c in p.por_tipo} == dict(
        Counter((por_ano(a.data_infracao), a.tipo) for a in autos)
    )
    assert {(m.mes, m.etapa): (m.dias, m.casos) for m in p.medianas} == _medianas_esperadas(banco, LONGO)
    assert sum(m.valor for m in p.multas if m.mes == "2026") >= sum(
        m.valor for m in mensal.multas if m.mes.startswith("2026")
    )
    graficos = {g.grafico.chave: g for g in painel.graficos_do_painel(p)}
    autos_ano = graficos["autos_mes"]
    assert autos_ano.grafico.titulo.startswith("Autos por ano da infração")
    assert graficos["multas"].grafico.titulo.startswith("Multas por ano")
    assert autos_ano.grafico.categorias == p.meses
    primeiro = autos_ano.destinos[(0, 0)]
    assert (primeiro.desde, primeiro.ate) == (LONGO.desde, date(2021, 12, 31))
    assert autos_ano.destinos[(0, len(p.meses) - 1)].ate == HOJE
    # Twelve months stay per month.
    assert mensal.meses[0] == "2025-12" and len(mensal.meses) == 12


def test_muitas_operadoras_empilhadas_as_maiores_e_as_demais(banco: Banco, roteiro: Roteiro) -> None:
    """With more operators than `SERIES_NO_GRAFICO`, the bar stacks the nine with most autos in the period and
    the rest as one segment, whose sum keeps each month's total; only the named ones lead to a list."""
    _cenario(roteiro)
    with banco.leitura() as s:
        p = painel.ler_painel(s, FILTRO, HOJE)
    meses = p.meses
    muitas = tuple(
        painel.Contagem(mes, str(100 + k), f"Operadora {k:02d}", k + 1 + i % 3)
        for k in range(14)
        for i, mes in enumerate(meses)
    )
    g = painel.graficos_do_painel(replace(p, por_operadora=muitas))[0]
    nomes = [serie.rotulo for serie in g.grafico.series]
    assert len(nomes) == painel.SERIES_NO_GRAFICO
    assert nomes[-1] == "Demais operadoras (5)"
    assert set(nomes[:-1]) == {f"Operadora {k:02d}" for k in range(5, 14)}
    for i, mes in enumerate(meses):
        assert sum(serie.valores[i] for serie in g.grafico.series) == sum(
            c.valor for c in muitas if c.mes == mes
        )
    demais = len(nomes) - 1
    assert not any(j == demais for j, _i in g.destinos)
    assert len(g.destinos) == (len(nomes) - 1) * len(meses)


def test_cada_grafico_sai_assim_que_seus_numeros_sao_lidos(banco: Banco, roteiro: Roteiro) -> None:
    """The page draws chart k while chart k+1's numbers are read: `ler_painel` hands each chart over in the
    page's order, and the chart drawn from what was read so far is the one the whole reading gives."""
    _cenario(roteiro)
    entregas: list[tuple[int, painel.GraficoPainel]] = []
    with banco.leitura() as s:
        p = painel.ler_painel(
            s,
            FILTRO,
            HOJE,
            ao_ler=lambda k, parcial: entregas.append((k, painel.grafico_do_painel(parcial, k))),
        )
    inteiros = painel.graficos_do_painel(p)
    assert [k for k, _g in entregas] == list(range(painel.QUANTOS_GRAFICOS)) == list(range(len(inteiros)))
    for (k, gp), inteiro in zip(entregas, inteiros, strict=True):
        assert repr(gp.grafico) == repr(inteiro.grafico), k  # repr: a month without a median is NaN
        assert gp.destinos == inteiro.destinos, k
    assert all(g.grafico.tem_dados for g in inteiros[:6])  # the scenario gives every chart numbers
    assert painel.grafico_do_painel(p, 0, "tipo").grafico == painel.graficos_do_painel(p, "tipo")[0].grafico


def test_medianas_leem_a_decisao_de_cada_auto_uma_vez(banco: Banco, roteiro: Roteiro) -> None:
    """The medians' one pass reads each auto's decision once, joined with its appeal (as two subqueries it was
    looked up twice: 108 → 97 ms on SQLite's bench city, 156 → 125 ms on PostgreSQL's, twenty years 1.5 → 1.2 s
    and 1.2 → 0.8 s)."""
    _cenario(roteiro)
    capturadas: list[str] = []

    def capturar(_c: object, _cur: object, sql: str, *_a: object) -> None:
        capturadas.append(sql)

    f = painel.FiltroPainel(date(2026, 1, 1), date(2026, 12, 31), None, None)
    with banco.leitura() as s:
        sa.event.listen(banco.engine, "before_cursor_execute", capturar)
        try:
            painel.medianas_por_mes(s, f, date(2026, 12, 1))
        finally:
            sa.event.remove(banco.engine, "before_cursor_execute", capturar)
    sql = [c for c in capturadas if c.lstrip().upper().startswith(("SELECT", "WITH"))][-1]
    # The table named once in the statement: FROM … decisao / JOIN decisao (PostgreSQL quotes no name here).
    assert len(re.findall(r"\b(?:FROM|JOIN) decisao\b", sql.replace('"', ""))) == 1, sql


def test_leituras_por_indice_devolvem_os_ajustes_do_planejador(banco: Banco, roteiro: Roteiro) -> None:
    """On PostgreSQL the fines, the medians and the deadlines of a period of months are read with the planner
    told to probe by key (`_leitura_por_indice`); each chart after them finds the server's settings again."""
    if banco.eh_sqlite:
        pytest.skip("ajustes do planejador do PostgreSQL")
    _cenario(roteiro)
    ajustes = ("random_page_cost", "enable_hashjoin", "enable_mergejoin")
    with banco.leitura() as s:

        def valores() -> list[object]:
            return [s.execute(sa.text(f"SHOW {nome}")).scalar() for nome in ajustes]

        antes = valores()
        for ler in (
            lambda: painel.multas_por_mes(s, FILTRO),
            lambda: painel.medianas_por_mes(s, FILTRO, HOJE),
            lambda: painel.prazos(s, FILTRO, HOJE),
        ):
            ler()
            assert valores() == antes
