"""Digital signatures of issued documents: PAdES with pyHanko, verifiable by anyone.

Brazilian public administration signs electronically (Lei 14.063/2020): a notice signed with the Secretary's
ICP-Brasil certificate can be checked with ordinary tools (Adobe Reader, the ITI verifier, pyHanko) without
this program. The pieces:

- a certificate is loaded on the user's own PC (an A1 `.pfx`/`.p12` file and its password, or an A3 token
  through PKCS#11) and kept in memory only; nothing of it is stored in the database;
- `ASSINATURA_POR_TIPO` says, per document kind, who signs it: the Secretary, or whoever issues it when
  Administração turned that kind on. A new kind of document is one line there;
- `conferir_certificado` refuses, before anything is rendered or written, a certificate out of its validity,
  one whose holder is not the signing user, and one revoked by a list the office installed;
- `assinar_pdf` adds the invisible PAdES signature and a visible stamp on the last page as an incremental
  update (the unsigned bytes stay a prefix of the signed file), timestamped (RFC 3161) when the office set a
  timestamp server;
- the office's trust roots (and revocation lists) are files the administrator installs once, stored in the
  database's configuration: the program ships none it could not keep current.

Verifying a PDF handed back is `services.verificacao_pdf`.
"""

from __future__ import annotations

import asyncio
import io
import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy.orm as so
from asn1crypto import crl as asn1_crl
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.serialization import Encoding, pkcs12
from pyhanko.keys.internal import (
    translate_pyca_cryptography_cert_to_asn1,
    translate_pyca_cryptography_key_to_asn1,
)
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.text import TextBoxStyle
from pyhanko.sign import fields, signers, timestamps
from pyhanko.sign.signers.pdf_cms import Signer, SimpleSigner
from pyhanko.stamp import TextStampStyle
from pyhanko_certvalidator import CertificateValidator, ValidationContext
from pyhanko_certvalidator.errors import RevokedError
from pyhanko_certvalidator.registry import SimpleCertificateStore

from secretaria import relogio
from secretaria.codigos import Papel
from secretaria.db import UnidadeDeTrabalho
from secretaria.lei.formato import formatar_data
from secretaria.models import Configuracao
from secretaria.services.base import Ator, ErroDominio, exigir_papel
from secretaria.services.configuracoes import gravar_valores

SECRETARIO = "secretario"
"""Signed by the Secretary (a user with the secretário role), always, when issued with a certificate."""
QUEM_EMITE = "emissor"
"""Signed by the user who issues it, when Administração turned the kind on."""

ASSINATURA_POR_TIPO: dict[str, str] = {
    "decisao": SECRETARIO,
    "auto": QUEM_EMITE,
    "intimacao": QUEM_EMITE,
    "lote_intimacoes": QUEM_EMITE,
    "retificacao": QUEM_EMITE,
    "intimacao_termo": QUEM_EMITE,
    "julgamento": SECRETARIO,
    "revisao": SECRETARIO,
    "processo": SECRETARIO,
}
"""Who signs each kind of issued document (`DocumentoEmitido.tipo`); a kind absent here is never signed
(the operator's ficha is a consultation, not an act). A new kind of document is one line here."""

CHAVE_CARIMBO_URL = "assinatura_carimbo_url"
CHAVE_TIPOS_EMISSOR = "assinatura_tipos_emissor"
CHAVE_RAIZES = "assinatura_raizes"
CHAVE_LCRS = "assinatura_lcrs"
CAMPO_ASSINATURA = "AssinaturaSecretaria"
LOCAL_ASSINATURA = "Pelotas/RS"
PREFIXO_IDENTIFICADOR = "secretaria-smsu-pelotas:"
"""Starts the signature's contact field: the SHA-256 of the unsigned rendering follows, so a changed copy
still names the document it came from."""
CAIXA_CARIMBO = (57, 3, 544, 33)
"""Where the visible stamp sits on the last page (points from the bottom-left of an A4 page): the strip under
the footer (`reports.pdf_base`: 12 mm of bottom margin, the footer above it), between the side margins, so it
never covers a renderer's text."""


