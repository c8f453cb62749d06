"""Message boxes shown with `open()` and a `finished` callback, never a blocking `exec()` (qutebrowser's
way): the event loop keeps running, so a test can find the box (`caixa_aberta()`) and click its buttons."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from secretaria.ui.widgets.letras import dar_letras

TEXTOS = {
    QMessageBox.StandardButton.Ok: "OK",
    QMessageBox.StandardButton.Cancel: "Cancelar",
    QMessageBox.StandardButton.Yes: "Sim",
    QMessageBox.StandardButton.No: "Não",
    QMessageBox.StandardButton.Close: "Fechar",
    QMessageBox.StandardButton.Save: "Salvar",
    QMessageBox.StandardButton.Discard: "Descartar",
}

_abertas: list[QMessageBox] = []
"""The boxes open now. A parentless box needs a Python reference while it is shown (its wrapper would
otherwise be collected and the box deleted under the user); each leaves the list when it closes."""


def caixa_mensagem(
    parent: QWidget | None,
    titulo: str,
    texto: str,
    *,
    icone: QMessageBox.Icon = QMessageBox.Icon.Information,
    botoes: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
    padrao: QMessageBox.StandardButton | None = None,
    ao_terminar: Callable[[int], None] | None = None,
    detalhes: str | None = None,
) -> QMessageBox:
    """Open a window-modal message box and return it at once; `ao_terminar(botao)` runs when it closes
    with the StandardButton value that closed it. Buttons read in Portuguese whatever Qt's translation."""
    caixa = QMessageBox(parent)
    caixa.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    caixa.setWindowTitle(titulo)
    caixa.setTextFormat(Qt.TextFormat.PlainText)
    caixa.setText(texto)
    caixa.setIcon(icone)
    caixa.setStandardButtons(botoes)
    if detalhes:
        caixa.setDetailedText(detalhes)
    for botao, rotulo in TEXTOS.items():
        b = caixa.button(botao)
        if b is not None:
            b.setText(rotulo)
    dar_letras(caixa, caixa.buttons())
    if padrao is not None:
        caixa.setDefaultButton(padrao)
    if ao_terminar is not None:
        caixa.finished.connect(ao_terminar)
    caixa.finished.connect(lambda _r: _soltar(caixa))
    caixa.destroyed.connect(lambda _o=None: _soltar(caixa))
    caixa.open()
    _abertas.append(caixa)
    return caixa


def _soltar(caixa: QMessageBox) -> None:
    """Forget a box that closed (or was deleted with its parent): the registry holds open boxes only."""
    _abertas[:] = [c for c in _abertas if c is not caixa]


def informar(
    parent: QWidget | None, titulo: str, texto: str, ao_fechar: Callable[[], None] | None = None
) -> QMessageBox:
    return caixa_mensagem(parent, titulo, texto, ao_terminar=(lambda _r: ao_fechar()) if ao_fechar else None)


def avisar_erro(parent: QWidget | None, titulo: str, texto: str, detalhes: str | None = None) -> QMessageBox:
    return caixa_mensagem(parent, titulo, texto, icone=QMessageBox.Icon.Warning, detalhes=detalhes)


def confirmar(
    parent: QWidget | None,
    titulo: str,
    texto: str,
    ao_confirmar: Callable[[], None],
    *,
    texto_sim: str = "Sim",
    texto_nao: str = "Não",
    ao_recusar: Callable[[], None] | None = None,
) -> QMessageBox:
    """Ask before anything irreversible. "Não" is the default button, so a stray Enter does nothing."""

    def terminou(resultado: int) -> None:
        if resultado == QMessageBox.StandardButton.Yes.value:
            ao_confirmar()
        elif ao_recusar is not None:
            ao_recusar()

    caixa = caixa_mensagem(
        parent,
        titulo,
        texto,
        icone=QMessageBox.Icon.Question,
        botoes=QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        padrao=QMessageBox.StandardButton.No,
        ao_terminar=terminou,
    )
    caixa.button(QMessageBox.StandardButton.Yes).setText(texto_sim)
    caixa.button(QMessageBox.StandardButton.No).setText(texto_nao)
    dar_letras(caixa, caixa.buttons())  # "Importar", "Lavrar auto", "Agora não": each its Alt letter
    return caixa


def fechar_todas() -> None:
    """Close every box the program has open (as if answered with Escape): a session the administrator
    ended leaves nothing of it on the screen."""
    for caixa in list(_abertas):
        caixa.reject()


_antes_de_procurar: list[Callable[[], object]] = []


def antes_de_procurar_caixa(funcao: Callable[[], object]) -> None:
    """Run `funcao` whenever `caixa_aberta` is about to look for the open box. `tarefas` puts its wait for
    the background tasks here (it shows its refusals with this module, so this module cannot import it)."""
    _antes_de_procurar.append(funcao)


def caixa_aberta(*, aguardar: bool = True) -> QMessageBox | None:
    """The message box open now, if any (the newest one): what a test answers. Unless `aguardar=False`,
    background tasks are first let finish (`tarefas.aguardar_tarefas`): the box their end opens is there."""
    if aguardar:
        for funcao in _antes_de_procurar:
            funcao()
    caixas = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
    return caixas[-1] if caixas else None


def responder(botao: QMessageBox.StandardButton) -> str:
    """Click `botao` on the open message box and return the box's text (for tests)."""
    caixa = caixa_aberta()
    if caixa is None:
        raise AssertionError("Nenhuma caixa de mensagem aberta.")
    texto = caixa.text()
    caixa.button(botao).click()
    return texto
