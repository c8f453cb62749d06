"""A chart-drawing helper process: `python -m secretaria.reports.desenhista`.

It reads requests from its standard input and answers on its standard output, one after the other, each a
4-byte length and a pickle: a request is the arguments of `graficos.imagem` (chart, width, height, dpi), an
answer the `graficos.Imagem`, or the exception it raised. It ends when its input closes (the program ended).
Only the window's own process starts it, with its own data: nothing from outside is ever unpickled.
"""

from __future__ import annotations

import pickle
import struct
import sys
from typing import IO

CABECALHO = struct.Struct("!I")


def ler_mensagem(entrada: IO[bytes]) -> object | None:
    """The next message, or None at the end of the input."""
    cabecalho = entrada.read(CABECALHO.size)
    if len(cabecalho) < CABECALHO.size:
        return None
    (tamanho,) = CABECALHO.unpack(cabecalho)
    corpo = entrada.read(tamanho)
    if len(corpo) < tamanho:
        return None
    mensagem: object = pickle.loads(corpo)
    return mensagem


def escrever_mensagem(saida: IO[bytes], mensagem: object) -> None:
    corpo = pickle.dumps(mensagem, protocol=pickle.HIGHEST_PROTOCOL)
    saida.write(CABECALHO.pack(len(corpo)) + corpo)
    saida.flush()


def main(argv: list[str] | None = None) -> int:
    from secretaria.reports import graficos

    graficos.preparar()  # matplotlib and the font loaded before the first request
    entrada, saida = sys.stdin.buffer, sys.stdout.buffer
    while (pedido := ler_mensagem(entrada)) is not None:
        assert isinstance(pedido, tuple)
        try:
            resposta: object = graficos.imagem(*pedido)
        except Exception as exc:  # the caller shows it; the helper goes on serving
            resposta = exc
        escrever_mensagem(saida, resposta)
    return 0


if __name__ == "__main__":
    sys.exit(main())
