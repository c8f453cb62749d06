"""Child process of the numbering concurrency test: draw up `quantos` autos as fast as possible.

A module of its own (not a test file) so that `multiprocessing` with "spawn" can import it by name
(`tests.helpers.trabalhador_numeracao`) in the child: spawn hands the parent's sys.path, which holds the
project root (pytest's `pythonpath`), to the children.
"""

from __future__ import annotations

from datetime import date, time
from typing import Any

HOJE = date(2026, 11, 30)


def trabalhar(url: str, ids: dict[str, int], quantos: int, largada: Any, resultados: Any) -> None:
    from secretaria import relogio
    from secretaria.db import abrir_banco
    from secretaria.services.autos import NovoAuto, lavrar_auto
    from secretaria.services.base import Ator

    relogio.hoje = lambda: HOJE
    banco = abrir_banco(url, migrar=False)
    fiscal = Ator("fiscal", "Fábio Fiscal", frozenset({"fiscal"}))
    numeros: list[str] = []
    try:
        largada.wait(timeout=120)  # a Barrier: every child has opened the database, now all start at once
        for i in range(quantos):
            dados = NovoAuto(
                operadora_id=ids["operadora_id"] if i % 2 else ids["operadora2_id"],
                dispositivo_codigo=("1-VI", "1-XVI", "2-III", "1-XV")[i % 4],
                data_infracao=date(2026, 3, 1 + i % 28),
                local="Avenida Bento Gonçalves",
                data_lavratura=date(2026, 4, 1),
                hora_lavratura=time(10, 0),
                local_lavratura="Terminal central",
                descricao_fatos=f"Fato nº {i}.",
                fiscal_id=ids["fiscal_id"],
            )
            numeros.append(lavrar_auto(banco.uow(), fiscal, dados).numero_formatado)
        resultados.put(("ok", numeros))
    except Exception as exc:  # the parent reports it; a silent child would only look like a missing number
        resultados.put(("erro", f"{type(exc).__name__}: {exc}"))
    finally:
        banco.fechar()
