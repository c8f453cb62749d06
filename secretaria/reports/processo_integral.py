"""The complete case file ("cópia integral do processo"): one PDF for the appeal, a lawyer or a court.

A cover, an index, then every piece in the case's order, each page stamped with its folha ("fl. 1",
"fl. 2"…) as the paper file would be, the evidence, and the case's timeline. Documents already issued are
included as their stored bytes, page by page (never rendered again: the copy shows the paper that was
delivered); what has no document (the defence's text, the proposal, a delivery record) is drawn here as a
short page from the record. The index gives each piece its folhas and the SHA-256 of its bytes, so whoever
receives the file can check any piece against the office's copy.

Same data, same bytes: the pieces are pure functions of the data, pypdf writes no clock, and the stamps are
drawn by ReportLab in invariant mode.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, time
from typing import NamedTuple, TypeVar

from pypdf import PdfReader, PdfWriter
from pypdf.errors import PyPdfError
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Image, Spacer, Table, TableStyle

from secretaria.reports.dados import DadosProcessoIntegral, EventoProcesso, PecaProcesso, Timbre
from secretaria.reports.fontes import FONTE, FONTE_NEGRITO, imprimivel, registrar_fontes
from secretaria.reports.formato import formatar_data
from secretaria.reports.pdf_base import (
    COR_FAIXA,
    COR_LINHA,
    COR_TEXTO,
    COR_ZEBRA,
    DocumentoPdf,
    ajustes_reportlab,
    texto,
)

__all__ = ["montar_processo_integral"]

Progresso = Callable[[int, int, str], None]


# --- the pages drawn here -------------------------------------------------------------------------------------


class _Rotulo(NamedTuple):
    """What the machinery reads of a page drawn here: the case's letterhead and auto, the page's day and name."""

    timbre: Timbre
    numero_auto: str
    data: date
    nome: str


P = TypeVar("P")


class _PaginaPdf(DocumentoPdf[P]):
    """The renderers of the pages drawn here: each says its page's `rotulo`; the page is dated by its day and
    its footer names it and its auto ("Linha do tempo – Auto de Infração nº 0001/2026")."""

    def rotulo(self, dados: P) -> _Rotulo:
        raise NotImplementedError

    def timbre_de(self, dados: P) -> Timbre:
        return self.rotulo(dados).timbre

    def data_de(self, dados: P) -> tuple[date, time | None]:
        return self.rotulo(dados).data, None

    def identificacao_de(self, dados: P) -> str:
        rotulo = self.rotulo(dados)
        return f"{rotulo.nome} – Auto de Infração nº {rotulo.numero_auto}"


@dataclass(frozen=True)
class _Registro:
    timbre: Timbre
    numero_auto: str
    peca: PecaProcesso


class _RegistroPdf(_PaginaPdf[_Registro]):
    """A piece without a document of its own (the defence, the proposal, a delivery), from its record."""

    TITULO = "Peça do processo"

    def rotulo(self, dados: _Registro) -> _Rotulo:
        return _Rotulo(dados.timbre, dados.numero_auto, dados.peca.data, dados.peca.titulo)

    def historia(self, dados: _Registro) -> list[Flowable]:
        peca = dados.peca
        f: list[Flowable] = self.cabecalho(
            peca.titulo.upper(),
            f"Auto de Infração nº {dados.numero_auto} – {peca.origem}",
        )
        if peca.campos:
            f.append(self.campos([(rotulo, texto(valor)) for rotulo, valor in peca.campos], 40 * mm))
        if peca.texto:
            f.append(Spacer(1, 3 * mm))
            f.append(self.p(texto(peca.texto), "Justificado"))
        return f


class _ImagemPdf(_RegistroPdf):
    """An evidence photo on its own page, scaled to fit under a line naming it; dated and named in the
    footer like a record's page."""

    TITULO = "Prova anexada"

    def historia(self, dados: _Registro) -> list[Flowable]:
        peca = dados.peca
        leitor = ImageReader(io.BytesIO(peca.conteudo))
        largura, altura = leitor.getSize()
        f: list[Flowable] = [
            self.p(f"<b>{texto(peca.titulo)}</b> – {texto(peca.origem)}", "Corpo"),
            self.p(f"SHA-256: {peca.sha256}", "Nota"),
            Spacer(1, 3 * mm),
        ]
        caixa_l = self.largura_util
        caixa_a = 200 * mm
        escala = min(caixa_l / max(largura, 1), caixa_a / max(altura, 1))
        f.append(Image(io.BytesIO(peca.conteudo), width=largura * escala, height=altura * escala))
        return f


