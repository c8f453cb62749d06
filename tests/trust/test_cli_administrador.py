"""`usuario criar` and `restaurar` ask for an administrator once the database has one: before,
any clerk at a terminal could make themselves administrator and Secretário, audited as "sistema"."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria import cli
from secretaria.db import abrir_banco
from secretaria.models import Auditoria, Usuario

SENHA_ADMIN = "Admin12345"


def _rodar(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, entrada: str, *args: str
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(entrada))
    codigo = cli.main(list(args))
    saida = capsys.readouterr()
    return codigo, saida.out + saida.err


def _usuarios(url: str) -> dict[str, frozenset[str]]:
    banco = abrir_banco(url, migrar=False)
    try:
        with banco.leitura() as s:
            return {u.login: u.nomes_papeis for u in s.scalars(sa.select(Usuario))}
    finally:
        banco.fechar()


def _quem_criou(url: str, login: str) -> str | None:
    banco = abrir_banco(url, migrar=False)
    try:
        with banco.leitura() as s:
            uid = s.scalar(sa.select(Usuario.id).where(Usuario.login == login))
            return s.scalar(
                sa.select(Auditoria.usuario_login).where(
                    Auditoria.acao == "criar_usuario", Auditoria.entidade_id == str(uid)
                )
            )
    finally:
        banco.fechar()


@pytest.fixture
def url(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A new database whose first administrator `ana` was created from the command line (no login asked)."""
    endereco = f"sqlite:///{tmp_path / 'secretaria.sqlite'}"
    codigo, texto = _rodar(
        capsys,
        monkeypatch,
        f"{SENHA_ADMIN}\n",
        "usuario",
        "criar",
        "ana",
        "--papel",
        "administrador",
        "--db",
        endereco,
        "--criar",
    )
    assert codigo == 0, texto
    assert _quem_criou(endereco, "ana") == "ana"  # the first administrator acts in their own name
    yield endereco


def test_senha_errada_do_administrador_nao_cria_nada(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    codigo, texto = _rodar(
        capsys,
        monkeypatch,
        "ana\nErrada9999\nNova12345x\n",
        "usuario",
        "criar",
        "zeca",
        "--papel",
        "administrador",
        "--papel",
        "secretario",
        "--db",
        url,
    )
    assert codigo == cli.SAIDA_ERRO and "Usuário ou senha incorretos" in texto
    assert set(_usuarios(url)) == {"ana"}


def test_quem_nao_e_administrador_nao_cria_usuarios(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    entrada = f"ana\n{SENHA_ADMIN}\nFiscal12345\n"
    assert (
        _rodar(capsys, monkeypatch, entrada, "usuario", "criar", "beto", "--papel", "fiscal", "--db", url)[0]
        == 0
    )
    codigo, texto = _rodar(
        capsys,
        monkeypatch,
        "beto\nFiscal12345\nNova12345x\n",
        "usuario",
        "criar",
        "zeca",
        "--papel",
        "administrador",
        "--db",
        url,
    )
    assert codigo == cli.SAIDA_ERRO and "papel Administrador" in texto
    assert set(_usuarios(url)) == {"ana", "beto"}


def test_administrador_certo_cria_e_fica_na_auditoria(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    codigo, texto = _rodar(
        capsys,
        monkeypatch,
        f"ana\n{SENHA_ADMIN}\nNova12345x\n",
        "usuario",
        "criar",
        "bia",
        "--papel",
        "secretario",
        "--db",
        url,
    )
    assert codigo == 0 and "Usuário bia criado" in texto
    assert _usuarios(url)["bia"] == {"secretario"}
    assert _quem_criou(url, "bia") == "ana"
    codigo, texto = _rodar(capsys, monkeypatch, "", "auditoria", "verificar", "--db", url)
    assert codigo == 0, texto


def test_no_terminal_pede_login_e_senha_com_getpass(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    perguntas: list[str] = []
    senhas = iter([SENHA_ADMIN, "Nova12345x", "Nova12345x"])

    def getpass(prompt: str = "") -> str:
        perguntas.append(prompt)
        return next(senhas)

    def digitar(prompt: str = "") -> str:
        perguntas.append(prompt)
        return "ana"

    tela = io.StringIO()
    monkeypatch.setattr(tela, "isatty", lambda: True)
    monkeypatch.setattr("sys.stdin", tela)
    monkeypatch.setattr("getpass.getpass", getpass)
    monkeypatch.setattr("builtins.input", digitar)
    assert cli.main(["usuario", "criar", "caio", "--papel", "protocolo", "--db", url]) == 0
    assert "criar usuários" in perguntas[0] and perguntas[1:] == [
        "Senha desse usuário: ",
        "Senha: ",
        "Repita a senha: ",
    ]
    assert _quem_criou(url, "caio") == "ana"
    capsys.readouterr()


def test_restaurar_pede_um_administrador(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    copia = tmp_path / "copia.sqlite"
    assert _rodar(capsys, monkeypatch, "", "backup", str(copia), "--db", url)[0] == 0
    entrada = f"ana\n{SENHA_ADMIN}\nNova12345x\n"
    assert (
        _rodar(capsys, monkeypatch, entrada, "usuario", "criar", "bia", "--papel", "fiscal", "--db", url)[0]
        == 0
    )
    codigo, texto = _rodar(
        capsys, monkeypatch, "ana\nErrada9999\n", "restaurar", str(copia), "--sim", "--db", url
    )
    assert codigo == cli.SAIDA_ERRO and "incorretos" in texto
    assert set(_usuarios(url)) == {"ana", "bia"}  # not restored
    codigo, texto = _rodar(
        capsys, monkeypatch, f"ana\n{SENHA_ADMIN}\n", "restaurar", str(copia), "--sim", "--db", url
    )
    assert codigo == 0 and "restaurado" in texto
    assert set(_usuarios(url)) == {"ana"}


def test_copia_diaria_agendada_nao_pede_ninguem(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    codigo, texto = _rodar(capsys, monkeypatch, "", "backup", "--diaria", "--db", url)
    assert codigo == 0, texto