@dataclass(frozen=True)
class Certificado:
    """A signing certificate loaded on this PC for this session (never stored)."""

    titular: str
    """The holder's name: the subject's CN, without the ":CPF" ICP-Brasil appends."""
    cpf: str | None
    emissor: str
    serie: str
    valido_de: datetime
    valido_ate: datetime
    assinante: Signer = field(repr=False, compare=False)

    @property
    def descricao(self) -> str:
        """ "nº 1A2B3C, emitido por AC …" (the stamp's and the list's words)."""
        return f"nº {self.serie}, emitido por {self.emissor}"

    def fechar(self) -> None:
        """Close an A3 token's session (logged in until closed): the next use asks for the PIN again."""
        sessao = getattr(self.assinante, "pkcs11_session", None)
        if sessao is not None:
            sessao.close()


def _cn(nome: x509.Name) -> str:
    valores = nome.get_attributes_for_oid(x509.NameOID.COMMON_NAME)
    return str(valores[0].value) if valores else nome.rfc4514_string()


def cn_asn1(nome: asn1_x509.Name) -> str:
    """The CN of a name as pyHanko hands it (asn1crypto), or the whole name when it has none."""
    valor = nome.native.get("common_name")
    if isinstance(valor, list):
        valor = valor[0] if valor else None
    return str(valor) if valor else str(nome.human_friendly)


def _certificado(cert: x509.Certificate, assinante: Signer) -> Certificado:
    cn = _cn(cert.subject)
    titular, _, cpf = cn.partition(":")
    return Certificado(
        titular=titular.strip(),
        cpf=cpf.strip() or None,
        emissor=_cn(cert.issuer),
        serie=format(cert.serial_number, "X"),
        valido_de=cert.not_valid_before_utc,
        valido_ate=cert.not_valid_after_utc,
        assinante=assinante,
    )


def carregar_a1(conteudo: bytes, senha: str) -> Certificado:
    """The A1 certificate of a `.pfx`/`.p12` file's bytes; a wrong password or a file that is not one is
    refused (field "senha" or "certificado")."""
    try:
        chave, cert, outros = pkcs12.load_key_and_certificates(conteudo, senha.encode("utf-8"))
    except ValueError as exc:
        if not conteudo.startswith(b"\x30"):
            raise ErroDominio(
                "O arquivo escolhido não é um certificado A1 (.pfx ou .p12).", "certificado"
            ) from exc
        raise ErroDominio("Senha do certificado incorreta. Nada foi emitido.", "senha") from exc
    if chave is None or cert is None:
        raise ErroDominio(
            "O arquivo do certificado não traz a chave privada junto do certificado: exporte o .pfx de novo "
            "incluindo a chave.",
            "certificado",
        )
    assinante = SimpleSigner(
        signing_cert=translate_pyca_cryptography_cert_to_asn1(cert),
        signing_key=translate_pyca_cryptography_key_to_asn1(chave),
        cert_registry=SimpleCertificateStore.from_certs(
            [translate_pyca_cryptography_cert_to_asn1(c) for c in outros]
        ),
    )
    return _certificado(cert, assinante)


def carregar_a3(modulo: str, pin: str, *, token: str | None = None) -> Certificado:
    """The certificate of an A3 token or smart card through its PKCS#11 module (the `.so`/`.dll` the card's
    maker installs) and its PIN; `token` names one when several are plugged in (default: the first)."""
    try:
        from pyhanko.sign import pkcs11 as ph_pkcs11
    except ImportError as exc:
        raise ErroDominio(
            "Este computador não tem o suporte a tokens A3 (python-pkcs11) instalado.", "token"
        ) from exc
    import pkcs11
    from pkcs11 import Attribute, ObjectClass
    from pyhanko.config.pkcs11 import TokenCriteria

    motivo = ""
    try:
        if token is None:  # the first token present (a reader may show empty slots beside it)
            token = next(iter(pkcs11.lib(modulo).get_tokens())).label
        sessao = ph_pkcs11.open_pkcs11_session(
            modulo, token_criteria=TokenCriteria(label=token), user_pin=pin
        )
    except pkcs11.exceptions.PinIncorrect:
        motivo = "PIN do token incorreto"
    except Exception as exc:
        motivo = f"token ausente ou módulo inválido ({type(exc).__name__}: {exc})"
    if motivo:
        # Raised outside the handler on purpose: the failed exception's traceback would keep the half-open
        # session alive, and PKCS#11 keeps a token logged in while any session of the program is open.
        raise ErroDominio(f"Não foi possível usar o token A3: {motivo}. Nada foi emitido.", "token")
    try:
        # The holder's certificate: the one whose id a private key shares (tokens pair them so; the
        # authorities' certificates on the token have no key). Searches are read to the end: one left open
        # blocks the token's next.
        chaves = {
            o[Attribute.ID] for o in list(sessao.get_objects({Attribute.CLASS: ObjectClass.PRIVATE_KEY}))
        }
        certificados = [
            o[Attribute.ID] for o in list(sessao.get_objects({Attribute.CLASS: ObjectClass.CERTIFICATE}))
        ]
        identificador = next((i for i in certificados if i in chaves), None)
        if identificador is None:
            raise ErroDominio("O token A3 não tem um certificado com a sua chave privada.", "token")
        # Every other certificate on the token (the issuing authorities', when it carries them) goes into the
        # signature, so that a verifier can build the chain.
        assinante = ph_pkcs11.PKCS11Signer(
            sessao, cert_id=identificador, key_id=identificador, other_certs_to_pull=None
        )
        asyncio.run(assinante.ensure_objects_loaded())
        cert = x509.load_der_x509_certificate(assinante.signing_cert.dump())
    except BaseException:
        sessao.close()  # logged in until closed
        raise
    return _certificado(cert, assinante)


