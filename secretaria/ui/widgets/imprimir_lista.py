""" "Imprimir lista…" (Ctrl+P) and "Salvar lista em PDF…" of every list screen: every row the list matches (read
again from the database with the screen's filters and order, not only the rows the lazy table loaded), its
visible columns in their on-screen order and formatted as on screen, the filters in the heading, on the
órgão's letterhead (`reports.lista_impressa`). The reading and the PDF are made in a `Tarefa` with a
progress dialog (Cancelar stops it); the PDF then goes through the program's print path (`ui.impressao`).

    instalar_impressao(pagina, pagina.tabela, contexto, dados=lambda: pedido)   # Ctrl+P and the menu
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy.orm as so
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QTableView, QWidget

from secretaria import relogio
from secretaria.ui.contexto import Contexto
from secretaria.ui.modelo_tabela import ColunaTabela, formatar_celula
from secretaria.ui.widgets import mensagens
from secretaria.ui.widgets.tarefas import Progresso, Tarefa, dialogo_progresso

__all__ = [
    "PedidoImpressao",
    "descrever_filtros",
    "imprimir_lista",
    "instalar_impressao",
]

ObterLinhas = Callable[[so.Session, Progresso], Iterable[Sequence[Any]]]
"""(read session, progress) → the rows' values in the model's column order (no id)."""


@dataclass(frozen=True)
class PedidoImpressao:
    """What a list screen hands to print: its title, the filters in effect (name, value), the columns of the
    model, which of them are shown and in what order (`indices`), and how to read every matching row."""

    titulo: str
    filtros: tuple[tuple[str, str], ...]
    colunas: tuple[ColunaTabela, ...]
    indices: tuple[int, ...]
    obter: ObterLinhas


def descrever_filtros(
    combos: Iterable[tuple[str, QComboBox]],
    periodo: tuple[str, Any, Any] | None,
    busca: str,
) -> tuple[tuple[str, str], ...]:
    """The filters in effect as the printed heading names them: each combo that is not on its "Todas"
    choice (data None), the period "de dd/mm/aaaa até dd/mm/aaaa", and the search last."""
    filtros: list[tuple[str, str]] = []
    for nome, combo in combos:
        if combo.currentData() is not None:
            filtros.append((nome, combo.currentText()))
    if periodo is not None:
        nome, desde, ate = periodo
        partes = []
        if desde is not None:
            partes.append(f"de {formatar_celula(desde)}")
        if ate is not None:
            partes.append(f"até {formatar_celula(ate)}")
        if partes:
            filtros.append((nome, " ".join(partes)))
    if busca.strip():
        filtros.append(("Busca", f"“{busca.strip()}”"))
    return tuple(filtros)


def _texto(coluna: ColunaTabela, valor: Any) -> str:
    return coluna.formatar(valor) if coluna.formatar else formatar_celula(valor)


def _alinhamento(coluna: ColunaTabela) -> str:
    return coluna.alinhamento or "esquerda"


def montar_pdf(contexto: Contexto, pedido: PedidoImpressao, progresso: Progresso) -> tuple[bytes, bool]:
    """Read every row and render the PDF (runs in the task's thread): (bytes, landscape)."""
    from secretaria.reports.lista_impressa import DadosListaImpressa, gerar_lista_impressa
    from secretaria.services import impressao_listas

    colunas = [pedido.colunas[i] for i in pedido.indices]
    with contexto.banco.leitura() as sessao:
        valores = list(pedido.obter(sessao, progresso))
        timbre = impressao_listas.timbre(sessao)
    progresso(len(valores), len(valores), "Montando o PDF…")
    linhas = tuple(
        tuple(
            _texto(c, linha[i] if i < len(linha) else None)
            for c, i in zip(colunas, pedido.indices, strict=True)
        )
        for linha in valores
    )
    dados = DadosListaImpressa(
        timbre=timbre,
        titulo=pedido.titulo,
        filtros=pedido.filtros,
        colunas=tuple(c.titulo for c in colunas),
        alinhamentos=tuple(_alinhamento(c) for c in colunas),  # type: ignore[misc]
        linhas=linhas,
        emitida_em=relogio.agora().replace(second=0, microsecond=0),
        emitida_por=contexto.ator.nome,
    )
    return gerar_lista_impressa(dados)


def imprimir_lista(
    parent: QWidget, contexto: Contexto, pedido: PedidoImpressao, acao: str = "imprimir"
) -> Tarefa:
    """Build the list's PDF in the background, then print it ("imprimir": the print dialog) or save it
    ("salvar": where to save). Returns the started task (tests wait on it)."""
    from secretaria.ui import impressao

    titulo = "Imprimir lista" if acao == "imprimir" else "Salvar lista em PDF"
    nome = impressao.nome_de_arquivo(f"{pedido.titulo} {relogio.hoje():%Y-%m-%d}")
    tarefa = Tarefa(lambda progresso: montar_pdf(contexto, pedido, progresso), parent=parent)

    def pronto(resultado: object) -> None:
        assert isinstance(resultado, tuple)
        conteudo: bytes = resultado[0]
        paisagem: bool = resultado[1]
        if acao == "imprimir":
            impressao.imprimir_pdf(parent, conteudo, pedido.titulo, nome, paisagem=paisagem)
            return
        destino = impressao.salvar_pdf(parent, conteudo, nome, titulo)
        if destino is not None:
            mensagens.informar(parent, titulo, f"Lista gravada em {destino}.")

    tarefa.concluida.connect(pronto)
    tarefa.falhou.connect(lambda texto: mensagens.avisar_erro(parent, titulo, texto))
    tarefa.iniciar(dialogo_progresso(parent, titulo, "Lendo as linhas da lista…", cancelavel=True))
    return tarefa


def instalar_impressao(
    pagina: QWidget, tabela: QTableView, contexto: Contexto, pedido: Callable[[], PedidoImpressao | None]
) -> tuple[QAction, QAction]:
    """Ctrl+P ("Imprimir lista…") on the whole page and "Salvar lista em PDF…", both also in the table's
    context menu. `pedido()` is read when the user asks (the filters of that moment)."""

    def executar(acao: str) -> None:
        atual = pedido()
        if atual is not None:
            imprimir_lista(pagina, contexto, atual, acao)  # the task keeps itself alive until it ends

    imprimir = QAction("&Imprimir lista…", pagina)
    imprimir.setShortcut(QKeySequence(QKeySequence.StandardKey.Print))
    imprimir.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    imprimir.triggered.connect(lambda: executar("imprimir"))
    salvar = QAction("&Salvar lista em PDF…", pagina)
    salvar.triggered.connect(lambda: executar("salvar"))
    pagina.addAction(imprimir)
    tabela.addAction(imprimir)
    tabela.addAction(salvar)
    tabela.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    return imprimir, salvar
