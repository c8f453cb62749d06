"""Inspectors of the SMSU (who draw up autos): list and edit dialog."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QWidget

from secretaria.services import cadastros, listas
from secretaria.ui.cadastros.base import (
    DialogoCadastro,
    PaginaCadastro,
    escolher,
    preencher_combo,
    texto_alteracao,
)
from secretaria.ui.contexto import Contexto


class DialogoFiscal(DialogoCadastro):
    """Inspector: name, registration number, active or not, and (optionally) the program user who is this
    inspector (so autos they draw up name them)."""

    titulo_novo = "Novo fiscal da SMSU"
    titulo_edicao = "Fiscal da SMSU"
    entidade = "fiscal"

    def __init__(
        self, contexto: Contexto, registro_id: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(contexto, registro_id, parent)
        self.nome = QLineEdit()
        self.matricula = QLineEdit()
        self.matricula.setMaximumWidth(160)
        self.ativo = QCheckBox("Em atividade")
        self.ativo.setChecked(True)
        self.usuario_id = QComboBox()
        with contexto.banco.leitura() as sessao:
            usuarios = listas.pagina(sessao, "usuarios", None, ("nome", True), 0, 5_000)
        preencher_combo(self.usuario_id, [(f"{u[2]} ({u[1]})", u[0]) for u in usuarios], "(nenhum)")
        f = self.form
        self.layout_principal.addLayout(f.layout)
        f.adicionar("nome", "&Nome:", self.nome)
        f.adicionar("matricula", "&Matrícula:", self.matricula)
        f.adicionar("ativo", "", self.ativo)
        f.adicionar("usuario_id", "&Usuário do sistema:", self.usuario_id)
        self.setMinimumWidth(520)
        self.finalizar()

    def carregar(self, sessao: Any) -> tuple[int, str]:
        detalhe = cadastros.obter_fiscal(sessao, self.registro_id or 0)
        d = detalhe.dados
        self.setWindowTitle(f"Fiscal da SMSU — {d.nome}")
        self.nome.setText(d.nome)
        self.matricula.setText(d.matricula)
        self.ativo.setChecked(d.ativo)
        escolher(self.usuario_id, d.usuario_id)
        return detalhe.versao, texto_alteracao(detalhe.alterado_por, detalhe.alterado_em)

    def gravar(self, uow: Any) -> int:
        dados = cadastros.DadosFiscal(
            nome=self.nome.text(),
            matricula=self.matricula.text(),
            ativo=self.ativo.isChecked(),
            usuario_id=self.usuario_id.currentData(),
        )
        if self.registro_id is None:
            return cadastros.criar_fiscal(uow, self.contexto.ator, dados)
        return cadastros.editar_fiscal(
            uow, self.contexto.ator, self.registro_id, dados, versao=self.versao or 0
        )


class PaginaFiscais(PaginaCadastro):
    """The SMSU inspectors list (grey: inactive)."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(
            contexto,
            "fiscais",
            DialogoFiscal,
            texto_novo="Novo fiscal",
            singular="fiscal",
            plural="fiscais",
            texto_busca="Nome ou matrícula",
            parent=parent,
        )
