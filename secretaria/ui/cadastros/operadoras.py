"""Operators (concessionárias and permissionárias) and their lines: lists and edit dialogs."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from secretaria import relogio
from secretaria.lei.formato import formatar_data
from secretaria.services import cadastros, vencimentos
from secretaria.services.rotulos import DELEGACOES
from secretaria.ui.cadastros.base import (
    DialogoCadastro,
    PaginaCadastro,
    TextoLongo,
    escolher,
    preencher_combo,
    texto_alteracao,
)
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import CampoCnpj, CampoCpf, CampoData, CampoMascarado
from secretaria.ui.widgets.janelas import tamanho_na_tela

if TYPE_CHECKING:
    from secretaria.ui.processo.cassacao import PainelCassacao

SITUACAO_COR = {"ativa": "#1b6e20", "suspensa": "#b3261e", "cassada": "#b3261e"}
COR_ALERTA = "#9a3412"
VINCULOS = {
    "veiculos": ("&Veículos", "A lista de veículos, só os desta operadora"),
    "linhas": ("Lin&has", "A lista de linhas, só as desta operadora"),
    "empregados": ("Empre&gados", "A lista de empregados e agentes, só os desta operadora"),
    "autos": ("&Autos", "A lista de autos de infração, só os desta operadora"),
}
"""The operator's records one click away: list name → (button text, tip); the button adds the count."""


