"""REGRAS § 4: a non-business day registered after deadlines were counted moves them later, never earlier;
recorded petitions are classified again, the timeline says so, and decided cases wait for the Secretary."""

from __future__ import annotations

from datetime import date

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import AutoInfracao, Defesa
from secretaria.services import calendario, filas
from secretaria.services.base import AcessoNegado, ErroDominio
from secretaria.services.caso import obter_caso
from secretaria.services.revisao_prazos import conferir_revisao
from secretaria.services.tramitacao import registrar_defesa
from tests.helpers.fabrica import ATORES, Roteiro

PONTO = "Ponto facultativo — aniversário do servidor público"


def _ponto_facultativo(banco: Banco, dia: date) -> int:
    return calendario.adicionar_dia_nao_util(
        banco.uow(), ATORES["administrador"], data=dia, descricao=PONTO, ato="Decreto nº 7.001/2026"
    )


def _defesa(roteiro: Roteiro, auto_id: int, dia: date) -> bool:
    return registrar_defesa(
        roteiro.uow(), ATORES["protocolo"], auto_id=auto_id, protocolada_em=dia, requerente="Advogada"
    ).tempestiva


def test_ponto_facultativo_no_ultimo_dia_adia_o_prazo(banco: Banco, roteiro: Roteiro) -> None:
    """Intimação Mon 03/08/2026 → deadline Tue 18/08; on 06/08 18/08 becomes a ponto facultativo → Wed 19/08,
    and a defence filed on 19/08 is timely."""
    roteiro.hoje = date(2026, 8, 3)
    r = roteiro.lavrar(data_infracao=date(2026, 8, 3))
    assert roteiro.intimar(r.id, date(2026, 8, 3)).prazo == date(2026, 8, 18)
    roteiro.hoje = date(2026, 8, 6)
    _ponto_facultativo(banco, date(2026, 8, 18))
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
        assert caso.prazo_defesa == date(2026, 8, 19)
        assert caso.intimacoes[0].prazo == date(2026, 8, 19)
        (evento,) = [e for e in caso.linha_do_tempo if e.ato == "revisao_prazo"]
        assert evento.data == date(2026, 8, 6)
        assert evento.titulo == "Prazo de defesa (art. 14) prorrogado"
        assert evento.descricao.startswith(
            "De 18/08/2026 para 19/08/2026: 18/08/2026 cadastrado depois como dia sem expediente "
            f"(sem expediente: {PONTO}); o prazo contado da intimação de 03/08/2026 vence no primeiro dia útil "
            "seguinte"
        )
        assert filas.revisoes_de_prazo_a_conferir(s).total == 0  # nothing recorded, nothing decided
    roteiro.hoje = date(2026, 8, 19)
    assert _defesa(roteiro, r.id, date(2026, 8, 19)) is True


