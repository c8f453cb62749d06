"""The xlsx writer's ready rows (`Aba._xml_da_linha`) give the very workbook openpyxl's own cell path gives:
every part of the file the same bytes (but the creation time), so the same values, types and formats."""

from __future__ import annotations

import io
import math
import zipfile
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from openpyxl import load_workbook

from secretaria.reports import planilha
from secretaria.reports.planilha import FORMATO_REAIS, Formula, gravar_lista
from secretaria.reports.planilha_mensal import gerar_planilha_mensal
from tests.helpers.amostras_documentos import PERIGOSA, mensal

PROPRIEDADES = "docProps/core.xml"  # holds the time the file was written


def _pelo_openpyxl(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every row through openpyxl's cells, on openpyxl's own write-only sheet and its own file writer."""
    monkeypatch.setattr(planilha.Aba, "_xml_da_linha", lambda _self, _valores, _linha: None)
    monkeypatch.setattr(planilha, "_folha_rapida", lambda livro, titulo: livro.create_sheet(titulo))


def _partes(conteudo: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(conteudo)) as z:
        return {n: z.read(n) for n in z.namelist() if n != PROPRIEDADES}


def _celulas(conteudo: bytes) -> dict[tuple[str, str], tuple[Any, str, str, bool]]:
    livro = load_workbook(io.BytesIO(conteudo))
    return {
        (aba.title, c.coordinate): (c.value, c.data_type, c.number_format, bool(c.quotePrefix))
        for aba in livro.worksheets
        for linha in aba.iter_rows()
        for c in linha
    }


def _mensal() -> bytes:
    saida = io.BytesIO()
    gerar_planilha_mensal(mensal(400), saida)
    return saida.getvalue()


def test_planilha_mensal_mesmos_bytes_pelas_linhas_prontas(monkeypatch: pytest.MonkeyPatch) -> None:
    chamadas: list[bool] = []
    original = planilha.Aba._xml_da_linha

    def contando(self: planilha.Aba, valores: Any, linha: int) -> str | None:
        xml = original(self, valores, linha)
        chamadas.append(xml is not None)
        return xml

    monkeypatch.setattr(planilha.Aba, "_xml_da_linha", contando)
    rapida = _mensal()
    assert sum(chamadas) > 0.9 * len(chamadas)  # almost every row went the fast way
    assert not all(chamadas)  # and the hostile first auto went openpyxl's
    _pelo_openpyxl(monkeypatch)
    lenta = _mensal()
    assert _partes(rapida) == _partes(lenta)
    celulas = _celulas(rapida)
    assert celulas == _celulas(lenta)
    assert ("Autos", "D2") in celulas and celulas["Autos", "D2"][0] == PERIGOSA


LINHAS_VARIADAS: list[tuple[Any, ...]] = [
    ("texto", 1, 2.5, Decimal("1234.56"), date(2026, 11, 30), datetime(2026, 11, 30, 14, 5), True, None),
    (
        "  com espaços ",
        -7,
        1e20,
        Decimal("0.10"),
        date(1900, 2, 1),
        datetime(2026, 1, 1, tzinfo=UTC),
        False,
        "x",
    ),
    (
        "á & <b> \r\n\t fim 😀\u00a0\u2028",
        10**17,
        1 / 3,
        Decimal("-5"),
        date(2000, 2, 29),
        datetime(1999, 12, 31, 23, 59),
        None,
        3,
    ),
    ("=SOMA(A1)", 0, 0.0, Decimal("1E+3"), None, None, None, None),
    ("#N/A", None, math.nan, Decimal("NaN"), None, None, None, None),
    ("", None, math.inf, None, None, None, None, None),
    ("sem\x07controle", None, None, None, None, None, None, Formula("=1+1")),
    (None, None, None, None, None, None, None, None),
    ("x" * 40_000, 3, 4.0, Decimal("2.5"), date(2026, 1, 1), datetime(2026, 1, 1), True, "fim"),
]


def _lista() -> bytes:
    saida = io.BytesIO()
    cabecalhos = ["Texto", "Inteiro", "Real", "Decimal", "Data", "Data e hora", "Sim/não", "Misto"]
    formatos = [None, None, None, FORMATO_REAIS, None, None, None, None]
    gravar_lista(saida, "Variadas", cabecalhos, LINHAS_VARIADAS * 3, formatos=formatos)
    return saida.getvalue()


def test_lista_de_valores_de_todo_tipo_mesmos_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    rapida = _lista()
    _pelo_openpyxl(monkeypatch)
    lenta = _lista()
    assert _partes(rapida) == _partes(lenta)
    assert _celulas(rapida) == _celulas(lenta)
