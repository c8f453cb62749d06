"""The audit log list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from secretaria.models import Auditoria
from secretaria.services.listas.nucleo import (
    ChaveOrdem,
    Coluna,
    ConsultaLista,
    ContextoConsulta,
    DefinicaoLista,
    Filtro,
)
from secretaria.services.rotulos import rotulo_acao, rotulo_entidade

DEFINICAO = DefinicaoLista(
    "auditoria",
    "Registro de auditoria",
    (
        Coluna("id", "Nº", "numero"),
        Coluna("momento", "Data e hora", "data_hora"),
        Coluna("usuario", "Usuário"),
        Coluna("acao", "Ação"),
        Coluna("entidade", "Registro"),
        Coluna("entidade_id", "Identificador"),
    ),
    (),
    ("id", False),
    periodo="Data e hora",
)


def construir(d: DefinicaoLista, ctx: ContextoConsulta) -> ConsultaLista:
    au = Auditoria

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        id_, momento, usuario, acao, entidade, entidade_id = r
        return (id_, momento, usuario or "", rotulo_acao(acao), rotulo_entidade(entidade), entidade_id or "")

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        return [
            ctx.contem(au.usuario_login, palavra),
            ctx.contem(au.acao, palavra),
            ctx.contem(au.entidade, palavra),
            au.entidade_id == original,
            ctx.contem(au.antes, palavra),
            ctx.contem(au.depois, palavra),
        ]

    def extras(filtro: Filtro) -> list[sa.ColumnElement[bool]]:
        conds: list[sa.ColumnElement[bool]] = []
        if filtro.usuario:
            conds.append(au.usuario_login == filtro.usuario)
        if filtro.entidade:
            conds.append(au.entidade == filtro.entidade)
        return conds

    return ConsultaLista(
        d,
        ctx,
        base=au.__table__,  # type: ignore[arg-type]
        id_=au.id,
        origem=au.__table__,
        campos=(au.id, au.momento, au.usuario_login, au.acao, au.entidade, au.entidade_id),
        ordens={
            "id": [ChaveOrdem(au.id)],
            "momento": [ChaveOrdem(au.momento)],
            "usuario": [ChaveOrdem(au.usuario_login, True)],
            "acao": [ChaveOrdem(au.acao)],
            "entidade": [ChaveOrdem(au.entidade)],
            "entidade_id": [ChaveOrdem(au.entidade_id, True)],
        },
        montar_valores=montar,
        busca=busca,
        periodo=au.momento,
        periodo_hora=True,
        unicas=frozenset({"id"}),
        extras=extras,
    )
