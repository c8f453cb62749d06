"""Vehicles: list and edit dialog, with where the vehicle served (operator and line periods)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QSpinBox, QVBoxLayout, QWidget

from secretaria import relogio
from secretaria.services import cadastros
from secretaria.services.rotulos import SITUACOES_VEICULO
from secretaria.ui.cadastros.base import (
    CampoInteiro,
    DialogoCadastro,
    PaginaCadastro,
    escolher,
    preencher_combo,
    texto_alteracao,
)
from secretaria.ui.contexto import Contexto
from secretaria.ui.lista import TabelaLista
from secretaria.ui.modelo_tabela import ColunaTabela, FonteEmMemoria, LinhaTabela, ModeloTabela
from secretaria.ui.widgets import CampoData, CampoPlaca
from secretaria.ui.widgets.janelas import crescer_para_caber

LUGARES_MAXIMO = 300
ESTILO_AVISO = "color: #8a5a00;"
"""Amber, like the lists' "vence em" rows: something to do, not a refusal."""

COLUNAS_HISTORICO = (
    ColunaTabela("inicio", "Desde", largura=12),
    ColunaTabela("fim", "Até", largura=12),
    ColunaTabela("operadora", "Operadora", largura=30),
    ColunaTabela("linha", "Linha", largura=10),
    ColunaTabela("registrado_por", "Registrado por", largura=14),
)


