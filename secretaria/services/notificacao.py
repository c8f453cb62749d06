"""Change notification, the sending side: what the audit rows a unit of work commits tell the other PCs.

Every write session (a Banco's, marked by its `Origem` in `sessao.info[db.CHAVE_ORIGEM]`) notes the audit
rows it inserts; just before COMMIT a PostgreSQL session sends `pg_notify(CANAL_MUDANCAS, …)` inside the
transaction (delivered only if it commits), naming the entities, the acting login and `origem.id`; after
COMMIT the rows become `origem.proprios`. The receiving side is `services.mudancas`.

The listeners are the Session class's, installed when this module is imported: `services.auditoria`, the
only writer of audit rows, imports it, so they are in place before any row is written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy import event

from secretaria import relogio
from secretaria.db import CHAVE_ORIGEM, Origem
from secretaria.models import Auditoria

CANAL_MUDANCAS = "secretaria"
"""The PostgreSQL channel every committed act notifies (`services.mudancas` listens on it)."""
_MAX_ENTIDADES_AVISO = 40
"""Entities named in one notification at most; beyond that it says only "see the audit" (a payload is
limited to 8,000 bytes, and the listener reads the audit rows then)."""
_CHAVE_AUDITADOS = "secretaria_auditados"


def anotar_auditado(
    sessao: so.Session, auditoria_id: int, entidade: str, entidade_id: str | None, login: str | None
) -> None:
    """An audit row the database itself inserted (PostgreSQL's `secretaria_auditar`, not an ORM object the
    flush sees): named in the commit's notification and, after it, among `Origem.proprios`."""
    sessao.info.setdefault(_CHAVE_AUDITADOS, []).append((auditoria_id, entidade, entidade_id, login))


def _origem(sessao: so.Session) -> Origem | None:
    origem = sessao.info.get(CHAVE_ORIGEM)
    return origem if isinstance(origem, Origem) else None


def _depois_do_flush(sessao: so.Session, _contexto: Any) -> None:
    if _origem(sessao) is None:
        return
    novos = [obj for obj in sessao.new if isinstance(obj, Auditoria)]
    if novos:
        sessao.info.setdefault(_CHAVE_AUDITADOS, []).extend(
            (a.id, a.entidade, a.entidade_id, a.usuario_login) for a in novos
        )


def _antes_do_commit(sessao: so.Session) -> None:
    origem = _origem(sessao)
    if origem is None or sessao.get_bind().dialect.name != "postgresql":
        return
    sessao.flush()
    auditados = sessao.info.get(_CHAVE_AUDITADOS)
    if auditados:
        sessao.execute(sa.select(sa.func.pg_notify(CANAL_MUDANCAS, aviso_de_mudanca(origem.id, auditados))))


def _depois_do_commit(sessao: so.Session) -> None:
    origem = _origem(sessao)
    if origem is None:
        return
    for auditado in sessao.info.pop(_CHAVE_AUDITADOS, ()):
        origem.proprios.append(auditado[0])


def _depois_do_rollback(sessao: so.Session, _transacao: Any) -> None:
    sessao.info.pop(_CHAVE_AUDITADOS, None)


def aviso_de_mudanca(origem: str, auditados: Sequence[tuple[int, str, str | None, str | None]]) -> str:
    """The notification's payload (small JSON): origin `o`, audit ids `a` [first, last], moment `m`, and `e` =
    [[entidade, id, login], …], or null when there were too many (the listener reads the audit then)."""
    ids = [a[0] for a in auditados]
    entidades = sorted({(a[1], a[2], a[3]) for a in auditados}, key=lambda e: (e[0], e[1] or "", e[2] or ""))
    dados: dict[str, Any] = {
        "o": origem,
        "a": [min(ids), max(ids)],
        "m": relogio.agora().isoformat(timespec="seconds"),
        "e": [list(e) for e in entidades] if len(entidades) <= _MAX_ENTIDADES_AVISO else None,
    }
    texto = json.dumps(dados, ensure_ascii=False, separators=(",", ":"))
    if len(texto.encode("utf-8")) > 7000:  # long logins or ids: still below the server's 8,000 bytes
        dados["e"] = None
        texto = json.dumps(dados, ensure_ascii=False, separators=(",", ":"))
    return texto


event.listen(so.Session, "after_flush", _depois_do_flush)
event.listen(so.Session, "before_commit", _antes_do_commit)
event.listen(so.Session, "after_commit", _depois_do_commit)
event.listen(so.Session, "after_soft_rollback", _depois_do_rollback)
