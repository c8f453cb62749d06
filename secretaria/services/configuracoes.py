"""The settings the administrator may change: daily copies kept, days to decide before an auto is overdue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy.orm as so

from secretaria.db import UnidadeDeTrabalho
from secretaria.models import Configuracao
from secretaria.services import auditoria
from secretaria.services.base import Ator, ErroDominio, exigir_papel

CHAVE_COPIAS_BACKUP = "backup_manter"
"""The key `services.backup.copias_mantidas` reads."""
COPIAS_BACKUP_PADRAO, COPIAS_BACKUP_MAXIMO = 7, 365
CHAVE_DIAS_DECISAO = "dias_para_decidir"
"""The key `services.filas.dias_para_decidir` reads (an intimated auto is overdue for decision this many
days after its defence deadline)."""
DIAS_DECISAO_PADRAO, DIAS_DECISAO_MAXIMO = 30, 365
CHAVE_PRAZO_PAGAMENTO = "prazo_pagamento_dias"
PRAZO_PAGAMENTO_PADRAO, PRAZO_PAGAMENTO_MAXIMO = 30, 365


@dataclass(frozen=True)
class Configuracoes:
    copias_backup: int
    """Daily SQLite copies kept (services.backup)."""
    dias_decisao_atrasada: int
    """Days after the defence deadline when an undecided auto enters the "overdue decisions" queue."""
    prazo_pagamento_dias: int = PRAZO_PAGAMENTO_PADRAO
    """Days to pay a fine, counted from the day the penalty becomes final (stated on the decision notice)."""


def obter_configuracoes(sessao: so.Session) -> Configuracoes:
    return Configuracoes(
        copias_backup=_inteiro(sessao, CHAVE_COPIAS_BACKUP, COPIAS_BACKUP_PADRAO, 1, COPIAS_BACKUP_MAXIMO),
        dias_decisao_atrasada=_inteiro(
            sessao, CHAVE_DIAS_DECISAO, DIAS_DECISAO_PADRAO, 0, DIAS_DECISAO_MAXIMO
        ),
        prazo_pagamento_dias=_inteiro(
            sessao, CHAVE_PRAZO_PAGAMENTO, PRAZO_PAGAMENTO_PADRAO, 1, PRAZO_PAGAMENTO_MAXIMO
        ),
    )


def salvar_configuracoes(
    uow: UnidadeDeTrabalho,
    ator: Ator,
    *,
    copias_backup: int,
    dias_decisao_atrasada: int,
    prazo_pagamento_dias: int | None = None,
) -> None:
    """Save the settings; `prazo_pagamento_dias` None keeps the one stored."""
    exigir_papel(ator, "administrador", acao="alterar as configurações")
    verificar = [
        (copias_backup, "copias_backup", 1, COPIAS_BACKUP_MAXIMO, "Cópias de segurança mantidas"),
        (dias_decisao_atrasada, "dias_decisao_atrasada", 0, DIAS_DECISAO_MAXIMO, "Dias para decidir"),
    ]
    if prazo_pagamento_dias is not None:
        verificar.append(
            (
                prazo_pagamento_dias,
                "prazo_pagamento_dias",
                1,
                PRAZO_PAGAMENTO_MAXIMO,
                "Prazo para pagar a multa",
            )
        )
    for valor, campo, minimo, maximo, rotulo in verificar:
        if isinstance(valor, bool) or not isinstance(valor, int) or not minimo <= valor <= maximo:
            raise ErroDominio(f"{rotulo}: informe um número inteiro de {minimo} a {maximo}.", campo)
    with uow:
        s = uow.session
        mudancas = {CHAVE_COPIAS_BACKUP: str(copias_backup), CHAVE_DIAS_DECISAO: str(dias_decisao_atrasada)}
        if prazo_pagamento_dias is not None:
            mudancas[CHAVE_PRAZO_PAGAMENTO] = str(prazo_pagamento_dias)
        gravar_valores(s, ator, "alterar_configuracoes", mudancas)
        uow.commit()


def gravar_valores(sessao: so.Session, ator: Ator, acao: str, mudancas: dict[str, str]) -> None:
    """Write each key's new value into the settings table, with one audit row `acao` that holds what each
    key held before (None: not set); the caller's unit of work commits."""
    antes: dict[str, Any] = {}
    for chave, novo in mudancas.items():
        registro = sessao.get(Configuracao, chave)
        antes[chave] = None if registro is None else registro.valor
        if registro is None:
            sessao.add(Configuracao(chave=chave, valor=novo))
        else:
            registro.valor = novo
    sessao.flush()
    auditoria.registrar(sessao, ator, acao, "configuracao", None, antes, mudancas)


def _inteiro(s: so.Session, chave: str, padrao: int, minimo: int, maximo: int) -> int:
    registro = s.get(Configuracao, chave)
    try:
        valor = int(registro.valor) if registro is not None else padrao
    except ValueError:
        return padrao
    return valor if minimo <= valor <= maximo else padrao
