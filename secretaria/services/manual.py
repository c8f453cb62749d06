"""The user's manual shipped inside the program: Markdown files in `secretaria/resources/manual/`, one per
section, each named by its stable id (`autos.md` is the section "autos"); `indice.txt` orders them (two
spaces of indentation per level). Links between sections are relative file links (`[Intimação](intimacao.md)`),
so the files also read as plain Markdown outside the program.

    manual = carregar()
    manual.secao("intimacao").titulo     # "Intimação (art. 11)"
    manual.buscar("prazo recurso")       # the sections holding every word, accents ignored
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from importlib.resources import files

from secretaria.services.base import ErroDominio

INICIO = "indice"
"""The manual's start page (F1 where no page declares a section)."""
PRIMEIROS_PASSOS = "primeiros-passos"

_LINK = re.compile(r"\]\(([^)\s]+)\)")
_TITULO = re.compile(r"^#\s+(.+?)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Secao:
    id: str
    titulo: str
    texto: str
    """The section's Markdown."""
    nivel: int
    """0 for a top entry of the contents, 1 for one under it…"""
    pai: str | None


@dataclass(frozen=True)
class Resultado:
    secao: str
    titulo: str
    trecho: str
    """The first line holding one of the words (what the search list shows under the title)."""


def _sem_acento(texto: str) -> str:
    decomposto = unicodedata.normalize("NFD", texto.lower())
    return "".join(c for c in decomposto if not unicodedata.combining(c))


@dataclass(frozen=True)
class Manual:
    secoes: tuple[Secao, ...]

    def ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.secoes)

    def existe(self, id_: str) -> bool:
        return any(s.id == id_ for s in self.secoes)

    def secao(self, id_: str) -> Secao:
        for s in self.secoes:
            if s.id == id_:
                return s
        raise ErroDominio(f"A seção “{id_}” não existe no manual.")

    def links(self, id_: str) -> tuple[str, ...]:
        """The targets of the section's links, as written (`autos.md`, `https://…`)."""
        return tuple(_LINK.findall(self.secao(id_).texto))

    def buscar(self, termo: str) -> list[Resultado]:
        """The sections holding every word of `termo` (case and accents ignored), title matches first."""
        palavras = _sem_acento(termo).split()
        if not palavras:
            return []
        achados: list[tuple[int, Resultado]] = []
        for s in self.secoes:
            chave = _sem_acento(s.texto)
            if not all(p in chave for p in palavras):
                continue
            titulo = _sem_acento(s.titulo)
            trecho = next(
                (
                    linha.strip("#*- ").strip()
                    for linha in s.texto.splitlines()[1:]
                    if any(p in _sem_acento(linha) for p in palavras) and linha.strip()
                ),
                "",
            )
            achados.append(
                (0 if any(p in titulo for p in palavras) else 1, Resultado(s.id, s.titulo, trecho))
            )
        return [r for _prioridade, r in sorted(achados, key=lambda a: a[0])]


def alvo_do_link(link: str) -> str | None:
    """The section id a manual link points to (`intimacao.md` → "intimacao"), None for an outside address."""
    if "://" in link or link.startswith("mailto:"):
        return None
    nome = link.split("#", 1)[0]
    return nome[:-3] if nome.endswith(".md") else nome


@functools.cache
def carregar() -> Manual:
    """The manual as shipped (read once)."""
    pasta = files("secretaria.resources").joinpath("manual")
    indice = pasta.joinpath("indice.txt").read_text(encoding="utf-8")
    secoes: list[Secao] = []
    pais: list[str] = []
    for linha in indice.splitlines():
        if not linha.strip() or linha.lstrip().startswith("#"):
            continue
        nivel = (len(linha) - len(linha.lstrip(" "))) // 2
        id_ = linha.strip()
        texto = pasta.joinpath(f"{id_}.md").read_text(encoding="utf-8")
        achado = _TITULO.search(texto)
        titulo = achado.group(1) if achado else id_
        del pais[nivel:]
        secoes.append(Secao(id_, titulo, texto, nivel, pais[-1] if pais else None))
        pais.append(id_)
    return Manual(tuple(secoes))
