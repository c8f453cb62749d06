"""A table of thousands of rows laid out in time proportional to its rows, with the bytes of a plain Table.

ReportLab splits a long `Table` page by page: each split builds the rest of the table as a new Table of all the
remaining rows and re-applies every style command to it (a zebra stripe is one command per row). A table of
N rows over P pages thus costs N × P: the biggest operator's ficha (22,314 autos, ~470 pages) spent most of
its minute and a half there. `TabelaLonga` hands ReportLab a *window* of the rows (the header and the next
page or two of rows), lets ReportLab split that window exactly as it would split the whole table, and
appends further rows to the remainder as the pages go. Every part drawn is the very Table ReportLab would
have drawn (same rows, same heights, same style commands in the same order), so the PDF's bytes do not change
(tests/reports/test_tabela_longa.py compares them with the plain Table).

What a window cannot know about the rows after it is restricted to what this program's tables use: line
commands (GRID, LINEBELOW…) may run to the last row (-1); backgrounds are the header's and single rows
(the zebra); no spans, no NOSPLIT, no split-row commands.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Callable, Sequence
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle
from reportlab.platypus.paragraph import cleanBlockQuotedText, textTransformFrags

__all__ = ["ParagrafoCelula", "TabelaLonga"]

LINHAS_POR_JANELA = 96
"""Rows added to the window at a time: about two pages of the ficha, so a window is extended about once per
page and each split copies a few dozen rows, not thousands."""

_FOLGA = 3
"""Rows the window keeps beyond the first one that does not fit: after ReportLab's split the remainder then
has at least this many rows, so its last row index cannot be mistaken for the small row numbers (0 for the
header, 1 for the first row) that ReportLab's split writes into the commands it re-applies."""


_ESTADO_DO_DESENHO = operator.itemgetter(
    *(nome for nome in Canvas.STATE_ATTRIBUTES if nome not in {"_currentMatrix", "_x", "_y", "_extgstate"})
)
"""The canvas's graphics state a paragraph's operators may depend on: all of it but the position (the
paragraph draws relative to its cell) and the transparency object (compared by its values)."""


_ALINHAMENTOS = frozenset({"LEFT", "RIGHT", "CENTRE", "CENTER"})
"""A cell's horizontal alignments `Table._drawCell` places a flowable by (any other raises there)."""


_MOLDES: dict[int, tuple[ParagraphStyle, Any]] = {}
"""Per paragraph style (by identity; the style is held, so its id is not reused): the parser's fragment of a
one-word paragraph, copied by `ParagrafoCelula.de_texto`."""


