"""Each user's signing key (SQLite): every audit row a user's act writes is signed by that user.

On SQLite the database is one file every user of the PC can reach, so a row can be forged by anyone holding
the file; the chain only says the rows were not changed one by one. A signature makes a forged act
detectable: only a login unseals its user's key.

- The key is Ed25519 (`cryptography`). Its private half is stored sealed: AES-256-GCM under a key derived
  from the user's password by scrypt (N=2^14, r=8, p=1, a 16-byte salt of its own; the public key is the
  cipher's additional data). So what the file holds of the key tests a password guess no faster than the
  account's own scrypt hash beside it.
- The public half is certified: an administrator's key signs `texto_certificado` (the key's number, the
  account, the public key, why and when it was made). The administrator who creates an account or resets its
  password certifies its new key; the database's first administrator certifies their own (the root).
  Accounts that existed before the upgrade get their key at their next login, self-certified then: nobody
  else knows their password, and the termo de verificação prints every key's fingerprint for the
  administrator and the Secretary to recognise on paper.
- The key is unsealed by the login (`contas.autenticar`) and travels in the session's `Ator.chave`; the
  audit writer signs each row's hash with it (`assinar`). A password change re-seals the same key; a reset
  makes a new one and keeps the old (inactive): the rows it signed keep verifying.

Only on SQLite: on PostgreSQL the server writes the audit under each user's own database role.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from secretaria import relogio
from secretaria.models import ChaveAssinatura
from secretaria.services.base import Assinante

_N, _R, _P = 2**14, 8, 1
"""scrypt's cost for the sealing key: the account's password hash uses the same (about 50 ms here)."""
_DOMINIO_LINHA = b"secretaria/auditoria/assinatura/v1\n"
_DOMINIO_CERTIFICADO = b"secretaria/auditoria/certificado/v1\n"

MOTIVO_CRIACAO = "criacao"
MOTIVO_REDEFINICAO = "redefinicao"
MOTIVO_PRIMEIRO_ADMINISTRADOR = "primeiro_administrador"
MOTIVO_PRIMEIRA_ENTRADA = "primeira_entrada"
AUTOCERTIFICADAS = frozenset({MOTIVO_PRIMEIRO_ADMINISTRADOR, MOTIVO_PRIMEIRA_ENTRADA})
"""The only keys that may certify themselves: the database's first administrator's (nobody else exists to
certify it) and an account's key made at its first login after the upgrade (its creation was not signed)."""

ROTULOS_MOTIVO = {
    MOTIVO_CRIACAO: "certificada por {certificador} na criação da conta",
    MOTIVO_REDEFINICAO: "certificada por {certificador} na redefinição da senha",
    MOTIVO_PRIMEIRO_ADMINISTRADOR: "autocertificada: primeiro administrador do banco",
    MOTIVO_PRIMEIRA_ENTRADA: "autocertificada na primeira entrada após a atualização",
}


def usa_assinatura(sessao: so.Session) -> bool:
    """Whether acts are signed on this database: SQLite only (PostgreSQL keeps the audit in the server)."""
    return sessao.get_bind().dialect.name == "sqlite"


@dataclass(frozen=True, eq=False)
class ChaveAberta:
    """A user's key unsealed by their login, kept in memory for the session only (never written)."""

    chave_id: int
    usuario_id: int
    privada: Ed25519PrivateKey

    def assinar(self, hash_linha: str) -> str:
        """The value of `auditoria.assinatura` for a row whose hash is `hash_linha`."""
        return f"{self.chave_id}:{self.privada.sign(mensagem_da_linha(hash_linha)).hex()}"

    def certificar(self, texto: bytes) -> str:
        """An administrator's certificate of another key (`texto_certificado`), in hex."""
        return self.privada.sign(texto).hex()


def mensagem_da_linha(hash_linha: str) -> bytes:
    """What a row's signature signs: its SHA-256, which covers its number, moment, author, act, entity,
    images and the previous row's hash (so also its place in the chain)."""
    return _DOMINIO_LINHA + hash_linha.encode("ascii")


def texto_certificado(
    chave_id: int, usuario_id: int, login: str, publica: str, motivo: str, criada_em: datetime
) -> bytes:
    """What a certificate signs: the key's number, the account it belongs to, the public key, why and when."""
    campos = {
        "chave": chave_id,
        "usuario_id": usuario_id,
        "login": login,
        "publica": publica,
        "motivo": motivo,
        "criada_em": criada_em.isoformat(),
    }
    return _DOMINIO_CERTIFICADO + json.dumps(campos, sort_keys=True, separators=(",", ":")).encode("utf-8")


def impressao(publica: str) -> str:
    """A key's fingerprint as the termo prints it: the first 16 bytes of its SHA-256, in groups of four
    hex digits, short enough to compare aloud."""
    digito = hashlib.sha256(bytes.fromhex(publica)).hexdigest()[:32]
    return " ".join(digito[i : i + 4] for i in range(0, 32, 4))


