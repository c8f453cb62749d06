"""The keyboard: no two visible controls of a window share an Alt+letter (Alt would then only hop between
them instead of acting), every act button of the case screen has one, and list columns fit what matters."""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import date
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QMenuBar, QTabBar, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.ui.lista import nivelar
from secretaria.ui.processo.tela_caso import TelaCaso, com_atalho
from tests.helpers import apoio_processo as ap

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")


def _letra(texto: str) -> str | None:
    achado = re.search(r"&([^&\s])", texto.replace("&&", ""))
    return achado.group(1).lower() if achado else None


def alt_repetidos(janela: QWidget) -> dict[str, list[str]]:
    """Alt letters used by more than one visible control (labels with a buddy, buttons, group boxes,
    tab titles, menus) of `janela`."""
    usos: dict[str, list[str]] = defaultdict(list)
    for w in [janela, *janela.findChildren(QWidget)]:
        if w is not janela and not w.isVisibleTo(janela):
            continue
        textos: list[str] = []
        if (isinstance(w, QLabel) and w.buddy() is not None) or isinstance(w, QAbstractButton):
            textos.append(w.text())
        elif isinstance(w, QGroupBox):
            textos.append(w.title())
        elif isinstance(w, QTabBar):
            textos += [w.tabText(i) for i in range(w.count())]
        elif isinstance(w, QMenuBar):
            textos += [a.text() for a in w.actions()]
        for texto in textos:
            if (letra := _letra(texto)) is not None:
                usos[letra].append(texto)
    return {letra: textos for letra, textos in usos.items() if len(textos) > 1}


