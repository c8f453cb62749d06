"""Representação (art. 12, PRODUTO path 3): receive a petition; then draw up an auto from it (pre-filled) or
file it away with reasons.

`DialogoRepresentacao` receives (art. 12 § 1º: name, profession and address of the petitioner; the evidence
or the means by which the infraction became known). `TelaRepresentacao` shows a received petition with
"Lavrar auto…" (the auto form pre-filled by `dados_auto_de_representacao`) and "Arquivar…" (with reasons).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from secretaria.lei.formato import formatar_data
from secretaria.services import relogio
from secretaria.services.base import ErroDominio
from secretaria.ui.contexto import Contexto
from secretaria.ui.processo.campos import CampoTexto, alinhar_rotulos, combo_pesquisavel, preencher_combo
from secretaria.ui.processo.form_auto import DialogoAuto, PreenchimentoAuto
from secretaria.ui.processo.opcoes import OpcoesCaso, opcoes_do_banco
from secretaria.ui.widgets import CampoData, Formulario, botoes_salvar_cancelar, mensagens
from secretaria.ui.widgets.arquivos import abrir_arquivos


def _e(texto: str) -> str:
    import html

    return html.escape(texto, quote=False)


def _tabela(linhas: list[tuple[str, str]]) -> str:
    celulas = "".join(
        f"<tr><td style='color:#4b5563; padding-right:12px' valign='top'>{_e(r)}</td><td>{_e(v)}</td></tr>"
        for r, v in linhas
    )
    return f"<table cellspacing='3'>{celulas}</table>"


class DialogoRepresentacao(QDialog):
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
        f.adicionar("recebida_em", "&Recebida em:", self.recebida_em)
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


class DialogoArquivarRepresentacao(QDialog):
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
        self.form.limpar_erros()
        if not self.motivo.texto().strip():
            self.form.mostrar_erro(ErroDominio("Informe o motivo do arquivamento.", "motivo"))
            return
        try:
            self.data.data_ou_erro("data", "a data do arquivamento")
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
    """A representação as received, and what can be done with it: "Lavrar auto…" or "Arquivar…".

    `alterada(id)` after either; `autoLavrado(auto_id, numero)` when an auto was drawn up from it."""

    alterada = Signal(int)
    autoLavrado = Signal(int, str)

    def __init__(
        self,
        contexto: Contexto,
        representacao_id: int,
        parent: QWidget | None = None,
        *,
        resumo: dict[str, str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.contexto = contexto
        self.representacao_id = representacao_id
        self.resumo = resumo or {}
        self.preenchimento: PreenchimentoAuto | None = None
        self.setMinimumWidth(720)
        layout = QVBoxLayout(self)
        self.titulo = QLabel()
        fonte = self.titulo.font()
        fonte.setPointSizeF(fonte.pointSizeF() * 1.3)
        fonte.setBold(True)
        self.titulo.setFont(fonte)
        self.corpo = QLabel()
        self.corpo.setWordWrap(True)
        self.corpo.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.corpo.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.titulo)
        layout.addWidget(self.corpo, 1)
        self.botao_lavrar = QPushButton("&Lavrar auto…")
        self.botao_arquivar = QPushButton("&Arquivar…")
        fechar = QPushButton("Fechar")
        for b in (self.botao_lavrar, self.botao_arquivar, fechar):
            b.setAutoDefault(False)
        self.botao_lavrar.clicked.connect(self.lavrar_auto)
        self.botao_arquivar.clicked.connect(self.arquivar)
        fechar.clicked.connect(self.reject)
        botoes = QHBoxLayout()
        botoes.addWidget(self.botao_lavrar)
        botoes.addWidget(self.botao_arquivar)
        botoes.addStretch(1)
        botoes.addWidget(fechar)
        layout.addLayout(botoes)
        self.recarregar()

    def recarregar(self) -> None:
        from secretaria.services.representacoes import dados_auto_de_representacao

        numero = self.resumo.get("numero", "")
        self.setWindowTitle(f"Representação nº {numero}" if numero else "Representação")
        self.titulo.setText(f"Representação nº {numero}" if numero else "Representação")
        try:
            with self.contexto.banco.leitura() as sessao:
                self.preenchimento = PreenchimentoAuto.de_representacao(
                    dados_auto_de_representacao(sessao, self.representacao_id)
                )
        except ErroDominio as erro:
            self.preenchimento = None
            resumo = [
                (rotulo, valor) for rotulo, valor in self.resumo.items() if rotulo != "numero" and valor
            ]
            self.corpo.setText(f"<p><b>{_e(erro.mensagem)}</b></p>{_tabela(resumo)}")
            self.botao_lavrar.setEnabled(False)
            self.botao_arquivar.setEnabled(False)
            return
        p = self.preenchimento
        linhas = [
            ("Situação", self.resumo.get("Situação", "Recebida")),
            ("Recebida em", self.resumo.get("Recebida em", "")),
            ("Operadora", self.resumo.get("Operadora") or "(não identificada)"),
            ("Dispositivo", self.resumo.get("Dispositivo") or "(não indicado)"),
            ("Data do fato", formatar_data(p.data_infracao) if p.data_infracao else "(não informada)"),
            ("Local do fato", p.local or "(não informado)"),
            ("Fatos", p.descricao_fatos),
            ("Autor e provas", p.circunstancias),
        ]
        self.corpo.setText(_tabela(linhas))
        self.botao_lavrar.setEnabled(self.contexto.pode("fiscal"))
        self.botao_arquivar.setEnabled(self.contexto.pode("fiscal", "autoridade", "secretario"))

    def lavrar_auto(self) -> DialogoAuto | None:
        if self.preenchimento is None:
            return None
        dialogo = DialogoAuto(self.contexto, self, preenchimento=self.preenchimento)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def lavrado(auto_id: int, numero: str) -> None:
            self.autoLavrado.emit(auto_id, numero)
            self.alterada.emit(self.representacao_id)
            self.resumo["Situação"] = "Autuada"
            self.recarregar()

        dialogo.autoLavrado.connect(lavrado)
        dialogo.open()
        return dialogo

    def arquivar(self) -> DialogoArquivarRepresentacao:
        dialogo = DialogoArquivarRepresentacao(
            self.contexto, self.representacao_id, self.resumo.get("numero", ""), None, self
        )
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def arquivada(resultado: int) -> None:
            if resultado == QDialog.DialogCode.Accepted:
                self.alterada.emit(self.representacao_id)
                self.resumo["Situação"] = "Arquivada"
                self.recarregar()

        dialogo.finished.connect(arquivada)
        dialogo.open()
        return dialogo
