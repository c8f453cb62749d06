"""The sanction panel reads only the antecedents the recidivism chain can reach: the same penalty as the full history.

`lei_db.antecedentes_alcance` pages newest-first and stops where no older auto can extend the chain (§ 4º), plus
the latest suspension (§ 7º). Random histories, small pages: its level, fine range and suspension must be those of
`calcular_sancao` over every auto, and each auto it lists classified as over the full history.
"""

from __future__ import annotations

import random
from datetime import date, time, timedelta
from decimal import Decimal

import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.lei.sancoes import Sancao, calcular_sancao, classificar_antecedentes
from secretaria.models import AutoInfracao
from secretaria.services.lei_db import antecedentes_alcance, antecedentes_autos
from secretaria.services.sancao import avaliar_sancao
from tests.helpers.fabrica import Roteiro

FASES = ("lavrado", "intimado", "decidido", "encerrado", "encerrado", "encerrado", "cancelado")


def _historia(rng: random.Random, cidade_op: int, fiscal_id: int, inicio: date) -> list[dict[str, object]]:
    n = rng.choice((0, 1, 3, 8, 20, 40, 70))
    passo_medio = rng.choice((4, 10, 20, 45, 90))
    dia = inicio
    pausa = rng.randint(0, n) if rng.random() < 0.5 else -1  # an old era, a quiet year, then a new era
    autos: list[dict[str, object]] = []
    for i in range(n):
        dia += timedelta(days=rng.randint(0, 2 * passo_medio) + (rng.randint(250, 700) if i == pausa else 0))
        if i == pausa:
            passo_medio = rng.choice((3, 7, 15))
        fase = rng.choice(FASES)
        decidido = fase in ("decidido", "encerrado") and rng.random() < 0.9
        decisao = dia + timedelta(days=rng.choice((0, 5, 15, 30, 60, 120))) if decidido else None
        suspensao = rng.choice((0, 0, 0, 0, 3, 7, 20)) if decidido else 0
        autos.append(
            {
                "ano": dia.year, "numero": 5000 + i, "operadora_id": cidade_op, "dispositivo_codigo": "1-VI",
                "tipo": "A", "data_infracao": dia, "local": "Rua", "data_lavratura": dia,
                "hora_lavratura": time(9, 0), "local_lavratura": "Rua", "descricao_fatos": "Fato.",
                "infrator_nome": "Operadora", "fiscal_id": fiscal_id, "proxima_penalidade": "Multa.",
                "lavrado_por": "teste", "fase": fase, "data_decisao": decisao,
                "multa_ur": Decimal("0.30") if decidido else None, "suspensao_dias": suspensao,
                "penalidade_anulada": decidido and rng.random() < 0.08, "alterado_por": "teste",
            }
        )  # fmt: skip
    return autos


def _essencial(s: Sancao) -> tuple[object, ...]:
    return (
        s.reincidencia,
        s.multa_min_ur,
        s.multa_max_ur,
        s.suspensao_cabivel,
        s.suspensao_min_dias,
        s.suspensao_max_dias,
    )


def test_alcance_da_a_mesma_sancao_que_o_historico_inteiro(banco: Banco, roteiro: Roteiro) -> None:
    c = roteiro.cidade
    rng = random.Random(20261130)
    casos = 250 if banco.eh_sqlite else 120
    omitiu = suspendeu = 0
    for _ in range(casos):
        with banco.uow() as uow:  # never committed: each history is rolled back
            s = uow.session
            s.execute(sa.delete(AutoInfracao).where(AutoInfracao.operadora_id == c.operadora_id))
            autos = _historia(
                rng, c.operadora_id, c.fiscal_id, date(2020, 1, 1) + timedelta(days=rng.randint(0, 90))
            )
            if autos:
                s.execute(sa.insert(AutoInfracao), autos)
            ultimo = autos[-1]["data_infracao"] if autos else date(2020, 6, 1)  # the history is in order
            assert isinstance(ultimo, date)
            dia = ultimo + timedelta(days=rng.choice((-30, 0, 1, 10, 40, 400)))
            tipo = rng.choice("AABBCDE")
            excluir = None
            if autos and rng.random() < 0.2:
                excluir = rng.choice(s.scalars(sa.select(AutoInfracao.id)).all())
            todos = antecedentes_autos(s, c.operadora_id, "1-VI", excluir_auto_id=excluir, ate=dia)
            alcance = antecedentes_alcance(
                s, c.operadora_id, "1-VI", tipo, dia, excluir_auto_id=excluir, pagina=rng.choice((1, 3, 8))
            )
            completo = [t.antecedente for t in todos]
            parcial = [r.antecedente for r in alcance.registros]
            esperado = calcular_sancao(tipo, dia, completo)
            assert _essencial(calcular_sancao(tipo, dia, parcial)) == _essencial(esperado), (tipo, dia, autos)
            assert len(alcance.registros) + alcance.omitidos == len(todos)
            ids = [r.auto_id for r in alcance.registros]
            assert ids == [t.auto_id for t in todos if t.auto_id in set(ids)]  # same order, a subset
            por_id = {
                t.auto_id: cl.situacao
                for t, cl in zip(todos, classificar_antecedentes(tipo, dia, completo), strict=True)
            }
            for r, cl in zip(alcance.registros, classificar_antecedentes(tipo, dia, parcial), strict=True):
                assert cl.situacao == por_id[r.auto_id]
            omitiu += alcance.omitidos > 0
            # § 7º doubled a suspension older than the pages
            suspendeu += esperado.suspensao_min_dias == esperado.suspensao_max_dias and alcance.omitidos > 0
    assert omitiu > casos // 10  # the paging did cut long histories
    assert suspendeu > 0  # and § 7º reached a suspension older than them


def test_painel_diz_quantos_autos_antigos_nao_listou(banco: Banco, roteiro: Roteiro) -> None:
    c = roteiro.cidade
    rng = random.Random(7)
    with banco.uow() as uow:
        s = uow.session
        s.execute(sa.delete(AutoInfracao).where(AutoInfracao.operadora_id == c.operadora_id))
        autos = _historia(rng, c.operadora_id, c.fiscal_id, date(2015, 1, 1))
        while len(autos) < 200:
            autos += _historia(rng, c.operadora_id, c.fiscal_id, date(2015, 1, 1))
        for i, a in enumerate(autos):
            a["numero"] = i + 1
        s.execute(sa.insert(AutoInfracao), autos)
        dia = date(2027, 1, 1)
        avaliacao = avaliar_sancao(
            s, operadora_id=c.operadora_id, dispositivo_codigo="1-VI", data_infracao=dia
        )
        todos = antecedentes_autos(s, c.operadora_id, "1-VI", ate=dia)
        assert avaliacao.omitidos > 0
        assert len(avaliacao.antecedentes) + avaliacao.omitidos == len(todos)
        assert avaliacao.aviso_omitidos == (
            f"{avaliacao.omitidos} autos anteriores mais antigos, fora do prazo de reincidência, não listados."
        )
        assert any(
            f"{avaliacao.omitidos} autos anteriores mais antigos" in f for f in avaliacao.sancao.fundamentos
        )
        esperado = calcular_sancao("A", dia, [t.antecedente for t in todos])
        assert _essencial(avaliacao.sancao) == _essencial(esperado)