class ParagrafoCelula(Paragraph):  # type: ignore[misc]  # ReportLab is untyped
    """A cell's Paragraph that remembers its layout for the width it was last laid out at.

    ReportLab lays a cell out each time the table is measured and again when it is drawn; a Paragraph's
    layout depends on the width only, so the second time costs nothing. The same instance may fill many
    cells of one column (the same words, the same width): it is laid out once.
    """

    _largura_medida: float | None = None
    _desenho: tuple[tuple[object, ...], list[str]] | None = None

    @classmethod
    def de_texto(cls, texto: str, estilo: ParagraphStyle) -> ParagrafoCelula:
        """`ParagrafoCelula(texto, estilo)`, without ReportLab's markup parser where the text has no markup.

        A plain text (no tag, no entity, its spaces already as ReportLab's cleaner leaves them) parses to
        one fragment: the style's fragment for the paragraph, holding the text. That fragment is parsed once
        per style and copied for each text, as the parser copies it; a ficha's unique cells (numbers, dates)
        spent a twelfth of its render in the parser. `tests/reports/test_tabela_longa.py` compares every
        fragment's attributes with the parser's.
        """
        if not texto or "<" in texto or "&" in texto or ">" in texto or cleanBlockQuotedText(texto) != texto:
            return cls(texto, estilo)
        molde = _MOLDES.get(id(estilo))
        if molde is None or molde[0] is not estilo:
            modelo = cls("x", estilo)
            if len(modelo.frags) != 1 or modelo.style is not estilo or modelo.frags[0].text != "x":
                return cls(texto, estilo)  # a style whose paragraph is not one plain fragment: parse
            molde = (estilo, modelo.frags[0])
            _MOLDES[id(estilo)] = molde
        fragmento = copy.copy(molde[1])
        fragmento.text = texto
        fragmentos = [fragmento]
        textTransformFrags(fragmentos, estilo)
        return cls(texto, estilo, frags=fragmentos)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if availWidth == self._largura_medida:
            return self.width, self.height
        medida: tuple[float, float] = super().wrap(availWidth, availHeight)
        self._largura_medida = availWidth
        return medida

    def _chave_do_desenho(self, canv: Canvas) -> tuple[object, ...]:
        return (
            id(canv),
            self._largura_medida,
            _ESTADO_DO_DESENHO(canv.__dict__),
            tuple(sorted(canv._extgstate._d.items())),
        )

    def drawOn(self, canvas: Canvas, x: float, y: float, _sW: float = 0) -> None:
        """A paragraph drawn before from the same state: the operators ReportLab's `drawOn` would write
        (save the state, move to the cell, the paragraph, restore), without replaying the state's save and
        restore in Python — a sixth of the biggest ficha's time went there, once per cell.

        The key is read before the save: saving and moving change only the matrix and the copy of the
        transparency object, which the key leaves out or compares by value (see `_ESTADO_DO_DESENHO`).
        After 'q' the move cannot merge with an earlier 'cm', so it is written as `Canvas.transform` writes
        a fresh one.
        """
        desenho = self._desenho
        if desenho is not None and not _sW and desenho[0] == self._chave_do_desenho(canvas):
            codigo = canvas._code
            codigo.append("q")
            codigo.append(f"{fp_str(1, 0, 0, 1, x, y)} cm")
            codigo.extend(desenho[1])
            codigo.append("Q")
            return
        super().drawOn(canvas, x, y, _sW)

    def draw(self) -> None:
        """Drawn once per file; where it recurs, the same PDF operators are written again.

        A flowable draws in its own coordinates (the cell's position is the `cm` ReportLab writes before
        calling `draw`), so what a paragraph writes depends only on its layout and on the graphics state it
        starts from: both are the key. The fonts' subsets already hold its characters, so nothing else of the
        file changes; the tests compare the bytes with a paragraph drawn in every cell.
        """
        canv = self.canv
        chave = self._chave_do_desenho(canv)
        if self._desenho is not None and self._desenho[0] == chave:
            canv._code.extend(self._desenho[1])
            return
        inicio = len(canv._code)
        super().draw()
        self._desenho = (chave, canv._code[inicio:])

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        self._largura_medida = None  # splitting lays the paragraph out again at another height
        self._desenho = None
        partes: list[Flowable] = super().split(availWidth, availHeight)
        return partes


def _paragrafo_medido(celula: Any, largura: float, estilo: Any) -> ParagrafoCelula | None:
    """The cell's one `ParagrafoCelula` when it is already laid out at the cell's width (as ReportLab
    would ask for it: the width less the padding), else None."""
    if isinstance(celula, (tuple, list)) and len(celula) == 1:
        paragrafo = celula[0]
        if (
            type(paragrafo) is ParagrafoCelula
            and paragrafo._largura_medida == largura - estilo.leftPadding - estilo.rightPadding
        ):
            return paragrafo
    return None


def _altura_na_celula(paragrafo: ParagrafoCelula) -> float:
    """The paragraph's height as `Table._listCellGeom` sums it (the spaces added, then taken off, in its
    order, so the floating-point result is ReportLab's to the last bit)."""
    antes = paragrafo.getSpaceBefore()
    depois = paragrafo.getSpaceAfter()
    total = 0
    total += paragrafo.height + depois + antes
    return float(total - antes - depois)


