"""Money and URM: a right-aligned display label and a decimal entry field in pt-BR form (1.234,56)."""

from __future__ import annotations

import contextlib
from decimal import Decimal, InvalidOperation

from PySide6.QtCore import QRegularExpression, Qt, Signal
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import QLabel, QLineEdit, QWidget

from secretaria.lei.formato import formatar_decimal, formatar_reais
from secretaria.services.base import ErroDominio


def texto_reais(valor: Decimal | None) -> str:
    """ "R$ 1.234,56" (or "—" when there is no value)."""
    return "—" if valor is None else formatar_reais(valor)


def texto_urm(valor: Decimal | None, casas: int = 2) -> str:
    """ "12,50 URM" (or "—")."""
    return "—" if valor is None else f"{formatar_decimal(valor, casas)} URM"


def ler_decimal(texto: str) -> Decimal | None:
    """ "1.234,56" → Decimal("1234.56"); "" → None; anything else → ValueError."""
    limpo = texto.strip().replace("R$", "").replace("URM", "").strip()
    if not limpo:
        return None
    limpo = limpo.replace(".", "").replace(",", ".")
    try:
        valor = Decimal(limpo)
    except InvalidOperation:
        raise ValueError(texto) from None
    if not valor.is_finite():
        raise ValueError(texto)
    return valor


class RotuloValor(QLabel):
    """A read-only fine in a form or panel, right-aligned: URM and R$ ("12,50 URM = R$ 2.059,25"), or the URM
    alone when the R$ is not known.

    rotulo = RotuloValor()
    rotulo.definir_urm_e_reais(Decimal("1"), Decimal("164.74"))  # "1,00 URM = R$ 164,74"
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("—", parent)
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def definir_urm_e_reais(self, urm: Decimal | None, reais: Decimal | None) -> None:
        if urm is None:
            self.setText("—")
        else:
            self.setText(f"{texto_urm(urm)} = {texto_reais(reais)}" if reais is not None else texto_urm(urm))


class CampoDecimal(QLineEdit):
    """A decimal entry in pt-BR form ("1.234,56" or "1234,56"), right-aligned, with an optional suffix
    shown beside it by the form ("URM", "R$"). `valor()` → Decimal | None (ValueError when unreadable);
    `valor_ou_erro(campo, rotulo)` → ErroDominio for the form helper. `valorAlterado` carries the Decimal
    or None each time the text reads as a number or becomes empty."""

    valorAlterado = Signal(object)

    def __init__(self, parent: QWidget | None = None, *, casas: int = 2, obrigatorio: bool = False) -> None:
        super().__init__(parent)
        self._casas = casas
        self._obrigatorio = obrigatorio
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        padrao = QRegularExpression(r"^\s*\d{0,3}(\.?\d{3})*(,\d{0,%s})?\s*$".replace("%s", str(casas)))
        self.setValidator(QRegularExpressionValidator(padrao, self))
        self.setPlaceholderText("0," + "0" * casas)
        self.textChanged.connect(self._mudou)

    def valor(self) -> Decimal | None:
        return ler_decimal(self.text())

    def valor_ou_erro(self, campo: str, rotulo: str = "o valor") -> Decimal | None:
        try:
            valor = self.valor()
        except ValueError:
            raise ErroDominio(f"Valor inválido em {rotulo}: use o formato 1.234,56.", campo) from None
        if valor is None and self._obrigatorio:
            raise ErroDominio(f"Informe {rotulo}.", campo)
        return valor

    def definir_valor(self, valor: Decimal | None) -> None:
        self.setText("" if valor is None else formatar_decimal(valor, self._casas))

    def _mudou(self, _texto: str) -> None:
        with contextlib.suppress(ValueError):
            self.valorAlterado.emit(self.valor())
