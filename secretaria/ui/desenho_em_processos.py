"""The Painel's charts drawn in two helper processes instead of a thread of the window's process.

matplotlib builds a chart in pure Python and holds the GIL while it does: drawn in a thread, the seven charts
still froze the window for 60–170 ms at a time (its event loop waiting for the GIL) and were drawn one after
another on one core. In processes of their own (`secretaria.reports.desenhista`, started as
`secretaria.auxiliares` says: the same Python, or the frozen program itself) the window keeps the GIL to
itself and both cores draw at once. They start when the Painel first draws and live until the program ends
(their input closes); the window's process never imports matplotlib while they work.

Plain subprocesses, not `multiprocessing`: its "spawn" runs the program's main module again in each child,
and a main module without the `if __name__ == "__main__"` idiom opened a second window there.

The requests go to a helper's standard input; its answers come back on a pipe of its own (`_iniciar`), never
on its standard output, which is thrown away (a library printing there once corrupted the answers). Any
failure of a helper — it cannot start, dies, hangs past `ESPERA_RESPOSTA`, answers what is not a message of
the protocol (see `desenhista`) — drops it (killed, out of the pool) and its charts are drawn in the calling
thread: slower, never missing. After `LIMITE_FALHAS` such failures, or one failure to start, no helper is
started again until the program ends: the log says so once, and every chart is drawn in the thread.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

from secretaria import auxiliares
from secretaria.reports import desenhista, graficos

_log = logging.getLogger(__name__)

PROCESSOS = 2
"""Two helpers: this office's PCs (and CI) have two cores; the window needs little CPU meanwhile."""
LIMITE_FALHAS = 2
"""Helpers lost before the program stops starting them: one may be a fluke, two mean something is wrong."""
ESPERA_PRIMEIRA_RESPOSTA = 60.0
"""Seconds for a helper's first answer: it loads matplotlib and the fonts first (slow on a cold PC)."""
ESPERA_RESPOSTA = 20.0
"""Seconds for any later answer, one chart: a helper silent that long is stuck and is killed."""

Pedido = tuple[int, graficos.Grafico, int, int, float]
"""(the card's index, the chart, width and height in pixels, dpi)."""


class FalhaDoAjudante(Exception):
    """A helper process failed (not the chart): it is dropped and the chart drawn here."""


def _comando() -> list[str]:
    """The helper's command line, without the answers' pipe (tests point it at helpers of their own)."""
    return auxiliares.comando(auxiliares.DESENHISTA)


def _iniciar(comando: list[str]) -> tuple[subprocess.Popen[bytes], IO[bytes]]:
    """Start a helper and hand it the write end of a new pipe for its answers (its number is the last
    argument); return the process and the read end. Its standard output is thrown away."""
    leitura, escrita = os.pipe()
    erros = None if sys.stderr is not None else subprocess.DEVNULL  # a windowed program may have none
    try:
        if sys.platform == "win32":
            # Windows: a child inherits handles, not descriptors, and only those listed here (each made
            # inheritable first, as subprocess requires); the child opens it with msvcrt.open_osfhandle.
            import msvcrt

            alca = msvcrt.get_osfhandle(escrita)
            os.set_handle_inheritable(alca, True)
            processo = subprocess.Popen(
                [*comando, str(alca)],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=erros,
                env=auxiliares.ambiente(),
                startupinfo=subprocess.STARTUPINFO(lpAttributeList={"handle_list": [alca]}),
            )
        else:
            processo = subprocess.Popen(
                [*comando, str(escrita)],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=erros,
                env=auxiliares.ambiente(),
                pass_fds=(escrita,),
            )
    except BaseException:
        os.close(leitura)
        raise
    finally:
        os.close(escrita)  # only the child holds it now: its end is the end of the answers
    return processo, os.fdopen(leitura, "rb")


