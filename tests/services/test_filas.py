"""The home screen's work queues: the right autos in each, counts beyond the limit, one query each."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import date, time, timedelta
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.db import Banco
from secretaria.models import (
    AutoInfracao,
    Configuracao,
    Decisao,
    Defesa,
    Pagamento,
    Recurso,
    Representacao,
    Suspensao,
    Veiculo,
)
from secretaria.services import documentos, filas
from secretaria.services.representacoes import receber_representacao
from secretaria.services.tramitacao import registrar_defesa
from tests.helpers.fabrica import ATORES, Roteiro

HOJE = date(2026, 11, 30)


def _ids(fila: filas.Fila) -> list[int]:
    return [linha.id for linha in fila.linhas]


def test_cada_fila_mostra_o_que_precisa_ser_feito(banco: Banco, roteiro: Roteiro) -> None:
    r, c = roteiro, roteiro.cidade
    aguardando = [r.lavrar(data_infracao=date(2026, 11, d)).id for d in (24, 25, 26)]
    vence_logo = r.lavrar(data_infracao=date(2026, 11, 16)).id
    r.intimar(vence_logo, date(2026, 11, 17))  # defence until 02/12
    com_defesa = r.lavrar(data_infracao=date(2026, 11, 16)).id
    r.intimar(com_defesa, date(2026, 11, 17))
    registrar_defesa(r.uow(), ATORES["protocolo"], auto_id=com_defesa, protocolada_em=date(2026, 11, 20))
    atrasado = r.lavrar(data_infracao=date(2026, 9, 1)).id
    r.intimar(atrasado, date(2026, 9, 2))  # defence until 17/09: 74 days ago
    pouco_atrasado = r.lavrar(data_infracao=date(2026, 10, 26)).id
    r.intimar(pouco_atrasado, date(2026, 10, 27))  # defence until 11/11: 19 days ago
    sem_intimar_decisao = r.decidido(data_infracao=date(2026, 10, 1), multa="0.30", notificar=False).id
    em_prazo_recurso = r.decidido(data_infracao=date(2026, 10, 2), multa="0.30", notificar=False).id
    r.intimar(em_prazo_recurso, date(2026, 11, 20), objeto="decisao")  # appeal until 07/12
    em_recurso = r.decidido(data_infracao=date(2026, 10, 5), multa="0.30", notificar=False).id
    r.recorrer(em_recurso, date(2026, 10, 30))
    definitiva = r.decidido(data_infracao=date(2026, 8, 3), multa="0.40", notificar=False).id
    r.intimar(definitiva, date(2026, 9, 1), objeto="decisao")
    rep = receber_representacao(
        r.uow(), ATORES["fiscal"], recebida_em=date(2026, 11, 28), peticionario_nome="Beatriz",
        peticionario_profissao="Professora", peticionario_endereco="Rua A, 1", fatos="Atraso.", meios_prova="Relato.",
    )  # fmt: skip
    with banco.uow() as uow:  # a suspension being served (inserted directly: its path is tested elsewhere)
        decisao_id = uow.session.scalar(sa.select(Decisao.id).where(Decisao.auto_id == definitiva))
        uow.session.add(
            Suspensao(
                operadora_id=c.operadora_id, decisao_id=decisao_id, inicio=date(2026, 11, 28), dias=5,
                fim=date(2026, 12, 2), alterado_por="teste",
            )
        )  # fmt: skip
        uow.commit()

    with banco.leitura() as s:
        assert _ids(filas.autos_aguardando_intimacao(s, HOJE)) == aguardando
        limitada = filas.autos_aguardando_intimacao(s, HOJE, limite=2)
        assert (limitada.total, _ids(limitada)) == (3, aguardando[:2])
        assert _ids(filas.defesas_a_vencer(s, HOJE, dias=7)) == [vence_logo]
        assert filas.defesas_a_vencer(s, HOJE, dias=1).total == 0
        assert _ids(filas.decisoes_atrasadas(s, HOJE)) == [atrasado]
        assert _ids(filas.decisoes_aguardando_intimacao(s, HOJE)) == [sem_intimar_decisao]
        recursos = filas.recursos_em_prazo(s, HOJE)
        assert _ids(recursos) == [em_prazo_recurso] and recursos.linhas[0].prazo == date(2026, 12, 7)
        assert _ids(filas.recursos_aguardando_julgamento(s, HOJE)) == [em_recurso]
        assert _ids(filas.multas_definitivas_em_aberto(s, HOJE)) == [definitiva]
        veiculos = filas.veiculos_vencidos(s, HOJE)
        assert (
            _ids(veiculos) == [c.veiculo2_id]
            and "vistoria vencida em 31/10/2026" in veiculos.linhas[0].detalhe.lower()
        )
        suspensas = filas.operadoras_suspensas(s, HOJE)
        assert _ids(suspensas) == [c.operadora_id] and suspensas.linhas[0].detalhe.endswith("até 02/12/2026")
        assert _ids(filas.representacoes_pendentes(s, HOJE)) == [rep.id]
        assert [f.chave for f in filas.painel(s, HOJE)][:2] == ["aguardando_intimacao", "defesas_a_vencer"]

    with banco.uow() as uow:  # the office decides faster: overdue after 5 days
        uow.session.add(Configuracao(chave=filas.CHAVE_DIAS_DECISAO, valor="5"))
        uow.commit()
    with banco.leitura() as s:
        assert _ids(filas.decisoes_atrasadas(s, HOJE)) == [atrasado, pouco_atrasado]


def test_cada_fila_e_uma_consulta(banco: Banco, roteiro: Roteiro) -> None:
    roteiro.lavrar(data_infracao=date(2026, 11, 24))
    consultas: list[str] = []

    def contar(conn: object, cursor: object, statement: str, *args: object) -> None:
        if not statement.strip().upper().startswith(("BEGIN", "SAVEPOINT", "RELEASE")):
            consultas.append(statement)

    funcoes: list[Callable[..., filas.Fila]] = [
        filas.autos_aguardando_intimacao,
        filas.defesas_a_vencer,
        filas.decisoes_aguardando_intimacao,
        filas.recursos_em_prazo,
        filas.recursos_aguardando_julgamento,
        filas.multas_definitivas_em_aberto,
        filas.veiculos_vencidos,
        filas.veiculos_a_vencer,
        filas.contratos_a_vencer,
        filas.operadoras_suspensas,
        filas.representacoes_pendentes,
        filas.suspensoes_a_iniciar,
        lambda s, hoje: filas.decisoes_atrasadas(s, hoje, dias=30),
    ]
    with banco.leitura() as s:
        s.connection()
        sa.event.listen(banco.engine, "before_cursor_execute", contar)
        try:
            for funcao in funcoes:
                consultas.clear()
                fila = funcao(s, HOJE)
                assert len(consultas) == 1, (fila.chave, consultas)
        finally:
            sa.event.remove(banco.engine, "before_cursor_execute", contar)


def test_operadora_com_duas_suspensoes_aparece_uma_vez(banco: Banco, roteiro: Roteiro) -> None:
    """ "Operators suspended today": one row per operator (until the last day of its suspensions), even when two
    suspensions overlap."""
    r, c = roteiro, roteiro.cidade
    primeira = r.decidido(data_infracao=date(2026, 8, 3), multa="0.40", notificar=False).id
    segunda = r.decidido(data_infracao=date(2026, 8, 4), multa="0.40", dispositivo="1-XVIII").id
    with banco.uow() as uow:
        s = uow.session
        for auto_id, inicio, fim in (
            (primeira, date(2026, 11, 25), date(2026, 12, 4)),
            (segunda, date(2026, 11, 28), date(2026, 12, 7)),
        ):
            decisao_id = s.scalar(sa.select(Decisao.id).where(Decisao.auto_id == auto_id))
            s.add(
                Suspensao(
                    operadora_id=c.operadora_id, decisao_id=decisao_id, inicio=inicio,
                    dias=(fim - inicio).days + 1, fim=fim, alterado_por="teste",
                )
            )  # fmt: skip
        uow.commit()
    with banco.leitura() as s:
        fila = filas.operadoras_suspensas(s, HOJE)
    assert (fila.total, _ids(fila)) == (1, [c.operadora_id])
    assert fila.linhas[0].detalhe == "Suspensa de 25/11/2026 até 07/12/2026"


# --- every queue is served by an index (EXPLAIN on a few thousand rows) -------------------------------------

_GRANDES = (
    "auto_infracao",
    "veiculo",
    "suspensao",
    "representacao",
    "pagamento",
    "recurso",
    "decisao",
    "defesa",
)


def _povoar_muito(banco: Banco, roteiro: Roteiro) -> None:
    """Thousands of rows in every state, inserted in bulk (the services are tested elsewhere)."""
    c = roteiro.cidade
    # As in a real office: most cases closed long ago, a few in each open phase.
    fases = ("lavrado", "intimado", "decidido", "em_recurso") + ("encerrado",) * 40 + ("cancelado",) * 2
    base = date(2020, 1, 1)
    autos = []
    for i in range(4000):
        fase = fases[i % len(fases)]
        dia = base + timedelta(days=i * 2400 // 4000)
        autos.append(
            {
                "ano": dia.year, "numero": i + 1, "operadora_id": (c.operadora_id, c.operadora2_id)[i % 2],
                "dispositivo_codigo": ("1-VI", "1-XVI", "2-III")[i % 3], "tipo": "A", "data_infracao": dia,
                "local": "Rua", "data_lavratura": dia, "hora_lavratura": time(9, 0), "local_lavratura": "Rua",
                "descricao_fatos": "Fato.", "infrator_nome": "Operadora", "fiscal_id": c.fiscal_id,
                "proxima_penalidade": "Multa.", "lavrado_por": "teste", "fase": fase,
                "prazo_defesa": None if fase in ("lavrado", "cancelado") else dia + timedelta(days=16),
                "prazo_recurso": dia + timedelta(days=60) if fase in ("decidido", "em_recurso", "encerrado") and i % 4 else None,
                "data_decisao": dia + timedelta(days=40) if fase in ("decidido", "em_recurso", "encerrado") else None,
                "alterado_por": "teste",
            }
        )  # fmt: skip
    with banco.uow() as uow:
        s = uow.session
        s.execute(sa.insert(AutoInfracao), autos)
        decididos = s.execute(
            sa.select(AutoInfracao.id, AutoInfracao.data_decisao).where(
                AutoInfracao.data_decisao.is_not(None)
            )
        ).all()
        s.execute(
            sa.insert(Decisao),
            [
                {"auto_id": a, "data": d, "resultado": "aplicada", "multa_ur": Decimal("0.30"),
                 "fundamentacao": "F.", "secretario": "teste", "alterado_por": "teste"}
                for a, d in decididos
            ],
        )  # fmt: skip
        decisoes = s.execute(sa.select(Decisao.id, Decisao.data)).all()
        s.execute(
            sa.insert(Pagamento),
            [
                {"decisao_id": d, "situacao": "aberto" if i % 20 == 0 else "pago", "valor": Decimal("49.42"),
                 "alterado_por": "teste"}
                for i, (d, _) in enumerate(decisoes)
            ],
        )  # fmt: skip
        s.execute(
            sa.insert(Recurso),
            [
                {"decisao_id": d, "protocolado_em": dia, "tempestivo": True, "registrado_por": "teste",
                 "resultado": "pendente" if i % 40 == 1 else "negado", "alterado_por": "teste"}
                for i, (d, dia) in enumerate(decisoes)
                if i % 4 == 1
            ],
        )  # fmt: skip
        s.execute(
            sa.insert(Suspensao),
            [
                {"operadora_id": c.operadora_id, "decisao_id": d, "inicio": dia, "dias": 5,
                 "fim": dia + timedelta(days=4), "alterado_por": "teste"}
                for i, (d, dia) in enumerate(decisoes)
                if i % 2 == 0
            ],
        )  # fmt: skip
        s.execute(
            sa.insert(Defesa),
            [
                {"auto_id": a["id"], "protocolada_em": a["d"], "tempestiva": True, "registrado_por": "teste",
                 "alterado_por": "teste"}
                for a in s.execute(sa.select(AutoInfracao.id.label("id"), AutoInfracao.data_lavratura.label("d")))
                .mappings()
                .all()[::5]
            ],
        )  # fmt: skip
        s.execute(
            sa.insert(Veiculo),
            [
                {"prefixo": f"V{i}", "placa": f"ABC{i:04d}", "placa_chave": f"ABC{i:04d}", "renavam": f"{i:011d}",
                 "operadora_id": c.operadora_id, "vistoria_validade": HOJE + timedelta(days=i % 365 - 5),
                 "licenca_validade": HOJE + timedelta(days=i % 300 - 3), "situacao": ("ativo", "baixado")[i % 7 == 0],
                 "alterado_por": "teste"}
                for i in range(1, 2000)
            ],
        )  # fmt: skip
        s.execute(
            sa.insert(Representacao),
            [
                {"ano": 2020 + i % 6, "numero": i, "recebida_em": base + timedelta(days=i),
                 "peticionario_nome": "P", "peticionario_profissao": "P", "peticionario_endereco": "R",
                 "fatos": "F", "situacao": "recebida" if i % 50 == 0 else "autuada", "recebida_por": "teste",
                 "alterado_por": "teste"}
                for i in range(1, 1500)
            ],
        )  # fmt: skip
        uow.commit()
    if banco.engine.dialect.name == "postgresql":
        with banco.engine.connect() as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("ANALYZE")
    else:
        with banco.engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")


def _plano(
    banco: Banco,
    funcao: Callable[[so.Session], object],
    *,
    varias: bool = False,
    ajustes: tuple[str, ...] = (),
) -> str:
    """The query plan of the statement `funcao` runs for its rows, its first (SQLite: EXPLAIN QUERY PLAN;
    PostgreSQL: EXPLAIN, after ANALYZE, on data shaped as a real office's: few open cases among many closed
    ones). Only where `varias` may it read more after it (the fines' queue, by primary key: the calendar and
    the payment setting its deadlines are counted with)."""
    capturadas: list[tuple[str, Any]] = []

    def capturar(conn: object, cursor: object, statement: str, parametros: Any, *args: object) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            capturadas.append((statement, parametros))

    with banco.leitura() as s:
        sa.event.listen(banco.engine, "before_cursor_execute", capturar)
        try:
            funcao(s)
        finally:
            sa.event.remove(banco.engine, "before_cursor_execute", capturar)
    assert len(capturadas) == 1 or varias, capturadas
    sql, parametros = capturadas[0]
    with banco.engine.connect() as conn:
        if banco.engine.dialect.name == "postgresql":
            for ajuste in ajustes:
                conn.exec_driver_sql(f"SET LOCAL {ajuste}")
            linhas = conn.exec_driver_sql("EXPLAIN " + sql, parametros).scalars().all()
        else:
            linhas = [r[-1] for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, parametros)]
        conn.rollback()
    return "\n".join(linhas)


def test_cada_fila_usa_indice(banco: Banco, roteiro: Roteiro) -> None:
    """Each queue's filter is an index condition on the table that drives it, on SQLite and on PostgreSQL (its
    own planner's choice after ANALYZE); the tables joined to it by primary key may be read as the planner
    prefers."""
    _povoar_muito(banco, roteiro)
    # queue → (the query, the table it is driven by, the indexes that may serve it, a column of the condition)
    consultas: dict[str, tuple[Callable[[so.Session], filas.Fila], str, tuple[str, ...], str]] = {
        "aguardando_intimacao": (
            lambda s: filas.autos_aguardando_intimacao(s, HOJE), "auto_infracao",
            # ix_auto_fase_infracao: the Painel's (migration 0011), led by fase too
            ("ix_auto_fase_prazo", "ix_auto_fase_prazo_recurso", "ix_auto_fase_infracao"), "fase",
        ),
        "defesas_a_vencer": (
            lambda s: filas.defesas_a_vencer(s, HOJE, dias=7), "auto_infracao", ("ix_auto_fase_prazo",),
            "prazo_defesa",
        ),
        "decisoes_atrasadas": (
            lambda s: filas.decisoes_atrasadas(s, HOJE, dias=30), "auto_infracao", ("ix_auto_fase_prazo",),
            "prazo_defesa",
        ),
        "decisoes_aguardando_intimacao": (
            lambda s: filas.decisoes_aguardando_intimacao(s, HOJE), "auto_infracao",
            ("ix_auto_fase_prazo_recurso",), "prazo_recurso",
        ),
        "recursos_em_prazo": (
            lambda s: filas.recursos_em_prazo(s, HOJE), "auto_infracao", ("ix_auto_fase_prazo_recurso",),
            "prazo_recurso",
        ),
        "recursos_aguardando_julgamento": (
            lambda s: filas.recursos_aguardando_julgamento(s, HOJE), "recurso", ("ix_recurso_resultado",),
            "resultado",
        ),
        "multas_em_aberto": (  # driven by the open payments (the Painel's payment indexes are partial: 0011)
            lambda s: filas.multas_definitivas_em_aberto(s, HOJE), "pagamento", ("ix_pagamento_situacao",),
            "situacao",
        ),
        "veiculos_vencidos": (
            lambda s: filas.veiculos_vencidos(s, HOJE), "veiculo", ("ix_veiculo_vistoria", "ix_veiculo_licenca"),
            "validade",
        ),
        "veiculos_a_vencer": (
            lambda s: filas.veiculos_a_vencer(s, HOJE), "veiculo", ("ix_veiculo_vistoria", "ix_veiculo_licenca"),
            "validade",
        ),
        "operadoras_suspensas": (
            lambda s: filas.operadoras_suspensas(s, HOJE), "suspensao", ("ix_suspensao_periodo",), "fim",
        ),
        "representacoes_pendentes": (
            lambda s: filas.representacoes_pendentes(s, HOJE), "representacao",
            ("ix_representacao_situacao",), "situacao",
        ),
        "suspensoes_a_iniciar": (
            lambda s: filas.suspensoes_a_iniciar(s, HOJE), "auto_infracao",
            ("ix_auto_suspensao_definitiva",), "suspensao_dias",
        ),
    }  # fmt: skip
    falhas = []
    for chave, (funcao, tabela, indices, coluna) in consultas.items():
        plano = _plano(banco, funcao, varias=chave == "multas_em_aberto")
        if os.environ.get("VER_PLANOS"):
            print("-----", chave, banco.engine.dialect.name, "\n" + plano)
        if not _lida_pelo_indice(plano, tabela, indices, coluna):
            falhas.append(
                f"{chave}: {tabela} não é lida pelo índice {' / '.join(indices)} ({coluna}):\n{plano}"
            )
    assert not falhas, "\n\n".join(falhas)


def _autos_lidos_pela_fase(plano: str) -> bool:
    return _lida_pelo_indice(
        plano,
        "auto_infracao",
        ("ix_auto_fase_prazo", "ix_auto_fase_prazo_recurso", "ix_auto_fase_infracao"),
        "fase",
    )


def _lida_pelo_indice(plano: str, tabela: str, indices: tuple[str, ...], coluna: str) -> bool:
    """`tabela` never walked whole, and read by one of `indices` with a condition on `coluna`."""
    linhas = plano.splitlines()
    varre = any(
        re.search(rf"(Seq Scan on ({tabela})\b|^SCAN ({tabela})\b)", linha.strip()) for linha in linhas
    )
    usa = [
        i
        for i, linha in enumerate(linhas)
        if any(re.search(rf"(USING (COVERING )?INDEX|Scan using|Scan on) {n}\b", linha) for n in indices)
    ]
    # The condition: on the same line (SQLite) or on the "Index Cond" line under it (PostgreSQL).
    return not varre and any(re.search(coluna, " ".join(linhas[i : i + 2])) for i in usa)


def test_autos_a_intimar_no_periodo_sao_achados_pela_fase(banco: Banco, roteiro: Roteiro) -> None:
    """The reports screen counts the period's autos awaiting intimação at each date typed, on the window's
    thread, and the batch of notices reads them: by the phase's index, never along every auto stored (SQLite
    walked the number's unique index to skip sorting a few hundred: 0.77 s frozen on 2,000,000 autos)."""
    _povoar_muito(banco, roteiro)
    inicio, fim = date(2020, 1, 1), date(2026, 12, 31)
    plano = _plano(banco, lambda s: documentos.autos_para_intimar(s, inicio, fim))
    assert _autos_lidos_pela_fase(plano), plano
    with banco.leitura() as s:
        achados = documentos.autos_para_intimar(s, inicio, fim)
        esperados = s.execute(
            sa.select(AutoInfracao.id, AutoInfracao.ano, AutoInfracao.numero).where(
                AutoInfracao.fase == "lavrado"
            )
        ).all()
    assert achados == [i for i, _a, _n in sorted(esperados, key=lambda r: (r[1], r[2]))]
    assert len(achados) > 50


