"""The Painel page: the Secretary's home, its charts with the numbers of the database, a click on a bar that
opens the autos behind it, and the exports (PNG, one-page PDF)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import threading
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.models import AutoInfracao, Linha, Operadora
from secretaria.ui.janela_principal import JanelaPrincipal
from secretaria.ui.painel import CartaoGrafico, PaginaPainel
from secretaria.ui.processo.paginas import PaginaAutos
from secretaria.ui.widgets import arquivos
from secretaria.ui.widgets.tarefas import aguardar_tarefas
from tests.helpers import apoio_processo as ap
from tests.helpers.cenario_painel import cenario
from tests.helpers.fabrica import Roteiro


def _janela(qtbot: QtBot, banco: Banco, *papeis: str) -> JanelaPrincipal:
    janela = ap.manter(JanelaPrincipal(ap.contexto(banco, *papeis)))
    qtbot.addWidget(janela)
    janela.resize(1366, 768)
    janela.show()
    return janela


def _painel_carregado(qtbot: QtBot, janela: JanelaPrincipal) -> PaginaPainel:
    pagina = janela.pagina_atual()
    assert isinstance(pagina, PaginaPainel)
    qtbot.waitUntil(lambda: pagina.pronta, timeout=30_000)
    return pagina


def _clicar_barra(qtbot: QtBot, cartao: CartaoGrafico, serie: int, categoria: int) -> None:
    """A real mouse click, through Qt, on the middle of the bar (or of the line's point) of the drawing on
    screen — where matplotlib put it, as the drawing's own map says."""
    assert cartao.vista.imagem is not None
    regiao = next(r for r in cartao.vista.imagem.regioes if (r.serie, r.categoria) == (serie, categoria))
    razao = cartao.vista.devicePixelRatioF()
    x, y = (regiao.x0 + regiao.x1) / 2 / razao, (regiao.y0 + regiao.y1) / 2 / razao
    qtbot.mouseClick(cartao.vista, Qt.MouseButton.LeftButton, pos=QPoint(round(x), round(y)))


def test_secretario_e_autoridade_comecam_no_painel(qtbot: QtBot, banco: Banco, roteiro: Roteiro) -> None:
    for papeis, inicial in (
        (("secretario",), "painel"),
        (("autoridade",), "painel"),
        (("fiscal",), "inicio"),
    ):
        janela = _janela(qtbot, banco, *papeis)
        assert janela.pagina_atual() is janela.pagina(inicial)
        assert "painel" in janela.chaves_visiveis  # every role may open it
        if inicial == "painel":
            _painel_carregado(qtbot, janela)
        janela.close()


def test_graficos_com_os_numeros_e_clique_abre_os_autos(qtbot: QtBot, banco: Banco, roteiro: Roteiro) -> None:
    cenario(roteiro)
    janela = _janela(qtbot, banco, "secretario")
    pagina = _painel_carregado(qtbot, janela)
    assert len(pagina.cartoes) == len(pagina.graficos) == 7
    with banco.leitura() as s:
        datas = s.execute(sa.select(AutoInfracao.data_infracao, AutoInfracao.operadora_id)).all()
    f = pagina.painel.filtro if pagina.painel else None
    assert f is not None and f.ate == roteiro.hoje and f.desde == date(2025, 12, 1)
    no_periodo = [(d, o) for d, o in datas if f.desde <= d <= f.ate]
    mensal = pagina.graficos[0].grafico
    assert sum(sum(s.valores) for s in mensal.series) == len(no_periodo)

    # The bar of the first operator in July 2026 → the autos list with those autos.
    categoria = mensal.categorias.index("jul/26")
    serie = next(j for j, s in enumerate(mensal.series) if s.valores[categoria])
    esperado = int(mensal.series[serie].valores[categoria])
    _clicar_barra(qtbot, pagina.cartoes[0], serie, categoria)
    autos = janela.pagina_atual()
    assert isinstance(autos, PaginaAutos)
    qtbot.waitUntil(lambda: autos.modelo.total == esperado)
    assert autos.desde is not None and autos.desde.data() == date(2026, 7, 1)
    assert autos.ate is not None and autos.ate.data() == date(2026, 7, 31)

    # The most cited provision → its autos, said above the list and undone by its button.
    janela.mostrar_pagina("painel")
    dispositivos = pagina.graficos[1]
    mais = dispositivos.destinos[(0, 0)]
    esperado_d = sum(1 for (c,) in _codigos(banco) if c == mais.dispositivo)
    assert dispositivos.grafico.series[0].valores[0] == esperado_d
    _clicar_barra(qtbot, pagina.cartoes[1], 0, 0)
    assert janela.pagina_atual() is autos
    qtbot.waitUntil(lambda: autos.modelo.total == esperado_d)
    assert autos.aviso_painel.isVisible() and mais.rotulo in autos.aviso_painel.text()
    qtbot.mouseClick(autos.botao_limpar_painel, Qt.MouseButton.LeftButton)
    assert not autos.aviso_painel.isVisible()
    janela.close()


def _codigos(banco: Banco) -> list[tuple[str]]:
    with banco.leitura() as s:
        return [
            (c,)
            for c, d in s.execute(sa.select(AutoInfracao.dispositivo_codigo, AutoInfracao.data_infracao))
            if d >= date(2025, 12, 1)
        ]


def test_filtro_por_operadora_e_periodo_invalido(qtbot: QtBot, banco: Banco, roteiro: Roteiro) -> None:
    cenario(roteiro)
    janela = _janela(qtbot, banco, "secretario")
    pagina = _painel_carregado(qtbot, janela)
    pagina.operadora.setCurrentIndex(pagina.operadora.findData(roteiro.cidade.operadora2_id))
    qtbot.waitUntil(
        lambda: (
            pagina.tarefa is None
            and pagina.painel is not None
            and pagina.painel.filtro.operadora_id == roteiro.cidade.operadora2_id
        )
    )
    with banco.leitura() as s:
        n = s.scalar(
            sa.select(sa.func.count())
            .select_from(AutoInfracao)
            .where(
                AutoInfracao.operadora_id == roteiro.cidade.operadora2_id,
                AutoInfracao.data_infracao >= date(2025, 12, 1),
            )
        )
    assert sum(sum(s.valores) for s in pagina.graficos[0].grafico.series) == n
    # A period ending before it starts: said beside the fields, nothing read.
    pagina.desde.definir_data(date(2026, 12, 31))
    assert pagina.erro_periodo.isVisible() and "posterior" in pagina.erro_periodo.text()
    assert pagina.tarefa is None
    janela.close()


def test_exportar_grafico_e_pagina(
    qtbot: QtBot, banco: Banco, roteiro: Roteiro, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pypdf import PdfReader

    cenario(roteiro)
    janela = _janela(qtbot, banco, "autoridade")
    pagina = _painel_carregado(qtbot, janela)
    destinos = iter([tmp_path / "g.png", tmp_path / "g.pdf", tmp_path / "p.png", tmp_path / "p.pdf"])
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: next(destinos))
    cartao = pagina.cartoes[3]
    qtbot.mouseClick(cartao.botao_png, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(cartao.botao_pdf, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(pagina.botao_png, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(pagina.botao_pdf, Qt.MouseButton.LeftButton)
    assert aguardar_tarefas()  # drawn and written in the background
    assert (tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for nome, titulo in (("g.pdf", "Multas por mês"), ("p.pdf", "Reincidência aberta hoje")):
        leitor = PdfReader(io.BytesIO((tmp_path / nome).read_bytes()))
        assert len(leitor.pages) == 1
        texto = leitor.pages[0].extract_text()
        assert titulo in texto and "Período: 01/12/2025 a 30/11/2026" in texto
    assert "Gravado em" in pagina.situacao.text()
    janela.close()


def test_abrir_o_programa_nao_carrega_o_matplotlib() -> None:
    codigo = (
        "import sys, secretaria.ui.app, secretaria.ui.janela_principal, secretaria.ui.painel\n"
        "import secretaria.ui.processo.paginas\n"
        "print('matplotlib' in sys.modules)"
    )
    saida = subprocess.run([sys.executable, "-c", codigo], capture_output=True, text=True, check=True)
    assert saida.stdout.strip() == "False"


def test_multas_prazos_e_tempos_abrem_os_autos_da_barra(qtbot: QtBot, banco: Banco, roteiro: Roteiro) -> None:
    """A click on a bar of the fines and deadlines charts, and on a point of the times chart, opens the autos
    list with exactly the autos the test's own reading of the rows says, the filter said above it."""
    from tests.helpers.autos_do_painel import autos_esperados

    cenario(roteiro)
    janela = _janela(qtbot, banco, "secretario")
    pagina = _painel_carregado(qtbot, janela)
    chaves = [g.grafico.chave for g in pagina.graficos]
    pedidos = (
        ("multas", "Pagas", "abr/26"),
        ("multas", "Inscritas em dívida ativa", "set/26"),
        ("prazos", "Recursos intempestivos", "mai/26"),
        ("prazos", "Decisões atrasadas", "mar/26"),
        ("tempos", "Até a decisão definitiva", "fev/26"),
    )
    autos: PaginaAutos | None = None
    for chave, serie_rotulo, mes in pedidos:
        janela.mostrar_pagina("painel")
        k = chaves.index(chave)
        gp = pagina.graficos[k]
        serie = [s.rotulo for s in gp.grafico.series].index(serie_rotulo)
        categoria = gp.grafico.categorias.index(mes)
        destino = gp.destinos[(serie, categoria)]
        esperado = autos_esperados(banco, destino, roteiro.hoje)
        assert esperado, (chave, serie_rotulo, mes)
        _clicar_barra(qtbot, pagina.cartoes[k], serie, categoria)  # on a point of the times chart
        aberta = janela.pagina_atual()
        assert isinstance(aberta, PaginaAutos)
        autos = aberta
        n = len(esperado)
        qtbot.waitUntil(lambda a=aberta, n=n: a.modelo.total == n)  # type: ignore[misc]
        assert {autos.modelo.id_da_linha(i) for i in range(autos.modelo.total)} == esperado
        assert autos.aviso_painel.isVisible() and destino.rotulo in autos.aviso_painel.text()
        assert ("Do Painel", destino.rotulo) in autos.pedido_impressao().filtros  # the printed list says so
        if chave == "tempos":  # the month of the infraction: the list's own period
            assert autos.desde is not None and autos.desde.data() == destino.desde
        else:
            assert mes in autos.aviso_painel.text()
    # Its button undoes the Painel's filter: every auto of the infraction period the point kept.
    assert autos is not None
    qtbot.mouseClick(autos.botao_limpar_painel, Qt.MouseButton.LeftButton)
    with banco.leitura() as s:
        do_mes = s.scalar(
            sa.select(sa.func.count())
            .select_from(AutoInfracao)
            .where(AutoInfracao.data_infracao.between(date(2026, 2, 1), date(2026, 2, 28)))
        )
    qtbot.waitUntil(lambda: autos.modelo.total == do_mes)
    assert not [f for f in autos.pedido_impressao().filtros if f[0] == "Do Painel"]
    janela.close()


def _contar_desenhos(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys of the charts the page asks to draw, in order (what it sends to the drawing processes)."""
    from secretaria.ui import painel as ui_painel

    pedidos: list[str] = []
    original = ui_painel._Lote.pedir

    def contar(lote: Any, k: int, impressao: tuple[object, ...], grafico: Any) -> None:
        pedidos.append(grafico.chave)
        original(lote, k, impressao, grafico)

    monkeypatch.setattr(ui_painel._Lote, "pedir", contar)
    return pedidos


def test_grafico_sem_mudanca_nao_e_redesenhado(
    qtbot: QtBot, banco: Banco, roteiro: Roteiro, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read again with the same numbers (the page shown again, another PC's act elsewhere), no chart is
    drawn again; a new auto redraws the charts that count it and leaves the fines and recidivism alone."""
    cenario(roteiro)
    desenhados = _contar_desenhos(monkeypatch)
    janela = _janela(qtbot, banco, "secretario")
    pagina = _painel_carregado(qtbot, janela)
    assert len(desenhados) >= 7  # the first drawing: every chart (again, if a card's width changed)
    desenhados.clear()
    pagina.recarregar()
    qtbot.waitUntil(lambda: pagina.tarefa is None, timeout=30_000)
    qtbot.waitUntil(lambda: pagina.pronta, timeout=30_000)
    assert desenhados == []
    roteiro.lavrar(data_infracao=roteiro.hoje)
    pagina.recarregar()
    qtbot.waitUntil(lambda: pagina.tarefa is None, timeout=30_000)
    qtbot.waitUntil(lambda: pagina.pronta, timeout=30_000)
    chaves = [g.grafico.chave for g in pagina.graficos]
    assert chaves[0] in desenhados  # autos per month
    assert chaves[3] not in desenhados and chaves[6] not in desenhados  # fines, recidivism
    janela.close()


def test_graficos_desenhados_em_outros_processos_e_de_novo_ao_redimensionar(
    qtbot: QtBot, banco: Banco, roteiro: Roteiro, monkeypatch: pytest.MonkeyPatch
) -> None:
    """matplotlib draws in helper processes, never in the window's (drawing in a thread still froze the
    window while it held the GIL); a narrower window draws the charts again at the cards' new width."""
    from secretaria.reports import graficos
    from secretaria.ui import desenho_em_processos

    def aqui_nao(*_a: object, **_k: object) -> None:
        raise AssertionError("desenhado no processo da janela")

    monkeypatch.setattr(graficos, "imagem", aqui_nao)
    cenario(roteiro)
    janela = _janela(qtbot, banco, "secretario")
    pagina = _painel_carregado(qtbot, janela)
    ajudantes = desenho_em_processos.ajudantes()
    assert len(ajudantes) == 2 and all(a.processo.poll() is None for a in ajudantes)
    assert all(c.vista.imagem is not None for c in pagina.cartoes)
    cartao = pagina.cartoes[0]
    assert cartao.vista.imagem is not None
    largura = cartao.vista.imagem.largura
    assert largura == cartao.vista.tamanho_em_pixels()[0]
    janela.resize(1000, 700)
    qtbot.waitUntil(lambda: cartao.vista.width() < largura / cartao.vista.devicePixelRatioF())
    qtbot.waitUntil(lambda: pagina.pronta, timeout=30_000)
    assert cartao.vista.imagem.largura == cartao.vista.tamanho_em_pixels()[0] < largura
    janela.close()


def test_sem_processos_de_desenho_os_graficos_sao_desenhados_assim_mesmo(
    qtbot: QtBot, banco: Banco, roteiro: Roteiro, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where helper processes cannot start, the charts are drawn in the drawing thread: slower, never missing;
    and where one dies, the charts it had not drawn are drawn there too."""
    from secretaria.ui import desenho_em_processos

    cenario(roteiro)
    monkeypatch.setattr(desenho_em_processos, "ajudantes", list)
    janela = _janela(qtbot, banco, "secretario")
    pagina = _painel_carregado(qtbot, janela)
    assert all(c.vista.imagem is not None and c.vista.imagem.regioes for c in pagina.cartoes[:2])
    janela.close()

    morto = desenho_em_processos._Ajudante()
    morto.processo.kill()
    morto.processo.wait()
    monkeypatch.setattr(desenho_em_processos, "ajudantes", lambda: [morto])
    grafico = pagina.graficos[0].grafico
    imagens = list(
        desenho_em_processos.desenhar(
            [(0, grafico, 560, 300, 100.0), (1, grafico, 500, 300, 100.0)], lambda: False
        )
    )
    assert sorted((k, i.largura, i.altura) for k, i in imagens) == [(0, 560, 300), (1, 500, 300)]


def test_outro_periodo_cada_grafico_desenhado_assim_que_seus_numeros_chegam(
    qtbot: QtBot, banco: Banco, roteiro: Roteiro, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another period: each chart is drawn as soon as its own numbers are read, in the page's order, without
    waiting for the charts after it (the times chart's reading is held here); once every number is read, every
    card shows the new period's chart."""
    import threading

    from secretaria.services import painel as servico

    cenario(roteiro)
    janela = _janela(qtbot, banco, "secretario")
    pagina = _painel_carregado(qtbot, janela)
    antes = [c.impressao for c in pagina.cartoes]
    desenhados = _contar_desenhos(monkeypatch)
    chegou, liberar = threading.Event(), threading.Event()
    original = servico.medianas_por_mes

    def medianas_retidas(*args: Any, **kwargs: Any) -> Any:
        chegou.set()
        liberar.wait(60)  # released below; the bound only keeps a broken test from hanging the suite
        return original(*args, **kwargs)

    monkeypatch.setattr(servico, "medianas_por_mes", medianas_retidas)
    try:
        pagina.desde.definir_data(date(2026, 6, 1))
        qtbot.waitUntil(chegou.is_set, timeout=30_000)
        # The four charts read before the times chart are drawn with the new period, the others not yet.
        qtbot.waitUntil(
            lambda: all(
                c.impressao == c.desejado() != a for c, a in zip(pagina.cartoes[:4], antes, strict=False)
            ),
            timeout=30_000,
        )
        assert [c.impressao for c in pagina.cartoes[4:]] == antes[4:]
        assert not pagina.pronta
        chaves = [g.grafico.chave for g in pagina.graficos]
        assert desenhados == chaves[:4]
    finally:
        liberar.set()
    qtbot.waitUntil(lambda: pagina.pronta, timeout=30_000)
    assert pagina.painel is not None and pagina.painel.filtro.desde == date(2026, 6, 1)
    novos = servico.graficos_do_painel(pagina.painel)
    for k, (cartao, gp) in enumerate(zip(pagina.cartoes, novos, strict=True)):
        assert cartao.impressao is not None and cartao.impressao[0] == repr(gp.grafico), k
        assert cartao.vista.imagem is not None
    # Every chart of the period drawn again, in order (open recidivism does not depend on the period).
    assert desenhados == [chaves[k] for k in range(6)]
    assert [c.impressao != a for c, a in zip(pagina.cartoes, antes, strict=True)] == [True] * 6 + [False]
    janela.close()


def test_filtros_leem_so_os_nomes_das_operadoras_e_linhas(
    qtbot: QtBot, banco: Banco, roteiro: Roteiro
) -> None:
    """The operator and line filters are filled on the window's thread: from the two registries' names alone,
    never from the registry lists with their situations and counts per row (suspensions, vehicles, autos),
    which grow with the archive. Every line is offered, inactive ones too (the period may be years back)."""
    cenario(roteiro)
    janela = _janela(qtbot, banco, "secretario")
    pagina = _painel_carregado(qtbot, janela)
    lidas: list[str] = []
    esta = threading.get_ident()

    def capturar(_c: object, _cur: object, sql: str, *_a: object) -> None:
        if threading.get_ident() == esta:  # the window's thread (a reading in the background is not this)
            lidas.append(sql)

    for combo in (pagina.operadora, pagina.linha):
        combo.blockSignals(True)  # emptied without reading the numbers again
        combo.clear()
        combo.blockSignals(False)
    sa.event.listen(banco.engine, "before_cursor_execute", capturar)
    try:
        pagina._preencher_combos()
    finally:
        sa.event.remove(banco.engine, "before_cursor_execute", capturar)
    consultas = [q for q in lidas if q.lstrip().upper().startswith(("SELECT", "WITH"))]
    tabelas = {t for q in consultas for t in re.findall(r"\b(?:FROM|JOIN)\s+\"?(\w+)", q)}
    assert len(consultas) == 2 and tabelas == {"operadora", "linha"}, consultas
    with banco.leitura() as s:
        n_operadoras = s.scalar(sa.select(sa.func.count()).select_from(Operadora)) or 0
        n_linhas = s.scalar(sa.select(sa.func.count()).select_from(Linha)) or 0
    assert pagina.operadora.count() == 1 + n_operadoras and pagina.operadora.itemData(0) is None
    assert pagina.linha.count() == 1 + n_linhas and pagina.linha.itemData(0) is None
    janela.close()
