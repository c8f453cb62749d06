"""How the program starts its helper processes (the Painel's chart drawers, the file dialog).

A helper is a module of the package run as a program of its own. From a checkout or an installed package
that is `python -m MODULE`, with the same Python. In a frozen program (PyInstaller) `sys.executable` is the
program itself, which has no `-m`: it is started as `secretaria --auxiliar MODULE …`, and `cli.main` runs
that module's `main()` before anything else (only the modules of `MODULOS`; it imports each by name, so
PyInstaller collects them).

Imports nothing of the project: the command line reads `MODULOS` before loading anything heavy.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

OPCAO = "--auxiliar"
"""The frozen program's first argument when it is to run as a helper."""

DESENHISTA = "secretaria.reports.desenhista"
SELETOR_ARQUIVO = "secretaria.ui.seletor_arquivo"

MODULOS = frozenset({DESENHISTA, SELETOR_ARQUIVO})
"""The only modules a program started with `--auxiliar` runs: nothing else on its command line is imported."""


def congelado() -> bool:
    """Whether this is a frozen program (PyInstaller sets `sys.frozen`)."""
    return bool(getattr(sys, "frozen", False))


def comando(modulo: str, *argumentos: str) -> list[str]:
    """The command line that runs `modulo` (one of `MODULOS`) as a helper with `argumentos`."""
    if modulo not in MODULOS:
        raise ValueError(f"{modulo} não é um processo auxiliar do programa")
    if congelado():
        return [sys.executable, OPCAO, modulo, *argumentos]
    return [sys.executable, "-m", modulo, *argumentos]


def ambiente() -> dict[str, str]:
    """The helper's environment: this one, with this program's own package folder first on PYTHONPATH so the
    helper runs the same code whether the program is installed or run from its source tree. No empty entry
    is left (it would mean the current folder). A frozen program carries its code inside: nothing changes."""
    variaveis = dict(os.environ)
    if congelado():
        return variaveis
    raiz = str(Path(__file__).resolve().parent.parent)
    anteriores = [p for p in variaveis.get("PYTHONPATH", "").split(os.pathsep) if p and p != raiz]
    variaveis["PYTHONPATH"] = os.pathsep.join([raiz, *anteriores])
    return variaveis
