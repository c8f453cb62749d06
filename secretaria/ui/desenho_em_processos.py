"""The Painel's charts drawn in two helper processes instead of a thread of the window's process.

matplotlib builds a chart in pure Python and holds the GIL while it does: drawn in a thread, the seven charts
still froze the window for 60–170 ms at a time (its event loop waiting for the GIL) and were drawn one after
another on one core. In processes of their own (`secretaria.reports.desenhista`, started with the same
Python) the window keeps the GIL to itself and both cores draw at once. They start when the Painel first
draws and live until the program ends (their input closes); the window's process never imports matplotlib.

Plain subprocesses, not `multiprocessing`: its "spawn" runs the program's main module again in each child,
and a main module without the `if __name__ == "__main__"` idiom opened a second window there.

If a helper cannot be started or dies, its charts are drawn in the calling thread: slower, never missing.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import queue
import subprocess
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

from secretaria import auxiliares
from secretaria.reports import desenhista, graficos

_log = logging.getLogger(__name__)

PROCESSOS = 2
"""Two helpers: this office's PCs (and CI) have two cores; the window needs little CPU meanwhile."""

Pedido = tuple[int, graficos.Grafico, int, int, float]
"""(the card's index, the chart, width and height in pixels, dpi)."""


class _Ajudante:
    """One helper process, used by one thread at a time."""

    def __init__(self) -> None:
        self.processo = subprocess.Popen(
            auxiliares.comando(auxiliares.DESENHISTA),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=auxiliares.ambiente(),
        )
        self.trava = threading.Lock()

    def desenhar(self, argumentos: tuple[Any, ...]) -> graficos.Imagem:
        entrada: IO[bytes] | None = self.processo.stdin
        saida: IO[bytes] | None = self.processo.stdout
        assert entrada is not None and saida is not None
        with self.trava:
            desenhista.escrever_mensagem(entrada, argumentos)
            resposta = desenhista.ler_mensagem(saida)
        if resposta is None:
            raise BrokenPipeError("o processo de desenho terminou")
        if isinstance(resposta, Exception):
            raise resposta
        assert isinstance(resposta, graficos.Imagem)
        return resposta

    def encerrar(self) -> None:
        if self.processo.stdin is not None:
            with contextlib.suppress(OSError):
                self.processo.stdin.close()  # its loop ends; it exits on its own
        try:
            self.processo.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.processo.kill()
            self.processo.wait()
        if self.processo.stdout is not None:
            self.processo.stdout.close()


_trava = threading.Lock()
_ajudantes: list[_Ajudante] = []
_indisponivel = False


def ajudantes() -> list[_Ajudante]:
    """The helpers (started on first use), or none where processes cannot be started."""
    global _indisponivel
    with _trava:
        if not _ajudantes and not _indisponivel:
            try:
                _ajudantes.extend(_Ajudante() for _ in range(max(1, min(PROCESSOS, os.cpu_count() or 1))))
            except OSError:
                _log.warning(
                    "Processos de desenho indisponíveis; os gráficos são desenhados aqui", exc_info=True
                )
                _indisponivel = True
        return list(_ajudantes)


def _perder(ajudante: _Ajudante) -> None:
    with _trava:
        if ajudante in _ajudantes:
            _ajudantes.remove(ajudante)
    ajudante.processo.kill()
    ajudante.processo.wait()
    for canal in (ajudante.processo.stdin, ajudante.processo.stdout):
        if canal is not None:
            with contextlib.suppress(OSError):  # what was left in its buffer has nowhere to go
                canal.close()


@atexit.register
def encerrar() -> None:
    """At the program's end: each helper's input closed, so it ends too."""
    with _trava:
        todos = list(_ajudantes)
        _ajudantes.clear()
    for ajudante in todos:
        ajudante.encerrar()


def desenhar(
    pedidos: Sequence[Pedido], cancelado: Callable[[], bool]
) -> Iterator[tuple[int, graficos.Imagem]]:
    """Each chart's image as soon as one is ready (two at a time), with its card's index. `cancelado()` is
    asked between results (it may raise to stop): the charts not yet begun are then dropped."""
    fila: queue.SimpleQueue[Pedido] = queue.SimpleQueue()
    for pedido in pedidos:
        fila.put(pedido)
    prontos: queue.SimpleQueue[tuple[int, graficos.Imagem | BaseException]] = queue.SimpleQueue()
    parar = threading.Event()

    def servir(ajudante: _Ajudante | None) -> None:
        while not parar.is_set():
            try:
                k, g, w, h, dpi = fila.get_nowait()
            except queue.Empty:
                return
            try:
                if ajudante is not None:
                    try:
                        prontos.put((k, ajudante.desenhar((g, w, h, dpi))))
                        continue
                    except OSError:
                        _log.warning("Um processo de desenho terminou; desenhando aqui", exc_info=True)
                        _perder(ajudante)
                        ajudante = None
                prontos.put((k, graficos.imagem(g, w, h, dpi)))
            except Exception as exc:
                prontos.put((k, exc))

    disponiveis: list[_Ajudante | None] = list(ajudantes()) or [None]
    for ajudante in disponiveis:
        threading.Thread(target=servir, args=(ajudante,), daemon=True, name="desenho").start()
    try:
        for _ in range(len(pedidos)):
            while True:
                try:
                    k, resultado = prontos.get(timeout=0.1)
                    break
                except queue.Empty:
                    if cancelado():
                        return
            if isinstance(resultado, BaseException):
                raise resultado
            yield k, resultado
            if cancelado():
                return
    finally:
        parar.set()  # a chart being drawn finishes and is dropped; the others are never begun
