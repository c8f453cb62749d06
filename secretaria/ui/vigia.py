"""The live refresh's Qt side: turns `services.mudancas.Vigia` into a signal on the GUI thread.

On PostgreSQL a `QSocketNotifier` watches the listening connection's socket (a notification wakes the loop
at once; nothing is polled); on SQLite a timer asks `PRAGMA data_version` every half second. Bursts are
coalesced: `mudou` is emitted at most once per `INTERVALO_MINIMO_MS`, with everything that arrived
meanwhile. The window's own acts (this Banco's) are left out: the screen that did them already refreshed.

    vigia = VigiaMudancas(banco, parent=janela)
    vigia.mudou.connect(lambda mudancas: ...)   # frozenset[Mudanca]
"""

from __future__ import annotations

import contextlib
import logging
import time

from PySide6.QtCore import QObject, QSocketNotifier, Qt, QTimer, Signal

from secretaria.db import Banco
from secretaria.services.mudancas import Mudanca, Vigia

_log = logging.getLogger(__name__)

INTERVALO_SQLITE_MS = 500
"""How often SQLite's data_version is asked (one cheap pragma; the audit is read only when it moved)."""
INTERVALO_PG_MS = 2000
"""How often the PostgreSQL listener is checked without a wake-up (a dropped connection, a reconnect)."""
INTERVALO_MINIMO_MS = 300
"""At most one `mudou` per this many milliseconds: a burst of acts refreshes the screen once."""


class VigiaMudancas(QObject):
    """Emits `mudou(frozenset[Mudanca])` when other users' acts were committed. `fechar()` stops it (also
    done when the Banco closes)."""

    mudou = Signal(object)
    _reconectou = Signal()  # emitted by the watcher's reconnecting thread, received on the GUI thread

    def __init__(self, banco: Banco, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.banco = banco
        self.vigia = Vigia(banco)
        self._pendentes: set[Mudanca] = set()
        self._ultima_emissao = -1e9
        self._notificador: QSocketNotifier | None = None
        self._descritor: int | None = None
        self._reconexoes = 0
        self._emitir = QTimer(self)
        self._emitir.setSingleShot(True)
        self._emitir.timeout.connect(self._emitir_pendentes)
        self._relogio = QTimer(self)
        self._relogio.setInterval(INTERVALO_SQLITE_MS if self.vigia.eh_sqlite else INTERVALO_PG_MS)
        self._relogio.timeout.connect(self.verificar)
        self._relogio.start()
        self._vigiar_socket()
        # Whoever closes the watcher's connection (the Banco closing, a pause, a drop): Qt lets go of its
        # socket first, so it never polls a closed descriptor.
        self.vigia.antes_de_soltar = self._soltar_socket
        # A PostgreSQL reconnection is made off the GUI thread; once it is ready, take it over at once.
        self._reconectou.connect(self.verificar, Qt.ConnectionType.QueuedConnection)
        self.vigia.ao_reconectar = self._reconectou.emit

    def verificar(self) -> None:
        """Read what changed (non-blocking) and schedule `mudou` for other users' acts."""
        try:
            mudancas = self.vigia.ler()
        finally:
            # The socket may have been replaced (a reconnect) or closed: never leave Qt watching a stale one.
            self._vigiar_socket()
        outras = {m for m in mudancas if not m.proprio}
        if not outras:
            return
        self._pendentes |= outras
        if not self._emitir.isActive():
            passados = (time.monotonic() - self._ultima_emissao) * 1000
            self._emitir.start(max(0, int(INTERVALO_MINIMO_MS - passados)))

    def fechar(self) -> None:
        self._relogio.stop()
        self._emitir.stop()
        self._soltar_socket()
        self.vigia.antes_de_soltar = None
        self.vigia.ao_reconectar = None
        self.vigia.fechar()

    # -- inside -----------------------------------------------------------------------------------
    def _emitir_pendentes(self) -> None:
        pendentes, self._pendentes = frozenset(self._pendentes), set()
        self._ultima_emissao = time.monotonic()
        if pendentes:
            self.mudou.emit(pendentes)

    def _vigiar_socket(self) -> None:
        descritor = self.vigia.descritor()
        if descritor == self._descritor and self.vigia.reconexoes == self._reconexoes:
            return
        self._soltar_socket()
        self._descritor = descritor
        self._reconexoes = self.vigia.reconexoes
        if descritor is not None:
            self._notificador = QSocketNotifier(descritor, QSocketNotifier.Type.Read, self)
            self._notificador.activated.connect(self.verificar)

    def _soltar_socket(self) -> None:
        with contextlib.suppress(RuntimeError):  # the notifier's C++ side already went with the window
            self._soltar()

    def _soltar(self) -> None:
        if self._notificador is not None:
            self._notificador.setEnabled(False)
            self._notificador.deleteLater()
            self._notificador = None
        self._descritor = None


def vigiar(banco: Banco, parent: QObject | None = None) -> VigiaMudancas | None:
    """A watcher for `banco`, or None when it cannot start (the window then simply refreshes on F5 and on
    changing pages, as before): never keeps the program from opening."""
    try:
        return VigiaMudancas(banco, parent)
    except Exception:
        _log.warning("Atualização automática indisponível para %s", banco.url_exibicao, exc_info=True)
        return None


__all__ = ["INTERVALO_MINIMO_MS", "VigiaMudancas", "vigiar"]
