"""The layers and their import rule, read from every module's imports (`ast`, nothing is imported).

Data flows one way: ui → services → (lei, models). The table below says, for each layer, which other
layers of the project it may import; a layer always may import itself. A module that belongs to no layer
fails too, so a new package must take its place in the table. `tests/lei/test_pacote.py` checks the law
package's purity at run time as well (no Qt, no SQLAlchemy).

Two more rules about the project's own modules, read the same way: no import cycle, counting the imports
inside functions (a cycle held together by a function-level import is still two modules that cannot be
understood apart; only heavy third-party libraries are imported lazily, and they are not the project's), and
no module takes a private name (`_x`) from another: a helper two modules share gets a public name, or a
module of its own.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
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
    # Full cyclic collections held back while a task or a render runs: a process-wide setting.
    "secretaria.coleta": "coleta",
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

# What each layer may import, besides itself: what it does import, no more, so a new arrow is a decision
# taken here (and in DESENVOLVIMENTO.md's table), not one the table quietly allowed.
PERMITIDAS: dict[str, frozenset[str]] = {
    "pacote": frozenset(),
    "auxiliares": frozenset(),
    "recursos": frozenset(),
    "relogio": frozenset(),
    "coleta": frozenset(),
    "erros": frozenset(),
    "distribuicao": frozenset(),
    "codigos": frozenset(),
    # The catalogue's CSV, read with importlib.resources by the package's name (no import the `ast` sees).
    "lei": frozenset({"recursos"}),
    "models": frozenset({"codigos", "relogio"}),
    "migracoes": frozenset({"models"}),
    "db": frozenset({"models", "migracoes", "relogio", "erros"}),
    # Plain data in, same bytes out: no clock (the data carries its dates); the fonts they embed.
    "reports": frozenset({"codigos", "lei", "recursos", "coleta"}),
    # `recursos`: the manual's pages, read with importlib.resources by the package's name.
    "services": frozenset(
        {"codigos", "lei", "models", "migracoes", "db", "reports", "relogio", "erros", "recursos"}
    ),
    "demo": frozenset({"lei", "models", "db", "services", "relogio"}),
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
            "coleta",
            "distribuicao",
        }
    ),
    "servidor": frozenset({"db", "services"}),
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


def _origem(no: ast.ImportFrom, arquivo: Path, modulo: str) -> str:
    """The module a `from … import …` in `arquivo` (module `modulo`) names, relative imports resolved."""
    pacote = modulo.split(".") if arquivo.name == "__init__.py" else modulo.split(".")[:-1]
    base = pacote[: len(pacote) - no.level + 1] if no.level else []
    return ".".join([*base, *([no.module] if no.module else [])])


def importacoes(arquivo: Path, modulo: str) -> list[tuple[int, str]]:
    """Every module of the project `arquivo` imports (line, module), relative imports resolved; imports
    inside functions and under TYPE_CHECKING count as well."""
    achadas: list[tuple[int, str]] = []
    for no in ast.walk(ast.parse(arquivo.read_text(encoding="utf-8"), str(arquivo))):
        if isinstance(no, ast.Import):
            achadas.extend((no.lineno, a.name) for a in no.names)
        elif isinstance(no, ast.ImportFrom):
            alvo = _origem(no, arquivo, modulo)
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


# Permissions no import statement shows: the package read by its name through importlib.resources.
LIDAS_PELO_NOME = {("lei", "recursos"), ("services", "recursos")}


def test_tabela_nao_permite_o_que_nenhum_modulo_importa() -> None:
    raiz = Path(secretaria.__file__).resolve().parent.parent
    usadas: set[tuple[str | None, str | None]] = set(LIDAS_PELO_NOME)
    for arquivo in (raiz / "secretaria").rglob("*.py"):
        modulo = _nome_do_modulo(arquivo, raiz)
        origem = camada(modulo)
        usadas.update((origem, camada(alvo)) for _linha, alvo in importacoes(arquivo, modulo))
    sobrando = {(origem, destino) for origem, permitidas in PERMITIDAS.items() for destino in permitidas}
    assert sobrando - usadas == set()


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


# --- import cycles and private names ------------------------------------------------------------------------


def modulos_do_projeto(raiz: Path) -> dict[str, Path]:
    """Every module under `raiz/secretaria`, by its dotted name."""
    return {_nome_do_modulo(a, raiz): a for a in sorted((raiz / "secretaria").rglob("*.py"))}


@dataclass(frozen=True)
class Importacao:
    linha: int
    modulo: str
    """The project module whose code the import runs (`from pacote import modulo` names `pacote.modulo`)."""
    nome: str | None
    """The name taken from it (`from modulo import nome`); None when the module itself is bound."""
    apelido: str | None
    """The local name the module is bound to (`import a.b as m`, `from a import b`), to follow `m._x`."""


def importacoes_resolvidas(arquivo: Path, modulo: str, modulos: dict[str, Path]) -> list[Importacao]:
    """The project modules `arquivo` imports, each resolved to the module that runs, wherever the import is
    (module level, inside a function, under TYPE_CHECKING). A parent package's `__init__`, which Python runs
    first, is not counted: only the module an import names."""
    achadas: list[Importacao] = []
    for no in ast.walk(ast.parse(arquivo.read_text(encoding="utf-8"), str(arquivo))):
        if isinstance(no, ast.Import):
            for a in no.names:
                partes = a.name.split(".")
                while partes and ".".join(partes) not in modulos:
                    partes.pop()
                if partes:
                    achadas.append(Importacao(no.lineno, ".".join(partes), None, a.asname))
        elif isinstance(no, ast.ImportFrom):
            origem = _origem(no, arquivo, modulo)
            if origem not in modulos:
                continue
            for a in no.names:
                if f"{origem}.{a.name}" in modulos:
                    achadas.append(Importacao(no.lineno, f"{origem}.{a.name}", None, a.asname or a.name))
                else:
                    achadas.append(Importacao(no.lineno, origem, a.name, None))
    return achadas


def ciclos(raiz: Path) -> list[str]:
    """Each group of the project's modules that import one another, directly or around a loop (a strongly
    connected component of the import graph), with the imports that close it."""
    modulos = modulos_do_projeto(raiz)
    arestas: dict[str, dict[str, int]] = {m: {} for m in modulos}
    for modulo, arquivo in modulos.items():
        for imp in importacoes_resolvidas(arquivo, modulo, modulos):
            if imp.modulo != modulo:
                arestas[modulo].setdefault(imp.modulo, imp.linha)
    ordem: dict[str, int] = {}
    menor: dict[str, int] = {}
    pilha: list[str] = []
    grupos: list[list[str]] = []

    def visitar(v: str) -> None:  # Tarjan's algorithm
        ordem[v] = menor[v] = len(ordem)
        pilha.append(v)
        for w in arestas[v]:
            if w not in ordem:
                visitar(w)
                menor[v] = min(menor[v], menor[w])
            elif w in pilha:
                menor[v] = min(menor[v], ordem[w])
        if menor[v] == ordem[v]:
            grupo = [pilha.pop()]
            while grupo[-1] != v:
                grupo.append(pilha.pop())
            if len(grupo) > 1:
                grupos.append(sorted(grupo))

    for v in modulos:
        if v not in ordem:
            visitar(v)
    return [
        " ↔ ".join(grupo)
        + ": "
        + "; ".join(f"{a}:{arestas[a][b]} → {b}" for a in grupo for b in sorted(arestas[a]) if b in grupo)
        for grupo in sorted(grupos)
    ]


def nomes_privados_de_fora(raiz: Path) -> list[str]:
    """Each private name (`_x`, not `__x__`) a module takes from another module of the project: imported
    (`from m import _x`) or read through the module (`m._x`)."""
    modulos = modulos_do_projeto(raiz)
    achados: list[str] = []
    for modulo, arquivo in modulos.items():
        local = arquivo.relative_to(raiz)
        apelidos: dict[str, str] = {}
        for imp in importacoes_resolvidas(arquivo, modulo, modulos):
            if imp.apelido is not None:
                apelidos[imp.apelido] = imp.modulo
            if imp.nome is not None and _privado(imp.nome) and imp.modulo != modulo:
                achados.append(f"{local}:{imp.linha}: {imp.nome} de {imp.modulo}")
        for no in ast.walk(ast.parse(arquivo.read_text(encoding="utf-8"), str(arquivo))):
            if (
                isinstance(no, ast.Attribute)
                and isinstance(no.value, ast.Name)
                and no.value.id in apelidos
                and _privado(no.attr)
            ):
                achados.append(f"{local}:{no.lineno}: {no.attr} de {apelidos[no.value.id]}")
    return achados


def _privado(nome: str) -> bool:
    return nome.startswith("_") and not (nome.startswith("__") and nome.endswith("__"))


def test_nenhum_ciclo_de_importacao() -> None:
    assert ciclos(Path(secretaria.__file__).resolve().parent.parent) == []


def test_nenhum_nome_privado_de_outro_modulo() -> None:
    assert nomes_privados_de_fora(Path(secretaria.__file__).resolve().parent.parent) == []


def test_ciclo_plantado_e_acusado_mesmo_dentro_de_funcao(tmp_path: Path) -> None:
    _plantar(tmp_path, "secretaria/reports/a.py", "from secretaria.reports import b\n\nX = 1\n")
    _plantar(tmp_path, "secretaria/reports/b.py", "from secretaria.reports.c import Y\n")
    _plantar(tmp_path, "secretaria/reports/c.py", "Y = 2\n")
    assert ciclos(tmp_path) == []
    _plantar(
        tmp_path,
        "secretaria/reports/c.py",
        "Y = 2\n\n\ndef f() -> int:\n    from .a import X\n\n    return X\n",
    )
    assert ciclos(tmp_path) == [
        "secretaria.reports.a ↔ secretaria.reports.b ↔ secretaria.reports.c: secretaria.reports.a:1 → "
        "secretaria.reports.b; secretaria.reports.b:1 → secretaria.reports.c; secretaria.reports.c:5 → "
        "secretaria.reports.a"
    ]


def test_nome_privado_plantado_e_acusado(tmp_path: Path) -> None:
    _plantar(tmp_path, "secretaria/services/a.py", "_x = 1\ny = _x\n")
    _plantar(
        tmp_path, "secretaria/services/b.py", "from secretaria.services import a\n\nz = a.y, a.__name__\n"
    )
    assert nomes_privados_de_fora(tmp_path) == []
    _plantar(tmp_path, "secretaria/services/c.py", "from .a import _x\n")
    _plantar(tmp_path, "secretaria/services/d.py", "import secretaria.services.a as m\n\nw = m._x\n")
    assert nomes_privados_de_fora(tmp_path) == [
        "secretaria/services/c.py:1: _x de secretaria.services.a",
        "secretaria/services/d.py:3: _x de secretaria.services.a",
    ]
