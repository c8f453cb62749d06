"""Auto numbers in documents: four digits at least (0001/2026), five once a year passes 9,999 autos."""

from __future__ import annotations

import pytest

from tests.helpers.amostras_documentos import auto, intimacao


@pytest.mark.parametrize("numero", ["0001/2026", "9999/2026", "10000/2026", "123456/2031"])
def test_numero_aceito(numero: str) -> None:
    assert auto(numero=numero).numero == numero
    assert intimacao(numero_auto=numero).numero_auto == numero


@pytest.mark.parametrize("numero", ["1/2026", "001/2026", "0001/26", "0001-2026", "0001/2026 ", "abcd/2026"])
def test_numero_recusado(numero: str) -> None:
    with pytest.raises(ValueError, match="Número de auto inválido"):
        auto(numero=numero)
