"""The "Relatórios" page: the monthly spreadsheet, an operator's ficha, and the batch of a period's intimações.

Every role sees it (consulta reads and prints). Each button is one user action: it issues the document
through the services (stored with its SHA-256) and then prints it through the system dialog or saves it.
The spreadsheet is written with a progress dialog that can be cancelled (no half-written file is left).
"""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from secretaria import relogio
from secretaria.lei.formato import formatar_decimal
from secretaria.reports.formato import MESES
from secretaria.services.base import ErroDominio
from secretaria.services.documentos import DocumentoInfo
from secretaria.services.relatorios import ResumoRelatorio, nome_arquivo_mensal, periodo_do_mes
from secretaria.ui import impressao
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import CampoData, arquivos, mensagens
from secretaria.ui.widgets.tarefas import Progresso, em_segundo_plano

FILTRO_XLSX = "Planilhas do Excel (*.xlsx)"


def _quantos(n: int, singular: str, plural: str) -> str:
    return f"{n:,}".replace(",", ".") + f" {singular if n == 1 else plural}"


def mensagem_planilha(resumo: ResumoRelatorio) -> str:
    """What the saved monthly file holds, in plain Portuguese plurals ("1 auto lavrado", "75 decisões")."""
    return (
        f"Planilha de {resumo.mes:02d}/{resumo.ano} gravada em {resumo.destino}:\n"
        f"{_quantos(resumo.autos, 'auto lavrado', 'autos lavrados')}, "
        f"{_quantos(resumo.penalidades, 'decisão', 'decisões')}, "
        f"{_quantos(resumo.prazos, 'prazo em aberto', 'prazos em aberto')} no fim do mês e "
        f"{_quantos(resumo.pagamentos, 'pagamento', 'pagamentos')}."
    )


