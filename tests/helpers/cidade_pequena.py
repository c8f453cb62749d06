"""The trust tests' small city, inserted directly (those tests are about trust, not about the registries'
forms): one operator with a line, a bus and a driver, and an SMSU inspector."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy.orm as so

from secretaria.models import Empregado, Fiscal, Linha, Operadora, Veiculo


@dataclass(frozen=True)
class Cidade:
    operadora_id: int
    fiscal_id: int
    linha_id: int
    veiculo_id: int
    empregado_id: int


def inserir(s: so.Session, *, delegacao: str) -> Cidade:
    """The city in the session `s` (flushed, not committed); the operator holds a `delegacao`
    ("concessao" or "permissao", which the cassação needs)."""
    op = Operadora(
        razao_social="Viação Princesa do Sul Ltda.",
        cnpj="11222333000181",
        delegacao=delegacao,
        logradouro="Rua Quinze de Novembro",
        alterado_por="teste",
    )
    s.add(op)
    s.flush()
    linha = Linha(codigo="L10", nome="Centro–Fragata", operadora_id=op.id, alterado_por="teste")
    s.add(linha)
    s.flush()
    veiculo = Veiculo(
        prefixo="101",
        placa="IAB1C23",
        placa_chave="IAB1C23",
        renavam="00123456789",
        operadora_id=op.id,
        linha_id=linha.id,
        alterado_por="teste",
    )
    empregado = Empregado(nome="João Motorista", cpf="11144477735", operadora_id=op.id, alterado_por="teste")
    fiscal = Fiscal(nome="Fábio Fiscal", matricula="SMSU-001", alterado_por="teste")
    s.add_all([veiculo, empregado, fiscal])
    s.flush()
    return Cidade(op.id, fiscal.id, linha.id, veiculo.id, empregado.id)
