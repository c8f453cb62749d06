"""A realistic month for the document and spreadsheet tests: November 2026 in the small city of `fabrica.py`.

Plain module (no pytest fixtures): the test files import it and call `montar(banco, monkeypatch)`.
"Today" is 30/11/2026. What it builds, on the concessionária "Viação Princesa do Sul" unless said:
- a chain of three art. 1º, I (tipo E) autos; the third (April) got 10,00 URM and 5 days of suspension,
  intimated, final, suspension served 01/06–05/06, fine paid on 10/11/2026;
- `multado`: art. 1º, VI drawn up 03/11, intimated 04/11, decided 25/11 (0,30 URM), decision intimated 26/11
  (appeal deadline open at month end), with a witness and the refusal to sign;
- `em_defesa`: the permissionária's auto of 20/11, intimated 23/11 (defence deadline open at month end);
- `aguardando`: drawn up 27/11, not yet intimated; `aguardando2`: drawn up 16/11 on the permissionária,
  one failed delivery attempt;
- `arquivado`: drawn up in October, dismissed on 05/11; `cancelado`: drawn up 10/11, cancelled.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal
from typing import Any

import pytest

from secretaria.db import Banco
from secretaria.services.autos import DadosTestemunha, PedidoCancelamento, cancelar_auto
from secretaria.services.execucao import (
    PedidoPagamento,
    PedidoSuspensao,
    iniciar_suspensao,
    registrar_pagamento,
)
from secretaria.services.orgao import DadosDoOrgao, obter_dados_orgao, salvar_dados_orgao
from tests.helpers import fabrica

ATORES = fabrica.ATORES
HOJE = date(2026, 11, 30)
URM_2026 = fabrica.URM_2026

ORGAO = DadosDoOrgao(
    prefeitura="Prefeitura Municipal de Pelotas",
    secretaria="Secretaria Municipal de Serviços Urbanos",
    secretario_nome="Maria Helena Duarte",
    endereco="Rua Marechal Floriano, 123 – Centro – CEP 96015-440",
    cidade="Pelotas/RS",
    telefone="(53) 3225-0000",
    email="smsu@pelotas.rs.gov.br",
    horario_expediente="de segunda a sexta-feira, das 8h às 14h",
    pagamento_instrucoes="por guia de recolhimento retirada no protocolo, paga na rede bancária credenciada",
)


@dataclass(frozen=True)
class Cenario:
    cidade: Any
    roteiro: Any
    suspenso: int
    """The tipo E auto with fine, suspension (served) and payment."""
    multado: int
    em_defesa: int
    aguardando: int
    aguardando2: int
    arquivado: int
    cancelado: int
    numeros: dict[int, str]
    """auto id → "NNNN/AAAA"."""


def preencher_orgao(banco: Banco) -> None:
    with banco.leitura() as s:
        versao = obter_dados_orgao(s).versao
    salvar_dados_orgao(banco.uow(), ATORES["administrador"], ORGAO, versao=versao)


def montar(banco: Banco, monkeypatch: pytest.MonkeyPatch) -> Cenario:
    cidade = fabrica.popular(banco)
    preencher_orgao(banco)
    r = fabrica.Roteiro(banco, cidade, monkeypatch, hoje=HOJE)
    uow = banco.uow
    numeros: dict[int, str] = {}

    def guardar(resumo: Any) -> int:
        numeros[resumo.id] = resumo.numero_formatado
        return int(resumo.id)

    # The tipo E chain: the third auto reaches the 2nd recidivism (10,00 URM, suspension allowed).
    guardar(r.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I"))
    guardar(r.decidido(data_infracao=date(2026, 2, 20), multa="6.00", dispositivo="1-I"))
    suspenso = guardar(r.lavrar(dispositivo="1-I", data_infracao=date(2026, 4, 6)))
    r.intimar(suspenso, date(2026, 4, 7))
    r.decidir(suspenso, date(2026, 5, 4), "10.00", suspensao=5)
    r.intimar(suspenso, date(2026, 5, 5), objeto="decisao")
    iniciar_suspensao(uow(), ATORES["secretario"], PedidoSuspensao(auto_id=suspenso, inicio=date(2026, 6, 1)))
    registrar_pagamento(
        uow(),
        ATORES["protocolo"],
        PedidoPagamento(auto_id=suspenso, situacao="pago", data=date(2026, 11, 10), guia="2026/778"),
    )

    arquivado = guardar(r.lavrar(dispositivo="2-III", data_infracao=date(2026, 10, 5)))
    r.intimar(arquivado, date(2026, 10, 6))
    r.decidir(arquivado, date(2026, 11, 5), resultado="arquivado")

    multado = guardar(
        r.lavrar(
            data_infracao=date(2026, 11, 3),
            hora_infracao=time(7, 40),
            hora_lavratura=time(8, 15),
            veiculo_id=cidade.veiculo_id,
            linha_id=cidade.linha_id,
            empregado_id=cidade.empregado_id,
            testemunhas=(DadosTestemunha("Ana Paula Souza", "RG 1234567890", "Rua Andrade Neves, 50"),),
            recusou_assinar=True,
            circunstancias="Constatado no ponto final, na presença de usuários.",
        )
    )
    r.intimar(multado, date(2026, 11, 4))
    r.decidir(multado, date(2026, 11, 25), "0.30")
    r.intimar(multado, date(2026, 11, 26), objeto="decisao")

    cancelado = guardar(r.lavrar(data_infracao=date(2026, 11, 10)))
    cancelar_auto(
        uow(),
        ATORES["autoridade"],
        PedidoCancelamento(auto_id=cancelado, motivo="Lavrado contra a operadora errada."),
    )

    aguardando2 = guardar(
        r.lavrar(
            dispositivo="1-VI",
            data_infracao=date(2026, 11, 16),
            operadora_id=cidade.operadora2_id,
            veiculo_id=cidade.veiculo2_id,
        )
    )
    r.intimar(aguardando2, date(2026, 11, 17), resultado="nao_encontrado")

    em_defesa = guardar(
        r.lavrar(dispositivo="1-VI", data_infracao=date(2026, 11, 20), operadora_id=cidade.operadora2_id)
    )
    r.intimar(em_defesa, date(2026, 11, 23))

    aguardando = guardar(r.lavrar(data_infracao=date(2026, 11, 27)))
    return Cenario(
        cidade=cidade,
        roteiro=r,
        suspenso=suspenso,
        multado=multado,
        em_defesa=em_defesa,
        aguardando=aguardando,
        aguardando2=aguardando2,
        arquivado=arquivado,
        cancelado=cancelado,
        numeros=numeros,
    )


MULTA_SUSPENSO = Decimal("10.00")
MULTA_MULTADO = Decimal("0.30")
