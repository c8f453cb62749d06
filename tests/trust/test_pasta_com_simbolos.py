"""A database, its copies and the files the program writes in a folder named as Windows allows and an
office names it: "Fiscalização #2 100%" (a "#" starts a URI's fragment, a "%" an escape). Each copy is
checked WHOLE (the same rows as its source, table by table), never merely present, and nothing may appear
beside the folder (the old `file:{path}` URI created an empty "Fiscalização " there and copied that)."""

from __future__ import annotations

import io
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import sqlalchemy as sa
from pypdf import PdfReader

from secretaria import cli, migracoes
from secretaria.db import abrir_banco, arquivo_sqlite, copiar_sqlite, uri_sqlite, url_sqlite
from secretaria.lei.documentos import digitos_cnpj
from secretaria.services.base import SISTEMA
from secretaria.services.contas import criar_usuario
from secretaria.services.semente import abrir_e_semear
from tests.helpers import cenario_documentos as cen
from tests.helpers.fabrica import contagens, popular

NOME = "Fiscalização #2 100%"


@pytest.fixture
def acima(tmp_path: Path) -> Path:
    """The folder that holds the odd one: it must hold nothing else at the end of every test."""
    pasta = tmp_path / "Secretaria de Mobilidade"
    pasta.mkdir()
    return pasta


@pytest.fixture
def pasta(acima: Path) -> Iterator[Path]:
    pasta = acima / NOME
    pasta.mkdir()
    yield pasta
    assert [p.name for p in acima.iterdir()] == [NOME], "um arquivo apareceu ao lado da pasta"


@pytest.fixture
def url(sqlite_modelo: Path, pasta: Path) -> str:
    """A SQLite database in the folder, with two users (audited) beside the seeded catalogue."""
    arquivo = pasta / "secretaria.sqlite"
    shutil.copyfile(sqlite_modelo, arquivo)
    endereco = url_sqlite(arquivo)
    banco = abrir_e_semear(endereco)
    try:
        for login in ("ana", "bruno"):
            criar_usuario(banco.uow(), SISTEMA, login=login, nome=login, senha="senha123", papeis=["fiscal"])
    finally:
        banco.fechar()
    return endereco


@pytest.fixture
def url_na_pasta(banco_url: str, pasta: Path) -> str:
    """Each database: the SQLite file moved into the folder; PostgreSQL as it is (its files go there)."""
    arquivo = arquivo_sqlite(banco_url)
    if arquivo is None:
        return banco_url
    destino = pasta / "secretaria.sqlite"
    shutil.copyfile(arquivo, destino)
    return url_sqlite(destino)