def test_suspensao_definitiva_nao_iniciada_e_item_de_trabalho(banco: Banco, roteiro: Roteiro) -> None:
    """REGRAS § 5: a final suspension not yet started stays on the home screen until someone starts it; one
    still appealable is not there yet."""
    from secretaria.services.execucao import PedidoSuspensao, iniciar_suspensao

    roteiro.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 3, 5), multa="6.00", dispositivo="1-I")
    r = roteiro.lavrar(data_infracao=date(2026, 9, 1), dispositivo="1-I")
    roteiro.intimar(r.id, date(2026, 9, 2))
    roteiro.decidir(r.id, date(2026, 9, 30), "10.00", suspensao=5)
    roteiro.intimar(r.id, date(2026, 10, 1), objeto="decisao")  # appeal until 16/10/2026
    with banco.leitura() as s:
        assert filas.suspensoes_a_iniciar(s, date(2026, 10, 16)).total == 0
        fila = filas.suspensoes_a_iniciar(s, date(2026, 10, 17))
        assert _ids(fila) == [r.id]
        assert fila.linhas[0].prazo == date(2026, 10, 17)
        assert fila.linhas[0].detalhe == "Suspensão de 5 dias definitiva desde 17/10/2026: registre o início"
        assert "suspensoes_a_iniciar" in [f.chave for f in filas.painel(s, HOJE)]
    iniciar_suspensao(
        roteiro.uow(), ATORES["secretario"], PedidoSuspensao(auto_id=r.id, inicio=date(2026, 11, 30))
    )
    with banco.leitura() as s:
        assert filas.suspensoes_a_iniciar(s, HOJE).total == 0


