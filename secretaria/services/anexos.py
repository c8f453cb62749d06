"""Evidence files: their content checked more deeply than the first bytes, a safe name to open them under,
and the check that a stored file is still the one attached.

`services.autos` stores attachments (`anexar_evidencia`, 20 MB, PDF/JPEG/PNG by content, SHA-256 kept with
the bytes). This module adds what trust needs on top:

- `validar_conteudo`: the type from the content AND a whole file of that type (a PDF that ends with
  %%EOF, a JPEG that ends with its end-of-image marker, a PNG whose chunks run from IHDR to IEND), so a
  truncated upload or another file with a borrowed signature is refused before it becomes evidence;
- `nome_seguro`: the name to write the file under when it is opened, with the extension of the checked
  type (never the uploaded name's: "foto.html" holding a PDF signature must not open in a browser);
- `verificar_anexo` / `abrir_anexo_conferido`: the bytes are hashed again and compared with the stored
  SHA-256 and size, and with the SHA-256 recorded in the audit row written when the file was attached,
  so content and hash rewritten together behind the program's back are caught as well;
- `verificar_anexos`: the same check over every attachment, for `secretaria auditoria verificar`.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.models import Anexo, Auditoria
from secretaria.services.base import ErroDominio, NaoEncontrado, limpar_texto

LIMITE_BYTES = 20 * 1024 * 1024
EXTENSOES = {"application/pdf": ".pdf", "image/jpeg": ".jpg", "image/png": ".png"}
_PNG = b"\x89PNG\r\n\x1a\n"
_CAUDA_PDF = 2048  # %%EOF must be among the last bytes (writers append a newline or a few bytes after it)
_CAUDA_JPEG = 64


class AnexoAlterado(ErroDominio):
    """A stored file no longer matches what was attached: it is not handed out as evidence."""


def tipo_do_conteudo(conteudo: bytes) -> str | None:
    if conteudo.startswith(b"%PDF-"):
        return "application/pdf"
    if conteudo.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if conteudo.startswith(_PNG):
        return "image/png"
    return None


def _png_inteiro(dados: bytes) -> bool:
    pos = len(_PNG)
    primeiro = True
    while pos + 8 <= len(dados):
        (tamanho,) = struct.unpack(">I", dados[pos : pos + 4])
        tipo = dados[pos + 4 : pos + 8]
        if primeiro and tipo != b"IHDR":
            return False
        primeiro = False
        pos += 12 + tamanho  # length, type, data, CRC
        if pos > len(dados):
            return False
        if tipo == b"IEND":
            return True
    return False


def validar_conteudo(nome_arquivo: str, conteudo: bytes, *, limite: int = LIMITE_BYTES) -> tuple[str, str]:
    """(clean file name, MIME type) of a file that may become evidence, or ErroDominio(campo="arquivo")."""
    nome = limpar_texto(os.path.basename((nome_arquivo or "").replace("\\", "/")))[:255] or "arquivo"
    if not isinstance(conteudo, bytes | bytearray | memoryview):
        raise ErroDominio(f"O arquivo {nome} não pôde ser lido.", "arquivo")
    dados = bytes(conteudo)
    if not dados:
        raise ErroDominio(f"O arquivo {nome} está vazio.", "arquivo")
    if len(dados) > limite:
        mb = f"{len(dados) / 1024 / 1024:.1f}".replace(".", ",")
        raise ErroDominio(f"O arquivo {nome} tem {mb} MB; o limite é {limite // 1024 // 1024} MB.", "arquivo")
    tipo = tipo_do_conteudo(dados)
    if tipo is None:
        raise ErroDominio(
            f"O arquivo {nome} não é PDF, JPEG nem PNG (o tipo é verificado pelo conteúdo, não pelo nome).",
            "arquivo",
        )
    inteiro = {
        "application/pdf": lambda: b"%%EOF" in dados[-_CAUDA_PDF:],
        "image/jpeg": lambda: b"\xff\xd9" in dados[-_CAUDA_JPEG:],
        "image/png": lambda: _png_inteiro(dados),
    }[tipo]()
    if not inteiro:
        rotulo = {"application/pdf": "PDF", "image/jpeg": "JPEG", "image/png": "PNG"}[tipo]
        raise ErroDominio(
            f"O arquivo {nome} começa como {rotulo} mas está incompleto ou danificado; "
            "anexe o arquivo original.",
            "arquivo",
        )
    return nome, tipo


def nome_seguro(nome_arquivo: str, tipo_mime: str) -> str:
    """The name to write a stored file under before opening it: the extension always that of its checked
    type, and no path, control or reserved characters."""
    base = os.path.basename((nome_arquivo or "").replace("\\", "/"))
    raiz = os.path.splitext(base)[0] if base else "anexo"
    limpo = "".join(c if c.isalnum() or c in " ._-()" else "_" for c in limpar_texto(raiz)).strip(" .")
    return f"{(limpo or 'anexo')[:100]}{EXTENSOES.get(tipo_mime, '.bin')}"


@dataclass(frozen=True)
class VerificacaoAnexo:
    anexo_id: int
    nome_arquivo: str
    integro: bool
    motivo: str
    """Empty when intact; else what does not match, in Portuguese."""


def _sha_auditado(sessao: so.Session, anexo_id: int) -> str | None:
    depois = sessao.scalar(
        sa.select(Auditoria.depois)
        .where(
            Auditoria.entidade == "anexo", Auditoria.entidade_id == str(anexo_id), Auditoria.antes.is_(None)
        )
        .order_by(Auditoria.id)
        .limit(1)
    )
    if not depois:
        return None
    try:
        valor = json.loads(depois).get("sha256")
    except (ValueError, AttributeError):
        return None
    return valor if isinstance(valor, str) else None


def _conferir(sessao: so.Session, anexo: Anexo, conteudo: bytes) -> VerificacaoAnexo:
    calculado = hashlib.sha256(conteudo).hexdigest()
    motivo = ""
    if calculado != anexo.sha256:
        motivo = "o conteúdo não confere com o SHA-256 gravado quando foi anexado"
    elif len(conteudo) != anexo.tamanho:
        motivo = "o tamanho não confere com o gravado quando foi anexado"
    else:
        auditado = _sha_auditado(sessao, anexo.id)
        if auditado is not None and auditado != calculado:
            motivo = "o conteúdo e o SHA-256 foram trocados depois de anexado (não conferem com a auditoria)"
    return VerificacaoAnexo(anexo.id, anexo.nome_arquivo, not motivo, motivo)


def verificar_anexo(sessao: so.Session, anexo_id: int) -> VerificacaoAnexo:
    anexo = sessao.get(Anexo, anexo_id)
    if anexo is None:
        raise NaoEncontrado(f"Anexo nº {anexo_id} não encontrado.")
    return _conferir(sessao, anexo, bytes(anexo.conteudo or b""))


@dataclass(frozen=True)
class AnexoConferido:
    anexo_id: int
    nome_arquivo: str
    nome_para_abrir: str
    tipo_mime: str
    conteudo: bytes
    sha256: str


def abrir_anexo_conferido(sessao: so.Session, anexo_id: int) -> AnexoConferido:
    """The file's bytes, only if they are still the ones attached; else AnexoAlterado saying so."""
    anexo = sessao.get(Anexo, anexo_id)
    if anexo is None:
        raise NaoEncontrado(f"Anexo nº {anexo_id} não encontrado.")
    conteudo = bytes(anexo.conteudo or b"")
    resultado = _conferir(sessao, anexo, conteudo)
    if not resultado.integro:
        raise AnexoAlterado(
            f"O arquivo {anexo.nome_arquivo} (anexo nº {anexo.id}) foi alterado depois de anexado: "
            f"{resultado.motivo}. Ele não será aberto como prova; avise o administrador."
        )
    return AnexoConferido(
        anexo.id,
        anexo.nome_arquivo,
        nome_seguro(anexo.nome_arquivo, anexo.tipo_mime),
        anexo.tipo_mime,
        conteudo,
        anexo.sha256,
    )


def verificar_anexos(sessao: so.Session, lote: int = 50) -> Iterator[VerificacaoAnexo]:
    """Every attachment checked, one batch in memory at a time (files are up to 20 MB each)."""
    ultimo = 0
    while True:
        ids = list(
            sessao.scalars(sa.select(Anexo.id).where(Anexo.id > ultimo).order_by(Anexo.id).limit(lote))
        )
        if not ids:
            return
        for anexo_id in ids:
            yield verificar_anexo(sessao, anexo_id)
            sessao.expunge_all()
        ultimo = ids[-1]
