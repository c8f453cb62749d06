"""A typo in --db (or SECRETARIA_DB) naming a SQLite file that does not exist is refused by every command
(exit 2, a message naming the file, nothing created) unless the user asked for a new database."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria import cli
from secretaria.db import Banco, abrir_banco
from secretaria.models import Usuario

COMANDOS = [
    [],
    ["relatorio", "mensal", "2026-11", "-o", "{tmp}/mensal.xlsx"],
    ["usuario", "criar", "ana", "--papel", "fiscal"],
    ["documento", "auto", "0001/2026", "-o", "{tmp}/auto.pdf"],
    ["documento", "ficha", "11222333000181", "-o", "{tmp}/ficha.pdf"],
    ["documento", "intimacoes", "01/11/2026", "30/11/2026", "-o", "{tmp}/lote.pdf"],
    ["backup"],
    ["backup", "{tmp}/copia.sqlite"],
    ["backup", "--diaria"],
    ["backup", "--manter", "3"],
    ["auditoria", "verificar"],
]


@pytest.fixture(autouse=True)
def _sem_janela(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "secretaria.ui.app.executar", lambda *a, **k: pytest.fail("não deveria abrir a janela")
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("Senha12345\n"))
    monkeypatch.delenv("SECRETARIA_DB", raising=False)


def _arquivos(pasta: Path) -> list[str]:
    return sorted(str(p.relative_to(pasta)) for p in pasta.rglob("*"))


@pytest.mark.parametrize("comando", COMANDOS, ids=lambda c: " ".join(c[:2]) or "janela")
@pytest.mark.parametrize("forma", ["--db antes", "--db depois", "variavel"])
def test_banco_que_nao_existe_e_recusado_sem_criar_nada(
    comando: list[str],
    forma: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alvo = tmp_path / "secretaira.sqlite"  # the typo
    url = f"sqlite:///{alvo}"
    args = [a.format(tmp=tmp_path) for a in comando]
    if forma == "variavel":
        monkeypatch.setenv("SECRETARIA_DB", url)
    elif forma == "--db antes" or not args:
        args = ["--db", url, *args]
    else:
        args = [*args, "--db", url]
    assert cli.main(args) == cli.SAIDA_ERRO
    err = capsys.readouterr().err
    assert f"O banco de dados {alvo} não existe" in err and "nada foi criado" in err
    assert ("SECRETARIA_DB" in err) == (forma == "variavel")
    assert ("--criar" in err) == (comando[:1] in ([], ["usuario"]))
    assert _arquivos(tmp_path) == []


def test_banco_padrao_que_nao_existe_so_a_janela_cria(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("secretaria.db.url.pasta_dados", lambda: tmp_path / "dados")
    assert cli.main(["relatorio", "mensal", "2026-11", "-o", str(tmp_path / "m.xlsx")]) == cli.SAIDA_ERRO
    assert "abra o programa uma vez" in capsys.readouterr().err
    assert _arquivos(tmp_path) == []
    aberturas: list[str] = []

    def executar(banco: Banco, *, demo: bool) -> int:
        aberturas.append(banco.url)
        return 0

    monkeypatch.setattr("secretaria.ui.app.executar", executar)
    assert cli.main([]) == 0
    assert aberturas and (tmp_path / "dados" / "secretaria.sqlite").is_file()


def test_criar_cria_o_banco_pedido(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    novo = tmp_path / "novo.sqlite"
    url = f"sqlite:///{novo}"
    assert cli.main(["usuario", "criar", "ana", "--papel", "administrador", "--db", url, "--criar"]) == 0
    banco = abrir_banco(url, migrar=False)
    try:
        with banco.leitura() as s:
            assert set(s.scalars(sa.select(Usuario.login))) == {"ana"}
    finally:
        banco.fechar()
    outro = tmp_path / "outro.sqlite"
    aberturas: list[str] = []

    def executar(banco: Banco, *, demo: bool) -> int:
        aberturas.append(banco.url)
        return 0

    monkeypatch.setattr("secretaria.ui.app.executar", executar)
    assert cli.main(["--criar", "--db", f"sqlite:///{outro}"]) == 0
    assert outro.is_file() and aberturas == [f"sqlite:///{outro}"]
    # --criar is no licence for the commands that only read or copy a database.
    assert cli.main(["--criar", "backup", "--db", f"sqlite:///{tmp_path / 'x.sqlite'}"]) == cli.SAIDA_ERRO
    assert "--criar só vale" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite").exists()


def test_demo_cria_o_banco_indicado(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    novo = tmp_path / "demo-novo.sqlite"
    assert cli.main(["demo", "--db", f"sqlite:///{novo}"]) == 0
    assert novo.is_file() and "criado" in capsys.readouterr().out


def test_ajuda_explica_criar(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "--criar" in capsys.readouterr().out


_DEMO_ABERTO_DE_NOVO = """
import sys
from secretaria import cli
from secretaria.ui import app

aberturas = []
cli._conferir_bibliotecas_graficas = lambda: None
app.executar = lambda banco, *, demo: aberturas.append(demo) or 0
assert cli.main(["demo", "--abrir", "--db", sys.argv[1]]) == 0
print(aberturas, sorted(m for m in ("secretaria.demo.cidade", "secretaria.models") if m in sys.modules))
"""


def test_demo_existente_abre_sem_carregar_o_gerador(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`secretaria demo --abrir` on a demo already there starts as the program does: neither the city's
    generator nor the models load before the login window (the installed program's start to login)."""
    url = f"sqlite:///{tmp_path / 'demo.sqlite'}"
    assert cli.main(["demo", "--db", url]) == 0
    assert "criado" in capsys.readouterr().out
    saida = subprocess.run(
        [sys.executable, "-c", _DEMO_ABERTO_DE_NOVO, url], capture_output=True, text=True, check=True
    ).stdout
    assert "já existente" in saida
    assert saida.rstrip().endswith("[True] []")