class _TabelaDeCelulas(Table):  # type: ignore[misc]
    """ReportLab's Table, reading the size of a cell that holds one `ParagrafoCelula` already laid out at
    the cell's width off the paragraph instead of asking it again: the table asks twice per cell (to measure
    the row, to draw it), and each ask cost more in ReportLab's generic path than the answer. The numbers are
    ReportLab's own, added in its order (`Table._listCellGeom`, `Table._drawCell`), so the rows and the bytes
    do not change."""

    def _listCellGeom(
        self,
        V: Any,
        w: float,
        s: Any,
        W: list[float] | None = None,
        H: list[float] | None = None,
        aH: float = 72000,
    ) -> tuple[float, float]:
        paragrafo = _paragrafo_medido(V, w, s)
        if paragrafo is None:
            medida: tuple[float, float] = super()._listCellGeom(V, w, s, W, H, aH)
            return medida
        if W is not None:
            W.append(paragrafo.width)
        if H is not None:
            H.append(paragrafo.height)
        return max(0, paragrafo.width), _altura_na_celula(paragrafo)

    def _drawCell(
        self, cellval: Any, cellstyle: Any, pos: tuple[float, float], size: tuple[float, float]
    ) -> None:
        """A cell holding one such paragraph, placed with `Table._drawCell`'s arithmetic in its order (the
        style switch, the vertical and horizontal alignment, the space before) without its general path's
        lists and calls; any other cell goes to ReportLab."""
        colpos, rowpos = pos
        colwidth, rowheight = size
        just = cellstyle.alignment
        paragrafo = _paragrafo_medido(cellval, colwidth, cellstyle)
        if paragrafo is None or just not in _ALINHAMENTOS or cellstyle.href or cellstyle.destination:
            super()._drawCell(cellval, cellstyle, pos, size)
            return
        atual: Any = self.__dict__["_curcellstyle"]  # set by Table.draw before the first cell
        if atual is not cellstyle:
            if atual is None or cellstyle.color != atual.color:
                self.canv.setFillColor(cellstyle.color)
            if (
                atual is None
                or cellstyle.leading != atual.leading
                or cellstyle.fontname != atual.fontname
                or cellstyle.fontsize != atual.fontsize
            ):
                self.canv.setFont(cellstyle.fontname, cellstyle.fontsize, cellstyle.leading)
            self._curcellstyle = cellstyle
        largura = paragrafo.width
        antes = paragrafo.getSpaceBefore()
        altura_celula = _altura_na_celula(paragrafo)
        valign = cellstyle.valign
        if valign == "TOP":
            y = rowpos + rowheight - cellstyle.topPadding
        elif valign == "BOTTOM":
            y = rowpos + cellstyle.bottomPadding + altura_celula
        else:
            y = rowpos + (rowheight + cellstyle.bottomPadding - cellstyle.topPadding + altura_celula) / 2.0
        y += antes
        if just == "LEFT":
            x = colpos + cellstyle.leftPadding
        elif just == "RIGHT":
            x = colpos + colwidth - cellstyle.rightPadding - largura
        else:
            x = colpos + (colwidth + cellstyle.leftPadding - cellstyle.rightPadding - largura) / 2.0
        y -= antes
        y -= paragrafo.height
        paragrafo.drawOn(self.canv, x, y)


