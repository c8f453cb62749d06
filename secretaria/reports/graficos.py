"""Charts drawn with matplotlib (BSD-style licence; Qt Charts and Qt Graphs are GPL-only), from plain data.

One description of a chart (`Grafico`) is drawn the same way on the Painel page (a Qt canvas around the same
`Figure`), into a PNG or a one-page PDF for a meeting, and into the annual report. Only matplotlib's
object-oriented API is used (`matplotlib.figure.Figure`, no `pyplot`): no global state, so a worker thread may
render while the window paints. matplotlib is imported here, and this module only where a chart is drawn,
so the program's start-up never loads it.

Text is in Liberation Sans (the documents' font) and Portuguese: months "jan/26", money "R$ 1.234,56".
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import secretaria.resources
from secretaria.lei.formato import formatar_decimal, formatar_reais

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MESES_CURTOS = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")
CORES = (
    "#1f5f99",
    "#e07b24",
    "#3a9a4a",
    "#c23b3b",
    "#7b5ea7",
    "#8c6d46",
    "#d36fb0",
    "#6f6f6f",
    "#b5b82e",
    "#1fa5b5",
    # … and a lighter tone of each, so twenty operators stacked in one bar stay twenty colours.
    "#8fb8e0",
    "#f5bd85",
    "#98d49f",
    "#ee9a9a",
    "#c3b3dc",
    "#c9b08f",
    "#f0b8de",
    "#bdbdbd",
    "#dfe08a",
    "#92dbe4",
)
PASTA_FONTES = Path(secretaria.resources.__file__).with_name("fonts")
FORMAS = ("barras", "barras_h", "linhas")
FORMATOS = ("inteiro", "reais", "dias", "decimal")


@dataclass(frozen=True)
class Serie:
    rotulo: str
    valores: tuple[float, ...]


@dataclass(frozen=True)
class Grafico:
    """A chart: one value per category and series. `forma`: vertical bars, horizontal bars or lines;
    `empilhado`: bars stacked (else side by side); `formato` of the values on the axis and the labels."""

    chave: str
    titulo: str
    categorias: tuple[str, ...]
    series: tuple[Serie, ...]
    forma: str = "barras"
    empilhado: bool = False
    formato: str = "inteiro"
    nota: str = ""
    """A line under the chart (what is counted, a warning)."""
    referencia: tuple[float, ...] | None = None
    """Horizontal bars only: a mark per category (e.g. the level at which suspension becomes possible)."""
    rotulo_referencia: str = ""
    vazio: str = "Nada no período escolhido."
    extras: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def tem_dados(self) -> bool:
        return any(v for s in self.series for v in s.valores)


def rotulo_mes(mes: str) -> str:
    """ "2026-01" → "jan/26"; a year "2026" stays "2026"."""
    if "-" not in mes:
        return mes
    ano, numero = mes.split("-")
    return f"{MESES_CURTOS[int(numero) - 1]}/{ano[2:]}"


def formatar(valor: float, formato: str) -> str:
    if formato == "reais":
        return formatar_reais(Decimal(str(round(valor, 2))))
    if formato == "dias":
        return f"{formatar_decimal(Decimal(str(round(valor, 1))), 1).removesuffix(',0')} d"
    if formato == "decimal":
        return formatar_decimal(Decimal(str(round(valor, 1))), 1)
    return f"{round(valor):,}".replace(",", ".")


_configurado = False
# Two exports of the Painel may start at once, each in a thread of its own.
_trava_configuracao = threading.Lock()


def _configurar() -> None:
    """Liberation Sans for every chart (once per process)."""
    global _configurado
    with _trava_configuracao:
        if _configurado:
            return
        from matplotlib import font_manager, rcParams

        for arquivo in sorted(PASTA_FONTES.glob("LiberationSans-*.ttf")):
            font_manager.fontManager.addfont(str(arquivo))
        rcParams["font.family"] = "Liberation Sans"
        rcParams["font.size"] = 9
        rcParams["axes.titlesize"] = 10
        rcParams["axes.titleweight"] = "bold"
        rcParams["pdf.fonttype"] = 42  # TrueType embedded: the PDF's text stays text
        rcParams["axes.spines.top"] = False
        rcParams["axes.spines.right"] = False
        rcParams["axes.formatter.use_locale"] = False
        _configurado = True


def preparar() -> None:
    """matplotlib imported and configured now, before the first chart (a drawing process's start)."""
    _configurar()
    from matplotlib.backends import backend_agg  # noqa: F401


def nova_figura(
    largura_pol: float = 6.4, altura_pol: float = 3.6, dpi: int = 100, *, restrito: bool = True
) -> Figure:
    """A figure; `restrito`: matplotlib's constrained layout places its charts (else `encaixar` does)."""
    _configurar()
    from matplotlib.figure import Figure

    return Figure(figsize=(largura_pol, altura_pol), dpi=dpi, layout="constrained" if restrito else None)


MARGEM_PT = 3.0
"""Blank space around what a chart draws, in points (constrained layout's own pad)."""


def encaixar(fig: Figure, eixos: Axes, renderizador: Any) -> None:
    """Place `eixos` so that everything it draws — title, tick labels (rotated too), the legend beside it, the
    note under it — fits the figure with `MARGEM_PT` to spare: one measure of what it draws outside its box,
    where constrained layout measures twice and solves a layout grid (a third of the Painel's drawing time).
    The box is then wider or taller by a few pixels than the tick labels measured at first need; they are
    placed again by the drawing at the final size, still inside the margin."""
    from matplotlib.spines import Spine

    # A spine is the box's edge and its ticks, inside the tick labels the axis's own measure takes in: its
    # measure (every tick placed again) adds nothing to the union.
    alem = [a for a in eixos.get_default_bbox_extra_artists() if not isinstance(a, Spine)]
    caixa = eixos.get_tightbbox(renderizador, bbox_extra_artists=alem)
    if caixa is None:
        return
    dentro = eixos.get_window_extent(renderizador)
    largura, altura = fig.bbox.width, fig.bbox.height
    folga = MARGEM_PT * fig.dpi / 72
    esquerda = max(0.0, dentro.x0 - caixa.x0) + folga
    direita = max(0.0, caixa.x1 - dentro.x1) + folga
    baixo = max(0.0, dentro.y0 - caixa.y0) + folga
    topo = max(0.0, caixa.y1 - dentro.y1) + folga
    w = max(1.0, largura - esquerda - direita)
    h = max(1.0, altura - baixo - topo)
    eixos.set_position((esquerda / largura, baixo / altura, w / largura, h / altura))


def _bordas_fixas(barra: Any) -> Any:
    """A patch's sticky edges: lists, which matplotlib 3.10's stubs type as arrays."""
    return barra.sticky_edges


def _barras(ax: Axes, g: Grafico, posicoes: Sequence[float], *, deitadas: bool) -> list[float]:
    """The bars of every series, side by side or stacked, each named "série:categoria" for the click (which
    opens the list behind it); returns the stacked totals per category (zeros when not stacked).

    What `Axes.bar` draws (centred rectangles, the base a sticky edge, a container with the series' label for
    the legend), built here: `Axes.bar` updates the data limits bar by bar, which took a fifth of the time of a
    chart of twenty operators stacked over twelve months; here they are updated once."""
    from matplotlib.container import BarContainer
    from matplotlib.patches import Rectangle

    n = len(posicoes)
    base = [0.0] * n
    espessura = 0.8 / (1 if g.empilhado else max(1, len(g.series)))
    cantos: list[tuple[float, float]] = []
    for j, s in enumerate(g.series):
        desloc = 0.0 if g.empilhado else (j - (len(g.series) - 1) / 2) * espessura
        cor = CORES[j % len(CORES)]
        da_serie = []
        for i, (posicao, valor) in enumerate(zip(posicoes, s.valores, strict=True)):
            inicio = base[i] if g.empilhado else 0.0
            meio = posicao + desloc - espessura / 2
            if deitadas:
                barra = Rectangle((inicio, meio), valor, espessura, facecolor=cor)
                _bordas_fixas(barra).x.append(inicio)
                cantos += [(inicio, meio), (inicio + valor, meio + espessura)]
            else:
                barra = Rectangle((meio, inicio), espessura, valor, facecolor=cor)
                _bordas_fixas(barra).y.append(inicio)
                cantos += [(meio, inicio), (meio + espessura, inicio + valor)]
            barra.set_label("_nolegend_")
            barra.set_gid(f"{j}:{i}")
            ax.add_artist(barra)
            da_serie.append(barra)
        ax.add_container(
            BarContainer(da_serie, orientation="horizontal" if deitadas else "vertical", label=s.rotulo)
        )
        if g.empilhado:
            base = [b + v for b, v in zip(base, s.valores, strict=True)]
    if cantos:
        ax.update_datalim(cantos)
        ax.autoscale_view()
    return base


def desenhar(ax: Axes, g: Grafico, *, titulo: bool = True) -> None:
    """Draw `g` on `ax`. Each bar (or line point) carries `gid` "serie:categoria" so a click can say which
    one it was (`alvo_do_clique`)."""
    from matplotlib.ticker import FuncFormatter

    if titulo:
        # A narrow card wraps a long title, never cuts it. Its height is given (y=1, the padding above the box):
        # matplotlib would otherwise place it at every measure and draw, measuring the y axis's tick labels
        # each time, only to raise it over tick labels at the top or an offset ("1e6"), which these charts
        # never have (a seventh of the drawing's time).
        ax.set_title(g.titulo, loc="left", wrap=True, y=1.0)
    # Neither is there a y-axis label to place beside the tick labels (matplotlib measures them for it at every
    # measure and draw); the x axis's is the note, placed under its tick labels when there is one.
    ax.yaxis.set_label_coords(0.0, 0.5)
    if not g.nota:
        ax.xaxis.set_label_coords(0.5, 0.0)
    if not g.tem_dados:
        ax.set_axis_off()
        ax.text(0.5, 0.5, g.vazio, ha="center", va="center", transform=ax.transAxes, color="#666")
        return
    n = len(g.categorias)
    posicoes = list(range(n))
    formato_eixo = "inteiro" if g.formato == "decimal" else g.formato
    formatador = FuncFormatter(lambda v, _p: formatar(v, formato_eixo))
    if g.forma == "linhas":
        for j, s in enumerate(g.series):
            pontos = [(i, v) for i, v in enumerate(s.valores) if v == v]  # NaN = no case that month
            linha = ax.plot(
                [p[0] for p in pontos],
                [p[1] for p in pontos],
                marker="o",
                color=CORES[j % len(CORES)],
                label=s.rotulo,
                picker=5,
            )[0]
            linha.set_gid(f"{j}:linha")
        ax.set_xticks(posicoes, g.categorias, rotation=45 if n > 8 else 0, ha="right" if n > 8 else "center")
        ax.yaxis.set_major_formatter(formatador)
        ax.set_ylim(bottom=0)
        ax.grid(axis="y", alpha=0.3)
    elif g.forma == "barras_h":
        base = _barras(ax, g, posicoes, deitadas=True)
        if g.referencia is not None:
            ax.scatter(
                g.referencia,
                posicoes,
                marker="|",
                s=300,
                color="#c23b3b",
                zorder=3,
                label=g.rotulo_referencia or None,
            )
        ax.set_yticks(posicoes, g.categorias)
        ax.invert_yaxis()
        ax.xaxis.set_major_formatter(formatador)
        ax.grid(axis="x", alpha=0.3)
        totais = base if g.empilhado else [max(s.valores[i] for s in g.series) for i in range(n)]
        for i, total in enumerate(totais):
            ax.annotate(
                formatar(total, g.formato),
                (total, i),
                xytext=(3, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
            )
    else:
        _barras(ax, g, posicoes, deitadas=False)
        ax.set_xticks(posicoes, g.categorias, rotation=45 if n > 8 else 0, ha="right" if n > 8 else "center")
        ax.yaxis.set_major_formatter(formatador)
        ax.grid(axis="y", alpha=0.3)
    if len(g.series) > 1 or g.referencia is not None:
        # Beside the plot, never over the bars; the layout (constrained, or `encaixar` on screen) makes room.
        # Twenty operators do not fit one column beside a chart of the page's height: two columns then.
        colunas = 2 if len(g.series) > 12 else 1
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, ncols=colunas)
    if g.nota:
        ax.set_xlabel(_quebrar(g.nota), fontsize=7, color="#555", loc="left")


def _quebrar(texto: str, largura: int = 90) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(texto, largura))


