"""UI tests run offscreen (no display needed); Qt must not be imported before this is set."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The offscreen platform plugin warns on every top-level window shown; it says nothing about our code.
_RUIDO_OFFSCREEN = r"This plugin does not support (propagateSizeHints|raise|grabWindow|grabbing the keyboard)"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    pasta = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(pasta):
            item.add_marker(pytest.mark.qt_log_ignore(_RUIDO_OFFSCREEN))


@pytest.fixture
def banco_sqlite(sqlite_modelo, tmp_path):  # type: ignore[no-untyped-def]
    """A fresh SQLite database only (for widget tests where the database kind does not matter)."""
    import shutil

    from secretaria.db import abrir_banco

    arquivo = tmp_path / "secretaria.sqlite"
    shutil.copyfile(sqlite_modelo, arquivo)
    banco = abrir_banco(f"sqlite:///{arquivo}")
    try:
        yield banco
    finally:
        banco.fechar()
