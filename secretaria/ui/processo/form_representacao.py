"""Representação (art. 12, PRODUTO path 3): receive a petition; then draw up an auto from it (pre-filled) or
file it away with reasons.

`DialogoRepresentacao` receives (art. 12 § 1º: name, profession and address of the petitioner; the evidence
or the means by which the infraction became known). `TelaRepresentacao` shows a received petition with
"Lavrar auto…" (the auto form pre-filled by `dados_auto_de_representacao`) and "Arquivar…" (with reasons),
everything received (`obter_representacao`) and what became of it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from secretaria import relogio
from secretaria.lei.formato import formatar_data
from secretaria.services.base import ErroDominio
from secretaria.services.processo_base import ROTULOS_FASE
from secretaria.services.representacoes import RepresentacaoDetalhe
from secretaria.ui.contexto import Contexto
from secretaria.ui.processo.anexos import preencher_lista_anexos, salvar_copia_do_anexo_selecionado
from secretaria.ui.processo.campos import (
    CampoTexto,
    alinhar_rotulos,
    combo_pesquisavel,
    preencher_combo,
)
from secretaria.ui.processo.form_auto import DialogoAuto, PreenchimentoAuto
from secretaria.ui.processo.opcoes import OpcoesCaso, opcoes_do_banco
from secretaria.ui.processo.painel_sancao import COR_ALERTA, COR_OK, COR_SECUNDARIA
from secretaria.ui.widgets import CampoData, Formulario, botoes_salvar_cancelar, mensagens
from secretaria.ui.widgets.arquivos import abrir_arquivos
from secretaria.ui.widgets.formulario import DialogoFormulario
from secretaria.ui.widgets.janelas import tamanho_na_tela
from secretaria.ui.widgets.letras import dar_letras


def _e(texto: str) -> str:
    import html

    return html.escape(texto, quote=False)


class DialogoRepresentacao(DialogoFormulario):
    """Receive a representação. `recebida(id, numero)` after the save (and its evidence files)."""

    recebida = Signal(int, str)

    def __init__(
        self, contexto: Contexto, parent: QWidget | None = None, *, opcoes: OpcoesCaso | None = None
    ) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.opcoes = opcoes or opcoes_do_banco(contexto)
        self.resultado: tuple[int, str] | None = None
        self._arquivos: list[Path] = []
        self.setWindowTitle("Receber representação (art. 12)")
        self.setMinimumWidth(760)

        self.recebida_em = CampoData(obrigatoria=True)
        self.recebida_em.definir_data(relogio.hoje())
        self.peticionario_nome = QLineEdit()
        self.peticionario_profissao = QLineEdit()
        self.peticionario_endereco = QLineEdit()
        self.peticionario_contato = QLineEdit()
        self.peticionario_contato.setPlaceholderText("Telefone ou e-mail (opcional)")
        self.fatos = CampoTexto(linhas=4)
        self.meios_prova = CampoTexto(linhas=2)
        self.meios_prova.setPlaceholderText(
            "As provas, ou como a infração se tornou conhecida (art. 12, § 1º)"
        )
        self.operadora = combo_pesquisavel()
        self.dispositivo = combo_pesquisavel()
        self.data_fato = CampoData()
        self.local_fato = QLineEdit()
        self.lista_arquivos = QListWidget()
        self.lista_arquivos.setMaximumHeight(self.fontMetrics().height() * 4)
        self.botao_anexar = QPushButton("Adicionar arquivos…")
        self.botao_anexar.setAutoDefault(False)
        self.botao_anexar.clicked.connect(self._escolher_arquivos)
        for combo in (self.operadora, self.dispositivo):
            combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        preencher_combo(self.operadora, self.opcoes.operadoras(), vazio="(não identificada)")
        preencher_combo(self.dispositivo, self.opcoes.dispositivos(), vazio="(não indicado)")

        layout = QVBoxLayout(self)
        titulo_pet = QLabel("<b>Autor da representação</b>")
        layout.addWidget(titulo_pet)
        self.form = Formulario(layout, self)
        f = self.form
        f.adicionar("recebida_em", "Recebida e&m:", self.recebida_em)
        f.adicionar("peticionario_nome", "&Nome:", self.peticionario_nome)
        f.adicionar("peticionario_profissao", "&Profissão:", self.peticionario_profissao)
        f.adicionar("peticionario_endereco", "&Endereço:", self.peticionario_endereco)
        f.adicionar("peticionario_contato", "&Contato:", self.peticionario_contato)
        layout.addWidget(QLabel("<b>O que foi representado</b>"))
        self.form_fato = Formulario(layout, self)
        g = self.form_fato
        g.adicionar("fatos", "&Fatos:", self.fatos)
        g.adicionar("meios_prova", "Pro&vas:", self.meios_prova)
        g.adicionar("operadora_id", "&Operadora:", self.operadora)
        g.adicionar("dispositivo_codigo", "&Dispositivo:", self.dispositivo)
        g.adicionar("data_fato", "Da&ta do fato:", self.data_fato)
        g.adicionar("local_fato", "&Local do fato:", self.local_fato)
        arquivos = QVBoxLayout()
        arquivos.addWidget(self.lista_arquivos)
        arquivos.addWidget(self.botao_anexar, 0, Qt.AlignmentFlag.AlignLeft)
        g.adicionar("arquivo", "Arquivos de prova:", arquivos, foco=self.lista_arquivos)
        alinhar_rotulos(self.form, self.form_fato)
        self.botoes = botoes_salvar_cancelar(self, texto_salvar="Receber representação")
        self.botoes.accepted.connect(self.receber)
        layout.addWidget(self.botoes)
        self.peticionario_nome.setFocus()

    def _escolher_arquivos(self) -> None:
        for caminho in abrir_arquivos(
            self, "Provas da representação", "Fotos e documentos (*.jpg *.jpeg *.png *.pdf)"
        ):
            self.adicionar_arquivo(caminho)

    def adicionar_arquivo(self, caminho: Path) -> None:
        if caminho not in self._arquivos:
            self._arquivos.append(caminho)
            self.lista_arquivos.addItem(caminho.name)

    def _mostrar_erro(self, erro: ErroDominio) -> None:
        self.form.limpar_erros()
        self.form_fato.limpar_erros()
        alvo = self.form_fato if erro.campo in self.form_fato.campos else self.form
        alvo.mostrar_erro(erro)

    def receber(self) -> None:
        from secretaria.services.representacoes import anexar_prova_representacao, receber_representacao

        self.form.limpar_erros()
        self.form_fato.limpar_erros()
        try:
            recebida_em = self.recebida_em.data_ou_erro("recebida_em", "a data do recebimento")
            data_fato = self.data_fato.data_ou_erro("data_fato", "a data do fato")
            assert recebida_em is not None
            resumo = receber_representacao(
                self.contexto.banco.uow(),
                self.contexto.ator,
                recebida_em=recebida_em,
                peticionario_nome=self.peticionario_nome.text(),
                peticionario_profissao=self.peticionario_profissao.text(),
                peticionario_endereco=self.peticionario_endereco.text(),
                peticionario_contato=self.peticionario_contato.text(),
                fatos=self.fatos.texto(),
                meios_prova=self.meios_prova.texto(),
                operadora_id=self.operadora.currentData(),
                dispositivo_codigo=self.dispositivo.currentData(),
                data_fato=data_fato,
                local_fato=self.local_fato.text(),
            )
        except ErroDominio as erro:
            self._mostrar_erro(erro)
            return
        falhas = []
        for caminho in self._arquivos:
            try:
                anexar_prova_representacao(
                    self.contexto.banco.uow(),
                    self.contexto.ator,
                    representacao_id=resumo.id,
                    nome_arquivo=caminho.name,
                    conteudo=caminho.read_bytes(),
                )
            except (ErroDominio, OSError) as erro:
                falhas.append(f"{caminho.name}: {getattr(erro, 'mensagem', erro)}")
        self.resultado = (resumo.id, resumo.numero_formatado)
        self.recebida.emit(resumo.id, resumo.numero_formatado)
        texto = f"Representação nº {resumo.numero_formatado} recebida."
        if falhas:
            texto += "\n\nArquivos não anexados:\n" + "\n".join(falhas)
        self.accept()
        mensagens.informar(self.parentWidget(), "Representação recebida", texto)


class DialogoArquivarRepresentacao(DialogoFormulario):
    """File a representação away, with the reasons (art. 12 § 2º)."""

    def __init__(
        self,
        contexto: Contexto,
        representacao_id: int,
        numero: str,
        versao: int | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.representacao_id = representacao_id
        self.numero = numero
        self.versao = versao
        self.setWindowTitle(f"Arquivar representação nº {numero}")
        self.setMinimumWidth(600)
        layout = QVBoxLayout(self)
        aviso = QLabel(
            "A representação arquivada não vira auto de infração. Registre os motivos: eles ficam no processo "
            "e podem ser consultados pelo autor."
        )
        aviso.setWordWrap(True)
        layout.addWidget(aviso)
        self.form = Formulario(layout, self)
        self.data = CampoData(obrigatoria=True)
        self.data.definir_data(relogio.hoje())
        self.motivo = CampoTexto(linhas=4)
        self.form.adicionar("data", "&Data:", self.data)
        self.form.adicionar("motivo", "&Motivos:", self.motivo)
        self.botoes = botoes_salvar_cancelar(self, texto_salvar="&Arquivar…")
        self.botoes.button(QDialogButtonBox.StandardButton.Cancel).setText("&Voltar")
        self.botoes.accepted.connect(self.arquivar)
        layout.addWidget(self.botoes)

    def arquivar(self) -> None:
        """Check everything the service will (a filed or drawn-up petition, a day before its receipt, the
        role), then ask: the filing cannot be undone, so a refusal never comes after the confirmation."""
        from secretaria.services.representacoes import conferir_arquivamento

        self.form.limpar_erros()
        if not self.motivo.texto().strip():
            self.form.mostrar_erro(ErroDominio("Informe o motivo do arquivamento.", "motivo"))
            return
        try:
            dia = self.data.data_ou_erro("data", "a data do arquivamento")
            with self.contexto.banco.leitura() as s:
                conferir_arquivamento(
                    s,
                    self.contexto.ator,
                    representacao_id=self.representacao_id,
                    motivo=self.motivo.texto(),
                    data=dia,
                    versao=self.versao,
                )
        except ErroDominio as erro:
            self.form.mostrar_erro(erro)
            return
        mensagens.confirmar(
            self,
            "Arquivar representação",
            f"Arquivar a representação nº {self.numero}? Ela não poderá mais ser autuada.",
            self._gravar,
            texto_sim="Arquivar",
            texto_nao="Voltar",
        )

    def _gravar(self) -> None:
        from secretaria.services.representacoes import arquivar_representacao

        try:
            arquivar_representacao(
                self.contexto.banco.uow(),
                self.contexto.ator,
                representacao_id=self.representacao_id,
                motivo=self.motivo.texto(),
                data=self.data.data_ou_erro("data", "a data do arquivamento"),
                versao=self.versao,
            )
        except ErroDominio as erro:
            self.form.mostrar_erro(erro)
            return
        self.accept()


class TelaRepresentacao(QDialog):
    """The whole representação (`obter_representacao`): petitioner, facts, evidence and its files, status,
    the filing reasons or the auto drawn up from it; and what can be done with it: "Lavrar auto…" or
    "Arquivar…" while received, "Abrir o auto…" once drawn up.

    `alterada(id)` after either act; `autoLavrado(auto_id, numero)` when an auto was drawn up from it."""

    alterada = Signal(int)
    autoLavrado = Signal(int, str)

    def __init__(self, contexto: Contexto, representacao_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.representacao_id = representacao_id
        self.detalhe: RepresentacaoDetalhe | None = None
        self.preenchimento: PreenchimentoAuto | None = None
        self.setMinimumWidth(760)
        tamanho_na_tela(self, 860, 700)
        layout = QVBoxLayout(self)
        topo = QHBoxLayout()
        self.titulo = QLabel()
        fonte = self.titulo.font()
        fonte.setPointSizeF(fonte.pointSizeF() * 1.3)
        fonte.setBold(True)
        self.titulo.setFont(fonte)
        self.situacao = QLabel()
        self.situacao.setTextFormat(Qt.TextFormat.RichText)
        topo.addWidget(self.titulo)
        topo.addStretch(1)
        topo.addWidget(self.situacao)
        layout.addLayout(topo)
        self.corpo = QLabel()
        self.corpo.setWordWrap(True)
        self.corpo.setTextFormat(Qt.TextFormat.RichText)
        self.corpo.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.corpo.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.corpo.setContentsMargins(4, 4, 4, 4)
        rolagem = QScrollArea()
        rolagem.setWidgetResizable(True)
        rolagem.setFrameShape(QScrollArea.Shape.StyledPanel)
        rolagem.setWidget(self.corpo)
        layout.addWidget(rolagem, 1)

        rotulo_anexos = QLabel("Arquivos de &prova (o SHA-256 é conferido ao abrir):")
        self.lista_anexos = QListWidget()
        self.lista_anexos.setAccessibleName("Arquivos de prova")
        self.lista_anexos.setMaximumHeight(self.fontMetrics().height() * 4 + 12)
        self.lista_anexos.itemActivated.connect(lambda _i: self.salvar_anexo())
        rotulo_anexos.setBuddy(self.lista_anexos)
        self.botao_salvar_anexo = QPushButton("Salvar &cópia do arquivo…")
        self.botao_salvar_anexo.clicked.connect(self.salvar_anexo)
        layout.addWidget(rotulo_anexos)
        layout.addWidget(self.lista_anexos)

        self.botao_lavrar = QPushButton("&Lavrar auto…")
        self.botao_arquivar = QPushButton("&Arquivar…")
        self.botao_abrir_auto = QPushButton("Abrir o a&uto…")
        fechar = QPushButton("Fechar")
        for b in (
            self.botao_salvar_anexo,
            self.botao_lavrar,
            self.botao_arquivar,
            self.botao_abrir_auto,
            fechar,
        ):
            b.setAutoDefault(False)
        self.botao_lavrar.clicked.connect(self.lavrar_auto)
        self.botao_arquivar.clicked.connect(self.arquivar)
        self.botao_abrir_auto.clicked.connect(self.abrir_auto)
        fechar.clicked.connect(self.reject)
        botoes = QHBoxLayout()
        botoes.addWidget(self.botao_lavrar)
        botoes.addWidget(self.botao_arquivar)
        botoes.addWidget(self.botao_abrir_auto)
        botoes.addWidget(self.botao_salvar_anexo)
        botoes.addStretch(1)
        botoes.addWidget(fechar)
        layout.addLayout(botoes)
        self.recarregar()

    def showEvent(self, evento: QShowEvent) -> None:
        super().showEvent(evento)
        dar_letras(self)  # every button reachable with Alt (the button box's Salvar, Cancelar)

    def recarregar(self) -> None:
        from secretaria.services.representacoes import dados_auto_de_representacao, obter_representacao

        try:
            with self.contexto.banco.leitura() as sessao:
                d = obter_representacao(sessao, self.representacao_id)
                self.preenchimento = (
                    PreenchimentoAuto.de_representacao(dados_auto_de_representacao(sessao, d.id))
                    if d.situacao == "recebida"
                    else None
                )
        except ErroDominio as erro:
            self.detalhe = None
            self.preenchimento = None
            self.titulo.setText("Representação")
            self.corpo.setText(f"<p><b>{_e(erro.mensagem)}</b></p>")
            for b in (self.botao_lavrar, self.botao_arquivar, self.botao_abrir_auto, self.botao_salvar_anexo):
                b.setVisible(False)
            return
        self.detalhe = d
        self.setWindowTitle(f"Representação nº {d.numero_formatado}")
        self.titulo.setText(f"Representação nº {d.numero_formatado}")
        cor = {"recebida": COR_ALERTA, "autuada": COR_OK}.get(d.situacao, COR_SECUNDARIA)
        self.situacao.setText(
            f"<span style='color:{cor}; font-size:large'><b>{_e(d.situacao_rotulo)}</b></span>"
        )
        self.corpo.setText(_html_representacao(d))
        preencher_lista_anexos(self.lista_anexos, d.anexos)
        self.botao_salvar_anexo.setEnabled(bool(d.anexos))
        recebida = d.situacao == "recebida"
        self.botao_lavrar.setVisible(recebida and self.contexto.pode("fiscal"))
        self.botao_arquivar.setVisible(recebida and self.contexto.pode("autoridade", "secretario"))
        self.botao_abrir_auto.setVisible(d.auto_id is not None)
        self.botao_lavrar.setEnabled(self.preenchimento is not None)
        self.botao_arquivar.setEnabled(recebida)
        if d.auto_numero:
            self.botao_abrir_auto.setText(f"Abrir o a&uto nº {d.auto_numero}…")

    def lavrar_auto(self) -> DialogoAuto | None:
        """The auto form over this screen. Once the auto is saved this screen stops being modal (it stays open,
        showing "Autuada" and the auto) before `autoLavrado` lets the page open the case: a window-modal
        representação left behind would block every click on the case window opened over it."""
        if self.preenchimento is None:
            return None
        dialogo = DialogoAuto(self.contexto, self, preenchimento=self.preenchimento)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        lavrado: list[tuple[int, str]] = []

        def terminou(_resultado: int) -> None:
            if not lavrado:
                return
            auto_id, numero = lavrado[0]
            self.deixar_de_ser_modal()
            self.recarregar()
            self.alterada.emit(self.representacao_id)
            self.autoLavrado.emit(auto_id, numero)

        dialogo.autoLavrado.connect(lambda auto_id, numero: lavrado.append((auto_id, numero)))
        dialogo.finished.connect(terminou)
        dialogo.open()
        return dialogo

    def deixar_de_ser_modal(self) -> None:
        """Keep the screen open without blocking the main window and the windows opened from it."""
        if self.windowModality() == Qt.WindowModality.NonModal:
            return
        visivel = self.isVisible()
        self.hide()  # Qt applies a modality change when the window is shown again
        self.setWindowModality(Qt.WindowModality.NonModal)
        if visivel:
            self.show()

    def arquivar(self) -> DialogoArquivarRepresentacao | None:
        d = self.detalhe
        if d is None:
            return None
        dialogo = DialogoArquivarRepresentacao(self.contexto, d.id, d.numero_formatado, d.versao, self)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def arquivada(resultado: int) -> None:
            if resultado == QDialog.DialogCode.Accepted:
                self.alterada.emit(self.representacao_id)
                self.recarregar()

        dialogo.finished.connect(arquivada)
        dialogo.open()
        return dialogo

    def abrir_auto(self) -> QWidget | None:
        from secretaria.ui.processo.tela_caso import abrir_caso

        if self.detalhe is None or self.detalhe.auto_id is None:
            return None
        return abrir_caso(self.contexto, self.detalhe.auto_id, self.parentWidget() or self)

    def salvar_anexo(self) -> None:
        """Save a copy of an evidence file, only if its bytes still match the SHA-256 taken when attached."""
        salvar_copia_do_anexo_selecionado(self, self.contexto, self.lista_anexos, nome="arquivo")

    def texto(self) -> str:
        """What the screen shows, as plain text (tests)."""
        from secretaria.ui.processo.campos import texto_simples

        linhas = [self.titulo.text(), texto_simples(self.situacao), texto_simples(self.corpo)]
        linhas += [self.lista_anexos.item(i).text() for i in range(self.lista_anexos.count())]
        return "\n".join(linhas)


def _html_representacao(d: RepresentacaoDetalhe) -> str:
    def secao(titulo: str) -> str:
        return f"<tr><td colspan='2' style='padding-top:8px'><b>{_e(titulo)}</b></td></tr>"

    def linha(rotulo: str, valor: str | None, vazio: str = "") -> str:
        texto = valor if valor else vazio
        if not texto:
            return ""
        return (
            f"<tr><td style='color:{COR_SECUNDARIA}; padding-right:12px' valign='top'>{_e(rotulo)}</td>"
            f"<td>{_e(texto).replace(chr(10), '<br>')}</td></tr>"
        )

    dispositivo = None
    if d.dispositivo_rotulo:
        dispositivo = d.dispositivo_rotulo + (f" — {d.dispositivo_texto}" if d.dispositivo_texto else "")
    partes = [
        secao("Autor da representação (art. 12, § 1º)"),
        linha("Nome", d.peticionario_nome),
        linha("Profissão", d.peticionario_profissao),
        linha("Endereço", d.peticionario_endereco),
        linha("Contato", d.peticionario_contato, "(não informado)"),
        linha("Recebida em", f"{formatar_data(d.recebida_em)}, por {d.recebida_por}"),
        secao("O que foi representado"),
        linha("Operadora", d.operadora_nome, "(não identificada)"),
        linha("Dispositivo", dispositivo, "(não indicado)"),
        linha("Data do fato", formatar_data(d.data_fato) if d.data_fato else None, "(não informada)"),
        linha("Local do fato", d.local_fato, "(não informado)"),
        linha("Fatos", d.fatos),
        linha("Provas ou meios", d.meios_prova),
        secao("Destino (art. 12, § 2º)"),
    ]
    if d.situacao == "autuada":
        fase = ROTULOS_FASE.get(d.auto_fase or "", d.auto_fase or "")
        partes.append(
            linha("Auto de infração", f"nº {d.auto_numero} — {fase}" if d.auto_numero else "lavrado")
        )
    elif d.situacao == "arquivada":
        partes.append(linha("Arquivada em", formatar_data(d.arquivada_em) if d.arquivada_em else "—"))
        partes.append(linha("Motivos", d.motivo_arquivamento, "(não registrados)"))
    else:
        partes.append(linha("Situação", "Aguardando: lavrar o auto de infração ou arquivar com os motivos."))
    return f"<table cellspacing='3'>{''.join(partes)}</table>"