class PaginaRelatorios(QWidget):
    """Monthly spreadsheet, ficha of an operator, and the batch of intimações with its delivery list."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.setObjectName("pagina_relatorios")
        titulo = QLabel("<h2>Relatórios e documentos</h2>")
        self.ultimo_documento: DocumentoInfo | None = None

        # -- the monthly spreadsheet --
        grupo_mensal = QGroupBox("Planilha mensal (Excel)")
        self.mes = QComboBox()
        self.mes.addItems([m.capitalize() for m in MESES])
        self.mes.setAccessibleName("Mês")
        self.ano = QSpinBox()
        self.ano.setRange(1978, 2100)
        self.ano.setAccessibleName("Ano")
        self.botao_planilha = QPushButton("Gerar planilha…")
        self.botao_planilha.setObjectName("gerar_planilha")
        self.botao_planilha.clicked.connect(self.gerar_planilha)
        linha = QHBoxLayout()
        linha.addWidget(QLabel("Mês:"))
        linha.addWidget(self.mes)
        linha.addWidget(self.ano)
        linha.addWidget(self.botao_planilha)
        linha.addStretch(1)
        explicacao_mensal = QLabel(
            "Autos lavrados no mês (número, data, operadora, dispositivo, tipo, veículo, empregado, situação, "
            "multa em URM e R$), resumo por operadora e tipo com totais, penalidades e suspensões decididas, "
            "prazos de defesa e de recurso em aberto no último dia do mês, e pagamentos."
        )
        explicacao_mensal.setWordWrap(True)
        explicacao_mensal.setStyleSheet("color: #555;")
        v = QVBoxLayout(grupo_mensal)
        v.addLayout(linha)
        v.addWidget(explicacao_mensal)

        # -- the ficha of an operator --
        grupo_ficha = QGroupBox("Ficha da operadora (PDF)")
        self.operadora = QComboBox()
        self.operadora.setMinimumContentsLength(40)
        self.operadora.setAccessibleName("Operadora")
        self.botao_ficha_salvar = QPushButton("Salvar PDF…")
        self.botao_ficha_salvar.setObjectName("ficha_salvar")
        self.botao_ficha_salvar.clicked.connect(lambda: self.ficha("salvar"))
        self.botao_ficha_imprimir = QPushButton("Imprimir…")
        self.botao_ficha_imprimir.setObjectName("ficha_imprimir")
        self.botao_ficha_imprimir.clicked.connect(lambda: self.ficha("imprimir"))
        linha = QHBoxLayout()
        linha.addWidget(QLabel("Operadora:"))
        linha.addWidget(self.operadora, 1)
        linha.addWidget(self.botao_ficha_salvar)
        linha.addWidget(self.botao_ficha_imprimir)
        v = QVBoxLayout(grupo_ficha)
        v.addLayout(linha)
        nota_ficha = QLabel(
            "Dados cadastrais e todos os processos: situação, multas, suspensões e pagamentos."
        )
        nota_ficha.setStyleSheet("color: #555;")
        v.addWidget(nota_ficha)

        # -- the batch of intimações --
        grupo_lote = QGroupBox("Intimações de um período (PDF, com a relação de entrega)")
        self.inicio = CampoData(obrigatoria=True)
        self.fim = CampoData(obrigatoria=True)
        self.entrega = CampoData(obrigatoria=True)
        self.inicio.setAccessibleName("Autos lavrados de")
        self.fim.setAccessibleName("até")
        self.entrega.setAccessibleName("Entrega prevista em")
        self.contagem_lote = QLabel()
        self.contagem_lote.setObjectName("contagem_lote")
        for campo in (self.inicio, self.fim):
            campo.dataAlterada.connect(lambda _d: self.atualizar_contagem())
        self.botao_lote_salvar = QPushButton("Salvar PDF…")
        self.botao_lote_salvar.setObjectName("lote_salvar")
        self.botao_lote_salvar.clicked.connect(lambda: self.lote("salvar"))
        self.botao_lote_imprimir = QPushButton("Imprimir…")
        self.botao_lote_imprimir.setObjectName("lote_imprimir")
        self.botao_lote_imprimir.clicked.connect(lambda: self.lote("imprimir"))
        formulario = QFormLayout()
        periodo = QHBoxLayout()
        periodo.addWidget(self.inicio)
        periodo.addWidget(QLabel("até"))
        periodo.addWidget(self.fim)
        periodo.addStretch(1)
        formulario.addRow("Autos lavrados de:", periodo)
        formulario.addRow("Entrega prevista em:", self.entrega)
        botoes = QHBoxLayout()
        botoes.addWidget(self.contagem_lote, 1)
        botoes.addWidget(self.botao_lote_salvar)
        botoes.addWidget(self.botao_lote_imprimir)
        v = QVBoxLayout(grupo_lote)
        v.addLayout(formulario)
        v.addLayout(botoes)
        nota_lote = QLabel(
            "Uma intimação por página para cada auto do período que ainda aguarda intimação, com o prazo de "
            "defesa contado do dia da entrega prevista (art. 14), e no fim a relação para o entregador assinar."
        )
        nota_lote.setWordWrap(True)
        nota_lote.setStyleSheet("color: #555;")
        v.addWidget(nota_lote)

        # -- the annual report --
        grupo_anual = QGroupBox("Relatório anual para a Câmara e o Portal da Transparência")
        self.ano_anual = QSpinBox()
        self.ano_anual.setRange(2000, 2100)
        self.ano_anual.setAccessibleName("Ano do relatório anual")
        self.botao_anual_pdf = QPushButton("Salvar PDF…")
        self.botao_anual_pdf.setObjectName("anual_pdf")
        self.botao_anual_pdf.clicked.connect(lambda: self.relatorio_anual("pdf"))
        self.botao_anual_xlsx = QPushButton("Salvar planilha…")
        self.botao_anual_xlsx.setObjectName("anual_xlsx")
        self.botao_anual_xlsx.clicked.connect(lambda: self.relatorio_anual("xlsx"))
        linha = QHBoxLayout()
        linha.addWidget(QLabel("Ano:"))
        linha.addWidget(self.ano_anual)
        linha.addWidget(self.botao_anual_pdf)
        linha.addWidget(self.botao_anual_xlsx)
        nota_anual = QLabel(
            "Autos, penalidades e valores por operadora e tipo, com os gráficos; sem dados pessoais."
        )
        nota_anual.setStyleSheet("color: #555;")
        linha.addWidget(nota_anual, 1)
        QVBoxLayout(grupo_anual).addLayout(linha)

        layout = QVBoxLayout(self)
        layout.addWidget(titulo)
        layout.addWidget(grupo_mensal)
        layout.addWidget(grupo_ficha)
        layout.addWidget(grupo_lote)
        layout.addWidget(grupo_anual)
        layout.addStretch(1)
        self._valores_iniciais()
        self.recarregar()

    # -- state ------------------------------------------------------------------------------------------
    def _valores_iniciais(self) -> None:
        hoje = relogio.hoje()
        anterior = date(hoje.year - 1, 12, 1) if hoje.month == 1 else date(hoje.year, hoje.month - 1, 1)
        self.ano.setMaximum(hoje.year)
        self.ano_anual.setMaximum(hoje.year)
        self.ano_anual.setValue(hoje.year - 1 if hoje.month < 12 else hoje.year)
        self.mes.setCurrentIndex(anterior.month - 1)
        self.ano.setValue(anterior.year)
        inicio, fim = periodo_do_mes(hoje.year, hoje.month)
        self.inicio.definir_data(inicio)
        self.fim.definir_data(min(fim, hoje))
        self.entrega.definir_data(hoje)

    def recarregar(self) -> None:
        """Called by the main window when the page is shown again: operators and counts may have changed."""
        from secretaria.services.cadastros import opcoes_operadoras

        atual = self.operadora.currentData()
        with self.contexto.banco.leitura() as sessao:
            opcoes = opcoes_operadoras(sessao)
        self.operadora.clear()
        for opcao in opcoes:
            self.operadora.addItem(opcao.rotulo, opcao.id)
        if atual is not None:
            indice = self.operadora.findData(atual)
            if indice >= 0:
                self.operadora.setCurrentIndex(indice)
        tem = bool(opcoes)
        self.botao_ficha_salvar.setEnabled(tem)
        self.botao_ficha_imprimir.setEnabled(tem)
        self.atualizar_contagem()

    def _periodo(self) -> tuple[date, date] | None:
        try:
            inicio = self.inicio.data_ou_erro("inicio", "o início do período")
            fim = self.fim.data_ou_erro("fim", "o fim do período")
        except ErroDominio:
            return None
        if inicio is None or fim is None or inicio > fim:
            return None
        return inicio, fim

    def atualizar_contagem(self) -> None:
        from secretaria.services.documentos import autos_para_intimar

        periodo = self._periodo()
        if periodo is None:
            self.contagem_lote.setText("Informe um período válido (dd/mm/aaaa).")
            quantidade = 0
        else:
            with self.contexto.banco.leitura() as sessao:
                quantidade = len(autos_para_intimar(sessao, *periodo))
            if quantidade == 0:
                self.contagem_lote.setText("Nenhum auto do período aguarda intimação.")
            elif quantidade == 1:
                self.contagem_lote.setText("1 auto do período aguarda intimação.")
            else:
                self.contagem_lote.setText(
                    f"{formatar_decimal(quantidade, 0)} autos do período aguardam intimação."
                )
        self.botao_lote_salvar.setEnabled(quantidade > 0)
        self.botao_lote_imprimir.setEnabled(quantidade > 0)

    # -- actions ----------------------------------------------------------------------------------------
    def gerar_planilha(self) -> None:
        """Ask where to save, then read the month and write the workbook off the GUI thread, with a progress
        dialog whose Cancelar leaves no file behind."""
        from secretaria.services.relatorios import conferir_mes, gerar_relatorio_mensal

        ano, mes = self.ano.value(), self.mes.currentIndex() + 1
        titulo = "Planilha mensal"
        try:
            conferir_mes(ano, mes)
        except ErroDominio as erro:
            mensagens.avisar_erro(self, titulo, erro.mensagem)
            return
        destino = arquivos.salvar_como(
            self, "Salvar planilha mensal", nome_arquivo_mensal(ano, mes), FILTRO_XLSX
        )
        if destino is None:
            return
        banco = self.contexto.banco
        nome_mes = f"{MESES[mes - 1]} de {ano}"

        def gerar(progresso: Progresso) -> ResumoRelatorio:
            progresso(0, 0, f"Lendo os dados de {nome_mes}…")

            def avancar(feitas: int, total: int) -> None:
                progresso(
                    min(feitas, total),
                    total,
                    f"Gravando a planilha de {nome_mes}: linha {feitas:,} de {total:,}…".replace(",", "."),
                )

            try:
                return gerar_relatorio_mensal(banco, ano, mes, destino, progresso=avancar)
            except OSError as exc:
                raise ErroDominio(
                    arquivos.texto_falha_gravacao(
                        destino, exc, "Se o arquivo estiver aberto no Excel, feche-o e tente de novo."
                    )
                ) from exc

        em_segundo_plano(
            self,
            gerar,
            titulo=titulo,
            texto=f"Lendo os dados de {nome_mes}…",
            ao_concluir=lambda resumo: self._planilha_gravada(titulo, resumo),
            chave=("planilha_mensal", str(destino)),
        )

    def _planilha_gravada(self, titulo: str, resumo: ResumoRelatorio) -> None:
        mensagens.informar(self, titulo, mensagem_planilha(resumo))

    def relatorio_anual(self, formato: str) -> None:
        """Ask where to save, then gather the year and write the PDF or the workbook in the background."""
        from secretaria.reports.relatorio_anual import nome_arquivo_anual
        from secretaria.services.painel import gerar_relatorio_anual
        from secretaria.ui.widgets.tarefas import Tarefa
        from secretaria.ui.widgets.tarefas import dialogo_progresso as progresso_tarefa

        ano = self.ano_anual.value()
        titulo = "Relatório anual"
        filtro = "Documento PDF (*.pdf)" if formato == "pdf" else FILTRO_XLSX
        destino = arquivos.salvar_como(
            self, f"Salvar relatório anual de {ano}", nome_arquivo_anual(ano, formato), filtro
        )
        if destino is None:
            return
        banco = self.contexto.banco
        self.tarefa_anual = Tarefa(lambda _p: gerar_relatorio_anual(banco, ano, destino), parent=self)
        self.tarefa_anual.concluida.connect(lambda mensagem: mensagens.informar(self, titulo, str(mensagem)))
        self.tarefa_anual.falhou.connect(lambda mensagem: mensagens.avisar_erro(self, titulo, mensagem))
        self.tarefa_anual.iniciar(progresso_tarefa(self, titulo, f"Gravando o relatório de {ano}…"))

    def ficha(self, acao: str) -> None:
        operadora_id = self.operadora.currentData()
        if operadora_id is None:
            mensagens.avisar_erro(self, "Ficha da operadora", "Escolha a operadora.")
            return
        impressao.acoes_documento(
            self, self.contexto, acao, tipo="ficha", operadora_id=int(operadora_id), ao_concluir=self._emitido
        )

    def lote(self, acao: str) -> None:
        titulo = "Intimações do período"
        try:
            inicio = self.inicio.data_ou_erro("inicio", "o início do período")
            fim = self.fim.data_ou_erro("fim", "o fim do período")
            entrega = self.entrega.data_ou_erro("data_entrega", "a data prevista da entrega")
        except ErroDominio as erro:
            mensagens.avisar_erro(self, titulo, erro.mensagem)
            return
        assert inicio is not None and fim is not None
        impressao.acoes_documento(
            self,
            self.contexto,
            acao,
            tipo="lote_intimacoes",
            periodo=(inicio, fim),
            data_entrega=entrega,
            ao_concluir=self._emitido,
        )

    def _emitido(self, info: DocumentoInfo) -> None:
        self.ultimo_documento = info
        if info.tipo == "lote_intimacoes":
            self.atualizar_contagem()
