"""The auto de infração form (art. 10) with the live sanction panel beside it (PRODUTO path 2).

Every change of operator, provision or infraction date schedules one `avaliar_sancao` call (debounced);
the panel shows what the law allows before the inspector saves. "Lavrar auto" asks for confirmation (it
issues the year's next number, which can never be taken back: an auto is cancelled, not deleted), then
calls `lavrar_auto` and attaches the chosen evidence files. A refusal appears beside its field.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from secretaria import relogio
from secretaria.lei.formato import formatar_data
from secretaria.services.autos import (
    DadosTestemunha,
    NovoAuto,
    anexar_evidencia,
    conferir_lavratura,
    lavrar_auto,
)
from secretaria.services.base import ErroDominio
from secretaria.services.rotulos import com_preposicao
from secretaria.services.sancao import avaliar_sancao
from secretaria.ui.contexto import Contexto
from secretaria.ui.processo.campos import (
    CampoTexto,
    alinhar_rotulos,
    combo_pesquisavel,
    preencher_combo,
    selecionar_dado,
)
from secretaria.ui.processo.opcoes import Opcao, OpcoesCaso, opcoes_do_banco
from secretaria.ui.processo.painel_sancao import Adiador, ConteudoPainel, PainelSancao, conteudo_de
from secretaria.ui.widgets import CampoData, Formulario, botoes_salvar_cancelar, mensagens
from secretaria.ui.widgets.arquivos import abrir_arquivos
from secretaria.ui.widgets.documentos import CampoMascarado
from secretaria.ui.widgets.formulario import DialogoFormulario
from secretaria.ui.widgets.gravacao import gravar
from secretaria.ui.widgets.janelas import tamanho_na_tela
from secretaria.ui.widgets.tarefas import Progresso, em_segundo_plano

if TYPE_CHECKING:
    from secretaria.services.documentos import DocumentoInfo as DocumentoEmitidoInfo


@dataclass(frozen=True)
class PreenchimentoAuto:
    """Values to start the form with (from a representação: operator, provision, day, place, facts)."""

    operadora_id: int | None = None
    dispositivo_codigo: str | None = None
    data_infracao: date | None = None
    local: str = ""
    descricao_fatos: str = ""
    circunstancias: str = ""
    representacao_id: int | None = None
    representacao_numero: str = ""
    nota: str = ""

    @classmethod
    def de_representacao(cls, dados: Any) -> PreenchimentoAuto:
        """From `secretaria.services.representacoes.dados_auto_de_representacao`."""
        return cls(
            operadora_id=dados.operadora_id,
            dispositivo_codigo=dados.dispositivo_codigo,
            data_infracao=dados.data_infracao,
            local=dados.local,
            descricao_fatos=dados.descricao_fatos,
            circunstancias=dados.circunstancias,
            representacao_id=dados.representacao_id,
            representacao_numero=dados.representacao_numero,
            nota=dados.nota,
        )


class CampoHora(CampoMascarado):
    """hh:mm, possibly empty; `hora()` → time | None, ValueError when not a time of day."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("00:00;_", parent)
        self.setPlaceholderText("hh:mm")
        self.setMaximumWidth(self.fontMetrics().horizontalAdvance("00:000") + 24)

    def hora(self) -> time | None:
        texto = self.text().replace("_", "").strip()
        if texto in ("", ":"):
            return None
        h, _, m = texto.partition(":")
        if not h.isdigit() or not m.isdigit() or len(m) != 2:
            raise ValueError(texto)
        return time(int(h), int(m))

    def definir_hora(self, valor: time | None) -> None:
        self.setText("" if valor is None else f"{valor:%H%M}")

    def hora_ou_erro(self, campo: str, rotulo: str, obrigatoria: bool = False) -> time | None:
        try:
            valor = self.hora()
        except ValueError:
            raise ErroDominio(
                f"Hora inválida {com_preposicao('em', rotulo)}: use hh:mm (por exemplo, 14:30).", campo
            ) from None
        if valor is None and obrigatoria:
            raise ErroDominio(f"Informe {rotulo}.", campo)
        return valor