def test_defesa_ja_registrada_e_reclassificada_e_o_caso_decidido_vai_ao_secretario(
    banco: Banco, roteiro: Roteiro
) -> None:
    roteiro.hoje = date(2026, 9, 10)
    r = roteiro.lavrar(data_infracao=date(2026, 8, 3))
    roteiro.intimar(r.id, date(2026, 8, 3))  # deadline 18/08
    assert _defesa(roteiro, r.id, date(2026, 8, 19)) is False
    d = roteiro.decidir(r.id, date(2026, 8, 25), "0.30")
    with banco.leitura() as s:
        assert obter_caso(s, r.id).decisao.defesa_intempestiva  # type: ignore[union-attr]
    roteiro.hoje = date(2026, 9, 14)
    _ponto_facultativo(banco, date(2026, 8, 18))  # decreed late: the office was closed that day
    with banco.leitura() as s:
        defesa = s.scalar(sa.select(Defesa).where(Defesa.auto_id == r.id))
        assert defesa is not None and defesa.tempestiva
        caso = obter_caso(s, r.id)
        assert caso.prazos[0].texto == "cumprido: defesa protocolada em 19/08/2026"
        (evento,) = [e for e in caso.linha_do_tempo if e.ato == "revisao_prazo"]
        assert (
            "Reclassificado: defesa protocolada em 19/08/2026: intempestiva → tempestiva." in evento.descricao
        )
        assert "aguarda a conferência" in evento.descricao
        fila = filas.revisoes_de_prazo_a_conferir(s)
        assert [x.id for x in fila.linhas] == [r.id] and fila.linhas[0].prazo == date(2026, 8, 19)
        assert fila.linhas[0].detalhe == "Defesa protocolada em 19/08/2026: intempestiva → tempestiva"
        assert "revisoes_de_prazo" in [f.chave for f in filas.painel(s)]
        revisao_id = s.scalar(sa.text("SELECT id FROM revisao_prazo"))
    assert d.id
    with pytest.raises(AcessoNegado):
        conferir_revisao(banco.uow(), ATORES["protocolo"], revisao_id=revisao_id)
    conferir_revisao(banco.uow(), ATORES["secretario"], revisao_id=revisao_id)
    with pytest.raises(ErroDominio, match="já foi conferida em 14/09/2026"):
        conferir_revisao(banco.uow(), ATORES["secretario"], revisao_id=revisao_id)
    with banco.leitura() as s:
        assert filas.revisoes_de_prazo_a_conferir(s).total == 0


def test_recurso_intempestivo_vira_tempestivo_e_a_decisao_deixa_de_ser_definitiva(
    banco: Banco, roteiro: Roteiro
) -> None:
    roteiro.hoje = date(2026, 9, 30)
    r = roteiro.decidido(data_infracao=date(2026, 7, 1), multa="0.30", notificar=False)  # decided 22/07
    assert roteiro.intimar(r.id, date(2026, 8, 3), objeto="decisao").prazo == date(2026, 8, 18)
    assert not roteiro.recorrer(r.id, date(2026, 8, 19)).tempestivo
    with banco.leitura() as s:
        auto = s.get(AutoInfracao, r.id)
        assert auto is not None and (auto.fase, auto.data_definitiva) == ("decidido", date(2026, 8, 19))
    _ponto_facultativo(banco, date(2026, 8, 18))
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
        assert caso.prazo_recurso == date(2026, 8, 19)
        assert caso.recurso is not None and caso.recurso.tempestivo and caso.fase == "em_recurso"
        assert caso.final_em is None
        auto = s.get(AutoInfracao, r.id)
        assert auto is not None and auto.data_definitiva is None  # a timely appeal is pending now
        assert [x.id for x in filas.revisoes_de_prazo_a_conferir(s).linhas] == [r.id]


def test_prazo_so_anda_para_frente(banco: Banco, roteiro: Roteiro) -> None:
    """A day registered where no deadline ends changes nothing; removing the day never shortens the deadline."""
    roteiro.hoje = date(2026, 8, 10)
    r = roteiro.lavrar(data_infracao=date(2026, 8, 3))
    roteiro.intimar(r.id, date(2026, 8, 3))  # 18/08
    _ponto_facultativo(banco, date(2026, 8, 17))  # not the last day: no change
    with banco.leitura() as s:
        assert obter_caso(s, r.id).prazo_defesa == date(2026, 8, 18)
    dia = _ponto_facultativo(banco, date(2026, 8, 18))
    calendario.remover_dia_nao_util(banco.uow(), ATORES["administrador"], dia)
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
        assert caso.prazo_defesa == date(2026, 8, 19)
        assert len([e for e in caso.linha_do_tempo if e.ato == "revisao_prazo"]) == 1
    # Registering 19/08 too moves it once more, to Thursday.
    _ponto_facultativo(banco, date(2026, 8, 19))
    with banco.leitura() as s:
        assert obter_caso(s, r.id).prazo_defesa == date(2026, 8, 20)
