"""Administration: users and roles, URM values, the calendar, the catalogue, letterhead and settings."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.codigos import OrigemDispositivo, Papel, check_em
from secretaria.models.base import VALOR_URM, Base, Versionado, agora

PAPEIS = tuple(Papel)


class Usuario(Versionado, Base):
    __tablename__ = "usuario"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    login: so.Mapped[str] = so.mapped_column(sa.String(60), unique=True)
    nome: so.Mapped[str] = so.mapped_column(sa.String(200))
    senha_hash: so.Mapped[str] = so.mapped_column(sa.String(300))
    senha_versao: so.Mapped[int] = so.mapped_column(default=1, server_default=sa.text("1"))
    """How many times the password was set: what the audit keeps of it ("alterada nº N"), never the hash."""
    ativo: so.Mapped[bool] = so.mapped_column(default=True)
    falhas_login: so.Mapped[int] = so.mapped_column(default=0)
    bloqueado_ate: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime)
    ultimo_acesso: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime)
    trocar_senha: so.Mapped[bool] = so.mapped_column(default=False, server_default=sa.false())
    """Set when the administrator reset the password as temporary; cleared by the user's own change."""

    papeis: so.Mapped[list[UsuarioPapel]] = so.relationship(
        back_populates="usuario", cascade="all, delete-orphan", lazy="selectin"
    )

    @property
    def nomes_papeis(self) -> frozenset[str]:
        return frozenset(p.papel for p in self.papeis)


class UsuarioPapel(Base):
    __tablename__ = "usuario_papel"
    __table_args__ = (sa.CheckConstraint(check_em("papel", Papel), name="papel_valido"),)

    usuario_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("usuario.id", ondelete="CASCADE"), primary_key=True
    )
    papel: so.Mapped[str] = so.mapped_column(sa.String(20), primary_key=True)

    usuario: so.Mapped[Usuario] = so.relationship(back_populates="papeis")


class ValorURM(Versionado, Base):
    """One row of the dated URM table: the value in force from `vigencia` until the next row."""

    __tablename__ = "valor_urm"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    vigencia: so.Mapped[date] = so.mapped_column(sa.Date, unique=True)
    valor: so.Mapped[Decimal] = so.mapped_column(VALOR_URM)
    ato: so.Mapped[str] = so.mapped_column(sa.String(200))


class DiaNaoUtil(Versionado, Base):
    """Municipal holidays and decreed "pontos facultativos" (national and RS holidays come from `holidays`)."""

    __tablename__ = "dia_nao_util"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    data: so.Mapped[date] = so.mapped_column(sa.Date, unique=True)
    descricao: so.Mapped[str] = so.mapped_column(sa.String(200))
    ato: so.Mapped[str | None] = so.mapped_column(sa.String(200))


class DispositivoCatalogo(Versionado, Base):
    """A provision that autos can cite: the 55 of the law (seeded, immutable) or a contractual one.

    `origem` = "lei" rows mirror `secretaria/resources/catalogo.csv`; only 1-X's missing tipo may be set,
    once, with the act that decided it (`ato_tipo`).
    """

    __tablename__ = "dispositivo"
    __table_args__ = (
        sa.CheckConstraint("tipo IS NULL OR tipo IN ('A','B','C','D','E')", name="tipo_valido"),
        sa.CheckConstraint(check_em("origem", OrigemDispositivo), name="origem_valida"),
    )

    codigo: so.Mapped[str] = so.mapped_column(sa.String(30), primary_key=True)
    origem: so.Mapped[str] = so.mapped_column(sa.String(10), default="lei")
    artigo: so.Mapped[int | None]
    inciso: so.Mapped[str | None] = so.mapped_column(sa.String(10))
    rotulo: so.Mapped[str] = so.mapped_column(sa.String(120))
    sujeito: so.Mapped[str] = so.mapped_column(sa.String(20))
    natureza: so.Mapped[str] = so.mapped_column(sa.String(20))
    texto: so.Mapped[str] = so.mapped_column(sa.Text)
    nota: so.Mapped[str | None] = so.mapped_column(sa.Text)
    tipo: so.Mapped[str | None] = so.mapped_column(sa.String(1))
    ato_tipo: so.Mapped[str | None] = so.mapped_column(sa.String(300))
    ativo: so.Mapped[bool] = so.mapped_column(default=True)