MODULOS_PKCS11 = (".so", ".dll", ".dylib")
"""A file with one of these endings is a token's PKCS#11 module (A3), any other an A1 certificate file."""


def carregar_certificado(caminho: Path, senha: str) -> Certificado:
    """The certificate a user chose on their PC: an A1 file (.pfx/.p12) and its password, or an A3 token's
    PKCS#11 module and its PIN."""
    if caminho.suffix.lower() in MODULOS_PKCS11:
        return carregar_a3(str(caminho), senha)
    try:
        dados = caminho.read_bytes()
    except OSError as exc:
        raise ErroDominio(
            f"Não foi possível ler o certificado digital {caminho}: {exc.strerror or exc}. Nada foi emitido.",
            "certificado",
        ) from exc
    return carregar_a1(dados, senha)


def normalizar_nome(nome: str) -> str:
    """A name compared without accents, case or repeated spaces ("José  da Silva" = "JOSE DA SILVA")."""
    sem_acentos = unicodedata.normalize("NFKD", nome)
    sem_acentos = "".join(c for c in sem_acentos if not unicodedata.combining(c))
    return " ".join(sem_acentos.casefold().split())


def quem_assina(tipo: str, tipos_emissor: frozenset[str]) -> str | None:
    """SECRETARIO, QUEM_EMITE (when Administração turned the kind on) or None: the kind is not signed."""
    regra = ASSINATURA_POR_TIPO.get(tipo)
    if regra == QUEM_EMITE and tipo not in tipos_emissor:
        return None
    return regra


def conferir_assinante(tipo: str, ator: Ator, tipos_emissor: frozenset[str], nome_tipo: str) -> None:
    """Refuse a signature this user may not put on this kind of document."""
    regra = quem_assina(tipo, tipos_emissor)
    if regra is None:
        raise ErroDominio(
            f"{nome_tipo}: este tipo de documento não é assinado digitalmente (a Administração escolhe os "
            "tipos assinados por quem emite).",
            "certificado",
        )
    if regra == SECRETARIO and Papel.SECRETARIO not in ator.papeis:
        raise ErroDominio(
            f"{nome_tipo}: este documento é assinado pelo Secretário; o usuário {ator.nome} não tem o papel "
            "de secretário. Emita-o sem certificado para o Secretário assinar depois.",
            "certificado",
        )


def conferir_certificado(
    cert: Certificado, ator: Ator, momento: datetime, contexto: ValidationContext | None = None
) -> None:
    """Refuse a certificate out of its validity at `momento` (local, naive), one whose holder is not the
    user, or one revoked per `contexto` (the office's roots and revocation lists; fetching as allowed)."""
    instante = momento.astimezone(UTC)
    if instante < cert.valido_de:
        raise ErroDominio(
            f"O certificado de {cert.titular} só é válido a partir de "
            f"{formatar_data(cert.valido_de.astimezone().date())}. Nada foi emitido.",
            "certificado",
        )
    if instante > cert.valido_ate:
        raise ErroDominio(
            f"O certificado de {cert.titular} venceu em {formatar_data(cert.valido_ate.astimezone().date())}. "
            "Renove-o junto à autoridade certificadora. Nada foi emitido.",
            "certificado",
        )
    if normalizar_nome(cert.titular) != normalizar_nome(ator.nome):
        raise ErroDominio(
            f"O certificado é de {cert.titular}, mas quem assina é {ator.nome}: cada usuário assina com o "
            "próprio certificado. Nada foi emitido.",
            "certificado",
        )
    if contexto is not None:
        _conferir_revogacao(cert, contexto)


