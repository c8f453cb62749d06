"""Launched without a console (the Start-menu shortcut, pythonw, the windowed frozen build: sys.stdout and
sys.stderr are None), the program still says why it did not open: in a message box and in the log file.

Each case runs in a child Python whose standard streams are set to None before the program's entry point is
called, with the message box replaced by a recorder (`sem_console.caixa`) and its data folder in tmp_path.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from secretaria.db import abrir_banco

_PROGRAMA = """
import json, sys
registro, entrada = sys.argv[1:3]
sys.argv = ["secretaria", *sys.argv[3:]]
sys.stdout = sys.stderr = None
from secretaria.ui import sem_console

def caixa(titulo, texto, *, erro):
    with open(registro, "a", encoding="utf-8") as f:
        f.write(json.dumps({"titulo": titulo, "texto": texto, "erro": erro}) + "\\n")

sem_console.caixa = caixa
from secretaria import cli
codigo = cli.main_janela() if entrada == "janela" else cli.main()
with open(registro + ".codigo", "w", encoding="utf-8") as f:
    f.write(str(codigo))
"""


def _rodar(tmp_path: Path, entrada: str, *argumentos: str) -> tuple[int, list[dict[str, object]], str]:
    """(exit code, the message boxes shown, the log file's text) of the program run without a console."""
    registro = tmp_path / "caixas.jsonl"
    ambiente = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path / "dados"),
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
    }
    ambiente.pop("SECRETARIA_DB", None)
    subprocess.run(
        [sys.executable, "-c", _PROGRAMA, str(registro), entrada, *argumentos],
        env=ambiente,
        check=True,
        timeout=120,
        capture_output=True,
    )
    codigo = int((tmp_path / "caixas.jsonl.codigo").read_text(encoding="utf-8"))
    caixas = (
        [json.loads(linha) for linha in registro.read_text(encoding="utf-8").splitlines()]
        if registro.exists()
        else []
    )
    log = tmp_path / "dados" / "Secretaria" / "secretaria.log"
    return codigo, caixas, log.read_text(encoding="utf-8") if log.exists() else ""


@pytest.mark.parametrize("entrada", ["console", "janela"])
def test_banco_inexistente_aparece_numa_caixa_e_no_log(tmp_path: Path, entrada: str) -> None:
    inexistente = tmp_path / "nao-existe.sqlite"
    codigo, caixas, log = _rodar(tmp_path, entrada, "--db", f"sqlite:///{inexistente}")
    assert codigo == 2
    assert len(caixas) == 1
    assert caixas[0]["erro"] is True
    assert str(inexistente) in str(caixas[0]["texto"])
    assert "não existe" in str(caixas[0]["texto"])
    assert "secretaria.log" in str(caixas[0]["texto"])  # says where the log is
    assert str(inexistente) in log and "não existe" in log
    assert not inexistente.exists()


def test_servidor_inacessivel_aparece_numa_caixa_e_no_log(tmp_path: Path) -> None:
    # Nothing listens on port 1 of this machine: the connection is refused at once.
    codigo, caixas, log = _rodar(tmp_path, "janela", "--db", "postgresql+psycopg://ninguem@127.0.0.1:1/x")
    assert codigo == 2
    assert len(caixas) == 1 and "Não foi possível conectar" in str(caixas[0]["texto"])
    assert "Não foi possível conectar" in log


def test_banco_mais_novo_que_o_programa_aparece_numa_caixa_e_no_log(tmp_path: Path) -> None:
    arquivo = tmp_path / "novo.sqlite"
    abrir_banco(f"sqlite:///{arquivo}").fechar()
    with contextlib.closing(sqlite3.connect(arquivo)) as conexao, conexao:
        conexao.execute("UPDATE alembic_version SET version_num = '9999'")
    codigo, caixas, log = _rodar(tmp_path, "console", "--db", f"sqlite:///{arquivo}")
    assert codigo == 2
    assert len(caixas) == 1 and "versão mais nova" in str(caixas[0]["texto"])
    assert "versão mais nova" in log


def test_comando_sem_console_vai_ao_log_sem_caixa(tmp_path: Path) -> None:
    """A command (a scheduled task, say) refused without a console: logged, and no box waits for a click."""
    inexistente = tmp_path / "nao-existe.sqlite"
    codigo, caixas, log = _rodar(tmp_path, "console", "backup", "--db", f"sqlite:///{inexistente}")
    assert codigo == 2
    assert caixas == []
    assert str(inexistente) in log


def test_versao_e_erro_de_argumentos_aparecem_numa_caixa(tmp_path: Path) -> None:
    codigo, caixas, _log = _rodar(tmp_path, "janela", "--versao")
    assert codigo == 0
    assert caixas == [{"titulo": "Secretaria", "texto": f"Secretaria {version('secretaria')}", "erro": False}]

    (tmp_path / "caixas.jsonl").unlink()
    codigo, caixas, log = _rodar(tmp_path, "janela", "--opcao-que-nao-existe")
    assert codigo == 2
    assert len(caixas) == 1 and "--opcao-que-nao-existe" in str(caixas[0]["texto"])
    assert "argumentos não reconhecidos" in log
