"""Every editing dialog: each label's Alt+letter puts the focus in that label's own field (a date field
included: Alt+D on "Demissão" used to do nothing, and "3011" typed next replaced the employee's name), and no
two controls of one dialog share a letter."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QLineEdit, QTabWidget, QWidget
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.caso import obter_caso
from secretaria.ui.widgets.datas import CampoData
from tests.helpers import apoio_processo as ap
from tests.ui.test_teclado import alt_repetidos

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")

Fabrica = Callable[[Any, Any], QDialog]


def _letra(texto: str) -> str | None:
    achado = re.search(r"&([^&\s])", texto.replace("&&", ""))
    return achado.group(1).lower() if achado else None


def _dentro(widget: QWidget | None, alvo: QWidget) -> bool:
    while widget is not None:
        if widget is alvo:
            return True
        widget = widget.parentWidget()
    return False


def _rotulos_com_letra(janela: QWidget) -> list[tuple[QLabel, str]]:
    return [
        (r, letra)
        for r in janela.findChildren(QLabel)
        if r.buddy() is not None
        and r.isVisibleTo(janela)
        and r.buddy().isEnabled()  # a field the law does not allow here ("Suspensão" in tipo 1) is off
        and (letra := _letra(r.text())) is not None
    ]


def verificar_mnemonicos(qtbot: QtBot, janela: QWidget) -> int:
    """Press each visible label's Alt+letter from another field, as a user would, and check the focus lands
    in that label's field (for a date field: its editor, where the typed digits go). Returns how many."""
    assert alt_repetidos(janela) == {}
    rotulos = _rotulos_com_letra(janela)
    editores = [
        e
        for e in janela.findChildren(QWidget)
        if e.focusPolicy() & Qt.FocusPolicy.TabFocus
        and e.focusProxy() is None
        and e.isEnabled()
        and e.isVisibleTo(janela)
    ]
    for rotulo, letra in rotulos:
        campo = rotulo.buddy()
        partida = next(e for e in editores if not _dentro(e, campo))
        partida.setFocus(Qt.FocusReason.OtherFocusReason)
        qtbot.waitUntil(lambda p=partida: QApplication.focusWidget() is p, timeout=1000)  # type: ignore[misc]
        qtbot.keyClick(partida, getattr(Qt.Key, f"Key_{letra.upper()}"), Qt.KeyboardModifier.AltModifier)
        foco = QApplication.focusWidget()
        assert foco is not partida and _dentro(foco, campo), (rotulo.text(), type(foco).__name__)
        assert foco is not None and foco.focusPolicy() != Qt.FocusPolicy.NoFocus
    return len(rotulos)


def _percorrer(qtbot: QtBot, dialogo: QDialog) -> int:
    qtbot.addWidget(ap.manter(dialogo))
    with qtbot.waitActive(dialogo):
        dialogo.show()
    abas: list[QTabWidget | None] = list(dialogo.findChildren(QTabWidget))
    total = 0
    for aba in abas or [None]:
        for i in range(aba.count() if aba is not None else 1):
            if aba is not None:
                aba.setCurrentIndex(i)
            total += verificar_mnemonicos(qtbot, dialogo)
    return total


def _cadastros(contexto: Any, cidade: Any) -> list[QDialog]:
    from secretaria.ui.cadastros.empregados import DialogoEmpregado
    from secretaria.ui.cadastros.fiscais import DialogoFiscal
    from secretaria.ui.cadastros.operadoras import DialogoLinha, DialogoOperadora
    from secretaria.ui.cadastros.veiculos import DialogoVeiculo

    return [
        DialogoOperadora(contexto),
        DialogoOperadora(contexto, cidade.operadora_id),
        DialogoLinha(contexto),
        DialogoVeiculo(contexto),
        DialogoVeiculo(contexto, cidade.veiculo_id),
        DialogoEmpregado(contexto),
        DialogoEmpregado(contexto, cidade.empregado_id),
        DialogoFiscal(contexto),
        DialogoFiscal(contexto, cidade.fiscal_id),
    ]


def _processo(contexto: Any, cidade: Any) -> list[QDialog]:
    from secretaria.ui.processo.cassacao import DialogoInstaurarCassacao
    from secretaria.ui.processo.form_auto import DialogoAuto
    from secretaria.ui.processo.form_representacao import DialogoRepresentacao

    return [
        DialogoAuto(contexto),
        DialogoRepresentacao(contexto),
        DialogoInstaurarCassacao(contexto, cidade.operadora_id, "Operadora"),
    ]