def _conferir_revogacao(cert: Certificado, contexto: ValidationContext) -> None:
    assinante = cert.assinante
    validador = CertificateValidator(
        assinante.signing_cert,
        intermediate_certs=list(assinante.cert_registry),
        validation_context=contexto,
    )

    async def validar() -> None:
        try:
            await validador.async_validate_usage(set())
        finally:
            await contexto.aclose()  # the fetchers' network session, opened in this event loop

    try:
        asyncio.run(validar())
    except RevokedError as exc:
        raise ErroDominio(
            f"O certificado de {cert.titular} foi revogado pela autoridade certificadora. Nada foi emitido.",
            "certificado",
        ) from exc
    except Exception:
        # No path to an installed root, or no revocation information at hand: revocation cannot be checked
        # here, and signing is not refused for it (the verification reports the trust separately).
        return


# --- the office's settings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RaizInstalada:
    nome: str
    impressao: str
    """SHA-256 of the certificate (hex), how the administrator removes it."""
    valido_ate: datetime


@dataclass(frozen=True)
class ConfigAssinatura:
    carimbo_url: str | None
    tipos_emissor: frozenset[str]
    raizes: tuple[RaizInstalada, ...]
    lcrs: int
    """How many revocation lists are installed."""


def _lista(sessao: so.Session, chave: str) -> list[str]:
    registro = sessao.get(Configuracao, chave)
    if registro is None:
        return []
    try:
        valor = json.loads(registro.valor)
    except ValueError:
        return []
    return [str(v) for v in valor] if isinstance(valor, list) else []


def _texto(sessao: so.Session, chave: str) -> str | None:
    registro = sessao.get(Configuracao, chave)
    return (registro.valor.strip() or None) if registro is not None else None


def certificados_raiz(sessao: so.Session) -> list[x509.Certificate]:
    return [x509.load_pem_x509_certificate(p.encode("ascii")) for p in _lista(sessao, CHAVE_RAIZES)]


def ler_config_assinatura(sessao: so.Session) -> ConfigAssinatura:
    raizes = tuple(
        RaizInstalada(_cn(c.subject), c.fingerprint(hashes.SHA256()).hex(), c.not_valid_after_utc)
        for c in certificados_raiz(sessao)
    )
    tipos = frozenset(
        t for t in _lista(sessao, CHAVE_TIPOS_EMISSOR) if ASSINATURA_POR_TIPO.get(t) == QUEM_EMITE
    )
    return ConfigAssinatura(_texto(sessao, CHAVE_CARIMBO_URL), tipos, raizes, len(_lista(sessao, CHAVE_LCRS)))


def contexto_validacao(
    sessao: so.Session, momento: datetime | None = None, *, buscar: bool = False
) -> ValidationContext:
    """The office's trust: its installed roots and revocation lists, at `momento` (default: now). `buscar`
    lets the validator fetch revocation information on the internet (when signing); verifying stays offline."""
    instante = (momento or relogio.agora()).astimezone(UTC)
    raizes = [translate_pyca_cryptography_cert_to_asn1(c) for c in certificados_raiz(sessao)]
    lcrs = [
        asn1_crl.CertificateList.load(x509.load_pem_x509_crl(p.encode("ascii")).public_bytes(Encoding.DER))
        for p in _lista(sessao, CHAVE_LCRS)
    ]
    return ValidationContext(
        trust_roots=raizes,
        crls=lcrs,
        allow_fetching=buscar,
        revocation_mode="soft-fail",
        moment=instante,
    )