class DialogoVeiculo(DialogoCadastro):
    """Vehicle form. Changing the operator or the line asks for the day of the change, which closes the
    current period of the vehicle's history and opens the new one (the history is shown below)."""

    titulo_novo = "Novo veículo"
    titulo_edicao = "Veículo"
    entidade = "veiculo"

    def __init__(
        self, contexto: Contexto, registro_id: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(contexto, registro_id, parent)
        f = self.form
        self.prefixo = QLineEdit()
        self.prefixo.setMaximumWidth(120)
        self.placa = CampoPlaca()
        self.placa.setMaximumWidth(160)
        self.renavam = QLineEdit()
        self.renavam.setInputMask("00000000000;_")
        self.renavam.setMaximumWidth(160)
        self.operadora_id = QComboBox()
        self.linha_id = QComboBox()
        with contexto.banco.leitura() as sessao:
            opcoes = cadastros.opcoes_operadoras(sessao)
        preencher_combo(self.operadora_id, [(o.rotulo, o.id) for o in opcoes], "(escolha a operadora)")
        preencher_combo(self.linha_id, [], "(sem linha fixa)")
        self.marca_modelo = QLineEdit()
        self.ano_fabricacao = CampoInteiro(0, 9999)
        self.lugares_sentados = QSpinBox()
        self.lugares_em_pe = QSpinBox()
        for spin in (self.lugares_sentados, self.lugares_em_pe):
            spin.setRange(0, LUGARES_MAXIMO)
            spin.setMaximumWidth(90)
        self.vistoria_validade = CampoData()
        self.licenca_validade = CampoData()
        self.situacao = QComboBox()
        for chave, rotulo in SITUACOES_VEICULO.items():
            self.situacao.addItem(rotulo, chave)
        self.data_mudanca = CampoData()
        self.data_mudanca.definir_data(relogio.hoje())

        esquerda = QVBoxLayout()
        esquerda.addWidget(f.grupo("Identificação"))
        f.adicionar("prefixo", "&Prefixo (frota):", self.prefixo)
        f.adicionar("placa", "P&laca:", self.placa)
        f.adicionar("renavam", "&RENAVAM:", self.renavam)
        f.adicionar("marca_modelo", "&Marca/modelo:", self.marca_modelo)
        f.adicionar("ano_fabricacao", "&Ano de fabricação:", self.ano_fabricacao)
        f.adicionar("situacao", "Sit&uação:", self.situacao)
        esquerda.addStretch(1)
        direita = QVBoxLayout()
        direita.addWidget(f.grupo("Serviço"))
        f.adicionar("operadora_id", "&Operadora:", self.operadora_id)
        f.adicionar("linha_id", "Li&nha:", self.linha_id)
        rotulo_data = "&Em serviço desde:" if registro_id is None else "&Data da mudança:"
        campo_data = "em_servico_desde" if registro_id is None else "data_mudanca"
        f.adicionar(campo_data, rotulo_data, self.data_mudanca)
        lotacao = QHBoxLayout()
        lotacao.addWidget(self.lugares_sentados)
        lotacao.addWidget(QLabel("sentados"))
        lotacao.addSpacing(12)
        lotacao.addWidget(self.lugares_em_pe)
        lotacao.addWidget(QLabel("em pé"))
        lotacao.addStretch(1)
        f.adicionar("lugares_sentados", "Lo&tação:", lotacao, foco=self.lugares_sentados)
        f.registrar("lugares_em_pe", self.lugares_em_pe, f.rotulo_erro_de("lugares_sentados"))
        f.adicionar("vistoria_validade", "&Vistoria válida até:", self.vistoria_validade)
        f.adicionar("licenca_validade", "L&icença válida até:", self.licenca_validade)
        self.aviso_datas = QLabel()
        self.aviso_datas.setObjectName("aviso_datas")
        self.aviso_datas.setWordWrap(True)
        self.aviso_datas.setStyleSheet(ESTILO_AVISO)
        direita.addWidget(self.aviso_datas)
        direita.addStretch(1)
        colunas = QHBoxLayout()
        colunas.addLayout(esquerda, 1)
        colunas.addLayout(direita, 1)
        self.layout_principal.addLayout(colunas)

        self.fonte_historico = FonteEmMemoria(COLUNAS_HISTORICO)
        self.modelo_historico = ModeloTabela(self.fonte_historico, parent=self)
        self.tabela_historico = TabelaLista()
        self.tabela_historico.setModel(self.modelo_historico)
        self.tabela_historico.setSortingEnabled(False)
        self.tabela_historico.setMaximumHeight(150)
        self.rotulo_historico = QLabel("<b>Onde o veículo serviu</b>")
        self.layout_principal.addWidget(self.rotulo_historico)
        self.layout_principal.addWidget(self.tabela_historico)
        self.rotulo_historico.setVisible(registro_id is not None)
        self.tabela_historico.setVisible(registro_id is not None)

        self._original: tuple[Any, Any] | None = None
        self.operadora_id.currentIndexChanged.connect(self._operadora_mudou)
        self.linha_id.currentIndexChanged.connect(lambda _i: self._atualizar_data_mudanca())
        for campo in (self.vistoria_validade, self.licenca_validade):
            campo.dataAlterada.connect(lambda _d: self._atualizar_aviso_datas())
        self.situacao.currentIndexChanged.connect(lambda _i: self._atualizar_aviso_datas())
        self.setMinimumWidth(900)
        self.finalizar()
        self._atualizar_data_mudanca()
        self._atualizar_aviso_datas()

    def _atualizar_aviso_datas(self) -> None:
        """A warning, not an error: the office may register a bus before it has its inspection or licence
        date, and it may save so; the home screen then lists the vehicle until the dates are filled."""
        faltam = [
            nome
            for nome, campo in (("vistoria", self.vistoria_validade), ("licença", self.licenca_validade))
            if campo.valida() and campo.data() is None
        ]
        if not faltam or self.situacao.currentData() == "baixado":
            self.aviso_datas.clear()
            self.aviso_datas.setVisible(False)
            return
        texto = " e de ".join(faltam)
        self.aviso_datas.setText(
            f"Sem data de {texto}: o veículo pode ser salvo assim, mas aparecerá na tela Início entre os "
            "veículos com pendência até que a data seja informada."
        )
        self.aviso_datas.setVisible(True)
        crescer_para_caber(self)

    def salvar(self) -> None:
        super().salvar()
        if self.isVisible():  # refused: the message line under its field needs room
            crescer_para_caber(self)

    def showEvent(self, evento: QShowEvent) -> None:
        super().showEvent(evento)
        QTimer.singleShot(0, self.tabela_historico.ajustar_colunas)

    def _operadora_mudou(self, _indice: int = 0) -> None:
        operadora = self.operadora_id.currentData()
        itens: list[tuple[str, Any]] = []
        if operadora is not None:
            with self.contexto.banco.leitura() as sessao:
                itens = [
                    (o.rotulo, o.id) for o in cadastros.opcoes_linhas(sessao, operadora, somente_ativas=False)
                ]
        preencher_combo(self.linha_id, itens, "(sem linha fixa)")
        self._atualizar_data_mudanca()

    def _atualizar_data_mudanca(self) -> None:
        """The day of the change matters only when editing and the operator or line differs."""
        if self.registro_id is None or self._original is None:
            return
        mudou = (self.operadora_id.currentData(), self.linha_id.currentData()) != self._original
        self.data_mudanca.setEnabled(mudou and self.pode_editar)

    def carregar(self, sessao: Any) -> tuple[int, str]:
        detalhe = cadastros.obter_veiculo(sessao, self.registro_id or 0)
        d = detalhe.dados
        self.setWindowTitle(f"Veículo {d.prefixo} — {detalhe.placa_formatada}")
        self.prefixo.setText(d.prefixo)
        self.placa.definir_valor(d.placa)
        self.renavam.setText(d.renavam)
        escolher(self.operadora_id, d.operadora_id)
        self._operadora_mudou()
        escolher(self.linha_id, d.linha_id)
        self.marca_modelo.setText(d.marca_modelo)
        self.ano_fabricacao.definir_valor(d.ano_fabricacao)
        self.lugares_sentados.setValue(d.lugares_sentados)
        self.lugares_em_pe.setValue(d.lugares_em_pe)
        self.vistoria_validade.definir_data(d.vistoria_validade)
        self.licenca_validade.definir_data(d.licenca_validade)
        escolher(self.situacao, d.situacao)
        self._original = (d.operadora_id, d.linha_id)
        self.fonte_historico.trocar(
            [
                LinhaTabela(
                    i, (p.inicio, p.fim, p.operadora_nome, p.linha_codigo or "—", p.registrado_por or "")
                )
                for i, p in enumerate(reversed(detalhe.historico))
            ]
        )
        self.modelo_historico.recarregar()
        return detalhe.versao, texto_alteracao(detalhe.alterado_por, detalhe.alterado_em)

    def gravar(self, uow: Any) -> int:
        dados = cadastros.DadosVeiculo(
            prefixo=self.prefixo.text(),
            placa=self.placa.valor(),
            renavam=self.renavam.text().replace("_", "").strip(),
            operadora_id=self.operadora_id.currentData(),
            linha_id=self.linha_id.currentData(),
            marca_modelo=self.marca_modelo.text(),
            ano_fabricacao=self.ano_fabricacao.valor(),
            lugares_sentados=self.lugares_sentados.value(),
            lugares_em_pe=self.lugares_em_pe.value(),
            vistoria_validade=self.vistoria_validade.data_ou_erro(
                "vistoria_validade", "a validade da vistoria"
            ),
            licenca_validade=self.licenca_validade.data_ou_erro("licenca_validade", "a validade da licença"),
            situacao=self.situacao.currentData(),
        )
        if self.registro_id is None:
            desde = self.data_mudanca.data_ou_erro("em_servico_desde", "a data de início em serviço")
            return cadastros.criar_veiculo(uow, self.contexto.ator, dados, em_servico_desde=desde)
        mudanca = self.data_mudanca.data_ou_erro("data_mudanca", "a data da mudança")
        return cadastros.editar_veiculo(
            uow, self.contexto.ator, self.registro_id, dados, versao=self.versao or 0, data_mudanca=mudanca
        )


class PaginaVeiculos(PaginaCadastro):
    """The vehicles list (red: inspection or licence expired; grey: withdrawn)."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(
            contexto,
            "veiculos",
            DialogoVeiculo,
            texto_novo="Novo veículo",
            singular="veículo",
            plural="veículos",
            texto_busca="Prefixo, placa, RENAVAM, modelo ou operadora",
            parent=parent,
        )
