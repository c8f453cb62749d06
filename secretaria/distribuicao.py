"""What the program knows about its own distribution: its version and the licences of what it runs with.

Both come from package metadata (`importlib.metadata`): an installed checkout has it, and the frozen build
(`make dist`, empacotamento/secretaria.spec) carries the program's own metadata for the version and a folder
`licencas` written at build time by `gravar_licencas` from the build's installed distributions. So "Sobre" and
`secretaria --versao` say the same thing in both, and the licences listed are those of the versions bundled.
"""

from __future__ import annotations

import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

NOME = "secretaria"
PASTA_LICENCAS = "licencas"
INDICE_LICENCAS = "LEIA-ME.txt"

# The extra each of our dependencies is installed with (pyproject.toml: "psycopg[binary]").
_EXTRAS = {"psycopg": frozenset({"binary"})}
_ARQUIVO_DE_LICENCA = re.compile(
    r"(\.dist-info/licenses/.+|(^|/)(LICEN[CS]E|COPYING|NOTICE|AUTHORS)[^/]*)$", re.IGNORECASE
)
# LGPL libraries whose licence text their wheels do not carry (PySide6 and shiboken6 ship none): the texts
# are kept in empacotamento/licencas and copied beside them at build time.
_TEXTOS_LGPL = ("LGPL-3.0.txt", "GPL-3.0.txt")


def versao() -> str:
    """The program's version ("0.1.0"), or a plain word when it runs without metadata (a bare checkout)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(NOME)
    except PackageNotFoundError:
        return "(versão de desenvolvimento)"


def congelado() -> bool:
    """Whether this is the frozen one-folder program (PyInstaller sets `sys.frozen`)."""
    return bool(getattr(sys, "frozen", False))


def pasta_licencas() -> Path | None:
    """The folder of licences shipped beside the frozen program's executable, or None outside it."""
    if not congelado():
        return None
    return Path(sys.executable).resolve().parent / PASTA_LICENCAS


@dataclass(frozen=True)
class Componente:
    nome: str
    versao: str
    licenca: str
    arquivos: tuple[Path, ...]


def componentes() -> list[Componente]:
    """Every distribution the program needs at run time (its dependencies, recursively, with the extras it
    asks for), each with its declared licence and its licence files, sorted by name."""
    from importlib import metadata

    from packaging.requirements import Requirement

    vistos: dict[str, Componente] = {}
    feitos: set[tuple[str, frozenset[str]]] = set()
    pendentes: list[tuple[str, frozenset[str]]] = [(NOME, frozenset())]
    while pendentes:
        nome, extras = pendentes.pop()
        chave = _normalizar(nome)
        if (chave, extras) in feitos:
            continue
        feitos.add((chave, extras))
        try:
            dist = metadata.distribution(nome)
        except metadata.PackageNotFoundError:
            continue
        if chave != NOME:
            vistos[chave] = Componente(
                nome=dist.metadata["Name"],
                versao=dist.version,
                licenca=_licenca_declarada(dist.metadata),
                arquivos=tuple(
                    Path(str(dist.locate_file(f)))
                    for f in dist.files or ()
                    if _ARQUIVO_DE_LICENCA.search(f.as_posix()) and not f.as_posix().endswith(".py")
                ),
            )
        for texto in dist.requires or ():
            req = Requirement(texto)
            contextos = [{"extra": e} for e in extras] or [{"extra": ""}]
            if req.marker is not None and not any(req.marker.evaluate(c) for c in contextos):
                continue
            pedidos = frozenset(req.extras) | _EXTRAS.get(_normalizar(req.name), frozenset())
            pendentes.append((req.name, pedidos))
    return sorted(vistos.values(), key=lambda c: c.nome.lower())


def _normalizar(nome: str) -> str:
    return re.sub(r"[-_.]+", "-", nome).lower()


def _licenca_declarada(dados: object) -> str:
    """The SPDX expression, else a short License field, else the licence classifiers."""
    from email.message import Message

    assert isinstance(dados, Message)
    expressao = dados.get("License-Expression")
    if expressao:
        return str(expressao)
    campo = str(dados.get("License") or "").strip()
    if campo and "\n" not in campo and len(campo) <= 80:
        return campo
    classificadores = [
        c.split("::")[-1].strip() for c in dados.get_all("Classifier") or [] if c.startswith("License ::")
    ]
    return "; ".join(classificadores) or "veja os arquivos de licença"


