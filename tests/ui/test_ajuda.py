"""The manual inside the program: every page and editing dialog has a section that exists in the manual, F1
opens the section of the page or dialog in use (a window-modal dialog included), Ajuda → Manual and
Primeiros passos open theirs, and the help window searches and follows its links."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QDialog, QWidget
from pytestqt.qtbot import QtBot

import secretaria.ui
from secretaria.db import Banco
from secretaria.services import manual
from secretaria.ui import ajuda, tecla_f1
from secretaria.ui.admin import PaginaAdministracao
from secretaria.ui.cadastros.operadoras import DialogoLinha, PaginaOperadoras
from secretaria.ui.janela_principal import PAGINAS, JanelaPrincipal
from tests.helpers import apoio_processo as ap

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")

TODOS = ("administrador", "fiscal", "protocolo", "autoridade", "secretario")


@pytest.fixture(autouse=True)
def _fechar_ajuda() -> Iterator[None]:
    yield
    janela = ajuda.janela_aberta()
    if janela is not None:
        janela.close()
        janela.deleteLater()
        ajuda._janela = None


def _janela(qtbot: QtBot, banco: Banco) -> JanelaPrincipal:
    janela = ap.manter(JanelaPrincipal(ap.contexto(banco, *TODOS)))
    qtbot.addWidget(janela)
    janela.resize(1366, 768)
    with qtbot.waitActive(janela):
        janela.show()
    return janela


def _classes_de_dialogo() -> list[type[QDialog]]:
    """Every dialog class of the program (imported from every module of secretaria.ui), bases left out."""
    for modulo in pkgutil.walk_packages(secretaria.ui.__path__, "secretaria.ui."):
        importlib.import_module(modulo.name)
    achadas: set[type[QDialog]] = set()
    pendentes: list[type[QDialog]] = [QDialog]
    while pendentes:
        sub: type[QDialog]
        for sub in pendentes.pop().__subclasses__():
            pendentes.append(sub)
            if sub.__module__.startswith("secretaria.ui."):
                achadas.add(sub)
    bases = {b for c in achadas for b in c.__mro__[1:] if b in achadas}
    return sorted((c for c in achadas if c not in bases), key=lambda c: c.__qualname__)


def test_todo_dialogo_tem_secao_no_manual() -> None:
    m = manual.carregar()
    classes = _classes_de_dialogo()
    nomes = {c.__name__ for c in classes}
    assert {"DialogoAuto", "DialogoIntimacao", "DialogoValorUrm", "DialogoLogin", "TelaCaso"} <= nomes
    sem = [c.__qualname__ for c in classes if (s := ajuda.secao_da_classe(c)) is None or not m.existe(s)]
    assert sem == []
    assert all(m.existe(s) for s in ajuda.SECOES.values())


def test_toda_pagina_e_aba_tem_sua_secao(qtbot: QtBot, banco: Banco) -> None:
    m = manual.carregar()
    janela = _janela(qtbot, banco)
    assert set(janela.chaves_visiveis) == {d.chave for d in PAGINAS}
    secoes = {}
    for chave in janela.chaves_visiveis:
        pagina = janela.mostrar_pagina(chave)
        assert pagina is not None
        secoes[chave] = ajuda.secao_do_widget(pagina)
        assert secoes[chave] != manual.INICIO and m.existe(secoes[chave]), chave
    assert secoes["autos"] == "autos" and secoes["inicio"] == "inicio"
    admin = janela.pagina("administracao")
    assert isinstance(admin, PaginaAdministracao)
    for chave, _rotulo in PaginaAdministracao.ABAS:
        painel = admin.aba(chave)
        assert ajuda.secao_do_widget(painel) == ("copias-e-configuracoes" if chave == "sistema" else chave)
    # The two tabs of Operadoras are the same kind of page: each has its own section.
    operadoras = janela.pagina("operadoras")
    assert isinstance(operadoras, PaginaOperadoras)
    assert ajuda.secao_do_widget(operadoras.linhas.tabela) == "linhas"
    assert ajuda.secao_do_widget(operadoras.operadoras.busca) == "operadoras"


def test_f1_abre_a_secao_da_pagina_e_do_dialogo(qtbot: QtBot, banco: Banco) -> None:
    janela = _janela(qtbot, banco)
    autos = janela.mostrar_pagina("autos")
    assert autos is not None
    autos.setFocus()
    foco = janela.focusWidget()
    assert foco is not None
    qtbot.keyClick(foco, Qt.Key.Key_F1)
    aberta = ajuda.janela_aberta()
    assert aberta is not None and aberta.isVisible()
    assert aberta.secao_atual == "autos"
    assert aberta.texto.toPlainText().startswith(manual.carregar().secao("autos").titulo)
    item = aberta.indice.currentItem()
    assert item is not None and item.text(0) == manual.carregar().secao("autos").titulo

    # A window-modal dialog in front of the window: F1 there opens its own section.
    operadoras = janela.mostrar_pagina("operadoras")
    assert isinstance(operadoras, PaginaOperadoras)
    operadoras.abas.setCurrentWidget(operadoras.linhas)
    operadoras.linhas.tabela.setFocus()
    qtbot.keyClick(operadoras.linhas.tabela, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    dialogo = ap.esperar_dialogo(qtbot, DialogoLinha)
    qtbot.waitUntil(lambda: dialogo.isActiveWindow())
    campo = dialogo.focusWidget()
    assert isinstance(campo, QWidget)
    qtbot.keyClick(campo, Qt.Key.Key_F1)
    assert aberta.secao_atual == "linhas"
    assert ajuda.janela_aberta() is aberta  # one help window
    dialogo.reject()


def test_menu_ajuda_manual_e_primeiros_passos(qtbot: QtBot, banco: Banco) -> None:
    janela = _janela(qtbot, banco)
    janela.acao_primeiros_passos.trigger()
    aberta = ajuda.janela_aberta()
    assert aberta is not None and aberta.secao_atual == manual.PRIMEIROS_PASSOS
    assert "primeiro administrador" in aberta.texto.toPlainText().lower()
    janela.acao_manual.trigger()
    assert aberta.secao_atual == manual.INICIO
    assert janela.acao_manual.text().endswith("\tF1")


def test_janela_de_ajuda_busca_e_segue_links(qtbot: QtBot, digitar: Callable[[QWidget, str], None]) -> None:
    janela = ajuda.abrir_ajuda("defesa")
    qtbot.addWidget(janela)
    janela.resize(1366, 768)
    ap.salvar_png(janela, "ajuda-defesa")
    # a link to another section opens it; Alt+← comes back
    janela._link(QUrl("intimacao.md"))
    assert janela.secao_atual == "intimacao"
    janela.voltar()
    assert janela.secao_atual == "defesa"
    # the search keeps only the sections holding every word, their parents too
    digitar(janela.busca, "cassação")
    visiveis = janela.resultados_visiveis()
    esperadas = {r.secao for r in janela.manual.buscar("cassação")}
    assert esperadas <= set(visiveis) and "cassacao" in visiveis and "processo" in visiveis
    assert all(s in esperadas or any(janela._descende(e, s) for e in esperadas) for s in visiveis)
    assert janela.resultados.text() == f"{len(esperadas)} seções encontradas."
    qtbot.keyClick(janela.busca, Qt.Key.Key_Return)
    assert janela.secao_atual == "cassacao"
    assert janela.texto.textCursor().selectedText().lower() == "cassação"
    janela.busca.clear()
    assert len(janela.resultados_visiveis()) == len(janela.manual.ids())
    janela.mostrar("secao-que-nao-existe")
    assert janela.secao_atual == manual.INICIO


def test_f1_no_dialogo_de_entrada_modal(qtbot: QtBot, banco: Banco) -> None:
    """The login runs application-modal (exec) before any window: the manual opens over it, usable."""
    from PySide6.QtCore import QTimer

    from secretaria.ui.login import DialogoLogin

    tecla_f1.instalar_f1()
    dialogo = DialogoLogin(banco, demo=False)
    qtbot.addWidget(dialogo)
    vistos: list[tuple[str, bool]] = []

    def apertar_f1() -> None:
        foco = dialogo.focusWidget() or dialogo
        qtbot.keyClick(foco, Qt.Key.Key_F1)
        aberta = ajuda.janela_aberta()
        assert aberta is not None
        vistos.append((aberta.secao_atual, aberta.isEnabled() and not _bloqueada(aberta)))
        aberta.close()
        dialogo.reject()

    QTimer.singleShot(200, apertar_f1)
    dialogo.exec()
    assert vistos == [("entrar", True)]


def _bloqueada(janela: QWidget) -> bool:
    """Whether a modal window elsewhere blocks input to `janela` (Qt's own test: the modal's children pass)."""
    from PySide6.QtWidgets import QApplication

    modal = QApplication.activeModalWidget()
    if modal is None:
        return False
    pai: QWidget | None = janela
    while pai is not None:
        if pai is modal:
            return False
        pai = pai.parentWidget()
    return True
