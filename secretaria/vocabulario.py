"""The office's own words for the code lists (`codigos`), as its spreadsheets and paper books write them.

One table per code list, beside the lists themselves, so a new code gets its words here too: the import
reads "Concessionária" as `concessao`, "Em operação" as active, "Aposentado" as an inactive inspector. A
word is compared without case, accents or punctuation (`chave`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from secretaria.codigos import Delegacao, Funcao, ResultadoRecurso, SituacaoVeiculo

__all__ = ["SINONIMOS", "chave", "ler_booleano", "ler_codigo"]


def chave(texto: str) -> str:
    """ "Concessionária " → "concessionaria": casefold, no accents, one space between words."""
    semacento = unicodedata.normalize("NFKD", texto)
    semacento = "".join(c for c in semacento if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^0-9a-z]+", " ", semacento).split())


SIM = frozenset(
    {
        "sim",
        "s",
        "x",
        "1",
        "true",
        "verdadeiro",
        "yes",
        "ativo",
        "ativa",
        "em operacao",
        "operando",
        "em atividade",
        "em servico",
        "vigente",
        "pago",
        "paga",
        "quitado",
        "quitada",
    }
)
"""Yes, and the words that mean "still active" (a line, an inspector) or "paid"."""
NAO = frozenset(
    {
        "nao",
        "n",
        "0",
        "false",
        "falso",
        "no",
        "inativo",
        "inativa",
        "desativado",
        "desativada",
        "extinta",
        "extinto",
        "suspensa",
        "aposentado",
        "aposentada",
        "exonerado",
        "exonerada",
        "desligado",
        "desligada",
        "afastado",
        "afastada",
        "em aberto",
        "aberto",
        "nao pago",
    }
)
"""No, and the words that mean "no longer active" (a line, an inspector) or "not paid"."""

SINONIMOS: dict[str, dict[str, str]] = {
    "delegacao": {
        "concessao": Delegacao.CONCESSAO, "concessionaria": Delegacao.CONCESSAO,
        "modalidade concessionaria": Delegacao.CONCESSAO, "contrato concessao": Delegacao.CONCESSAO,
        "permissao": Delegacao.PERMISSAO, "permissionaria": Delegacao.PERMISSAO,
        "modalidade permissionaria": Delegacao.PERMISSAO, "termo permissao": Delegacao.PERMISSAO,
    },
    "situacao_veiculo": {
        "ativo": SituacaoVeiculo.ATIVO, "ativa": SituacaoVeiculo.ATIVO, "em operacao": SituacaoVeiculo.ATIVO,
        "operando": SituacaoVeiculo.ATIVO, "em circulacao": SituacaoVeiculo.ATIVO,
        "reserva": SituacaoVeiculo.RESERVA, "reserva tecnica": SituacaoVeiculo.RESERVA,
        "baixado": SituacaoVeiculo.BAIXADO, "baixada": SituacaoVeiculo.BAIXADO,
        "desativado": SituacaoVeiculo.BAIXADO, "desativada": SituacaoVeiculo.BAIXADO,
        "fora de operacao": SituacaoVeiculo.BAIXADO, "vendido": SituacaoVeiculo.BAIXADO,
        "sucateado": SituacaoVeiculo.BAIXADO,
    },
    "funcao": {
        "motorista": Funcao.MOTORISTA, "condutor": Funcao.MOTORISTA, "motorista cobrador": Funcao.MOTORISTA,
        "cobrador": Funcao.COBRADOR, "cobradora": Funcao.COBRADOR, "trocador": Funcao.COBRADOR,
        "fiscal": Funcao.FISCAL_EMPRESA, "fiscal empresa": Funcao.FISCAL_EMPRESA,
        "fiscal da empresa": Funcao.FISCAL_EMPRESA, "despachante": Funcao.FISCAL_EMPRESA,
        "outro": Funcao.OUTRO, "outros": Funcao.OUTRO, "mecanico": Funcao.OUTRO,
        "administrativo": Funcao.OUTRO,
    },
    "recurso": {
        "pendente": ResultadoRecurso.PENDENTE, "em analise": ResultadoRecurso.PENDENTE,
        "aguardando julgamento": ResultadoRecurso.PENDENTE,
        "negado": ResultadoRecurso.NEGADO, "indeferido": ResultadoRecurso.NEGADO,
        "improvido": ResultadoRecurso.NEGADO, "nao provido": ResultadoRecurso.NEGADO,
        "provido": ResultadoRecurso.PROVIDO, "deferido": ResultadoRecurso.PROVIDO,
        "provido em parte": ResultadoRecurso.PROVIDO_PARCIALMENTE,
        "parcialmente provido": ResultadoRecurso.PROVIDO_PARCIALMENTE,
        "deferido em parte": ResultadoRecurso.PROVIDO_PARCIALMENTE,
        "provido parcialmente": ResultadoRecurso.PROVIDO_PARCIALMENTE,
    },
    "resultado": {
        "aplicada": "aplicada", "penalidade aplicada": "aplicada", "multado": "aplicada",
        "multa": "aplicada", "multa aplicada": "aplicada", "procedente": "aplicada", "punido": "aplicada",
        "arquivado": "arquivado", "arquivada": "arquivado", "improcedente": "arquivado",
        "insubsistente": "arquivado", "cancelado": "arquivado",
    },
    "encerramento": {
        "pago": "pago", "paga": "pago", "quitado": "pago", "quitada": "pago",
        "divida ativa": "divida_ativa", "inscrito em divida ativa": "divida_ativa", "da": "divida_ativa",
        "arquivado": "arquivado", "arquivada": "arquivado", "encerrado": "arquivado",
        "encerrada": "arquivado", "baixado": "arquivado",
    },
}  # fmt: skip
"""Per code list: the office's word (as `chave` writes it) → code."""


def ler_booleano(texto: str) -> bool | None:
    """Sim/Não and the words for active/inactive and paid/unpaid; None when the word is neither."""
    palavra = chave(texto)
    if palavra in SIM:
        return True
    if palavra in NAO:
        return False
    return None


def ler_codigo(lista: str | None, rotulos: Mapping[str, str], texto: str) -> str | None:
    """The code of `texto` in a code list: its code, its label, or one of the office's words for it."""
    palavra = chave(texto)
    for codigo, rotulo in rotulos.items():
        if palavra in (chave(str(codigo)), chave(rotulo)):
            return str(codigo)
    achado = SINONIMOS.get(lista or "", {}).get(palavra)
    return None if achado is None else str(achado)