@dataclass(frozen=True)
class _Linha:
    peca: str
    data: date
    folhas: str
    sha256: str
    prova: bool


@dataclass(frozen=True)
class _Capa:
    dados: DadosProcessoIntegral
    linhas: tuple[_Linha, ...]
    total_folhas: int


class _CapaPdf(_PaginaPdf[_Capa]):
    """The cover (what the file is about) and the index (each piece, its folhas and SHA-256)."""

    TITULO = "Cópia integral do processo"
    LARGURAS: tuple[float, ...] = (10 * mm, 98 * mm, 20 * mm, 44 * mm)

    def rotulo(self, dados: _Capa) -> _Rotulo:
        d = dados.dados
        return _Rotulo(d.timbre, d.numero_auto, d.emitida_em, "Cópia integral do processo")

    def historia(self, dados: _Capa) -> list[Flowable]:
        d = dados.dados
        f: list[Flowable] = self.cabecalho(
            "CÓPIA INTEGRAL DO PROCESSO",
            f"Processo administrativo do Auto de Infração nº {d.numero_auto} – Lei Municipal nº 2.413/1978",
        )
        f.append(
            self.campos(
                [
                    ("Autuada", f"<b>{texto(d.operadora)}</b>"),
                    ("CNPJ", texto(d.cnpj)),
                    ("Dispositivo", texto(d.dispositivo)),
                    ("Auto lavrado em", formatar_data(d.data_lavratura)),
                    ("Situação", texto(d.situacao)),
                    ("Cópia extraída em", formatar_data(d.emitida_em)),
                    ("Folhas", f"{dados.total_folhas}, numeradas no alto de cada página"),
                ],
                40 * mm,
            )
        )
        f.append(Spacer(1, 3 * mm))
        f.append(
            self.p(
                "Reúne, na ordem do processo, todas as peças: os documentos emitidos (na forma em que foram "
                "guardados, sem nova geração), os registros que não têm documento próprio, as provas "
                "anexadas e a linha do tempo. O SHA-256 de cada peça permite conferi-la com a via guardada "
                "pela Secretaria.",
                "Justificado",
            )
        )
        f.append(self.secao("Índice"))
        f.append(self._indice(dados.linhas))
        return f

    def _indice(self, linhas: Sequence[_Linha]) -> Table:
        cab = [
            self.p("Nº", "CelulaCabecalho"),
            self.p("Peça", "CelulaCabecalho"),
            self.p("Folhas", "CelulaCabecalho"),
            self.p("SHA-256", "CelulaCabecalho"),
        ]
        corpo: list[list[Flowable]] = []
        titulos: list[int] = []
        for i, linha in enumerate(linhas, 1):
            if linha.prova and (i == 1 or not linhas[i - 2].prova):
                titulos.append(len(corpo) + 1)
                corpo.append([self.p("<b>Provas anexadas ao auto</b>", "Celula"), "", "", ""])
            nome = f"{texto(linha.peca)} – {formatar_data(linha.data)}"
            sha = f"{linha.sha256[:32]}<br/>{linha.sha256[32:]}"
            corpo.append(
                [
                    self.p(str(i), "Celula"),
                    self.p(nome, "Celula"),
                    self.p(linha.folhas, "Celula"),
                    self.p(f"<font size=6>{sha}</font>", "Celula"),
                ]
            )
        tabela = Table([cab, *corpo], colWidths=list(self.LARGURAS), repeatRows=1)
        tabela.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, 0), COR_FAIXA),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.3, COR_LINHA),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("TOPPADDING", (0, 0), (-1, -1), 2),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                    *[("BACKGROUND", (0, r), (-1, r), COR_ZEBRA) for r in range(2, len(corpo) + 1, 2)],
                    *[("SPAN", (0, r), (-1, r)) for r in titulos],
                    *[("BACKGROUND", (0, r), (-1, r), COR_FAIXA) for r in titulos],
                ]
            )
        )
        return tabela


@dataclass(frozen=True)
class _Tempo:
    timbre: Timbre
    numero_auto: str
    emitida_em: date
    eventos: tuple[EventoProcesso, ...]


