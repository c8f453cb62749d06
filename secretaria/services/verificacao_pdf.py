"""Verifying any PDF (one the program issued, or one an operator hands back): is it a document of this office,
of which case, who signed it, is the signature valid and are the bytes unchanged, does the certificate chain
to the roots the office installed.

A document is recognised by the SHA-256 of the whole file (a stored document), of the revision a signature
covers (a stored document with something appended after), or by the identifier written in the signature
(the unsigned rendering's SHA-256: a changed copy of a stored document). pyHanko's validator judges the
signature itself, offline, against the office's roots and revocation lists.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so
from pyhanko.pdf_utils.misc import PdfError
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.errors import SignatureValidationError
from pyhanko.sign.validation.pdf_embedded import EmbeddedPdfSignature
from pyhanko.sign.validation.status import PdfSignatureStatus, SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext

from secretaria.models import AutoInfracao, DocumentoEmitido
from secretaria.services.assinatura import (
    PREFIXO_IDENTIFICADOR,
    cn_asn1,
    contexto_validacao,
    ler_config_assinatura,
)
from secretaria.services.emitidos import descricao_documento

__all__ = ["AssinaturaVerificada", "RelatorioPdf", "verificar_pdf"]


@dataclass(frozen=True)
class AssinaturaVerificada:
    signatario: str
    certificado: str
    momento: datetime | None
    carimbo_do_tempo: bool
    integra: bool
    """The signed bytes are unchanged and the cryptography is sound."""
    cobre_o_arquivo: bool
    """Nothing but allowed updates was added after the signature."""
    confiavel: bool
    """The certificate chains to a root the office installed."""
    revogado: bool
    valida: bool
    """pyHanko's bottom line: intact, sound and trusted."""
    relatorio_tecnico: str = field(repr=False)
    """pyHanko's own report (English), for a specialist."""


@dataclass(frozen=True)
class RelatorioPdf:
    sha256: str
    legivel: bool
    documento_id: int | None = None
    descricao: str | None = None
    caso: str | None = None
    identico_ao_emitido: bool = False
    assinaturas: tuple[AssinaturaVerificada, ...] = ()
    raizes_instaladas: int = 0

    @property
    def linhas(self) -> list[str]:
        """The report in words, one finding a line (the case screen and `documento verificar` print it)."""
        if not self.legivel:
            return ["O arquivo não é um PDF legível."]
        saida = []
        if self.documento_id is None:
            saida.append(
                "Não é um documento emitido por esta Secretaria (nenhum documento guardado confere)."
            )
        else:
            caso = f", do processo do auto nº {self.caso}" if self.caso else ""
            saida.append(
                f"Documento desta Secretaria: {self.descricao} (documento nº {self.documento_id}{caso})."
            )
            saida.append(
                "O arquivo é idêntico, byte a byte, ao documento guardado no banco."
                if self.identico_ao_emitido
                else "ATENÇÃO: o arquivo difere do documento guardado no banco — foi alterado depois de emitido."
            )
        if not self.assinaturas:
            saida.append("O arquivo não tem assinatura digital.")
        for a in self.assinaturas:
            quando = f" em {a.momento:%d/%m/%Y %H:%M}" if a.momento else ""
            carimbo = " (com carimbo do tempo)" if a.carimbo_do_tempo else ""
            saida.append(
                f"Assinado digitalmente por {a.signatario}{quando}{carimbo}, certificado {a.certificado}."
            )
            if not a.integra:
                saida.append(
                    "ASSINATURA INVÁLIDA: o conteúdo assinado foi alterado ou a assinatura está corrompida."
                )
            elif not a.cobre_o_arquivo:
                saida.append(
                    "ATENÇÃO: a assinatura confere, mas o arquivo recebeu alterações depois de assinado."
                )
            else:
                saida.append("A assinatura é íntegra: o conteúdo não mudou desde a assinatura.")
            if a.revogado:
                saida.append("O certificado do signatário foi revogado.")
            elif a.confiavel:
                saida.append("O certificado se encadeia a uma raiz de confiança instalada pela Secretaria.")
            elif self.raizes_instaladas == 0:
                saida.append(
                    "Confiança não conferida: nenhuma raiz de confiança foi instalada (Administração › "
                    "Assinatura digital)."
                )
            else:
                saida.append("O certificado NÃO se encadeia a nenhuma raiz de confiança instalada.")
        return saida

    @property
    def valido(self) -> bool:
        """A document of this office, unchanged, every signature valid (and at least one)."""
        return (
            self.identico_ao_emitido
            and bool(self.assinaturas)
            and all(a.valida and a.cobre_o_arquivo for a in self.assinaturas)
        )


