"""The termo de retificação is signed by the inspector who drew it up — name and matrícula of the inspector
registered for the account — never with the account's own name."""

from __future__ import annotations

import io
from datetime import date
from typing import Any

import sqlalchemy as sa
from pypdf import PdfReader

from secretaria.db import Banco
from secretaria.models import Fiscal, Usuario
from secretaria.services.documentos import emitir_documento, obter_documento
from secretaria.services.retificacoes import PedidoRetificacao, retificar_auto
from tests.helpers.cenario_documentos import preencher_orgao
from tests.helpers.fabrica import ATORES, NOMES

INSPETORA, MATRICULA = "Luciana Mendes Duarte", "70.874-0"


def _termo(banco: Banco, roteiro: Any) -> str:
    preencher_orgao(banco)
    r = roteiro.lavrar(dispositivo="1-VI", data_infracao=date(2026, 11, 2))
    roteiro.intimar(r.id, date(2026, 11, 3))
    termo = retificar_auto(
        banco.uow(), ATORES["fiscal"], PedidoRetificacao(auto_id=r.id, alteracoes={"local": "Rua Andrade Neves, 1500"},
        motivo="Local escrito com o número errado."),
    )  # fmt: skip
    doc = emitir_documento(banco.uow(), ATORES["fiscal"], tipo="retificacao", retificacao_id=termo.id)
    with banco.leitura() as s:
        pdf = obter_documento(s, doc.id)
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())


def test_termo_assinado_pela_fiscal_da_conta_com_matricula(banco: Banco, roteiro: Any) -> None:
    with banco.uow() as uow:
        s = uow.session
        conta = Usuario(login="fiscal", nome=NOMES["fiscal"], senha_hash="x", alterado_por="teste")
        s.add(conta)
        s.flush()
        s.execute(
            sa.update(Fiscal)
            .where(Fiscal.id == roteiro.cidade.fiscal_id)
            .values(nome=INSPETORA, matricula=MATRICULA, usuario_id=conta.id)
        )
        uow.commit()
    texto = _termo(banco, roteiro)
    assert f"{INSPETORA} Fiscal da SMSU – matrícula {MATRICULA}" in texto
    assert NOMES["fiscal"] not in texto  # the account's name


def test_conta_sem_fiscal_deixa_a_matricula_para_preencher(banco: Banco, roteiro: Any) -> None:
    texto = _termo(banco, roteiro)
    assert f"{NOMES['fiscal']} Fiscal da SMSU – matrícula: ____________" in texto