class DialogoOperadora(DialogoCadastro):
    """Operator form: identification, address for notices, legal representative, contract. The status
    (ativa / suspensa até … / cassada) is shown, never typed: it follows from suspensions and cassação."""

    titulo_novo = "Nova operadora"
    titulo_edicao = "Operadora"
    entidade = "operadora"

    def __init__(
        self, contexto: Contexto, registro_id: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(contexto, registro_id, parent)
        f = self.form
        self.razao_social = QLineEdit()
        self.nome_fantasia = QLineEdit()
        self.cnpj = CampoCnpj()
        self.delegacao = QComboBox()
        for chave, rotulo in DELEGACOES.items():
            self.delegacao.addItem(rotulo, chave)
        self.situacao = QLabel()
        self.situacao.setObjectName("situacao_operadora")
        self.situacao.setWordWrap(True)
        self.situacao.setTextFormat(Qt.TextFormat.RichText)
        self.situacao.setVisible(False)
        self._contrato: tuple[str, date | None] = ("concessao", None)
        self.logradouro = QLineEdit()
        self.numero_endereco = QLineEdit()
        self.numero_endereco.setMaximumWidth(90)
        self.complemento = QLineEdit()
        self.bairro = QLineEdit()
        self.cidade = QLineEdit("Pelotas")
        self.uf = QLineEdit("RS")
        self.uf.setMaxLength(2)
        self.uf.setMaximumWidth(50)
        self.cep = CampoMascarado("00000-000;_")
        self.cep.setMaximumWidth(100)
        self.telefone = QLineEdit()
        self.email = QLineEdit()
        self.representante_nome = QLineEdit()
        self.representante_cpf = CampoCpf()
        self.contrato_numero = QLineEdit()
        self.contrato_inicio = CampoData()
        self.contrato_fim = CampoData()

        esquerda = QVBoxLayout()
        esquerda.addWidget(f.grupo("Identificação"))
        f.adicionar("razao_social", "&Razão social:", self.razao_social)
        f.adicionar("nome_fantasia", "Nome &fantasia:", self.nome_fantasia)
        f.adicionar("cnpj", "CNP&J:", self.cnpj)
        f.adicionar("delegacao", "&Delegação:", self.delegacao)
        esquerda.addWidget(f.grupo("Representante legal"))
        f.adicionar("representante_nome", "&Nome:", self.representante_nome)
        f.adicionar("representante_cpf", "C&PF:", self.representante_cpf)
        esquerda.addWidget(f.grupo("Contrato ou termo de permissão"))
        f.adicionar("contrato_numero", "Núm&ero:", self.contrato_numero)
        f.adicionar("contrato_inicio", "&Início:", self.contrato_inicio)
        f.adicionar("contrato_fim", "Fi&m:", self.contrato_fim)
        esquerda.addStretch(1)
        direita = QVBoxLayout()
        direita.addWidget(f.grupo("Endereço para intimações"))
        f.adicionar("logradouro", "&Logradouro:", self.logradouro)
        f.adicionar("numero_endereco", "Númer&o:", self.numero_endereco)
        f.adicionar("complemento", "Complemento:", self.complemento)
        f.adicionar("bairro", "&Bairro:", self.bairro)
        f.adicionar("cidade", "Cidade:", self.cidade)  # its letters are all taken; Alt+A is Autos
        f.adicionar("uf", "&UF:", self.uf)
        f.adicionar("cep", "CEP:", self.cep)
        f.adicionar("telefone", "Telefone:", self.telefone)
        f.adicionar("email", "E-mail:", self.email)
        direita.addStretch(1)
        colunas = QHBoxLayout()
        colunas.addLayout(esquerda, 1)
        colunas.addLayout(direita, 1)
        self.layout_principal.addWidget(self.situacao)
        self.vinculos: dict[str, QPushButton] = {}
        if registro_id is not None and self._janela() is not None:
            self.layout_principal.addLayout(self._criar_vinculos())
        self.cassacao: PainelCassacao | None = None
        if registro_id is None:
            self.layout_principal.addLayout(colunas)
        else:
            from secretaria.ui.processo.cassacao import PainelCassacao

            cadastro = QWidget()
            colunas.setContentsMargins(6, 6, 6, 6)
            cadastro.setLayout(colunas)
            self.cassacao = PainelCassacao(contexto, registro_id)
            self.cassacao.alterado.connect(self._cassacao_alterada)
            self.abas = QTabWidget()
            self.abas.addTab(cadastro, "Cadas&tro")
            self.abas.addTab(self.cassacao, "Ca&ssação (art. 16)")
            self.layout_principal.addWidget(self.abas, 1)
            tamanho_na_tela(self, 1000, 720)
        self.setMinimumWidth(900)
        self.finalizar()

    def carregar(self, sessao: Any) -> tuple[int, str]:
        detalhe = cadastros.obter_operadora(sessao, self.registro_id or 0)
        d = detalhe.dados
        self.setWindowTitle(f"Operadora — {d.razao_social}")
        self.razao_social.setText(d.razao_social)
        self.nome_fantasia.setText(d.nome_fantasia)
        self.cnpj.definir_valor(d.cnpj)
        escolher(self.delegacao, d.delegacao)
        self.logradouro.setText(d.logradouro)
        self.numero_endereco.setText(d.numero_endereco)
        self.complemento.setText(d.complemento)
        self.bairro.setText(d.bairro)
        self.cidade.setText(d.cidade)
        self.uf.setText(d.uf)
        self.cep.definir_valor(d.cep)
        self.telefone.setText(d.telefone)
        self.email.setText(d.email)
        self.representante_nome.setText(d.representante_nome)
        self.representante_cpf.definir_valor(d.representante_cpf)
        self.contrato_numero.setText(d.contrato_numero)
        self.contrato_inicio.definir_data(d.contrato_inicio)
        self.contrato_fim.definir_data(d.contrato_fim)
        self._contrato = (d.delegacao, d.contrato_fim)
        self._mostrar_situacao(detalhe.situacao)
        self._mostrar_vinculos(sessao)
        return detalhe.versao, texto_alteracao(detalhe.alterado_por, detalhe.alterado_em)

    def _criar_vinculos(self) -> QHBoxLayout:
        """One button per list of this operator's records; a click closes the dialog and shows that list
        filtered by the operator (the counts are what the list will show)."""
        linha = QHBoxLayout()
        linha.addWidget(QLabel("Desta operadora:"))
        for lista in VINCULOS:
            botao = QPushButton()
            botao.setObjectName(f"vinculo_{lista}")
            botao.setAutoDefault(False)
            botao.clicked.connect(lambda _c=False, lista=lista: self.abrir_lista(lista))
            linha.addWidget(botao)
            self.vinculos[lista] = botao
        linha.addStretch(1)
        return linha

    def _janela(self) -> Any:
        """The main window this dialog was opened from (it switches pages), or None."""
        pai = self.parentWidget()
        while pai is not None and not hasattr(pai, "mostrar_da_operadora"):
            pai = pai.parentWidget()
        return pai

    def abrir_lista(self, lista: str) -> QWidget | None:
        janela = self._janela()
        if janela is None or self.registro_id is None:
            return None
        operadora_id = self.registro_id
        self.reject()
        if self.isVisible():  # closing was held up (unsaved changes to confirm): stay on the record
            return None
        pagina: QWidget | None = janela.mostrar_da_operadora(lista, operadora_id)
        return pagina

    def _mostrar_vinculos(self, sessao: Any) -> None:
        if not self.vinculos:
            return
        contagens = cadastros.vinculos_operadora(sessao, self.registro_id or 0)
        for lista, (rotulo, dica) in VINCULOS.items():
            n = getattr(contagens, lista)
            self.vinculos[lista].setText(f"{rotulo} ({n})")
            self.vinculos[lista].setToolTip(dica)

    def _mostrar_situacao(self, situacao: str) -> None:
        """The derived status, in large type above the tabs: ATIVA / SUSPENSA até … / CASSADA em …, and an
        open cassação procedure."""
        palavra, _, resto = situacao.partition(" ")
        cor = SITUACAO_COR.get(palavra, "#333")
        cassacoes = self.cassacao.cassacoes if self.cassacao is not None else []
        if palavra == "cassada":
            decidida = next((c.decidida_em for c in cassacoes if c.resultado == "cassada"), None)
            resto = f"— permissão cassada em {formatar_data(decidida)}" if decidida else "— permissão cassada"
        texto = f"<span style='font-size:13pt; color:{cor}'>Situação: <b>{palavra.upper()}</b> {resto}</span>"
        delegacao, fim = self._contrato
        contrato = vencimentos.texto_contrato(delegacao, fim, relogio.hoje()) if palavra != "cassada" else ""
        if contrato:  # an ended contract is no status of the law, but never left unsaid beside "ATIVA"
            estado = vencimentos.estado(fim, relogio.hoje())
            cor_contrato = SITUACAO_COR["suspensa"] if estado == "vencida" else COR_ALERTA
            texto += f" <span style='font-size:13pt; color:{cor_contrato}'>— {contrato}</span>"
        aberta = next((c for c in cassacoes if c.em_andamento), None)
        if aberta is not None:
            texto += (
                f"<br><span style='color:{COR_ALERTA}'>Procedimento de cassação em andamento desde "
                f"{formatar_data(aberta.instaurada_em)} (aba Cassação).</span>"
            )
        self.situacao.setText(texto)
        self.situacao.setVisible(True)

    def _cassacao_alterada(self, resultado: str) -> None:
        """After an act of the cassação tab: the new status; when this user's decision set the operator
        "cassada" (one write on the record), the form carries on from the record's new version."""
        with self.contexto.banco.leitura() as sessao:
            detalhe = cadastros.obter_operadora(sessao, self.registro_id or 0)
        self._mostrar_situacao(detalhe.situacao)
        if resultado == "cassada" and self.versao is not None and detalhe.versao == self.versao + 1:
            self.versao = detalhe.versao
            self.alteracao.setText(texto_alteracao(detalhe.alterado_por, detalhe.alterado_em))
            self.alteracao.setVisible(True)
        self.salvo.emit(self.registro_id or 0)

    def dados(self) -> cadastros.DadosOperadora:
        return cadastros.DadosOperadora(
            razao_social=self.razao_social.text(),
            cnpj=self.cnpj.valor(),
            nome_fantasia=self.nome_fantasia.text(),
            delegacao=self.delegacao.currentData(),
            logradouro=self.logradouro.text(),
            numero_endereco=self.numero_endereco.text(),
            complemento=self.complemento.text(),
            bairro=self.bairro.text(),
            cidade=self.cidade.text(),
            uf=self.uf.text(),
            cep=self.cep.valor(),
            telefone=self.telefone.text(),
            email=self.email.text(),
            representante_nome=self.representante_nome.text(),
            representante_cpf=self.representante_cpf.valor(),
            contrato_numero=self.contrato_numero.text(),
            contrato_inicio=self.contrato_inicio.data_ou_erro("contrato_inicio", "o início do contrato"),
            contrato_fim=self.contrato_fim.data_ou_erro("contrato_fim", "o fim do contrato"),
        )

    def gravar(self, uow: Any) -> int:
        dados = self.dados()
        if self.registro_id is None:
            return cadastros.criar_operadora(uow, self.contexto.ator, dados)
        return cadastros.editar_operadora(
            uow, self.contexto.ator, self.registro_id, dados, versao=self.versao or 0
        )


class DialogoLinha(DialogoCadastro):
    """Line (itinerary): code, name, operator, route description, active or not."""

    titulo_novo = "Nova linha"
    titulo_edicao = "Linha"
    entidade = "linha"

    def __init__(
        self, contexto: Contexto, registro_id: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(contexto, registro_id, parent)
        self.codigo = QLineEdit()
        self.codigo.setMaximumWidth(140)
        self.nome = QLineEdit()
        self.operadora_id = QComboBox()
        with contexto.banco.leitura() as sessao:
            opcoes = cadastros.opcoes_operadoras(sessao)
        preencher_combo(self.operadora_id, [(o.rotulo, o.id) for o in opcoes], "(escolha a operadora)")
        self.itinerario = TextoLongo(5)
        self.ativa = QCheckBox("Linha em operação")
        self.ativa.setChecked(True)
        self.layout_principal.addLayout(self.form.layout)
        self.form.adicionar("codigo", "&Código:", self.codigo)
        self.form.adicionar("nome", "&Nome:", self.nome)
        self.form.adicionar("operadora_id", "&Operadora:", self.operadora_id)
        self.form.adicionar("itinerario", "&Itinerário:", self.itinerario)
        self.form.adicionar("ativa", "", self.ativa)
        self.setMinimumWidth(560)
        self.finalizar()

    def carregar(self, sessao: Any) -> tuple[int, str]:
        detalhe = cadastros.obter_linha(sessao, self.registro_id or 0)
        d = detalhe.dados
        self.setWindowTitle(f"Linha {d.codigo} — {d.nome}")
        self.codigo.setText(d.codigo)
        self.nome.setText(d.nome)
        escolher(self.operadora_id, d.operadora_id)
        self.itinerario.setPlainText(d.itinerario)
        self.ativa.setChecked(d.ativa)
        return detalhe.versao, texto_alteracao(detalhe.alterado_por, detalhe.alterado_em)

    def gravar(self, uow: Any) -> int:
        dados = cadastros.DadosLinha(
            codigo=self.codigo.text(),
            nome=self.nome.text(),
            operadora_id=self.operadora_id.currentData(),
            itinerario=self.itinerario.toPlainText(),
            ativa=self.ativa.isChecked(),
        )
        if self.registro_id is None:
            return cadastros.criar_linha(uow, self.contexto.ator, dados)
        return cadastros.editar_linha(
            uow, self.contexto.ator, self.registro_id, dados, versao=self.versao or 0
        )


class PaginaOperadoras(QWidget):
    """The "Operadoras" area: a tab with the operators and one with their lines."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.operadoras = PaginaCadastro(
            contexto,
            "operadoras",
            DialogoOperadora,
            texto_novo="Nova operadora",
            singular="operadora",
            plural="operadoras",
            feminino=True,
            texto_busca="Razão social, nome fantasia ou CNPJ",
        )
        self.linhas = PaginaCadastro(
            contexto,
            "linhas",
            DialogoLinha,
            texto_novo="Nova linha",
            singular="linha",
            plural="linhas",
            feminino=True,
            texto_busca="Código, nome ou operadora da linha",
        )
        self.abas = QTabWidget()
        self.abas.addTab(self.operadoras, "&Operadoras")
        self.abas.addTab(self.linhas, "&Linhas")
        self.abas.currentChanged.connect(lambda _i: self.recarregar())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.abas)
        self.setFocusProxy(self.operadoras)

    def recarregar(self) -> None:
        pagina = self.abas.currentWidget()
        if isinstance(pagina, PaginaCadastro):
            pagina.recarregar()

    def ao_mudar(self, mudancas: frozenset[Any]) -> None:
        """Other users' acts (forwarded by the main window to the page on screen, which is this tab
        holder, not a list): the tab on screen refreshes keeping its selection and search; the other tab
        reads again when shown (`currentChanged`)."""
        pagina = self.abas.currentWidget()
        if isinstance(pagina, PaginaCadastro):
            pagina.ao_mudar(mudancas)
