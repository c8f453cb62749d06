"""The monthly workbook's rows read fast (`relatorios._linhas`: Core rows on the session's connection, by
position) are exactly the rows the ORM's rows read by name give, on the demo city, on SQLite and PostgreSQL:
every month that has autos or decisions, all five lists, value for value; and the month's autos and decisions
are those the ORM's objects give, read one by one."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.db import Banco
from secretaria.models import AutoInfracao, Decisao, DispositivoCatalogo, Recurso, Suspensao
from secretaria.reports.dados import LinhaAutoMensal
from secretaria.services import relatorios
from secretaria.services.cifras import MultaVigente, multa_vigente
from secretaria.services.documentos import numero_auto, situacao_caso
from secretaria.services.rotulos import formatar_placa
from tests.services.test_demo import demo  # noqa: F401 (the demo city, built once per module and database)


def _pelo_orm(sessao: so.Session, consulta: sa.Select[Any], campos: str) -> Iterator[tuple[Any, ...]]:
    """The plain way: the ORM's rows, each column read by its name."""
    for r in sessao.execute(consulta):
        yield tuple(getattr(r, c) for c in campos.split())


def _meses(banco: Banco) -> list[tuple[int, int]]:
    with banco.leitura() as s:
        dias = list(s.scalars(sa.select(AutoInfracao.data_lavratura).distinct()))
        dias += list(s.scalars(sa.select(Decisao.data).distinct()))
    return sorted({(d.year, d.month) for d in dias})


