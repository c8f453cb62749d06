"""The annual report's pages: no section heading left alone at the foot of a page, whatever the number of
operator rows pushes it to; a long table repeats its header on every page it runs over."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

from pypdf import PdfReader

from secretaria.reports.relatorio_anual import (
    DadosAnuais,
    DispositivoAnual,
    LinhaAnual,
    MesAnual,
    gerar_pdf_anual,
)
from tests.helpers.amostras_documentos import TIMBRE

SECOES = {
    # heading → a text of its table's header and of its first row, which must share the heading's page
    "Por operadora e tipo": ("Arquivados", "Operadora 00"),
    "Por mês": ("Multas aplicadas (R$)", "jan/26"),
    "Os dispositivos mais citados": ("Dispositivo", "Art. 1º, I"),
}


def _dados(operadoras: int) -> DadosAnuais:
    linhas = tuple(
        LinhaAnual(f"Operadora {i:02d}", tipo, 10 + i, 8, 1, Decimal("1234.56"), 0, 0)
        for i in range(operadoras)
        for tipo in "AB"
    )
    meses = tuple(
        MesAnual(date(2026, m, 1), 50 + m, Decimal("9876.54"), Decimal("5432.10"), Decimal("100.00"))
        for m in range(1, 13)
    )
    dispositivos = tuple(
        DispositivoAnual(f"Art. 1º, {r}", "A", 40 - k) for k, r in enumerate(("I", "II", "III"))
    )
    return DadosAnuais(2026, TIMBRE, date(2026, 12, 1), linhas, meses, dispositivos, ())


def test_nenhum_titulo_de_secao_fica_sozinho_no_pe_da_pagina() -> None:
    for operadoras in range(8, 40):
        leitor = PdfReader(io.BytesIO(gerar_pdf_anual(_dados(operadoras))))
        paginas = [p.extract_text() for p in leitor.pages]
        for secao, (cabecalho, primeira) in SECOES.items():
            (pagina,) = [t for t in paginas if secao in t]
            assert cabecalho in pagina and primeira in pagina, (operadoras, secao)


def test_tabela_longa_repete_o_cabecalho_em_cada_pagina() -> None:
    leitor = PdfReader(io.BytesIO(gerar_pdf_anual(_dados(45))))
    paginas = [p.extract_text() for p in leitor.pages]
    com_operadoras = [t for t in paginas if "Operadora 0" in t or "Operadora 4" in t]
    assert len(com_operadoras) >= 2
    for t in com_operadoras:
        assert all(c in t for c in ("Operadora", "Tipo", "Autos", "Arquivados", "Suspensões", "suspensão"))
