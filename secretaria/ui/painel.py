"""The Painel: what the office is doing, at a glance (the Secretary's and the head of transport's home).

For a period (the last 12 months by default) and optionally one operator or line: autos per month, the
provisions most cited, autos per 100 vehicles, fines decided/paid/in dívida ativa, median days to each step,
deadlines kept, open recidivism chains. The numbers come from `services.painel` (one aggregated query per
chart) read in a background task, so the window never waits on them; a click on a bar (or on a point of
the times chart) opens the autos list filtered to the autos it counts: the month's autos of an operator or
tipo, of a provision, the fines decided/paid/inscribed that month, the decisions and appeals of the month,
the autos of a month of infraction that reached a step. Each chart, and the whole page, exports as PNG and
one-page PDF.

matplotlib (`reports.graficos`, BSD-style licence — Qt Charts is GPL-only) is imported only when the first
numbers arrive, after the window is on the screen: the program's start-up never loads it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
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
from secretaria.services import listas
from secretaria.services import painel as servico
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.datas import CampoData
from secretaria.ui.widgets.formulario import alvo_do_foco
from secretaria.ui.widgets.tarefas import Tarefa

if TYPE_CHECKING:
    from matplotlib.backend_bases import PickEvent

ALTURA_GRAFICO = 300
FILTRO_PNG = "Imagem PNG (*.png)"
FILTRO_PDF = "Documento PDF (*.pdf)"


class CartaoGrafico(QFrame):
    """One chart on a Qt canvas (matplotlib's QtAgg backend) with its export buttons. A click on a bar
    emits `clicado(serie, categoria)`."""

    clicado = Signal(int, int)

    def __init__(self, exportar: Callable[[str, str], object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg

        from secretaria.reports import graficos

        self._graficos = graficos
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.grafico: graficos.Grafico | None = None
        self._impressao: tuple[str, bool] | None = None
        self.figura = graficos.nova_figura(5.6, ALTURA_GRAFICO / 100)
        self.canvas = FigureCanvasQTAgg(self.figura)  # type: ignore[no-untyped-call]
        self.canvas.setFixedHeight(ALTURA_GRAFICO)
        self.canvas.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.canvas.mpl_connect("pick_event", self._escolheu)
        self._ultimo_clique: object = None
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
        layout.addWidget(self.canvas)
        layout.addLayout(rodape)
        layout.addStretch(1)  # beside a taller card, the chart stays at the top

    @property
    def chave(self) -> str:
        return self.grafico.chave if self.grafico is not None else ""

    def mostrar(self, grafico: Any, clicavel: bool) -> None:
        # Drawing is matplotlib's slow part (0.1–0.4 s a chart, on the GUI thread): a chart whose numbers did
        # not change (the page shown again, another PC's act that touched other numbers) keeps its drawing.
        # (Compared by repr: a month without a median is NaN, which equals nothing, not even itself.)
        impressao = (repr(grafico), clicavel)
        if impressao == self._impressao:
            return
        self.grafico, self._impressao = grafico, impressao
        # Horizontal bars grow with their categories (20 operators must still read), the others keep the grid's.
        linhas = len(grafico.categorias) if grafico.forma == "barras_h" else 0
        self.canvas.setFixedHeight(max(ALTURA_GRAFICO, 20 * linhas + 90))
        self.figura.clear()
        self._graficos.desenhar(self.figura.add_subplot(), grafico)
        self.canvas.draw_idle()  # type: ignore[no-untyped-call]
        dica = (
            "Clique num ponto para ver os autos."
            if grafico.forma == "linhas"
            else "Clique numa barra para ver os autos."
        )
        self.dica.setText(dica if clicavel and grafico.tem_dados else "")
        self.canvas.setAccessibleName(grafico.titulo)

    def _escolheu(self, evento: PickEvent) -> None:
        if getattr(evento.mouseevent, "button", None) != 1:
            return
        # One click, one list: where two lines' points coincide, matplotlib reports each; the first counts.
        if evento.mouseevent is self._ultimo_clique:
            return
        self._ultimo_clique = evento.mouseevent
        artista = evento.artist
        indices = getattr(evento, "ind", None)  # a line's points under the mouse
        x = None
        if indices is not None and len(indices) and hasattr(artista, "get_xdata"):
            x = float(artista.get_xdata()[indices[0]])
        alvo = self._graficos.alvo_do_clique(artista.get_gid(), x)
        if alvo is not None:
            self.clicado.emit(*alvo)


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
        self._pendente = False

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
        with self.contexto.banco.leitura() as sessao:
            operadoras = listas.pagina(sessao, "operadoras", None, ("razao_social", True), 0, 10_000)
            linhas = listas.pagina(sessao, "linhas", None, ("codigo", True), 0, 10_000)
        for combo, todas, itens in (
            (self.operadora, "Todas", [(str(o[1]), o[0]) for o in operadoras]),
            (self.linha, "Todas", [(f"{li[1]} — {li[2]}", li[0]) for li in linhas]),
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

        def ler(_progresso: Any) -> servico.Painel:
            with banco.leitura() as sessao:
                return servico.ler_painel(sessao, filtro)

        self.situacao.setText("Carregando…")
        self.tarefa = Tarefa(ler, parent=self)
        self.tarefa.concluida.connect(self._chegou)
        self.tarefa.falhou.connect(self._falhou)
        self.tarefa.iniciar()

    def _fim_da_tarefa(self) -> bool:
        self.tarefa = None
        if self._pendente:
            self._pendente = False
            self.recarregar()
            return True
        return False

    def _falhou(self, mensagem: str) -> None:
        if self._fim_da_tarefa():
            return
        self.situacao.setText("")
        mensagens.avisar_erro(self, "Painel", mensagem)

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
        if not self.cartoes:
            self.grade.removeWidget(self.espera)
            self.espera.deleteLater()
            for k in range(len(self.graficos)):
                cartao = CartaoGrafico(self.exportar_grafico, self.grade_widget)
                cartao.clicado.connect(lambda j, i, k=k: self.abrir_autos(k, j, i))
                largo = k == len(self.graficos) - 1 and len(self.graficos) % 2 == 1
                self.grade.addWidget(cartao, k // 2, k % 2, 1, 2 if largo else 1)
                self.cartoes.append(cartao)
        for cartao, gp in zip(self.cartoes, self.graficos, strict=True):
            cartao.mostrar(gp.grafico, bool(gp.destinos))
        f = p.filtro
        self.situacao.setText(f"{formatar_data(f.desde)} a {formatar_data(f.ate)}" + self._descricao_filtro())
        self.carregado.emit()

    def _descricao_filtro(self) -> str:
        partes = [c.currentText() for c in (self.operadora, self.linha) if c.currentData() is not None]
        return " — " + ", ".join(partes) if partes else ""

    # -- a click on a bar -------------------------------------------------------------------------------
    def abrir_autos(self, grafico: int, serie: int, categoria: int) -> QWidget | None:
        """Open the autos list filtered to what the bar (`serie`, `categoria`) of chart `grafico` counts."""
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

    def exportar_grafico(self, chave: str, formato: str) -> Path | None:
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

    def exportar_pagina(self, formato: str) -> Path | None:
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

    def _gravar(self, nome: str, filtro: str, conteudo: Callable[[], bytes]) -> Path | None:
        destino = arquivos.salvar_como(self, "Exportar", nome, filtro)
        if destino is None:
            return None
        try:
            destino.write_bytes(conteudo())
        except OSError as exc:
            mensagens.avisar_erro(self, "Exportar", arquivos.texto_falha_gravacao(destino, exc))
            return None
        self.situacao.setText(f"Gravado em {destino}")
        return destino