def salvar_config_assinatura(
    uow: UnidadeDeTrabalho, ator: Ator, *, carimbo_url: str | None, tipos_emissor: Sequence[str]
) -> None:
    """The timestamp server (empty: none, PAdES B-B) and the kinds signed by whoever issues them."""
    exigir_papel(ator, "administrador", acao="alterar a assinatura digital")
    url = (carimbo_url or "").strip()
    if url and not url.lower().startswith(("http://", "https://")):
        raise ErroDominio(
            "Servidor de carimbo do tempo: informe o endereço completo, começando por http:// ou https://.",
            "carimbo_url",
        )
    invalidos = [t for t in tipos_emissor if ASSINATURA_POR_TIPO.get(t) != QUEM_EMITE]
    if invalidos:
        raise ErroDominio(
            f"Tipo de documento que não é assinado por quem emite: {', '.join(invalidos)}.", "tipos_emissor"
        )
    _gravar(
        uow,
        ator,
        {CHAVE_CARIMBO_URL: url, CHAVE_TIPOS_EMISSOR: json.dumps(sorted(set(tipos_emissor)))},
    )


def instalar_confianca(uow: UnidadeDeTrabalho, ator: Ator, *, conteudo: bytes, nome_arquivo: str) -> str:
    """Install a root certificate (PEM or DER, a CA's) or a revocation list (.crl); returns what was
    installed, in words."""
    exigir_papel(ator, "administrador", acao="instalar as raízes de confiança")
    cert = _ler_certificado(conteudo)
    if cert is not None:
        try:
            restricoes = cert.extensions.get_extension_for_class(x509.BasicConstraints).value
            autoridade = restricoes.ca
        except x509.ExtensionNotFound:
            autoridade = False
        if not autoridade:
            raise ErroDominio(
                f"{nome_arquivo} não é o certificado de uma autoridade certificadora: instale a raiz (por "
                "exemplo a Autoridade Certificadora Raiz Brasileira), não o certificado de uma pessoa.",
                "arquivo",
            )
        with uow:
            atuais = _lista(uow.session, CHAVE_RAIZES)
            pem = cert.public_bytes(Encoding.PEM).decode("ascii")
            if pem in atuais:
                raise ErroDominio(f"A raiz {_cn(cert.subject)} já está instalada.", "arquivo")
            _gravar_na(uow, ator, {CHAVE_RAIZES: json.dumps([*atuais, pem])})
        return f"Raiz de confiança instalada: {_cn(cert.subject)}."
    lcr = _ler_lcr(conteudo)
    if lcr is None:
        raise ErroDominio(
            f"{nome_arquivo} não é um certificado (.cer, .crt, .pem) nem uma lista de revogação (.crl).",
            "arquivo",
        )
    with uow:
        atuais = _lista(uow.session, CHAVE_LCRS)
        pem = lcr.public_bytes(Encoding.PEM).decode("ascii")
        if pem in atuais:
            raise ErroDominio("Essa lista de revogação já está instalada.", "arquivo")
        _gravar_na(uow, ator, {CHAVE_LCRS: json.dumps([*atuais, pem])})
    return f"Lista de revogação de {_cn(lcr.issuer)} instalada."


def remover_raiz(uow: UnidadeDeTrabalho, ator: Ator, *, impressao: str) -> None:
    exigir_papel(ator, "administrador", acao="remover raízes de confiança")
    with uow:
        atuais = _lista(uow.session, CHAVE_RAIZES)
        ficam = [
            p
            for p in atuais
            if x509.load_pem_x509_certificate(p.encode("ascii")).fingerprint(hashes.SHA256()).hex()
            != impressao
        ]
        if len(ficam) == len(atuais):
            raise ErroDominio("Essa raiz de confiança não está instalada.", "impressao")
        _gravar_na(uow, ator, {CHAVE_RAIZES: json.dumps(ficam)})


def _ler_certificado(conteudo: bytes) -> x509.Certificate | None:
    for carregar in (x509.load_pem_x509_certificate, x509.load_der_x509_certificate):
        try:
            return carregar(conteudo)
        except ValueError:
            continue
    return None


def _ler_lcr(conteudo: bytes) -> x509.CertificateRevocationList | None:
    for carregar in (x509.load_pem_x509_crl, x509.load_der_x509_crl):
        try:
            return carregar(conteudo)
        except ValueError:
            continue
    return None