class TabelaLonga(Flowable):  # type: ignore[misc]
    """`Table([cabecalho, *linhas], colWidths=larguras, repeatRows=1)` styled with `estilo` and with
    `fundo_linha(i)` (the background of data row i, or None) — the same pages, drawn by windows of rows."""

    def __init__(
        self,
        cabecalho: Sequence[object],
        linhas: Sequence[Sequence[object]],
        larguras: Sequence[float],
        estilo: Sequence[tuple[Any, ...]],
        fundo_linha: Callable[[int], object | None] = lambda _i: None,
    ) -> None:
        super().__init__()
        self._linhas = linhas
        self._fundo_linha = fundo_linha
        self._proxima = min(len(linhas), LINHAS_POR_JANELA)
        tabela = _TabelaDeCelulas(
            [list(cabecalho), *(list(linha) for linha in linhas[: self._proxima])],
            colWidths=list(larguras),
            repeatRows=1,
        )
        comandos = list(estilo)
        for indice in range(self._proxima):
            fundo = fundo_linha(indice)
            if fundo is not None:
                comandos.append(("BACKGROUND", (0, indice + 1), (-1, indice + 1), fundo))
        tabela.setStyle(TableStyle(comandos))
        self._tabela = tabela

    @classmethod
    def _continuacao(cls, tabela: Table, anterior: TabelaLonga) -> TabelaLonga:
        """The rest of the table after a page: ReportLab's remainder of the window, then the rows not yet in
        it."""
        resto = cls.__new__(cls)
        Flowable.__init__(resto)
        resto._linhas = anterior._linhas
        resto._fundo_linha = anterior._fundo_linha
        resto._proxima = anterior._proxima
        resto._tabela = tabela
        return resto

    # ---- the window ----------------------------------------------------------------------------------
    @property
    def _completa(self) -> bool:
        """Whether the window holds every remaining row (it is then the plain Table's remainder itself)."""
        return self._proxima >= len(self._linhas)

    def _estender(self) -> None:
        """The window with the next rows appended, as the whole table's remainder would hold them."""
        atual = self._tabela
        novas = self._linhas[self._proxima : self._proxima + LINHAS_POR_JANELA]
        ultima = atual._nrows - 1
        nova_ultima = ultima + len(novas)
        if atual._spanCmds or atual._nosplitCmds or atual._srflcmds or atual._sircmds:
            raise ValueError("TabelaLonga: spans, NOSPLIT and split-row commands are not supported")
        modelo = atual._cellStyles[-1]
        tabela = _TabelaDeCelulas(
            [*atual._cellvalues, *(list(linha) for linha in novas)],
            colWidths=atual._colWidths,
            rowHeights=[*atual._argH, *([None] * len(novas))],
            repeatRows=atual.repeatRows,
            splitByRow=atual.splitByRow,
            splitInRow=atual.splitInRow,
            normalizedData=1,
            # A row's cell styles shared by the new rows, as ReportLab's split shares them with its parts:
            # nothing applied after this point changes a cell style (only lines and backgrounds are added).
            cellStyles=[*atual._cellStyles, *(list(modelo) for _ in novas)],
            longTableOptimize=atual._longTableOptimize,
        )
        for comando in atual._linecmds:
            # A line that ran to the window's last row runs to the table's last row (see _FOLGA).
            (coluna_inicio, linha_inicio), (coluna_fim, linha_fim) = comando[1:3]
            if linha_inicio == ultima:
                linha_inicio = nova_ultima
            if linha_fim == ultima:
                linha_fim = nova_ultima
            tabela._addCommand(
                (comando[0], (coluna_inicio, linha_inicio), (coluna_fim, linha_fim), *comando[3:])
            )
        for comando in atual._bkgrndcmds:
            tabela._addCommand(comando)
        for deslocamento in range(len(novas)):
            fundo = self._fundo_linha(self._proxima + deslocamento)
            if fundo is not None:
                linha = ultima + 1 + deslocamento
                tabela._addCommand(("BACKGROUND", (0, linha), (-1, linha), fundo))
        self._tabela = tabela
        self._proxima += len(novas)

    def _preparar(self, largura: float, altura: float) -> tuple[float, float]:
        """Extend the window until it runs at least `_FOLGA` rows past the page; the window's size."""
        canv = getattr(self, "canv", None)
        while True:
            medida: tuple[float, float] = self._tabela.wrapOn(canv, largura, altura)
            # Keep the heights measured: ReportLab measures a table again on each wrap and split (three
            # times a page) and passes the measured heights on to the parts it splits off anyway.
            self._tabela._argH = list(self._tabela._rowHeights)
            if self._completa or self._linhas_alem(altura) >= _FOLGA:
                return medida
            self._estender()

    def _linhas_alem(self, altura: float) -> int:
        """Rows of the window from the first one that does not fit in `altura` on (0 if all fit)."""
        tabela = self._tabela
        usada = 0.0
        for indice, altura_linha in enumerate(tabela._rowHeights[: tabela._hmax]):
            usada += altura_linha
            if usada > altura:
                return int(tabela._nrows - indice)
        return 0

    # ---- the Flowable --------------------------------------------------------------------------------
    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self._preparar(availWidth, availHeight)

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        self._preparar(availWidth, availHeight)
        partes: list[Flowable] = self._tabela.splitOn(getattr(self, "canv", None), availWidth, availHeight)
        if len(partes) != 2 or self._completa:
            return partes
        primeira, resto = partes
        return [primeira, self._continuacao(resto, self)]

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:
        # Only a window holding every remaining row fits a page (see `_preparar`): it is the plain Table.
        self._tabela.drawOn(canvas, x, y, _sW)

    def getSpaceBefore(self) -> float:
        return float(self._tabela.getSpaceBefore())

    def getSpaceAfter(self) -> float:
        return float(self._tabela.getSpaceAfter())