class DadosOrgao(Versionado, Base):
    """The issuing authority's data for letterheads (a single row, id = 1)."""

    __tablename__ = "dados_orgao"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    prefeitura: so.Mapped[str] = so.mapped_column(sa.String(200), default="Prefeitura Municipal de Pelotas")
    secretaria: so.Mapped[str] = so.mapped_column(
        sa.String(200), default="Secretaria Municipal de Serviços Urbanos"
    )
    secretario_nome: so.Mapped[str] = so.mapped_column(sa.String(200), default="")
    secretario_cargo: so.Mapped[str] = so.mapped_column(
        sa.String(200), default="Secretário Municipal de Serviços Urbanos"
    )
    """The title under the signature: "Secretária Municipal de Serviços Urbanos" when a woman signs."""
    endereco: so.Mapped[str] = so.mapped_column(sa.String(300), default="")
    cidade: so.Mapped[str] = so.mapped_column(sa.String(100), default="Pelotas/RS")
    telefone: so.Mapped[str] = so.mapped_column(sa.String(60), default="")
    email: so.Mapped[str] = so.mapped_column(sa.String(200), default="")
    horario_expediente: so.Mapped[str] = so.mapped_column(sa.String(200), default="", server_default="")
    """Office hours of the protocol where defences are filed ("de segunda a sexta-feira, das 8h às 14h")."""
    pagamento_instrucoes: so.Mapped[str] = so.mapped_column(sa.String(500), default="", server_default="")
    """Where and how a fine is paid, as the decision notice states it."""


class Configuracao(Base):
    """Small settings (backup retention, …) as text key/value pairs."""

    __tablename__ = "configuracao"

    chave: so.Mapped[str] = so.mapped_column(sa.String(60), primary_key=True)
    valor: so.Mapped[str] = so.mapped_column(sa.Text)


class Numeracao(Base):
    """The per-year sequences ("AI", "REP"): incremented by UPDATE … RETURNING inside the saving transaction,
    so two users saving at once can never get the same number and a rolled-back save leaves no gap."""

    __tablename__ = "numeracao"

    serie: so.Mapped[str] = so.mapped_column(sa.String(10), primary_key=True)
    ano: so.Mapped[int] = so.mapped_column(primary_key=True, autoincrement=False)
    ultimo: so.Mapped[int] = so.mapped_column(default=0)


class Auditoria(Base):
    """Append-only log: who changed what, when, before → after; each row chains the previous row's hash."""

    __tablename__ = "auditoria"

    id: so.Mapped[int] = so.mapped_column(
        sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True
    )
    momento: so.Mapped[datetime] = so.mapped_column(sa.DateTime, default=agora, index=True)
    usuario_login: so.Mapped[str | None] = so.mapped_column(sa.String(60), index=True)
    acao: so.Mapped[str] = so.mapped_column(sa.String(60))
    entidade: so.Mapped[str] = so.mapped_column(sa.String(60))
    entidade_id: so.Mapped[str | None] = so.mapped_column(sa.String(60))
    antes: so.Mapped[str | None] = so.mapped_column(sa.Text)
    depois: so.Mapped[str | None] = so.mapped_column(sa.Text)
    hash_anterior: so.Mapped[str] = so.mapped_column(sa.String(64))
    hash: so.Mapped[str] = so.mapped_column(sa.String(64))
    assinatura: so.Mapped[str | None] = so.mapped_column(sa.String(150))
    """On SQLite, "<chave_assinatura.id>:<Ed25519 signature in hex>" of the row's `hash` by its author's key
    (`services.chaves`); None for rows written before migration 0018, the few kinds nobody logged in can
    sign (a wrong password, the law's catalogue at start-up), and every row on PostgreSQL."""

    __table_args__ = (sa.Index("ix_auditoria_entidade", "entidade", "entidade_id"),)


class ChaveAssinatura(Base):
    """A user's Ed25519 signing key (SQLite): the private half sealed with a key derived from the user's
    password, the public half certified by the administrator who created the account or reset its password.

    A reset makes a new key and marks the old one inactive; old keys are never deleted, so the rows they
    signed keep verifying."""

    __tablename__ = "chave_assinatura"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    usuario_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("usuario.id"), index=True)
    publica: so.Mapped[str] = so.mapped_column(sa.String(64))
    """The raw 32-byte public key, in hex."""
    selada: so.Mapped[str] = so.mapped_column(sa.String(300))
    """"scrypt$N$r$p$salt$nonce$ciphertext": the raw private key under AES-256-GCM, its key derived from the
    user's password by scrypt (the additional data binds it to the account and the public key)."""
    motivo: so.Mapped[str] = so.mapped_column(sa.String(30))
    """Why it was made: criacao, redefinicao, primeiro_administrador, primeira_entrada."""
    criada_em: so.Mapped[datetime] = so.mapped_column(sa.DateTime)
    certificada_por: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("chave_assinatura.id"))
    """The administrator's key that signed `certificado`; None when the key certifies itself (the first
    administrator's, or a key made at an account's first login after the upgrade)."""
    certificado: so.Mapped[str] = so.mapped_column(sa.String(128))
    """Ed25519 signature (hex) of the certificate's text (`services.chaves.texto_certificado`)."""
    ativa: so.Mapped[bool] = so.mapped_column(default=True)


__all__ = [
    "PAPEIS",
    "Auditoria",
    "ChaveAssinatura",
    "Configuracao",
    "DadosOrgao",
    "DiaNaoUtil",
    "DispositivoCatalogo",
    "Numeracao",
    "Usuario",
    "UsuarioPapel",
    "ValorURM",
]
