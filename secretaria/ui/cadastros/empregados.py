"""Employees and agents of the operators (art. 1º IV and XVIII): list and edit dialog."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget

from secretaria.services import cadastros
from secretaria.services.rotulos import FUNCOES
from secretaria.ui.cadastros.base import (
    DialogoCadastro,
    PaginaCadastro,
    escolher,
    preencher_combo,
    texto_alteracao,
)
from secretaria.ui.contexto import Contexto
from secretaria.ui.widgets import CampoCpf, CampoData


class DialogoEmpregado(DialogoCadastro):
    """Employee or agent: name, CPF, role, operator, registration card (art. 1º XVIII), admission and
    dismissal (art. 1º IV)."""

    titulo_novo = "Novo empregado ou agente"
    titulo_edicao = "Empregado ou agente"
    entidade = "empregado"

    def __init__(
        self, contexto: Contexto, registro_id: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(contexto, registro_id, parent)
        self.nome = QLineEdit()
        self.cpf = CampoCpf()
        self.cpf.setMaximumWidth(160)
        self.funcao = QComboBox()
        for chave, rotulo in FUNCOES.items():
            self.funcao.addItem(rotulo, chave)
        self.operadora_id = QComboBox()
        with contexto.banco.leitura() as sessao:
            opcoes = cadastros.opcoes_operadoras(sessao)
        preencher_combo(self.operadora_id, [(o.rotulo, o.id) for o in opcoes], "(escolha a operadora)")
        self.carteira_cadastro = QLineEdit()
        self.carteira_cadastro.setMaximumWidth(200)
        self.admissao = CampoData()
        self.demissao = CampoData()
        f = self.form
        self.layout_principal.addLayout(f.layout)
        f.adicionar("nome", "&Nome:", self.nome)
        f.adicionar("cpf", "&CPF:", self.cpf)
        f.adicionar("funcao", "&Função:", self.funcao)
        f.adicionar("operadora_id", "&Operadora:", self.operadora_id)
        f.adicionar("carteira_cadastro", "Ca&rteira de cadastro:", self.carteira_cadastro)
        f.adicionar("admissao", "&Admissão:", self.admissao)
        f.adicionar("demissao", "&Demissão:", self.demissao)
        self.setMinimumWidth(560)
        self.finalizar()

    def carregar(self, sessao: Any) -> tuple[int, str]:
        detalhe = cadastros.obter_empregado(sessao, self.registro_id or 0)
        d = detalhe.dados
        self.setWindowTitle(f"{FUNCOES.get(d.funcao, 'Empregado')} — {d.nome}")
        self.nome.setText(d.nome)
        self.cpf.definir_valor(d.cpf)
        escolher(self.funcao, d.funcao)
        escolher(self.operadora_id, d.operadora_id)
        self.carteira_cadastro.setText(d.carteira_cadastro)
        self.admissao.definir_data(d.admissao)
        self.demissao.definir_data(d.demissao)
        return detalhe.versao, texto_alteracao(detalhe.alterado_por, detalhe.alterado_em)

    def gravar(self, uow: Any) -> int:
        dados = cadastros.DadosEmpregado(
            nome=self.nome.text(),
            cpf=self.cpf.valor(),
            operadora_id=self.operadora_id.currentData(),
            funcao=self.funcao.currentData(),
            carteira_cadastro=self.carteira_cadastro.text(),
            admissao=self.admissao.data_ou_erro("admissao", "a data de admissão"),
            demissao=self.demissao.data_ou_erro("demissao", "a data de demissão"),
        )
        if self.registro_id is None:
            return cadastros.criar_empregado(uow, self.contexto.ator, dados)
        return cadastros.editar_empregado(
            uow, self.contexto.ator, self.registro_id, dados, versao=self.versao or 0
        )


class PaginaEmpregados(PaginaCadastro):
    """The employees and agents list (grey: dismissed)."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(
            contexto,
            "empregados",
            DialogoEmpregado,
            texto_novo="Novo empregado ou agente",
            singular="pessoa",
            plural="pessoas",
            feminino=True,
            texto_busca="Nome, CPF, carteira de cadastro ou operadora",
            parent=parent,
        )