def _administracao(contexto: Any, _cidade: Any) -> list[QDialog]:
    from secretaria.ui.admin.catalogo import DialogoDispositivoContratual, DialogoTipo1X
    from secretaria.ui.admin.tabelas import DialogoDiaNaoUtil, DialogoValorUrm
    from secretaria.ui.admin.usuarios import DialogoNovaSenha, DialogoUsuario

    return [
        DialogoUsuario(contexto),
        DialogoNovaSenha(contexto, contexto.ator.usuario_id, "usuario"),
        DialogoValorUrm(contexto),
        DialogoDiaNaoUtil(contexto),
        DialogoTipo1X(contexto),
        DialogoDispositivoContratual(contexto),
    ]


TODOS = "administrador", "fiscal", "protocolo", "autoridade", "secretario"


@pytest.mark.parametrize(
    "grupo", [_cadastros, _processo, _administracao], ids=["cadastros", "processo", "admin"]
)
def test_alt_de_cada_rotulo_leva_ao_seu_campo(
    qtbot: QtBot, banco: Banco, roteiro: Any, grupo: Callable[[Any, Any], list[QDialog]]
) -> None:
    contexto = ap.contexto(banco, *TODOS)
    for dialogo in grupo(contexto, roteiro.cidade):
        assert _percorrer(qtbot, dialogo) >= 1, type(dialogo).__name__
        dialogo.reject()


def test_alt_de_cada_rotulo_nos_atos_do_caso(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    from secretaria.ui.processo import atos

    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
    contexto = ap.contexto(banco, *TODOS)
    classes = [
        atos.DialogoIntimacao,
        atos.DialogoDefesa,
        atos.DialogoProposta,
        atos.DialogoDecisao,
        atos.DialogoRecurso,
        atos.DialogoJulgamento,
        atos.DialogoSuspensao,
        atos.DialogoPagamento,
        atos.DialogoCumprimento,
        atos.DialogoCancelar,
        atos.DialogoRetificacao,
    ]
    vistos = 0
    for classe in classes:
        dialogo = classe(contexto, caso)
        vistos += _percorrer(qtbot, dialogo)
        dialogo.reject()
    assert vistos >= len(classes)


def test_alt_d_na_demissao_e_os_digitos_vao_para_a_data(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    from secretaria.ui.cadastros.empregados import DialogoEmpregado

    dialogo = ap.manter(DialogoEmpregado(ap.contexto(banco, "administrador"), roteiro.cidade.empregado_id))
    qtbot.addWidget(dialogo)
    with qtbot.waitActive(dialogo):
        dialogo.show()
    nome = dialogo.nome.text()
    dialogo.nome.setFocus()
    qtbot.keyClick(dialogo.nome, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    foco = QApplication.focusWidget()
    assert isinstance(foco, QLineEdit)
    qtbot.keyClicks(foco, "30112026")
    assert dialogo.nome.text() == nome
    assert isinstance(dialogo.demissao, CampoData)
    assert dialogo.demissao.data() == date(2026, 11, 30)


def test_alt_nos_dialogos_de_senha_e_de_importacao(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    from secretaria.ui.importacao import DialogoImportacao
    from secretaria.ui.login import DialogoMinhaSenha

    contexto = ap.contexto(banco, *TODOS)
    for dialogo in (
        DialogoMinhaSenha(banco, contexto.ator),
        DialogoImportacao(contexto, "veiculos"),
    ):
        assert _percorrer(qtbot, dialogo) >= 2, type(dialogo).__name__
        dialogo.reject()


@pytest.mark.parametrize("chave", ["painel"])
def test_alt_nas_datas_dos_filtros_das_paginas(qtbot: QtBot, banco: Banco, roteiro: Any, chave: str) -> None:
    """The Painel's period (De/Até: date fields, containers) takes the focus from its Alt letters, as a
    form's fields do (the lists' period filters have no letters of their own)."""
    from secretaria.ui.janela_principal import JanelaPrincipal
    from secretaria.ui.widgets.datas import CampoData

    janela = ap.manter(JanelaPrincipal(ap.contexto(banco, *TODOS)))
    qtbot.addWidget(janela)
    with qtbot.waitActive(janela):
        janela.show()
    pagina = janela.mostrar_pagina(chave)
    assert pagina is not None
    datas = [c for c in pagina.findChildren(CampoData) if c.isVisibleTo(pagina)]
    com_letra = [r for r, _ in _rotulos_com_letra(pagina) if any(_dentro(r.buddy(), d) for d in datas)]
    assert len(com_letra) >= 2  # De and Até
    assert verificar_mnemonicos(qtbot, pagina) >= len(com_letra)