def alvo_do_clique(gid: str | None, x: float | None = None) -> tuple[int, int] | None:
    """(série, categoria) of a clicked bar, from its `gid`, or of a clicked point of a line (its `gid`
    "série:linha" and the point's `x`, the category's position); None for anything else (the legend)."""
    if not gid or ":" not in gid:
        return None
    serie, categoria = gid.split(":", 1)
    if not serie.isdigit():
        return None
    if categoria == "linha":
        return None if x is None or x != x else (int(serie), round(x))
    if not categoria.isdigit():
        return None
    return int(serie), int(categoria)


@dataclass(frozen=True)
class Regiao:
    """Where a bar (or a line's point) lies on a drawn image, in pixels from its top-left corner."""

    x0: float
    y0: float
    x1: float
    y1: float
    serie: int
    categoria: int


@dataclass(frozen=True)
class Imagem:
    """A chart drawn into pixels (RGBA, 4 bytes each, rows from the top) and where each of its bars lies, so
    a screen can show it without matplotlib's canvas and still tell which bar a click fell on."""

    rgba: bytes
    largura: int
    altura: int
    regioes: tuple[Regiao, ...]

    def alvo(self, x: float, y: float) -> tuple[int, int] | None:
        """(série, categoria) under the pixel (x, y); where two lines' points coincide, the first series."""
        for r in self.regioes:
            if r.x0 <= x <= r.x1 and r.y0 <= y <= r.y1:
                return r.serie, r.categoria
        return None