def verificar_pdf(sessao: so.Session, conteudo: bytes) -> RelatorioPdf:
    """What `conteudo` is, for this office (reads only)."""
    sha = hashlib.sha256(conteudo).hexdigest()
    raizes = len(ler_config_assinatura(sessao).raizes)
    try:
        leitor = PdfFileReader(io.BytesIO(conteudo), strict=False)
        embutidas = list(leitor.embedded_regular_signatures)
    except (PdfError, ValueError, KeyError, IndexError, TypeError):
        return RelatorioPdf(sha256=sha, legivel=False, raizes_instaladas=raizes)
    doc = _por_sha(sessao, sha)
    identico = doc is not None
    if doc is None:
        doc = _por_assinatura(sessao, conteudo, embutidas)
    contexto = contexto_validacao(sessao)
    assinaturas = tuple(_verificar(e, contexto) for e in embutidas)
    if doc is None:
        return RelatorioPdf(sha256=sha, legivel=True, assinaturas=assinaturas, raizes_instaladas=raizes)
    caso = None
    if doc.auto_id is not None:
        a = sessao.get(AutoInfracao, doc.auto_id)
        caso = f"{a.numero:04d}/{a.ano}" if a is not None else None
    return RelatorioPdf(
        sha256=sha,
        legivel=True,
        documento_id=doc.id,
        descricao=descricao_documento(doc.tipo, doc.referencia),
        caso=caso,
        identico_ao_emitido=identico,
        assinaturas=assinaturas,
        raizes_instaladas=raizes,
    )


def _por_sha(sessao: so.Session, sha: str) -> DocumentoEmitido | None:
    return sessao.scalar(
        sa.select(DocumentoEmitido)
        .where(DocumentoEmitido.sha256 == sha)
        .order_by(DocumentoEmitido.id)
        .limit(1)
    )


def _por_assinatura(
    sessao: so.Session, conteudo: bytes, embutidas: list[EmbeddedPdfSignature]
) -> DocumentoEmitido | None:
    """A stored document a signature points to: the revision it covers, or the identifier it carries."""
    for e in embutidas:
        faixa = [int(x) for x in e.byte_range]
        revisao = conteudo[: faixa[2] + faixa[3]]
        doc = _por_sha(sessao, hashlib.sha256(revisao).hexdigest())
        if doc is not None:
            return doc
        contato = str(e.sig_object.get("/ContactInfo", ""))
        if contato.startswith(PREFIXO_IDENTIFICADOR):
            original = contato[len(PREFIXO_IDENTIFICADOR) :]
            doc = sessao.scalar(
                sa.select(DocumentoEmitido)
                .where(
                    sa.or_(DocumentoEmitido.sha256_original == original, DocumentoEmitido.sha256 == original)
                )
                .order_by(DocumentoEmitido.id.desc())
                .limit(1)
            )
            if doc is not None:
                return doc
    return None


def _verificar(embutida: EmbeddedPdfSignature, contexto: ValidationContext) -> AssinaturaVerificada:
    try:
        status: PdfSignatureStatus = validate_pdf_signature(embutida, contexto)
    except SignatureValidationError as exc:
        return AssinaturaVerificada(
            signatario="(não identificado)",
            certificado="(ilegível)",
            momento=None,
            carimbo_do_tempo=False,
            integra=False,
            cobre_o_arquivo=False,
            confiavel=False,
            revogado=False,
            valida=False,
            relatorio_tecnico=str(exc),
        )
    cert = status.signing_cert
    momento = status.signer_reported_dt or embutida.self_reported_timestamp
    return AssinaturaVerificada(
        signatario=cn_asn1(cert.subject).partition(":")[0],
        certificado=f"nº {cert.serial_number:X}, emitido por {cn_asn1(cert.issuer)}",
        momento=momento.astimezone().replace(tzinfo=None) if momento else None,
        carimbo_do_tempo=status.timestamp_validity is not None,
        integra=bool(status.intact and status.valid),
        cobre_o_arquivo=status.coverage == SignatureCoverageLevel.ENTIRE_FILE,
        confiavel=bool(status.trusted),
        revogado=bool(status.revoked),
        valida=bool(status.bottom_line),
        relatorio_tecnico=status.pretty_print_details(),
    )
