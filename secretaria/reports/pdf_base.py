"""What every official PDF shares: A4 page, letterhead, numbered footer, styles, reproducible bytes.

Modelled on pretix's invoice renderer: one class per document, layout constants as class attributes, a named
stylesheet, "Página X de Y" drawn in a second pass, output to bytes. Three choices matter beyond looks:

- Reproducible output. An issued document is stored with its SHA-256 and a re-print must give the same
  bytes (PRODUTO § 9), so the PDF's dates are the document's own date and its /ID is a hash of the data —
  nothing depends on the clock or the environment (ReportLab's `invariant` mode alone still reads
  SOURCE_DATE_EPOCH).
- Speed. The letterhead is drawn once per file as a form XObject and placed on every page, so a batch of a
  thousand notices does not repeat (or re-encode) its drawing a thousand times.
- Safety. User text is escaped before it reaches ReportLab's paragraph markup: an operator called
  "A & B <Ltda>" prints as typed.
"""

from __future__ import annotations

import functools
import hashlib
import io
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, time
from time import monotonic
from typing import Any, ClassVar, Generic, TypeVar
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, StyleSheet1
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.tables import CellStyle

from secretaria.coleta import sem_coleta_completa
from secretaria.reports.dados import Timbre
from secretaria.reports.fontes import (
    FONTE,
    FONTE_ITALICO,
    FONTE_NEGRITO,
    imprimivel,
    registrar_fontes,
)
from secretaria.reports.formato import data_por_extenso, limpar_texto

__all__ = [
    "FONTE",
    "FONTE_ITALICO",
    "FONTE_NEGRITO",
    "BlocoFixo",
    "Campos",
    "DocumentoPdf",
    "MarcaPagina",
    "estilos",
    "texto",
]

Progresso = Callable[[int, int, str], None]
"""`progresso(feitos, total, texto)`: how far a long rendering has gone, for a progress bar."""

D = TypeVar("D")

COR_TEXTO = colors.HexColor("#111111")
COR_SECUNDARIA = colors.HexColor("#444444")
COR_FAIXA = colors.HexColor("#E6E6E6")
COR_LINHA = colors.HexColor("#555555")
COR_ZEBRA = colors.HexColor("#F4F4F4")


def texto(valor: str) -> str:
    """User text made safe for a Paragraph: control characters out, markup escaped, line breaks kept."""
    limpo = imprimivel(limpar_texto(valor))
    return escape(limpo).replace("\n", "<br/>")


_RENDERIZANDO = threading.Lock()


@contextmanager
def ajustes_reportlab() -> Iterator[None]:
    """ReportLab's global settings a render needs, switched for the render only.

    - Binary (Flate only) streams: ASCII85 makes files 25 % larger and, without ReportLab's optional C
      accelerator, costs a tenth of a batch's time.
    - The embedded family as the default font of table cells holding plain strings (ReportLab's default is
      Helvetica, which would otherwise sit unembedded in every file and print WinAnsi only).

    The settings are global in ReportLab and read while the file is built, so renders are serialised: a
    render in another thread must not switch them back mid-way (that would change the bytes of an issued
    document). ReportLab keeps other global state too; one render at a time is the safe use.
    """
    with _RENDERIZANDO:
        anterior = rl_config.useA85
        fonte_celula = CellStyle.fontname
        rl_config.useA85 = 0
        CellStyle.fontname = FONTE
        try:
            yield
        finally:
            rl_config.useA85 = anterior
            CellStyle.fontname = fonte_celula