def test_janela_principal_sem_atalhos_repetidos(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    from secretaria.ui.admin import PaginaAdministracao
    from secretaria.ui.janela_principal import PAGINAS, JanelaPrincipal

    contexto = ap.contexto(banco, "administrador", "fiscal", "protocolo", "autoridade", "secretario")
    janela = ap.manter(JanelaPrincipal(contexto))
    qtbot.addWidget(janela)
    janela.show()
    for pagina in PAGINAS:
        janela.mostrar_pagina(pagina.chave)
        assert alt_repetidos(janela) == {}, pagina.chave
    admin = janela.pagina_atual()
    assert isinstance(admin, PaginaAdministracao)
    for chave, _rotulo in PaginaAdministracao.ABAS:
        admin.aba(chave)
        assert alt_repetidos(janela) == {}, chave


def test_tela_do_caso_cada_ato_com_sua_letra(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    tela = ap.manter(TelaCaso(ap.contexto(banco), r.id))
    qtbot.addWidget(tela)
    tela.show()
    assert len(tela.botoes_atos) >= 3
    assert all(_letra(b.text()) for b in tela.botoes_atos.values())
    assert tela.botoes_atos["registrar_pagamento"].text() == "Registrar &pagamento…"
    for aba in range(tela.abas.count()):
        tela.abas.setCurrentIndex(aba)
        assert alt_repetidos(tela) == {}


def test_operadora_e_dialogos_sem_atalhos_repetidos(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    from secretaria.ui.cadastros.empregados import DialogoEmpregado
    from secretaria.ui.cadastros.operadoras import DialogoOperadora

    contexto = ap.contexto(banco, "administrador", "autoridade", "secretario", "protocolo")
    operadora = ap.manter(DialogoOperadora(contexto, roteiro.cidade.operadora2_id))
    qtbot.addWidget(operadora)
    operadora.show()
    for aba in range(operadora.abas.count()):
        operadora.abas.setCurrentIndex(aba)
        assert alt_repetidos(operadora) == {}
    empregado = ap.manter(DialogoEmpregado(contexto, roteiro.cidade.empregado_id))
    qtbot.addWidget(empregado)
    empregado.show()
    assert alt_repetidos(empregado) == {}


def test_com_atalho_prefere_a_palavra_do_ato() -> None:
    usados = set("lasdn")
    assert com_atalho("Registrar recurso…", usados) == "Registrar &recurso…"
    assert com_atalho("Registrar pagamento…", usados) == "Registrar &pagamento…"
    assert com_atalho("Registrar julgamento do recurso…", usados) == "Registrar &julgamento do recurso…"
    assert com_atalho("Anexar arquivo…", usados) == "An&exar arquivo…"  # a, r taken: the next free letter


def test_colunas_longas_cedem_antes_das_curtas() -> None:
    # Razão social 237 px, CNPJ 137, Situação 161, Contrato 206; 118 px too many: only the two long ones
    # are cut (to one common width), the CNPJ and the status stay whole.
    naturais = [237, 121, 137, 98, 161, 206, 103, 83]
    pisos = {0: 110, 1: 121, 2: 110, 3: 98, 4: 110, 5: 152}
    larguras = nivelar(naturais, pisos, 118)
    assert larguras[2] == 137 and larguras[4] == 161 and larguras[6:] == [103, 83]
    assert larguras[0] == larguras[5] < 206
    assert sum(naturais) - sum(larguras) >= 118
    # Nothing can go below its floor, even when the excess cannot be absorbed.
    assert nivelar(naturais, pisos, 10_000)[:6] == [110, 121, 110, 98, 110, 152]


def _ordem_do_tab(qtbot: QtBot, inicio: QWidget, voltas: int = 40) -> list[QWidget]:
    """The widgets Tab visits from `inicio` until it comes back (keyboard events, as a user types them)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    inicio.setFocus()
    visitados: list[QWidget] = []
    for _ in range(voltas):
        atual = QApplication.focusWidget()
        assert atual is not None
        if visitados and atual is visitados[0]:
            break
        visitados.append(atual)
        qtbot.keyClick(atual, Qt.Key.Key_Tab)
    return visitados


def test_tab_percorre_filtros_tabela_e_botoes_na_ordem(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    from secretaria.ui.inicio import PaginaInicio
    from secretaria.ui.janela_principal import JanelaPrincipal
    from secretaria.ui.processo.paginas import PaginaAutos

    janela = ap.manter(JanelaPrincipal(ap.contexto(banco, "fiscal")))
    qtbot.addWidget(janela)
    with qtbot.waitActive(janela):
        janela.show()
    inicio = janela.pagina_atual()
    assert isinstance(inicio, PaginaInicio)
    visitados = _ordem_do_tab(qtbot, janela.navegacao)
    assert visitados[1:] == [
        inicio.lista_filas,
        inicio.tabela,
        inicio.botao_abrir,
        inicio.botao_atualizar,
        inicio.botao_imprimir,
    ]

    autos = janela.mostrar_pagina("autos")
    assert isinstance(autos, PaginaAutos)
    visitados = _ordem_do_tab(qtbot, janela.navegacao)
    assert visitados[1:3] == [autos.busca, autos.combo_situacao]
    assert visitados[-7:] == [
        autos.tabela,
        autos.botao_novo,
        autos.botao_abrir,
        autos.botao_atualizar,
        autos.botao_exportar,
        autos.botao_imprimir,
        autos.botao_salvar_pdf,
    ]
    # The filters added by the page (tipo, operator, the period) come before the table, each once.
    filtros = visitados[3:-7]
    assert autos.desde is not None and autos.ate is not None
    assert autos.desde.editor in filtros and autos.ate.editor in filtros
    assert len(visitados) == len(set(visitados))


def test_tela_do_caso_abre_no_proximo_ato(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    from PySide6.QtWidgets import QApplication

    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    tela = ap.manter(TelaCaso(ap.contexto(banco, "protocolo"), r.id))
    qtbot.addWidget(tela)
    with qtbot.waitActive(tela):
        tela.show()
    botoes = list(tela.botoes_atos.values())
    assert QApplication.focusWidget() is botoes[0]
    visitados = _ordem_do_tab(qtbot, botoes[0])
    assert visitados[: len(botoes)] == botoes
    assert visitados[len(botoes)] is tela.abas.tabBar()
    ultimos = {b.text().replace("&", "") for b in visitados[-2:] if isinstance(b, QAbstractButton)}
    assert ultimos == {"Atualizar (F5)", "Fechar"}  # the box's own order


def test_enter_no_salvar_dos_dados_do_orgao_grava(qtbot: QtBot, banco: Banco) -> None:
    """Tab to "Salvar" and press Enter, as with Space: the letterhead is saved."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    from secretaria.services.orgao import obter_dados_orgao
    from secretaria.ui.admin.sistema import PainelOrgao
    from secretaria.ui.widgets import mensagens

    orgao = ap.manter(PainelOrgao(ap.contexto(banco, "administrador")))
    qtbot.addWidget(orgao)
    with qtbot.waitActive(orgao):
        orgao.show()
    orgao.secretario_nome.setText("Marta Lopes")
    orgao.endereco.setText("Praça Coronel Pedro Osório, 101")
    orgao.pagamento_instrucoes.setText("por guia de recolhimento retirada no protocolo")
    orgao.botao_salvar.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is orgao.botao_salvar)
    qtbot.keyClick(orgao.botao_salvar, Qt.Key.Key_Return)
    assert mensagens.responder(QMessageBox.StandardButton.Ok) == "Dados do órgão gravados."
    with banco.leitura() as s:
        assert obter_dados_orgao(s).dados.secretario_nome == "Marta Lopes"


def test_seta_no_filtro_de_situacao_abre_a_lista_sem_trocar_o_filtro(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    """Tab from the search box lands on Situação; Down there opens its list (the filter stays until an
    item is chosen), as it does on the filters the page adds (Operadora)."""
    from PySide6.QtWidgets import QApplication

    from secretaria.ui.janela_principal import JanelaPrincipal
    from secretaria.ui.processo.paginas import PaginaAutos

    janela = ap.manter(JanelaPrincipal(ap.contexto(banco, "fiscal")))
    qtbot.addWidget(janela)
    with qtbot.waitActive(janela):
        janela.show()
    autos = janela.mostrar_pagina("autos")
    assert isinstance(autos, PaginaAutos) and autos.combo_operadora is not None
    autos.busca.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is autos.busca)
    qtbot.keyClick(autos.busca, Qt.Key.Key_Tab)
    combo = autos.combo_situacao
    assert QApplication.focusWidget() is combo
    for alvo in (combo, autos.combo_operadora):
        antes = alvo.currentIndex()
        alvo.setFocus()
        qtbot.keyClick(alvo, Qt.Key.Key_Down)
        assert alvo.currentIndex() == antes
        qtbot.waitUntil(alvo.view().isVisible)
        alvo.hidePopup()
        assert alvo.currentIndex() == antes