class TabelaTestemunhas(QWidget):
    """Witnesses (art. 10, II): name, document, address; rows added and removed with the buttons."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tabela = QTableWidget(0, 3)
        self.tabela.setHorizontalHeaderLabels(["Nome", "Documento", "Endereço"])
        self.tabela.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tabela.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.tabela.verticalHeader().setVisible(False)
        self.tabela.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tabela.setTabKeyNavigation(True)
        self.tabela.setMinimumHeight(self.fontMetrics().height() * 5)
        self.tabela.setAccessibleName("Testemunhas")
        self.botao_adicionar = QPushButton("Adicionar testem&unha")  # its C is Cancelar's
        self.botao_remover = QPushButton("Remover testemunha")
        self.botao_adicionar.clicked.connect(self.adicionar)
        self.botao_remover.clicked.connect(self.remover)
        botoes = QHBoxLayout()
        botoes.addWidget(self.botao_adicionar)
        botoes.addWidget(self.botao_remover)
        botoes.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabela)
        layout.addLayout(botoes)

    def adicionar(self, nome: str = "", documento: str = "", endereco: str = "") -> None:
        linha = self.tabela.rowCount()
        self.tabela.insertRow(linha)
        for coluna, valor in enumerate((nome, documento, endereco)):
            self.tabela.setItem(linha, coluna, QTableWidgetItem(valor))
        self.tabela.setCurrentCell(linha, 0)
        primeira = self.tabela.item(linha, 0)
        if not nome and primeira is not None:
            self.tabela.editItem(primeira)

    def remover(self) -> None:
        linha = self.tabela.currentRow()
        if linha >= 0:
            self.tabela.removeRow(linha)

    def valores(self) -> list[tuple[str, str, str]]:
        saida = []
        for linha in range(self.tabela.rowCount()):
            celulas = []
            for coluna in range(3):
                item = self.tabela.item(linha, coluna)
                celulas.append(item.text().strip() if item is not None else "")
            if any(celulas):
                saida.append((celulas[0], celulas[1], celulas[2]))
        return saida


class DialogoAuto(DialogoFormulario):
    """Lavrar auto de infração: the form on the left, the live sanction panel on the right.

    `autoLavrado(auto_id, numero_formatado)` is emitted after the save (and the evidence files)."""

    autoLavrado = Signal(int, str)

    def __init__(
        self,
        contexto: Contexto,
        parent: QWidget | None = None,
        *,
        preenchimento: PreenchimentoAuto | None = None,
        opcoes: OpcoesCaso | None = None,
    ) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.opcoes = opcoes or opcoes_do_banco(contexto)
        self.preenchimento = preenchimento or PreenchimentoAuto()
        self.setWindowTitle("Lavrar auto de infração")
        tamanho_na_tela(self, 1220, 820)
        self.resultado: tuple[int, str] | None = None
        self.documento: DocumentoEmitidoInfo | None = None
        """The auto's PDF, issued and stored right after the save."""
        self._arquivos: list[Path] = []
        self._linha_do_veiculo: object = None
        """The line filled in from the chosen vehicle (None once the user picked one himself)."""
        self._preenchendo_linha = False

        self.operadora = combo_pesquisavel()
        self.operadora.setAccessibleName("Operadora")
        self.dispositivo = combo_pesquisavel()
        self.dispositivo.setAccessibleName("Dispositivo infringido")
        self.dispositivo.setMinimumContentsLength(40)
        self.data_infracao = CampoData(obrigatoria=True)
        self.hora_infracao = CampoHora()
        self.local = QLineEdit()
        self.local.setPlaceholderText("Rua, número, bairro ou ponto de referência")
        self.veiculo = combo_pesquisavel()
        self.linha = combo_pesquisavel()
        self.empregado = combo_pesquisavel()
        self.descricao_fatos = CampoTexto(linhas=4)
        self.descricao_fatos.setPlaceholderText("O que aconteceu, com precisão e clareza (art. 10, III)")
        self.circunstancias = CampoTexto(linhas=2)
        self.fiscal = combo_pesquisavel()
        self.data_lavratura = CampoData(obrigatoria=True)
        self.hora_lavratura = CampoHora()
        self.local_lavratura = QLineEdit()
        self.infrator_nome = QLineEdit()
        self.infrator_nome.setPlaceholderText("Razão social da operadora (padrão)")
        self.recusou_assinar = QCheckBox("A pessoa presente recusou-se a assinar o auto")
        self.testemunhas = TabelaTestemunhas()
        self.lista_arquivos = QListWidget()
        self.lista_arquivos.setMaximumHeight(self.fontMetrics().height() * 5)
        self.lista_arquivos.setAccessibleName("Arquivos de evidência")
        self.botao_anexar = QPushButton("Adicionar ar&quivos…")  # its C is Cancelar's
        self.botao_tirar = QPushButton("R&emover arquivo")
        self.botao_anexar.clicked.connect(self._escolher_arquivos)
        self.botao_tirar.clicked.connect(self._remover_arquivo)

        self.painel = PainelSancao()
        self.adiador = Adiador(self.avaliar_agora, self)

        # --- layout ---
        grupo_infracao = QGroupBox("Infração")
        layout_infracao = QVBoxLayout(grupo_infracao)
        self.form = Formulario(layout_infracao, self)
        if self.preenchimento.representacao_id is not None:
            aviso = QLabel(
                f"Auto lavrado a partir da representação nº {self.preenchimento.representacao_numero} "
                "(art. 12): confira os dados trazidos da representação."
                + (f"\n{self.preenchimento.nota}" if self.preenchimento.nota else "")
            )
            aviso.setWordWrap(True)
            layout_infracao.insertWidget(0, aviso)
        f = self.form
        f.adicionar("operadora_id", "&Operadora:", self.operadora)
        f.adicionar("dispositivo_codigo", "&Dispositivo:", self.dispositivo)
        datas = QHBoxLayout()
        datas.addWidget(self.data_infracao)
        rotulo_hora = QLabel("&Hora:")
        rotulo_hora.setBuddy(self.hora_infracao)
        datas.addWidget(rotulo_hora)
        datas.addWidget(self.hora_infracao)
        datas.addStretch(1)
        erro_data = f.adicionar("data_infracao", "Data da &infração:", datas, foco=self.data_infracao.editor)
        f.registrar("hora_infracao", self.hora_infracao, erro_data)
        f.adicionar("local", "&Local da infração:", self.local)
        f.adicionar("veiculo_id", "&Veículo:", self.veiculo)
        f.adicionar("linha_id", "Li&nha:", self.linha)
        f.adicionar("empregado_id", "Empre&gado ou condutor:", self.empregado)
        f.adicionar("descricao_fatos", "Descrição dos &fatos:", self.descricao_fatos)
        f.adicionar("circunstancias", "Circun&stâncias:", self.circunstancias)

        grupo_lavratura = QGroupBox("Lavratura")
        layout_lavratura = QVBoxLayout(grupo_lavratura)
        self.form_lavratura = Formulario(layout_lavratura, self)
        g = self.form_lavratura
        g.adicionar("fiscal_id", "Fiscal &autuante:", self.fiscal)
        quando = QHBoxLayout()
        quando.addWidget(self.data_lavratura)
        # No letter of its own (the date's T leads to this row; Tab reaches the hour): the form's fields took
        # every letter, and "Lavrar auto…" and "Cancelar" must have one.
        rotulo_hora_l = QLabel("Hora:")
        rotulo_hora_l.setBuddy(self.hora_lavratura)
        quando.addWidget(rotulo_hora_l)
        quando.addWidget(self.hora_lavratura)
        quando.addStretch(1)
        erro_lav = g.adicionar(
            "data_lavratura", "Data da lavra&tura:", quando, foco=self.data_lavratura.editor
        )
        g.registrar("hora_lavratura", self.hora_lavratura, erro_lav)
        g.adicionar("local_lavratura", "Local da lavratura:", self.local_lavratura)
        g.adicionar("infrator_nome", "Nome do infrator:", self.infrator_nome)
        g.adicionar("recusou_assinar", "", self.recusou_assinar)
        g.adicionar("testemunhas", "Testemunhas:", self.testemunhas)
        arquivos = QVBoxLayout()
        arquivos.addWidget(self.lista_arquivos)
        botoes_arquivos = QHBoxLayout()
        botoes_arquivos.addWidget(self.botao_anexar)
        botoes_arquivos.addWidget(self.botao_tirar)
        botoes_arquivos.addStretch(1)
        arquivos.addLayout(botoes_arquivos)
        g.adicionar("arquivo", "Evidências (fotos, PDF):", arquivos, foco=self.lista_arquivos)

        conteudo = QWidget()
        coluna = QVBoxLayout(conteudo)
        coluna.addWidget(grupo_infracao)
        coluna.addWidget(grupo_lavratura)
        coluna.addStretch(1)
        rolagem = QScrollArea()
        rolagem.setWidgetResizable(True)
        rolagem.setWidget(conteudo)
        rolagem.setFrameShape(QScrollArea.Shape.NoFrame)
        rolagem.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes from field to field, not to the frame

        divisor = QSplitter(Qt.Orientation.Horizontal)
        divisor.addWidget(rolagem)
        divisor.addWidget(self.painel)
        divisor.setStretchFactor(0, 3)
        divisor.setStretchFactor(1, 2)
        divisor.setSizes([700, 480])
        divisor.setChildrenCollapsible(False)

        self.botoes = botoes_salvar_cancelar(self, texto_salvar="Lav&rar auto…")
        self.botoes.accepted.connect(self.lavrar)
        layout = QVBoxLayout(self)
        layout.addWidget(divisor, 1)
        layout.addWidget(self.botoes)

        for combo in (
            self.operadora,
            self.dispositivo,
            self.veiculo,
            self.linha,
            self.empregado,
            self.fiscal,
        ):
            combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        for botao in (
            self.testemunhas.botao_adicionar,
            self.testemunhas.botao_remover,
            self.botao_anexar,
            self.botao_tirar,
        ):
            botao.setAutoDefault(False)
        alinhar_rotulos(self.form, self.form_lavratura)

        self._carregar_opcoes()
        self._preencher_inicial()
        self.operadora.currentIndexChanged.connect(self._operadora_mudou)
        self.veiculo.currentIndexChanged.connect(self._veiculo_mudou)
        self.linha.currentIndexChanged.connect(self._linha_mudou)
        self.dispositivo.currentIndexChanged.connect(lambda _i: self.adiador.agendar())
        self.data_infracao.dataAlterada.connect(lambda _d: self.adiador.agendar())
        self._ordem_tab()
        self.avaliar_agora()

    # --- options ---
    def _carregar_opcoes(self) -> None:
        preencher_combo(self.operadora, self.opcoes.operadoras(), vazio="— escolha a operadora —")
        preencher_combo(self.dispositivo, self.opcoes.dispositivos(), vazio="— escolha o dispositivo —")
        preencher_combo(self.fiscal, self.opcoes.fiscais(), vazio="— escolha o fiscal —")
        self._opcoes_da_operadora()

    def _opcoes_da_operadora(self) -> None:
        op = self.operadora.currentData()
        vazio: list[Opcao] = []
        preencher_combo(self.veiculo, self.opcoes.veiculos(op) if op else vazio, vazio="(nenhum)")
        preencher_combo(self.linha, self.opcoes.linhas(op) if op else vazio, vazio="(nenhuma)")
        preencher_combo(self.empregado, self.opcoes.empregados(op) if op else vazio, vazio="(nenhum)")

    def _preencher_inicial(self) -> None:
        p = self.preenchimento
        hoje = relogio.hoje()
        agora = relogio.agora()
        if p.operadora_id is not None:
            selecionar_dado(self.operadora, p.operadora_id)
            self._opcoes_da_operadora()
        if p.dispositivo_codigo:
            selecionar_dado(self.dispositivo, p.dispositivo_codigo)
        self.data_infracao.definir_data(p.data_infracao or hoje)
        self.local.setText(p.local)
        self.descricao_fatos.setPlainText(p.descricao_fatos)
        self.circunstancias.setPlainText(p.circunstancias)
        self.data_lavratura.definir_data(hoje)
        self.hora_lavratura.definir_hora(
            time(agora.hour, agora.minute) if isinstance(agora, datetime) else None
        )
        fiscal_do_usuario = self.opcoes.fiscal_do_usuario(self.contexto.ator.login)
        if fiscal_do_usuario is not None:
            selecionar_dado(self.fiscal, fiscal_do_usuario)

    def _ordem_tab(self) -> None:
        ordem: list[QWidget] = [
            self.operadora,
            self.dispositivo,
            self.data_infracao.editor,
            self.hora_infracao,
            self.local,
            self.veiculo,
            self.linha,
            self.empregado,
            self.descricao_fatos,
            self.circunstancias,
            self.fiscal,
            self.data_lavratura.editor,
            self.hora_lavratura,
            self.local_lavratura,
            self.infrator_nome,
            self.recusou_assinar,
            self.testemunhas.tabela,
            self.testemunhas.botao_adicionar,
            self.testemunhas.botao_remover,
            self.lista_arquivos,
            self.botao_anexar,
            self.botao_tirar,
        ]
        for a, b in itertools.pairwise(ordem):
            QWidget.setTabOrder(a, b)

    def _operadora_mudou(self, _indice: int) -> None:
        self._linha_do_veiculo = None
        self._opcoes_da_operadora()
        self.adiador.agendar()

    def _veiculo_mudou(self, _indice: int) -> None:
        """The vehicle's line fills "Linha" when it is empty or was filled this way before; a line the user
        chose is never replaced."""
        veiculo_id = self.veiculo.currentData()
        if veiculo_id is None:
            return
        linha_id = self.opcoes.linha_do_veiculo(veiculo_id)
        livre = self.linha.currentData() is None or self.linha.currentData() == self._linha_do_veiculo
        if linha_id is None or not livre or self.linha.findData(linha_id) < 0:
            return
        self._preenchendo_linha = True
        try:
            selecionar_dado(self.linha, linha_id)
        finally:
            self._preenchendo_linha = False
        self._linha_do_veiculo = linha_id

    def _linha_mudou(self, _indice: int) -> None:
        if not self._preenchendo_linha:
            self._linha_do_veiculo = None  # the user's own choice from now on

    # --- the panel ---
    def avaliar_agora(self) -> None:
        """One `avaliar_sancao` call with what the form holds now (the debounce timer calls this)."""
        operadora_id = self.operadora.currentData()
        codigo = self.dispositivo.currentData()
        try:
            dia = self.data_infracao.data()
        except ValueError:
            dia = None
        if operadora_id is None or codigo is None or dia is None:
            faltam = [
                nome
                for nome, valor in (("a operadora", operadora_id), ("o dispositivo", codigo), ("a data", dia))
                if valor is None
            ]
            self.painel.limpar(f"Informe {', '.join(faltam)} para ver a sanção cabível.")
            return
        try:
            with self.contexto.banco.leitura() as sessao:
                avaliacao = avaliar_sancao(
                    sessao, operadora_id=operadora_id, dispositivo_codigo=codigo, data_infracao=dia
                )
        except ErroDominio as erro:
            if erro.campo == "dispositivo_codigo":
                rotulo, _, texto = self.dispositivo.currentText().partition(" — ")
                self.painel.mostrar(
                    ConteudoPainel(
                        dispositivo_rotulo=rotulo.split(" (")[0],
                        dispositivo_texto=texto,
                        bloqueio=erro.mensagem,
                    )
                )
            else:
                self.painel.mostrar_erro(erro.mensagem)
            return
        self.painel.mostrar(conteudo_de(avaliacao))

    # --- files ---
    def _escolher_arquivos(self) -> None:
        for caminho in abrir_arquivos(
            self, "Evidências do auto", "Fotos e documentos (*.jpg *.jpeg *.png *.pdf)"
        ):
            if caminho not in self._arquivos:
                self._arquivos.append(caminho)
                item = QListWidgetItem(caminho.name)
                item.setToolTip(str(caminho))
                self.lista_arquivos.addItem(item)

    def _remover_arquivo(self) -> None:
        linha = self.lista_arquivos.currentRow()
        if linha >= 0:
            self.lista_arquivos.takeItem(linha)
            del self._arquivos[linha]

    def adicionar_arquivo(self, caminho: Path) -> None:
        """Add an evidence file (what the file dialog does; tests call it directly)."""
        self._arquivos.append(caminho)
        self.lista_arquivos.addItem(caminho.name)

    # --- saving ---
    def _montar(self) -> NovoAuto:
        operadora_id = self.operadora.currentData()
        if operadora_id is None:
            raise ErroDominio("Escolha a operadora autuada.", "operadora_id")
        codigo = self.dispositivo.currentData()
        if codigo is None:
            raise ErroDominio("Escolha o dispositivo infringido.", "dispositivo_codigo")
        data_infracao = self.data_infracao.data_ou_erro("data_infracao", "a data da infração")
        hora_infracao = self.hora_infracao.hora_ou_erro("hora_infracao", "a hora da infração")
        data_lavratura = self.data_lavratura.data_ou_erro("data_lavratura", "a data da lavratura")
        hora_lavratura = self.hora_lavratura.hora_ou_erro("hora_lavratura", "a hora da lavratura", True)
        for campo, widget, rotulo in (
            ("local", self.local.text(), "o local da infração"),
            ("descricao_fatos", self.descricao_fatos.texto(), "a descrição dos fatos"),
            ("local_lavratura", self.local_lavratura.text(), "o local da lavratura"),
        ):
            if not widget.strip():
                raise ErroDominio(f"Informe {rotulo}.", campo)
        fiscal_id = self.fiscal.currentData()
        if fiscal_id is None:
            raise ErroDominio("Escolha o fiscal que lavra o auto.", "fiscal_id")
        for arquivo in self._arquivos:
            if not arquivo.is_file():
                raise ErroDominio(f"O arquivo {arquivo} não foi encontrado.", "arquivo")
        assert data_infracao is not None and data_lavratura is not None and hora_lavratura is not None
        return NovoAuto(
            operadora_id=operadora_id,
            dispositivo_codigo=codigo,
            data_infracao=data_infracao,
            hora_infracao=hora_infracao,
            local=self.local.text(),
            data_lavratura=data_lavratura,
            hora_lavratura=hora_lavratura,
            local_lavratura=self.local_lavratura.text(),
            descricao_fatos=self.descricao_fatos.texto(),
            circunstancias=self.circunstancias.texto(),
            fiscal_id=fiscal_id,
            infrator_nome=self.infrator_nome.text(),
            veiculo_id=self.veiculo.currentData(),
            linha_id=self.linha.currentData(),
            empregado_id=self.empregado.currentData(),
            testemunhas=tuple(DadosTestemunha(n, d, e) for n, d, e in self.testemunhas.valores()),
            recusou_assinar=self.recusou_assinar.isChecked(),
            representacao_id=self.preenchimento.representacao_id,
        )

    def _mostrar_erro(self, erro: ErroDominio) -> None:
        self.form.limpar_erros()
        self.form_lavratura.limpar_erros()
        if erro.campo in self.form_lavratura.campos:
            self.form_lavratura.mostrar_erro(erro)
        else:
            self.form.mostrar_erro(erro)

    def lavrar(self) -> None:
        """Check the form and run the service's checks (`conferir_lavratura`, nothing written), then ask for
        confirmation (the number cannot be taken back), then save."""
        self.adiador.executar_agora()
        self.form.limpar_erros()
        self.form_lavratura.limpar_erros()
        try:
            dados = self._montar()
            with self.contexto.banco.leitura() as sessao:
                conferir_lavratura(sessao, self.contexto.ator, dados)
        except ErroDominio as erro:
            self._mostrar_erro(erro)
            return
        ano = dados.data_lavratura.year
        mensagens.confirmar(
            self,
            "Lavrar auto de infração",
            f"Lavrar o auto de infração contra {self.operadora.currentText()}, por "
            f"{self.dispositivo.currentText().split(' — ')[0]}?\n\n"
            f"Ele receberá o próximo número de {ano}. Um auto lavrado não pode ser apagado: "
            "só cancelado, com o motivo registrado.",
            lambda: self._gravar(dados),
            texto_sim="Lavrar auto",
            texto_nao="Voltar ao formulário",
        )

    def _gravar(self, dados: NovoAuto) -> None:
        gravar(
            self,
            lambda: lavrar_auto(self.contexto.banco.uow(), self.contexto.ator, dados),
            titulo="Lavrar auto de infração",
            ao_concluir=lambda resumo: self._lavrado(dados, resumo),
            ao_recusar=self._mostrar_erro,
        )

    def _lavrado(self, dados: NovoAuto, resumo: Any) -> None:
        """The auto is saved: its evidence files and its PDF (SHA-256) follow off the GUI thread, the form
        blocked meanwhile (a second "Lavrar" would make a second auto), whatever the user clicks next.

        A failure of either is reported in the success box, never raised (raising would leave the form open
        and invite a second, duplicate auto)."""
        contexto, arquivos_prova = self.contexto, list(self._arquivos)

        def seguir(progresso: Progresso) -> tuple[list[str], DocumentoEmitidoInfo | None, str]:
            falhas = []
            for i, caminho in enumerate(arquivos_prova):
                progresso(i, len(arquivos_prova) + 1, f"Anexando {caminho.name}…")
                try:
                    anexar_evidencia(
                        contexto.banco.uow(),
                        contexto.ator,
                        auto_id=resumo.id,
                        nome_arquivo=caminho.name,
                        conteudo=caminho.read_bytes(),
                    )
                except (ErroDominio, OSError) as erro:
                    falhas.append(f"{caminho.name}: {getattr(erro, 'mensagem', erro)}")
            progresso(len(arquivos_prova), len(arquivos_prova) + 1, "Emitindo o PDF do auto…")
            documento, falha_pdf = _emitir_pdf(contexto, resumo.id)
            return falhas, documento, falha_pdf

        em_segundo_plano(
            self,
            seguir,
            titulo="Auto lavrado",
            texto="Emitindo o PDF do auto…",
            ao_concluir=lambda feito: self._avisar(dados, resumo, *feito),
            ao_falhar=lambda mensagem: self._avisar(dados, resumo, [], None, mensagem),
            cancelavel=False,
            modal=True,
        )

    def _avisar(
        self,
        dados: NovoAuto,
        resumo: Any,
        falhas: list[str],
        documento: DocumentoEmitidoInfo | None,
        falha_pdf: str,
    ) -> None:
        self.documento = documento
        self.resultado = (resumo.id, resumo.numero_formatado)
        self.autoLavrado.emit(resumo.id, resumo.numero_formatado)
        texto = (
            f"Auto de infração nº {resumo.numero_formatado} lavrado em "
            f"{formatar_data(dados.data_lavratura)}.\n\n"
            f"Próxima penalidade (art. 10, V): {resumo.proxima_penalidade}"
        )
        if resumo.provas_juntadas:
            texto += "\n\nArquivos de prova da representação juntados ao auto (com o mesmo SHA-256):\n" + (
                "\n".join(resumo.provas_juntadas)
            )
        falhas = falhas + [f"{p} (da representação)" for p in resumo.provas_nao_juntadas]
        if falhas:
            texto += "\n\nArquivos não anexados (anexe-os pela tela do caso):\n" + "\n".join(falhas)
        if documento is not None:
            texto += (
                f"\n\nO PDF do auto foi emitido e guardado ({documento.nome_arquivo}, SHA-256 "
                f"{documento.sha256[:16]}…). Imprima agora as duas vias, ou grave o PDF."
            )
        else:
            texto += (
                f"\n\nO PDF do auto NÃO foi emitido: {falha_pdf}\nO auto está gravado; emita o PDF depois pela "
                "tela do caso (aba Documentos)."
            )
        self.accept()
        avisar_lavrado(
            self.parentWidget(),
            self.contexto,
            resumo.id,
            texto,
            documento_id=documento.id if documento is not None else None,
        )


