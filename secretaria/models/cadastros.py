"""Registries: operators, lines, vehicles (with their history), employees and agents, SMSU inspectors."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.codigos import Delegacao, check_em
from secretaria.models.base import Base, Versionado

FUNCOES_EMPREGADO = ("motorista", "cobrador", "fiscal_empresa", "outro")
SITUACOES_VEICULO = ("ativo", "reserva", "baixado")


class Operadora(Versionado, Base):
    """Concessionária or permissionária. Its status (ativa / suspensa / cassada) is derived from the
    suspensions and the cassação procedure, never typed by hand (see services.cadastros.situacao_operadora)."""

    __tablename__ = "operadora"
    __table_args__ = (sa.CheckConstraint(check_em("delegacao", Delegacao), name="delegacao_valida"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    razao_social: so.Mapped[str] = so.mapped_column(sa.String(200), index=True)
    nome_fantasia: so.Mapped[str] = so.mapped_column(sa.String(200), default="")
    cnpj: so.Mapped[str] = so.mapped_column(sa.String(14), unique=True)
    delegacao: so.Mapped[str] = so.mapped_column(sa.String(10), default="concessao")
    logradouro: so.Mapped[str] = so.mapped_column(sa.String(200), default="")
    numero_endereco: so.Mapped[str] = so.mapped_column(sa.String(20), default="")
    complemento: so.Mapped[str] = so.mapped_column(sa.String(100), default="")
    bairro: so.Mapped[str] = so.mapped_column(sa.String(100), default="")
    cidade: so.Mapped[str] = so.mapped_column(sa.String(100), default="Pelotas")
    uf: so.Mapped[str] = so.mapped_column(sa.String(2), default="RS")
    cep: so.Mapped[str] = so.mapped_column(sa.String(8), default="")
    telefone: so.Mapped[str] = so.mapped_column(sa.String(60), default="")
    email: so.Mapped[str] = so.mapped_column(sa.String(200), default="")
    representante_nome: so.Mapped[str] = so.mapped_column(sa.String(200), default="")
    representante_cpf: so.Mapped[str] = so.mapped_column(sa.String(11), default="")
    contrato_numero: so.Mapped[str] = so.mapped_column(sa.String(60), default="")
    contrato_inicio: so.Mapped[date | None] = so.mapped_column(sa.Date)
    contrato_fim: so.Mapped[date | None] = so.mapped_column(sa.Date)
    cassada_em: so.Mapped[date | None] = so.mapped_column(sa.Date)

    @property
    def endereco_completo(self) -> str:
        partes = [f"{self.logradouro}, {self.numero_endereco}".strip(", ")]
        if self.complemento:
            partes.append(self.complemento)
        if self.bairro:
            partes.append(self.bairro)
        partes.append(f"{self.cidade}/{self.uf}")
        if self.cep:
            partes.append(f"CEP {self.cep[:5]}-{self.cep[5:]}")
        return " — ".join(p for p in partes if p)


class Linha(Versionado, Base):
    __tablename__ = "linha"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    codigo: so.Mapped[str] = so.mapped_column(sa.String(20), unique=True)
    nome: so.Mapped[str] = so.mapped_column(sa.String(200))
    itinerario: so.Mapped[str] = so.mapped_column(sa.Text, default="")
    operadora_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("operadora.id"), index=True)
    ativa: so.Mapped[bool] = so.mapped_column(default=True)

    operadora: so.Mapped[Operadora] = so.relationship()


class Veiculo(Versionado, Base):
    __tablename__ = "veiculo"
    __table_args__ = (
        sa.UniqueConstraint("operadora_id", "prefixo"),
        sa.Index("ix_veiculo_vistoria", "vistoria_validade"),
        sa.Index("ix_veiculo_licenca", "licenca_validade"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    prefixo: so.Mapped[str] = so.mapped_column(sa.String(20))
    placa: so.Mapped[str] = so.mapped_column(sa.String(7))
    # Both forms of one plate (ABC1234 / ABC1C34) share this key, so a re-plated bus cannot be registered twice.
    placa_chave: so.Mapped[str] = so.mapped_column(sa.String(7), unique=True)
    renavam: so.Mapped[str] = so.mapped_column(sa.String(11), unique=True)
    operadora_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("operadora.id"), index=True)
    linha_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("linha.id"), index=True)
    marca_modelo: so.Mapped[str] = so.mapped_column(sa.String(120), default="")
    ano_fabricacao: so.Mapped[int | None]
    lugares_sentados: so.Mapped[int] = so.mapped_column(default=0)
    lugares_em_pe: so.Mapped[int] = so.mapped_column(default=0)
    vistoria_validade: so.Mapped[date | None] = so.mapped_column(sa.Date)
    licenca_validade: so.Mapped[date | None] = so.mapped_column(sa.Date)
    situacao: so.Mapped[str] = so.mapped_column(sa.String(10), default="ativo")

    operadora: so.Mapped[Operadora] = so.relationship()
    linha: so.Mapped[Linha | None] = so.relationship()


class VeiculoHistorico(Base):
    """Where a vehicle served: one row per period with an operator and (optionally) a line."""

    __tablename__ = "veiculo_historico"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    veiculo_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("veiculo.id"), index=True)
    operadora_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("operadora.id"))
    linha_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("linha.id"))
    inicio: so.Mapped[date] = so.mapped_column(sa.Date)
    fim: so.Mapped[date | None] = so.mapped_column(sa.Date)
    registrado_por: so.Mapped[str | None] = so.mapped_column(sa.String(60))


class Empregado(Versionado, Base):
    """Employee or agent of an operator (art. 1º IV and XVIII: registration, admission and dismissal)."""

    __tablename__ = "empregado"
    __table_args__ = (sa.UniqueConstraint("operadora_id", "cpf"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    nome: so.Mapped[str] = so.mapped_column(sa.String(200), index=True)
    cpf: so.Mapped[str] = so.mapped_column(sa.String(11), index=True)
    funcao: so.Mapped[str] = so.mapped_column(sa.String(20), default="motorista")
    operadora_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("operadora.id"), index=True)
    carteira_cadastro: so.Mapped[str] = so.mapped_column(sa.String(30), default="")
    admissao: so.Mapped[date | None] = so.mapped_column(sa.Date)
    demissao: so.Mapped[date | None] = so.mapped_column(sa.Date)

    operadora: so.Mapped[Operadora] = so.relationship()


class Fiscal(Versionado, Base):
    """An inspector of the SMSU (who draws up autos)."""

    __tablename__ = "fiscal"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    nome: so.Mapped[str] = so.mapped_column(sa.String(200))
    matricula: so.Mapped[str] = so.mapped_column(sa.String(30), unique=True)
    ativo: so.Mapped[bool] = so.mapped_column(default=True)
    usuario_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("usuario.id"))


__all__ = [
    "FUNCOES_EMPREGADO",
    "SITUACOES_VEICULO",
    "Empregado",
    "Fiscal",
    "Linha",
    "Operadora",
    "Veiculo",
    "VeiculoHistorico",
]
