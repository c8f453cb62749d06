"""PySide6 6.12.0 leaks one reference to None per call of a void Qt method and aborts Python 3.11
after ~5,000 of them (none_dealloc). The project pins <6.12; this test fails on a build that leaks."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot


def test_chamadas_void_nao_consomem_referencias_de_none(qtbot: QtBot) -> None:
    rotulo = QLabel()
    qtbot.addWidget(rotulo)
    rotulo.setText("aquecimento")
    antes = sys.getrefcount(None)
    for i in range(20_000):
        rotulo.setText("x" if i % 2 else "y")
    depois = sys.getrefcount(None)
    # 6.11.3 leaves the count exactly unchanged; the slack only absorbs unrelated allocations.
    assert abs(depois - antes) <= 50, f"referências a None: {antes} → {depois}"
