""" "Exportar para Excel": the rows a list shows (its filter and order), streamed into an .xlsx file by
`reports.planilha.gravar_lista` (the program's one xlsx writer: user text never becomes a formula).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QProgressDialog, QWidget

from secretaria.reports import planilha
from secretaria.ui.widgets import arquivos, mensagens

FILTRO_XLSX = "Planilhas do Excel (*.xlsx)"
_LIMITE_SEM_PROGRESSO = 2_000


def nome_arquivo(titulo: str) -> str:
    """ "Autos de infração" → "Autos de infração 2026-11-30.xlsx" (today's date keeps exports apart); a "/"
    of the title ("nº 0732/2026") becomes "-", as in every suggested name (`arquivos.nome_de_arquivo`)."""
    from secretaria import relogio

    return arquivos.nome_de_arquivo(f"{titulo.strip() or 'Lista'} {relogio.hoje():%Y-%m-%d}", ".xlsx")


def exportar_para_excel(
    parent: QWidget | None,
    *,
    titulo: str,
    cabecalhos: Sequence[str],
    linhas: Iterable[Sequence[Any]],
    total: int,
    dinheiro: Sequence[bool] = (),
    destino: Path | None = None,
) -> Path | None:
    """Ask where to save (unless `destino` is given), write the rows with a progress dialog when there are
    many, and tell the user where the file went. Returns the path, or None if cancelled or failed.
    `dinheiro[i]` marks column i as amounts in reais (shown "R$ 1.234,50")."""
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

    def avancar(feitas: int) -> bool:
        if progresso is None:
            return True
        progresso.setValue(min(feitas, progresso.maximum()))
        QApplication.processEvents()
        return not progresso.wasCanceled()

    formatos = [
        planilha.FORMATO_REAIS if i < len(dinheiro) and dinheiro[i] else None for i in range(len(cabecalhos))
    ]
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        gravadas = planilha.gravar_lista(
            destino, titulo, cabecalhos, linhas, formatos=formatos, progresso=avancar
        )
    except planilha.ExportacaoCancelada:
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
