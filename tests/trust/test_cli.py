"""The trust commands as a user types them: backup (with and without destination, --diaria, --manter),
restaurar, auditoria verificar, and the automatic daily copy when the program's window starts."""

from __future__ import annotations

import io
import os
import sqlite3
import stat
from datetime import date
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria import cli
from secretaria.db import Banco, abrir_banco, arquivo_sqlite
from secretaria.models import Usuario
from secretaria.services.base import SISTEMA
from secretaria.services.contas import criar_usuario
from secretaria.services.semente import abrir_e_semear
from tests.helpers.bancos import logins


def _rodar(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    codigo = cli.main(list(args))
    saida = capsys.readouterr()
    return codigo, saida.out, saida.err


def _criar(url: str, login: str) -> None:
    banco = abrir_e_semear(url)
    try:
        criar_usuario(banco.uow(), SISTEMA, login=login, nome=login, senha="senha123", papeis=["fiscal"])
    finally:
        banco.fechar()


@pytest.fixture
def pasta(url_sqlite: str) -> Path:
    arquivo = arquivo_sqlite(url_sqlite)
    assert arquivo is not None
    return arquivo.parent


def test_janela_faz_a_copia_diaria_ao_abrir(
    url_sqlite: str, pasta: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    aberturas: list[str] = []

    def executar(banco: Banco, *, demo: bool) -> int:
        aberturas.append(banco.url)
        return 0

    monkeypatch.setattr("secretaria.ui.app.executar", executar)
    monkeypatch.setattr("secretaria.relogio.hoje", lambda: date(2026, 4, 7))
    _criar(url_sqlite, "ana")
    assert _rodar(capsys, "--db", url_sqlite)[0] == 0
    assert _rodar(capsys, "--db", url_sqlite)[0] == 0  # second start the same day: no second copy
    assert aberturas == [url_sqlite, url_sqlite]
    assert [p.name for p in (pasta / "backups").iterdir()] == ["secretaria-2026-04-07.sqlite"]
    assert logins(f"sqlite:///{pasta / 'backups' / 'secretaria-2026-04-07.sqlite'}") == {"ana"}


def test_copia_diaria_que_falha_nao_impede_de_abrir(
    url_sqlite: str, pasta: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if os.geteuid() == 0:
        (pasta / "backups").write_text("um arquivo no lugar da pasta")  # root ignores permissions
    else:  # pragma: no cover
        (pasta / "backups").mkdir()
        (pasta / "backups").chmod(stat.S_IRUSR | stat.S_IXUSR)
    monkeypatch.setattr("secretaria.ui.app.executar", lambda banco, demo: 0)
    codigo, _out, err = _rodar(capsys, "--db", url_sqlite)
    assert codigo == 0
    assert "aviso: a cópia de segurança diária não foi feita" in err


def test_backup_sem_destino_com_destino_e_nunca_sobrescreve(
    url_sqlite: str, pasta: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _criar(url_sqlite, "ana")
    codigo, out, _ = _rodar(capsys, "backup", "--db", url_sqlite)
    assert codigo == 0 and "integridade: ok" in out and str(pasta / "backups") in out
    destino = tmp_path / "manual.sqlite"
    assert _rodar(capsys, "--db", url_sqlite, "backup", str(destino))[0] == 0
    assert logins(f"sqlite:///{destino}") == {"ana"}
    codigo, _, err = _rodar(capsys, "backup", str(destino), "--db", url_sqlite)
    assert codigo == cli.SAIDA_ERRO and "já existe" in err


def test_backup_diaria_e_manter(url_sqlite: str, pasta: Path, capsys: pytest.CaptureFixture[str]) -> None:
    codigo, out, _ = _rodar(capsys, "backup", "--diaria", "--manter", "2", "--db", url_sqlite)
    assert codigo == 0 and "últimas 2 cópias" in out and "Cópia diária gravada" in out
    codigo, out, _ = _rodar(capsys, "backup", "--diaria", "--db", url_sqlite)
    assert codigo == 0 and "já existia" in out
    codigo, _, err = _rodar(capsys, "backup", "--manter", "0", "--db", url_sqlite)
    assert codigo == cli.SAIDA_ERRO and "de 1 a 365" in err


def test_restaurar_pede_confirmacao_e_guarda_o_atual(
    url_sqlite: str,
    pasta: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _criar(url_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    _rodar(capsys, "backup", str(copia), "--db", url_sqlite)
    _criar(url_sqlite, "intrusa")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal: --sim is required
    codigo, _, err = _rodar(capsys, "restaurar", str(copia), "--db", url_sqlite)
    assert codigo == cli.SAIDA_ERRO and "--sim" in err
    assert logins(url_sqlite) == {"ana", "intrusa"}
    codigo, out, _ = _rodar(capsys, "restaurar", str(copia), "--sim", "--db", url_sqlite)
    assert codigo == 0 and "restaurado" in out
    assert logins(url_sqlite) == {"ana"}
    guardado = next(pasta.glob("secretaria.substituido-*.sqlite"))
    assert logins(f"sqlite:///{guardado}") == {"ana", "intrusa"}
    codigo, out, _ = _rodar(capsys, "auditoria", "verificar", "--db", url_sqlite)
    assert codigo == 0 and "íntegra: 2 registros" in out  # ana's creation, then the restore itself


def test_restaurar_recusa_arquivo_que_nao_e_copia(
    url_sqlite: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    falsa = tmp_path / "falsa.sqlite"
    con = sqlite3.connect(falsa)
    con.execute("CREATE TABLE x (y)")
    con.commit()
    con.close()
    codigo, _, err = _rodar(capsys, "restaurar", str(falsa), "--sim", "--db", url_sqlite)
    assert codigo == cli.SAIDA_ERRO and "não é uma cópia de segurança da Secretaria" in err


def test_auditoria_verificar_banco_inexistente_nao_cria_arquivo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alvo = tmp_path / "nao-existe.sqlite"
    codigo, _, err = _rodar(capsys, "auditoria", "verificar", "--db", f"sqlite:///{alvo}")
    assert codigo == cli.SAIDA_ERRO and "não existe" in err
    assert not alvo.exists()


def test_auditoria_verificar_no_postgresql(banco_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    _criar(banco_url, "ana")
    codigo, out, _ = _rodar(capsys, "auditoria", "verificar", "--db", banco_url)
    assert codigo == 0 and "íntegra: 1 registros" in out and "anexos: 0" in out


def test_ajuda_em_portugues(capsys: pytest.CaptureFixture[str]) -> None:
    for comando in (["backup", "--help"], ["restaurar", "--help"], ["auditoria", "verificar", "--help"]):
        with pytest.raises(SystemExit) as saida:
            cli.main(comando)
        assert saida.value.code == 0
        texto = capsys.readouterr().out
        assert "cópia" in texto or "auditoria" in texto


def test_restaurar_recusa_com_o_banco_aberto_e_nao_pede_confirmacao(
    url_sqlite: str, pasta: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _criar(url_sqlite, "ana")
    copia = tmp_path / "copia.sqlite"
    _rodar(capsys, "backup", str(copia), "--db", url_sqlite)
    _criar(url_sqlite, "depois")
    aberto = abrir_banco(url_sqlite, migrar=False)  # the program open on another computer
    try:
        with aberto.leitura() as s:
            s.scalars(sa.select(Usuario.login)).all()
            codigo, _, err = _rodar(capsys, "restaurar", str(copia), "--db", url_sqlite)
    finally:
        aberto.fechar()
    assert codigo == cli.SAIDA_ERRO
    assert "aberto em outro computador ou programa" in err and "Nada foi alterado" in err
    assert "--sim" not in err  # refused before the confirmation was even asked for
    assert logins(url_sqlite) == {"ana", "depois"}
    assert not list(pasta.glob("*.substituido-*"))
