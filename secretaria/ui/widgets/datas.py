"""A date field typed as dd/mm/aaaa, with a calendar popup and a real empty state."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate, QPoint, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCalendarWidget,
    QHBoxLayout,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from secretaria.lei.formato import formatar_data
from secretaria.services.base import ErroDominio
from secretaria.services.rotulos import com_preposicao, data_inexistente
from secretaria.ui.widgets.documentos import CampoMascarado

_MASCARA = "00/00/0000;_"
_VAZIO = "__/__/____"


def ler_data(texto: str) -> date | None:
    """ "05/12/2026" → date(2026, 12, 5); "" or "__/__/____" → None; anything else → ValueError."""
    limpo = texto.replace("_", "").strip()
    if limpo in ("", "//"):
        return None
    partes = limpo.split("/")
    if len(partes) != 3 or not all(p.strip().isdigit() for p in partes):
        raise ValueError(texto)
    dia, mes, ano = (int(p) for p in partes)
    if ano < 1900:
        raise ValueError(texto)
    return date(ano, mes, dia)


class CampoData(QWidget):
    """Date field for forms: type "05122026" (the mask adds the slashes) or pick in the calendar (Alt+↓ or
    the ▾ button). Empty is a real state: `data()` returns None.

        campo = CampoData()                 # empty
        campo.definir_data(date(2026, 12, 5))
        campo.data()                        # date(2026, 12, 5); ValueError if the text is not a date
        campo.data_ou_erro("data", "a data do auto")   # ErroDominio(campo="data") if invalid, for forms

    `dataAlterada` is emitted (with the date or None) whenever the text becomes a valid date or empty.
    """

    dataAlterada = Signal(object)

    def __init__(self, parent: QWidget | None = None, *, obrigatoria: bool = False) -> None:
        super().__init__(parent)
        self._obrigatoria = obrigatoria
        self.editor = CampoMascarado(_MASCARA, self)
        self.editor.setPlaceholderText("dd/mm/aaaa")
        self.editor.setAccessibleName("Data (dd/mm/aaaa)")
        largura = self.editor.fontMetrics().horizontalAdvance("00/00/00000") + 24
        self.editor.setMinimumWidth(largura)
        self.editor.setMaximumWidth(largura)
        self.botao = QToolButton(self)
        self.botao.setText("▾")
        self.botao.setToolTip("Escolher no calendário (Alt+↓)")
        self.botao.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.botao.clicked.connect(self.abrir_calendario)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.editor)
        layout.addWidget(self.botao)
        layout.addStretch(1)
        self.setFocusProxy(self.editor)
        self.editor.textChanged.connect(self._texto_mudou)
        atalho = QShortcut(QKeySequence("Alt+Down"), self.editor)
        atalho.setContext(Qt.ShortcutContext.WidgetShortcut)
        atalho.activated.connect(self.abrir_calendario)
        self._popup: QWidget | None = None
        self._calendario: QCalendarWidget | None = None
        self._ultima: date | bool | None = False

    def data(self) -> date | None:
        return ler_data(self.editor.text())

    def valida(self) -> bool:
        try:
            valor = self.data()
        except ValueError:
            return False
        return valor is not None or not self._obrigatoria

    def data_ou_erro(self, campo: str, rotulo: str = "a data") -> date | None:
        """The date, or an `ErroDominio` for the form helper to show beside this field."""
        try:
            valor = self.data()
        except ValueError:
            inexistente = data_inexistente(self.editor.text())
            if inexistente is not None:  # the form is right: the day is what does not exist
                raise ErroDominio(
                    f"Data inválida {com_preposicao('em', rotulo)}: {inexistente}", campo
                ) from None
            raise ErroDominio(
                f"Data inválida {com_preposicao('em', rotulo)}: use dd/mm/aaaa (por exemplo, 05/12/2026).",
                campo,
            ) from None
        if valor is None and self._obrigatoria:
            raise ErroDominio(f"Informe {rotulo}.", campo)
        return valor

    def definir_data(self, valor: date | None) -> None:
        self.editor.setText(formatar_data(valor).replace("/", "") if valor else "")

    def limpar(self) -> None:
        self.editor.clear()

    def texto(self) -> str:
        """What the user sees ("05/12/2026", or "" when empty)."""
        return "" if self.editor.text() in (_VAZIO, "//") else self.editor.text()

    def abrir_calendario(self) -> None:
        calendario = self._criar_popup()
        try:
            atual = self.data()
        except ValueError:
            atual = None
        inicial = atual or _hoje()
        calendario.setSelectedDate(QDate(inicial.year, inicial.month, inicial.day))
        assert self._popup is not None
        self._popup.adjustSize()
        self._popup.move(self.mapToGlobal(QPoint(0, self.height())))
        self._popup.show()
        calendario.setFocus()

    @property
    def calendario(self) -> QCalendarWidget | None:
        """The calendar popup while it is open (tests pick a day in it)."""
        if self._popup is None or not self._popup.isVisible():
            return None
        return self._calendario

    def _criar_popup(self) -> QCalendarWidget:
        # Built once and kept (hidden between uses): deleting the popup from inside its calendar's own
        # `clicked` signal crashes PySide6.
        if self._popup is not None and self._calendario is not None:
            return self._calendario
        popup = QWidget(self, Qt.WindowType.Popup)
        calendario = QCalendarWidget(popup)
        calendario.setGridVisible(True)
        calendario.setVerticalHeaderFormat(QCalendarWidget.VerticalHeaderFormat.NoVerticalHeader)
        calendario.setFirstDayOfWeek(Qt.DayOfWeek.Sunday)
        calendario.clicked.connect(self._escolhido)
        calendario.activated.connect(self._escolhido)
        layout = QVBoxLayout(popup)
        layout.setContentsMargins(1, 1, 1, 1)
        layout.addWidget(calendario)
        self._popup, self._calendario = popup, calendario
        return calendario

    def _escolhido(self, qdata: QDate) -> None:
        self.definir_data(date(qdata.year(), qdata.month(), qdata.day()))
        if self._popup is not None:
            self._popup.hide()
        self.editor.setFocus()

    def _texto_mudou(self, _texto: str) -> None:
        try:
            valor = self.data()
        except ValueError:
            return
        if valor != self._ultima:
            self._ultima = valor
            self.dataAlterada.emit(valor)


def _hoje() -> date:
    from secretaria import relogio

    return relogio.hoje()
