"""Printing and saving the official PDFs from the window, and the document buttons of a case.

Printing goes through the system print dialog (QPrintDialog on a QPrinter) and paints the PDF's pages on
the printer. Qt cannot read a PDF by itself: the pages are rasterised by QtPdf's QPdfDocument when Qt's
add-ons are installed, or else by pypdfium2 (a dependency of the program, so always there). The page is
rendered at up to 300 dpi (plenty for text on an office printer; 1200 dpi would need half a
gigabyte per page).

The modal dialogs are behind small functions of this module (`escolher_impressora`) and
`arquivos.salvar_como`, which tests patch (pytest-qt's advice).
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PySide6.QtCore import QMarginsF, QRect, QSize, Qt, Signal
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter
from PySide6.QtPrintSupport import QAbstractPrintDialog, QPrintDialog, QPrinter
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QMenu, QMessageBox, QPushButton, QWidget

from secretaria.db import Banco
from secretaria.services.base import Ator, ErroDominio
from secretaria.services.documentos import DocumentoInfo
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.arquivos import nome_de_arquivo as nome_de_arquivo
from secretaria.ui.widgets.tarefas import Progresso, Tarefa, em_segundo_plano

FILTRO_PDF = "Documentos PDF (*.pdf)"
DPI_MAXIMO = 300

IMPRESSO = "impresso"
CANCELADO = "cancelado"


# --- rasterising the PDF ------------------------------------------------------------------------------------


def motor_de_paginas() -> str:
    """Which library turns PDF pages into images here: "qtpdf" (when Qt's add-ons are installed) or
    "pypdfium2"."""
    try:
        from PySide6.QtPdf import QPdfDocument  # noqa: F401  (only in PySide6-Addons)

        return "qtpdf"
    except ImportError:
        return "pypdfium2"


def _pdfium() -> Any:
    """pypdfium2, imported when first needed (untyped: loaded by name so the type checker need not know it)."""
    return importlib.import_module("pypdfium2")


def paginas(conteudo: bytes, dpi: int, *, motor: str | None = None) -> Iterator[QImage]:
    """Each page of the PDF as an image at `dpi`, one at a time (a batch of a thousand notices never sits
    in memory as images)."""
    motor = motor or motor_de_paginas()
    if motor == "qtpdf":
        yield from _paginas_qtpdf(conteudo, dpi)
    else:
        yield from _paginas_pdfium(conteudo, dpi)


def _paginas_qtpdf(conteudo: bytes, dpi: int) -> Iterator[QImage]:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtPdf import QPdfDocument

    buffer = QBuffer()
    buffer.setData(QByteArray(conteudo))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    documento = QPdfDocument()
    documento.load(buffer)
    for indice in range(documento.pageCount()):
        tamanho = documento.pagePointSize(indice)
        pixels = QSize(round(tamanho.width() * dpi / 72), round(tamanho.height() * dpi / 72))
        yield documento.render(indice, pixels)
    documento.close()


def _paginas_pdfium(conteudo: bytes, dpi: int) -> Iterator[QImage]:
    documento = _pdfium().PdfDocument(conteudo)
    try:
        for indice in range(len(documento)):
            pagina = documento[indice]
            bitmap = pagina.render(scale=dpi / 72, rev_byteorder=True)  # RGB, 3 bytes a pixel
            imagem = QImage(
                bytes(bitmap.buffer), bitmap.width, bitmap.height, bitmap.stride, QImage.Format.Format_RGB888
            )
            yield imagem.copy()  # own the pixels: pdfium's buffer goes with the bitmap
            bitmap.close()
            pagina.close()
    finally:
        documento.close()


def contar_paginas(conteudo: bytes) -> int:
    """Pages of the PDF, for the dialog's page range."""
    if motor_de_paginas() == "qtpdf":
        from PySide6.QtCore import QBuffer, QByteArray, QIODevice
        from PySide6.QtPdf import QPdfDocument

        buffer = QBuffer()
        buffer.setData(QByteArray(conteudo))
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        documento_qt = QPdfDocument()
        documento_qt.load(buffer)
        return int(documento_qt.pageCount())
    documento = _pdfium().PdfDocument(conteudo)
    try:
        return len(documento)
    finally:
        documento.close()


def pintar_paginas(
    impressora: QPrinter, conteudo: bytes, *, dpi: int | None = None, progresso: Progresso | None = None
) -> int:
    """Paint the PDF's pages on the printer (the page range chosen in the dialog, if any), each page
    scaled to the paper keeping its proportions. Returns how many pages were sent.

    Runs off the GUI thread (Qt supports a QPainter on a QPrinter in a thread, one painter at a time;
    "Thread-Support in Qt Modules"). `progresso(feitas, total, texto)` before each page: whatever it raises
    (Cancelar) aborts the print job, so the printer gets nothing of it."""
    resolucao = dpi or min(impressora.resolution(), DPI_MAXIMO)
    primeira, ultima = impressora.fromPage(), impressora.toPage()
    total = contar_paginas(conteudo) if progresso is not None else 0
    if total:
        total = (min(ultima, total) if ultima else total) - (primeira - 1 if primeira else 0)
    pintor = QPainter()
    if not pintor.begin(impressora):
        raise OSError("A impressora não aceitou o trabalho de impressão.")
    enviadas = 0
    try:
        for numero, imagem in enumerate(paginas(conteudo, resolucao), start=1):
            if primeira and numero < primeira:
                continue
            if ultima and numero > ultima:
                break
            if progresso is not None:
                progresso(enviadas, total, f"Enviando a página {enviadas + 1} de {total} à impressora…")
            if enviadas:
                impressora.newPage()
            area = pintor.viewport()
            tamanho = imagem.size().scaled(area.size(), Qt.AspectRatioMode.KeepAspectRatio)
            pintor.drawImage(QRect(area.x(), area.y(), tamanho.width(), tamanho.height()), imagem)
            enviadas += 1
    except BaseException:
        impressora.abort()  # nothing of a cancelled or failed job reaches the printer
        raise
    finally:
        if pintor.isActive():
            pintor.end()
    return enviadas


# --- the dialogs (patched in tests) ------------------------------------------------------------------------


# Labels of Qt's own print dialog that qtbase_pt_BR.qm leaves in English (Qt 6.x), by object name.
_ROTULOS_DO_DIALOGO = {"pageSetLabel": "&Conjunto de páginas:"}


def _traduzir_dialogo(dialogo: QPrintDialog) -> None:
    for rotulo in dialogo.findChildren(QLabel):
        traducao = _ROTULOS_DO_DIALOGO.get(rotulo.objectName())
        if traducao is not None:
            rotulo.setText(traducao)


def nova_impressora(titulo: str, *, paisagem: bool = False) -> QPrinter:
    """A printer set up for the documents: A4 (landscape for a wide printed list), the PDF's own margins
    (the page is painted whole)."""
    impressora = QPrinter(QPrinter.PrinterMode.HighResolution)
    # Qt's print dialog proposes "<docName>.pdf" as the output file: no "/" of "nº 0732/2026" in it.
    impressora.setDocName(nome_de_arquivo(titulo, extensao=""))
    impressora.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Landscape if paisagem else QPageLayout.Orientation.Portrait,
            QMarginsF(0, 0, 0, 0),
        )
    )
    impressora.setFullPage(True)
    return impressora


