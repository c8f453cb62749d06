"""The two case lists of the main window: "Autos de infração" and "Representações".

Both are part A's `PaginaListaServico` over `secretaria.services.listas` (lazy rows, search as you type,
sort in SQL, status filters, export of the visible rows); these pages add what opens a row and what
"Novo" does: the case screen and the auto form; the representação screen and the receiving form.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from secretaria.lei.urm import formatar_reais
from secretaria.services.painel import DestinoLista
from secretaria.ui.contexto import Contexto
from secretaria.ui.lista import PaginaListaServico
from secretaria.ui.processo.form_auto import DialogoAuto
from secretaria.ui.processo.form_representacao import DialogoRepresentacao, TelaRepresentacao
from secretaria.ui.processo.tela_caso import TelaCaso, abrir_caso

if TYPE_CHECKING:
    from secretaria.ui.widgets.imprimir_lista import PedidoImpressao


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
        # A filter the Painel set that has no widget of its own (the provision, the line, the step of the
        # case — a fine paid in a month): said, and undone.
        self.aviso_painel = QLabel()
        self.aviso_painel.setStyleSheet("color: #1f5f99")
        self.botao_limpar_painel = QPushButton("Limpar &filtro do Painel")
        self.botao_limpar_painel.clicked.connect(self.limpar_filtro_painel)
        self.adicionar_filtro(self.aviso_painel, linha=2)
        self.adicionar_filtro(self.botao_limpar_painel, linha=2)
        self.aviso_painel.setVisible(False)
        self.botao_limpar_painel.setVisible(False)
        self.rotulo_painel = ""
        """The Painel's filter in words while one is set (the printed list names it too)."""

    def pedido_impressao(self) -> PedidoImpressao:
        pedido = super().pedido_impressao()
        if not self.rotulo_painel:
            return pedido
        return replace(pedido, filtros=(*pedido.filtros, ("Do Painel", self.rotulo_painel)))

    def filtrar(self, destino: DestinoLista) -> None:
        """Show the autos behind a bar of the Painel: its period, operator, tipo, provision, line and step of
        the case; the search and the other filters are cleared. One query, after every widget is set."""
        widgets: list[QWidget] = [self.busca, self.combo_situacao, *self.combos_grupo.values()]
        if self.combo_operadora is not None:
            widgets.append(self.combo_operadora)
        widgets += [w for w in (self.desde, self.ate) if w is not None]
        for w in widgets:
            w.blockSignals(True)
        try:
            self.busca.clear()
            self.combo_situacao.setCurrentIndex(0)
            for grupo, combo in self.combos_grupo.items():
                combo.setCurrentIndex(max(0, combo.findData(destino.tipo)) if grupo == "tipo" else 0)
            if self.combo_operadora is not None:
                self.combo_operadora.setCurrentIndex(
                    max(0, self.combo_operadora.findData(destino.operadora_id))
                )
            if self.desde is not None and self.ate is not None:
                self.desde.definir_data(destino.desde)
                self.ate.definir_data(destino.ate)
        finally:
            for w in widgets:
                w.blockSignals(False)
        self._extra = {
            chave: valor
            for chave, valor in {
                "grupo:tipo": destino.tipo,
                "operadora_id": destino.operadora_id,
                "desde": destino.desde,
                "ate": destino.ate,
                "dispositivo": destino.dispositivo,
                "linha_id": destino.linha_id,
                "etapa": destino.etapa,
            }.items()
            if valor is not None
        }
        proprio = any(x is not None for x in (destino.dispositivo, destino.linha_id, destino.etapa))
        self.rotulo_painel = destino.rotulo if proprio else ""
        self.aviso_painel.setText(f"Do Painel: {destino.rotulo}" if proprio else "")
        self.aviso_painel.setVisible(proprio)
        self.botao_limpar_painel.setVisible(proprio)
        self.aplicar_filtro()

    def limpar_filtro_painel(self) -> None:
        self._extra.pop("dispositivo", None)
        self._extra.pop("linha_id", None)
        self._extra.pop("etapa", None)
        self.rotulo_painel = ""
        self.aviso_painel.setVisible(False)
        self.botao_limpar_painel.setVisible(False)
        self.aplicar_filtro()

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
