"""Saves and acts from the window's dialogs, without ever waiting on a busy database on the GUI thread.

    gravar(dialogo, lambda: servico(uow, ator, ...), titulo="Salvar operadora",
           ao_concluir=quando_gravado, ao_recusar=form.mostrar_erro)

The act first runs on the GUI thread, its transactions waiting at most `ESPERA_NA_JANELA` for the
database's locks: the common case (nobody else writing) is as synchronous as a plain call, so a dialog
closes at once and a test that clicks Salvar can read the database on the next line. Only when the
database turns out busy (another program holds SQLite's write lock, another PC a PostgreSQL row lock) and
nothing of the act was written yet does the same act run again off the GUI thread, behind a window-modal
"Aguardando o banco de dados…" with Cancelar (`tarefas.em_segundo_plano`: waits in short slices, then
"Tentar de novo"/"Desistir"). Either way its result reaches `ao_concluir`, and its refusal `ao_recusar`,
on the GUI thread, as a synchronous save's would.

While the act runs in the background it still reads the dialog's fields (the acts read them as they call
the service): the wait dialog is window-modal, so nothing can change them meanwhile, and the GUI thread
only paints them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from PySide6.QtWidgets import QWidget

from secretaria import db
from secretaria.db import BancoOcupado, ao_esperar_banco, ato_da_janela
from secretaria.services.base import Cancelado, ErroDominio
from secretaria.ui.widgets.tarefas import Progresso, Tarefa, em_segundo_plano

T = TypeVar("T")

ESPERA_NA_JANELA = 0.1
"""Seconds an act on the GUI thread may wait for a lock before it goes to the background: the window's
goal is no freeze over 100 ms, and another writer's usual transaction (a few milliseconds) still ends
within it, so the common case stays synchronous and the wait dialog shows only for a real wait."""

TEXTO_AGUARDANDO = "Aguardando o banco de dados, ocupado por outro programa…"
_PAUSA = 0.1
DESISTIU = "Você desistiu de esperar pelo banco de dados; nada foi gravado. Salve de novo quando quiser."


@dataclass
class _Recusa:
    """A refusal of the background run, handed back as a value so that it keeps its field (`campo`)."""

    erro: ErroDominio


def gravar(
    parent: QWidget,
    acao: Callable[[], T],
    *,
    titulo: str,
    ao_concluir: Callable[[T], None],
    ao_recusar: Callable[[ErroDominio], None],
) -> Tarefa | None:
    """Run `acao` (one act: its services' own units of work inside) and hand its result to `ao_concluir`
    or its refusal to `ao_recusar`; the background task when the database was busy, else None (done)."""
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
            return None
        return em_espera(parent, acao, titulo=titulo, ao_concluir=ao_concluir, ao_recusar=ao_recusar)
    if recusa is not None:
        ao_recusar(recusa)
        return None
    ao_concluir(resultado)
    return None


def em_espera(
    parent: QWidget,
    acao: Callable[[], T],
    *,
    titulo: str,
    ao_concluir: Callable[[T], None],
    ao_recusar: Callable[[ErroDominio], None],
) -> Tarefa | None:
    """`acao` off the GUI thread behind the wait dialog (its transactions wait for the lock in short
    slices, saying so, and Cancelar stops them with nothing written)."""

    def trabalho(progresso: Progresso) -> object:
        progresso(0, 0, TEXTO_AGUARDANDO)
        inicio = time.monotonic()
        while True:
            # A lock still held when a PostgreSQL statement's lock_timeout (a second, in a task) runs out:
            # the act, which wrote nothing, runs again until ESPERA_COM_AVISO; SQLite waits in its BEGIN.
            with ato_da_janela() as ato:
                try:
                    return acao()
                except (BancoOcupado, Cancelado) as erro:
                    esperado = time.monotonic() - inicio
                    if (
                        isinstance(erro, Cancelado)
                        or ato.gravadas
                        or not erro.repetir
                        or esperado >= db.ESPERA_COM_AVISO
                    ):
                        raise  # the task's own handling: "Tentar de novo"/"Desistir", or cancelled
                except ErroDominio as erro:
                    return _Recusa(erro)
            aviso = ao_esperar_banco.get()
            if aviso is not None:
                aviso(esperado)  # raises Cancelado when the user gave up
            time.sleep(_PAUSA)

    def entregar(resultado: Any) -> None:
        if isinstance(resultado, _Recusa):
            ao_recusar(resultado.erro)
        else:
            ao_concluir(resultado)

    return em_segundo_plano(
        parent,
        trabalho,
        titulo=titulo,
        texto=TEXTO_AGUARDANDO,
        ao_concluir=entregar,
        ao_falhar=lambda mensagem: ao_recusar(ErroDominio(mensagem)),
        ao_cancelar=lambda _mensagem: ao_recusar(ErroDominio(DESISTIU)),
        modal=True,
    )
