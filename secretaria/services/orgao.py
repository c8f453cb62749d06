"""The issuing authority's data printed on every document's letterhead (role administrador to change it)."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from datetime import datetime

import sqlalchemy.orm as so

from secretaria.db import UnidadeDeTrabalho
from secretaria.models import DadosOrgao, Operadora
from secretaria.reports.dados import DadosOperadora, Timbre
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
from secretaria.services.rotulos import formatar_cnpj

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


# --- what the documents read from it ---------------------------------------------------------------------


def timbre(sessao: so.Session) -> Timbre:
    """The letterhead from the administration data (`DadosOrgao`, the single row id = 1)."""
    o = sessao.get(DadosOrgao, 1)
    if o is None:  # seeded at every opening; only a damaged database lacks it
        raise NaoEncontrado("Os dados do órgão não foram encontrados; reabra o banco de dados.")
    cidade, _barra, uf = (o.cidade or "Pelotas/RS").rpartition("/")
    if not cidade:  # "Pelotas" without the state
        cidade, uf = uf, "RS"
    return Timbre(
        secretario_nome=o.secretario_nome.strip(),
        endereco=o.endereco.strip(),
        cidade=cidade.strip(),
        uf=uf.strip() or "RS",
        telefone=o.telefone.strip(),
        email=o.email.strip(),
        prefeitura=o.prefeitura.strip() or "Prefeitura Municipal de Pelotas",
        secretaria=o.secretaria.strip() or "Secretaria Municipal de Serviços Urbanos",
        secretario_cargo=(o.secretario_cargo or "").strip() or "Secretário Municipal de Serviços Urbanos",
    )


def timbre_para_assinar(sessao: so.Session, documento: str) -> Timbre:
    """The letterhead of a document the Secretary signs and that says where to file: both must be filled."""
    t = timbre(sessao)
    faltam = [
        nome
        for nome, valor in (("o nome do(a) Secretário(a)", t.secretario_nome), ("o endereço", t.endereco))
        if not valor
    ]
    if faltam:
        raise ErroDominio(
            f"Não é possível emitir {documento}: faltam nos dados do órgão {' e '.join(faltam)}. "
            "O administrador os preenche em Administração › Dados do órgão.",
            "dados_orgao",
        )
    return t


def dados_operadora(o: Operadora) -> DadosOperadora:
    """The addressee's block every notice prints beside the letterhead."""
    return DadosOperadora(
        razao_social=o.razao_social,
        cnpj=formatar_cnpj(o.cnpj),
        endereco=o.endereco_completo,
        nome_fantasia=o.nome_fantasia or None,
    )


def horario_expediente(sessao: so.Session, documento: str) -> str:
    """The protocol's office hours, which the intimação must state (Lei 9.784/1999, art. 26 § 1º)."""
    o = sessao.get(DadosOrgao, 1)
    horario = (o.horario_expediente if o is not None else "").strip()
    if not horario:
        raise ErroDominio(
            f"Não é possível emitir {documento}: falta nos dados do órgão o horário de expediente do "
            "protocolo, onde a defesa é recebida. O administrador o preenche em Administração › Dados do órgão.",
            "dados_orgao",
        )
    return horario


def dados_pagamento(sessao: so.Session) -> tuple[int, str]:
    """(days to pay after the penalty becomes final, where and how to pay): the notice of a fine states both."""
    from secretaria.services.configuracoes import obter_configuracoes

    o = sessao.get(DadosOrgao, 1)
    instrucoes = (o.pagamento_instrucoes if o is not None else "").strip()
    if not instrucoes:
        raise ErroDominio(
            "Não é possível emitir a notificação da decisão: falta nos dados do órgão onde e como pagar a "
            "multa. O administrador o preenche em Administração › Dados do órgão.",
            "dados_orgao",
        )
    return obter_configuracoes(sessao).prazo_pagamento_dias, instrucoes
