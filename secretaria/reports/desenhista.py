"""A chart-drawing helper process: `python -m secretaria.reports.desenhista CANAL` (frozen: `secretaria
--auxiliar secretaria.reports.desenhista CANAL`, see `secretaria.auxiliares`).

It reads requests from its standard input and writes its answers to CANAL, a pipe of its own that the window's
process opened for it (on Linux and macOS the number of an inherited descriptor, on Windows of an inherited
handle): never to its standard output, where any library may print a stray line (one read as a length once
made the window wait for 1.6 GB). Its standard output goes to its standard error besides.

Each message is a header — the marker `MARCA` (which also names the protocol's version) and a 4-byte
length — and a pickle: a request is the arguments of `graficos.imagem` (chart, width, height, dpi), an answer
the `graficos.Imagem`, or the exception it raised. A length over the limit (`LIMITE_PEDIDO`,
`LIMITE_RESPOSTA`), another marker, a short message or a body that does not unpickle is a protocol error
(`ErroProtocolo`): the window's process then drops the helper, and the helper ends on a bad request. It ends
when its input closes (the program ended). Only the window's own process starts it, with its own data:
nothing from outside is ever unpickled.
"""

from __future__ import annotations

import gc
import os
import pickle
import struct
import sys
from typing import IO

MARCA = b"SCD1"
"""Each header's first bytes: "Secretaria, chart drawing", version 1."""
CABECALHO = struct.Struct("!4sI")
LIMITE_PEDIDO = 16 * 1024 * 1024
"""A request is a chart's data: a few kilobytes."""
LIMITE_RESPOSTA = 256 * 1024 * 1024
"""An answer is an RGBA image: 4 bytes a pixel (a full-screen chart on a 4K monitor is ~33 MB)."""


class ErroProtocolo(Exception):
    """What came through the pipe is not a message of this protocol."""


def _ler(entrada: IO[bytes], tamanho: int) -> bytes:
    partes: list[bytes] = []
    falta = tamanho
    while falta > 0:
        parte = entrada.read(falta)
        if not parte:
            break
        partes.append(parte)
        falta -= len(parte)
    return b"".join(partes)


def ler_mensagem(entrada: IO[bytes], limite: int) -> object | None:
    """The next message, or None where the input ended between messages. Raises `ErroProtocolo`."""
    cabecalho = _ler(entrada, CABECALHO.size)
    if not cabecalho:
        return None
    if len(cabecalho) < CABECALHO.size:
        raise ErroProtocolo(f"cabeçalho incompleto: {cabecalho!r}")
    marca, tamanho = CABECALHO.unpack(cabecalho)
    if marca != MARCA:
        raise ErroProtocolo(f"cabeçalho inválido: {cabecalho!r}")
    if tamanho > limite:
        raise ErroProtocolo(f"mensagem de {tamanho} bytes (o limite é {limite})")
    corpo = _ler(entrada, tamanho)
    if len(corpo) < tamanho:
        raise ErroProtocolo(f"mensagem incompleta: {len(corpo)} de {tamanho} bytes")
    try:
        mensagem: object = pickle.loads(corpo)
    except Exception as exc:  # whatever a corrupt pickle raises (UnpicklingError, EOFError, KeyError…)
        raise ErroProtocolo(f"mensagem ilegível: {exc!r}") from exc
    return mensagem


def escrever_mensagem(saida: IO[bytes], mensagem: object, limite: int) -> None:
    corpo = pickle.dumps(mensagem, protocol=pickle.HIGHEST_PROTOCOL)
    if len(corpo) > limite:
        raise ErroProtocolo(f"mensagem de {len(corpo)} bytes (o limite é {limite})")
    saida.write(CABECALHO.pack(MARCA, len(corpo)) + corpo)
    saida.flush()


def abrir_canal(numero: int) -> IO[bytes]:
    """The answers' pipe, from the number on the command line."""
    if sys.platform == "win32":  # Windows hands a process handles, not descriptors
        import msvcrt

        numero = msvcrt.open_osfhandle(numero, os.O_WRONLY)
    return os.fdopen(numero, "wb")


def _resposta_de_erro(exc: Exception) -> Exception:
    """The exception itself, or its text where it does not survive a pickle's round trip."""
    try:
        pickle.loads(pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def main(argv: list[str] | None = None) -> int:
    argumentos = sys.argv[1:] if argv is None else argv
    if len(argumentos) != 1 or not argumentos[0].isdigit():
        print("uso: python -m secretaria.reports.desenhista CANAL", file=sys.stderr)
        return 2
    saida = abrir_canal(int(argumentos[0]))
    sys.stdout = sys.stderr  # a stray print goes where a person may read it, never into an answer
    entrada = sys.stdin.buffer if sys.stdin is not None else os.fdopen(0, "rb")

    from secretaria.reports import graficos

    graficos.preparar()  # matplotlib and the font loaded before the first request
    # A chart makes tens of thousands of short-lived objects, and each of the collector's older passes walked
    # everything matplotlib's import left behind as well (a tenth of a chart's CPU in a profile). What is loaded
    # now stays for the helper's life: out of the collector's reach; and it passes less often (a drawn
    # figure's cycles are still collected, at most a few charts later).
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    while True:
        try:
            pedido = ler_mensagem(entrada, LIMITE_PEDIDO)
            if pedido is None:
                return 0
            if not isinstance(pedido, tuple):
                raise ErroProtocolo(f"pedido de tipo inesperado: {type(pedido).__name__}")
        except ErroProtocolo as exc:
            print(f"desenhista: {exc}", file=sys.stderr)
            return 1
        try:
            resposta: object = graficos.imagem(*pedido)
        except Exception as exc:  # the caller shows it; the helper goes on serving
            resposta = _resposta_de_erro(exc)
        try:
            try:
                escrever_mensagem(saida, resposta, LIMITE_RESPOSTA)
            except ErroProtocolo as exc:  # an image too large to send: say so instead
                escrever_mensagem(saida, RuntimeError(str(exc)), LIMITE_RESPOSTA)
        except OSError:  # the window's process stopped listening (it dropped this helper, or ended)
            return 1


if __name__ == "__main__":
    sys.exit(main())
