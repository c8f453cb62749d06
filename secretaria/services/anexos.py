"""Evidence files: their content checked more deeply than the first bytes, a safe name to open them under,
and the check that a stored file is still the one attached.

Every service that stores an attachment (`autos.anexar_evidencia`, `representacoes.anexar_prova_representacao`;
20 MB, SHA-256 kept with the bytes) checks it with `validar_conteudo` first:

- `validar_conteudo`: the type from the content AND a whole file of that type (a PDF with its header,
  "startxref … %%EOF" at the end and pages the PDF reader opens; a JPEG from its start marker through its
  header segments to the end-of-image marker after the scan; a PNG whose chunks, CRCs right, run from IHDR
  to IEND), a name's extension of that type, and a clean name (`limpar_nome`), so a truncated upload, another
  file with a borrowed signature or a name that reads backwards is refused before it becomes evidence;
- `nome_seguro`: the name to write the file under when it is opened, with the extension of the checked
  type (never the uploaded name's: "foto.html" holding a PDF signature must not open in a browser);
- `verificar_anexo` / `abrir_anexo_conferido`: the bytes are hashed again and compared with the stored
  SHA-256 and size, and with the SHA-256 recorded in the audit row written when the file was attached,
  so content and hash rewritten together behind the program's back are caught as well;
- `verificar_anexos`: the same check over every attachment, for `secretaria auditoria verificar`.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import struct
import unicodedata
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria.lei.formato import formatar_decimal
from secretaria.models import Anexo, Auditoria
from secretaria.services.base import ErroDominio, NaoEncontrado, mensagem_nao_encontrado

LIMITE_BYTES = 20 * 1024 * 1024
EXTENSOES = {"application/pdf": ".pdf", "image/jpeg": ".jpg", "image/png": ".png"}
ROTULOS = {"application/pdf": "PDF", "image/jpeg": "JPEG", "image/png": "PNG"}
EXTENSOES_ACEITAS = {
    "application/pdf": frozenset({".pdf"}),
    "image/jpeg": frozenset({".jpg", ".jpeg", ".jpe", ".jfif"}),
    "image/png": frozenset({".png"}),
}
_PNG = b"\x89PNG\r\n\x1a\n"
_CAUDA_PDF = 2048  # %%EOF must be among the last bytes (writers append a newline or a few bytes after it)
_PDF_CABECALHO = re.compile(rb"%PDF-[12]\.\d")
_PDF_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF")
# Characters that make a name read other than it is: bidi embeddings, overrides and isolates, the marks
# (U+200E/F, U+061C), and line/paragraph separators. With them "evil\u202egpj.exe" shows as "evilexe.jpg".
_INVISIVEIS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028\u2029"
)


class AnexoAlterado(ErroDominio):
    """A stored file no longer matches what was attached: it is not handed out as evidence."""


def tipo_do_conteudo(conteudo: bytes) -> str | None:
    """The file's type from its first bytes (never from its name): PDF, JPEG or PNG, else None."""
    if conteudo.startswith(b"%PDF-"):
        return "application/pdf"
    if conteudo.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if conteudo.startswith(_PNG):
        return "image/png"
    return None


def limpar_nome(nome_arquivo: str) -> str:
    """The name a file is listed under: no folders, no control characters (C0, C1, DEL; a line break or tab
    becomes a space) and none of the invisible characters that reorder or hide text, blanks collapsed."""
    base = os.path.basename((nome_arquivo or "").replace("\\", "/"))
    visivel = "".join(
        " " if c in "\t\n\r\v\f\x85" else c
        for c in unicodedata.normalize("NFC", base)
        if c not in _INVISIVEIS and (unicodedata.category(c) != "Cc" or c in "\t\n\r\v\f\x85")
    )
    return " ".join(visivel.split())[:255]


def _png_inteiro(dados: bytes) -> bool:
    """Signature, IHDR first (13 bytes), at least one IDAT, IEND; every chunk whole with a right CRC."""
    pos = len(_PNG)
    primeiro = True
    imagem = False
    while pos + 12 <= len(dados):
        (tamanho,) = struct.unpack(">I", dados[pos : pos + 4])
        tipo = dados[pos + 4 : pos + 8]
        fim = pos + 8 + tamanho
        if fim + 4 > len(dados):
            return False
        if primeiro and (tipo != b"IHDR" or tamanho != 13):
            return False
        primeiro = False
        (crc,) = struct.unpack(">I", dados[fim : fim + 4])
        if zlib.crc32(dados[pos + 4 : fim]) != crc:
            return False
        imagem = imagem or tipo == b"IDAT"
        if tipo == b"IEND":
            return imagem
        pos = fim + 4
    return False


