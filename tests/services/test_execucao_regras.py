"""REGRAS § 5, the paragraphs on carrying out a decision, read word for word:

- "Suspensions of one operator never run on the same days: … a suspension may start only after every other
  started suspension of that operator has ended; the program proposes the first free day and refuses an
  overlapping start."
- "An unpaid fine may be inscribed in dívida ativa only after that deadline [days after the penalty becomes
  final, counted as in § 4] has passed; an earlier inscription is refused, naming the deadline."

And § 4: a petition reclassified by a later non-business day; the case's header reads it as the Prazos box
does.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import Suspensao
from secretaria.services import calendario, filas, listas
from secretaria.services.base import ErroDominio
from secretaria.services.caso import obter_caso
from secretaria.services.configuracoes import salvar_configuracoes
from secretaria.services.execucao import (
    PedidoPagamento,
    PedidoSuspensao,
    conferir_pagamento,
    conferir_suspensao,
    iniciar_suspensao,
    registrar_pagamento,
    situacao_operadora,
    situacoes_operadoras,
)
from secretaria.services.listas import Filtro
from secretaria.services.tramitacao import registrar_defesa
from tests.helpers.fabrica import ATORES, Roteiro

SECRETARIO, PROTOCOLO = ATORES["secretario"], ATORES["protocolo"]


def _duas_suspensoes_definitivas(roteiro: Roteiro) -> tuple[int, int]:
    """Two final suspensions against one operator (6 and 4 days): two priors make both
    autos of September a second recidivism; both decisions intimated 01/10, appeal until 16/10, final 17/10."""
    roteiro.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 3, 5), multa="6.00", dispositivo="1-I")
    ids = []
    for dia, dias in ((date(2026, 9, 1), 6), (date(2026, 9, 2), 4)):
        r = roteiro.lavrar(data_infracao=dia, dispositivo="1-I")
        roteiro.intimar(r.id, date(2026, 9, 3))
        roteiro.decidir(r.id, date(2026, 9, 30), "10.00", suspensao=dias)
        roteiro.intimar(r.id, date(2026, 10, 1), objeto="decisao")
        ids.append(r.id)
    return ids[0], ids[1]


def _suspensoes(banco: Banco) -> list[tuple[date, date]]:
    with banco.leitura() as s:
        return list(s.execute(sa.select(Suspensao.inicio, Suspensao.fim).order_by(Suspensao.id)).tuples())


def test_suspensao_so_comeca_depois_da_outra_e_o_programa_propoe_o_primeiro_dia_livre(
    banco: Banco, roteiro: Roteiro
) -> None:
    a, b = _duas_suspensoes_definitivas(roteiro)
    operadora = roteiro.cidade.operadora_id
    with banco.leitura() as s:
        # Nothing started yet: today (30/11) is free for either.
        assert obter_caso(s, b).inicio_suspensao_proposto == date(2026, 11, 30)
    iniciar_suspensao(
        roteiro.uow(), SECRETARIO, PedidoSuspensao(auto_id=a, inicio=date(2026, 12, 1))
    )  # 01/12 to 06/12
    # The second on the same day: refused beside the start field, naming the first free day, 07/12.
    for tentativa in (date(2026, 12, 1), date(2026, 12, 6), date(2026, 11, 30)):
        with banco.leitura() as s, pytest.raises(ErroDominio) as recusa:
            conferir_suspensao(s, SECRETARIO, PedidoSuspensao(auto_id=b, inicio=tentativa))
        assert recusa.value.campo == "inicio"
        assert "a partir de 07/12/2026" in recusa.value.mensagem
        with pytest.raises(ErroDominio) as recusa:
            iniciar_suspensao(roteiro.uow(), SECRETARIO, PedidoSuspensao(auto_id=b, inicio=tentativa))
        assert recusa.value.campo == "inicio" and "07/12/2026" in recusa.value.mensagem
    assert _suspensoes(banco) == [(date(2026, 12, 1), date(2026, 12, 6))]  # nothing written on refusal
    with banco.leitura() as s:
        assert obter_caso(s, b).inicio_suspensao_proposto == date(2026, 12, 7)
        fila = filas.suspensoes_a_iniciar(s, date(2026, 11, 30))
        (linha,) = [x for x in fila.linhas if x.id == b]
        assert linha.prazo == date(2026, 12, 7) and "inicie a partir de 07/12/2026" in linha.detalhe
    iniciar_suspensao(
        roteiro.uow(), SECRETARIO, PedidoSuspensao(auto_id=b, inicio=date(2026, 12, 7))
    )  # 07/12 to 10/12
    assert _suspensoes(banco) == [
        (date(2026, 12, 1), date(2026, 12, 6)),
        (date(2026, 12, 7), date(2026, 12, 10)),
    ]
    # 10 days served, one after the other: every reading of the operator says the end of both.
    with banco.leitura() as s:
        for dia in (date(2026, 12, 1), date(2026, 12, 3), date(2026, 12, 9)):
            assert situacao_operadora(s, operadora, dia) == "suspensa até 10/12/2026"
            assert situacoes_operadoras(s, dia)[operadora] == "suspensa até 10/12/2026"
            (suspensa,) = filas.operadoras_suspensas(s, dia).linhas
            assert suspensa.prazo == date(2026, 12, 10)
        assert situacao_operadora(s, operadora, date(2026, 12, 11)) == "ativa"
        assert filas.suspensoes_a_iniciar(s, date(2026, 11, 30)).total == 0


def test_lista_de_operadoras_diz_o_fim_das_suspensoes_seguidas(banco: Banco, roteiro: Roteiro) -> None:
    a, b = _duas_suspensoes_definitivas(roteiro)
    iniciar_suspensao(roteiro.uow(), SECRETARIO, PedidoSuspensao(auto_id=a, inicio=date(2026, 12, 1)))
    iniciar_suspensao(roteiro.uow(), SECRETARIO, PedidoSuspensao(auto_id=b, inicio=date(2026, 12, 7)))
    roteiro.hoje = date(2026, 12, 2)
    with banco.leitura() as s:
        linhas = listas.pagina(s, "operadoras", Filtro(situacoes=frozenset({"suspensa"})))
    situacoes = [str(v).split(" — ")[0] for linha in linhas for v in linha if str(v).startswith("Suspensa")]
    assert situacoes == ["Suspensa até 10/12/2026"]


def _multa_definitiva(roteiro: Roteiro) -> int:
    """Decision intimated Tue 26/05/2026: appeal until Wed 10/06, final Thu 11/06/2026."""
    r = roteiro.decidido(data_infracao=date(2026, 5, 4), multa="2.00", dispositivo="1-XVI")
    roteiro.intimar(r.id, date(2026, 5, 26), objeto="decisao")
    return r.id


def test_divida_ativa_so_depois_do_prazo_de_pagamento(banco: Banco, roteiro: Roteiro) -> None:
    """30 days (the setting's default) from Thu 11/06/2026: Sat 11/07 → Mon 13/07/2026 (REGRAS § 4)."""
    auto = _multa_definitiva(roteiro)
    for hoje, inscricao in ((date(2026, 6, 12), date(2026, 6, 12)), (date(2026, 7, 13), date(2026, 7, 13))):
        roteiro.hoje = hoje
        pedido: dict[str, Any] = {"auto_id": auto, "situacao": "divida_ativa", "data": inscricao}
        with banco.leitura() as s, pytest.raises(ErroDominio) as recusa:
            conferir_pagamento(s, PROTOCOLO, PedidoPagamento(**pedido))
        assert recusa.value.campo == "data" and "13/07/2026" in recusa.value.mensagem
        with pytest.raises(ErroDominio, match="13/07/2026"):
            registrar_pagamento(roteiro.uow(), PROTOCOLO, PedidoPagamento(**pedido))
        with banco.leitura() as s:
            caso = obter_caso(s, auto)
            assert caso.pagamento is not None and caso.pagamento.situacao == "aberto"
            assert caso.prazo_pagamento == date(2026, 7, 13)
            (linha,) = filas.multas_definitivas_em_aberto(s, hoje).linhas
            assert linha.prazo == date(2026, 7, 13)
            assert "no prazo de pagamento (até 13/07/2026)" in linha.detalhe
    roteiro.hoje = date(2026, 7, 14)
    with banco.leitura() as s:
        (linha,) = filas.multas_definitivas_em_aberto(s, date(2026, 7, 14)).linhas
        assert "vencida" in linha.detalhe and "no prazo" not in linha.detalhe
    registrar_pagamento(
        roteiro.uow(),
        PROTOCOLO,
        PedidoPagamento(auto_id=auto, situacao="divida_ativa", data=date(2026, 7, 14)),
    )
    with banco.leitura() as s:
        caso = obter_caso(s, auto)
        assert caso.pagamento is not None and caso.pagamento.inscrito_divida_em == date(2026, 7, 14)


def test_prazo_de_pagamento_e_a_configuracao_contada_como_os_prazos(banco: Banco, roteiro: Roteiro) -> None:
    """10 days from Thu 11/06/2026 end Sun 21/06 → Mon 22/06; a ponto facultativo on 22/06 moves it to
    Tue 23/06, and the inscription on 23/06 is still early."""
    salvar_configuracoes(
        banco.uow(),
        ATORES["administrador"],
        copias_backup=7,
        dias_decisao_atrasada=30,
        prazo_pagamento_dias=10,
    )
    auto = _multa_definitiva(roteiro)
    roteiro.hoje = date(2026, 6, 23)
    with banco.leitura() as s:
        assert obter_caso(s, auto).prazo_pagamento == date(2026, 6, 22)
    calendario.adicionar_dia_nao_util(
        banco.uow(),
        ATORES["administrador"],
        data=date(2026, 6, 22),
        descricao="Ponto facultativo",
        ato="Decreto",
    )
    with pytest.raises(ErroDominio, match="23/06/2026"):
        registrar_pagamento(
            roteiro.uow(),
            PROTOCOLO,
            PedidoPagamento(auto_id=auto, situacao="divida_ativa", data=date(2026, 6, 23)),
        )
    roteiro.hoje = date(2026, 6, 24)
    registrar_pagamento(
        roteiro.uow(),
        PROTOCOLO,
        PedidoPagamento(auto_id=auto, situacao="divida_ativa", data=date(2026, 6, 24)),
    )


def test_cabecalho_le_a_defesa_como_o_quadro_de_prazos(banco: Banco, roteiro: Roteiro) -> None:
    """A late defence, the decision, then a ponto facultativo on the deadline's last day: the defence is
    timely now, and the header says so as the Prazos box does (never "defesa intempestiva")."""
    from secretaria.ui.processo.tela_caso import TelaCaso

    roteiro.hoje = date(2026, 9, 10)
    r = roteiro.lavrar(data_infracao=date(2026, 8, 3))
    roteiro.intimar(r.id, date(2026, 8, 3))  # deadline Tue 18/08
    registrar_defesa(
        roteiro.uow(), PROTOCOLO, auto_id=r.id, protocolada_em=date(2026, 8, 19), requerente="Adv."
    )
    roteiro.decidir(r.id, date(2026, 8, 25), "0.30")
    with banco.leitura() as s:
        antes = obter_caso(s, r.id)
    assert "defesa intempestiva" in TelaCaso._texto_da_penalidade(antes)
    assert antes.prazos[0].texto.endswith("(intempestiva)")
    roteiro.hoje = date(2026, 9, 14)
    calendario.adicionar_dia_nao_util(
        banco.uow(),
        ATORES["administrador"],
        data=date(2026, 8, 18),
        descricao="Ponto facultativo",
        ato="Decreto",
    )
    with banco.leitura() as s:
        depois = obter_caso(s, r.id)
    assert depois.prazos[0].tempestivo and not depois.prazos[0].texto.endswith("(intempestiva)")
    assert "intempestiva" not in TelaCaso._texto_da_penalidade(depois)
