"""Layout of what is printed: the delivery list's declaration never stands alone on a page,
counts carry the thousands separator, and the "Gráficos" sheets print landscape, fitted to the width, one
table and its chart per page."""

from __future__ import annotations

import io
import re
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from secretaria.reports.intimacao import LoteIntimacoesPdf
from secretaria.reports.planilha_mensal import ABA_GRAFICOS, gerar_planilha_mensal
from secretaria.reports.relatorio_anual import (
    DadosAnuais,
    DispositivoAnual,
    LinhaAnual,
    MesAnual,
    gerar_planilha_anual,
)
from tests.helpers.amostras_documentos import TIMBRE, lote, mensal


class _SoRelacao(LoteIntimacoesPdf):
    """The batch's delivery list alone: its pages are what is checked, the notices before it are not."""

    def historia(self, dados: Any) -> list[Any]:
        return self.relacao(dados)


def _paginas(pdf: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages]


@pytest.mark.parametrize("quantidade", [1, 13, 14, 15, 16, 17, 20, 31])
def test_declaracao_da_relacao_de_entrega_fica_com_as_ultimas_linhas(quantidade: int) -> None:
    paginas = _paginas(_SoRelacao().render(lote(quantidade)))
    com_declaracao = [p for p in paginas if "Declaro que entreguei as intimações acima" in p]
    assert len(com_declaracao) == 1 and com_declaracao[0] is paginas[-1]
    ultima = paginas[-1]
    # The last notice's row is on the declaration's page, under the repeated header.
    assert re.search(rf"\b{quantidade} {quantidade:04d}/2026\b", ultima)
    assert "Recebido por" in ultima and "Responsável pela entrega" in ultima
    for numero in range(1, quantidade + 1):  # every row printed once
        assert sum(f" {numero:04d}/2026 " in f" {p} " for p in paginas) == 1


def test_quantidade_de_intimacoes_com_separador_de_milhar() -> None:
    primeira = _paginas(_SoRelacao().render(lote(1000)))[0]
    assert "1.000 intimações" in primeira and "1000 intimações" not in primeira


def _conferir_impressao_dos_graficos(aba: Any, tabelas: int) -> None:
    """Landscape A4 fitted to one page wide; a row break after each table-and-chart block, each chart
    anchored at its block's first row, and the print area over all of them."""
    assert aba.page_setup.orientation == "landscape" and aba.page_setup.paperSize == 9
    assert aba.page_setup.fitToWidth == 1 and aba.page_setup.fitToHeight == 0
    assert aba.sheet_properties.pageSetUpPr.fitToPage is True
    quebras = [b.id for b in aba.row_breaks.brk]
    assert len(quebras) == tabelas - 1
    inicios = [0, *quebras]  # 0-based first row of each block (a break after row n starts block n + 1)
    graficos = aba._charts
    assert len(graficos) == tabelas
    assert sorted(g.anchor._from.row for g in graficos) == inicios
    por_linha = sorted(graficos, key=lambda g: g.anchor._from.row)
    for g, inicio, fim in zip(por_linha, inicios, [*quebras, None], strict=True):
        # A chart of 7,5 cm is about 15 rows of 15 pt: it ends before the next break.
        assert g.height <= 7.5
        if fim is not None:
            assert fim - inicio >= 15
        assert g.anchor._from.col == 3  # column D, beside its table
    assert aba.print_area is not None and "$A$1:$M$" in aba.print_area


def test_abas_de_graficos_com_configuracao_de_impressao(tmp_path: Any) -> None:
    gerar_planilha_mensal(mensal(300), tmp_path / "mes.xlsx")
    _conferir_impressao_dos_graficos(load_workbook(tmp_path / "mes.xlsx")[ABA_GRAFICOS], 4)

    linhas = (LinhaAnual("Operadora", "A", 10, 6, 2, Decimal("123.45"), 1, 5),)
    meses = tuple(MesAnual(date(2026, m, 1), m, Decimal(m), Decimal(0), Decimal(0)) for m in range(1, 13))
    dispositivos = tuple(DispositivoAnual(f"Art. 1º, {k}", "A", 20 - k) for k in range(1, 15))
    dados = DadosAnuais(2026, TIMBRE, date(2026, 12, 1), linhas, meses, dispositivos, ())
    gerar_planilha_anual(dados, tmp_path / "ano.xlsx")
    livro = load_workbook(tmp_path / "ano.xlsx")
    _conferir_impressao_dos_graficos(livro["Gráficos"], 3)
    # All fourteen provisions in the sheet, so its total is every auto's; the chart reads the ten first.
    assert livro["Dispositivos"].max_row == 1 + 14 + 1
    graficos = livro["Gráficos"]
    assert (
        graficos.cell(3, 1).value.date() == date(2026, 1, 1) and graficos.cell(3, 1).number_format == "mmm/yy"
    )
