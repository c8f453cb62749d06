"""ReportLab's C accelerator is installed and used, and writes the numbers of a PDF as its Python code does."""

from __future__ import annotations

import importlib.util
import random
from types import ModuleType

import pytest
import reportlab
from reportlab.lib import rl_accel


def _com_as_versoes_em_python() -> ModuleType:
    """A fresh copy of ReportLab's accelerator module with its Python fallbacks defined too (its own testing
    switch), not registered in sys.modules: the program's copy stays as it is."""
    spec = importlib.util.find_spec("reportlab.lib.rl_accel")
    assert spec is not None and spec.loader is not None
    modulo = importlib.util.module_from_spec(spec)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reportlab, "_rl_testing", True, raising=False)
        spec.loader.exec_module(modulo)
    return modulo


def test_reportlab_usa_o_acelerador_em_c() -> None:
    # Without `rl-accel` ReportLab falls back, silently, to Python: the largest ficha took a sixth longer.
    for nome in ("fp_str", "instanceStringWidthTTF", "escapePDF"):
        assert nome in rl_accel._c_funcs, f"{nome} sem o acelerador em C (pacote rl-accel)"


def test_acelerador_escreve_os_numeros_como_o_python() -> None:
    sorteio = random.Random(2413)
    numeros = [0, 1, -1, 0.5, 1e-7, 123456.789, -0.0001, 841.8898, 595.2756]
    numeros += [sorteio.uniform(-2000, 2000) for _ in range(2000)]
    numeros += [round(sorteio.uniform(0, 900), sorteio.randint(0, 6)) for _ in range(2000)]
    em_c, em_python = rl_accel.fp_str, _com_as_versoes_em_python()._py_fp_str
    for n in numeros:
        assert em_c(n) == em_python(n), n
    assert em_c(*numeros[:6]) == em_python(*numeros[:6])
