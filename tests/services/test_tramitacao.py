"""Whole cases, start to end: dismissed; fined and paid; appealed and annulled (a later case's recidivism
drops); partly granted; a chain of punished infractions that reaches suspension."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest

from secretaria.db import Banco
from secretaria.services import filas
from secretaria.services.autos import obter_caso
from secretaria.services.base import ErroDominio
from secretaria.services.execucao import (
    PedidoPagamento,
    PedidoSuspensao,
    iniciar_suspensao,
    registrar_cumprimento,
    registrar_pagamento,
    situacao_operadora,
    situacoes_operadoras,
)
from secretaria.services.sancao import avaliar_sancao
from secretaria.services.tramitacao import (
    decisao_final,
    final_em,
    registrar_defesa,
    registrar_proposta,
)
from tests.helpers.fabrica import ATORES, URM_2026, Roteiro


def test_caso_arquivado(banco: Banco, roteiro: Roteiro) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 4, 6))
    roteiro.intimar(r.id, date(2026, 4, 7), resultado="nao_encontrado")
    roteiro.intimar(r.id, date(2026, 4, 8))
    defesa = registrar_defesa(
        roteiro.uow(),
        ATORES["protocolo"],
        auto_id=r.id,
        protocolada_em=date(2026, 4, 20),
        requerente="Advogado",
    )
    assert defesa.tempestiva and defesa.prazo == date(2026, 4, 23)
    registrar_proposta(
        roteiro.uow(), ATORES["autoridade"], auto_id=r.id, data=date(2026, 4, 24), acao="arquivar",
        fundamentacao="A defesa provou que o veículo estava em manutenção.",
    )  # fmt: skip
    d = roteiro.decidir(r.id, date(2026, 4, 27), resultado="arquivado")
    assert (d.resultado, d.multa_reais, d.valor_urm) == ("arquivado", Decimal(0), None)
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
        assert caso.fase == "encerrado" and caso.final_em == date(2026, 4, 27)
        assert caso.pagamento is None and caso.cumprimento is None
        assert caso.proximos_atos == ("anexar_evidencia",)
        assert [e.ato for e in caso.linha_do_tempo][-3:] == ["defesa", "proposta", "decisao"]
        assert all(f.total == 0 for f in filas.painel(s) if f.chave != "veiculos_vencidos")


def test_caso_multado_e_pago(banco: Banco, roteiro: Roteiro) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 5, 4), dispositivo="1-XVI")  # tipo D: 2,00–3,00 URM
    roteiro.intimar(r.id, date(2026, 5, 5))  # defence until 20/05
    defesa = registrar_defesa(
        roteiro.uow(), ATORES["protocolo"], auto_id=r.id, protocolada_em=date(2026, 5, 21)
    )
    assert not defesa.tempestiva  # recorded, and marked
    registrar_proposta(
        roteiro.uow(), ATORES["autoridade"], auto_id=r.id, data=date(2026, 5, 22), acao="aplicar",
        multa_ur=Decimal("2.50"), fundamentacao="Infração comprovada.",
    )  # fmt: skip
    d = roteiro.decidir(r.id, date(2026, 5, 25), "2.50")
    assert (d.multa_ur, d.valor_urm, d.multa_reais) == (Decimal("2.50"), URM_2026, Decimal("411.85"))
    assert (d.reincidencia, d.faixa_min_ur, d.faixa_max_ur) == (0, Decimal("2.00"), Decimal("3.00"))
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
        assert caso.decisao is not None and caso.decisao.defesa_intempestiva
        assert "Art. 7º, § 1º, d)" in caso.decisao.fundamentos_legais
        assert caso.pagamento is not None and (caso.pagamento.situacao, caso.pagamento.valor) == (
            "aberto",
            d.multa_reais,
        )
        assert caso.cumprimento is not None and caso.cumprimento.situacao == "pendente"
        assert caso.final_em is None  # not intimated yet
        assert [x.id for x in filas.decisoes_aguardando_intimacao(s).linhas] == [r.id]

    intimacao = roteiro.intimar(r.id, date(2026, 5, 26), objeto="decisao")
    assert intimacao.prazo == date(2026, 6, 10)
    roteiro.intimar(r.id, date(2026, 5, 25), objeto="decisao", resultado="recusada")
    with banco.leitura() as s:  # an attempt on the decision's own day is shown after the decision
        assert [e.titulo for e in obter_caso(s, r.id).linha_do_tempo][-3:] == [
            "Decisão: penalidade aplicada",
            "Intimação da decisão (sem êxito)",
            "Intimação da decisão",
        ]
    roteiro.hoje = date(2026, 6, 10)
    with banco.leitura() as s:
        assert final_em(s, r.id) is None
        assert [x.id for x in filas.recursos_em_prazo(s).linhas] == [r.id]
    roteiro.hoje = date(2026, 6, 11)
    with banco.leitura() as s:
        assert final_em(s, r.id) == date(2026, 6, 11)
        em_aberto = filas.multas_definitivas_em_aberto(s)
        assert em_aberto.total == 1 and "R$ 411,85" in em_aberto.linhas[0].detalhe

    with banco.leitura() as s:
        versao = obter_caso(s, r.id).pagamento.versao  # type: ignore[union-attr]
    registrar_pagamento(
        roteiro.uow(), ATORES["protocolo"], PedidoPagamento(auto_id=r.id, situacao="pago", data=date(2026, 6, 11), guia="G-77",
        versao=versao),
    )  # fmt: skip
    registrar_cumprimento(
        roteiro.uow(), ATORES["fiscal"], auto_id=r.id, situacao="cumprida", data=date(2026, 6, 11),
        observacao="Vistoria regularizada.",
    )  # fmt: skip
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
        assert caso.pagamento is not None
        assert (caso.pagamento.situacao, caso.pagamento.pago_em, caso.pagamento.valor_pago) == (
            "pago",
            date(2026, 6, 11),
            Decimal("411.85"),
        )
        assert caso.cumprimento is not None and caso.cumprimento.verificado_por == "fiscal"
        assert filas.multas_definitivas_em_aberto(s).total == 0
        assert "registrar_pagamento" not in caso.proximos_atos
        assert caso.prazos[-1].texto == "vencido em 10/06/2026 — decisão definitiva"
    with pytest.raises(ErroDominio, match="já foi paga em 11/06/2026"):
        registrar_pagamento(
            roteiro.uow(),
            ATORES["protocolo"],
            PedidoPagamento(auto_id=r.id, situacao="pago", data=date(2026, 6, 12)),
        )


def test_recurso_provido_anula_e_derruba_a_reincidencia_do_caso_seguinte(
    banco: Banco, roteiro: Roteiro
) -> None:
    """REGRAS § 3 rule 1: a prior counts only once final — never while not notified, nor while a timely
    appeal is pending — and an appeal granted in full annuls it for good."""
    primeiro = roteiro.lavrar(data_infracao=date(2026, 2, 10))
    roteiro.intimar(primeiro.id, date(2026, 2, 11))
    roteiro.decidir(primeiro.id, date(2026, 3, 1), "0.30")
    segundo = roteiro.lavrar(data_infracao=date(2026, 3, 10))
    assert "(infração primária)" in segundo.proxima_penalidade

    def antecedente_do_segundo() -> tuple[int, str, str]:
        with banco.leitura() as s:
            a = avaliar_sancao(
                s,
                operadora_id=roteiro.cidade.operadora_id,
                dispositivo_codigo="1-VI",
                data_infracao=date(2026, 3, 10),
                excluir_auto_id=segundo.id,
            )
            (unico,) = a.antecedentes
            return a.reincidencia, unico.situacao, unico.motivo

    nivel, situacao, motivo = antecedente_do_segundo()
    assert (nivel, situacao) == (0, "nao_definitiva")
    assert "decisão de 01/03/2026 não notificada" in motivo
    recurso = roteiro.recorrer(primeiro.id, date(2026, 3, 5))  # before the decision's intimação: accepted
    assert recurso.tempestivo and recurso.antes_da_intimacao
    nivel, situacao, motivo = antecedente_do_segundo()
    assert (nivel, situacao) == (0, "nao_definitiva") and "recurso pendente" in motivo
    with banco.leitura() as s:
        assert [x.id for x in filas.recursos_aguardando_julgamento(s).linhas] == [primeiro.id]
        caso = obter_caso(s, primeiro.id)
        assert caso.fase == "em_recurso" and caso.recurso is not None and caso.recurso.antes_da_intimacao
        assert (
            caso.linha_do_tempo[-1].titulo
            == "Recurso ao Prefeito (tempestivo, interposto antes da intimação da decisão)"
        )
    roteiro.julgar(primeiro.id, date(2026, 3, 20), "provido")

    nivel, situacao, motivo = antecedente_do_segundo()
    assert (nivel, situacao) == (0, "anulado") and "penalidade anulada" in motivo
    with banco.leitura() as s:
        caso = obter_caso(s, primeiro.id)
        assert caso.penalidade_anulada and caso.fase == "encerrado"
        assert caso.pagamento is not None and caso.pagamento.situacao == "cancelado"
        assert caso.linha_do_tempo[-1].descricao == "Recurso provido: penalidade anulada."
        assert "registrar_pagamento" not in caso.proximos_atos
    # The second case is decided in the range of a first infraction now.
    roteiro.intimar(segundo.id, date(2026, 3, 11))
    with pytest.raises(ErroDominio, match="fora da faixa cabível"):
        roteiro.decidir(segundo.id, date(2026, 3, 30), "0.80")
    assert roteiro.decidir(segundo.id, date(2026, 3, 30), "0.50").reincidencia == 0
    with pytest.raises(ErroDominio, match="anulada pelo recurso"):
        registrar_pagamento(
            roteiro.uow(),
            ATORES["protocolo"],
            PedidoPagamento(auto_id=primeiro.id, situacao="pago", data=date(2026, 4, 1)),
        )


def test_recurso_provido_em_parte_reduz_dentro_da_faixa(banco: Banco, roteiro: Roteiro) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 5, 4), multa="3.00", dispositivo="1-XVI")
    roteiro.intimar(r.id, date(2026, 5, 26), objeto="decisao")
    roteiro.recorrer(r.id, date(2026, 6, 1))
    with pytest.raises(ErroDominio, match="fora da faixa cabível"):
        roteiro.julgar(r.id, date(2026, 6, 20), "provido_parcialmente", multa_ur_nova=Decimal("1.50"))
    with pytest.raises(ErroDominio, match="só pode ser reduzida"):
        roteiro.julgar(r.id, date(2026, 6, 20), "provido_parcialmente", multa_ur_nova=Decimal("3.50"))
    roteiro.julgar(r.id, date(2026, 6, 20), "provido_parcialmente", multa_ur_nova=Decimal("2.00"))
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
        assert caso.multa_ur == Decimal("2.00") and not caso.penalidade_anulada
        assert caso.pagamento is not None and caso.pagamento.valor == Decimal("329.48")
        assert caso.final_em == date(2026, 6, 20)
        assert caso.decisao is not None and caso.decisao.multa_ur == Decimal(
            "3.00"
        )  # the decision stays as issued


def test_recurso_intempestivo_e_registrado_e_nao_impede_a_definitividade(
    banco: Banco, roteiro: Roteiro
) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 5, 4), multa="2.00", dispositivo="1-XVI")
    roteiro.intimar(r.id, date(2026, 5, 26), objeto="decisao")  # appeal until 10/06
    recurso = roteiro.recorrer(r.id, date(2026, 6, 15))
    assert not recurso.tempestivo and not recurso.antes_da_intimacao
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
        assert caso.fase == "decidido" and caso.final_em == date(2026, 6, 11)
        assert caso.prazos[-1].texto == "cumprido: recurso protocolado em 15/06/2026 (intempestivo)"
        assert "julgar_recurso" in caso.proximos_atos


def test_cadeia_ate_a_suspensao_deixa_a_operadora_suspensa(banco: Banco, roteiro: Roteiro) -> None:
    """REGRAS § 3, example 6 on real autos: tipo E (1-I), two punished priors → 2ª reincidência, suspension."""
    c = roteiro.cidade
    roteiro.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 3, 5), multa="6.00", dispositivo="1-I")
    r = roteiro.lavrar(data_infracao=date(2026, 9, 1), dispositivo="1-I")
    assert r.proxima_penalidade.startswith(
        "Multa de 10,00 URM (2ª reincidência), podendo ser aplicada, cumulativamente, suspensão de 1 a 10 dias"
    )
    roteiro.intimar(r.id, date(2026, 9, 2))
    d = roteiro.decidir(r.id, date(2026, 9, 30), "10.00", suspensao=5)
    assert (d.reincidencia, d.suspensao_dias, d.multa_reais) == (2, 5, Decimal("1647.40"))
    with pytest.raises(ErroDominio, match="ainda não é definitiva"):
        iniciar_suspensao(
            roteiro.uow(), ATORES["secretario"], PedidoSuspensao(auto_id=r.id, inicio=date(2026, 10, 1))
        )
    roteiro.intimar(r.id, date(2026, 10, 1), objeto="decisao")  # appeal until 16/10
    roteiro.hoje = date(2026, 10, 19)
    with pytest.raises(ErroDominio, match="anterior à decisão definitiva"):
        iniciar_suspensao(
            roteiro.uow(), ATORES["secretario"], PedidoSuspensao(auto_id=r.id, inicio=date(2026, 10, 16))
        )
    s_ = iniciar_suspensao(
        roteiro.uow(), ATORES["secretario"], PedidoSuspensao(auto_id=r.id, inicio=date(2026, 10, 20))
    )
    assert (s_.inicio, s_.fim, s_.dias) == (date(2026, 10, 20), date(2026, 10, 24), 5)
    with pytest.raises(ErroDominio, match="já foi iniciada"):
        iniciar_suspensao(
            roteiro.uow(), ATORES["secretario"], PedidoSuspensao(auto_id=r.id, inicio=date(2026, 10, 25))
        )
    with banco.leitura() as s:
        assert situacao_operadora(s, c.operadora_id, date(2026, 10, 19)) == "ativa"
        assert situacao_operadora(s, c.operadora_id, date(2026, 10, 20)) == "suspensa até 24/10/2026"
        assert situacao_operadora(s, c.operadora_id, date(2026, 10, 24)) == "suspensa até 24/10/2026"
        assert situacao_operadora(s, c.operadora_id, date(2026, 10, 25)) == "ativa"
        assert situacoes_operadoras(s, date(2026, 10, 22)) == {c.operadora_id: "suspensa até 24/10/2026"}
        suspensas = filas.operadoras_suspensas(s, date(2026, 10, 22))
        assert [x.id for x in suspensas.linhas] == [c.operadora_id]
        caso = obter_caso(s, r.id)
        assert caso.suspensao is not None and caso.suspensao.fim == date(2026, 10, 24)
        assert "iniciar_suspensao" not in caso.proximos_atos
    # The next one of the chain: exactly double the last suspension (§ 7º).
    roteiro.hoje = date(2026, 11, 30)
    proximo = roteiro.lavrar(data_infracao=date(2026, 11, 2), dispositivo="1-I")
    assert proximo.proxima_penalidade.startswith(
        "Multa de 10,00 URM (3ª reincidência), podendo ser aplicada, cumulativamente, suspensão de "
        "exatamente 10 dias, o dobro da anterior"
    )


def test_decisao_final_regra_pura() -> None:
    base: dict[str, Any] = {
        "resultado": "aplicada",
        "data_decisao": date(2026, 5, 25),
        "recurso_julgado_em": None,
    }
    assert decisao_final(**base, prazo_recurso=None, recurso_tempestivo=None, dia=date(2027, 1, 1)) is None
    prazo = date(2026, 6, 10)
    assert decisao_final(**base, prazo_recurso=prazo, recurso_tempestivo=None, dia=prazo) is None
    assert decisao_final(
        **base, prazo_recurso=prazo, recurso_tempestivo=None, dia=prazo + timedelta(days=1)
    ) == date(2026, 6, 11)
    assert decisao_final(**base, prazo_recurso=prazo, recurso_tempestivo=True, dia=date(2027, 1, 1)) is None
    assert decisao_final(
        resultado="aplicada",
        data_decisao=date(2026, 5, 25),
        prazo_recurso=prazo,
        recurso_tempestivo=True,
        recurso_julgado_em=date(2026, 7, 1),
        dia=date(2026, 7, 1),
    ) == date(2026, 7, 1)
    assert decisao_final(
        resultado="arquivado",
        data_decisao=date(2026, 5, 25),
        prazo_recurso=None,
        recurso_tempestivo=None,
        recurso_julgado_em=None,
        dia=date(2026, 5, 25),
    ) == date(2026, 5, 25)
