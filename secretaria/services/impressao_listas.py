"""What "Imprimir lista…" needs from the database: every row a list screen matches (not only those its lazy
table has loaded), from the same SQL the screen pages through, and the letterhead.

    with banco.leitura() as sessao:
        linhas = linhas_da_lista(sessao, "autos", filtro, ("data_infracao", False), progresso=progresso)
        fila = fila_inteira(sessao, "defesas_a_vencer")      # a home queue without its 100-row window
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.reports.dados import Timbre
from secretaria.services import documentos, filas, listas
from secretaria.services.base import ErroDominio

Progresso = Callable[[int, int, str], None]

PASSO_PROGRESSO = 250
"""Rows read between two progress reports (each report is also where a cancel takes effect)."""

_FILAS: dict[str, Callable[[so.Session, date, int], filas.Fila]] = {
    "aguardando_intimacao": filas.autos_aguardando_intimacao,
    "defesas_a_vencer": lambda s, d, n: filas.defesas_a_vencer(s, d, 7, n),
    "decisoes_atrasadas": lambda s, d, n: filas.decisoes_atrasadas(s, d, None, n),
    "decisoes_aguardando_intimacao": filas.decisoes_aguardando_intimacao,
    "recursos_em_prazo": filas.recursos_em_prazo,
    "recursos_aguardando_julgamento": filas.recursos_aguardando_julgamento,
    "multas_em_aberto": filas.multas_definitivas_em_aberto,
    "veiculos_vencidos": filas.veiculos_vencidos,
    "revisoes_de_prazo": filas.revisoes_de_prazo_a_conferir,
    "revisoes_de_sancao": filas.revisoes_de_sancao,
    "suspensoes_a_iniciar": filas.suspensoes_a_iniciar,
    "operadoras_suspensas": filas.operadoras_suspensas,
    "representacoes_pendentes": filas.representacoes_pendentes,
}


def timbre(sessao: so.Session) -> Timbre:
    """The letterhead every printed list carries (the órgão's data from Administração)."""
    return documentos.timbre(sessao)


def linhas_da_lista(
    sessao: so.Session,
    lista: str,
    filtro: listas.Filtro | None = None,
    ordem: listas.Ordem | None = None,
    *,
    progresso: Progresso | None = None,
) -> list[tuple[Any, ...]]:
    """Every row of `lista` under `filtro`, in `ordem` (rows as `listas.pagina` gives them: id first).

    `progresso(feitas, total, etapa)` is called every `PASSO_PROGRESSO` rows; raising there (Cancelar)
    stops the read."""
    total = listas.contar(sessao, lista, filtro) if progresso is not None else 0
    linhas: list[tuple[Any, ...]] = []
    if progresso is not None:
        progresso(0, total, "Lendo as linhas da lista…")
    # A cancel raised by `progresso` drops the stream, whose own `finally` closes the database cursor.
    for linha in listas.exportar_linhas(sessao, lista, filtro, ordem):
        linhas.append(linha)
        if progresso is not None and len(linhas) % PASSO_PROGRESSO == 0:
            progresso(len(linhas), max(total, len(linhas)), f"Lendo as linhas da lista… {len(linhas)}")
    return linhas


def fila_inteira(sessao: so.Session, chave: str, hoje: date | None = None) -> filas.Fila:
    """One home queue with all its rows (the home screen shows the first 100)."""
    try:
        funcao = _FILAS[chave]
    except KeyError:
        raise ErroDominio(f"Fila de trabalho desconhecida: {chave}.") from None
    dia = hoje or relogio.hoje()
    primeira = funcao(sessao, dia, filas.LIMITE_PADRAO)
    if primeira.total <= len(primeira.linhas):
        return primeira
    return funcao(sessao, dia, primeira.total)