def _gravar(uow: UnidadeDeTrabalho, ator: Ator, mudancas: dict[str, str]) -> None:
    with uow:
        _gravar_na(uow, ator, mudancas)


def _gravar_na(uow: UnidadeDeTrabalho, ator: Ator, mudancas: dict[str, str]) -> None:
    gravar_valores(uow.session, ator, "alterar_assinatura", mudancas)
    uow.commit()


# --- signing --------------------------------------------------------------------------------------------


class _Assinador(signers.PdfSigner):
    """pyHanko's signer with the signing time taken from the program's clock (`secretaria.relogio`), not the
    system's: the stamp, the signed attribute and the tests all agree on one moment."""

    momento: datetime

    def init_signing_session(self, pdf_out: Any, existing_fields_only: bool = False) -> Any:
        sessao = super().init_signing_session(pdf_out, existing_fields_only)
        sessao.system_time = self.momento
        return sessao


_TIPOGRAFICOS = str.maketrans({"–": "-", "—": "-", "“": '"', "”": '"', "‘": "'", "’": "'", "…": "..."})


def texto_carimbo(cert: Certificado, momento: datetime) -> str:
    """The visible stamp's words. Its font (pyHanko's built-in Courier) covers Latin-1 only: accents print,
    typographic dashes and quotes in a certificate's names become plain ones."""
    texto = (
        f"Assinado digitalmente por {cert.titular}, em {momento:%d/%m/%Y %H:%M},\n"
        f"certificado {cert.descricao}.\n"
        "Confira a assinatura em qualquer verificador de PDF (Adobe Reader, verificador do ITI)."
    )
    return texto.translate(_TIPOGRAFICOS).encode("latin-1", "replace").decode("latin-1")


def assinar_pdf(
    pdf: bytes,
    cert: Certificado,
    *,
    motivo: str,
    identificador: str,
    momento: datetime,
    carimbo_url: str | None = None,
    carimbador: timestamps.TimeStamper | None = None,
) -> bytes:
    """`pdf` signed (PAdES) by `cert` at `momento` (local, naive), with the visible stamp on the last page.

    `identificador` (the unsigned rendering's SHA-256) is written in the signature's contact field, so a
    changed copy still names its document. `carimbador` (tests) or `carimbo_url` adds an RFC 3161 timestamp.
    """
    if carimbador is None and carimbo_url:
        carimbador = timestamps.HTTPTimeStamper(carimbo_url)
    meta = signers.PdfSignatureMetadata(
        field_name=CAMPO_ASSINATURA,
        reason=motivo,
        location=LOCAL_ASSINATURA,
        contact_info=PREFIXO_IDENTIFICADOR + identificador,
        name=cert.titular,
        subfilter=fields.SigSeedSubFilter.PADES,
        md_algorithm="sha256",
    )
    assinador = _Assinador(
        meta,
        cert.assinante,
        timestamper=carimbador,
        stamp_style=TextStampStyle(
            stamp_text=texto_carimbo(cert, momento),
            border_width=1,
            text_box_style=TextBoxStyle(font_size=7, leading=8),
        ),
        new_field_spec=fields.SigFieldSpec(CAMPO_ASSINATURA, on_page=-1, box=CAIXA_CARIMBO),
    )
    assinador.momento = momento.astimezone()
    escritor = IncrementalPdfFileWriter(io.BytesIO(pdf))
    try:
        saida = assinador.sign_pdf(escritor)
    except Exception as exc:
        if carimbador is not None and "imestamp" in f"{type(exc).__name__} {exc}":
            raise ErroDominio(
                f"O servidor de carimbo do tempo ({carimbo_url or 'configurado'}) não respondeu: {exc}. "
                "Nada foi emitido.",
                "carimbo_url",
            ) from exc
        raise
    return bytes(saida.getvalue())


__all__ = [
    "ASSINATURA_POR_TIPO",
    "QUEM_EMITE",
    "SECRETARIO",
    "Certificado",
    "ConfigAssinatura",
    "RaizInstalada",
    "assinar_pdf",
    "carregar_a1",
    "carregar_a3",
    "carregar_certificado",
    "conferir_assinante",
    "conferir_certificado",
    "contexto_validacao",
    "instalar_confianca",
    "ler_config_assinatura",
    "normalizar_nome",
    "quem_assina",
    "remover_raiz",
    "salvar_config_assinatura",
]
