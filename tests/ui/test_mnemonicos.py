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
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QTabWidget,
    QWidget,
)
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.caso import obter_caso
from secretaria.ui.widgets.datas import CampoData
from tests.helpers import apoio_processo as ap
from tests.helpers import fabrica
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


def botoes_sem_letra(janela: QWidget) -> list[str]:
    """The visible push buttons, check boxes and radio buttons of `janela` whose text has no Alt letter (a
    button drawn only with a symbol, like a date field's "▾", has no word to take one from)."""
    return [
        f"{type(janela).__name__}: {b.text()!r}"
        for b in janela.findChildren(QAbstractButton)
        if isinstance(b, (QPushButton, QCheckBox, QRadioButton))
        and b.isVisibleTo(janela)
        and any(c.isalpha() for c in b.text())
        and _letra(b.text()) is None
    ]


_PONTUACAO_DOBRADA = re.compile(r"(?<![.])\.\.(?![.])|\.:|:\.|::|:\s*:")


def pontuacao_dobrada(janela: QWidget) -> list[str]:
    """The visible texts of `janela` (labels, buttons, group boxes, tabs, table headers, placeholders, the
    title) with a doubled stop: "Obs..", "Observação.:", "Situação::" — a label built by adding ":" or "."
    to a text that already had it. An ellipsis ("…", "...") is not one."""
    from PySide6.QtWidgets import QGroupBox, QHeaderView, QTabBar

    textos = [janela.windowTitle()]
    for w in janela.findChildren(QWidget):
        if not w.isVisibleTo(janela):
            continue
        if isinstance(w, (QLabel, QAbstractButton)):
            textos.append(w.text())
        elif isinstance(w, QGroupBox):
            textos.append(w.title())
        elif isinstance(w, QTabBar):
            textos += [w.tabText(i) for i in range(w.count())]
        elif isinstance(w, QLineEdit):
            textos.append(w.placeholderText())
        elif isinstance(w, QHeaderView) and w.model() is not None:
            textos += [str(w.model().headerData(i, w.orientation()) or "") for i in range(w.count())]
    return [
        f"{type(janela).__name__}: {t!r}"
        for t in textos
        if _PONTUACAO_DOBRADA.search(re.sub(r"<[^>]+>", "", t.replace("&&", "&").replace("&", "")))
    ]


def _conferir_botoes(qtbot: QtBot, janela: QWidget) -> list[str]:
    """Show `janela` and every tab of it; the buttons without a letter and the letters used twice."""
    qtbot.addWidget(ap.manter(janela))
    janela.show()
    qtbot.waitExposed(janela)
    faltas: list[str] = []
    abas: list[QTabWidget | None] = list(janela.findChildren(QTabWidget))
    for aba in abas or [None]:
        for i in range(aba.count() if aba is not None else 1):
            if aba is not None:
                aba.setCurrentIndex(i)
            faltas += botoes_sem_letra(janela)
            faltas += pontuacao_dobrada(janela)
            faltas += [f"{type(janela).__name__}: {t}" for t in alt_repetidos(janela).values()]
    return faltas


