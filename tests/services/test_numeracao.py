"""Numbering: one sequence per series and year, no gap after a rolled-back save, none twice under concurrency."""

from __future__ import annotations

import multiprocessing
from dataclasses import asdict
from datetime import date

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import AutoInfracao
from secretaria.services.auditoria import verificar_cadeia
from secretaria.services.numeracao import proximo_numero
from tests.helpers import trabalhador_numeracao
from tests.helpers.fabrica import Cidade, Roteiro


def test_uma_sequencia_por_serie_e_ano(banco: Banco) -> None:
    with banco.uow() as uow:
        s = uow.session
        assert [proximo_numero(s, "AI", 2026) for _ in range(3)] == [1, 2, 3]
        assert proximo_numero(s, "AI", 2027) == 1
        assert proximo_numero(s, "REP", 2026) == 1
        uow.commit()
    with banco.uow() as uow:
        assert proximo_numero(uow.session, "AI", 2026) == 4
        uow.commit()


def test_gravacao_desfeita_nao_deixa_lacuna(banco: Banco) -> None:
    with banco.uow() as uow:
        assert proximo_numero(uow.session, "AI", 2026) == 1
        uow.commit()
    with banco.uow() as uow:
        assert proximo_numero(uow.session, "AI", 2026) == 2
        # no commit: the save failed after taking its number
    with banco.uow() as uow:
        assert proximo_numero(uow.session, "AI", 2026) == 2
        uow.commit()


@pytest.mark.slow
def test_oito_processos_lavrando_ao_mesmo_tempo(banco: Banco, cidade: Cidade) -> None:
    """8 processes × 50 autos at once → 0001/2026 … 0400/2026, none missing, none twice."""
    processos, por_processo = 8, 50
    ctx = multiprocessing.get_context("spawn")
    largada = ctx.Barrier(processos)
    resultados = ctx.Queue()
    filhos = [
        ctx.Process(
            target=trabalhador_numeracao.trabalhar,
            args=(banco.url, asdict(cidade), por_processo, largada, resultados),
        )
        for _ in range(processos)
    ]
    for p in filhos:
        p.start()
    recebidos = [resultados.get(timeout=120) for _ in filhos]
    for p in filhos:
        p.join(timeout=30)
    erros = [r[1] for r in recebidos if r[0] != "ok"]
    assert not erros
    numeros = [n for _, lista in recebidos for n in lista]
    assert len(numeros) == processos * por_processo
    assert sorted(numeros) == [f"{i:04d}/2026" for i in range(1, processos * por_processo + 1)]
    with banco.leitura() as s:
        gravados = s.scalars(sa.select(AutoInfracao.numero).where(AutoInfracao.ano == 2026)).all()
        assert sorted(gravados) == list(range(1, processos * por_processo + 1))
        assert verificar_cadeia(s).integra


def test_auto_que_falha_depois_de_numerado_nao_deixa_lacuna(
    banco: Banco, roteiro: Roteiro, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save that fails after taking its number (here: the audit row) takes the number back with it; the number
    follows the year of the lavratura, not today's (today is 30/11/2026)."""
    from secretaria.services import auditoria

    registrar = auditoria.registrar

    def falhar(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disco cheio")

    monkeypatch.setattr(auditoria, "registrar", falhar)
    with pytest.raises(RuntimeError):
        roteiro.lavrar(data_infracao=date(2025, 12, 30))
    monkeypatch.setattr(auditoria, "registrar", registrar)
    assert roteiro.lavrar(data_infracao=date(2025, 12, 30)).numero_formatado == "0001/2025"
    assert roteiro.lavrar(data_infracao=date(2026, 1, 2)).numero_formatado == "0001/2026"
    with banco.leitura() as s:
        assert s.scalar(sa.select(sa.func.count(AutoInfracao.id))) == 2
