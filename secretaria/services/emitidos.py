"""The documents already issued: what each kind is called, the stored copy's record and its bytes.

Issuing is `documentos.emitir_documento`; what is read back here (the list of a case's papers, one paper's
record, its bytes re-checked against the SHA-256 taken at issue) is what the case screen and the complete
case file need, so they read it without importing the issuing machinery.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.models import DocumentoEmitido
from secretaria.services.base import ErroDominio, NaoEncontrado, mensagem_nao_encontrado

__all__ = [
    "TIPOS_DOCUMENTO",
    "DocumentoAlterado",
    "DocumentoInfo",
    "descricao_documento",
    "documentos_emitidos",
    "info_de",
    "info_documento",
    "obter_documento",
]

TIPOS_DOCUMENTO = {
    "auto": "Auto de infração",
    "intimacao": "Intimação do auto",
    "decisao": "Notificação de decisão",
    "ficha": "Ficha da operadora",
    "lote_intimacoes": "Lote de intimações",
    "retificacao": "Termo de retificação",
    "intimacao_termo": "Intimação do termo de retificação",
    "julgamento": "Notificação do julgamento do recurso",
    "revisao": "Termo de revisão",
    "processo": "Cópia integral do processo",
}
"""What `emitir_documento` can issue (the stored `DocumentoEmitido.tipo`) → its name for the user."""
TIPOS_NUMERADOS = ("auto", "intimacao", "decisao", "retificacao", "intimacao_termo", "julgamento", "revisao")
"""The documents whose reference is a number ("nº 0001/2026")."""


class DocumentoAlterado(ErroDominio):
    """The stored bytes no longer match the SHA-256 taken when the document was issued."""


@dataclass(frozen=True)
class DocumentoInfo:
    """An issued document, as the screens list it (never the bytes: `obter_documento` reads those)."""

    id: int
    tipo: str
    referencia: str
    nome_arquivo: str
    sha256: str
    emitido_em: datetime
    emitido_por: str
    novo: bool = True
    """False when this issue found the same bytes already stored (nothing was written)."""
    assinado_por: str | None = None
    """Who signed it digitally (the certificate's holder); None: issued without a digital signature."""
    certificado: str | None = None
    versao_de_id: int | None = None
    """A signed version made later: the unsigned copy it signs (kept)."""

    @property
    def situacao_assinatura(self) -> str:
        """ "assinado digitalmente por …" or "sem assinatura digital" (the lists and the CLI say it)."""
        if self.assinado_por is None:
            return "sem assinatura digital"
        return f"assinado digitalmente por {self.assinado_por}"

    @property
    def descricao(self) -> str:
        return descricao_documento(self.tipo, self.referencia)


def descricao_documento(tipo: str, referencia: str) -> str:
    """ "Auto de infração nº 0001/2026", "Notificação de decisão do auto nº 0001/2026", "Ficha da operadora
    11.222.333/0001-81 em 30/11/2026"…: a notice numbered by the auto it notifies says so."""
    nome = TIPOS_DOCUMENTO.get(tipo, tipo)
    if tipo in ("processo", "decisao", "julgamento"):
        return f"{nome} do auto nº {referencia}"
    if tipo in TIPOS_NUMERADOS:
        return f"{nome} nº {referencia}"
    if tipo == "lote_intimacoes":
        return f"{nome} de {referencia}"
    return f"{nome} {referencia}"


def info_de(doc: DocumentoEmitido, novo: bool) -> DocumentoInfo:
    return DocumentoInfo(
        id=doc.id,
        tipo=doc.tipo,
        referencia=doc.referencia,
        nome_arquivo=doc.nome_arquivo,
        sha256=doc.sha256,
        emitido_em=doc.emitido_em,
        emitido_por=doc.emitido_por,
        novo=novo,
        assinado_por=doc.assinado_por,
        certificado=doc.certificado,
        versao_de_id=doc.versao_de_id,
    )


def info_documento(sessao: so.Session, documento_id: int) -> DocumentoInfo:
    doc = sessao.get(DocumentoEmitido, documento_id)
    if doc is None:
        raise NaoEncontrado(mensagem_nao_encontrado("Documento emitido", documento_id), "documento_id")
    return info_de(doc, novo=False)


def obter_documento(sessao: so.Session, documento_id: int) -> bytes:
    """The stored bytes of an issued document, after checking them against the SHA-256 taken at issue."""
    linha = sessao.execute(
        sa.select(DocumentoEmitido.conteudo, DocumentoEmitido.sha256, DocumentoEmitido.nome_arquivo).where(
            DocumentoEmitido.id == documento_id
        )
    ).first()
    if linha is None:
        raise NaoEncontrado(mensagem_nao_encontrado("Documento emitido", documento_id), "documento_id")
    conteudo = bytes(linha.conteudo)
    if hashlib.sha256(conteudo).hexdigest() != linha.sha256:
        raise DocumentoAlterado(
            f"O documento {linha.nome_arquivo} (nº {documento_id}) foi alterado depois de emitido: o SHA-256 "
            "guardado não confere. Ele não será impresso; avise o administrador.",
            "documento_id",
        )
    return conteudo


def documentos_emitidos(
    sessao: so.Session,
    *,
    auto_id: int | None = None,
    operadora_id: int | None = None,
    tipo: str | None = None,
) -> list[DocumentoInfo]:
    """Issued documents (newest first), filtered by auto, operator or kind."""
    consulta = sa.select(DocumentoEmitido)
    if auto_id is not None:
        consulta = consulta.where(DocumentoEmitido.auto_id == auto_id)
    if operadora_id is not None:
        consulta = consulta.where(DocumentoEmitido.operadora_id == operadora_id)
    if tipo is not None:
        consulta = consulta.where(DocumentoEmitido.tipo == tipo)
    return [info_de(d, novo=False) for d in sessao.scalars(consulta.order_by(DocumentoEmitido.id.desc()))]