class _Ajudante:
    """One helper process, used by one thread at a time."""

    def __init__(self) -> None:
        self.processo, self.respostas = _iniciar(_comando())
        self.trava = threading.Lock()
        self.perdido = False
        self.expirado = False
        self.respondeu = False

    def desenhar(self, argumentos: tuple[Any, ...]) -> graficos.Imagem:
        """The chart drawn by this helper. Raises `FalhaDoAjudante` when the helper failed (it is then
        already dropped), or the exception drawing the chart raised in the helper."""
        with self.trava:
            if self.perdido:
                raise FalhaDoAjudante("o processo de desenho já foi descartado")
            try:
                resposta = self._trocar(argumentos)
                if not isinstance(resposta, graficos.Imagem | Exception):
                    raise desenhista.ErroProtocolo(f"resposta de tipo inesperado: {type(resposta).__name__}")
            except Exception as exc:  # anything at all: the pipe, the pickle, a closed file, the timeout
                self._descartar()
                raise FalhaDoAjudante(f"o processo de desenho falhou: {exc!r}") from exc
        if isinstance(resposta, Exception):
            raise resposta
        return resposta

    def _trocar(self, argumentos: tuple[Any, ...]) -> object:
        entrada = self.processo.stdin
        assert entrada is not None
        espera = ESPERA_RESPOSTA if self.respondeu else ESPERA_PRIMEIRA_RESPOSTA
        vigia = threading.Timer(espera, self._expirar)
        vigia.daemon = True
        vigia.start()
        try:
            desenhista.escrever_mensagem(entrada, argumentos, desenhista.LIMITE_PEDIDO)
            resposta = desenhista.ler_mensagem(self.respostas, desenhista.LIMITE_RESPOSTA)
        except Exception:
            if self.expirado:  # the pipe broke because the helper was killed for its silence
                raise TimeoutError(f"sem resposta em {espera:g} s") from None
            raise
        finally:
            vigia.cancel()
        if self.expirado:
            raise TimeoutError(f"sem resposta em {espera:g} s")
        if resposta is None:
            raise EOFError("o processo de desenho terminou")
        self.respondeu = True
        return resposta

    def _expirar(self) -> None:
        """The timeout: killing the helper ends the answers' pipe, and the waiting read with it."""
        self.expirado = True
        with contextlib.suppress(OSError):
            self.processo.kill()

    def _descartar(self) -> None:
        """Kill the helper and close its pipes (called holding `trava`, so no other thread is using them)."""
        self.perdido = True
        with contextlib.suppress(OSError):
            self.processo.kill()
        self.processo.wait()
        for canal in (self.processo.stdin, self.respostas):
            if canal is not None:
                with contextlib.suppress(OSError, ValueError):  # what is left in a buffer has nowhere to go
                    canal.close()

    def descartar(self) -> None:
        with self.trava:
            if not self.perdido:
                self._descartar()

    def encerrar(self) -> None:
        """At the program's end: its input closed, it ends on its own (killed if it does not). One still busy
        with a chart (a stuck one would hold the exit up to its timeout) is killed at once."""
        if not self.trava.acquire(timeout=1):
            with contextlib.suppress(OSError):
                self.processo.kill()  # the thread waiting for it then fails and drops it
            return
        try:
            if not self.perdido:
                self.perdido = True
                self._fechar_entrada_e_esperar()
        finally:
            self.trava.release()

    def _fechar_entrada_e_esperar(self) -> None:
        if self.processo.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                self.processo.stdin.close()
        try:
            self.processo.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.processo.kill()
            self.processo.wait()
        self.respostas.close()


_trava = threading.Lock()
_ajudantes: list[_Ajudante] = []
_falhas = 0
_indisponivel = False


def _desistir(motivo: str) -> None:
    """From now on every chart is drawn in the thread (called holding `_trava`)."""
    global _indisponivel
    if not _indisponivel:
        _indisponivel = True
        _log.warning("%s; até o programa fechar, os gráficos são desenhados aqui.", motivo)


