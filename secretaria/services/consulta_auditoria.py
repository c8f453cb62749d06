"""Reading the audit log: the audit screen's filtered pages and one entry with its before → after."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.models import Auditoria
from secretaria.services import listas
from secretaria.services.base import ErroDominio, NaoEncontrado


@dataclass(frozen=True)
class RegistroAuditoria:
    id: int
    momento: datetime
    usuario: str | None
    acao: str
    entidade: str
    entidade_id: str | None
    antes: dict[str, Any] | None
    depois: dict[str, Any] | None

    @property
    def alteracoes(self) -> list[tuple[str, Any, Any]]:
        """(field, before, after) for each field that changed (all fields on creation or removal)."""
        antes, depois = self.antes or {}, self.depois or {}
        chaves = sorted(set(antes) | set(depois))
        ignorar = {"versao", "alterado_em", "criado_em", "alterado_por"}
        return [
            (c, antes.get(c), depois.get(c))
            for c in chaves
            if c not in ignorar and antes.get(c) != depois.get(c)
        ]


@dataclass(frozen=True)
class PaginaAuditoria:
    total: int
    registros: tuple[RegistroAuditoria, ...]


def consultar_auditoria(
    sessao: so.Session,
    *,
    usuario: str | None = None,
    entidade: str | None = None,
    desde: date | None = None,
    ate: date | None = None,
    texto: str = "",
    inicio: int = 0,
    quantidade: int = 100,
) -> PaginaAuditoria:
    """The audit log, newest first, filtered by user, kind of record, period (days inclusive) and free text."""
    if desde is not None and ate is not None and ate < desde:
        raise ErroDominio("A data final do período não pode ser anterior à inicial.", "ate")
    filtro = listas.Filtro(
        texto=texto, usuario=usuario or None, entidade=entidade or None, desde=desde, ate=ate
    )
    total = listas.contar(sessao, "auditoria", filtro)
    ids = [r[0] for r in listas.pagina(sessao, "auditoria", filtro, ("id", False), inicio, quantidade)]
    registros = (
        {a.id: a for a in sessao.scalars(sa.select(Auditoria).where(Auditoria.id.in_(ids)))} if ids else {}
    )
    return PaginaAuditoria(
        total,
        tuple(_registro(registros[i]) for i in ids),
    )


def _registro(a: Auditoria) -> RegistroAuditoria:
    return RegistroAuditoria(
        a.id, a.momento, a.usuario_login, a.acao, a.entidade, a.entidade_id, _json(a.antes), _json(a.depois)
    )


def registro_auditoria(sessao: so.Session, id: int) -> RegistroAuditoria:
    """One entry of the audit log, with its before → after (what the audit screen shows beside the list)."""
    a = (
        sessao.get(Auditoria, id)
        if isinstance(id, int) and not isinstance(id, bool) and 0 < id < 2**63
        else None
    )
    if a is None:
        raise NaoEncontrado(f"Registro de auditoria nº {id} não encontrado.", "id")
    return _registro(a)


def entidades_auditadas(sessao: so.Session) -> list[str]:
    """The kinds of record the log mentions (for the filter's combo box)."""
    return list(sessao.scalars(sa.select(Auditoria.entidade).distinct().order_by(Auditoria.entidade)))


def _json(texto: str | None) -> dict[str, Any] | None:
    if not texto:
        return None
    try:
        valor = json.loads(texto)
    except ValueError:
        return {"texto": texto}
    return valor if isinstance(valor, dict) else {"valor": valor}