@contextmanager
def _pasta_pessoal_vazia() -> Iterator[None]:
    """Qt's own print dialog (Linux and other Unix; Windows and macOS show the system's) builds a folder
    model of the user's home folder for its output-file field whatever the options, and listing a folder
    drops this process's SQLite locks on any database in it (see `secretaria.ui.seletor_arquivo`). While
    the dialog is built, HOME names an empty folder of the program's own: that is all the model lists."""
    if sys.platform in ("win32", "darwin"):
        yield
        return
    global _pasta_vazia
    if _pasta_vazia is None or not _pasta_vazia.is_dir():
        _pasta_vazia = Path(tempfile.mkdtemp(prefix="secretaria-impressao-"))
    anterior = os.environ.get("HOME")
    os.environ["HOME"] = str(_pasta_vazia)
    try:
        yield
    finally:
        if anterior is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = anterior


_pasta_vazia: Path | None = None


def dialogo_impressao(parent: QWidget | None, impressora: QPrinter, paginas_total: int) -> QPrintDialog:
    """The system print dialog (printer, copies, page range), without its "print to file" choice: that
    field browses folders with a file dialog inside this process, which drops SQLite's locks on the
    database (see `secretaria.ui.seletor_arquivo`); "Salvar PDF…" saves the document instead."""
    with _pasta_pessoal_vazia():
        dialogo = QPrintDialog(impressora, parent)
    dialogo.setOption(QAbstractPrintDialog.PrintDialogOption.PrintToFile, False)
    dialogo.setWindowTitle("Imprimir")
    _traduzir_dialogo(dialogo)
    if paginas_total > 0:
        dialogo.setMinMax(1, paginas_total)
    return dialogo


