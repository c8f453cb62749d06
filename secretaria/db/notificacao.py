"""Change notification: the audit rows each write session commits, sent to the other PCs with
`pg_notify` on PostgreSQL and kept as this Banco's own."""

from __future__ import annotations

import json
import uuid
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import event

if TYPE_CHECKING:
    # The ORM loads with the first unit of work (`Banco.fabrica`), not when the database opens: the login
    # window, shown right after, needs none of it.
    import sqlalchemy.orm as so

from secretaria import relogio

CANAL_MUDANCAS = "secretaria"
"""The PostgreSQL channel every committed act notifies (`services.mudancas` listens on it)."""


_MAX_ENTIDADES_AVISO = 40
"""Entities named in one notification at most; beyond that it says only "see the audit" (a payload is
limited to 8,000 bytes, and the listener reads the audit rows then)."""


_CHAVE_AUDITADOS = "secretaria_auditados"


@dataclass
class Origem:
    """Who this Banco is among the program's windows: an id sent with its notifications, and the audit rows
    its own units of work committed (recent ones), so a window can tell its own acts from another PC's."""

    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    proprios: deque[int] = field(default_factory=lambda: deque(maxlen=5000))

    def eh_proprio(self, auditoria_id: int) -> bool:
        return auditoria_id in self.proprios


def _ouvir_confirmacoes(fabrica: so.sessionmaker[so.Session], origem: Origem) -> None:
    """Every write session notes the audit rows it inserts; just before COMMIT a PostgreSQL session sends
    `pg_notify(CANAL_MUDANCAS, …)` inside the transaction (delivered only if it commits), naming the
    entities, the acting login and `origem.id`; after COMMIT the rows become `origem.proprios`."""

    def depois_do_flush(sessao: so.Session, _contexto: Any) -> None:
        # Imported at the first flush, not when the database opens: the models are a fifth of the
        # program's start, and the login window needs none of them.
        from secretaria.models import Auditoria

        novos = [obj for obj in sessao.new if isinstance(obj, Auditoria)]
        if novos:
            sessao.info.setdefault(_CHAVE_AUDITADOS, []).extend(
                (a.id, a.entidade, a.entidade_id, a.usuario_login) for a in novos
            )

    def antes_do_commit(sessao: so.Session) -> None:
        if sessao.get_bind().dialect.name != "postgresql":
            return
        sessao.flush()
        auditados = sessao.info.get(_CHAVE_AUDITADOS)
        if auditados:
            sessao.execute(
                sa.select(sa.func.pg_notify(CANAL_MUDANCAS, aviso_de_mudanca(origem.id, auditados)))
            )

    def depois_do_commit(sessao: so.Session) -> None:
        for auditado in sessao.info.pop(_CHAVE_AUDITADOS, ()):
            origem.proprios.append(auditado[0])

    def depois_do_rollback(sessao: so.Session) -> None:
        sessao.info.pop(_CHAVE_AUDITADOS, None)

    event.listen(fabrica, "after_flush", depois_do_flush)
    event.listen(fabrica, "before_commit", antes_do_commit)
    event.listen(fabrica, "after_commit", depois_do_commit)
    event.listen(fabrica, "after_soft_rollback", lambda sessao, _t: depois_do_rollback(sessao))


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
