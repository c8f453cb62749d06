"""A case that went through everything, for the complete case file (cópia integral do processo).

Drawn up 01/09/2026 with a photo and a scanned PDF attached, its auto issued, intimated, the intimação issued,
a defence, the authority's proposal, the decision (issued and intimated), an appeal granted in part and the
fine paid. "Today" is 30/11/2026. Plain module: tests call `montar(banco, monkeypatch)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import pytest

from secretaria.db import Banco
from secretaria.services.autos import anexar_evidencia
from secretaria.services.documentos import emitir_documento
from secretaria.services.execucao import PedidoPagamento, registrar_pagamento
from secretaria.services.tramitacao import registrar_defesa
from tests.helpers import arquivos_prova, cenario_documentos, fabrica

ATORES = fabrica.ATORES
HOJE = date(2026, 11, 30)


@dataclass(frozen=True)
class CasoCompleto:
    auto_id: int
    numero: str
    documentos: tuple[int, ...]
    """Ids of the documents issued for the case, in the order they were issued."""


def montar(banco: Banco, monkeypatch: pytest.MonkeyPatch) -> CasoCompleto:
    cidade = fabrica.popular(banco)
    cenario_documentos.preencher_orgao(banco)
    r = fabrica.Roteiro(banco, cidade, monkeypatch, hoje=HOJE)
    resumo = r.lavrar(data_infracao=date(2026, 9, 1))
    auto = int(resumo.id)
    for nome, conteudo in (
        ("foto-onibus.png", arquivos_prova.png(b"f1")),
        ("laudo.pdf", arquivos_prova.pdf(b"l1")),
    ):
        anexar_evidencia(banco.uow(), ATORES["fiscal"], auto_id=auto, nome_arquivo=nome, conteudo=conteudo)
    docs = [emitir_documento(banco.uow(), ATORES["fiscal"], tipo="auto", auto_id=auto).id]
    r.intimar(auto, date(2026, 9, 2))
    docs.append(emitir_documento(banco.uow(), ATORES["protocolo"], tipo="intimacao", auto_id=auto).id)
    registrar_defesa(
        banco.uow(),
        ATORES["protocolo"],
        auto_id=auto,
        protocolada_em=date(2026, 9, 10),
        requerente="Carlos Representante",
        texto="A operadora nega o fato: o veículo fora limpo na garagem às 6h.",
        recibo="Protocolo 2026/555",
    )
    r.decidir(auto, date(2026, 10, 1), "0.40")
    docs.append(emitir_documento(banco.uow(), ATORES["secretario"], tipo="decisao", auto_id=auto).id)
    r.intimar(auto, date(2026, 10, 2), objeto="decisao")
    r.recorrer(auto, date(2026, 10, 10))
    r.julgar(auto, date(2026, 10, 20), "provido_parcialmente", multa_ur_nova=Decimal("0.35"))
    registrar_pagamento(
        banco.uow(),
        ATORES["protocolo"],
        PedidoPagamento(auto_id=auto, situacao="pago", data=date(2026, 11, 10), guia="2026/901"),
    )
    return CasoCompleto(auto, resumo.numero_formatado, tuple(docs))
