"""The QApplication as every process of the program sets it up: the main program (`ui.app`) and the helper
processes (`ui.seletor_arquivo`, `ui.sem_console`) alike: Fusion style, Qt's pt_BR translations, the
Brazilian locale, the style sheet, F1.

Nothing heavy is imported here, and nothing of the program's windows: the helpers start fast.
"""

from __future__ import annotations

import sys


def _app() -> object:
    from PySide6.QtWidgets import QApplication

    existente = QApplication.instance()
    return existente if existente is not None else QApplication(sys.argv)


def configurar_aplicacao() -> object:
    """Create (or reuse) the QApplication and give it the program's look and language."""
    from PySide6.QtCore import QLocale
    from PySide6.QtWidgets import QApplication

    app = _app()
    assert isinstance(app, QApplication)
    app.setApplicationName("Secretaria")
    app.setOrganizationName("SMSU Pelotas")
    # No applicationDisplayName: Qt appends it to every window title on Linux and Windows, and ours already
    # begin with the program's name ("Secretaria — banco — … — Secretaria").
    QLocale.setDefault(QLocale(QLocale.Language.Portuguese, QLocale.Country.Brazil))
    if app.property("secretaria_configurada"):
        return app
    app.setStyle("Fusion")
    instalar_traducoes(app)
    from secretaria.ui.tecla_f1 import instalar_f1

    instalar_f1()  # F1 on every window, the login included (the manual itself loads at the first F1)
    app.setStyleSheet(ESTILO)
    app.setProperty("secretaria_configurada", True)
    return app


def instalar_traducoes(app: object) -> bool:
    """Load Qt's own pt_BR translations (qtbase_pt_BR.qm ships in the PySide6-Essentials wheel), so the
    standard buttons and dialogs read in Portuguese. Our dialogs also set their button texts themselves,
    so nothing shows in English even if the file were missing. Returns whether the file loaded."""
    from PySide6.QtCore import QLibraryInfo, QTranslator
    from PySide6.QtWidgets import QApplication

    assert isinstance(app, QApplication)
    pasta = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    tradutor = QTranslator(app)
    if not tradutor.load("qtbase_pt_BR", pasta):
        return False
    app.installTranslator(tradutor)
    return True


ESTILO = """
QListWidget#navegacao { font-size: 11pt; border: none; background: #eef1f5; padding-top: 8px; }
QListWidget#navegacao::item { padding: 7px 14px; }
QListWidget#navegacao::item:selected { background: #2f5d8a; color: white; }
QStatusBar QLabel { padding: 0 8px; color: #333; }
QTableView { gridline-color: #d8dde3; }
QHeaderView::section { padding: 4px 6px; }
"""
