"""The shared widgets: what a clerk types and what the form reads back."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QApplication, QDialog, QLineEdit, QMessageBox, QVBoxLayout
from pytestqt.qtbot import QtBot

from secretaria.services.base import ErroDominio
from secretaria.ui.widgets import (
    CampoCnpj,
    CampoCpf,
    CampoData,
    CampoDecimal,
    CampoPlaca,
    Formulario,
    RotuloValor,
    botoes_salvar_cancelar,
    ler_data,
    mensagens,
)


def test_campo_data_digitado_vazio_e_invalido(qtbot: QtBot) -> None:
    campo = CampoData()
    qtbot.addWidget(campo)
    assert campo.data() is None and campo.texto() == ""
    with qtbot.waitSignal(campo.dataAlterada) as sinal:
        qtbot.keyClicks(campo.editor, "05122026")
    assert sinal.args == [date(2026, 12, 5)]
    assert campo.texto() == "05/12/2026"
    campo.limpar()
    qtbot.keyClicks(campo.editor, "31022026")
    with pytest.raises(ErroDominio) as erro:
        campo.data_ou_erro("data", "a data do auto")
    # Written as dd/mm/aaaa already: the message says the day does not exist, not how to write a date.
    assert erro.value.campo == "data" and "fevereiro de 2026 tem 28 dias" in erro.value.mensagem
    campo.limpar()
    qtbot.keyClicks(campo.editor, "0512")
    with pytest.raises(ErroDominio) as erro:
        campo.data_ou_erro("data", "a data do auto")
    assert "dd/mm/aaaa" in erro.value.mensagem
    obrigatoria = CampoData(obrigatoria=True)
    qtbot.addWidget(obrigatoria)
    with pytest.raises(ErroDominio, match="Informe a data"):
        obrigatoria.data_ou_erro("data", "a data")
    assert ler_data("__/__/____") is None


def test_campo_data_pelo_calendario(qtbot: QtBot) -> None:
    campo = CampoData()
    qtbot.addWidget(campo)
    campo.show()
    campo.definir_data(date(2026, 3, 10))
    campo.abrir_calendario()
    calendario = campo.calendario
    assert calendario is not None and calendario.selectedDate() == QDate(2026, 3, 10)
    calendario.clicked.emit(QDate(2026, 3, 17))
    assert campo.data() == date(2026, 3, 17)


def test_documentos_com_mascara(qtbot: QtBot) -> None:
    cnpj, cpf, placa = CampoCnpj(), CampoCpf(), CampoPlaca()
    for w in (cnpj, cpf, placa):
        qtbot.addWidget(w)
    qtbot.keyClicks(cnpj, "12abc34501de35")
    assert cnpj.text() == "12.ABC.345/01DE-35" and cnpj.valor() == "12ABC34501DE35"
    assert cnpj.conferir() is None
    qtbot.keyClicks(cpf, "11144477734")
    assert cpf.text() == "111.444.777-34"
    assert "verificador" in (cpf.conferir() or "")
    qtbot.keyClicks(placa, "abc1d23")
    assert placa.text() == "ABC1D23" and placa.conferir() is None
    placa.definir_valor("ABC1234")
    assert placa.text() == "ABC-1234" and placa.valor() == "ABC1234"


def test_valores_em_reais_e_urm(qtbot: QtBot) -> None:
    rotulo = RotuloValor()
    qtbot.addWidget(rotulo)
    rotulo.definir_urm_e_reais(Decimal("12.5"), Decimal("2059.25"))
    assert rotulo.text() == "12,50 URM = R$ 2.059,25"
    campo = CampoDecimal(casas=4)
    qtbot.addWidget(campo)
    qtbot.keyClicks(campo, "1.234,5678")
    assert campo.valor() == Decimal("1234.5678")
    campo.clear()
    qtbot.keyClicks(campo, "12a")  # the validator refuses the letter
    assert campo.text() == "12"


def test_formulario_mostra_o_erro_ao_lado_do_campo_e_foca(qtbot: QtBot) -> None:
    dialogo = QDialog()
    qtbot.addWidget(dialogo)
    layout = QVBoxLayout(dialogo)
    form = Formulario(layout)
    nome, cnpj = QLineEdit(), CampoCnpj()
    form.adicionar("nome", "Nome:", nome)
    form.adicionar("cnpj", "CNPJ:", cnpj)
    botoes = botoes_salvar_cancelar(dialogo)
    layout.addWidget(botoes)
    with qtbot.waitActive(dialogo):
        dialogo.show()

    def recusar() -> int:
        raise ErroDominio("O dígito verificador do CNPJ não confere.", "cnpj")

    assert form.tentar(recusar) is None
    assert form.mensagem("cnpj") == "O dígito verificador do CNPJ não confere."
    assert form.mensagem("nome") == ""
    assert cnpj.hasFocus()
    assert form.tentar(lambda: 7) == 7
    assert form.mensagem("cnpj") == ""

    def sem_campo() -> None:
        raise ErroDominio("Falta a URM do dia.", None)

    form.tentar(sem_campo)
    assert form.mensagem("") == "Falta a URM do dia."
    assert [b.text() for b in botoes.buttons()] == ["Salvar", "Cancelar"]
    with qtbot.waitSignal(dialogo.rejected):
        qtbot.keyClick(nome, Qt.Key.Key_Escape)


def test_confirmar_so_age_no_sim(qtbot: QtBot) -> None:
    feitos: list[str] = []
    caixa = mensagens.confirmar(None, "Excluir", "Excluir o feriado?", lambda: feitos.append("sim"))
    assert caixa.defaultButton() is caixa.button(QMessageBox.StandardButton.No)
    assert caixa.button(QMessageBox.StandardButton.Yes).text() == "&Sim"
    assert mensagens.responder(QMessageBox.StandardButton.No) == "Excluir o feriado?"
    assert feitos == []
    mensagens.confirmar(None, "Excluir", "Excluir o feriado?", lambda: feitos.append("sim"))
    mensagens.responder(QMessageBox.StandardButton.Yes)
    assert feitos == ["sim"]


def test_caixas_fechadas_saem_do_registro(qtbot: QtBot) -> None:
    """The registry of open boxes holds open boxes only: a session that showed many messages does not
    keep every one of them alive."""
    from PySide6.QtWidgets import QWidget

    while mensagens.caixa_aberta() is not None:
        mensagens.responder(QMessageBox.StandardButton.Ok)
    qtbot.waitUntil(lambda: not mensagens._abertas)
    respostas: list[int] = []
    for i in range(25):
        mensagens.informar(None, "Aviso", f"Mensagem {i}", ao_fechar=partial(respostas.append, i))
        assert len(mensagens._abertas) == 1
        assert mensagens.responder(QMessageBox.StandardButton.Ok) == f"Mensagem {i}"
    assert respostas == list(range(25))
    assert mensagens._abertas == []

    janela = QWidget()
    for i in range(3):
        mensagens.avisar_erro(janela, "Erro", f"Erro {i}")
    assert len(mensagens._abertas) == 3
    janela.deleteLater()  # the boxes go with their window, never answered
    qtbot.waitUntil(lambda: not mensagens._abertas)
    assert mensagens.caixa_aberta() is None


def test_dialogo_de_arquivo_em_portugues(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QFileDialog

    from secretaria.ui.widgets.arquivos import dialogo_arquivo

    dialogo = dialogo_arquivo(
        None,
        "Salvar planilha",
        "mensal.xlsx",
        "Planilhas do Excel (*.xlsx)",
        QFileDialog.FileMode.AnyFile,
        True,
    )
    qtbot.addWidget(dialogo)
    rotulos = {r: dialogo.labelText(r) for r in QFileDialog.DialogLabel}
    assert rotulos == {
        QFileDialog.DialogLabel.LookIn: "Examinar:",
        QFileDialog.DialogLabel.FileName: "Nome do arquivo:",
        QFileDialog.DialogLabel.FileType: "Tipo de arquivo:",
        QFileDialog.DialogLabel.Accept: "Salvar",
        QFileDialog.DialogLabel.Reject: "Cancelar",
    }


def test_janela_nunca_maior_que_a_tela(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QWidget

    from secretaria.ui.widgets.janelas import tamanho_na_tela

    janela = QWidget()
    qtbot.addWidget(janela)
    area = janela.screen().availableGeometry()
    tamanho_na_tela(janela, 5000, 5000)  # on a small office screen the buttons at the bottom stay visible
    assert janela.width() <= area.width() and janela.height() <= area.height()
    tamanho_na_tela(janela, 300, 200)
    assert (janela.width(), janela.height()) == (300, 200)


@pytest.fixture
def qt_como_no_programa(qapp: QApplication) -> Iterator[None]:
    """Qt's own texts in Portuguese and the program's style sheet, as `aplicacao.configurar_aplicacao` sets them
    (the file-dialog process too), for one test."""
    from PySide6.QtCore import QLibraryInfo, QTranslator

    from secretaria.ui.aplicacao import ESTILO

    tradutor = QTranslator()
    if not tradutor.load("qtbase_pt_BR", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        pytest.skip("qtbase_pt_BR.qm não encontrado")
    qapp.installTranslator(tradutor)
    estilo = qapp.styleSheet()
    qapp.setStyleSheet(ESTILO)
    yield
    qapp.setStyleSheet(estilo)
    qapp.removeTranslator(tradutor)


@pytest.mark.usefixtures("qt_como_no_programa")
def test_dialogo_de_arquivo_do_qt_com_cabecalhos_inteiros(qtbot: QtBot, tmp_path: Path) -> None:
    """Qt's own file dialog (the child process's): big enough, and once the folder is listed, every detail
    column as wide as its header ("Tamanho", "Data de modificação", not "Tamanhc", "Data de modifica")."""
    from PySide6.QtWidgets import QFileDialog, QFileSystemModel, QTreeView

    from secretaria.ui import seletor_arquivo

    (tmp_path / "Relatório mensal de autos de infração.xlsx").write_bytes(b"x")
    dialogo = seletor_arquivo.dialogo_arquivo(
        None, "Abrir planilha", str(tmp_path), "Planilhas (*.xlsx)", QFileDialog.FileMode.ExistingFile
    )
    qtbot.addWidget(dialogo)
    dialogo.setViewMode(QFileDialog.ViewMode.Detail)
    modelo = dialogo.findChild(QFileSystemModel)
    assert modelo is not None
    with qtbot.waitSignal(modelo.directoryLoaded, timeout=10_000):
        dialogo.show()
    vista = next(v for v in dialogo.findChildren(QTreeView) if v.isVisible())
    cabecalho = vista.header()
    titulos = [str(modelo.headerData(i, Qt.Orientation.Horizontal)) for i in range(cabecalho.count())]

    def inteiros() -> bool:  # what the header's style needs for the title, its margins and sort arrow
        return all(
            cabecalho.sectionSize(i) >= cabecalho.sectionSizeFromContents(i).width()
            for i in range(1, cabecalho.count())
        )

    assert "Tamanho" in titulos
    qtbot.waitUntil(inteiros)
    assert dialogo.width() >= min(seletor_arquivo.LARGURA, dialogo.screen().availableGeometry().width() - 40)
    dialogo.reject()
