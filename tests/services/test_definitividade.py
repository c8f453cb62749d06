"""REGRAS § 3 rule 1: a prior is "punido" only once its penalty became final, on real autos on both databases.

The penalty becomes final the day after the appeal deadline ends with no timely appeal (a late appeal changes
nothing), or the day the Prefeito judges a timely appeal (denied, or granted in part with the reduced penalty);
granted in full annuls it; a decision never notified never becomes final.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.lei.catalogo import dispositivos
from secretaria.models import AutoInfracao
from secretaria.services.sancao import AvaliacaoSancao, avaliar_sancao
from tests.helpers.fabrica import Roteiro

TIPO_E = "1-I"  # tipo E: 8-month window, first fine 3,00–5,00 URM


def _avaliar(
    banco: Banco, roteiro: Roteiro, dia: date, codigo: str = TIPO_E, operadora_id: int | None = None
) -> AvaliacaoSancao:
    with banco.leitura() as s:
        return avaliar_sancao(
            s,
            operadora_id=operadora_id or roteiro.cidade.operadora_id,
            dispositivo_codigo=codigo,
            data_infracao=dia,
        )


def _definitiva(banco: Banco, auto_id: int) -> date | None:
    with banco.leitura() as s:
        return s.scalar(sa.select(AutoInfracao.data_definitiva).where(AutoInfracao.id == auto_id))


def _decidido_sem_notificar(roteiro: Roteiro, infracao: date, multa: str = "4.00") -> int:
    r = roteiro.lavrar(data_infracao=infracao, dispositivo=TIPO_E)
    roteiro.intimar(r.id, infracao + timedelta(days=1))
    roteiro.decidir(r.id, infracao + timedelta(days=20), multa)
    return int(r.id)


def test_decisao_nao_notificada_nunca_conta(banco: Banco, roteiro: Roteiro) -> None:
    anterior = _decidido_sem_notificar(roteiro, date(2026, 3, 2))  # decided 22/03/2026
    roteiro.intimar(anterior, date(2026, 3, 24), objeto="decisao", resultado="recusada")
    a = _avaliar(banco, roteiro, date(2026, 9, 1))
    (x,) = a.antecedentes
    assert a.reincidencia == 0 and not x.contado and x.situacao == "nao_definitiva"
    assert "decisão de 22/03/2026 não notificada" in x.motivo
    assert x.data_decisao == date(2026, 3, 22) and x.definitiva_em is None
    assert _definitiva(banco, anterior) is None


def test_ainda_recorrivel_no_dia_do_novo_fato_nao_conta_e_diz_ate_quando(
    banco: Banco, roteiro: Roteiro
) -> None:
    anterior = _decidido_sem_notificar(roteiro, date(2026, 3, 2))
    roteiro.intimar(anterior, date(2026, 3, 24), objeto="decisao")  # 15 days end Thu 08/04/2026
    assert _definitiva(banco, anterior) == date(2026, 4, 9)
    a = _avaliar(banco, roteiro, date(2026, 4, 8))
    (x,) = a.antecedentes
    assert (a.reincidencia, x.contado, x.situacao) == (0, False, "nao_definitiva")
    assert "decisão de 22/03/2026 ainda recorrível até 08/04/2026" in x.motivo
    # The day after the appeal deadline the penalty is final, and counts for a fact of that day.
    b = _avaliar(banco, roteiro, date(2026, 4, 9))
    assert b.reincidencia == 1 and b.antecedentes[0].contado
    assert b.antecedentes[0].definitiva_em == date(2026, 4, 9)


def test_recurso_intempestivo_nao_muda_nada(banco: Banco, roteiro: Roteiro) -> None:
    anterior = _decidido_sem_notificar(roteiro, date(2026, 3, 2))
    roteiro.intimar(anterior, date(2026, 3, 24), objeto="decisao")
    assert not roteiro.recorrer(anterior, date(2026, 4, 10)).tempestivo
    assert _definitiva(banco, anterior) == date(2026, 4, 9)
    assert _avaliar(banco, roteiro, date(2026, 4, 9)).reincidencia == 1


def test_recurso_tempestivo_pendente_e_julgado(banco: Banco, roteiro: Roteiro) -> None:
    anterior = _decidido_sem_notificar(roteiro, date(2026, 3, 2))
    roteiro.intimar(anterior, date(2026, 3, 24), objeto="decisao")
    roteiro.recorrer(anterior, date(2026, 4, 1))
    assert _definitiva(banco, anterior) is None
    (x,) = _avaliar(banco, roteiro, date(2026, 6, 1)).antecedentes
    assert x.situacao == "nao_definitiva" and "recurso pendente" in x.motivo
    roteiro.julgar(anterior, date(2026, 5, 12), "provido_parcialmente", multa_ur_nova=Decimal("3.00"))
    assert _definitiva(banco, anterior) == date(2026, 5, 12)
    # Final on the judgement day, with the reduced penalty; before it, the appeal was pending.
    antes = _avaliar(banco, roteiro, date(2026, 5, 11))
    assert antes.reincidencia == 0
    assert "recurso julgado só em 12/05/2026, após o novo fato" in antes.antecedentes[0].motivo
    depois = _avaliar(banco, roteiro, date(2026, 5, 12))
    assert depois.reincidencia == 1 and depois.antecedentes[0].multa_ur == Decimal("3.00")


def test_recurso_provido_anula(banco: Banco, roteiro: Roteiro) -> None:
    anterior = _decidido_sem_notificar(roteiro, date(2026, 3, 2))
    roteiro.intimar(anterior, date(2026, 3, 24), objeto="decisao")
    roteiro.recorrer(anterior, date(2026, 4, 1))
    roteiro.julgar(anterior, date(2026, 5, 12), "provido")
    assert _definitiva(banco, anterior) is None
    (x,) = _avaliar(banco, roteiro, date(2026, 9, 1)).antecedentes
    assert x.situacao == "anulado" and not x.contado


def test_faixa_da_decisao_le_a_definitividade(banco: Banco, roteiro: Roteiro) -> None:
    """The decision service's range check: a prior still appealable on the new fact's day does not count, so a
    recidivism fine is refused."""
    anterior = _decidido_sem_notificar(roteiro, date(2026, 3, 2))
    roteiro.intimar(anterior, date(2026, 3, 24), objeto="decisao")
    novo = roteiro.lavrar(data_infracao=date(2026, 4, 8), dispositivo=TIPO_E)
    assert "(infração primária)" in novo.proxima_penalidade
    roteiro.intimar(novo.id, date(2026, 4, 9))
    from secretaria.services.base import ErroDominio

    with pytest.raises(ErroDominio, match="fora da faixa cabível"):
        roteiro.decidir(novo.id, date(2026, 5, 4), "6.00")
    assert roteiro.decidir(novo.id, date(2026, 5, 4), "5.00").reincidencia == 0


@dataclass
class _Historia:
    """One random case and what rule 1 says of it, written from REGRAS' words (independent of the services)."""

    auto_id: int
    codigo: str
    operadora_id: int
    aplicada: bool
    anulada: bool = False
    prazo_recurso: date | None = None
    recurso: tuple[date, bool] | None = None
    julgamento: tuple[date, str] | None = None

    def esperada(self) -> date | None:
        if not self.aplicada or self.anulada:
            return None
        if self.recurso is not None and self.recurso[1]:  # a timely appeal
            if self.julgamento is None or self.julgamento[1] == "provido":
                return None
            return self.julgamento[0]
        return None if self.prazo_recurso is None else self.prazo_recurso + timedelta(days=1)

    def conferir(self, banco: Banco, roteiro: Roteiro) -> None:
        esperada = self.esperada()
        assert _definitiva(banco, self.auto_id) == esperada, self
        if esperada is not None and esperada < roteiro.hoje:
            no_dia = _avaliar(banco, roteiro, esperada, self.codigo, self.operadora_id)
            vespera = _avaliar(banco, roteiro, esperada - timedelta(days=1), self.codigo, self.operadora_id)
            assert no_dia.reincidencia == 1 and no_dia.antecedentes[0].contado
            assert vespera.reincidencia == 0 and not vespera.antecedentes[0].contado