def escolher_impressora(parent: QWidget | None, impressora: QPrinter, paginas_total: int) -> bool:
    """Run the print dialog; False when the user cancels."""
    return dialogo_impressao(parent, impressora, paginas_total).exec() == QDialog.DialogCode.Accepted


# --- what the screens call ---------------------------------------------------------------------------------


def imprimir_pdf(
    parent: QWidget | None,
    conteudo: bytes,
    titulo: str,
    nome_arquivo: str = "documento.pdf",
    *,
    paisagem: bool = False,
) -> str:
    """Print the PDF through the system print dialog, the pages then painted on the printer off the GUI
    thread with a progress dialog (Cancelar aborts the job). Returns IMPRESSO (the job is under way) or
    CANCELADO."""
    impressora = nova_impressora(titulo, paisagem=paisagem)
    if not escolher_impressora(parent, impressora, contar_paginas(conteudo)):
        return CANCELADO

    def pintar(progresso: Progresso) -> int:
        try:
            return pintar_paginas(impressora, conteudo, progresso=progresso)
        except OSError as exc:
            raise ErroDominio(f"A impressão falhou: {exc}") from exc

    em_segundo_plano(
        parent,
        pintar,
        titulo="Imprimir",
        texto=f"Preparando {titulo} para a impressora…",
        ao_concluir=lambda _enviadas: None,
        ao_falhar=lambda texto: oferecer_pdf(parent, texto, conteudo, nome_arquivo),
        chave=("imprimir", id(impressora)),
    )
    return IMPRESSO


def oferecer_pdf(parent: QWidget | None, falha: str, conteudo: bytes, nome_arquivo: str) -> None:
    """A print that failed (no printer, the printer refused the job): say so and offer the same document
    as a PDF file, to print later or from another computer, instead of leaving the user at a dead end."""

    def terminou(botao: int) -> None:
        if botao == QMessageBox.StandardButton.Save.value:
            destino = salvar_pdf(parent, conteudo, nome_arquivo)
            if destino is not None:
                mensagens.informar(parent, "Salvar PDF", f"Documento gravado em {destino}.")

    caixa = mensagens.caixa_mensagem(
        parent,
        "Imprimir",
        f"{falha}\n\nSe não houver impressora disponível, salve o documento em PDF e imprima-o depois, "
        "ou de outro computador.",
        icone=QMessageBox.Icon.Warning,
        botoes=QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Close,
        padrao=QMessageBox.StandardButton.Save,
        ao_terminar=terminou,
    )
    caixa.button(QMessageBox.StandardButton.Save).setText("&Salvar em PDF…")


def salvar_pdf(
    parent: QWidget | None, conteudo: bytes, nome_sugerido: str, titulo: str = "Salvar PDF"
) -> Path | None:
    """Ask where to save and write the bytes as they are (the issued document, SHA-256 unchanged)."""
    destino = arquivos.salvar_como(parent, titulo, nome_de_arquivo(nome_sugerido), FILTRO_PDF)
    if destino is None:
        return None
    try:
        destino.write_bytes(conteudo)
    except OSError as exc:
        mensagens.avisar_erro(
            parent,
            titulo,
            arquivos.texto_falha_gravacao(
                destino, exc, "Se o arquivo estiver aberto no leitor de PDF, feche-o e tente de novo."
            ),
        )
        return None
    return destino


def emitir_e_ler(
    banco: Banco, ator: Ator, progresso: Progresso | None = None, **pedido: object
) -> tuple[DocumentoInfo, bytes]:
    """Issue the document (or find the same bytes already stored) and read the stored, SHA-checked bytes
    (in a background task: its own units of work)."""
    from secretaria.services.documentos import emitir_documento, obter_documento

    info = emitir_documento(banco.uow(), ator, progresso=progresso, **pedido)  # type: ignore[arg-type]
    with banco.leitura() as sessao:
        return info, obter_documento(sessao, info.id)


