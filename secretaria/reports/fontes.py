"""The TrueType family every PDF embeds, registered once with ReportLab on first use.

The base-14 Helvetica the documents used before prints only WinAnsi: anything else was transliterated, so
"2⁴" came out as "24" on a paper the Secretary signs. Liberation Sans (SIL OFL 1.1, shipped in
`resources/fonts/`) has Helvetica's metrics — the layout did not move — and covers what the notices print
(º, ª, ×, –, …, €, superscripts, arrows). Only the glyphs used are embedded (ReportLab subsets the font per
document) and the subset names are a counter, not random, so the same data still gives the same bytes.
"""

from __future__ import annotations

import functools
import threading
import unicodedata
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

import secretaria.resources

__all__ = [
    "FONTE",
    "FONTE_ITALICO",
    "FONTE_NEGRITO",
    "FONTE_NEGRITO_ITALICO",
    "imprimivel",
    "registrar_fontes",
]

PASTA = Path(secretaria.resources.__file__).with_name("fonts")
FAMILIA = "LiberationSans"
FONTE = "LiberationSans"
FONTE_NEGRITO = "LiberationSans-Bold"
FONTE_ITALICO = "LiberationSans-Italic"
FONTE_NEGRITO_ITALICO = "LiberationSans-BoldItalic"
_ARQUIVOS = {
    FONTE: "LiberationSans-Regular.ttf",
    FONTE_NEGRITO: "LiberationSans-Bold.ttf",
    FONTE_ITALICO: "LiberationSans-Italic.ttf",
    FONTE_NEGRITO_ITALICO: "LiberationSans-BoldItalic.ttf",
}
_REGISTRO = threading.Lock()


@functools.cache
def registrar_fontes() -> frozenset[int]:
    """Register the four faces and the family (so <b> and <i> pick them); return the code points covered.

    Reading the four files costs about 0.1 s: done at the first document, not at import.
    """
    with _REGISTRO:
        faces: list[TTFont] = []
        for nome, arquivo in _ARQUIVOS.items():
            face = TTFont(nome, str(PASTA / arquivo))
            pdfmetrics.registerFont(face)
            faces.append(face)
        for negrito, italico, nome in (
            (0, 0, FONTE),
            (1, 0, FONTE_NEGRITO),
            (0, 1, FONTE_ITALICO),
            (1, 1, FONTE_NEGRITO_ITALICO),
        ):
            addMapping(FAMILIA, negrito, italico, nome)
        pdfmetrics.registerFontFamily(
            FAMILIA,
            normal=FONTE,
            bold=FONTE_NEGRITO,
            italic=FONTE_ITALICO,
            boldItalic=FONTE_NEGRITO_ITALICO,
        )
        cobertos = set(faces[0].face.charToGlyph)
        for face in faces[1:]:
            cobertos &= set(face.face.charToGlyph)
        return frozenset(cobertos)


def imprimivel(texto: str) -> str:
    """The text as typed, except a character no face of the family draws, mapped to its plain letter
    ("ğ" is drawn, a rare one with no glyph becomes its base letter) rather than a blank box."""
    cobertos = registrar_fontes()
    if all(ord(c) in cobertos for c in texto):
        return texto
    saida: list[str] = []
    for caractere in texto:
        if ord(caractere) in cobertos or caractere in "\n\t":
            saida.append(caractere)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", caractere) if not unicodedata.combining(c))
        saida.append(base if base and all(ord(c) in cobertos for c in base) else "?")
    return "".join(saida)
