"""The SMSU inspectors list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from secretaria.models import Fiscal, Usuario
from secretaria.services.listas.nucleo import (
    Coluna,
    DefinicaoLista,
    _Chave,
    _Consulta,
    _Contexto,
    _f,
    _natural,
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
    _f("situacao", {"ativo": "Ativo", "inativo": "Inativo"}),
    ("nome", True),
)


def construir(d: DefinicaoLista, ctx: _Contexto) -> _Consulta:
    f, u = Fiscal, Usuario

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        nome, matricula, ativo, login = r
        return (nome, matricula, "Ativo" if ativo else "Inativo", login or "")

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        return [ctx.contem(f.nome, palavra), ctx.contem(f.matricula, palavra)]

    return _Consulta(
        d,
        ctx,
        base=f.__table__,  # type: ignore[arg-type]
        id_=f.id,
        origem=sa.outerjoin(f, u, f.usuario_id == u.id),
        campos=(f.nome, f.matricula, f.ativo, u.login),
        ordens={
            "nome": [_Chave(ctx.chave(f.nome))],
            "matricula": _natural(f.matricula),
            "situacao": [_Chave(sa.not_(f.ativo))],
            "usuario": [_Chave(u.login, True)],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={"ativo": f.ativo.is_(True), "inativo": f.ativo.is_(False)},
    )