def _chave_do_pedido(pedido: dict[str, object]) -> tuple[object, ...]:
    """The record a document is about (an auto, an operator, a period): one issue at a time for it."""
    return (
        "documento",
        pedido.get("tipo"),
        pedido.get("auto_id"),
        pedido.get("operadora_id"),
        pedido.get("periodo"),
        pedido.get("retificacao_id"),
    )


def acoes_documento(
    parent: QWidget | None,
    contexto: Contexto,
    acao: str,
    *,
    ao_concluir: Callable[[DocumentoInfo], None] | None = None,
    **pedido: object,
) -> Tarefa | None:
    """Issue a document off the GUI thread (progress dialog page by page, Cancelar leaves nothing written),
    then print it ("imprimir") or save it ("salvar"); a refusal is shown in a message box.

    `pedido` is what `emitir_documento` takes: tipo= and auto_id= / operadora_id= / periodo= / data_entrega=.
    `ao_concluir(info)` gets the issued document once it is stored. Returns the running task (None when
    the same document is being issued already). The case screen, the auto form and the reports call this.
    """
    titulo = "Imprimir" if acao == "imprimir" else "Salvar PDF"
    banco, ator = contexto.banco, contexto.ator
    if "certificado" not in pedido:
        from secretaria.ui.certificado import certificado_para_emitir

        try:  # signed when this user signs this kind and has a certificate on this PC
            pedido["certificado"] = certificado_para_emitir(parent, contexto, str(pedido.get("tipo")))
        except ErroDominio as erro:
            mensagens.avisar_erro(parent, titulo, erro.mensagem)
            return None

    def emitir(progresso: Progresso) -> tuple[DocumentoInfo, bytes]:
        return emitir_e_ler(banco, ator, progresso, **pedido)

    def emitido(resultado: tuple[DocumentoInfo, bytes]) -> None:
        info, conteudo = resultado
        if ao_concluir is not None:
            ao_concluir(info)
        _entregar(parent, titulo, acao, info, conteudo)

    return em_segundo_plano(
        parent,
        emitir,
        titulo=titulo,
        texto=f"Preparando {_NOMES_DOCUMENTO.get(str(pedido.get('tipo')), 'o documento')}…",
        ao_concluir=emitido,
        chave=_chave_do_pedido(pedido),
    )


_NOMES_DOCUMENTO = {
    "auto": "o auto de infração",
    "intimacao": "a intimação",
    "decisao": "a notificação de decisão",
    "ficha": "a ficha da operadora",
    "lote_intimacoes": "as intimações do período",
    "retificacao": "o termo de retificação",
    "intimacao_termo": "a intimação do termo de retificação",
    "julgamento": "a notificação do julgamento do recurso",
    "processo": "a cópia integral do processo",
}


def _entregar(parent: QWidget | None, titulo: str, acao: str, info: DocumentoInfo, conteudo: bytes) -> None:
    """Print or save an issued document's bytes, and say where they went."""
    if acao == "imprimir":
        imprimir_pdf(parent, conteudo, info.descricao, info.nome_arquivo)
        return
    destino = salvar_pdf(parent, conteudo, info.nome_arquivo)
    if destino is not None:
        mensagens.informar(
            parent,
            titulo,
            f"{info.descricao} {_gravado(info.tipo)} em {destino}.\nSHA-256: {info.sha256}",
        )


def _gravado(tipo: str) -> str:
    """ "gravado" or "gravada", after the document's name ("Ficha da operadora … gravada em …")."""
    return (
        "gravada"
        if tipo in ("intimacao", "decisao", "ficha", "intimacao_termo", "julgamento", "processo")
        else "gravado"
    )


