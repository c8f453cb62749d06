"""Carrying out decisions: dívida ativa, the art. 8º follow-up, and the cassação procedure (art. 16)."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest

from secretaria.db import Banco
from secretaria.services import filas
from secretaria.services.autos import obter_caso
from secretaria.services.base import ConflitoEdicao, ErroDominio
from secretaria.services.execucao import (
    PedidoDecisaoCassacao,
    PedidoInstauracao,
    PedidoPagamento,
    decidir_cassacao,
    instaurar_cassacao,
    registrar_ato_cassacao,
    registrar_cumprimento,
    registrar_pagamento,
    situacao_operadora,
    situacoes_operadoras,
)
from tests.helpers.fabrica import ATORES, Roteiro, ultima_auditoria


def test_multa_definitiva_vai_para_divida_ativa_e_ainda_pode_ser_paga(banco: Banco, roteiro: Roteiro) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 5, 4), multa="2.00", dispositivo="1-XVI")
    roteiro.intimar(r.id, date(2026, 5, 26), objeto="decisao")  # appeal until 10/06
    protocolo = ATORES["protocolo"]
    roteiro.hoje = date(2026, 6, 10)
    with pytest.raises(ErroDominio, match="ainda não é definitiva"):
        registrar_pagamento(
            roteiro.uow(),
            protocolo,
            PedidoPagamento(auto_id=r.id, situacao="divida_ativa", data=date(2026, 6, 10)),
        )
    roteiro.hoje = date(2026, 7, 20)
    with pytest.raises(ErroDominio, match="anterior à decisão definitiva"):
        registrar_pagamento(
            roteiro.uow(),
            protocolo,
            PedidoPagamento(auto_id=r.id, situacao="divida_ativa", data=date(2026, 6, 10)),
        )
    registrar_pagamento(
        roteiro.uow(),
        protocolo,
        PedidoPagamento(auto_id=r.id, situacao="divida_ativa", data=date(2026, 7, 20)),
    )
    with banco.leitura() as s:
        assert filas.multas_definitivas_em_aberto(s).total == 0
        caso = obter_caso(s, r.id)
        assert caso.pagamento is not None and caso.pagamento.situacao == "divida_ativa"
        assert "registrar_pagamento" in caso.proximos_atos
    with pytest.raises(ErroDominio, match="já foi inscrita em dívida ativa em 20/07/2026"):
        registrar_pagamento(
            roteiro.uow(),
            protocolo,
            PedidoPagamento(auto_id=r.id, situacao="divida_ativa", data=date(2026, 7, 20)),
        )
    with pytest.raises(ErroDominio, match="maior que zero"):
        registrar_pagamento(
            roteiro.uow(),
            protocolo,
            PedidoPagamento(auto_id=r.id, situacao="pago", data=date(2026, 7, 1), valor_pago=Decimal("0")),
        )
    registrar_pagamento(
        roteiro.uow(),
        protocolo,
        PedidoPagamento(auto_id=r.id, situacao="pago", data=date(2026, 7, 1), valor_pago=Decimal("329.48")),
    )
    with banco.leitura() as s:
        pagamento = obter_caso(s, r.id).pagamento
    assert pagamento is not None and (pagamento.situacao, str(pagamento.valor_pago)) == ("pago", "329.48")
    assert pagamento.inscrito_divida_em == date(2026, 7, 20)


def test_cumprimento_da_exigencia_art_8(banco: Banco, roteiro: Roteiro) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 5, 4), multa="2.00", dispositivo="1-XVI")
    with banco.leitura() as s:
        versao = obter_caso(s, r.id).cumprimento.versao  # type: ignore[union-attr]
    registrar_cumprimento(
        roteiro.uow(), ATORES["fiscal"], auto_id=r.id, situacao="nao_cumprida", data=date(2026, 6, 1),
        observacao="Vistoria ainda vencida.", versao=versao,
    )  # fmt: skip
    with pytest.raises(ConflitoEdicao, match="alterado por fiscal"):
        registrar_cumprimento(
            roteiro.uow(),
            ATORES["protocolo"],
            auto_id=r.id,
            situacao="cumprida",
            data=date(2026, 6, 2),
            versao=versao,
        )
    registrar_cumprimento(
        roteiro.uow(), ATORES["protocolo"], auto_id=r.id, situacao="cumprida", data=date(2026, 7, 1)
    )
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
    assert caso.cumprimento is not None
    assert (caso.cumprimento.situacao, caso.cumprimento.verificado_em, caso.cumprimento.verificado_por) == (
        "cumprida",
        date(2026, 7, 1),
        "protocolo",
    )
    assert "registrar_cumprimento" not in caso.proximos_atos
    sem_penalidade = roteiro.lavrar(data_infracao=date(2026, 5, 5))
    with pytest.raises(ErroDominio, match="não tem penalidade aplicada"):
        registrar_cumprimento(
            roteiro.uow(),
            ATORES["fiscal"],
            auto_id=sem_penalidade.id,
            situacao="cumprida",
            data=date(2026, 7, 1),
        )


def test_cassacao_com_ampla_defesa(banco: Banco, roteiro: Roteiro) -> None:
    c = roteiro.cidade
    autoridade, secretario = ATORES["autoridade"], ATORES["secretario"]
    with pytest.raises(ErroDominio, match="concessionária"):
        instaurar_cassacao(
            roteiro.uow(),
            autoridade,
            PedidoInstauracao(operadora_id=c.operadora_id, data=date(2026, 9, 1), motivo="x"),
        )
    cid = instaurar_cassacao(
        roteiro.uow(), autoridade, PedidoInstauracao(operadora_id=c.operadora2_id, data=date(2026, 9, 1),
        motivo="Operação com veículos sem seguro, comprovada em vistoria."),
    )  # fmt: skip
    with pytest.raises(ErroDominio, match="em andamento"):
        instaurar_cassacao(
            roteiro.uow(),
            autoridade,
            PedidoInstauracao(operadora_id=c.operadora2_id, data=date(2026, 9, 2), motivo="x"),
        )
    with pytest.raises(ErroDominio, match="ampla defesa"):
        decidir_cassacao(
            roteiro.uow(),
            secretario,
            PedidoDecisaoCassacao(
                cassacao_id=cid, data=date(2026, 9, 3), resultado="cassada", fundamentacao="x"
            ),
        )
    registrar_ato_cassacao(
        roteiro.uow(), ATORES["protocolo"], cassacao_id=cid, data=date(2026, 9, 2), tipo="notificacao",
        descricao="Permissionária notificada para defesa, na pessoa da representante legal.",
    )  # fmt: skip
    with pytest.raises(ErroDominio, match="pode se defender até 17/09/2026"):
        decidir_cassacao(
            roteiro.uow(),
            secretario,
            PedidoDecisaoCassacao(
                cassacao_id=cid, data=date(2026, 9, 10), resultado="cassada", fundamentacao="x"
            ),
        )
    decidir_cassacao(
        roteiro.uow(), secretario, PedidoDecisaoCassacao(cassacao_id=cid, data=date(2026, 9, 20), resultado="cassada",
        fundamentacao="Motivo relevante comprovado; defesa não apresentada."),
    )  # fmt: skip
    auditoria = ultima_auditoria(banco)
    assert auditoria is not None and auditoria["entidade"] == "operadora"
    assert json.loads(auditoria["antes"])["cassada_em"] is None
    assert json.loads(auditoria["depois"])["cassada_em"] == "2026-09-20"
    with banco.leitura() as s:
        assert situacao_operadora(s, c.operadora2_id, date(2026, 9, 19)) == "ativa"
        assert situacao_operadora(s, c.operadora2_id, date(2026, 9, 20)) == "cassada"
        assert situacoes_operadoras(s, date(2026, 10, 1)) == {c.operadora2_id: "cassada"}
    with pytest.raises(ErroDominio, match="já foi decidido"):
        registrar_ato_cassacao(
            roteiro.uow(),
            ATORES["protocolo"],
            cassacao_id=cid,
            data=date(2026, 9, 21),
            tipo="outro",
            descricao="x",
        )
    with pytest.raises(ErroDominio, match="cassada em 20/09/2026, antes do fato"):
        roteiro.lavrar(operadora_id=c.operadora2_id, data_infracao=date(2026, 9, 21))
    assert roteiro.lavrar(operadora_id=c.operadora2_id, data_infracao=date(2026, 9, 19)).numero == 1
    with pytest.raises(ErroDominio, match="já foi cassada"):
        instaurar_cassacao(
            roteiro.uow(),
            autoridade,
            PedidoInstauracao(operadora_id=c.operadora2_id, data=date(2026, 10, 1), motivo="x"),
        )


def test_cassacao_arquivada_nao_muda_a_operadora(banco: Banco, roteiro: Roteiro) -> None:
    c = roteiro.cidade
    cid = instaurar_cassacao(
        roteiro.uow(),
        ATORES["secretario"],
        PedidoInstauracao(operadora_id=c.operadora2_id, data=date(2026, 9, 1), motivo="Denúncia."),
    )
    registrar_ato_cassacao(
        roteiro.uow(), ATORES["autoridade"], cassacao_id=cid, data=date(2026, 9, 5), tipo="parecer",
        descricao="Denúncia não comprovada.",
    )  # fmt: skip
    decidir_cassacao(
        roteiro.uow(), ATORES["secretario"], PedidoDecisaoCassacao(cassacao_id=cid, data=date(2026, 9, 6), resultado="arquivada",
        fundamentacao="Sem prova do motivo alegado."),
    )  # fmt: skip
    with banco.leitura() as s:
        assert situacao_operadora(s, c.operadora2_id, date(2026, 10, 1)) == "ativa"
    # A new procedure may be opened later.
    instaurar_cassacao(
        roteiro.uow(),
        ATORES["secretario"],
        PedidoInstauracao(operadora_id=c.operadora2_id, data=date(2026, 10, 1), motivo="Nova."),
    )


def test_cassacao_no_prazo_so_depois_da_defesa_protocolada(banco: Banco, roteiro: Roteiro) -> None:
    """Within the 15 days a defence allows deciding only if it was filed by the decision's day (art. 16)."""
    c = roteiro.cidade
    cid = instaurar_cassacao(
        roteiro.uow(),
        ATORES["autoridade"],
        PedidoInstauracao(operadora_id=c.operadora2_id, data=date(2026, 9, 1), motivo="Motivo."),
    )
    registrar_ato_cassacao(
        roteiro.uow(), ATORES["protocolo"], cassacao_id=cid, data=date(2026, 9, 2), tipo="notificacao",
        descricao="Notificada.",
    )  # fmt: skip
    registrar_ato_cassacao(
        roteiro.uow(), ATORES["protocolo"], cassacao_id=cid, data=date(2026, 9, 12), tipo="defesa",
        descricao="Defesa protocolada.",
    )  # fmt: skip
    with pytest.raises(ErroDominio, match="pode se defender até 17/09/2026"):
        decidir_cassacao(
            roteiro.uow(), ATORES["secretario"], PedidoDecisaoCassacao(cassacao_id=cid, data=date(2026, 9, 10), resultado="cassada",
            fundamentacao="x"),
        )  # fmt: skip
    decidir_cassacao(
        roteiro.uow(), ATORES["secretario"], PedidoDecisaoCassacao(cassacao_id=cid, data=date(2026, 9, 14), resultado="cassada",
        fundamentacao="Defesa examinada; motivo relevante comprovado."),
    )  # fmt: skip
    with banco.leitura() as s:
        assert situacao_operadora(s, c.operadora2_id, date(2026, 9, 15)).startswith("cassada")
