"""The spreadsheets of the import: the template of each kind ("Baixar modelo") and the rejected rows, to
fix and import again. Plain data in, `.xlsx` bytes out; openpyxl is imported inside the functions."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from secretaria.reports.planilha import gravar_lista, largura_do_titulo, letra, nome_de_aba

__all__ = ["ColunaModelo", "planilha_modelo", "planilha_recusadas"]

TITULO_MOTIVO = "Motivo da recusa"
_LINHAS_VALIDADAS = 5_000


@dataclass(frozen=True)
class ColunaModelo:
    titulo: str
    obrigatoria: bool
    exemplo: str
    nota: str
    opcoes: tuple[str, ...] = ()
    """The labels a validation list offers (empty: free text)."""
    sinonimos: tuple[str, ...] = ()


def planilha_recusadas(cabecalhos: Sequence[str], linhas: Sequence[tuple[int, Sequence[str], str]]) -> bytes:
    """The refused rows as the file had them (its headers, its text), the reason in a last column, and the
    original row number before it — import the corrected file again and the reason column is ignored."""
    saida = io.BytesIO()
    gravar_lista(
        saida,
        "Linhas recusadas",
        [*cabecalhos, "Linha do arquivo original", TITULO_MOTIVO],
        [[*valores, numero, motivo] for numero, valores, motivo in linhas],
    )
    return saida.getvalue()


def planilha_modelo(titulo: str, colunas: Sequence[ColunaModelo], observacoes: Sequence[str]) -> bytes:
    """A template: the sheet "Dados" with the headers and one example row (validation lists where a column
    takes a choice), and a sheet "Notas" explaining each column in Portuguese."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.worksheet.datavalidation import DataValidation

    livro = Workbook()
    livro.properties.title = f"Modelo de importação — {titulo}"
    livro.properties.creator = "Secretaria – SMSU Pelotas"
    dados = livro.active
    assert dados is not None
    dados.title = "Dados"
    negrito = Font(bold=True)
    cinza = PatternFill("solid", fgColor="DDEBF7")
    for j, coluna in enumerate(colunas, start=1):
        celula = dados.cell(row=1, column=j, value=coluna.titulo)
        celula.font = negrito
        celula.fill = cinza
        exemplo = dados.cell(row=2, column=j, value=coluna.exemplo or None)
        exemplo.number_format = "@"  # the example stays text: "00123456789" keeps its zeros
        dados.column_dimensions[letra(j)].width = max(
            largura_do_titulo(coluna.titulo), min(40.0, len(coluna.exemplo) + 4.0), 12.0
        )
        if coluna.opcoes:
            lista = ",".join(coluna.opcoes)
            validacao = DataValidation(
                type="list",
                formula1=f'"{lista}"',
                allow_blank=True,
                showErrorMessage=True,
                errorTitle=coluna.titulo,
                error=f"Escolha: {', '.join(coluna.opcoes)}.",
            )
            validacao.add(f"{letra(j)}2:{letra(j)}{_LINHAS_VALIDADAS}")
            dados.add_data_validation(validacao)
    dados.freeze_panes = "A2"

    notas = livro.create_sheet(nome_de_aba("Notas"))
    notas.append([f"Modelo de importação — {titulo}"])
    notas["A1"].font = Font(bold=True, size=13)
    for texto in observacoes:
        notas.append([texto])
    notas.append([])
    notas.append(["Coluna", "Obrigatória", "Exemplo", "O que informar", "Outros títulos aceitos"])
    cabecalho = notas.max_row
    for celula in notas[cabecalho]:
        celula.font = negrito
        celula.fill = cinza
    for coluna in colunas:
        opcoes = f" Opções: {', '.join(coluna.opcoes)}." if coluna.opcoes else ""
        notas.append(
            [
                coluna.titulo,
                "Sim" if coluna.obrigatoria else "Não",
                coluna.exemplo,
                (coluna.nota + opcoes).strip(),
                ", ".join(coluna.sinonimos),
            ]
        )
    for letra_coluna, largura in zip("ABCDE", (32, 12, 22, 70, 50), strict=True):
        notas.column_dimensions[letra_coluna].width = largura
    for linha in notas.iter_rows(min_row=cabecalho + 1):
        for celula in linha:
            celula.alignment = Alignment(wrap_text=True, vertical="top")
    saida = io.BytesIO()
    livro.save(saida)
    return saida.getvalue()
