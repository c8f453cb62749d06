"""The audit log: one row per act, in the act's own transaction, chained by SHA-256.

Each row carries the previous row's hash, so a row changed or removed behind the program's back breaks
the chain at that point (`verificar_cadeia`). Writers are serialized while they append: SQLite already is
(BEGIN IMMEDIATE); on PostgreSQL a transaction-scoped advisory lock keeps two writers from both
chaining onto the same last row.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import relogio
from secretaria.models import Auditoria
from secretaria.services.base import Ator

HASH_INICIAL = "0" * 64
_CHAVE_TRAVA_PG = 2_413_1978


def instantaneo(registro: Any) -> dict[str, Any]:
    """The record's column values as JSON-safe data (before/after images of the audit row)."""
    mapa = sa.inspect(registro).mapper
    return {c.key: json_valor(getattr(registro, c.key)) for c in mapa.column_attrs if not c.deferred}


def json_valor(valor: Any) -> Any:
    """One column value as the audit image holds it (also what the verification compares against)."""
    if isinstance(valor, Decimal):
        return str(valor)
    if isinstance(valor, datetime | date | time):
        return valor.isoformat()
    if isinstance(valor, bytes):
        return hashlib.sha256(valor).hexdigest()
    return valor


def digest_senha(senha_hash: str) -> str:
    """What the audit image of an account keeps of its password: a digest of the stored (salted, slow)
    hash, so a hash swapped behind the program's back is caught without the hash itself being copied."""
    return hashlib.sha256(senha_hash.encode("utf-8")).hexdigest()


def extras_usuario(papeis: Iterable[str], senha_hash: str) -> dict[str, Any]:
    """The parts of an account's image that are not its own columns: its roles and password digest."""
    return {"papeis": sorted(papeis), "senha": digest_senha(senha_hash)}