RAIO_DO_PONTO = 5.0
"""How near a line's point (in typographic points) a click still counts as on it (matplotlib's picker=5)."""


def imagem(g: Grafico, largura_px: int, altura_px: int, dpi: float = 100) -> Imagem:
    """Draw `g` into an image of `largura_px` × `altura_px` pixels (`dpi` scales the text: 100 on a normal
    screen, 200 on one of device pixel ratio 2). Pure computation on a figure of its own, with no Qt: the
    Painel's helper processes (`desenhista`) run it while the window goes on painting."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    dpi_inteiro = round(dpi)
    # The canvas's size is the figure's in inches times its dpi, truncated: 230 / 100 * 100 is 229.99… and
    # gave a 229-pixel image. A quarter pixel more comes out exact, whichever way the product is rounded.
    fig = nova_figura(
        (largura_px + 0.25) / dpi_inteiro, (altura_px + 0.25) / dpi_inteiro, dpi_inteiro, restrito=False
    )
    tela = FigureCanvasAgg(fig)
    eixos = fig.add_subplot()
    desenhar(eixos, g)
    encaixar(fig, eixos, tela.get_renderer())  # type: ignore[no-untyped-call]
    tela.draw()  # type: ignore[no-untyped-call]
    largura, altura = tela.get_width_height()
    regioes: list[Regiao] = []
    barras = [(b, alvo) for b in eixos.patches if (alvo := alvo_do_clique(b.get_gid())) is not None]
    if barras:
        # Every bar's corners in one transform (bar by bar, it was a tenth of a large chart's time).
        from matplotlib.patches import Rectangle

        cantos = []
        for barra, _alvo in barras:
            assert isinstance(barra, Rectangle)
            x, y = barra.get_xy()
            cantos += [(x, y), (x + barra.get_width(), y + barra.get_height())]
        pixels: Any = eixos.transData.transform(cantos)
        for m, (_barra, alvo) in enumerate(barras):
            (xa, ya), (xb, yb) = pixels[2 * m], pixels[2 * m + 1]
            x0, x1, y0, y1 = min(xa, xb), max(xa, xb), min(ya, yb), max(ya, yb)
            regioes.append(Regiao(float(x0), altura - float(y1), float(x1), altura - float(y0), *alvo))
    raio = RAIO_DO_PONTO * dpi / 72
    for linha in eixos.lines:
        gid = linha.get_gid()
        pontos: Any = linha.get_xydata()  # an (n, 2) array of the points drawn
        for x, y in pontos:
            alvo = alvo_do_clique(gid, float(x))
            if alvo is not None:
                px, py = eixos.transData.transform((float(x), float(y)))
                regioes.append(Regiao(px - raio, altura - py - raio, px + raio, altura - py + raio, *alvo))
    rgba = bytes(tela.buffer_rgba())  # type: ignore[no-untyped-call]
    return Imagem(rgba, largura, altura, tuple(regioes))


def figura(g: Grafico, largura_pol: float = 6.4, altura_pol: float = 3.6, dpi: int = 100) -> Figure:
    fig = nova_figura(largura_pol, altura_pol, dpi)
    desenhar(fig.add_subplot(), g)
    return fig


def png(g: Grafico, largura_pol: float = 8.0, altura_pol: float = 4.5, dpi: int = 120) -> bytes:
    """The chart as a PNG image (taller when many horizontal bars must read)."""
    if g.forma == "barras_h":
        altura_pol = max(altura_pol, 0.22 * len(g.categorias) + 1.0)
    return _gravar(figura(g, largura_pol, altura_pol, dpi), "png")


def pdf(graficos: Sequence[Grafico], titulo: str, subtitulo: str = "") -> bytes:
    """One A4 landscape page: the title, then the charts two by two (a single chart fills the page)."""
    fig = pagina(graficos, titulo, subtitulo)
    return _gravar(fig, "pdf")


def pagina(graficos: Sequence[Grafico], titulo: str, subtitulo: str = "", dpi: int = 100) -> Figure:
    """Landscape, A4 for one to four charts, A3 for more (printed on A4 it still reads: it is vector)."""
    largura, altura = (11.69, 8.27) if len(graficos) <= 4 else (16.54, 11.69)
    fig = nova_figura(largura, altura, dpi)
    fig.suptitle(titulo + (f"\n{subtitulo}" if subtitulo else ""), fontsize=13, fontweight="bold")
    colunas = 1 if len(graficos) == 1 else 2 if len(graficos) <= 4 else 3
    linhas = max(1, -(-len(graficos) // colunas))
    for k, g in enumerate(graficos, start=1):
        desenhar(fig.add_subplot(linhas, colunas, k), g)
    return fig


def png_pagina(graficos: Sequence[Grafico], titulo: str, subtitulo: str = "") -> bytes:
    return _gravar(pagina(graficos, titulo, subtitulo, dpi=110), "png")


def _gravar(fig: Figure, formato: str) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if formato == "png":
        FigureCanvasAgg(fig)
    saida = io.BytesIO()
    fig.savefig(saida, format=formato, metadata={"Creator": "Secretaria"} if formato == "pdf" else None)
    return saida.getvalue()