def test_decisao_atrasada_uma_so_regra() -> None:
    """The queue's cut-off and the case screen's "atrasada a partir de" day are the same rule."""
    from secretaria.services.filas import prazo_defesa_atrasa_antes_de, primeiro_dia_de_atraso

    prazo = date(2026, 10, 30)
    for dias in (0, 1, 30, 365):
        primeiro = primeiro_dia_de_atraso(prazo, dias)
        assert not prazo < prazo_defesa_atrasa_antes_de(primeiro - timedelta(days=1), dias)
        assert prazo < prazo_defesa_atrasa_antes_de(primeiro, dias)
    assert primeiro_dia_de_atraso(prazo, 30) == date(2026, 11, 30)


def test_recursos_pendentes_nao_percorrem_todos_os_recursos_na_ordem(banco: Banco, roteiro: Roteiro) -> None:
    """The Mayor's queue finds the pending appeals by `resultado` before it sorts them. In one sorted query
    PostgreSQL walked every appeal stored along `ix_recurso_protocolado`, already in the order shown (27,982 read
    for 503 on the bench city). On this test's few thousand rows its planner sorts anyway; with sorting made
    dear (`enable_sort = off`) it takes that walk, as it did on the large city."""
    if banco.eh_sqlite:
        pytest.skip(
            "enable_sort é do planejador do PostgreSQL (o SQLite é conferido em test_cada_fila_usa_indice)"
        )
    _povoar_muito(banco, roteiro)
    plano = _plano(
        banco, lambda s: filas.recursos_aguardando_julgamento(s, HOJE), ajustes=("enable_sort = off",)
    )
    assert _lida_pelo_indice(plano, "recurso", ("ix_recurso_resultado",), "resultado"), plano


def test_autos_aguardando_intimacao_nao_percorrem_todos_os_autos_na_ordem(
    banco: Banco, roteiro: Roteiro
) -> None:
    """The queue finds the drawn-up autos by `fase` before it sorts them. In one sorted query PostgreSQL walked
    every auto of the 2,000,000-auto city along `ix_auto_lavratura`, already in the order shown (0.81 s).
    On this test's few thousand rows its planner sorts anyway; with sorting made dear (`enable_sort = off`)
    it takes that walk, as it did on the large city."""
    if banco.eh_sqlite:
        pytest.skip(
            "enable_sort é do planejador do PostgreSQL (o SQLite é conferido em test_cada_fila_usa_indice)"
        )
    _povoar_muito(banco, roteiro)
    plano = _plano(banco, lambda s: filas.autos_aguardando_intimacao(s, HOJE), ajustes=("enable_sort = off",))
    assert "ix_auto_lavratura" not in plano, plano
    assert _autos_lidos_pela_fase(plano), plano
