"""One entry for every kind of spreadsheet: the registries and the history of autos."""

from __future__ import annotations

from collections.abc import Mapping

import sqlalchemy.orm as so

from secretaria.db import UnidadeDeTrabalho
from secretaria.services.base import Ator
from secretaria.services.importacao.autos import importar_autos, previa_autos
from secretaria.services.importacao.cadastros import importar_cadastro, previa_cadastro
from secretaria.services.importacao.comum import Previa, Progresso, ResultadoImportacao
from secretaria.services.importacao.leitura import Planilha

__all__ = ["importar", "previa"]


def previa(
    sessao: so.Session,
    tipo: str,
    planilha: Planilha,
    *,
    mapeamento: Mapping[str, str] | None = None,
    progresso: Progresso | None = None,
    presumir_definitiva: int | None = None,
    limpar_vazias: bool = False,
) -> Previa:
    """Every row with its problems and what importing it would do; writes nothing. `presumir_definitiva`
    (autos only): REGRAS § 3 rule 1's presumption; `limpar_vazias`: a blank cell clears the stored value."""
    if tipo == "autos":
        return previa_autos(
            sessao,
            planilha,
            mapeamento=mapeamento,
            progresso=progresso,
            presumir_definitiva=presumir_definitiva,
            limpar_vazias=limpar_vazias,
        )
    return previa_cadastro(
        sessao, tipo, planilha, mapeamento=mapeamento, progresso=progresso, limpar_vazias=limpar_vazias
    )


def importar(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    tipo: str,
    planilha: Planilha,
    *,
    somente_validas: bool = False,
    mapeamento: Mapping[str, str] | None = None,
    progresso: Progresso | None = None,
    presumir_definitiva: int | None = None,
    limpar_vazias: bool = False,
) -> ResultadoImportacao:
    """Import in one transaction; refused whole on an invalid row unless `somente_validas`."""
    if tipo == "autos":
        return importar_autos(
            uow,
            ator,
            planilha,
            somente_validas=somente_validas,
            mapeamento=mapeamento,
            progresso=progresso,
            presumir_definitiva=presumir_definitiva,
            limpar_vazias=limpar_vazias,
        )
    return importar_cadastro(
        uow,
        ator,
        tipo,
        planilha,
        somente_validas=somente_validas,
        mapeamento=mapeamento,
        progresso=progresso,
        limpar_vazias=limpar_vazias,
    )
