""" "Exportar para Excel": the rows a list shows (its filter and order), streamed into an .xlsx file.

openpyxl is imported only here, when the user exports, so the program starts without it.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QProgressDialog, QWidget

from secretaria.ui.widgets import arquivos, mensagens

FILTRO_XLSX = "Planilhas do Excel (*.xlsx)"
_INVALIDOS_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_LIMITE_SEM_PROGRESSO = 2_000


class ExportacaoCancelada(Exception):
    pass


def nome_arquivo(titulo: str) -> str:
    """ "Autos de infração" → "Autos de infração 2026-11-30.xlsx" (today's date keeps exports apart)."""
    from secretaria import relogio

    limpo = re.sub(r'[\\/:*?"<>|]+', " ", titulo).strip() or "Lista"
    return f"{limpo} {relogio.hoje():%Y-%m-%d}.xlsx"


def gravar_xlsx(
    destino: Path,
    titulo: str,
    cabecalhos: Sequence[str],
    linhas: Iterable[Sequence[Any]],
    *,
    progresso: QProgressDialog | None = None,
) -> int:
    """Write the sheet (a real Excel table with filters, frozen header, pt-BR date and number formats) and
    return the number of data rows. Text beginning with "=" stays text. Raises ExportacaoCancelada when the
    user cancels the progress dialog (the partial file is removed)."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.filters import AutoFilter
    from openpyxl.worksheet.table import Table, TableColumn, TableStyleInfo

    livro = Workbook(write_only=True)
    folha = livro.create_sheet(re.sub(r"[\[\]:*?/\\]", " ", titulo)[:31] or "Lista")
    folha.freeze_panes = "A2"
    larguras = [max(10, min(50, len(c) + 4)) for c in cabecalhos]
    negrito = Font(bold=True, color="FFFFFF")
    fundo = PatternFill("solid", fgColor="305496")

    def celula(valor: Any, indice: int) -> Any:
        c = WriteOnlyCell(folha)
        if isinstance(valor, bool):
            c.value = "Sim" if valor else "Não"
        elif isinstance(valor, datetime):
            c.value = valor
            c.number_format = "DD/MM/YYYY HH:MM"
        elif isinstance(valor, date):
            c.value = valor
            c.number_format = "DD/MM/YYYY"
        elif isinstance(valor, Decimal):
            c.value = float(valor)
            c.number_format = "#,##0.00"
        elif isinstance(valor, int | float):
            c.value = valor
        elif valor is None:
            c.value = None
        else:
            texto = _INVALIDOS_XML.sub("", str(valor))
            c.value = texto
            c.data_type = "s"  # "=SOMA(...)" typed in a record stays text, never a formula
            larguras[indice] = max(larguras[indice], min(60, len(texto) + 2))
        return c

    # Column widths must precede the rows in a write-only sheet: use the header widths, widened below
    # only for the first rows we have already seen (good enough for a list export).
    linhas_iter = iter(linhas)
    primeiras: list[Sequence[Any]] = []
    for linha in linhas_iter:
        primeiras.append(linha)
        if len(primeiras) >= 200:
            break
    celulas_primeiras = [[celula(v, i) for i, v in enumerate(linha)] for linha in primeiras]
    for i, largura in enumerate(larguras, start=1):
        folha.column_dimensions[get_column_letter(i)].width = largura

    cabecalho = []
    for texto in cabecalhos:
        c = WriteOnlyCell(folha, value=texto)
        c.font = negrito
        c.fill = fundo
        c.alignment = Alignment(vertical="center")
        cabecalho.append(c)
    folha.append(cabecalho)
    total = 0
    for celulas in celulas_primeiras:
        folha.append(celulas)
        total += 1
    for linha in linhas_iter:
        folha.append([celula(v, i) for i, v in enumerate(linha)])
        total += 1
        if progresso is not None and total % 500 == 0:
            progresso.setValue(min(total, progresso.maximum()))
            QApplication.processEvents()
            if progresso.wasCanceled():
                raise ExportacaoCancelada
    if cabecalhos:
        ultima = get_column_letter(len(cabecalhos))
        tabela = Table(displayName="Lista", ref=f"A1:{ultima}{max(total, 1) + 1}")
        tabela.tableStyleInfo = TableStyleInfo(name="TableStyleLight9", showRowStripes=True)
        tabela.tableColumns = [
            TableColumn(id=i, name=_nome_unico(cabecalhos, i - 1)) for i in range(1, len(cabecalhos) + 1)
        ]
        tabela.autoFilter = AutoFilter(ref=tabela.ref)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "add table columns manually": we did
            folha.add_table(tabela)
    livro.save(destino)
    return total


def _nome_unico(cabecalhos: Sequence[str], i: int) -> str:
    nome = cabecalhos[i] or f"Coluna {i + 1}"
    anteriores = [c for c in cabecalhos[:i] if c == cabecalhos[i]]
    return f"{nome} {len(anteriores) + 1}" if anteriores else nome


def exportar_para_excel(
    parent: QWidget | None,
    *,
    titulo: str,
    cabecalhos: Sequence[str],
    linhas: Iterable[Sequence[Any]],
    total: int,
    destino: Path | None = None,
) -> Path | None:
    """Ask where to save (unless `destino` is given), write the rows with a progress dialog when there are
    many, and tell the user where the file went. Returns the path, or None if cancelled or failed."""
    if destino is None:
        destino = arquivos.salvar_como(parent, "Exportar para Excel", nome_arquivo(titulo), FILTRO_XLSX)
        if destino is None:
            return None
    progresso: QProgressDialog | None = None
    if total > _LIMITE_SEM_PROGRESSO:
        progresso = QProgressDialog("Gravando a planilha…", "Cancelar", 0, total, parent)
        progresso.setWindowTitle("Exportar para Excel")
        progresso.setWindowModality(Qt.WindowModality.WindowModal)
        progresso.setMinimumDuration(300)
        progresso.setValue(0)
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        gravadas = gravar_xlsx(destino, titulo, cabecalhos, linhas, progresso=progresso)
    except ExportacaoCancelada:
        destino.unlink(missing_ok=True)
        return None
    except OSError as exc:
        mensagens.avisar_erro(
            parent,
            "Exportar para Excel",
            arquivos.texto_falha_gravacao(
                destino, exc, "Se o arquivo estiver aberto no Excel, feche-o e tente de novo."
            ),
        )
        return None
    finally:
        QApplication.restoreOverrideCursor()
        if progresso is not None:
            progresso.close()
            progresso.deleteLater()
    from secretaria.ui.modelo_tabela import formatar_contagem

    mensagens.informar(
        parent,
        "Exportar para Excel",
        f"Planilha gravada em {destino} ({formatar_contagem(gravadas, 'linha', 'linhas')}).",
    )
    return destino
