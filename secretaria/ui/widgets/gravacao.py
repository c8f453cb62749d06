"""Saves and acts from the window's dialogs, without ever waiting on a busy database on the GUI thread.

    gravar(dialogo, lambda: servico(uow, ator, ...), titulo="Salvar operadora",
           ao_concluir=quando_gravado, ao_recusar=form.mostrar_erro)

The act runs on the GUI thread, its transactions waiting at most `ESPERA_NA_JANELA` for the database's
locks: the common case (nobody else writing) is as synchronous as a plain call, so a dialog closes at once
and a test that clicks Salvar can read the database on the next line. When the database turns out busy
(another program holds SQLite's write lock, another PC a PostgreSQL row lock) and nothing of the act was
written yet, the window says "Aguardando o banco de dados…" (window-modal, with Cancelar) and tries the act
again every `INTERVALO` from its event loop, each try waiting at most `ESPERA_POR_TENTATIVA`: the window
keeps running between tries, and after `db.ESPERA_COM_AVISO` the user is offered "Tentar de novo" or
"Desistir". Either way the result reaches `ao_concluir`, and a refusal `ao_recusar`, as a synchronous
save's would.

The tries stay on the GUI thread on purpose: an act reads its dialog's fields as it calls the service, and
Qt's widgets belong to the GUI thread; a background thread reading them would race with their painting.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from secretaria import db
from secretaria.db import BancoOcupado
from secretaria.services.base import ErroDominio
from secretaria.ui.widgets.espera_banco import ato_da_janela
from secretaria.ui.widgets.tarefas import dialogo_progresso, pendencias

T = TypeVar("T")

ESPERA_NA_JANELA = 0.1
"""Seconds an act on the GUI thread may wait for a lock before the window starts waiting visibly: the
window's goal is no freeze over 100 ms, and another writer's usual transaction (a few milliseconds) still
ends within it, so the common case stays synchronous and the wait dialog shows only for a real wait."""
ESPERA_POR_TENTATIVA = 0.05
"""Seconds each later try may wait for the lock: the window is frozen for that long at most per try."""
INTERVALO = 0.25
"""Seconds between tries while the database stays busy (the window runs freely in between)."""

TEXTO_AGUARDANDO = "Aguardando o banco de dados, ocupado por outro programa…"
DESISTIU = "Você desistiu de esperar pelo banco de dados; nada foi gravado. Salve de novo quando quiser."


def gravar(
    parent: QWidget,
    acao: Callable[[], T],
    *,
    titulo: str,
    ao_concluir: Callable[[T], None],
    ao_recusar: Callable[[ErroDominio], None],
) -> None:
    """Run `acao` (one act: its services' own units of work inside) and hand its result to `ao_concluir`
    or its refusal to `ao_recusar`, at once or, when the database was busy, once the wait is over."""
    ocupado: BancoOcupado | None = None
    recusa: ErroDominio | None = None
    with ato_da_janela(ESPERA_NA_JANELA) as ato:
        try:
            resultado = acao()
        except BancoOcupado as erro:
            ocupado = erro
        except ErroDominio as erro:
            recusa = erro
    if ocupado is not None:
        if ato.gravadas:  # part of the act is already written: running it again would repeat that part
            ao_recusar(ocupado)
        else:
            em_espera(parent, acao, titulo=titulo, ao_concluir=ao_concluir, ao_recusar=ao_recusar)
    elif recusa is not None:
        ao_recusar(recusa)
    else:
        ao_concluir(resultado)


class _Espera:
    """One act waiting for a busy database: the wait dialog, the timer of its tries, and how it ends."""

    def __init__(
        self,
        parent: QWidget,
        acao: Callable[[], Any],
        titulo: str,
        ao_concluir: Callable[[Any], None],
        ao_recusar: Callable[[ErroDominio], None],
    ) -> None:
        self.parent, self.acao, self.titulo = parent, acao, titulo
        self.ao_concluir, self.ao_recusar = ao_concluir, ao_recusar
        self.inicio = time.monotonic()
        self.dialogo = dialogo_progresso(parent, titulo, TEXTO_AGUARDANDO, cancelavel=True, modal=True)
        self.dialogo.canceled.connect(self._desistiu)
        self.relogio = QTimer(self.dialogo)
        self.relogio.setInterval(int(INTERVALO * 1000))
        self.relogio.timeout.connect(self._tentar)
        pendencias.add(self)
        self.dialogo.show()
        self.relogio.start()

    def _encerrar(self) -> None:
        self.relogio.stop()
        with contextlib.suppress(RuntimeError):  # the dialog went with its window; else it goes with it
            self.dialogo.canceled.disconnect(self._desistiu)
            self.dialogo.close()
        pendencias.discard(self)

    def _desistiu(self) -> None:
        self._encerrar()
        self.ao_recusar(ErroDominio(DESISTIU))

    def _tentar(self) -> None:
        with ato_da_janela(ESPERA_POR_TENTATIVA) as ato:
            try:
                resultado = self.acao()
            except BancoOcupado as erro:
                if ato.gravadas:  # part of the act is written: trying it again would repeat that part
                    self._encerrar()
                    self.ao_recusar(erro)
                    return
                self._ainda_ocupado()
                return
            except ErroDominio as erro:
                self._encerrar()
                self.ao_recusar(erro)
                return
        self._encerrar()
        self.ao_concluir(resultado)

    def _ainda_ocupado(self) -> None:
        esperado = time.monotonic() - self.inicio
        if esperado < db.ESPERA_COM_AVISO:
            if esperado >= 1:
                self.dialogo.setLabelText(f"{TEXTO_AGUARDANDO} ({esperado:.0f} s)")
            return
        self._encerrar()
        from secretaria.ui.widgets import mensagens

        mensagens.confirmar(
            self.parent,
            self.titulo,
            db.MENSAGEM_OCUPADO,
            lambda: em_espera(
                self.parent,
                self.acao,
                titulo=self.titulo,
                ao_concluir=self.ao_concluir,
                ao_recusar=self.ao_recusar,
            ),
            texto_sim="Tentar de novo",
            texto_nao="Desistir",
            ao_recusar=lambda: self.ao_recusar(ErroDominio(db.MENSAGEM_OCUPADO)),
        )


def em_espera(
    parent: QWidget,
    acao: Callable[[], T],
    *,
    titulo: str,
    ao_concluir: Callable[[T], None],
    ao_recusar: Callable[[ErroDominio], None],
) -> None:
    """Wait for the busy database behind the wait dialog, trying `acao` again from the event loop."""
    _Espera(parent, acao, titulo, ao_concluir, ao_recusar)