def ajudantes() -> list[_Ajudante]:
    """The helpers (started on first use, and again where one was lost), or none once they have failed."""
    with _trava:
        mortos = [a for a in _ajudantes if a.processo.poll() is not None]
        for ajudante in mortos:
            _perdido(ajudante)
        if not _indisponivel:
            try:
                while len(_ajudantes) < max(1, min(PROCESSOS, os.cpu_count() or 1)):
                    _ajudantes.append(_Ajudante())
            except Exception:
                _log.warning("Um processo de desenho não pôde ser iniciado", exc_info=True)
                _desistir("Processos de desenho indisponíveis")
        vivos = list(_ajudantes)
    for ajudante in mortos:
        ajudante.descartar()
    return vivos


def _perdido(ajudante: _Ajudante) -> None:
    """Count a helper's failure and take it out of the pool (called holding `_trava`)."""
    global _falhas
    if ajudante in _ajudantes:
        _ajudantes.remove(ajudante)
        _falhas += 1
        if _falhas >= LIMITE_FALHAS:
            _desistir(f"Processos de desenho falharam {_falhas} vezes")


def _perder(ajudante: _Ajudante) -> None:
    with _trava:
        _perdido(ajudante)
    ajudante.descartar()


@atexit.register
def encerrar() -> None:
    """At the program's end: each helper's input closed, so it ends too."""
    with _trava:
        todos = list(_ajudantes)
        _ajudantes.clear()
    for ajudante in todos:
        ajudante.encerrar()


def desenhar(
    pedidos: Sequence[Pedido] | queue.SimpleQueue[Pedido | None], cancelado: Callable[[], bool]
) -> Iterator[tuple[int, graficos.Imagem]]:
    """Each chart's image as soon as one is ready (two at a time), with its card's index. `pedidos` is a list,
    or a queue the caller goes on filling while the first charts are drawn (the Painel puts each chart in as
    soon as its numbers are read) and closes with None. `cancelado()` is asked between results (it may raise
    to stop): the charts not yet begun are then dropped."""
    if isinstance(pedidos, queue.SimpleQueue):
        fila = pedidos
    else:
        fila = queue.SimpleQueue()
        for pedido in pedidos:
            fila.put(pedido)
        fila.put(None)
    prontos: queue.SimpleQueue[tuple[int, graficos.Imagem | BaseException] | None] = queue.SimpleQueue()
    parar = threading.Event()

    def servir(ajudante: _Ajudante | None) -> None:
        try:
            while not parar.is_set():
                pedido = fila.get()
                if pedido is None:
                    fila.put(None)  # the end, for the other threads too
                    return
                k, g, w, h, dpi = pedido
                try:
                    if ajudante is not None:
                        try:
                            prontos.put((k, ajudante.desenhar((g, w, h, dpi))))
                            continue
                        except FalhaDoAjudante:
                            _log.warning("Um processo de desenho falhou; desenhando aqui", exc_info=True)
                            _perder(ajudante)
                            ajudante = None
                    prontos.put((k, graficos.imagem(g, w, h, dpi)))
                except Exception as exc:
                    prontos.put((k, exc))
        finally:
            prontos.put(None)  # this thread has ended

    disponiveis: list[_Ajudante | None] = list(ajudantes()) or [None]
    for ajudante in disponiveis:
        threading.Thread(target=servir, args=(ajudante,), daemon=True, name="desenho").start()
    ativos = len(disponiveis)
    try:
        while ativos:
            while True:
                try:
                    resultado = prontos.get(timeout=0.1)
                    break
                except queue.Empty:
                    if cancelado():
                        return
            if resultado is None:
                ativos -= 1
                continue
            k, imagem = resultado
            if isinstance(imagem, BaseException):
                raise imagem
            yield k, imagem
            if cancelado():
                return
    finally:
        parar.set()  # a chart being drawn finishes and is dropped; the others are never begun
        fila.put(None)  # a thread waiting for the next chart ends