def documento_guardado(
    parent: QWidget | None, contexto: Contexto, documento_id: int, acao: str
) -> DocumentoInfo | None:
    """Print ("imprimir") or save ("salvar") an already issued document from its stored bytes (SHA-256
    re-checked): the list of issued documents on the case screen calls this. Nothing is issued anew."""
    from secretaria.services.documentos import info_documento, obter_documento

    titulo = "Imprimir" if acao == "imprimir" else "Salvar PDF"
    try:
        with contexto.banco.leitura() as sessao:
            info = info_documento(sessao, documento_id)
            conteudo = obter_documento(sessao, documento_id)
    except ErroDominio as erro:
        mensagens.avisar_erro(parent, titulo, erro.mensagem)
        return None
    _entregar(parent, titulo, acao, info, conteudo)
    return info


class BotoesDocumentosCaso(QWidget):
    """The case's documents, each with "Imprimir…" and "Salvar PDF…": the auto, its intimação, the
    decision notice and the complete case file. `mostrar(fase, decidido)` enables what the case allows; `documentoEmitido(id)` tells
    the case screen to reload its list of issued documents.

        botoes = BotoesDocumentosCaso(contexto, auto_id, parent)
        botoes.mostrar(fase=caso.fase, decidido=caso.decisao is not None)
    """

    documentoEmitido = Signal(int)

    DOCUMENTOS: tuple[tuple[str, str], ...] = (
        ("auto", "Auto de infração"),
        ("intimacao", "Intimação"),
        ("intimacao_termo", "Intimação do termo"),
        ("decisao", "Decisão"),
        ("julgamento", "Julgamento do recurso"),
        ("processo", "Cópia integral do processo"),
    )
    """Each document's button; "Intimação do termo" and "Julgamento do recurso" show only once the case
    has a termo of substance or a judged appeal (REGRAS § 5)."""

    def __init__(self, contexto: Contexto, auto_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.auto_id = auto_id
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.botoes: dict[str, QPushButton] = {}
        self.acoes: dict[tuple[str, str], Callable[[], None]] = {}
        for tipo, rotulo in self.DOCUMENTOS:
            botao = QPushButton(f"{rotulo} (PDF)")
            botao.setObjectName(f"documento_{tipo}")
            menu = QMenu(botao)
            for acao, texto in (("imprimir", "Imprimir…"), ("salvar", "Salvar PDF…")):
                funcao = self._acao(tipo, acao)
                menu.addAction(texto, funcao)
                self.acoes[(tipo, acao)] = funcao
            botao.setMenu(menu)
            layout.addWidget(botao)
            self.botoes[tipo] = botao
        layout.addStretch(1)

    def _acao(self, tipo: str, acao: str) -> Callable[[], None]:
        def executar() -> None:
            acoes_documento(
                self, self.contexto, acao, tipo=tipo, auto_id=self.auto_id, ao_concluir=self._emitido
            )

        return executar

    def _emitido(self, info: DocumentoInfo) -> None:
        if info.novo:
            self.documentoEmitido.emit(info.id)

    def mostrar(self, *, fase: str, decidido: bool, retificado: bool = False, julgado: bool = False) -> None:
        """`retificado`: a termo of substance corrected the auto, so the intimação now due is the termo's
        (the auto's earlier one, reissued, is its stored paper); `julgado`: the appeal was judged."""
        cancelado = fase == "cancelado"
        self.botoes["auto"].setEnabled(not cancelado)
        self.botoes["intimacao"].setEnabled(not cancelado and not decidido)
        self.botoes["intimacao_termo"].setVisible(retificado)
        self.botoes["intimacao_termo"].setEnabled(not cancelado and retificado and not decidido)
        self.botoes["decisao"].setEnabled(not cancelado and decidido)
        self.botoes["julgamento"].setVisible(julgado)
        self.botoes["julgamento"].setEnabled(not cancelado and julgado)
        self.botoes["intimacao"].setToolTip(
            "Depois da retificação de substância, reimprime a intimação do auto já emitida (os mesmos "
            "bytes); a intimação a entregar é a do termo."
            if retificado
            else ""
        )
        self.botoes["processo"].setEnabled(True)  # a cancelled case's file is still what a court asks for
        self.botoes["processo"].setToolTip(
            "O processo inteiro num só PDF: capa, índice com o SHA-256 de cada peça, folhas numeradas, "
            "provas anexadas e linha do tempo."
        )
        if cancelado:
            for tipo, botao in self.botoes.items():
                if tipo != "processo":
                    botao.setToolTip("Auto cancelado: os documentos já emitidos continuam na lista abaixo.")