@functools.cache
def estilos() -> StyleSheet1:
    """The named stylesheet all documents share, so they look like one family of official papers.

    The family is the embedded Liberation Sans (`fontes`), registered here on first use, so every
    character prints as typed.
    """
    registrar_fontes()
    folha = StyleSheet1()
    base = ParagraphStyle("Corpo", fontName=FONTE, fontSize=10, leading=13, textColor=COR_TEXTO)
    folha.add(base)
    folha.add(ParagraphStyle("Justificado", parent=base, alignment=TA_JUSTIFY))
    folha.add(
        ParagraphStyle(
            "Titulo", parent=base, fontName=FONTE_NEGRITO, fontSize=14, leading=17, alignment=TA_CENTER
        )
    )
    folha.add(
        ParagraphStyle(
            "Subtitulo", parent=base, fontSize=8.5, leading=11, alignment=TA_CENTER, textColor=COR_SECUNDARIA
        )
    )
    folha.add(
        ParagraphStyle(
            "Secao",
            parent=base,
            fontName=FONTE_NEGRITO,
            fontSize=9,
            leading=11,
            backColor=COR_FAIXA,
            borderPadding=(2.2, 3, 2.2, 3),
            spaceBefore=6,
            spaceAfter=4.5,
        )
    )
    folha.add(
        ParagraphStyle(
            "Rotulo", parent=base, fontName=FONTE_NEGRITO, fontSize=8, leading=10.5, textColor=COR_SECUNDARIA
        )
    )
    folha.add(ParagraphStyle("Valor", parent=base, fontSize=9.5, leading=12))
    folha.add(
        ParagraphStyle(
            "Citacao", parent=base, fontName=FONTE_ITALICO, fontSize=9, leading=11.5, alignment=TA_JUSTIFY
        )
    )
    folha.add(ParagraphStyle("Nota", parent=base, fontSize=7.5, leading=9.5, textColor=COR_SECUNDARIA))
    folha.add(ParagraphStyle("Pequeno", parent=base, fontSize=8.5, leading=11))
    folha.add(ParagraphStyle("Destaque", parent=base, fontName=FONTE_NEGRITO, fontSize=11, leading=14))
    folha.add(
        ParagraphStyle(
            "DestaqueCentro",
            parent=base,
            fontName=FONTE_NEGRITO,
            fontSize=12,
            leading=15,
            alignment=TA_CENTER,
        )
    )
    folha.add(
        ParagraphStyle(
            "Via", parent=base, fontName=FONTE_NEGRITO, fontSize=8.5, leading=10.5, alignment=TA_CENTER
        )
    )
    folha.add(ParagraphStyle("Assinatura", parent=base, fontSize=9, leading=11, alignment=TA_CENTER))
    folha.add(ParagraphStyle("Direita", parent=base, alignment=TA_RIGHT))
    folha.add(ParagraphStyle("Celula", parent=base, fontSize=7.5, leading=9, alignment=TA_LEFT))
    folha.add(ParagraphStyle("CelulaDireita", parent=base, fontSize=7.5, leading=9, alignment=TA_RIGHT))
    folha.add(ParagraphStyle("CelulaCabecalho", parent=base, fontName=FONTE_NEGRITO, fontSize=7.5, leading=9))
    return folha


