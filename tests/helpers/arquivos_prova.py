"""Small but whole evidence files (PDF, JPEG, PNG) for tests, each optionally marked so two differ.

`services.anexos.validar_conteudo` checks the whole file, so a test attaching "a PNG" needs one with its
chunks and CRCs right, a JPEG with its segments and end marker, a PDF the PDF reader opens.
"""

from __future__ import annotations

import struct
import zlib


def png(marca: bytes = b"") -> bytes:
    def bloco(tipo: bytes, dados: bytes) -> bytes:
        return struct.pack(">I", len(dados)) + tipo + dados + struct.pack(">I", zlib.crc32(tipo + dados))

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    texto = bloco(b"tEXt", b"Comment\x00" + marca) if marca else b""
    return (
        b"\x89PNG\r\n\x1a\n"
        + bloco(b"IHDR", ihdr)
        + texto
        + bloco(b"IDAT", zlib.compress(b"\x00\x80"))
        + bloco(b"IEND", b"")
    )


def jpeg(marca: bytes = b"") -> bytes:
    def segmento(marcador: int, dados: bytes) -> bytes:
        return bytes([0xFF, marcador]) + struct.pack(">H", len(dados) + 2) + dados

    return (
        b"\xff\xd8"
        + segmento(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
        + (segmento(0xFE, marca) if marca else b"")
        + segmento(0xC0, b"\x08\x00\x01\x00\x01\x01\x01\x11\x00")  # baseline frame, 1×1, one component
        + segmento(0xDA, b"\x01\x01\x00\x00\x3f\x00")  # start of scan
        + b"\x11" * 64  # entropy-coded data (no 0xFF)
        + b"\xff\xd9"
    )


def pdf(marca: bytes = b"") -> bytes:
    """One blank A4 page, with a correct cross-reference table."""
    objetos = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    ]
    saida = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n" + (b"% " + marca + b"\n" if marca else b"")
    posicoes = []
    for i, corpo in enumerate(objetos, 1):
        posicoes.append(len(saida))
        saida += f"{i} 0 obj\n".encode() + corpo + b"\nendobj\n"
    xref = len(saida)
    saida += f"xref\n0 {len(objetos) + 1}\n0000000000 65535 f \n".encode()
    saida += b"".join(f"{p:010d} 00000 n \n".encode() for p in posicoes)
    saida += f"trailer\n<< /Size {len(objetos) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return saida