class _LinhaDoTempoPdf(_PaginaPdf[_Tempo]):
    TITULO = "Linha do tempo do processo"
    LARGURAS: tuple[float, ...] = (22 * mm, 50 * mm, 100 * mm)

    def rotulo(self, dados: _Tempo) -> _Rotulo:
        return _Rotulo(dados.timbre, dados.numero_auto, dados.emitida_em, "Linha do tempo")

    def historia(self, dados: _Tempo) -> list[Flowable]:
        f: list[Flowable] = self.cabecalho(
            "LINHA DO TEMPO DO PROCESSO", f"Auto de Infração nº {dados.numero_auto}, ato por ato"
        )
        cab = [self.p(t, "CelulaCabecalho") for t in ("Data", "Ato", "Descrição")]
        corpo = [
            [
                self.p(formatar_data(e.data), "Celula"),
                self.p(texto(e.titulo), "Celula"),
                self.p(texto(e.descricao) or "—", "Celula"),
            ]
            for e in dados.eventos
        ]
        tabela = Table([cab, *corpo], colWidths=list(self.LARGURAS), repeatRows=1)
        tabela.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, 0), COR_FAIXA),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.3, COR_LINHA),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        f.append(tabela)
        return f


# --- putting it together --------------------------------------------------------------------------------------


@dataclass
class _Bloco:
    titulo: str
    data: date
    sha256: str
    prova: bool
    leitor: PdfReader
    legenda: str = ""
    """Printed at the foot of each of its pages: an evidence PDF has no letterhead saying what it is."""


def _leitor(conteudo: bytes) -> PdfReader | None:
    """The PDF's pages, or None when pypdf cannot read it (a damaged or password-protected evidence file)."""
    try:
        leitor = PdfReader(io.BytesIO(conteudo))
        if leitor.is_encrypted or len(leitor.pages) == 0:
            return None
        return leitor
    except (PyPdfError, ValueError, KeyError, OSError):
        return None


def _bloco(dados: DadosProcessoIntegral, peca: PecaProcesso) -> _Bloco:
    """The piece's pages: its own PDF, its image on a page, or its record drawn on a page."""
    conteudo: bytes | None = None
    if peca.formato == "pdf":
        leitor = _leitor(peca.conteudo)
        if leitor is not None:
            legenda = f"{peca.titulo} ({peca.origem})" if peca.prova else ""
            return _Bloco(peca.titulo, peca.data, peca.sha256, peca.prova, leitor, legenda)
        peca = _ilegivel(
            peca, "O arquivo PDF não pôde ser lido para a cópia (danificado ou protegido por senha)."
        )
    elif peca.formato == "imagem":
        try:
            conteudo = _ImagemPdf().render(_Registro(dados.timbre, dados.numero_auto, peca))
        except (OSError, ValueError, SyntaxError):  # Pillow's errors for a damaged image
            peca = _ilegivel(peca, "A imagem não pôde ser reproduzida na cópia (arquivo danificado).")
    if conteudo is None:
        conteudo = _RegistroPdf().render(_Registro(dados.timbre, dados.numero_auto, peca))
    leitor = PdfReader(io.BytesIO(conteudo))
    sha = peca.sha256 or hashlib.sha256(conteudo).hexdigest()
    return _Bloco(peca.titulo, peca.data, sha, peca.prova, leitor)


def _ilegivel(peca: PecaProcesso, motivo: str) -> PecaProcesso:
    campos = (*peca.campos, ("Origem", peca.origem), ("SHA-256", peca.sha256))
    return PecaProcesso(
        titulo=peca.titulo,
        data=peca.data,
        origem=peca.origem,
        formato="registro",
        sha256=peca.sha256,
        campos=campos,
        texto=f"{motivo} O arquivo continua guardado, íntegro, no sistema.",
        prova=peca.prova,
    )


def _folhas(primeira: int, paginas: int) -> str:
    return f"fl. {primeira}" if paginas == 1 else f"fls. {primeira}–{primeira + paginas - 1}"


def _capa(dados: DadosProcessoIntegral, blocos: Sequence[_Bloco]) -> bytes:
    """The cover and index; the folhas depend on the index's own length, so lay out until it holds still."""
    paginas_capa = 1
    for _tentativa in range(5):
        linhas = []
        folha = paginas_capa + 1
        for b in blocos:
            n = len(b.leitor.pages)
            linhas.append(_Linha(b.titulo, b.data, _folhas(folha, n), b.sha256, b.prova))
            folha += n
        conteudo = _CapaPdf().render(_Capa(dados, tuple(linhas), folha - 1))
        obtidas = len(PdfReader(io.BytesIO(conteudo)).pages)
        if obtidas == paginas_capa:
            return conteudo
        paginas_capa = obtidas
    return conteudo