def _jpeg_inteiro(dados: bytes) -> bool:
    """SOI, header segments up to the first scan (a frame header among them), then an EOI after it.

    The segments are walked by their lengths, so the end marker of the thumbnail inside the EXIF block is not
    taken for the image's; data after the EOI (phones append a motion clip) is allowed."""
    pos = 2
    quadro = False
    while pos + 4 <= len(dados):
        if dados[pos] != 0xFF:
            return False
        marcador = dados[pos + 1]
        if marcador == 0xFF:  # fill byte
            pos += 1
            continue
        if marcador in (0xD8, 0xD9) or 0xD0 <= marcador <= 0xD7:
            return False  # no second SOI, no EOI or restart before the first scan
        (tamanho,) = struct.unpack(">H", dados[pos + 2 : pos + 4])
        if tamanho < 2:
            return False
        if 0xC0 <= marcador <= 0xCF and marcador not in (0xC4, 0xC8, 0xCC):
            quadro = True
        if marcador == 0xDA:  # start of scan: entropy-coded data follows, where 0xFF is always escaped
            return quadro and dados.find(b"\xff\xd9", pos + 2 + tamanho) >= 0
        pos += 2 + tamanho
    return False


def _pdf_inteiro(dados: bytes) -> bool:
    """A PDF header, "startxref <offset> %%EOF" at the end with the offset inside the file, and a document
    pypdfium2, the program's PDF reader, opens with at least one page."""
    if not _PDF_CABECALHO.match(dados):
        return False
    cauda = dados[-_CAUDA_PDF:]
    finais = list(_PDF_STARTXREF.finditer(cauda))
    if not finais or int(finais[-1].group(1)) >= len(dados):
        return False
    # Imported here (a heavy library), by name: it is untyped, so the type checker need not know it.
    pdfium: Any = importlib.import_module("pypdfium2")
    try:
        documento = pdfium.PdfDocument(dados)
    except pdfium.PdfiumError as erro:
        if getattr(erro, "err_code", None) == 4:  # FPDF_ERR_PASSWORD
            raise _ProtegidoPorSenha from None
        return False
    try:
        return len(documento) > 0
    finally:
        documento.close()


class _ProtegidoPorSenha(Exception):
    pass


def validar_conteudo(nome_arquivo: str, conteudo: bytes, *, limite: int = LIMITE_BYTES) -> tuple[str, str]:
    """(clean file name, MIME type) of a file that may become evidence, or ErroDominio(campo="arquivo").

    The type comes from the content, the whole file must be of that type, and a name's extension, when it
    has one, must be one of that type's ("foto.jpg" holding a PDF is refused: it would open in the wrong
    program, or hide what it is)."""
    nome = limpar_nome(nome_arquivo) or "arquivo"
    if not isinstance(conteudo, bytes | bytearray | memoryview):
        raise ErroDominio(f"O arquivo {nome} não pôde ser lido.", "arquivo")
    dados = bytes(conteudo)
    if not dados:
        raise ErroDominio(f"O arquivo {nome} está vazio.", "arquivo")
    if len(dados) > limite:
        # Rounded up: "20,0 MB; o limite é 20 MB" would not say why.
        mb = (Decimal(len(dados)) / (1024 * 1024)).quantize(Decimal("0.1"), rounding=ROUND_CEILING)
        raise ErroDominio(
            f"O arquivo {nome} tem {formatar_decimal(mb, 1)} MB; o limite é "
            f"{formatar_decimal(limite // 1024 // 1024, 0)} MB.",
            "arquivo",
        )
    tipo = tipo_do_conteudo(dados)
    if tipo is None:
        raise ErroDominio(
            f"O arquivo {nome} não é PDF, JPEG nem PNG (o tipo é verificado pelo conteúdo, não pelo nome).",
            "arquivo",
        )
    rotulo = ROTULOS[tipo]
    try:
        inteiro = {"application/pdf": _pdf_inteiro, "image/jpeg": _jpeg_inteiro, "image/png": _png_inteiro}[
            tipo
        ](dados)
    except _ProtegidoPorSenha:
        raise ErroDominio(
            f"O arquivo {nome} é um PDF protegido por senha; anexe uma cópia sem senha.", "arquivo"
        ) from None
    if not inteiro:
        raise ErroDominio(
            f"O arquivo {nome} começa como {rotulo} mas está incompleto ou danificado; "
            "anexe o arquivo original.",
            "arquivo",
        )
    extensao = os.path.splitext(nome)[1].lower()
    if extensao and extensao not in EXTENSOES_ACEITAS[tipo]:
        raise ErroDominio(
            f"O arquivo {nome} é um {rotulo}, mas o nome termina em {extensao}; "
            f"renomeie-o para {EXTENSOES[tipo]} ou anexe o arquivo certo.",
            "arquivo",
        )
    return nome, tipo


def nome_seguro(nome_arquivo: str, tipo_mime: str) -> str:
    """The name to write a stored file under before opening it: the extension always that of its checked
    type, and no path, control or reserved characters."""
    base = limpar_nome(nome_arquivo)
    raiz = os.path.splitext(base)[0] if base else "anexo"
    limpo = "".join(c if c.isalnum() or c in " ._-()" else "_" for c in raiz).strip(" .")
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
        raise NaoEncontrado(mensagem_nao_encontrado("Anexo", anexo_id))
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
        raise NaoEncontrado(mensagem_nao_encontrado("Anexo", anexo_id))
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
