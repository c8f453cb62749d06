"""The users list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from secretaria.models import Usuario, UsuarioPapel
from secretaria.services.listas.nucleo import (
    ChaveOrdem,
    Coluna,
    ConsultaLista,
    ContextoConsulta,
    DefinicaoLista,
    opcoes_filtro,
)
from secretaria.services.rotulos import ROTULOS_PAPEIS

DEFINICAO = DefinicaoLista(
    "usuarios",
    "Usuários",
    (
        Coluna("login", "Login"),
        Coluna("nome", "Nome", "nome"),
        Coluna("papeis", "Papéis"),
        Coluna("situacao", "Situação"),
        Coluna("ultimo_acesso", "Último acesso", "data_hora"),
    ),
    opcoes_filtro("situacao", {"ativo": "Ativo", "inativo": "Inativo", "bloqueado": "Bloqueado"}),
    ("login", True),
    na_hora=True,  # blocked until a time of day
)


def construir(d: DefinicaoLista, ctx: ContextoConsulta) -> ConsultaLista:
    u, up = Usuario, UsuarioPapel
    if ctx.postgres:
        from sqlalchemy.dialects.postgresql import aggregate_order_by

        agregado: sa.ColumnElement[str] = sa.func.string_agg(
            up.papel, aggregate_order_by(sa.literal(","), up.papel)
        )
    else:
        agregado = sa.func.group_concat(up.papel, ",")
    papeis = sa.select(agregado).where(up.usuario_id == u.id).scalar_subquery()
    bloqueado = sa.and_(u.bloqueado_ate.is_not(None), u.bloqueado_ate > ctx.agora)
    situacao = sa.case((u.ativo.is_(False), "inativo"), (bloqueado, "bloqueado"), else_="ativo")

    def montar(r: Sequence[Any]) -> tuple[Any, ...]:
        login, nome, lista_papeis, sit, ate, acesso = r
        codigos = [p for p in (lista_papeis or "").split(",") if p]
        # Alphabetical by code, the order the SQL sorts on ("administrador,secretario").
        rotulos = ", ".join(ROTULOS_PAPEIS.get(p, p) for p in sorted(codigos))
        texto_sit = {"ativo": "Ativo", "inativo": "Inativo"}.get(sit, "Bloqueado")
        if sit == "bloqueado" and ate is not None:
            texto_sit = f"Bloqueado até {ate:%H:%M}"
        return (login, nome, rotulos, texto_sit, acesso)

    def busca(original: str, palavra: str) -> list[sa.ColumnElement[bool]]:
        return [ctx.contem(u.login, palavra), ctx.contem(u.nome, palavra)]

    return ConsultaLista(
        d,
        ctx,
        base=u.__table__,  # type: ignore[arg-type]
        id_=u.id,
        origem=u.__table__,
        campos=(u.login, u.nome, papeis, situacao, u.bloqueado_ate, u.ultimo_acesso),
        ordens={
            "login": [ChaveOrdem(u.login)],
            "nome": [ChaveOrdem(ctx.chave(u.nome))],
            "papeis": [ChaveOrdem(papeis, True)],
            "situacao": [ChaveOrdem(sa.case({"ativo": 0, "bloqueado": 1, "inativo": 2}, value=situacao))],
            "ultimo_acesso": [ChaveOrdem(u.ultimo_acesso, True)],
        },
        montar_valores=montar,
        busca=busca,
        situacoes={
            "ativo": sa.and_(u.ativo.is_(True), sa.not_(bloqueado)),
            "inativo": u.ativo.is_(False),
            "bloqueado": sa.and_(u.ativo.is_(True), bloqueado),
        },
        unicas=frozenset({"login"}),
    )
