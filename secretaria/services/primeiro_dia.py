"""What a new installation still lacks before its documents can be issued (the "first day").

A notice cannot be issued without the URM value in force (the fine in R$), the letterhead (who signs, the
office's address), the protocol's office hours (where a defence is filed), the payment instructions (the
decision notice says where to pay) and at least one active inspector (who draws up an auto). The home
screen lists what is missing, each with where to fill it in, until it is done: one cheap read per load.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.models import DadosOrgao, Fiscal, ValorURM

__all__ = ["Pendencia", "pendencias", "texto_pendencias"]


@dataclass(frozen=True)
class Pendencia:
    chave: str
    texto: str
    """What is missing and where to fill it in, in the user's words."""


def pendencias(sessao: so.Session) -> tuple[Pendencia, ...]:
    """What is still missing, in the order a new office usually fills it in; empty when nothing is."""
    faltam: list[Pendencia] = []
    if sessao.scalar(sa.select(ValorURM.id).limit(1)) is None:
        faltam.append(Pendencia("urm", "o valor da URM (Administração › Tabela da URM)"))
    orgao = sessao.get(DadosOrgao, 1)
    if orgao is None or not orgao.secretario_nome.strip() or not orgao.endereco.strip():
        faltam.append(
            Pendencia(
                "timbre",
                "o cabeçalho dos documentos: quem assina e o endereço (Administração › Dados do órgão)",
            )
        )
    if orgao is None or not orgao.horario_expediente.strip():
        faltam.append(Pendencia("expediente", "o horário do protocolo (Administração › Dados do órgão)"))
    if orgao is None or not orgao.pagamento_instrucoes.strip():
        faltam.append(
            Pendencia("pagamento", "as instruções de pagamento das multas (Administração › Dados do órgão)")
        )
    if sessao.scalar(sa.select(Fiscal.id).where(Fiscal.ativo.is_(True)).limit(1)) is None:
        faltam.append(Pendencia("fiscais", "os fiscais da SMSU (Cadastros › Fiscais, ou importe a planilha)"))
    return tuple(faltam)


def texto_pendencias(faltam: tuple[Pendencia, ...]) -> str | None:
    """One sentence for the home screen; None when nothing is missing."""
    if not faltam:
        return None
    itens = [p.texto for p in faltam]
    lista = itens[0] if len(itens) == 1 else "; ".join(itens[:-1]) + "; e " + itens[-1]
    return f"Antes de emitir documentos, falta cadastrar {lista}."