def _emitir_pdf(contexto: Contexto, auto_id: int) -> tuple[DocumentoEmitidoInfo | None, str]:
    """Issue and store the auto's PDF (in a background task), or say why not."""
    from secretaria.services.documentos import emitir_documento

    try:
        return emitir_documento(contexto.banco.uow(), contexto.ator, tipo="auto", auto_id=auto_id), ""
    except ErroDominio as erro:
        return None, erro.mensagem
    except Exception as erro:  # the auto is saved: say what failed instead of crashing
        logging.getLogger(__name__).exception("PDF do auto %s não emitido", auto_id)
        return None, f"erro inesperado ({type(erro).__name__}: {erro})."


def avisar_lavrado(
    parent: QWidget | None, contexto: Contexto, auto_id: int, texto: str, *, documento_id: int | None = None
) -> QMessageBox:
    """The "auto lavrado" box, with its PDF at hand: "Imprimir o auto…", "Salvar PDF…" or "Fechar".

    With `documento_id` (the PDF issued at the save) the stored bytes are printed or saved; without it the
    PDF is issued on the click."""
    from secretaria.ui import impressao

    botoes = QMessageBox.StandardButton

    def escolhido(resultado: int) -> None:
        acao = {botoes.Yes.value: "imprimir", botoes.Save.value: "salvar"}.get(resultado)
        if acao is None:
            return
        if documento_id is not None:
            impressao.documento_guardado(parent, contexto, documento_id, acao)
        else:
            impressao.acoes_documento(parent, contexto, acao, tipo="auto", auto_id=auto_id)

    caixa = mensagens.caixa_mensagem(
        parent,
        "Auto lavrado",
        texto,
        botoes=botoes.Yes | botoes.Save | botoes.Close,
        padrao=botoes.Yes,
        ao_terminar=escolhido,
    )
    caixa.button(botoes.Yes).setText("&Imprimir o auto…")
    caixa.button(botoes.Save).setText("&Salvar PDF…")
    caixa.button(botoes.Close).setText("&Fechar")
    return caixa
