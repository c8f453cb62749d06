"""Line edits for the identifiers the law cares about: CNPJ (numeric or alphanumeric), CPF and plate.

Each one shows the usual punctuation while typing and hands the form the bare value (`valor()`), which is
what the services validate with `secretaria.lei.documentos` and store.
"""

from __future__ import annotations

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QFocusEvent, QMouseEvent, QRegularExpressionValidator
from PySide6.QtWidgets import QLineEdit, QWidget

from secretaria.lei.documentos import DocumentoInvalido, validar_cnpj, validar_cpf, validar_placa

_PONTUACAO = str.maketrans("", "", " .-/_")


class CampoMascarado(QLineEdit):
    """A QLineEdit with an input mask whose cursor starts at the beginning when the field is empty (a click
    in the middle of "___.___.___-__" would otherwise start typing there). `valor()` = the text without the
    mask's punctuation."""

    def __init__(self, mascara: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setInputMask(mascara)

    def valor(self) -> str:
        return self.text().translate(_PONTUACAO).upper()

    def vazio(self) -> bool:
        return not self.valor()

    def definir_valor(self, valor: str | None) -> None:
        self.setText((valor or "").translate(_PONTUACAO).upper())

    def mousePressEvent(self, evento: QMouseEvent) -> None:
        super().mousePressEvent(evento)
        if self.vazio():
            self.setCursorPosition(0)

    def focusInEvent(self, evento: QFocusEvent) -> None:
        super().focusInEvent(evento)
        if self.vazio():
            self.setCursorPosition(0)


class CampoCnpj(CampoMascarado):
    """CNPJ: "12.345.678/0001-95" or the alphanumeric form "12.ABC.345/01DE-35" (letters upper-cased).

    `valor()` → "12ABC34501DE35"; `conferir()` → None if valid, else the reason (from `lei.documentos`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(">nn.nnn.nnn/nnnn-00;_", parent)
        self.setPlaceholderText("00.000.000/0000-00")

    def conferir(self) -> str | None:
        try:
            validar_cnpj(self.valor())
        except DocumentoInvalido as exc:
            return str(exc)
        return None


class CampoCpf(CampoMascarado):
    """CPF: "111.444.777-35"; `valor()` → "11144477735"; `conferir()` → None or the reason."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("000.000.000-00;_", parent)

    def conferir(self) -> str | None:
        try:
            validar_cpf(self.valor())
        except DocumentoInvalido as exc:
            return str(exc)
        return None


class CampoPlaca(QLineEdit):
    """Plate, old ("ABC-1234") or Mercosul ("ABC1D23"): letters upper-cased as typed, only plate-shaped
    text accepted. `valor()` → "ABC1234"; `conferir()` → None or the reason."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        padrao = QRegularExpression(r"^[A-Za-z]{0,3}(-?[0-9]?[A-Za-z0-9]?[0-9]{0,2})?$")
        self.setValidator(QRegularExpressionValidator(padrao, self))
        self.setPlaceholderText("ABC-1234 ou ABC1D23")
        self.setMaxLength(8)
        self.textEdited.connect(self._maiusculas)

    def _maiusculas(self, texto: str) -> None:
        if texto != texto.upper():
            posicao = self.cursorPosition()
            self.setText(texto.upper())
            self.setCursorPosition(posicao)

    def valor(self) -> str:
        return self.text().translate(_PONTUACAO).upper()

    def definir_valor(self, valor: str | None) -> None:
        bruto = (valor or "").translate(_PONTUACAO).upper()
        self.setText(f"{bruto[:3]}-{bruto[3:]}" if len(bruto) == 7 and bruto[4].isdigit() else bruto)

    def conferir(self) -> str | None:
        try:
            validar_placa(self.valor())
        except DocumentoInvalido as exc:
            return str(exc)
        return None


__all__ = ["CampoCnpj", "CampoCpf", "CampoMascarado", "CampoPlaca"]
