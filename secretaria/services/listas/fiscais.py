"""The SMSU inspectors list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from secretaria.models import Fiscal, Usuario
from secretaria.services.listas.nucleo import (
    ChaveOrdem,
    Coluna,
    ConsultaLista,
    ContextoConsulta,
    DefinicaoLista,
    opcoes_filtro,
    ordem_natural,
)

DEFINICAO = DefinicaoLista(
    "fiscais",
    "Fiscais da SMSU",
    (
        Coluna("nome", "Nome", "nome"),
        Coluna("matricula", "Matrícula", "codigo"),
        Coluna("situacao", "Situação"),
        Coluna("usuario", "Usuário do sistema"),
    ),
    opcoes_filtro("situacao", {"ativo": "Ativo", "inativo": "Inativo"}),
    ("nome", True),
)


def construir(d: DefinicaoLista, ctx: ContextoConsulta) -> ConsultaLista:
    f, u = Fiscal, Usuario

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        nome, matricula, ativo, login = r
        return (nome, matricula, "Ativo" if ativo else "Inativo", login or "")

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        return [ctx.contem(f.nome, palavra), ctx.contem(f.matricula, palavra)]

    return ConsultaLista(
        d,
        ctx,
        base=f.__table__,  # type: ignore[arg-type]
        id_=f.id,
        origem=sa.outerjoin(f, u, f.usuario_id == u.id),
        campos=(f.nome, f.matricula, f.ativo, u.login),
        ordens={
            "nome": [ChaveOrdem(ctx.chave(f.nome))],
            "matricula": ordem_natural(f.matricula),
            "situacao": [ChaveOrdem(sa.not_(f.ativo))],
            "usuario": [ChaveOrdem(u.login, True)],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={"ativo": f.ativo.is_(True), "inativo": f.ativo.is_(False)},
    )
