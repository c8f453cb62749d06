"""The one xlsx writer (`reports.planilha`), reopened with openpyxl: text that looks like a formula stays text
and is marked so Excel keeps it text when edited, dates are dates, amounts are numbers shown in reais."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from secretaria.reports import planilha

PERIGOSOS = [
    "=SOMA(A1:A9)",
    '=HYPERLINK("http://x","clique")',
    "+55 53 3222-0000",
    "-2+3",
    "@SUM(A1)",
    "\tsegue",
    "\r=1",
]


def _gravar(tmp_path: Path, linhas: Sequence[tuple[object, ...]], **k: Any) -> Path:
    destino = tmp_path / "lista.xlsx"
    n = planilha.gravar_lista(
        destino, "Autos: lista/1", ["Texto", "Data", "Momento", "Valor (R$)"], linhas, **k
    )
    assert n == len(linhas)
    return destino


def test_texto_que_parece_formula_fica_texto(tmp_path: Path) -> None:
    linhas = [(t, None, None, None) for t in PERIGOSOS] + [
        ("Viação Alfa", None, None, None),
        ("#N/A", None, None, None),
    ]
    folha = load_workbook(_gravar(tmp_path, linhas)).active
    celulas = [folha.cell(row=i + 2, column=1) for i in range(len(linhas))]
    for celula, texto in zip(celulas, PERIGOSOS, strict=False):
        assert celula.value == texto and celula.data_type == "s", texto
        assert celula.quotePrefix and celula.style_id != 0, texto
    assert celulas[-2].value == "Viação Alfa" and not celulas[-2].quotePrefix
    assert celulas[-1].value == "#N/A" and celulas[-1].data_type == "s"


def test_datas_valores_e_caracteres_invalidos(tmp_path: Path) -> None:
    linhas: list[tuple[object, ...]] = [
        ("a\x00b\x07c\x1f", date(2026, 11, 30), datetime(2026, 11, 30, 14, 5), Decimal("1234.50")),
        (True, date(2025, 1, 2), None, Decimal("0.1")),
    ]
    destino = _gravar(tmp_path, linhas, formatos=[None, None, None, planilha.FORMATO_REAIS])
    livro = load_workbook(destino)
    folha = livro.active
    assert folha.title == "Autos  lista 1" and folha.freeze_panes == "A2"
    assert [c.value for c in folha[1]] == ["Texto", "Data", "Momento", "Valor (R$)"]
    assert folha["A2"].value == "abc" and folha["A3"].value == "Sim"
    assert folha["B2"].is_date and folha["B2"].value == datetime(2026, 11, 30)
    assert folha["B2"].number_format == "DD/MM/YYYY" and folha["B3"].number_format == "DD/MM/YYYY"
    assert folha["C2"].is_date and folha["C2"].value == datetime(2026, 11, 30, 14, 5)
    assert folha["C2"].number_format == "DD/MM/YYYY HH:MM"
    assert folha["D2"].value == 1234.5 and folha["D2"].number_format == '"R$" #,##0.00'
    assert folha["D3"].value == 0.1 and folha["D3"].number_format == '"R$" #,##0.00'
    assert list(folha.tables) == ["Lista"] and folha.tables["Lista"].ref == "A1:D3"


def test_cancelar_no_meio(tmp_path: Path) -> None:
    linhas = [(f"linha {i}", None, None, None) for i in range(2_000)]
    vistas: list[int] = []

    def progresso(feitas: int) -> bool:
        vistas.append(feitas)
        return feitas < 1_000

    with pytest.raises(planilha.ExportacaoCancelada):
        _gravar(tmp_path, linhas, progresso=progresso)
    assert vistas == [500, 1_000]
