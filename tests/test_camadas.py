"""The layers and their import rule, read from every module's imports (`ast`, nothing is imported).

Data flows one way: ui → services → (lei, models). The table below says, for each layer, which other
layers of the project it may import; a layer always may import itself. A module that belongs to no layer
fails too, so a new package must take its place in the table. `tests/lei/test_pacote.py` checks the law
package's purity at run time as well (no Qt, no SQLAlchemy).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import secretaria

# Layer of a module: the longest prefix below that names it ("secretaria" itself names only the package's
# own __init__).
CAMADAS = {
    "secretaria": "pacote",
    "secretaria.__main__": "cli",
    "secretaria.cli": "cli",
    "secretaria.argumentos": "cli",  # argparse in Portuguese, for the command line only
    # How helper processes are started (`python -m …`, or `secretaria --auxiliar …` when frozen): read by the
    # command line before anything heavy loads, so it imports nothing of the project.
    "secretaria.auxiliares": "auxiliares",
    # `secretaria servidor preparar`: sets a PostgreSQL server up (roles, grants) and creates the schema as
    # its owner, seeded like any database the program opens; a piece of the composition root the CLI calls.
    "secretaria.servidor": "servidor",
    # The program's version and the licences of what it runs with, from package metadata.
    "secretaria.distribuicao": "distribuicao",
    "secretaria.lei": "lei",
    "secretaria.resources": "recursos",
    "secretaria.relogio": "relogio",
    "secretaria.erros": "erros",
    # The code lists (StrEnums) and their label tables: below the models, which build CHECKs from them.
    "secretaria.codigos": "codigos",
    # The office's own words for those lists (the import reads "Concessionária" as concessao).
    "secretaria.vocabulario": "codigos",
    "secretaria.models": "models",
    "secretaria.migracoes": "migracoes",
    "secretaria.migrations": "migracoes",
    "secretaria.db": "db",
    "secretaria.reports": "reports",
    "secretaria.services": "services",
    "secretaria.demo": "demo",
    "secretaria.ui": "ui",
}

# What each layer may import, besides itself.
PERMITIDAS: dict[str, frozenset[str]] = {
    "pacote": frozenset(),
    "auxiliares": frozenset(),
    "recursos": frozenset(),
    "relogio": frozenset(),
    "erros": frozenset(),
    "distribuicao": frozenset(),
    "codigos": frozenset(),
    "lei": frozenset({"recursos"}),
    "models": frozenset({"lei", "relogio", "erros", "codigos"}),
    "migracoes": frozenset({"models", "relogio"}),
    "db": frozenset({"models", "migracoes", "relogio", "erros"}),
    "reports": frozenset({"codigos", "lei", "relogio", "erros", "recursos"}),  # the fonts they embed
    "services": frozenset(
        {"codigos", "lei", "models", "migracoes", "db", "reports", "relogio", "erros", "recursos"}
    ),
    "demo": frozenset({"codigos", "lei", "models", "db", "services", "relogio", "erros"}),
    # The login screen of the demo database lists the demo's users.
    "ui": frozenset(
        {
            "codigos",
            "auxiliares",
            "lei",
            "db",
            "services",
            "reports",
            "demo",
            "relogio",
            "erros",
            "distribuicao",
        }
    ),
    "servidor": frozenset({"db", "services", "erros"}),
    # `secretaria --auxiliar secretaria.reports.desenhista` runs the chart helper in a frozen program.
    "cli": frozenset(
        {
            "codigos",
            "auxiliares",
            "db",
            "services",
            "reports",
            "demo",
            "ui",
            "servidor",
            "relogio",
            "erros",
            "distribuicao",
        }
    ),
}


def camada(modulo: str) -> str | None:
    if modulo == "secretaria":
        return CAMADAS[modulo]
    partes = modulo.split(".")
    for n in range(len(partes), 1, -1):
        nome = CAMADAS.get(".".join(partes[:n]))
        if nome is not None:
            return nome
    return None


def _nome_do_modulo(arquivo: Path, raiz: Path) -> str:
    partes = list(arquivo.relative_to(raiz).with_suffix("").parts)
    if partes[-1] == "__init__":
        partes.pop()
    return ".".join(partes)


def importacoes(arquivo: Path, modulo: str) -> list[tuple[int, str]]:
    """Every module of the project `arquivo` imports (line, module), relative imports resolved; imports
    inside functions and under TYPE_CHECKING count as well."""
    pacote = modulo.split(".") if arquivo.name == "__init__.py" else modulo.split(".")[:-1]
    achadas: list[tuple[int, str]] = []
    for no in ast.walk(ast.parse(arquivo.read_text(encoding="utf-8"), str(arquivo))):
        if isinstance(no, ast.Import):
            achadas.extend((no.lineno, a.name) for a in no.names)
        elif isinstance(no, ast.ImportFrom):
            base = pacote[: len(pacote) - no.level + 1] if no.level else []
            alvo = ".".join([*base, *([no.module] if no.module else [])])
            # `from secretaria import x` / `from . import x` may name modules: count each name as one.
            achadas.extend((no.lineno, f"{alvo}.{a.name}") for a in no.names)
    return [(linha, alvo) for linha, alvo in achadas if alvo.split(".")[0] == "secretaria"]


def violacoes(raiz: Path) -> list[str]:
    """Each import under `raiz/secretaria` that the table forbids, and each module the table does not place."""
    erros: list[str] = []
    for arquivo in sorted((raiz / "secretaria").rglob("*.py")):
        modulo = _nome_do_modulo(arquivo, raiz)
        origem = camada(modulo)
        local = arquivo.relative_to(raiz)
        if origem is None:
            erros.append(f"{local}: o módulo {modulo} não pertence a nenhuma camada")
            continue
        for linha, alvo in importacoes(arquivo, modulo):
            destino = camada(alvo)
            if destino is None or (destino != origem and destino not in PERMITIDAS[origem]):
                erros.append(f"{local}:{linha}: {origem} não pode importar {alvo} ({destino})")
    return erros


def test_cada_camada_importa_so_as_permitidas() -> None:
    raiz = Path(secretaria.__file__).resolve().parent.parent
    assert violacoes(raiz) == []


def test_tabela_cobre_todas_as_camadas() -> None:
    assert set(CAMADAS.values()) == set(PERMITIDAS)
    assert all(permitidas <= set(PERMITIDAS) for permitidas in PERMITIDAS.values())


def tabela_do_desenvolvimento(texto: str) -> dict[str, tuple[set[str], set[str]]]:
    """The layer table of DESENVOLVIMENTO.md: for each layer (first column), its modules (second column, under
    `secretaria.`) and the layers it may import (last column), each name in backticks."""
    secao = texto.split("## Layers and their import rule", 1)[1].split("\n## ", 1)[0]
    tabela: dict[str, tuple[set[str], set[str]]] = {}
    for linha in secao.splitlines():
        if not linha.startswith("| `"):
            continue
        celulas = [c.strip() for c in linha.strip().strip("|").split("|")]
        nomes = [re.findall(r"`([^`]+)`", c) for c in celulas]
        assert nomes[0][0] not in tabela, f"camada repetida: {nomes[0][0]}"
        tabela[nomes[0][0]] = (set(nomes[1]), set(nomes[-1]))
    return tabela


def test_tabela_do_desenvolvimento_e_a_do_teste() -> None:
    raiz = Path(secretaria.__file__).resolve().parent.parent
    documento = tabela_do_desenvolvimento((raiz / "DESENVOLVIMENTO.md").read_text(encoding="utf-8"))
    esperada = {
        nome: (
            {m.removeprefix("secretaria.") for m, c in CAMADAS.items() if c == nome},
            set(permitidas),
        )
        for nome, permitidas in PERMITIDAS.items()
    }
    assert documento == esperada


def test_tabela_do_desenvolvimento_acusa_diferenca() -> None:
    texto = (
        "## Layers and their import rule\n\n| layer | modules | what | may import |\n|---|---|---|---|\n"
        "| `db` | `db` | engine | `models`, `relogio` |\n\n## Next\n| `x` | `y` | z | — |\n"
    )
    assert tabela_do_desenvolvimento(texto) == {"db": ({"db"}, {"models", "relogio"})}


def _plantar(raiz: Path, caminho: str, codigo: str) -> None:
    arquivo = raiz / caminho
    arquivo.parent.mkdir(parents=True, exist_ok=True)
    for pasta in arquivo.relative_to(raiz).parents:
        if pasta != Path("."):
            (raiz / pasta / "__init__.py").touch()
    arquivo.write_text(codigo, encoding="utf-8")


@pytest.mark.parametrize(
    ("caminho", "codigo", "esperado"),
    [
        (
            "secretaria/db/banco.py",
            "from secretaria.services.semente import semear_basico\n",
            "db não pode importar",
        ),
        ("secretaria/lei/x.py", "import secretaria.models\n", "lei não pode importar secretaria.models"),
        ("secretaria/models/x.py", "from secretaria import db\n", "models não pode importar secretaria.db"),
        (
            "secretaria/services/x.py",
            "from ..ui import app\n",
            "services não pode importar secretaria.ui.app",
        ),
        (
            "secretaria/services/x.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from secretaria.demo import cidade\n",
            "services não pode importar secretaria.demo.cidade",
        ),
        (
            "secretaria/reports/x.py",
            "def f() -> None:\n    from secretaria.services import base\n",
            "reports não pode importar secretaria.services.base",
        ),
        ("secretaria/novo.py", "x = 1\n", "não pertence a nenhuma camada"),
    ],
)
def test_verificador_acusa_violacao_plantada(
    tmp_path: Path, caminho: str, codigo: str, esperado: str
) -> None:
    _plantar(tmp_path, "secretaria/services/semente.py", "from secretaria.db import Banco\n")
    assert violacoes(tmp_path) == []
    _plantar(tmp_path, caminho, codigo)
    encontradas = violacoes(tmp_path)
    assert len(encontradas) == 1
    assert esperado in encontradas[0]