class MarcaPagina(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """An invisible flowable that names the pages from here on for the footer.

    `grupo` starts a new "Página X de Y" count: a batch numbers each notice on its own (the operator gets
    "Página 1 de 1", not page 437 of a stack), while `identificacao` is printed at the footer's left.
    """

    width = 0
    height = 0

    def __init__(self, identificacao: str, grupo: object | None = None) -> None:
        super().__init__()
        self.identificacao = identificacao
        self.grupo = grupo

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return (0, 0)

    def draw(self) -> None:
        self.canv.rodape_identificacao = self.identificacao
        if self.grupo is not None:
            self.canv.rodape_grupo = self.grupo


class BlocoFixo(Flowable):  # type: ignore[misc]
    """Flowables drawn once per file as a form XObject, then placed wherever the same block recurs.

    The parts of a notice that do not change from one operator to the next (the art. 14 text, the
    signature, the receipt) are laid out once per batch instead of once per page: this, with the letterhead
    form, is what brings a thousand notices within seconds. `chave` must identify the content: two blocks
    with the same key are assumed identical.
    """

    MARGEM_FORMA = 12.0

    def __init__(
        self,
        chave: str,
        conteudo: Callable[[], list[Flowable]],
        cache: dict[str, tuple[list[Flowable], dict[float, float]]],
    ) -> None:
        super().__init__()
        self.chave = chave
        self.conteudo = conteudo
        self._cache = cache
        self.nome = "Bloco" + hashlib.sha1(chave.encode(), usedforsecurity=False).hexdigest()[:20]
        self.largura = 0.0
        self.altura = 0.0

    @property
    def _itens(self) -> list[Flowable]:
        return self._registro()[0]

    def _registro(self) -> tuple[list[Flowable], dict[float, float]]:
        """The block's flowables (made once per key) and its height for each width it was wrapped at."""
        registro = self._cache.get(self.chave)
        if registro is None:
            registro = (self.conteudo(), {})
            self._cache[self.chave] = registro
        return registro

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        itens, alturas = self._registro()
        altura = alturas.get(availWidth)
        if altura is None:
            altura = 0.0
            for indice, item in enumerate(itens):
                if indice:
                    altura += item.getSpaceBefore()
                altura += item.wrap(availWidth, 0x7FFFFFFF)[1]
                if indice < len(itens) - 1:
                    altura += item.getSpaceAfter()
            alturas[availWidth] = altura
        self.largura = availWidth
        self.altura = altura
        return availWidth, altura

    def getSpaceBefore(self) -> float:
        itens = self._itens
        return float(itens[0].getSpaceBefore()) if itens else 0.0

    def getSpaceAfter(self) -> float:
        itens = self._itens
        return float(itens[-1].getSpaceAfter()) if itens else 0.0

    def draw(self) -> None:
        canv = self.canv
        if not canv.hasForm(self.nome):
            # The bounding box clips: leave room for what is drawn outside a flowable (section bars'
            # border padding).
            margem = self.MARGEM_FORMA
            canv.beginForm(self.nome, -margem, -margem, self.largura + margem, self.altura + margem)
            y = self.altura
            for indice, item in enumerate(self._itens):
                if indice:
                    y -= item.getSpaceBefore()
                _largura, altura = item.wrap(self.largura, 0x7FFFFFFF)
                y -= altura
                item.drawOn(canv, 0, y)
                y -= item.getSpaceAfter()
            canv.endForm()
        canv.doForm(self.nome)


class Campos(Flowable):  # type: ignore[misc]
    """Label/value rows, drawn directly rather than as a Table of Paragraphs.

    The labels are fixed words ("CNPJ", "Endereço"): drawing them as plain strings, with the value's first
    baseline, halves the layout work of a notice — it matters in a batch of a thousand — and aligns label
    and value exactly. Splits between rows (or inside a long value) when a page ends.
    """

    PAD_VERTICAL = 1.3
    PAD_ROTULO = 2.0
    FONTE_ROTULO = FONTE_NEGRITO
    TAMANHO_ROTULO = 8.0

    def __init__(self, linhas: Sequence[tuple[str, Paragraph]], largura_rotulo: float) -> None:
        super().__init__()
        self.linhas = list(linhas)
        self.largura_rotulo = largura_rotulo
        self._medidas: list[tuple[list[str], float, float]] = []

    def _rotulo(self, rotulo: str) -> list[str]:
        largura = self.largura_rotulo - 2 * self.PAD_ROTULO
        if stringWidth(rotulo, self.FONTE_ROTULO, self.TAMANHO_ROTULO) <= largura:
            return [rotulo]
        return list(simpleSplit(rotulo, self.FONTE_ROTULO, self.TAMANHO_ROTULO, largura))

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = availWidth
        largura_valor = availWidth - self.largura_rotulo
        self._medidas = []
        total = 0.0
        for rotulo, valor in self.linhas:
            linhas_rotulo = self._rotulo(rotulo)
            _w, altura_valor = valor.wrap(largura_valor, 0x7FFFFFFF)
            altura = max(altura_valor, len(linhas_rotulo) * (self.TAMANHO_ROTULO + 2)) + 2 * self.PAD_VERTICAL
            self._medidas.append((linhas_rotulo, altura_valor, altura))
            total += altura
        self.height = total
        return availWidth, total

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        self.wrap(availWidth, availHeight)
        usado = 0.0
        for indice, (_rot, _hv, altura) in enumerate(self._medidas):
            if usado + altura > availHeight:
                rotulo, valor = self.linhas[indice]
                partes = valor.split(
                    availWidth - self.largura_rotulo, availHeight - usado - 2 * self.PAD_VERTICAL
                )
                antes = self.linhas[:indice]
                depois = self.linhas[indice + 1 :]
                if len(partes) == 2:
                    antes = [*antes, (rotulo, partes[0])]
                    depois = [(f"{rotulo} (cont.)", partes[1]), *depois]
                else:
                    depois = [(rotulo, valor), *depois]
                if not antes:
                    return []
                return [Campos(antes, self.largura_rotulo), Campos(depois, self.largura_rotulo)]
            usado += altura
        return [self]

    def draw(self) -> None:
        canv = self.canv
        topo = self.height
        canv.setFillColor(COR_SECUNDARIA)
        canv.setFont(self.FONTE_ROTULO, self.TAMANHO_ROTULO)
        for (linhas_rotulo, altura_valor, altura), (_rotulo, valor) in zip(
            self._medidas, self.linhas, strict=True
        ):
            base = topo - self.PAD_VERTICAL - valor.style.fontSize
            for numero, linha in enumerate(linhas_rotulo):
                canv.drawString(self.PAD_ROTULO, base - numero * (self.TAMANHO_ROTULO + 2), linha)
            valor.drawOn(canv, self.largura_rotulo, topo - self.PAD_VERTICAL - altura_valor)
            canv.setFillColor(COR_SECUNDARIA)
            canv.setFont(self.FONTE_ROTULO, self.TAMANHO_ROTULO)
            topo -= altura


class _CanvasNumerado(Canvas):  # type: ignore[misc]
    """Holds every page until `save` so each footer can say "Página X de Y" (pretix's NumberedCanvas).

    Also pins what makes PDFs differ between runs: the /ID becomes a hash of the document's data and the
    dates are the document's date.
    """

    def __init__(
        self,
        *args: Any,
        chave: bytes,
        data_pdf: str,
        rodape: Any,
        **kwargs: Any,
    ) -> None:
        kwargs["invariant"] = 1
        # Else the page preamble names base-14 Helvetica, which then sits unembedded in every file.
        kwargs["initialFontName"] = FONTE
        super().__init__(*args, **kwargs)
        # The /ID is md5(signature); seed it with the data instead of the (environment-dependent) clock.
        self._doc.signature = hashlib.md5(chave, usedforsecurity=False)
        self.setDateFormatter(lambda *_partes: data_pdf)
        self._desenhar_rodape = rodape
        self._paginas_pendentes: list[dict[str, Any]] = []
        self.rodape_identificacao = ""
        self.rodape_grupo: object = None

    def showPage(self) -> None:
        # The page's state without the list of pages: a state holding that list (which holds the state)
        # made every page a reference cycle, so the drawing operators of all of them (some 2,500 strings a
        # page) waited for the cyclic collector and were freed in one go, holding the GIL: 0.12 s of CPU
        # (a 0.4 s freeze of the window) as the biggest operator's ficha ended. Now each page goes once
        # it is drawn (in `save`), by reference counting.
        estado = dict(self.__dict__)
        del estado["_paginas_pendentes"]
        self._paginas_pendentes.append(estado)
        self._startPage()

    def save(self) -> None:
        paginas, self._paginas_pendentes = self._paginas_pendentes, []
        totais = Counter(p["rodape_grupo"] for p in paginas)
        vistas: Counter[object] = Counter()
        paginas.reverse()
        while paginas:
            estado = paginas.pop()
            self.__dict__.update(estado)
            grupo = self.rodape_grupo
            vistas[grupo] += 1
            self._desenhar_rodape(self, self.rodape_identificacao, vistas[grupo], totais[grupo])
            Canvas.showPage(self)
        Canvas.save(self)


class DocumentoPdf(Generic[D]):
    """Base of every document renderer: subclasses say what goes on the pages, this class makes the PDF.

    A subclass sets `TITULO` and implements `historia` (the flowables), `timbre_de`, `data_de` and
    `identificacao_de`; `render(dados)` returns the finished bytes.
    """

    TAMANHO: ClassVar[tuple[float, float]] = A4
    MARGEM_ESQUERDA: ClassVar[float] = 20 * mm
    MARGEM_DIREITA: ClassVar[float] = 18 * mm
    MARGEM_SUPERIOR: ClassVar[float] = 10 * mm
    MARGEM_INFERIOR: ClassVar[float] = 12 * mm
    ALTURA_TIMBRE: ClassVar[float] = 27 * mm
    ALTURA_RODAPE: ClassVar[float] = 8 * mm
    TITULO: ClassVar[str] = "Documento"
    FORMA_TIMBRE: ClassVar[str] = "TimbreSMSU"

    def __init__(self) -> None:
        self.estilos = estilos()
        self._blocos: dict[str, tuple[list[Flowable], dict[float, float]]] = {}

    # ---- what subclasses provide -------------------------------------------------------------------
    def historia(self, dados: D) -> list[Flowable]:
        raise NotImplementedError

    def timbre_de(self, dados: D) -> Timbre:
        raise NotImplementedError

    def data_de(self, dados: D) -> tuple[date, time | None]:
        """The document's own date (and hour), used as the PDF's creation date."""
        raise NotImplementedError

    def identificacao_de(self, dados: D) -> str:
        """Short name of the document, for the PDF title and the footer."""
        raise NotImplementedError

    # ---- the machinery -----------------------------------------------------------------------------
    @property
    def largura_util(self) -> float:
        return self.TAMANHO[0] - self.MARGEM_ESQUERDA - self.MARGEM_DIREITA

    def render(self, dados: D, progresso: Progresso | None = None) -> bytes:
        """The finished PDF. Same `dados`, same bytes. `progresso(feitos, total, texto)` is called as each
        page is laid out ("Gerando a página 12 de cerca de 26…"); whatever it raises stops the rendering."""
        saida = io.BytesIO()
        self._blocos = {}
        timbre = self.timbre_de(dados)
        identificacao = self.identificacao_de(dados)
        dia, hora = self.data_de(dados)
        hora = hora or time(0, 0)
        data_pdf = f"D:{dia.year:04d}{dia.month:02d}{dia.day:02d}{hora.hour:02d}{hora.minute:02d}00-03'00'"
        chave = f"{type(self).__qualname__}\n{dados!r}".encode()

        _largura, altura = self.TAMANHO
        base_quadro = self.MARGEM_INFERIOR + self.ALTURA_RODAPE
        quadro = Frame(
            self.MARGEM_ESQUERDA,
            base_quadro,
            self.largura_util,
            altura - self.MARGEM_SUPERIOR - self.ALTURA_TIMBRE - base_quadro,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
            id="corpo",
        )

        def na_pagina(canv: Canvas, _doc: BaseDocTemplate) -> None:
            if not canv.hasForm(self.FORMA_TIMBRE):
                canv.beginForm(self.FORMA_TIMBRE)
                self.desenhar_timbre(canv, timbre)
                canv.endForm()
            canv.doForm(self.FORMA_TIMBRE)

        documento = BaseDocTemplate(
            saida,
            pagesize=self.TAMANHO,
            title=identificacao,
            author=f"{timbre.prefeitura} – {timbre.secretaria}",
            subject=self.TITULO,
            creator="Secretaria – fiscalização do transporte coletivo (Lei nº 2.413/1978)",
            lang="pt-BR",
            invariant=1,
            leftMargin=self.MARGEM_ESQUERDA,
            rightMargin=self.MARGEM_DIREITA,
            topMargin=self.MARGEM_SUPERIOR,
            bottomMargin=self.MARGEM_INFERIOR,
        )
        documento.addPageTemplates([PageTemplate(id="timbrada", frames=[quadro], onPage=na_pagina)])
        if progresso is not None:
            documento.setProgressCallBack(_andamento_das_paginas(progresso))
        # No full collection while the story is alive: each walked all of it again (secretaria.coleta).
        with ajustes_reportlab(), sem_coleta_completa():
            try:
                historia: list[Flowable] = [MarcaPagina(identificacao, grupo=0), *self.historia(dados)]
                documento.build(
                    historia,
                    canvasmaker=functools.partial(
                        _CanvasNumerado, chave=chave, data_pdf=data_pdf, rodape=self.desenhar_rodape
                    ),
                )
            finally:
                self.esquecer_historia()
        return saida.getvalue()

    def esquecer_historia(self) -> None:
        """Let go of what the story was made of, as soon as the file is written.

        ReportLab's canvas and document refer to each other, and the canvas holds this renderer (the footer's
        callback): whatever the renderer still holds is freed only by the cyclic collector, which holds the
        GIL while it walks. The biggest ficha left 460,000 objects so (0.56–0.67 s of collection, in whatever
        thread allocated next); dropped here, they go by reference counting as the render ends. A subclass
        with caches of its own clears them too."""
        self._blocos = {}

    def desenhar_timbre(self, canv: Canvas, timbre: Timbre) -> None:
        """The letterhead: state, city hall, secretariat, address; drawn once into a form XObject.

        Each line is shrunk (never wrapped) when the administration's data is longer than the page is wide.
        """
        largura, altura = self.TAMANHO
        centro = self.MARGEM_ESQUERDA + self.largura_util / 2
        topo = altura - self.MARGEM_SUPERIOR

        def linha(texto_linha: str, fonte: str, tamanho: float, descida: float) -> None:
            texto_linha = imprimivel(limpar_texto(texto_linha))
            ocupada = stringWidth(texto_linha, fonte, tamanho)
            if ocupada > self.largura_util:
                tamanho = max(5.0, tamanho * self.largura_util / ocupada)
            canv.setFont(fonte, tamanho)
            canv.drawCentredString(centro, topo - descida, texto_linha)

        canv.saveState()
        canv.setFillColor(COR_SECUNDARIA)
        linha(timbre.estado.upper(), FONTE, 7.5, 3 * mm)
        canv.setFillColor(COR_TEXTO)
        linha(timbre.prefeitura.upper(), FONTE_NEGRITO, 14, 9 * mm)
        linha(timbre.secretaria.upper(), FONTE_NEGRITO, 10, 14 * mm)
        canv.setFillColor(COR_SECUNDARIA)
        linha(f"{timbre.endereco} – {timbre.cidade}/{timbre.uf}", FONTE, 7.5, 18.5 * mm)
        contato = "   ·   ".join(p for p in (timbre.telefone, timbre.email) if p)
        if contato:
            linha(contato, FONTE, 7.5, 21.8 * mm)
        esquerda = self.MARGEM_ESQUERDA
        direita = largura - self.MARGEM_DIREITA
        canv.setStrokeColor(COR_TEXTO)
        canv.setLineWidth(1.2)
        canv.line(esquerda, topo - 24 * mm, direita, topo - 24 * mm)
        canv.setLineWidth(0.4)
        canv.line(esquerda, topo - 24.9 * mm, direita, topo - 24.9 * mm)
        canv.restoreState()

    def desenhar_rodape(self, canv: Canvas, identificacao: str, pagina: int, total: int) -> None:
        """Footer of the second pass: what the document is, the law, and "Página X de Y"."""
        largura, _altura = self.TAMANHO
        esquerda = self.MARGEM_ESQUERDA
        direita = largura - self.MARGEM_DIREITA
        y_linha = self.MARGEM_INFERIOR + 4 * mm
        canv.saveState()
        canv.setStrokeColor(COR_LINHA)
        canv.setLineWidth(0.4)
        canv.line(esquerda, y_linha, direita, y_linha)
        canv.setFillColor(COR_SECUNDARIA)
        canv.setFont(FONTE, 7.5)
        canv.drawString(esquerda, y_linha - 3.5 * mm, imprimivel(identificacao))
        canv.setFont(FONTE_NEGRITO, 7.5)
        canv.drawRightString(direita, y_linha - 3.5 * mm, f"Página {pagina} de {total}")
        canv.restoreState()

    # ---- building blocks for subclasses ------------------------------------------------------------
    def bloco_fixo(self, chave: str, conteudo: Callable[[], list[Flowable]]) -> BlocoFixo:
        """A block laid out once per file and reused (see `BlocoFixo`); `chave` names everything it shows."""
        return BlocoFixo(f"{type(self).__qualname__}|{chave}", conteudo, self._blocos)

    def p(self, conteudo: str, estilo: str = "Corpo") -> Paragraph:
        """A paragraph of *markup* (already escaped): use `texto()` on anything the user typed."""
        return Paragraph(conteudo, self.estilos[estilo])

    def secao(self, titulo: str) -> Paragraph:
        return Paragraph(texto(titulo), self.estilos["Secao"])

    def campos(self, pares: Sequence[tuple[str, str]], largura_rotulo: float = 34 * mm) -> Campos:
        """Label/value rows ("CNPJ" | "12.345..."). Values are markup (escape user text with `texto`)."""
        estilo = self.estilos["Valor"]
        return Campos([(rotulo, Paragraph(valor, estilo)) for rotulo, valor in pares], largura_rotulo)

    def caixa(self, conteudo: list[Flowable], fundo: Any = None, espessura: float = 0.8) -> Table:
        """A bordered box around some flowables (receipts, deadlines): the parts a reader must not miss."""
        tabela = Table([[conteudo]], colWidths=[self.largura_util])
        estilo = [
            ("BOX", (0, 0), (-1, -1), espessura, COR_TEXTO),
            ("LEFTPADDING", (0, 0), (-1, -1), 6),
            ("RIGHTPADDING", (0, 0), (-1, -1), 6),
            ("TOPPADDING", (0, 0), (-1, -1), 5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
        ]
        if fundo is not None:
            estilo.append(("BACKGROUND", (0, 0), (-1, -1), fundo))
        tabela.setStyle(TableStyle(estilo))
        return tabela

    def assinaturas(self, blocos: Sequence[Sequence[str]], altura_espaco: float = 13 * mm) -> Table:
        """Signature lines side by side, with room above to sign; each block is its lines of markup.

        One table rather than a KeepTogether, so callers may wrap it in their own KeepTogether (ReportLab's
        nested KeepTogethers never fit).
        """
        largura = self.largura_util / len(blocos)
        largura_linha = min(largura - 12 * mm, 80 * mm)
        celulas: list[Table] = []
        for linhas in blocos:
            bloco = Table([[self.p("<br/>".join(linhas), "Assinatura")]], colWidths=[largura_linha])
            bloco.setStyle(
                TableStyle(
                    [
                        ("LINEABOVE", (0, 0), (-1, 0), 0.6, COR_TEXTO),
                        ("TOPPADDING", (0, 0), (-1, -1), 2),
                        ("LEFTPADDING", (0, 0), (-1, -1), 0),
                        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ]
                )
            )
            celulas.append(bloco)
        tabela = Table([celulas], colWidths=[largura] * len(blocos))
        tabela.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                    ("TOPPADDING", (0, 0), (-1, -1), altura_espaco),
                ]
            )
        )
        return tabela

    def cabecalho(self, titulo: str, subtitulo: str, via: str | None = None) -> list[Flowable]:
        """Document title, with the copy's name in a box at the right when there are several copies."""
        if via is None:
            return [self.p(texto(titulo), "Titulo"), self.p(texto(subtitulo), "Subtitulo"), Spacer(1, 3 * mm)]
        largura_via = 36 * mm
        miolo = [self.p(texto(titulo), "Titulo"), self.p(texto(subtitulo), "Subtitulo")]
        etiqueta = Table([[self.p(via, "Via")]], colWidths=[largura_via - 4 * mm])
        etiqueta.setStyle(
            TableStyle(
                [
                    ("BOX", (0, 0), (-1, -1), 1, COR_TEXTO),
                    ("BACKGROUND", (0, 0), (-1, -1), COR_FAIXA),
                    ("TOPPADDING", (0, 0), (-1, -1), 3),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
                ]
            )
        )
        tabela = Table(
            [["", miolo, etiqueta]],
            colWidths=[largura_via, self.largura_util - 2 * largura_via, largura_via],
        )
        tabela.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("ALIGN", (2, 0), (2, 0), "RIGHT"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        return [tabela, Spacer(1, 3 * mm)]

    def local_e_data(self, timbre: Timbre, dia: date) -> Paragraph:
        """The place-and-date line ("Pelotas, 20 de novembro de 2026.") above the signatures."""
        return self.p(texto(f"{timbre.cidade}, {data_por_extenso(dia)}."), "Direita")


def _andamento_das_paginas(progresso: Progresso) -> Callable[[str, int], None]:
    """ReportLab's progress callback turned into `progresso`, at the end of each page: the page reached and,
    when the story has many flowables (a batch of notices), the share of them laid out (the bar) with an
    estimate of the pages to come. A story of a few long tables (a ficha) says only the page, with a busy
    bar: its share of flowables says nothing about the pages left."""
    estado = {"total": 0, "feitos": 0}
    relatado_em = [0.0]

    def andamento(tipo: str, valor: int) -> None:
        if tipo == "SIZE_EST":
            estado["total"] = int(valor)
        elif tipo == "PROGRESS":
            estado["feitos"] = int(valor)
        elif tipo == "PAGE":
            feitos, total, pagina = estado["feitos"], estado["total"], int(valor)
            agora = monotonic()
            if pagina > 1 and agora - relatado_em[0] < INTERVALO_ANDAMENTO:
                return
            relatado_em[0] = agora
            if total < _FLOWABLES_PARA_ESTIMAR or not feitos:
                progresso(0, 0, f"Gerando a página {pagina}…")
                return
            estimativa = max(pagina, round(pagina * total / feitos))
            texto = (
                f"Gerando a página {pagina} de cerca de {estimativa}…"
                if estimativa > pagina
                else (f"Gerando a página {pagina}…")
            )
            progresso(min(feitos, total), total, texto)

    return andamento


_FLOWABLES_PARA_ESTIMAR = 100
INTERVALO_ANDAMENTO = 0.1
"""Seconds between two page reports (the first page is always told). A batch lays out a page a millisecond:
a report each was a queued signal and a repaint of the progress dialog each, and that flood kept the window
from Python's lock for up to 0.8 s at a time (bench part janela)."""