def _linhas(arquivo: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of a SQLite file (opened by name, no URI), sorted: what "whole" compares."""
    con = sqlite3.connect(arquivo)
    try:
        tabelas = [r[0] for r in con.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
        return {t: sorted(con.execute(f'SELECT * FROM "{t}"'), key=repr) for t in tabelas}
    finally:
        con.close()


def _inteira(copia: Path, fonte: Path) -> None:
    linhas = _linhas(copia)
    assert linhas == _linhas(fonte)
    assert (
        len(linhas["usuario"]) == 2 and len(linhas["auditoria"]) >= 2
    )  # the data are in it, not just tables


def _rodar(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    codigo = cli.main(list(args))
    saida = capsys.readouterr()
    return codigo, saida.out, saida.err


def test_uri_le_o_proprio_arquivo_com_qualquer_caractere(acima: Path) -> None:
    for nome in (NOME, "a?b", "c%20d", "e#f", "ç ã"):
        pasta = acima / nome
        pasta.mkdir()
        con = sqlite3.connect(pasta / "x.sqlite")
        con.execute("CREATE TABLE t (v TEXT)")
        con.execute("INSERT INTO t VALUES (?)", (nome,))
        con.commit()
        con.close()
        leitura = sqlite3.connect(uri_sqlite(pasta / "x.sqlite", mode="ro"), uri=True)
        try:
            assert leitura.execute("SELECT v FROM t").fetchall() == [(nome,)]
        finally:
            leitura.close()
    assert sorted(p.name for p in acima.iterdir()) == sorted([NOME, "a?b", "c%20d", "e#f", "ç ã"])


def test_backup_inteiro(url: str, pasta: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arquivo = pasta / "secretaria.sqlite"
    codigo, out, err = _rodar(capsys, "backup", "--db", url)
    assert codigo == 0, err
    [copia] = (pasta / "backups").iterdir()
    assert f"gravada em {copia}" in out
    _inteira(copia, arquivo)

    destino = pasta / "cópia manual #1.sqlite"
    codigo, _out, err = _rodar(capsys, "backup", str(destino), "--db", url)
    assert codigo == 0, err
    _inteira(destino, arquivo)


def test_copia_diaria_pela_linha_de_comando_e_ao_abrir(
    url: str, pasta: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    arquivo = pasta / "secretaria.sqlite"
    monkeypatch.setattr("secretaria.relogio.hoje", lambda: date(2026, 4, 7))
    codigo, out, err = _rodar(capsys, "backup", "--diaria", "--db", url)
    assert codigo == 0 and "Cópia diária gravada" in out, err
    _inteira(pasta / "backups" / "secretaria-2026-04-07.sqlite", arquivo)

    monkeypatch.setattr("secretaria.relogio.hoje", lambda: date(2026, 4, 8))
    monkeypatch.setattr("secretaria.ui.app.executar", lambda banco, demo: 0)
    codigo, _out, err = _rodar(capsys, "--db", url)  # the window's automatic copy
    assert codigo == 0 and err == ""
    _inteira(pasta / "backups" / "secretaria-2026-04-08.sqlite", arquivo)
    assert sorted(p.name for p in (pasta / "backups").iterdir()) == [
        "secretaria-2026-04-07.sqlite",
        "secretaria-2026-04-08.sqlite",
    ]


def test_copia_antes_de_atualizar_inteira(pasta: Path, tmp_path: Path) -> None:
    arquivo = pasta / "secretaria.sqlite"
    engine = sa.create_engine(url_sqlite(arquivo))
    migracoes.atualizar(engine, "0001")  # a database of the first release
    with engine.begin() as conn:
        for n in range(50):
            conn.execute(
                sa.text("INSERT INTO configuracao (chave, valor) VALUES (:c, :v)"),
                {"c": f"chave {n} #%", "v": "x" * 500},
            )
    engine.dispose()
    antes = tmp_path / "referencia.sqlite"
    shutil.copyfile(arquivo, antes)

    abrir_banco(url_sqlite(arquivo)).fechar()

    [copia] = pasta.glob("secretaria.antes-de-atualizar-*.sqlite")
    linhas = _linhas(copia)
    assert linhas == _linhas(antes) and len(linhas["configuracao"]) == 50
    assert linhas["alembic_version"] == [("0001",)]


def test_restaurar(url: str, pasta: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arquivo = pasta / "secretaria.sqlite"
    copia = pasta / "cópia #1.sqlite"
    assert _rodar(capsys, "backup", str(copia), "--db", url)[0] == 0
    referencia = _linhas(copia)
    banco = abrir_e_semear(url)
    try:
        criar_usuario(banco.uow(), SISTEMA, login="intrusa", nome="x", senha="senha123", papeis=["fiscal"])
    finally:
        banco.fechar()

    codigo, out, err = _rodar(capsys, "restaurar", str(copia), "--sim", "--db", url)

    assert codigo == 0 and "restaurado" in out, err
    depois = _linhas(arquivo)
    assert depois["usuario"] == referencia["usuario"]  # intrusa is gone, ana and bruno are back
    assert depois["auditoria"][: len(referencia["auditoria"])] == referencia["auditoria"]
    assert len(depois["auditoria"]) == len(referencia["auditoria"]) + 1  # and the restore itself
    [guardado] = pasta.glob("secretaria.substituido-*.sqlite")
    assert {r[1] for r in _linhas(guardado)["usuario"]} >= {"intrusa"}
    codigo, out, _err = _rodar(capsys, "auditoria", "verificar", "--db", url)
    assert codigo == 0, out


def test_importar_planilha_da_pasta(
    url_na_pasta: str, pasta: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    banco = abrir_e_semear(url_na_pasta)
    try:
        popular(banco)
        antes = contagens(banco)
        planilha = pasta / "operadoras #2 100%.csv"
        cnpj = "123456780001" + digitos_cnpj("123456780001")
        linhas = f"Razão social;CNPJ;Logradouro;Bairro\nViação Nova Ltda.;{cnpj};Rua A;Centro\n"
        planilha.write_bytes(linhas.encode("cp1252"))
        codigo, out, err = _rodar(capsys, "importar", "operadoras", str(planilha), "--db", url_na_pasta)
        assert codigo == 0 and "1 nova" in out, out + err
        depois = contagens(banco)
    finally:
        banco.fechar()
    assert depois["operadora"] == antes["operadora"] + 1


def test_documento_e_planilha_gravados_na_pasta(
    url_na_pasta: str, pasta: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    banco = abrir_e_semear(url_na_pasta)
    try:
        cenario = cen.montar(banco, monkeypatch)
    finally:
        banco.fechar()
    pdf = pasta / "auto nº 1 #2 100%.pdf"
    numero = cenario.numeros[cenario.multado]
    codigo, _out, err = _rodar(capsys, "documento", "auto", numero, "-o", str(pdf), "--db", url_na_pasta)
    assert codigo == 0, err
    assert len(PdfReader(io.BytesIO(pdf.read_bytes())).pages) == 2
    planilha = pasta / "novembro #2 100%.xlsx"
    codigo, out, err = _rodar(
        capsys, "relatorio", "mensal", "2026-11", "-o", str(planilha), "--db", url_na_pasta
    )
    assert codigo == 0, err
    assert f"gravada em {planilha}: 5 autos lavrados" in out
    autos = openpyxl.load_workbook(planilha)["Autos"]
    assert autos.max_row > 5


def test_copia_de_banco_vazio_ou_inexistente_nunca_e_sucesso(pasta: Path) -> None:
    from secretaria.db import ErroBanco

    vazio = pasta / "vazio.sqlite"
    vazio.write_bytes(b"")
    with pytest.raises(ErroBanco, match="está vazio"):
        copiar_sqlite(vazio, pasta / "copia.sqlite")
    with pytest.raises(ErroBanco, match="Não foi possível ler o banco"):
        copiar_sqlite(pasta / "nao existe.sqlite", pasta / "copia.sqlite")
    assert [p.name for p in pasta.iterdir()] == ["vazio.sqlite"]


def test_copia_sem_as_tabelas_da_fonte_e_recusada_e_apagada(
    url: str, pasta: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from secretaria import db
    from secretaria.db import ErroBanco

    def so_uma_tabela(fonte: sqlite3.Connection, alvo: sqlite3.Connection, progresso: object) -> None:
        alvo.execute("CREATE TABLE usuario (id INTEGER)")  # a copy step that wrote almost nothing

    monkeypatch.setattr(db.copia, "_copiar_paginas", so_uma_tabela)
    destino = pasta / "copia.sqlite"
    with pytest.raises(ErroBanco, match="saiu incompleta \\(faltam a tabela alembic_version"):
        copiar_sqlite(pasta / "secretaria.sqlite", destino)
    assert not list(pasta.glob("copia*"))  # neither the copy nor its journal


def test_url_com_interrogacao_recusada(tmp_path: Path) -> None:
    from secretaria.db import ErroBanco

    with pytest.raises(ErroBanco, match="“\\?”"):
        url_sqlite(tmp_path / "a?b" / "secretaria.sqlite")
