"""A stand-in for the frozen (PyInstaller) program, for the tests of `secretaria.auxiliares`.

A frozen program is one executable whose command line is `secretaria.cli.main`'s and that has no `-m`. This
writes such an executable script (Linux: a shebang line naming this Python) that runs `main()` with its
arguments from this checkout; a test sets `sys.executable` to it and `sys.frozen` to True, and the program's
helpers are then started exactly as a frozen build starts them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import secretaria

RAIZ = Path(secretaria.__file__).resolve().parent.parent


def escrever_programa(pasta: Path) -> Path:
    """The executable: no `-m` understood, only the program's own command line."""
    programa = pasta / "secretaria-congelado"
    programa.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        f"sys.path.insert(0, {str(RAIZ)!r})\n"
        "from secretaria.cli import main\n"
        "sys.exit(main())\n",
        encoding="utf-8",
    )
    programa.chmod(0o755)
    return programa


def congelar(monkeypatch: pytest.MonkeyPatch, pasta: Path) -> Path:
    """From here to the test's end this process believes it is the frozen program written in `pasta`."""
    programa = escrever_programa(pasta)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(programa))
    return programa
