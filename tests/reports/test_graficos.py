"""The Painel's charts as drawn on screen (`graficos.imagem`): placed by one measure of what they draw, so
titles, rotated month labels, long category labels, a legend beside the plot and the note under it all fit
the image of the card (651 × 300 pixels in a 1366-pixel-wide window, the wide card 1320 × 490, and both
at a device pixel ratio of 2)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from secretaria.reports import graficos
from secretaria.reports.graficos import Grafico, Serie

MESES = tuple(graficos.rotulo_mes(f"2026-{m:02d}") for m in range(1, 13))
# As long as the bench city's operators' names (twenty of them, "Canal São Gonçalo" the longest).
OPERADORAS = tuple(f"Operadora Nº {k:02d} Sul" for k in range(20))

CASOS = {
    "vinte séries empilhadas, legenda em duas colunas": Grafico(
        "autos_mes",
        "Autos por mês da infração, por operadora",
        MESES,
        tuple(Serie(nome, tuple(float(10 + k + m) for m in range(12))) for k, nome in enumerate(OPERADORAS)),
        empilhado=True,
        nota="Todos os autos lavrados, cancelados inclusive.",
    ),
    "barras deitadas de rótulos longos e a marca de referência": Grafico(
        "reincidencia",
        "Reincidência aberta hoje: nível da próxima infração e o da suspensão (§ 5º)",
        tuple(f"{nome} — Art. 1º, XVIII (tipo A)" for nome in OPERADORAS[:12]),
        (Serie("Nível de reincidência", tuple(float(2 + k % 7) for k in range(12))),),
        forma="barras_h",
        referencia=tuple(4.0 for _ in range(12)),
        rotulo_referencia="Suspensão cabível a partir de",
    ),
    "valores em reais lado a lado": Grafico(
        "multas",
        "Multas por mês (R$): aplicadas, pagas e inscritas em dívida ativa",
        MESES,
        tuple(Serie(s, tuple(654_321.98 * (k + 1) / 3 for _ in range(12))) for k, s in enumerate("ABC")),
        formato="reais",
    ),
    "linhas com meses sem mediana": Grafico(
        "tempos",
        "Mediana de dias desde a infração, por mês da infração",
        MESES,
        (Serie("Até a decisão", tuple(float("nan") if m > 9 else 40.0 + m for m in range(12))),),
        forma="linhas",
        formato="dias",
    ),
}


def _pixels(imagem: graficos.Imagem) -> np.ndarray:
    return np.frombuffer(imagem.rgba, np.uint8).reshape(imagem.altura, imagem.largura, 4)


LARGO = "barras deitadas de rótulos longos e a marca de referência"
"""The recidivism chart: the page's last card, as wide as the page."""
TAMANHOS = {"estreito": (651, 300), "largo": (1320, 490)}


@pytest.mark.parametrize("caso", list(CASOS))
@pytest.mark.parametrize("razao", [1, 2])
def test_nada_cortado_na_borda_da_imagem(caso: str, razao: int) -> None:
    g = CASOS[caso]
    largura, altura = (razao * x for x in TAMANHOS["largo" if caso == LARGO else "estreito"])
    imagem = graficos.imagem(g, largura, altura, 100.0 * razao)
    assert (imagem.largura, imagem.altura) == (largura, altura)
    pixels = _pixels(imagem)
    borda = 2  # the margin is 3 pt: nothing drawn reaches the image's last pixels
    for lado in (pixels[:borda], pixels[-borda:], pixels[:, :borda], pixels[:, -borda:]):
        assert (lado[..., :3] == 255).all(), caso
    # The plot still has most of the room: its bars (or points) lie well inside, never squeezed to nothing.
    assert imagem.regioes
    assert max(r.x1 for r in imagem.regioes) - min(r.x0 for r in imagem.regioes) > largura / 4


def test_matplotlib_desenha_o_texto_em_c() -> None:
    # matplotlib 3.11 lays each text out with libraqm and renders it glyph by glyph in Python: the Painel's
    # 7 charts took a third more CPU (bench/run, "os 7 gráficos desenhados num processo": 0.96 → 0.53 s on
    # PostgreSQL's city, 0.69 → 0.60 s on SQLite's). pyproject.toml keeps it below 3.11 until that is measured
    # again on a newer release.
    from matplotlib.backends.backend_agg import RendererAgg

    assert not hasattr(RendererAgg, "_draw_text_glyphs_and_boxes"), "texto desenhado glifo a glifo em Python"


@pytest.mark.parametrize("dpi", [100, 125, 200])
def test_imagem_tem_exatamente_os_pixels_pedidos(dpi: int) -> None:
    g = Grafico("k", "Título", ("a", "b"), (Serie("s", (1.0, 2.0)),))
    for largura, altura in ((230, 120), (651, 300), (1317, 489), (333, 217)):
        desenho = graficos.imagem(g, largura, altura, dpi)
        assert (desenho.largura, desenho.altura) == (largura, altura)
        assert len(desenho.rgba) == 4 * largura * altura


def _como_o_matplotlib_mede(g: Grafico, largura: int, altura: int, dpi: int) -> bytes:
    """The chart drawn with matplotlib's own placing: the title and the axes' labels placed by matplotlib at
    each measure and draw, and everything the axes draws measured (its spines too)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = graficos.nova_figura((largura + 0.25) / dpi, (altura + 0.25) / dpi, dpi, restrito=False)
    tela: Any = FigureCanvasAgg(fig)  # matplotlib's canvas and axes are partly untyped (private attributes)
    eixos: Any = fig.add_subplot()
    graficos.desenhar(eixos, g)
    eixos._autotitlepos = None  # as set_title leaves it without a height: placed by matplotlib
    eixos.xaxis._autolabelpos = True
    eixos.yaxis._autolabelpos = True
    caixa = eixos.get_tightbbox(tela.get_renderer())
    dentro = eixos.get_window_extent(tela.get_renderer())
    folga = graficos.MARGEM_PT * dpi / 72
    esquerda = max(0.0, dentro.x0 - caixa.x0) + folga
    baixo = max(0.0, dentro.y0 - caixa.y0) + folga
    w = max(1.0, fig.bbox.width - esquerda - max(0.0, caixa.x1 - dentro.x1) - folga)
    h = max(1.0, fig.bbox.height - baixo - max(0.0, caixa.y1 - dentro.y1) - folga)
    lx, ly = fig.bbox.width, fig.bbox.height
    eixos.set_position((esquerda / lx, baixo / ly, w / lx, h / ly))
    tela.draw()
    return bytes(tela.buffer_rgba())


@pytest.mark.parametrize("caso", list(CASOS))
@pytest.mark.parametrize("largura, altura, dpi", [(651, 300, 100), (320, 260, 100), (1320, 490, 200)])
def test_atalhos_da_medida_nao_mudam_um_pixel(caso: str, largura: int, altura: int, dpi: int) -> None:
    # `imagem` gives the title its height, leaves the empty labels where they are and does not measure the
    # spines (a third less of the drawing's CPU): what these charts draw comes out the same, pixel by pixel.
    g = CASOS[caso]
    assert graficos.imagem(g, largura, altura, dpi).rgba == _como_o_matplotlib_mede(g, largura, altura, dpi)
