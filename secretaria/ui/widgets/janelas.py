"""Window sizes that fit the screen the program runs on (office PCs often have 1366×768 screens)."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget

MARGEM_LARGURA = 0.96
MARGEM_ALTURA = 0.92
"""Room left for the taskbar and the window's title bar."""


def tela_da_janela(janela: QWidget) -> QScreen | None:
    """The screen `janela` is on (the primary one before it is shown).

    Asked of the application, not of the window: PySide keeps the screen that `QWidget.screen()` returned
    among the window's own references, and a window freed by the cyclic collector after Qt had deleted it
    then freed that screen too, deleting the real QScreen (the next window built crashed in
    `QScreen::virtualSiblings`)."""
    centro = janela.mapToGlobal(janela.rect().center())
    return QGuiApplication.screenAt(centro) or QGuiApplication.primaryScreen()


def tamanho_na_tela(janela: QWidget, largura: int, altura: int) -> None:
    """Resize `janela` to `largura` × `altura`, or smaller where the screen is smaller, so that its buttons
    (at the bottom) are never below the edge of the screen."""
    tela = tela_da_janela(janela)
    if tela is not None:
        area = tela.availableGeometry()
        largura = min(largura, int(area.width() * MARGEM_LARGURA))
        altura = min(altura, int(area.height() * MARGEM_ALTURA))
    janela.resize(largura, altura)


def crescer_para_caber(janela: QWidget) -> None:
    """Grow a shown window to the height its layout needs at its current width.

    A top-level layout's minimum size ignores the height word-wrapped labels need (a message line that
    wraps under a field appears after the window was sized), which squashed the rows around it; call this
    after showing such a line."""
    layout = janela.layout()
    altura = layout.totalHeightForWidth(janela.width()) if layout is not None else -1
    if altura > janela.height():
        janela.resize(janela.width(), altura)