def test_linhas_lidas_por_posicao_sao_as_do_orm(demo: Banco, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    meses = _meses(demo)
    ultimo = max(meses)
    monkeypatch.setattr(relogio, "hoje", lambda: date(ultimo[0], ultimo[1], 28))
    lidos: dict[str, int] = {"autos": 0, "penalidades": 0, "prazos": 0, "pagamentos": 0, "veiculos": 0}
    multas = 0
    with demo.leitura() as s:
        for ano, mes in meses:
            rapido = relatorios.dados_mensais(s, ano, mes)
            with monkeypatch.context() as m:
                m.setattr(relatorios, "_linhas", _pelo_orm)
                simples = relatorios.dados_mensais(s, ano, mes)
            assert rapido == simples, f"{mes:02d}/{ano}"
            lidos["autos"] += len(rapido.autos)
            lidos["penalidades"] += len(rapido.penalidades)
            lidos["prazos"] += len(rapido.prazos)
            lidos["pagamentos"] += len(rapido.pagamentos)
            lidos["veiculos"] += sum(1 for a in rapido.autos if a.veiculo)
            multas += sum(1 for a in rapido.autos if a.multa_reais) + sum(
                1 for p in rapido.penalidades if p.multa_reais and p.suspensao_dias
            )
    # The comparison covered every kind of row, and rows with vehicles, fines and suspensions.
    assert lidos["autos"] == 3000
    assert all(n > 0 for n in lidos.values()), lidos
    assert multas > 0


def _por_objetos(
    s: so.Session, inicio: date, fim: date
) -> tuple[list[LinhaAutoMensal], list[tuple[Any, ...]]]:
    """The month's autos and decisions built again from the ORM's objects, one by one: a second reading of
    the same facts that shares nothing with the report's queries but the rules (`multa_vigente`,
    `situacao_caso`)."""
    rotulos = {c: r for c, r in s.execute(sa.select(DispositivoCatalogo.codigo, DispositivoCatalogo.rotulo))}
    decisoes = {d.auto_id: d for d in s.scalars(sa.select(Decisao))}
    recursos = {r.decisao_id: r.resultado for r in s.scalars(sa.select(Recurso))}
    suspensoes = {x.decisao_id: x for x in s.scalars(sa.select(Suspensao))}

    def multa(a: AutoInfracao, d: Decisao | None) -> MultaVigente | None:
        if d is None:
            return None
        return multa_vigente(
            resultado=d.resultado,
            anulada=a.penalidade_anulada,
            fase=a.fase,
            multa_ur_auto=a.multa_ur,
            multa_ur_decisao=d.multa_ur,
            multa_reais_decisao=d.multa_reais,
            valor_urm=d.valor_urm,
        )

    autos = []
    todos = s.scalars(sa.select(AutoInfracao)).all()
    for a in sorted(todos, key=lambda a: (a.data_lavratura, a.ano, a.numero)):
        if not inicio <= a.data_lavratura <= fim:
            continue
        d = decisoes.get(a.id)
        m = multa(a, d)
        autos.append(
            LinhaAutoMensal(
                numero=numero_auto(a.numero, a.ano),
                data_lavratura=a.data_lavratura,
                data_infracao=a.data_infracao,
                operadora=a.operadora.razao_social,
                dispositivo=rotulos[a.dispositivo_codigo],
                tipo=a.tipo,
                situacao=situacao_caso(
                    a.fase,
                    d.resultado if d else None,
                    a.penalidade_anulada,
                    recursos.get(d.id) if d else None,
                ),
                veiculo=f"{a.veiculo.prefixo} – {formatar_placa(a.veiculo.placa)}" if a.veiculo else None,
                empregado=a.empregado.nome if a.empregado else None,
                multa_urm=m.urm if m else None,
                multa_reais=m.reais if m else None,
            )
        )
    por_id = {a.id: a for a in todos}
    penalidades = []
    for d in sorted(
        decisoes.values(), key=lambda d: (d.data, por_id[d.auto_id].ano, por_id[d.auto_id].numero)
    ):
        if not inicio <= d.data <= fim:
            continue
        a = por_id[d.auto_id]
        m = multa(a, d)
        x = suspensoes.get(d.id)
        vale = d.resultado == "aplicada" and not a.penalidade_anulada and a.fase != "cancelado"
        dias = a.suspensao_dias if vale and a.suspensao_dias else None
        periodo = dias is not None and x is not None and not x.anulada and x.dias == dias
        penalidades.append(
            (
                numero_auto(a.numero, a.ano),
                d.data,
                a.operadora.razao_social,
                rotulos[a.dispositivo_codigo],
                a.tipo,
                d.resultado,
                recursos.get(d.id),
                m.urm if m else None,
                d.valor_urm if m else None,
                m.reais if m else None,
                dias,
                x.inicio if periodo and x else None,
                x.fim if periodo and x else None,
            )
        )
    return autos, penalidades


def test_autos_e_decisoes_do_mes_sao_os_dos_objetos(demo: Banco, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    meses = _meses(demo)
    ultimo = max(meses)
    monkeypatch.setattr(relogio, "hoje", lambda: date(ultimo[0], ultimo[1], 28))
    vistos = 0
    with demo.leitura() as s:
        for ano, mes in meses:
            inicio, fim = relatorios.periodo_do_mes(ano, mes)
            dados = relatorios.dados_mensais(s, ano, mes)
            autos, penalidades = _por_objetos(s, inicio, fim)
            assert list(dados.autos) == autos, f"{mes:02d}/{ano}"
            assert len(dados.penalidades) == len(penalidades)
            for p, (numero, data, operadora, rotulo, tipo, resultado, recurso, *resto) in zip(
                dados.penalidades, penalidades, strict=True
            ):
                assert (p.numero_auto, p.data_decisao, p.operadora, p.dispositivo, p.tipo) == (
                    numero,
                    data,
                    operadora,
                    rotulo,
                    tipo,
                )
                assert p.resultado == relatorios._resultado_decisao(resultado, recurso)
                assert [
                    p.multa_urm,
                    p.valor_urm,
                    p.multa_reais,
                    p.suspensao_dias,
                    p.suspensao_inicio,
                    p.suspensao_fim,
                ] == resto
            vistos += len(autos) + len(penalidades)
    assert vistos > 3000


def test_prazos_numa_so_consulta_sao_os_das_duas(demo: Banco) -> None:  # noqa: F811
    """SQLite's one select of the deadlines running at a month's end gives the rows of the two selects (one
    per kind), on both databases, at the end of every month of the demo and of the month before the first."""
    meses = _meses(demo)
    postgres = demo.url.startswith("postgresql")
    ate_aqui = {"auto": 0, "decisao": 0}
    with demo.leitura() as s:
        for ano, mes in [(meses[0][0] - 1, 12), *meses]:
            _inicio, fim = relatorios.periodo_do_mes(ano, mes)
            uma = s.execute(relatorios.consultas_prazos(fim, postgres=postgres, numa_so=True)[0]).all()
            duas = [
                r
                for c in relatorios.consultas_prazos(fim, postgres=postgres, numa_so=False)
                for r in s.execute(c)
            ]
            assert sorted(map(tuple, uma)) == sorted(map(tuple, duas)), f"{mes:02d}/{ano}"
            for r in duas:
                ate_aqui[r.objeto] += 1
    assert all(ate_aqui.values()), ate_aqui  # both kinds of deadline were compared