def _calcular_hash(linha: dict[str, Any]) -> str:
    conteudo = json.dumps(linha, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(conteudo.encode("utf-8")).hexdigest()


def _campos(reg: Auditoria) -> dict[str, Any]:
    return {
        "id": reg.id,
        "momento": reg.momento.isoformat(),
        "usuario_login": reg.usuario_login,
        "acao": reg.acao,
        "entidade": reg.entidade,
        "entidade_id": reg.entidade_id,
        "antes": reg.antes,
        "depois": reg.depois,
        "hash_anterior": reg.hash_anterior,
    }


def registrar(
    sessao: so.Session,
    ator: Ator,
    acao: str,
    entidade: str,
    entidade_id: object,
    antes: dict[str, Any] | None = None,
    depois: dict[str, Any] | None = None,
) -> Auditoria:
    """Append the audit row of an act to the current transaction (flushes pending changes first)."""
    sessao.flush()
    if sessao.get_bind().dialect.name == "postgresql":
        sessao.execute(sa.select(sa.func.pg_advisory_xact_lock(_CHAVE_TRAVA_PG)))
    ultimo = sessao.execute(
        sa.select(Auditoria.id, Auditoria.hash).order_by(Auditoria.id.desc()).limit(1)
    ).first()
    reg = Auditoria(
        id=(ultimo.id + 1) if ultimo else 1,
        momento=relogio.agora(),
        usuario_login=ator.login,
        acao=acao,
        entidade=entidade,
        entidade_id=None if entidade_id is None else str(entidade_id),
        antes=None if antes is None else json.dumps(antes, sort_keys=True, ensure_ascii=False),
        depois=None if depois is None else json.dumps(depois, sort_keys=True, ensure_ascii=False),
        hash_anterior=ultimo.hash if ultimo else HASH_INICIAL,
        hash="",
    )
    reg.hash = _calcular_hash(_campos(reg))
    sessao.add(reg)
    sessao.flush()
    return reg


def registrar_lote(
    sessao: so.Session,
    ator: Ator,
    atos: Sequence[tuple[str, str, object, dict[str, Any] | None, dict[str, Any] | None]],
) -> int:
    """Append many audit rows at once (acao, entidade, entidade_id, antes, depois): the chain computed in
    memory, one bulk insert. For generators writing thousands of records in one transaction (the demo)."""
    if not atos:
        return 0
    sessao.flush()
    if sessao.get_bind().dialect.name == "postgresql":
        sessao.execute(sa.select(sa.func.pg_advisory_xact_lock(_CHAVE_TRAVA_PG)))
    ultimo = sessao.execute(
        sa.select(Auditoria.id, Auditoria.hash).order_by(Auditoria.id.desc()).limit(1)
    ).first()
    proximo, anterior = ((ultimo.id + 1), ultimo.hash) if ultimo else (1, HASH_INICIAL)
    momento = relogio.agora()
    linhas = []
    for acao, entidade, entidade_id, antes, depois in atos:
        linha = {
            "id": proximo,
            "momento": momento.isoformat(),
            "usuario_login": ator.login,
            "acao": acao,
            "entidade": entidade,
            "entidade_id": None if entidade_id is None else str(entidade_id),
            "antes": None if antes is None else json.dumps(antes, sort_keys=True, ensure_ascii=False),
            "depois": None if depois is None else json.dumps(depois, sort_keys=True, ensure_ascii=False),
            "hash_anterior": anterior,
        }
        anterior = _calcular_hash(linha)
        linha["hash"] = anterior
        linha["momento"] = momento
        linhas.append(linha)
        proximo += 1
    sessao.execute(sa.insert(Auditoria), linhas)
    return len(linhas)


@dataclass(frozen=True)
class ResultadoVerificacao:
    linhas: int
    primeiro_erro_id: int | None
    mensagem: str
    # The last row's id and hash when the chain is whole: noted down outside the database (paper, e-mail),
    # they let a later check also notice rows removed from the end, which a chain alone cannot.
    ultimo_id: int | None = None
    ultimo_hash: str | None = None

    @property
    def integra(self) -> bool:
        return self.primeiro_erro_id is None


def verificar_cadeia(sessao: so.Session, lote: int = 5000) -> ResultadoVerificacao:
    """Walk the chain in id order and name the first row whose link or content does not match."""
    anterior_hash = HASH_INICIAL
    anterior_id = 0
    contadas = 0
    while True:
        try:
            regs = sessao.scalars(
                sa.select(Auditoria).where(Auditoria.id > anterior_id).order_by(Auditoria.id).limit(lote)
            ).all()
        except (ValueError, TypeError, sa.exc.StatementError):
            # A value no longer readable as what the program wrote (e.g. a date typed in by hand).
            return ResultadoVerificacao(
                contadas,
                anterior_id + 1,
                f"Registro de auditoria após o nº {anterior_id}: conteúdo ilegível, alterado fora do programa.",
            )
        if not regs:
            break
        for reg in regs:
            if reg.id != anterior_id + 1:
                return ResultadoVerificacao(
                    contadas, anterior_id + 1, f"Registro de auditoria nº {anterior_id + 1} está faltando."
                )
            if reg.hash_anterior != anterior_hash:
                return ResultadoVerificacao(
                    contadas,
                    reg.id,
                    f"Registro de auditoria nº {reg.id}: elo com o registro anterior rompido.",
                )
            if _calcular_hash(_campos(reg)) != reg.hash:
                return ResultadoVerificacao(
                    contadas, reg.id, f"Registro de auditoria nº {reg.id}: conteúdo alterado após a gravação."
                )
            anterior_hash, anterior_id = reg.hash, reg.id
            contadas += 1
        sessao.expunge_all()
    return ResultadoVerificacao(
        contadas,
        None,
        f"Cadeia de auditoria íntegra: {contadas} registros verificados.",
        anterior_id or None,
        anterior_hash if contadas else None,
    )
