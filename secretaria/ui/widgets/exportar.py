""" "Exportar para Excel": the rows a list shows (its filter and order), streamed into an .xlsx file by
`reports.planilha.gravar_lista` (the program's one xlsx writer: user text never becomes a formula).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QWidget

from secretaria.reports import planilha
from secretaria.services.base import Cancelado, ErroDominio
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.tarefas import Progresso, Tarefa, em_segundo_plano

FILTRO_XLSX = "Planilhas do Excel (*.xlsx)"


def nome_arquivo(titulo: str) -> str:
    """ "Autos de infração" → "Autos de infração 2026-11-30.xlsx" (today's date keeps exports apart); a "/"
    of the title ("nº 0732/2026") becomes "-", as in every suggested name (`arquivos.nome_de_arquivo`)."""
    from secretaria import relogio

    return arquivos.nome_de_arquivo(f"{titulo.strip() or 'Lista'} {relogio.hoje():%Y-%m-%d}", ".xlsx")


def exportar_para_excel(
    parent: QWidget,
    *,
    titulo: str,
    cabecalhos: Sequence[str],
    linhas: Iterable[Sequence[Any]],
    total: int,
    dinheiro: Sequence[bool] = (),
    destino: Path | None = None,
    ao_concluir: Callable[[Path], None] | None = None,
) -> Tarefa | None:
    """Ask where to save (unless `destino` is given), then read and write the rows off the GUI thread with a
    progress dialog ("Gravando a linha 5.000 de 15.000…", Cancelar removes the partial file), and tell the user
    where the file went (then `ao_concluir(caminho)`). Returns the running task, or None if no file was
    chosen. `dinheiro[i]` marks column i as amounts in reais (shown "R$ 1.234,50")."""
    if destino is None:
        destino = arquivos.salvar_como(parent, "Exportar para Excel", nome_arquivo(titulo), FILTRO_XLSX)
        if destino is None:
            return None
    arquivo = destino
    formatos = [
        planilha.FORMATO_REAIS if i < len(dinheiro) and dinheiro[i] else None for i in range(len(cabecalhos))
    ]

    def gravar(progresso: Progresso) -> int:
        def avancar(feitas: int) -> bool:
            try:
                progresso(
                    min(feitas, total),
                    total,
                    f"Gravando a linha {formatar_numero(feitas)} de {formatar_numero(total)}…",
                )
            except Cancelado:
                return False  # gravar_lista closes the sheet's temporary file, then ExportacaoCancelada
            return True

        try:
            return planilha.gravar_lista(
                arquivo, titulo, cabecalhos, linhas, formatos=formatos, progresso=avancar
            )
        except planilha.ExportacaoCancelada:
            arquivo.unlink(missing_ok=True)
            raise Cancelado() from None
        except OSError as exc:
            arquivo.unlink(missing_ok=True)
            raise ErroDominio(
                arquivos.texto_falha_gravacao(
                    arquivo, exc, "Se o arquivo estiver aberto no Excel, feche-o e tente de novo."
                )
            ) from exc
        except BaseException:
            arquivo.unlink(missing_ok=True)  # whatever broke: no half-written spreadsheet
            raise

    def gravada(gravadas: int) -> None:
        from secretaria.ui.modelo_tabela import formatar_contagem

        mensagens.informar(
            parent,
            "Exportar para Excel",
            f"Planilha gravada em {arquivo} ({formatar_contagem(gravadas, 'linha', 'linhas')}).",
        )
        if ao_concluir is not None:
            ao_concluir(arquivo)

    return em_segundo_plano(
        parent,
        gravar,
        titulo="Exportar para Excel",
        texto="Lendo as linhas da lista…",
        ao_concluir=gravada,
        chave=("exportar", str(arquivo)),
    )


def formatar_numero(valor: int) -> str:
    """15000 → "15.000"."""
    return f"{valor:,}".replace(",", ".")