def test_dia_guardado_igual_ao_da_regra_em_historias_aleatorias(banco: Banco, roteiro: Roteiro) -> None:
    """Across many random histories, after every act, the stored day equals rule 1's, and the panel counts the
    prior for a fact on that day (never the day before)."""
    catalogo = {d.codigo: d.tipo for d in dispositivos()}
    codigos = [c for c, t in catalogo.items() if t in ("D", "E")]
    rng = random.Random(2413)
    pares = [(op, c) for op in (roteiro.cidade.operadora_id, roteiro.cidade.operadora2_id) for c in codigos]
    for operadora_id, codigo in rng.sample(pares, 18):
        minimo = Decimal("3.00") if catalogo[codigo] == "E" else Decimal("2.00")
        infracao = date(2026, 1, 5) + timedelta(days=rng.randrange(0, 150))
        r = roteiro.lavrar(data_infracao=infracao, dispositivo=codigo, operadora_id=operadora_id)
        roteiro.intimar(r.id, infracao + timedelta(days=1))
        dia = infracao + timedelta(days=rng.randrange(21, 31))
        h = _Historia(r.id, codigo, operadora_id, aplicada=rng.random() < 0.85)
        if h.aplicada:
            roteiro.decidir(r.id, dia, str(minimo + 1))
        else:
            roteiro.decidir(r.id, dia, resultado="arquivado")
        h.conferir(banco, roteiro)
        if not h.aplicada:
            continue
        if rng.random() < 0.2:  # appeal before the decision's intimação: timely
            h.recurso = (dia + timedelta(days=rng.randrange(0, 3)), True)
            roteiro.recorrer(r.id, h.recurso[0])
            h.conferir(banco, roteiro)
        if rng.random() < 0.85:
            entrega = dia + timedelta(days=rng.randrange(3, 6))
            if rng.random() < 0.3:
                roteiro.intimar(r.id, entrega, objeto="decisao", resultado="nao_encontrado")
                h.conferir(banco, roteiro)
                entrega += timedelta(days=2)
            h.prazo_recurso = roteiro.intimar(r.id, entrega, objeto="decisao").prazo
            h.conferir(banco, roteiro)
            if h.recurso is None and rng.random() < 0.6:
                assert h.prazo_recurso is not None
                protocolo = h.prazo_recurso + timedelta(days=rng.choice((-10, -1, 0, 1, 4)))
                h.recurso = (protocolo, protocolo <= h.prazo_recurso)
                assert roteiro.recorrer(r.id, protocolo).tempestivo is h.recurso[1]
                h.conferir(banco, roteiro)
        if h.recurso is not None and rng.random() < 0.8:
            resultado = rng.choice(("negado", "provido", "provido_parcialmente"))
            quando = h.recurso[0] + timedelta(days=rng.randrange(1, 40))
            extra = {"multa_ur_nova": minimo} if resultado == "provido_parcialmente" else {}
            roteiro.julgar(r.id, quando, resultado, **extra)
            h.julgamento = (quando, resultado)
            # Granted in full annuls the penalty; on a late appeal too, as a review of the act by the
            # administration itself (Lei 9.784/1999, art. 63, § 2º), which the program records as decided.
            h.anulada = resultado == "provido"
            h.conferir(banco, roteiro)