def _carimbos(
    tamanhos: Sequence[tuple[float, float]], legendas: Sequence[str], numero_auto: str
) -> PdfReader:
    """One page per folha, each the size of the page it goes on, with "fl. N" in the top right corner (and
    the piece's name at the foot of a page that does not say it)."""
    registrar_fontes()
    saida = io.BytesIO()
    with ajustes_reportlab():
        canv = Canvas(saida, invariant=1, initialFontName=FONTE_NEGRITO)
        canv.setDateFormatter(lambda *_partes: "D:20000101000000+00'00'")
        for i, ((largura, altura), legenda) in enumerate(zip(tamanhos, legendas, strict=True), 1):
            canv.setPageSize((largura, altura))
            rotulo = f"fl. {i}"
            canv.setFont(FONTE_NEGRITO, 9)
            larg_texto = canv.stringWidth(rotulo, FONTE_NEGRITO, 9)
            x = largura - 8 * mm - larg_texto
            y = altura - 7 * mm
            canv.setFillColorRGB(1, 1, 1)
            canv.setStrokeColor(COR_TEXTO)
            canv.setLineWidth(0.6)
            canv.rect(x - 1.5 * mm, y - 1.5 * mm, larg_texto + 3 * mm, 5 * mm, stroke=1, fill=1)
            canv.setFillColor(COR_TEXTO)
            canv.drawString(x, y, rotulo)
            canv.setFont(FONTE_NEGRITO, 5.5)
            canv.drawRightString(x + larg_texto + 1.5 * mm, y - 4 * mm, f"AI {numero_auto}")
            if legenda:
                canv.setFont(FONTE, 7)
                canv.drawString(8 * mm, 4 * mm, imprimivel(f"Auto de Infração nº {numero_auto} – {legenda}"))
            canv.showPage()
        canv.save()
    return PdfReader(io.BytesIO(saida.getvalue()))


def montar_processo_integral(dados: DadosProcessoIntegral, progresso: Progresso | None = None) -> bytes:
    """The whole file as one PDF: cover and index, the pieces, the evidence, the timeline; every page with
    its folha. `progresso(feitos, total, texto)` piece by piece."""

    def avisar(feitos: int, total: int, msg: str) -> None:
        if progresso is not None:
            progresso(feitos, total, msg)

    pecas = [p for p in dados.pecas if not p.prova] + [p for p in dados.pecas if p.prova]
    total = len(pecas) + 2
    blocos: list[_Bloco] = []
    for i, peca in enumerate(pecas):
        avisar(i, total, f"Reunindo as peças ({i + 1} de {len(pecas)})…")
        blocos.append(_bloco(dados, peca))
    tempo = _LinhaDoTempoPdf().render(
        _Tempo(dados.timbre, dados.numero_auto, dados.emitida_em, dados.linha_do_tempo)
    )
    blocos.append(
        _Bloco(
            "Linha do tempo do processo",
            dados.emitida_em,
            hashlib.sha256(tempo).hexdigest(),
            False,
            PdfReader(io.BytesIO(tempo)),
        )
    )
    avisar(len(pecas), total, "Montando o índice…")
    capa = PdfReader(io.BytesIO(_capa(dados, blocos)))

    escritor = PdfWriter()
    for leitor in (capa, *(b.leitor for b in blocos)):
        for pagina in leitor.pages:
            escritor.add_page(pagina)
    avisar(len(pecas) + 1, total, "Numerando as folhas…")
    legendas = [""] * len(capa.pages)
    for b in blocos:
        legendas += [b.legenda] * len(b.leitor.pages)
    tamanhos = []
    for pagina in escritor.pages:
        if pagina.rotation:
            pagina.transfer_rotation_to_content()
        caixa = pagina.mediabox
        tamanhos.append((float(caixa.width), float(caixa.height)))
    carimbos = _carimbos(tamanhos, legendas, dados.numero_auto)
    for pagina, carimbo in zip(escritor.pages, carimbos.pages, strict=True):
        caixa = pagina.mediabox
        if caixa.left or caixa.bottom:  # a page whose box does not start at the origin
            from pypdf import Transformation

            pagina.merge_transformed_page(
                carimbo, Transformation().translate(float(caixa.left), float(caixa.bottom))
            )
        else:
            pagina.merge_page(carimbo)
    escritor.add_metadata(
        {
            "/Title": f"Cópia integral do processo – Auto de Infração nº {dados.numero_auto}",
            "/Producer": "Secretaria – fiscalização do transporte coletivo (Lei nº 2.413/1978)",
        }
    )
    saida = io.BytesIO()
    escritor.write(saida)
    return saida.getvalue()
