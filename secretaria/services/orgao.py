"""The issuing authority's data printed on every document's letterhead (role administrador to change it)."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from datetime import datetime

import sqlalchemy.orm as so

from secretaria.db import UnidadeDeTrabalho
from secretaria.models import DadosOrgao
from secretaria.services import auditoria
from secretaria.services.base import (
    Ator,
    ErroDominio,
    NaoEncontrado,
    exigir_papel,
    texto_obrigatorio,
    texto_opcional,
    verificar_versao,
)

CARGO_SECRETARIO_PADRAO = "Secretário Municipal de Serviços Urbanos"


@dataclass(frozen=True)
class DadosDoOrgao:
    """The issuing authority's data printed on every document's letterhead."""

    prefeitura: str
    secretaria: str
    secretario_nome: str
    endereco: str
    cidade: str = "Pelotas/RS"
    telefone: str = ""
    email: str = ""
    secretario_cargo: str = CARGO_SECRETARIO_PADRAO
    """The title printed under the Secretary's signature ("Secretária Municipal de Serviços Urbanos")."""
    horario_expediente: str = ""
    """The protocol's office hours, stated on the intimação (Lei 9.784/1999, art. 26 § 1º, via REGRAS § 5)."""
    pagamento_instrucoes: str = ""
    """Where and how a fine is paid, stated on the decision notice."""


@dataclass(frozen=True)
class OrgaoDetalhe:
    dados: DadosDoOrgao
    versao: int
    alterado_em: datetime
    alterado_por: str | None


def obter_dados_orgao(sessao: so.Session) -> OrgaoDetalhe:
    o = sessao.get(DadosOrgao, 1)
    if o is None:  # seeded at every opening; only a damaged database lacks it
        raise NaoEncontrado("Os dados do órgão não foram encontrados; reabra o banco de dados.")
    dados = DadosDoOrgao(**{f.name: getattr(o, f.name) for f in fields(DadosDoOrgao)})
    return OrgaoDetalhe(dados, o.versao, o.alterado_em, o.alterado_por)


def salvar_dados_orgao(uow: UnidadeDeTrabalho, ator: Ator, dados: DadosDoOrgao, *, versao: int) -> None:
    exigir_papel(ator, "administrador", acao="alterar os dados do órgão")
    valores = {
        "prefeitura": texto_obrigatorio(dados.prefeitura, "prefeitura", "o nome da Prefeitura", 200),
        "secretaria": texto_obrigatorio(dados.secretaria, "secretaria", "o nome da Secretaria", 200),
        "secretario_nome": texto_obrigatorio(
            dados.secretario_nome, "secretario_nome", "o nome do(a) Secretário(a)", 200
        ),
        "secretario_cargo": texto_obrigatorio(
            dados.secretario_cargo,
            "secretario_cargo",
            "o cargo do(a) Secretário(a), como deve sair sob a assinatura",
            200,
        ),
        "endereco": texto_obrigatorio(dados.endereco, "endereco", "o endereço da Secretaria", 300),
        "cidade": texto_obrigatorio(dados.cidade, "cidade", "a cidade", 100),
        "telefone": texto_opcional(dados.telefone, "telefone", "o telefone", 60),
        "email": texto_opcional(dados.email, "email", "o e-mail", 200),
        "horario_expediente": texto_opcional(
            dados.horario_expediente, "horario_expediente", "o horário de expediente", 200
        ),
        "pagamento_instrucoes": texto_opcional(
            dados.pagamento_instrucoes, "pagamento_instrucoes", "onde e como pagar a multa", 500
        ),
    }
    if valores["email"] and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", valores["email"]):
        raise ErroDominio(f"E-mail “{valores['email']}” inválido.", "email")
    with uow:
        s = uow.session
        o = s.get(DadosOrgao, 1)
        if o is None:
            raise NaoEncontrado("Os dados do órgão não foram encontrados; reabra o banco de dados.")
        verificar_versao(o, versao, "Os dados do órgão")
        antes = auditoria.instantaneo(o)
        for chave, valor in valores.items():
            setattr(o, chave, valor)
        o.alterado_por = ator.login
        so.attributes.flag_modified(o, "alterado_por")
        s.flush()
        auditoria.registrar(s, ator, "editar_dados_orgao", "dados_orgao", 1, antes, auditoria.instantaneo(o))
        uow.commit()