def gravar_licencas(destino: Path, textos_extras: Path | None = None) -> Path:
    """Copy each component's licence files into `destino/<name>/` and write the index; returns the index.

    `textos_extras` is a folder with the LGPL and GPL texts for the Qt bindings, whose wheels carry none."""
    destino.mkdir(parents=True, exist_ok=True)
    linhas = [
        "Secretaria — licenças dos componentes incluídos",
        "",
        f"Secretaria {versao()}: programa da Secretaria Municipal de Serviços Urbanos de Pelotas "
        "(uso interno; licença própria).",
        "",
        "As bibliotecas abaixo são distribuídas com o programa sob as suas próprias licenças; o texto de cada",
        "uma está na pasta com o nome dela. As bibliotecas sob a LGPL (PySide6/Qt e shiboken6, bibliotecas",
        "compartilhadas; psycopg e num2words, em código-fonte Python) ficam como arquivos separados na pasta",
        "_internal do programa, carregadas em tempo de execução: podem ser substituídas por outra versão",
        "compatível sem recompilar o programa, como a LGPL exige. O código-fonte delas está em",
        "https://pypi.org e em https://download.qt.io.",
        "",
    ]
    for componente in componentes():
        pasta = destino / componente.nome
        pasta.mkdir(exist_ok=True)
        copiados = [_copiar(arquivo, pasta) for arquivo in componente.arquivos if arquivo.is_file()]
        if textos_extras is not None and "LGPL" in componente.licenca and not copiados:
            copiados = [
                _copiar(textos_extras / t, pasta) for t in _TEXTOS_LGPL if (textos_extras / t).is_file()
            ]
        arquivos = ", ".join(sorted(copiados)) or "(nenhum arquivo de licença no pacote)"
        linhas.append(f"{componente.nome} {componente.versao} — {componente.licenca}")
        linhas.append(f"    {componente.nome}/: {arquivos}")
    linhas.extend(_python(destino))
    linhas.extend(
        [
            "",
            "Fontes Liberation Sans (nos documentos em PDF): SIL Open Font License 1.1, em",
            "_internal/secretaria/resources/fonts/LICENSE-LiberationSans.txt.",
            "",
            "O executável foi montado pelo PyInstaller, cujo carregador é distribuído sob a GPL 2 com uma exceção",
            f"que permite usá-lo em programas de qualquer licença{_pyinstaller(destino)}.",
        ]
    )
    indice = destino / INDICE_LICENCAS
    indice.write_text("\n".join(linhas) + "\n", encoding="utf-8")
    return indice


def _python(destino: Path) -> list[str]:
    """The interpreter's own licence (PSF), found beside its standard library."""
    import sysconfig

    candidatos = [
        Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt",
        Path(sys.base_prefix) / "LICENSE.txt",
    ]
    pasta = destino / "Python"
    for candidato in candidatos:
        if candidato.is_file():
            pasta.mkdir(exist_ok=True)
            return [
                "",
                f"Python {sys.version.split()[0]} — PSF-2.0",
                f"    Python/: {_copiar(candidato, pasta)}",
            ]
    return ["", f"Python {sys.version.split()[0]} — PSF-2.0 (https://docs.python.org/3/license.html)"]


def _pyinstaller(destino: Path) -> str:
    """The bootloader's licence (PyInstaller's COPYING), when the build's PyInstaller is installed here."""
    from importlib import metadata

    try:
        arquivos = metadata.distribution("pyinstaller").files or []
    except metadata.PackageNotFoundError:
        return ""
    copiados = []
    for arquivo in arquivos:
        if arquivo.name.upper().startswith("COPYING"):
            (destino / "PyInstaller").mkdir(exist_ok=True)
            copiados.append(_copiar(Path(str(arquivo.locate())), destino / "PyInstaller"))
    return f" (texto em PyInstaller/: {', '.join(copiados)})" if copiados else ""


def _copiar(arquivo: Path, pasta: Path) -> str:
    """Copy one licence file; two files of the same name (numpy ships several LICENSE.txt) keep both."""
    alvo = pasta / arquivo.name
    n = 1
    while alvo.exists():
        n += 1
        alvo = pasta / f"{arquivo.stem}-{n}{arquivo.suffix}"
    shutil.copyfile(arquivo, alvo)
    return alvo.name