def publica_valida(publica: str, assinatura: str, mensagem: bytes) -> bool:
    """Whether `assinatura` (hex) is `publica`'s (hex) signature of `mensagem`."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(publica)).verify(bytes.fromhex(assinatura), mensagem)
    except (InvalidSignature, ValueError):
        return False
    return True


# --- sealing ------------------------------------------------------------------------------------------------


def _derivar(senha: str, sal: bytes, n: int, r: int, p: int) -> bytes:
    return Scrypt(salt=sal, length=32, n=n, r=r, p=p).derive(senha.encode("utf-8", "surrogatepass"))


def _selar(privada: bytes, senha: str, publica: str) -> str:
    sal, nonce = os.urandom(16), os.urandom(12)
    cifrada = AESGCM(_derivar(senha, sal, _N, _R, _P)).encrypt(nonce, privada, publica.encode("ascii"))
    return f"scrypt${_N}${_R}${_P}${sal.hex()}${nonce.hex()}${cifrada.hex()}"


def _abrir_selada(selada: str, senha: str, publica: str) -> bytes | None:
    """The raw private key, or None when `senha` does not open it (or the sealed text is not one)."""
    try:
        esquema, n, r, p, sal, nonce, cifrada = selada.split("$")
        if esquema != "scrypt":
            return None
        chave = _derivar(senha, bytes.fromhex(sal), int(n), int(r), int(p))
        return AESGCM(chave).decrypt(bytes.fromhex(nonce), bytes.fromhex(cifrada), publica.encode("ascii"))
    except (InvalidTag, ValueError):
        return None


@dataclass(frozen=True)
class ChaveLida:
    """The active key of an account as the login reads it (in its read transaction)."""

    id: int
    publica: str
    selada: str


@dataclass(frozen=True, eq=False)
class ChaveNova:
    """A key made and sealed outside any transaction (scrypt takes ~50 ms), to be stored by `gravar`."""

    privada: Ed25519PrivateKey
    publica: str
    selada: str


def ler_ativa(sessao: so.Session, usuario_id: int) -> ChaveLida | None:
    linha = sessao.execute(
        sa.select(ChaveAssinatura.id, ChaveAssinatura.publica, ChaveAssinatura.selada)
        .where(ChaveAssinatura.usuario_id == usuario_id, ChaveAssinatura.ativa.is_(True))
        .order_by(ChaveAssinatura.id.desc())
        .limit(1)
    ).first()
    return None if linha is None else ChaveLida(int(linha.id), str(linha.publica), str(linha.selada))


def abrir(lida: ChaveLida, usuario_id: int, senha: str) -> ChaveAberta | None:
    """The key unsealed by the account's password; None when the password does not open it — then the key
    was not sealed by this program with this password (it was put in the file from outside)."""
    privada = _abrir_selada(lida.selada, senha, lida.publica)
    if privada is None:
        return None
    chave = Ed25519PrivateKey.from_private_bytes(privada)
    if _publica_de(chave) != lida.publica:
        return None
    return ChaveAberta(lida.id, usuario_id, chave)


def preparar(senha: str) -> ChaveNova:
    privada = Ed25519PrivateKey.generate()
    publica = _publica_de(privada)
    bruta = privada.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return ChaveNova(privada, publica, _selar(bruta, senha, publica))


def gravar(
    sessao: so.Session,
    usuario_id: int,
    login: str,
    nova: ChaveNova,
    motivo: str,
    certificador: Assinante | None,
) -> ChaveAberta:
    """Store `nova` as the account's active key (its earlier keys stay, inactive), certified by
    `certificador` (an administrator's key), or by itself when None (only the `AUTOCERTIFICADAS` reasons)."""
    assert certificador is not None or motivo in AUTOCERTIFICADAS
    sessao.execute(
        sa.update(ChaveAssinatura)
        .where(ChaveAssinatura.usuario_id == usuario_id, ChaveAssinatura.ativa.is_(True))
        .values(ativa=False)
    )
    registro = ChaveAssinatura(
        usuario_id=usuario_id,
        publica=nova.publica,
        selada=nova.selada,
        motivo=motivo,
        criada_em=relogio.agora().replace(microsecond=0),
        certificada_por=None if certificador is None else certificador.chave_id,
        certificado="",
        ativa=True,
    )
    sessao.add(registro)
    sessao.flush()
    texto = texto_certificado(registro.id, usuario_id, login, nova.publica, motivo, registro.criada_em)
    registro.certificado = (
        nova.privada.sign(texto).hex() if certificador is None else certificador.certificar(texto)
    )
    sessao.flush()
    return ChaveAberta(registro.id, usuario_id, nova.privada)


def nova_certificada(
    sessao: so.Session, usuario_id: int, login: str, senha: str, motivo: str, certificador: Assinante | None
) -> ChaveAberta | None:
    """A new key for an account whose password an administrator just set (creation, reset), certified by
    that administrator's key. Without one (an actor that did not log in: the system, a test's literal
    actor) the account's keys are only retired, and its next login makes a self-certified one."""
    if not usa_assinatura(sessao):
        return None
    if certificador is None:
        sessao.execute(
            sa.update(ChaveAssinatura)
            .where(ChaveAssinatura.usuario_id == usuario_id, ChaveAssinatura.ativa.is_(True))
            .values(ativa=False)
        )
        return None
    return gravar(sessao, usuario_id, login, preparar(senha), motivo, certificador)


def reselar(sessao: so.Session, usuario_id: int, senha_atual: str, nova_senha: str) -> None:
    """The user's own change of password: the same key, sealed under the new password (so the rows it
    signs go on being the same author's). Nothing to do for an account without a key yet."""
    if not usa_assinatura(sessao):
        return
    lida = ler_ativa(sessao, usuario_id)
    if lida is None:
        return
    aberta = abrir(lida, usuario_id, senha_atual)
    if aberta is None:
        # Not sealed by this password (put in the file from outside): retired, so the next login makes a
        # key the new password opens; the rows the foreign key signed stay as they are for `verificar`.
        sessao.execute(sa.update(ChaveAssinatura).where(ChaveAssinatura.id == lida.id).values(ativa=False))
        return
    bruta = aberta.privada.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    sessao.execute(
        sa.update(ChaveAssinatura)
        .where(ChaveAssinatura.id == lida.id)
        .values(selada=_selar(bruta, nova_senha, lida.publica))
    )


def _publica_de(privada: Ed25519PrivateKey) -> str:
    return privada.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
