"""The Painel: what the office is doing, at a glance (the Secretary's and the head of transport's home).

For a period (the last 12 months by default) and optionally one operator or line: autos per month, the
provisions most cited, autos per 100 vehicles, fines decided/paid/in dívida ativa, median days to each step,
deadlines kept, open recidivism chains. The numbers come from `services.painel` (one aggregated query per
chart) read in a background task, so the window never waits on them, and each chart is drawn as soon as its
own numbers are read, while the next chart's are read; a click on a bar (or on a point of
the times chart) opens the autos list filtered to the autos it counts: the month's autos of an operator or
tipo, of a provision, the fines decided/paid/inscribed that month, the decisions and appeals of the month,
the autos of a month of infraction that reached a step. Each chart, and the whole page, exports as PNG and
one-page PDF.

matplotlib (`reports.graficos`, BSD-style licence — Qt Charts is GPL-only) draws each chart into an image in
two helper processes (`ui.desenho_em_processos`), started when the Painel first draws: the window's process
never waits for matplotlib, and its start-up never loads it (where the helpers fail, the drawing thread draws
instead). The page shows the images and maps a click
through each image's own map of where its bars lie.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QMouseEvent, QPainter, QPaintEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from secretaria import relogio
from secretaria.lei.formato import formatar_data
from secretaria.services import cadastros
from secretaria.services import painel as servico
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.datas import CampoData
from secretaria.ui.widgets.formulario import alvo_do_foco
from secretaria.ui.widgets.tarefas import Progresso, Tarefa, em_segundo_plano

if TYPE_CHECKING:
    from secretaria.reports.graficos import Grafico, Imagem
    from secretaria.ui import desenho_em_processos

ALTURA_GRAFICO = 300
FILTRO_PNG = "Imagem PNG (*.png)"
FILTRO_PDF = "Documento PDF (*.pdf)"


class VistaGrafico(QWidget):
    """A chart drawn in the background (`graficos.imagem`), shown as the image it is; a click on one of its
    bars (or points) emits `clicado(serie, categoria)`, found in the image's own map of where each bar lies.
    Until the first drawing arrives it says that it is drawing."""

    clicado = Signal(int, int)
    larguraMudou = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.imagem: Imagem | None = None
        self._quadro: QImage | None = None
        self.clicavel = False
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(200)

    def mostrar(self, imagem: Imagem, quadro: QImage) -> None:
        self.imagem, self._quadro = imagem, quadro
        self.update()

    def tamanho_em_pixels(self) -> tuple[int, int, float]:
        """(width, height) the drawing must have to fill the widget, in device pixels, and their ratio."""
        razao = self.devicePixelRatioF()
        return round(self.width() * razao), round(self.height() * razao), razao

    def resizeEvent(self, evento: QResizeEvent) -> None:
        if evento.oldSize().width() != evento.size().width():
            self.larguraMudou.emit()

    def paintEvent(self, _evento: QPaintEvent) -> None:
        pintor = QPainter(self)
        pintor.fillRect(self.rect(), Qt.GlobalColor.white)
        if self._quadro is not None:
            # While the window is being resized, the old drawing stays as it was until the new one comes.
            pintor.drawImage(0, 0, self._quadro)
        else:
            pintor.setPen(Qt.GlobalColor.darkGray)
            pintor.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "Desenhando o gráfico…")
        pintor.end()

    def _alvo(self, posicao: QPointF) -> tuple[int, int] | None:
        if self.imagem is None or not self.clicavel:
            return None
        razao = self.devicePixelRatioF()
        return self.imagem.alvo(posicao.x() * razao, posicao.y() * razao)

    def mouseMoveEvent(self, evento: QMouseEvent) -> None:
        sobre_barra = self._alvo(evento.position()) is not None
        self.setCursor(Qt.CursorShape.PointingHandCursor if sobre_barra else Qt.CursorShape.ArrowCursor)

    def mousePressEvent(self, evento: QMouseEvent) -> None:
        if evento.button() != Qt.MouseButton.LeftButton:
            return
        alvo = self._alvo(evento.position())
        if alvo is not None:
            self.clicado.emit(*alvo)


class CartaoGrafico(QFrame):
    """One chart with its export buttons. `desejado` says what drawing it should show (the chart, whether it
    is clickable, its size in pixels); the page draws the cards whose drawing differs, in the background."""

    def __init__(self, exportar: Callable[[str, str], object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.grafico: Grafico | None = None
        self.clicavel = False
        self.impressao: tuple[object, ...] | None = None
        """What the drawing on screen shows (None: nothing yet)."""
        self.vista = VistaGrafico()
        self.vista.setFixedHeight(ALTURA_GRAFICO)
        self.clicado = self.vista.clicado
        self.dica = QLabel()
        self.dica.setStyleSheet("color: #555")
        self.botao_png = QPushButton("PNG")
        self.botao_png.setToolTip("Exportar este gráfico como imagem PNG")
        self.botao_pdf = QPushButton("PDF")
        self.botao_pdf.setToolTip("Exportar este gráfico como PDF de uma página")
        self.botao_png.clicked.connect(lambda: exportar(self.chave, "png"))
        self.botao_pdf.clicked.connect(lambda: exportar(self.chave, "pdf"))
        rodape = QHBoxLayout()
        rodape.addWidget(self.dica, 1)
        rodape.addWidget(self.botao_png)
        rodape.addWidget(self.botao_pdf)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.vista)
        layout.addLayout(rodape)
        layout.addStretch(1)  # beside a taller card, the chart stays at the top

    @property
    def chave(self) -> str:
        return self.grafico.chave if self.grafico is not None else ""

    def definir(self, grafico: Grafico, clicavel: bool) -> None:
        """The chart this card shows from now on (its drawing follows, from the page's drawing task)."""
        self.grafico, self.clicavel = grafico, clicavel
        # Horizontal bars grow with their categories (20 operators must still read), the others keep the grid's.
        linhas = len(grafico.categorias) if grafico.forma == "barras_h" else 0
        self.vista.setFixedHeight(max(ALTURA_GRAFICO, 20 * linhas + 90))
        dica = (
            "Clique num ponto para ver os autos."
            if grafico.forma == "linhas"
            else "Clique numa barra para ver os autos."
        )
        self.dica.setText(dica if clicavel and grafico.tem_dados else "")
        self.vista.setAccessibleName(grafico.titulo)

    def desejado(self) -> tuple[object, ...] | None:
        """What the drawing should be now: the chart (compared by repr — a month without a median is NaN,
        which equals nothing, not even itself), whether it is clickable, and its size; None before a chart."""
        if self.grafico is None:
            return None
        return (repr(self.grafico), self.clicavel, *self.vista.tamanho_em_pixels())

    def receber(self, impressao: tuple[object, ...], imagem: Imagem, quadro: QImage) -> None:
        self.impressao = impressao
        self.vista.clicavel = self.clicavel
        self.vista.mostrar(imagem, quadro)


class _Lote:
    """The charts one drawing task draws: a queue the page goes on filling while the first ones are drawn (each
    chart as soon as its numbers are read) and closes once the reading has ended. Each request has a number of
    its own, so a drawing of a card's older numbers is never taken for that of its newer ones."""

    def __init__(self) -> None:
        self.fila: queue.SimpleQueue[desenho_em_processos.Pedido | None] = queue.SimpleQueue()
        self.pedidos: dict[int, tuple[int, tuple[object, ...]]] = {}
        """Request number → (the card, what its drawing shows)."""
        self.ultimos: dict[int, tuple[object, ...]] = {}
        """Card → what its latest request draws."""
        self.aberto = True

    def pedir(self, k: int, impressao: tuple[object, ...], grafico: Grafico) -> None:
        largura, altura, razao = impressao[2], impressao[3], impressao[4]
        assert isinstance(largura, int) and isinstance(altura, int) and isinstance(razao, float)
        numero = len(self.pedidos)
        self.pedidos[numero] = (k, impressao)  # before the queue: a drawing thread may take it at once
        self.ultimos[k] = impressao
        self.fila.put((numero, grafico, max(1, largura), max(1, altura), 100 * razao))

    def fechar(self) -> None:
        if self.aberto:
            self.aberto = False
            self.fila.put(None)


def _desenhar_em_segundo_plano(lote: _Lote) -> Callable[..., None]:
    """The drawing task's function: the charts drawn in the helper processes (`desenho_em_processos`) as the
    page puts them in `lote`, each handed over as soon as it is ready, so the page fills in chart by chart; a
    newer request cancels it (the charts not yet begun are dropped)."""

    def desenhar(progresso: Progresso, entregar: Callable[[object], None]) -> None:
        feitos = 0

        def cancelado() -> bool:
            progresso(
                feitos, len(lote.pedidos), "Desenhando os gráficos…"
            )  # raises Cancelado when asked to stop
            return False

        from secretaria.ui import desenho_em_processos

        for numero, imagem in desenho_em_processos.desenhar(lote.fila, cancelado):
            k, impressao = lote.pedidos[numero]
            # A QImage (unlike a QPixmap) may be made in any thread: the GUI thread only paints it.
            quadro = QImage(
                imagem.rgba, imagem.largura, imagem.altura, 4 * imagem.largura, QImage.Format.Format_RGBA8888
            ).copy()
            razao = impressao[4]
            assert isinstance(razao, float)
            quadro.setDevicePixelRatio(razao)
            entregar((k, impressao, imagem, quadro))
            feitos += 1

    return desenhar


class PaginaPainel(QWidget):
    """The page. `carregado` is emitted when the charts show the numbers of the current filter."""

    carregado = Signal()

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.painel: servico.Painel | None = None
        self.graficos: tuple[servico.GraficoPainel, ...] = ()
        self.cartoes: list[CartaoGrafico] = []
        self.tarefa: Tarefa | None = None
        """Reading the numbers."""
        self.desenho: Tarefa | None = None
        """Drawing the charts whose numbers (or size) changed."""
        self._pendente = False
        self._redesenhar = False
        self._lote: _Lote | None = None
        """What the drawing task draws (None: no task)."""
        self._lidos: set[int] | None = None
        """While the numbers are read: the charts whose numbers have come (only those are drawn meanwhile)."""
        # A resize draws again once the window has stopped changing size, not at each step of the drag.
        self._espera_desenho = QTimer(self)
        self._espera_desenho.setSingleShot(True)
        self._espera_desenho.setInterval(150)
        self._espera_desenho.timeout.connect(self._pedir_desenhos)

        titulo = QLabel("Painel")
        fonte = titulo.font()
        fonte.setPointSizeF(fonte.pointSizeF() * 1.35)
        fonte.setBold(True)
        titulo.setFont(fonte)
        self.situacao = QLabel()
        self.situacao.setStyleSheet("color: #555")
        padrao = servico.filtro_padrao()
        self.desde = CampoData(obrigatoria=True)
        self.desde.definir_data(padrao.desde)
        self.ate = CampoData(obrigatoria=True)
        self.ate.definir_data(padrao.ate)
        self.operadora = QComboBox()
        self.operadora.setAccessibleName("Operadora")
        self.operadora.setMinimumContentsLength(12)
        self.operadora.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.linha = QComboBox()
        self.linha.setAccessibleName("Linha")
        self.linha.setMinimumContentsLength(12)
        self.linha.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.agrupar = QComboBox()
        self.agrupar.setAccessibleName("Agrupar por")
        self.agrupar.addItem("Operadora", "operadora")
        self.agrupar.addItem("Tipo", "tipo")
        self.botao_atualizar = QPushButton("Atuali&zar")
        self.botao_atualizar.setToolTip("F5")
        self.botao_png = QPushButton("Página em &PNG…")
        self.botao_pdf = QPushButton("Página em PD&F…")
        self.erro_periodo = QLabel()
        self.erro_periodo.setStyleSheet("color: #b91c1c")
        self.erro_periodo.setVisible(False)

        filtros = QHBoxLayout()
        for rotulo, campo in (
            ("&De:", self.desde),
            ("A&té:", self.ate),
            ("&Operadora:", self.operadora),
            ("&Linha:", self.linha),
            ("A&grupar por:", self.agrupar),
        ):
            r = QLabel(rotulo)
            r.setBuddy(alvo_do_foco(campo))  # a date field is a container: its editor takes the focus
            filtros.addWidget(r)
            filtros.addWidget(campo)
        filtros.addWidget(self.botao_atualizar)
        filtros.addStretch(1)
        topo = QHBoxLayout()
        topo.addWidget(titulo)
        topo.addSpacing(16)
        topo.addWidget(self.situacao)
        topo.addStretch(1)
        topo.addWidget(self.botao_png)
        topo.addWidget(self.botao_pdf)

        self.grade_widget = QWidget()
        self.grade = QGridLayout(self.grade_widget)
        self.grade.setContentsMargins(0, 0, 0, 0)
        self.grade.setSpacing(8)
        self.espera = QLabel("Carregando os números…")
        self.espera.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.espera.setStyleSheet("color: #666; font-size: 12pt; padding: 40px")
        self.grade.addWidget(self.espera, 0, 0, 1, 2)
        rolagem = QScrollArea()
        rolagem.setWidgetResizable(True)
        rolagem.setFrameShape(QFrame.Shape.NoFrame)
        rolagem.setWidget(self.grade_widget)
        self.rolagem = rolagem

        layout = QVBoxLayout(self)
        layout.addLayout(topo)
        layout.addLayout(filtros)
        layout.addWidget(self.erro_periodo)
        layout.addWidget(rolagem, 1)

        self._preencher_combos()
        self.botao_atualizar.clicked.connect(self.recarregar)
        self.botao_png.clicked.connect(lambda: self.exportar_pagina("png"))
        self.botao_pdf.clicked.connect(lambda: self.exportar_pagina("pdf"))
        self.desde.dataAlterada.connect(lambda _v: self.recarregar())
        self.ate.dataAlterada.connect(lambda _v: self.recarregar())
        self.operadora.currentIndexChanged.connect(lambda _i: self.recarregar())
        self.linha.currentIndexChanged.connect(lambda _i: self.recarregar())
        self.agrupar.currentIndexChanged.connect(lambda _i: self._mostrar())
        self.setFocusProxy(self.desde)
        self.recarregar()

    # -- filter -----------------------------------------------------------------------------------------
    def _preencher_combos(self) -> None:
        # The names alone, as the charts show them (the trade name): read on the window's thread, where the
        # registry lists, with each row's situation and counts, grow with the archive (10 ms → 1–2 ms on the
        # bench city's 20 operators and 120 lines).
        with self.contexto.banco.leitura() as sessao:
            operadoras = cadastros.opcoes_operadoras(sessao)
            linhas = cadastros.opcoes_linhas(sessao, None, somente_ativas=False)
        for combo, todas, itens in (
            (self.operadora, "Todas", [(o.rotulo, o.id) for o in operadoras]),
            (self.linha, "Todas", [(li.rotulo, li.id) for li in linhas]),
        ):
            combo.blockSignals(True)
            combo.addItem(todas, None)
            for texto, valor in itens:
                combo.addItem(texto, valor)
            combo.blockSignals(False)

    def filtro(self) -> servico.FiltroPainel | None:
        """The filter the fields describe, or None (and the message beside them) when the period is wrong."""
        desde, ate = self.desde.data(), self.ate.data()
        mensagem = ""
        if desde is None or ate is None:
            mensagem = "Informe o período completo (dd/mm/aaaa)."
        elif desde > ate:
            mensagem = "O início do período é posterior ao fim."
        self.erro_periodo.setText(mensagem)
        self.erro_periodo.setVisible(bool(mensagem))
        if mensagem or desde is None or ate is None:
            return None
        return servico.FiltroPainel(desde, ate, self.operadora.currentData(), self.linha.currentData())

    # -- loading ----------------------------------------------------------------------------------------
    def recarregar(self) -> None:
        """Read the numbers again in the background (one at a time: a change made while reading reads
        again when that reading ends)."""
        filtro = self.filtro()
        if filtro is None:
            return
        if self.tarefa is not None:
            self._pendente = True
            return
        banco = self.contexto.banco
        por = self.agrupar.currentData()

        def ler(entregar: Callable[[object], None]) -> servico.Painel:
            # Each chart handed over as soon as its numbers are read: it is drawn while the next are read.
            def lido(k: int, parcial: servico.Painel) -> None:
                entregar((k, servico.grafico_do_painel(parcial, k, por)))

            with banco.leitura() as sessao:
                return servico.ler_painel(sessao, filtro, ao_ler=lido)

        self.situacao.setText("Carregando…")
        self._lidos = set()
        tarefa = Tarefa(lambda _progresso: ler(tarefa.parcial.emit), parent=self)
        self.tarefa = tarefa
        self.tarefa.parcial.connect(self._lido)
        self.tarefa.concluida.connect(self._chegou)
        self.tarefa.falhou.connect(self._falhou)
        self.tarefa.iniciar()

    def _fim_da_tarefa(self) -> bool:
        self.tarefa = None
        self._lidos = None
        if self._pendente:
            self._pendente = False
            self.recarregar()
            return True
        return False

    def _falhou(self, mensagem: str) -> None:
        if self._fim_da_tarefa():
            return
        self.situacao.setText("")
        self._pedir_desenhos()  # the charts read before the failure still drawn; the drawing task told so
        mensagens.avisar_erro(self, "Painel", mensagem)

    def _lido(self, entrega: tuple[int, servico.GraficoPainel]) -> None:
        """Chart k's numbers read: its card shows it, drawn at once (the others keep theirs meanwhile)."""
        k, gp = entrega
        if self._pendente or self._lidos is None:
            return  # numbers of a filter since changed: the reading that follows brings the right ones
        self._criar_cartoes()
        if len(self.graficos) == len(self.cartoes):  # a click on the new drawing leads to the new autos
            self.graficos = (*self.graficos[:k], gp, *self.graficos[k + 1 :])
        self.cartoes[k].definir(gp.grafico, bool(gp.destinos))
        self._lidos.add(k)
        # After the layout has given a new card (or one that grew) its size.
        self._espera_desenho.start(0)

    def _criar_cartoes(self) -> None:
        if self.cartoes:
            return
        self.grade.removeWidget(self.espera)
        self.espera.deleteLater()
        n = servico.QUANTOS_GRAFICOS
        for k in range(n):
            cartao = CartaoGrafico(self.exportar_grafico, self.grade_widget)
            cartao.clicado.connect(lambda j, i, k=k: self.abrir_autos(k, j, i))
            cartao.vista.larguraMudou.connect(self._espera_desenho.start)
            largo = k == n - 1 and n % 2 == 1
            self.grade.addWidget(cartao, k // 2, k % 2, 1, 2 if largo else 1)
            self.cartoes.append(cartao)

    def _chegou(self, painel: servico.Painel) -> None:
        if self._fim_da_tarefa():
            return
        self.painel = painel
        self._mostrar()

    def _mostrar(self) -> None:
        p = self.painel
        if p is None:
            return
        self.graficos = servico.graficos_do_painel(p, self.agrupar.currentData())
        self._criar_cartoes()
        for cartao, gp in zip(self.cartoes, self.graficos, strict=True):
            cartao.definir(gp.grafico, bool(gp.destinos))
        f = p.filtro
        self.situacao.setText(f"{formatar_data(f.desde)} a {formatar_data(f.ate)}" + self._descricao_filtro())
        # After the layout has given the new cards their width.
        self._espera_desenho.start(0)

    # -- drawing (in the background: matplotlib takes 0.1–0.4 s a chart) --------------------------------
    def _a_desenhar(self) -> list[tuple[int, tuple[object, ...], Grafico]]:
        """The cards on screen whose drawing is not what they should show (a chart whose numbers did not
        change keeps its drawing: the page shown again, another PC's act that touched other numbers). A
        hidden page draws nothing until it is shown (`showEvent`). While the numbers are read, only the
        charts whose numbers have come are drawn."""
        if not self.isVisible():
            return []
        pedidos = []
        for k, cartao in enumerate(self.cartoes):
            if self._lidos is not None and k not in self._lidos:
                continue
            desejado = cartao.desejado()
            if cartao.grafico is not None and desejado is not None and desejado != cartao.impressao:
                pedidos.append((k, desejado, cartao.grafico))
        return pedidos

    def showEvent(self, evento: QShowEvent) -> None:
        super().showEvent(evento)
        self._espera_desenho.start(0)

    @property
    def pronta(self) -> bool:
        """The numbers of the current filter read and every chart on screen drawn with them."""
        return bool(self.cartoes) and self.tarefa is None and self.desenho is None and not self._a_desenhar()

    def _pedir_desenhos(self) -> None:
        """Draw the cards whose drawing is not what they should show: into the drawing task under way while
        the numbers are still being read (its queue is open), else in a new task once it has ended."""
        pedidos = self._a_desenhar()
        lote = self._lote
        if self.desenho is not None and lote is not None:
            if lote.aberto:
                for k, desejado, grafico in pedidos:
                    if lote.ultimos.get(k) != desejado:
                        lote.pedir(k, desejado, grafico)
                if self.tarefa is None:
                    lote.fechar()
                return
            self._redesenhar = True
            # The drawing under way is of numbers (or a size) no longer wanted: stop it at the next chart.
            if any(self.cartoes[k].desejado() != impressao for k, impressao in lote.ultimos.items()):
                self.desenho.cancelar()
            return
        if not pedidos:
            if self.tarefa is None:
                self.carregado.emit()
            return
        self._lote = lote = _Lote()
        for k, desejado, grafico in pedidos:
            lote.pedir(k, desejado, grafico)
        if self.tarefa is None:
            lote.fechar()
        funcao = _desenhar_em_segundo_plano(lote)
        tarefa = Tarefa(lambda progresso: funcao(progresso, tarefa.parcial.emit), parent=self)
        tarefa.parcial.connect(self._desenhado)
        tarefa.concluida.connect(self._fim_do_desenho)
        tarefa.cancelada.connect(self._fim_do_desenho)
        tarefa.falhou.connect(self._desenho_falhou)
        self.desenho = tarefa
        tarefa.iniciar()

    def _desenhado(self, entrega: tuple[int, tuple[object, ...], Imagem, QImage]) -> None:
        indice, impressao, imagem, quadro = entrega
        cartao = self.cartoes[indice]
        # A drawing of numbers since replaced is still better than an empty card while the new one comes.
        if impressao == cartao.desejado() or cartao.impressao is None:
            cartao.receber(impressao, imagem, quadro)

    def _fim_do_desenho(self, _resultado: object = None) -> None:
        self.desenho = None
        self._lote = None
        self._redesenhar = False
        self._pedir_desenhos()

    def _desenho_falhou(self, mensagem: str) -> None:
        self.desenho = None
        self._lote = None
        self._redesenhar = False
        mensagens.avisar_erro(self, "Painel", mensagem)  # said once; the next change of numbers tries again

    def _descricao_filtro(self) -> str:
        partes = [c.currentText() for c in (self.operadora, self.linha) if c.currentData() is not None]
        return " — " + ", ".join(partes) if partes else ""

    # -- a click on a bar -------------------------------------------------------------------------------
    def abrir_autos(self, grafico: int, serie: int, categoria: int) -> QWidget | None:
        """Open the autos list filtered to what the bar (`serie`, `categoria`) of chart `grafico` counts."""
        if grafico >= len(self.graficos):
            return None  # the first reading is not over: its charts take clicks once it is
        destino = self.graficos[grafico].destinos.get((serie, categoria))
        janela = self.window()
        mostrar: Callable[[str], QWidget | None] | None = getattr(janela, "mostrar_pagina", None)
        if destino is None or mostrar is None:
            return None
        pagina = mostrar("autos")
        filtrar: Callable[[servico.DestinoLista], None] | None = getattr(pagina, "filtrar", None)
        if filtrar is not None:
            filtrar(destino)
        return pagina

    # -- exports ----------------------------------------------------------------------------------------
    def _subtitulo(self) -> str:
        if self.painel is None:
            return ""
        f = self.painel.filtro
        return f"Período: {formatar_data(f.desde)} a {formatar_data(f.ate)}{self._descricao_filtro()}"

    def exportar_grafico(self, chave: str, formato: str) -> Tarefa | None:
        from secretaria.reports import graficos

        gp = next((g for g in self.graficos if g.grafico.chave == chave), None)
        if gp is None:
            return None
        g = gp.grafico
        if formato == "png":
            return self._gravar(f"painel-{chave}.png", FILTRO_PNG, lambda: graficos.png(g))
        return self._gravar(
            f"painel-{chave}.pdf", FILTRO_PDF, lambda: graficos.pdf([g], g.titulo, self._subtitulo())
        )

    def exportar_pagina(self, formato: str) -> Tarefa | None:
        from secretaria.reports import graficos

        if not self.graficos:
            mensagens.informar(self, "Painel", "Os números ainda estão sendo carregados.")
            return None
        todos = [g.grafico for g in self.graficos]
        titulo = "Painel da fiscalização do transporte coletivo"
        nome = f"painel-{relogio.hoje():%Y-%m-%d}.{formato}"
        if formato == "png":
            return self._gravar(
                nome, FILTRO_PNG, lambda: graficos.png_pagina(todos, titulo, self._subtitulo())
            )
        return self._gravar(nome, FILTRO_PDF, lambda: graficos.pdf(todos, titulo, self._subtitulo()))

    def _gravar(self, nome: str, filtro: str, conteudo: Callable[[], bytes]) -> Tarefa | None:
        """Ask where, then draw and write the file in the background (a page of seven charts takes a second
        or two); "Gravado em …" says when it is there."""
        destino = arquivos.salvar_como(self, "Exportar", nome, filtro)
        if destino is None:
            return None

        def gravar(_progresso: Progresso) -> str:
            try:
                destino.write_bytes(conteudo())
            except OSError as exc:
                return arquivos.texto_falha_gravacao(destino, exc)
            return ""

        def concluido(falha: str) -> None:
            if falha:
                mensagens.avisar_erro(self, "Exportar", falha)
            else:
                self.situacao.setText(f"Gravado em {destino}")

        return em_segundo_plano(
            self,
            gravar,
            titulo="Exportar",
            texto=f"Gerando {destino.name}…",
            ao_concluir=concluido,
            cancelavel=False,
        )
