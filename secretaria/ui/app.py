"""GUI entry point (the full window arrives with the desktop-program work)."""

from __future__ import annotations

import sys

from secretaria.db import Banco


def executar(banco: Banco, *, demo: bool) -> int:
    from PySide6.QtWidgets import QApplication, QLabel

    app = QApplication.instance() or QApplication(sys.argv)
    titulo = f"Secretaria — {banco.nome_curto}" + (" (DEMONSTRAÇÃO)" if demo else "")
    rotulo = QLabel(f"Banco de dados: {banco.url_exibicao}")
    rotulo.setWindowTitle(titulo)
    rotulo.resize(600, 120)
    rotulo.show()
    return int(app.exec())
