"""The two case lists of the main window: "Autos de infração" and "Representações".

Both are part A's `PaginaListaServico` over `secretaria.services.listas` (lazy rows, search as you type,
sort in SQL, status filters, export of the visible rows); these pages add what opens a row and what
"Novo" does: the case screen and the auto form; the representação screen and the receiving form.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from secretaria.lei.urm import formatar_reais
from secretaria.ui.contexto import Contexto
from secretaria.ui.lista import PaginaListaServico
from secretaria.ui.processo.form_auto import DialogoAuto
from secretaria.ui.processo.form_representacao import DialogoRepresentacao, TelaRepresentacao
from secretaria.ui.processo.tela_caso import TelaCaso, abrir_caso


def _reais(valor: Any) -> str:
    return "" if valor is None else formatar_reais(valor)


class PaginaAutos(PaginaListaServico):
    """Autos de infração: double click / Enter opens the case; "Lavrar auto" (fiscal) opens the auto form."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(
            contexto,
            "autos",
            texto_novo="&Lavrar auto…",
            pode_criar=contexto.pode("fiscal"),
            texto_busca="Número (0001/2026), operadora, dispositivo, prefixo ou placa",
            singular="auto",
            plural="autos",
            formatos={"multa_reais": _reais},
            parent=parent,
        )
        self.abrirRegistro.connect(self.abrir_auto)
        self.novoRegistro.connect(self.novo_auto)
        self.tela: TelaCaso | None = None
        self.dialogo: DialogoAuto | None = None

    def abrir_auto(self, auto_id: Any) -> TelaCaso:
        tela = abrir_caso(self.contexto, int(auto_id), self)
        tela.casoAlterado.connect(lambda id_: self.recarregar(selecionar=id_))
        self.tela = tela
        return tela

    def novo_auto(self) -> DialogoAuto:
        dialogo = DialogoAuto(self.contexto, self)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialogo.autoLavrado.connect(lambda id_, _numero: self.recarregar(selecionar=id_))
        dialogo.open()
        self.dialogo = dialogo
        return dialogo


class PaginaRepresentacoes(PaginaListaServico):
    """Representações: open one to draw up its auto or file it; "Receber representação" (fiscal)."""

    def __init__(self, contexto: Contexto, parent: QWidget | None = None) -> None:
        super().__init__(
            contexto,
            "representacoes",
            texto_novo="&Receber representação…",
            pode_criar=contexto.pode("fiscal"),
            texto_busca="Número, autor, operadora, dispositivo ou palavra dos fatos",
            singular="representação",
            plural="representações",
            feminino=True,
            parent=parent,
        )
        self.abrirRegistro.connect(self.abrir_representacao)
        self.novoRegistro.connect(self.nova_representacao)
        self.tela: TelaRepresentacao | None = None
        self.dialogo: DialogoRepresentacao | None = None

    def abrir_representacao(self, representacao_id: Any) -> TelaRepresentacao:
        ident = int(representacao_id)
        tela = TelaRepresentacao(self.contexto, ident, self)
        tela.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        tela.alterada.connect(lambda id_: self.recarregar(selecionar=id_))
        tela.autoLavrado.connect(lambda auto_id, _n: abrir_caso(self.contexto, auto_id, self))
        tela.open()
        self.tela = tela
        return tela

    def nova_representacao(self) -> DialogoRepresentacao:
        dialogo = DialogoRepresentacao(self.contexto, self)
        dialogo.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialogo.recebida.connect(lambda id_, _n: self.recarregar(selecionar=id_))
        dialogo.open()
        self.dialogo = dialogo
        return dialogo


__all__ = ["PaginaAutos", "PaginaRepresentacoes"]