def test_cada_botao_de_cada_dialogo_tem_letra_propria(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    """Every dialog the program builds: each push button, check box and radio button has an Alt letter,
    and no two controls of one dialog share it."""
    from secretaria.services.execucao import PedidoInstauracao, instaurar_cassacao
    from secretaria.services.representacoes import receber_representacao
    from secretaria.ui.importacao import DialogoImportacao
    from secretaria.ui.login import DialogoLogin, DialogoMinhaSenha, DialogoPrimeiroAcesso
    from secretaria.ui.processo import atos
    from secretaria.ui.processo.cassacao import DialogoAtoCassacao, DialogoDecidirCassacao
    from secretaria.ui.processo.form_representacao import DialogoArquivarRepresentacao, TelaRepresentacao
    from secretaria.ui.processo.tela_caso import TelaCaso

    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    with banco.leitura() as s:
        caso = obter_caso(s, r.id)
    contexto = ap.contexto(banco, *TODOS)
    cidade = roteiro.cidade
    representacao = receber_representacao(
        banco.uow(), fabrica.ATORES["fiscal"], recebida_em=date(2026, 11, 20), peticionario_nome="Maria",
        peticionario_profissao="professora", peticionario_endereco="Rua A, 1", peticionario_contato="",
        fatos="O ônibus não parou.", meios_prova="Foto.", operadora_id=cidade.operadora_id,
        dispositivo_codigo="2-III", data_fato=date(2026, 11, 18), local_fato="Av. B, 2",
    )  # fmt: skip
    cassacao = instaurar_cassacao(
        banco.uow(), fabrica.ATORES["autoridade"], PedidoInstauracao(operadora_id=cidade.operadora2_id, data=date(2026, 11, 2),
        motivo="Frota irregular."),
    )  # fmt: skip
    janelas: list[QWidget] = [
        *_cadastros(contexto, cidade),
        *_processo(contexto, cidade),
        *_administracao(contexto, cidade),
        *(
            classe(contexto, caso)
            for classe in (
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
            )
        ),
        DialogoLogin(banco, demo=False),
        DialogoMinhaSenha(banco, contexto.ator),
        DialogoPrimeiroAcesso(banco),
        *(DialogoImportacao(contexto, tipo) for tipo in ("veiculos",)),
        TelaCaso(contexto, r.id),
        TelaRepresentacao(contexto, representacao.id),
        DialogoArquivarRepresentacao(contexto, representacao.id, representacao.numero_formatado, None),
        DialogoAtoCassacao(contexto, cassacao),
        DialogoDecidirCassacao(contexto, cassacao),
    ]
    faltas: list[str] = []
    for janela in janelas:
        faltas += _conferir_botoes(qtbot, janela)
        janela.close()
    assert faltas == [], "\n".join(sorted(set(faltas)))


def _pares_de_confirmacao() -> set[tuple[str, str]]:
    """Every (texto_sim, texto_nao) the program passes to `mensagens.confirmar`, read from its source, so a
    confirmation added later is walked too."""
    from pathlib import Path

    import secretaria.ui

    pares: set[tuple[str, str]] = set()
    padrao = re.compile(r'texto_sim="([^"]+)",\s*texto_nao="([^"]+)"')
    for arquivo in Path(secretaria.ui.__file__).parent.rglob("*.py"):
        pares |= set(padrao.findall(arquivo.read_text(encoding="utf-8")))
    return pares


def test_cada_botao_das_caixas_de_mensagem_tem_letra_propria(qtbot: QtBot) -> None:
    """Message boxes: Importar/Cancelar, Salvar…/Agora não, Lavrar auto/Voltar ao formulário and every other
    confirmation, and the standard buttons, each with its own Alt letter."""
    from PySide6.QtWidgets import QMessageBox

    from secretaria.ui.widgets import mensagens

    pares = _pares_de_confirmacao()
    assert {
        ("Importar", "Cancelar"),
        ("Salvar…", "Agora não"),
        ("Lavrar auto", "Voltar ao formulário"),
    } <= pares
    caixas = [
        mensagens.confirmar(None, "Título", "Texto", lambda: None, texto_sim=sim, texto_nao=nao)
        for sim, nao in sorted(pares)
    ]
    todos = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No | QMessageBox.StandardButton.Cancel
    caixas.append(mensagens.caixa_mensagem(None, "Título", "Texto", botoes=todos))
    caixas.append(mensagens.informar(None, "Título", "Texto"))
    faltas: list[str] = []
    for caixa in caixas:
        textos = [b.text() for b in caixa.buttons()]
        letras = [_letra(t) for t in textos]
        if None in letras or len(set(letras)) != len(letras):
            faltas.append(" / ".join(textos))
        caixa.reject()
    assert faltas == [], faltas


def test_botoes_dos_dialogos_de_revisao_e_do_certificado(
    qtbot: QtBot, banco: Banco, roteiro: Any, tmp_path: Any
) -> None:
    """The dialogs the walk above cannot build from its one decided case: the revision of a sanction (a
    case whose counted prior was annulled), the check of a revised deadline and the certificate's password."""
    from secretaria.ui.certificado import DialogoSenhaCertificado
    from secretaria.ui.processo import atos

    roteiro.hoje = date(2026, 11, 30)
    anterior = int(roteiro.decidido(data_infracao=date(2026, 9, 3), multa="0.50", dispositivo="1-V").id)
    auto_id = int(roteiro.decidido(data_infracao=date(2026, 10, 20), multa="2.00", dispositivo="1-V").id)
    roteiro.recorrer(anterior, date(2026, 10, 1))
    roteiro.julgar(anterior, date(2026, 11, 30), "provido")
    with banco.leitura() as s:
        caso = obter_caso(s, auto_id)
    assert caso.revisoes_sancao
    contexto = ap.contexto(banco, *TODOS)
    faltas: list[str] = []
    for janela in (
        atos.DialogoRevisaoSancao(contexto, caso),
        atos.DialogoConferirRevisao(contexto, caso),
        DialogoSenhaCertificado(tmp_path / "certificado.pfx"),
    ):
        faltas += _conferir_botoes(qtbot, janela)
        janela.close()
    assert faltas == [], "\n".join(sorted(set(faltas)))


CAMINHADOS = {
    # test_cada_botao_de_cada_dialogo_tem_letra_propria
    "DialogoOperadora", "DialogoLinha", "DialogoVeiculo", "DialogoEmpregado", "DialogoFiscal", "DialogoAuto",
    "DialogoRepresentacao", "DialogoInstaurarCassacao", "DialogoUsuario", "DialogoNovaSenha", "DialogoValorUrm",
    "DialogoDiaNaoUtil", "DialogoTipo1X", "DialogoDispositivoContratual", "DialogoIntimacao", "DialogoDefesa",
    "DialogoProposta", "DialogoDecisao", "DialogoRecurso", "DialogoJulgamento", "DialogoSuspensao",
    "DialogoPagamento", "DialogoCumprimento", "DialogoCancelar", "DialogoRetificacao", "DialogoLogin",
    "DialogoMinhaSenha", "DialogoPrimeiroAcesso", "DialogoImportacao", "TelaCaso", "TelaRepresentacao",
    "DialogoArquivarRepresentacao", "DialogoAtoCassacao", "DialogoDecidirCassacao",
    # test_botoes_dos_dialogos_de_revisao_e_do_certificado
    "DialogoRevisaoSancao", "DialogoConferirRevisao", "DialogoSenhaCertificado",
}  # fmt: skip
"""Every dialog class the walks above build; the bases they share are never shown on their own."""
BASES = {"DialogoFormulario", "DialogoRegistro", "DialogoAto", "DialogoSimples", "DialogoCadastro"}


def test_nenhum_dialogo_fica_fora_da_caminhada() -> None:
    """A dialog added later joins the walk of Alt letters, or this fails naming it."""
    import importlib
    import inspect
    import pkgutil

    import secretaria.ui

    classes: set[str] = set()
    for modulo in pkgutil.walk_packages(secretaria.ui.__path__, "secretaria.ui."):
        m = importlib.import_module(modulo.name)
        classes |= {
            nome
            for nome, c in inspect.getmembers(m, inspect.isclass)
            if issubclass(c, QDialog) and c.__module__ == m.__name__ and not nome.startswith("_")
        }
    assert classes - BASES - CAMINHADOS == set()
    assert classes >= CAMINHADOS  # no name left over from a dialog since renamed


def test_guarda_da_pontuacao_dobrada(qtbot: QtBot) -> None:
    """The guard above finds a label built with a second stop, and leaves an ellipsis alone."""
    janela = QWidget()
    qtbot.addWidget(janela)
    for texto in ("Obs..", "&Situação::", "Observação.:", "Carregando...", "Salvar…", "Av. Brasil, 10"):
        QLabel(texto, janela)
    assert pontuacao_dobrada(janela) == [
        "QWidget: 'Obs..'",
        "QWidget: '&Situação::'",
        "QWidget: 'Observação.:'",
    ]


def test_paginas_da_janela_principal_sem_pontuacao_dobrada(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    """Every page of the main window (lists, home, painel, reports, administration): no label, button,
    header or placeholder with a doubled stop."""
    from secretaria.ui.janela_principal import PAGINAS, JanelaPrincipal

    roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    janela = ap.manter(JanelaPrincipal(ap.contexto(banco, *TODOS)))
    qtbot.addWidget(janela)
    janela.resize(1366, 768)
    with qtbot.waitActive(janela):
        janela.show()
    faltas: list[str] = []
    for definicao in PAGINAS:
        pagina = janela.mostrar_pagina(definicao.chave)
        assert pagina is not None, definicao.chave
        abas: list[QTabWidget | None] = list(pagina.findChildren(QTabWidget))
        for aba in abas or [None]:
            for i in range(aba.count() if aba is not None else 1):
                if aba is not None:
                    aba.setCurrentIndex(i)
                faltas += [f"{definicao.chave}: {f}" for f in pontuacao_dobrada(pagina)]
    assert faltas == [], "\n".join(sorted(set(faltas)))
