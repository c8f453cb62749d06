"""Accounts: slow salted hashes, 15-minute lockout after 5 failures, the minimum password rule, passwords
never in any log, and a database URL's password never printed by the command line."""

from __future__ import annotations

import io
import logging
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria import cli
from secretaria.db import Banco
from secretaria.models import Auditoria, Usuario
from secretaria.services import contas
from secretaria.services.base import SISTEMA, ErroDominio
from secretaria.services.contas import FalhaLogin, autenticar, criar_usuario

SENHA = "Correta123"


class Relogio:
    def __init__(self, inicio: datetime) -> None:
        self.agora = inicio

    def __call__(self) -> datetime:
        return self.agora


@pytest.fixture
def relogio(monkeypatch: pytest.MonkeyPatch) -> Relogio:
    r = Relogio(datetime(2026, 5, 4, 9, 0, 0))
    monkeypatch.setattr("secretaria.relogio.agora", r)
    return r


def test_bloqueio_de_15_minutos_apos_5_falhas(banco: Banco, relogio: Relogio) -> None:
    criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha=SENHA, papeis=["fiscal"])
    for _ in range(4):
        with pytest.raises(FalhaLogin, match="Usuário ou senha incorretos"):
            autenticar(banco.uow(), "ana", "Errada999")
    with pytest.raises(FalhaLogin, match="conta bloqueada por 15 minutos"):
        autenticar(banco.uow(), "ana", "Errada999")
    relogio.agora += timedelta(minutes=14, seconds=59)
    with pytest.raises(FalhaLogin, match=r"bloqueada .* até 09:15"):
        autenticar(banco.uow(), "ana", SENHA)  # even the right password waits
    relogio.agora += timedelta(seconds=2)
    assert autenticar(banco.uow(), "ANA ", SENHA).login == "ana"
    with banco.leitura() as s:
        usuario = s.scalar(sa.select(Usuario).where(Usuario.login == "ana"))
        assert usuario is not None and usuario.falhas_login == 0 and usuario.bloqueado_ate is None
        assert s.scalar(sa.select(sa.func.count()).where(Auditoria.acao == "bloqueio")) == 1


def test_acerto_zera_a_contagem_de_falhas(banco: Banco, relogio: Relogio) -> None:
    criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha=SENHA, papeis=["fiscal"])
    for _ in range(4):
        with pytest.raises(FalhaLogin):
            autenticar(banco.uow(), "ana", "Errada999")
    autenticar(banco.uow(), "ana", SENHA)
    for _ in range(4):
        with pytest.raises(FalhaLogin, match="incorretos"):
            autenticar(banco.uow(), "ana", "Errada999")
    assert autenticar(banco.uow(), "ana", SENHA).login == "ana"


def test_usuario_inexistente_tem_a_mesma_mensagem(banco: Banco) -> None:
    with pytest.raises(FalhaLogin) as erro:
        autenticar(banco.uow(), "ninguem", "Qualquer123")
    assert erro.value.mensagem == "Usuário ou senha incorretos."


def test_hash_scrypt_com_sal(banco: Banco) -> None:
    for login in ("ana", "bia"):
        criar_usuario(banco.uow(), SISTEMA, login=login, nome=login, senha=SENHA, papeis=["fiscal"])
    with banco.leitura() as s:
        hashes = list(s.scalars(sa.select(Usuario.senha_hash)))
    assert len(set(hashes)) == 2  # same password, different salts
    for h in hashes:
        esquema, n, _r, _p, sal, chave = h.split("$")
        assert esquema == "scrypt" and int(n) >= 2**14 and len(sal) == 32 and len(chave) == 64
        assert SENHA not in h
    assert contas.senha_confere(SENHA, hashes[0]) and not contas.senha_confere("correta123", hashes[0])
    assert not contas.senha_confere(SENHA, "md5$abc") and not contas.senha_confere(SENHA, "lixo")


@pytest.mark.parametrize(
    ("senha", "motivo"),
    [
        ("", "pelo menos 8"),
        ("a1b2c3d", "pelo menos 8"),
        ("abcdefgh", "letras e números"),
        ("12345678", "letras e números"),
    ],
)
def test_regra_minima_de_senha(banco: Banco, senha: str, motivo: str) -> None:
    with pytest.raises(ErroDominio, match=motivo) as erro:
        criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha=senha, papeis=["fiscal"])
    assert erro.value.campo == "senha"
    with banco.leitura() as s:
        assert s.scalar(sa.select(sa.func.count(Usuario.id))) == 0


def test_senha_nunca_aparece_em_log(banco: Banco, caplog: pytest.LogCaptureFixture) -> None:
    """Everything logged at DEBUG (SQL and its parameters included) during a user creation and logins."""
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="sqlalchemy.engine")
    senha, redefinida, propria = "SenhaSecreta987", "Redefinida654", "MinhaPropria321"
    uid = criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha=senha, papeis=["fiscal"])
    ana = autenticar(banco.uow(), "ana", senha)
    with pytest.raises(FalhaLogin):
        autenticar(banco.uow(), "ana", senha + "x")
    if hasattr(contas, "redefinir_senha"):  # the administrator's reset and the user's own change
        contas.redefinir_senha(banco.uow(), SISTEMA, uid, nova_senha=redefinida)
        contas.alterar_propria_senha(banco.uow(), ana, senha_atual=redefinida, nova_senha=propria)
        autenticar(banco.uow(), "ana", propria)
    texto = caplog.text
    assert "INSERT INTO usuario" in texto and "UPDATE usuario" in texto  # the SQL log was really captured
    with banco.leitura() as s:  # nor in the database, the audit rows included
        colunas = s.execute(sa.select(Auditoria.antes, Auditoria.depois)).all()
        usuarios = s.execute(sa.select(Usuario.senha_hash, Usuario.nome)).all()
    for segredo in (senha, redefinida, propria):
        assert segredo not in texto
        assert segredo not in repr(colunas) + repr(usuarios)


URL_COM_SENHA = "postgresql+psycopg://u:segredo@127.0.0.1:1/x"


def _backup_valido(tmp_path: Path, url_sqlite: str) -> Path:
    from secretaria.services.backup import fazer_backup

    copia = tmp_path / "copia-valida.sqlite"
    fazer_backup(url_sqlite, copia)
    return copia


@pytest.mark.parametrize(
    "argumentos",
    [
        [],
        ["backup"],
        ["backup", "{tmp}/x.dump"],
        ["backup", "--diaria"],
        ["backup", "--manter", "3"],
        ["auditoria", "verificar"],
        ["usuario", "criar", "ana", "--papel", "fiscal"],
        ["restaurar", "{copia}", "--sim"],
    ],
)
def test_senha_da_url_nunca_impressa(
    argumentos: list[str],
    tmp_path: Path,
    url_sqlite: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copia = _backup_valido(tmp_path, url_sqlite)
    monkeypatch.setattr("sys.stdin", io.StringIO("Senha12345\n"))
    monkeypatch.setattr(
        "secretaria.ui.app.executar", lambda *a, **k: pytest.fail("não deveria abrir a janela")
    )
    args = [a.format(tmp=tmp_path, copia=copia) for a in argumentos]
    for forma in (["--db", URL_COM_SENHA, *args], [*args, "--db", URL_COM_SENHA] if args else None):
        if forma is None:
            continue
        codigo = cli.main(forma)
        saida = capsys.readouterr()
        texto = saida.out + saida.err
        assert "segredo" not in texto
        assert texto.strip(), "a mensagem de erro deve dizer algo"
        if argumentos != ["backup", "{tmp}/x.dump"] or "não está instalado" not in texto:
            assert codigo == cli.SAIDA_ERRO, texto
    assert sqlite3.connect(copia).execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_senha_da_url_nunca_impressa_pela_variavel_de_ambiente(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SECRETARIA_DB", URL_COM_SENHA)
    assert cli.main(["auditoria", "verificar"]) == cli.SAIDA_ERRO
    saida = capsys.readouterr()
    assert "segredo" not in saida.out + saida.err and "127.0.0.1" in saida.err


@pytest.mark.parametrize(
    "url",
    [
        "postgresql+psycopg://u:segredo@host:abc/x",
        "postgresql+psycopg://u:segredo@[::1/x",
        "://u:segredo@h/x",
        "mysql://u:segredo@h/x",
    ],
)
@pytest.mark.parametrize("argumentos", [["auditoria", "verificar"], ["backup"], ["backup", "--diaria"], []])
def test_url_malformada_tambem_nao_mostra_a_senha(
    url: str, argumentos: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "secretaria.ui.app.executar", lambda *a, **k: pytest.fail("não deveria abrir a janela")
    )
    assert cli.main(["--db", url, *argumentos]) == cli.SAIDA_ERRO
    saida = capsys.readouterr()
    assert "segredo" not in saida.out + saida.err
    assert "Traceback" not in saida.err and "***" in saida.err


def test_cada_recusa_de_login_custa_um_scrypt(banco: Banco, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unknown, inactive, locked and wrong-password logins do the same work: one scrypt run each (counted,
    not timed), so the time of the answer does not tell which logins exist."""
    import hashlib

    from secretaria.services import contas as modulo

    criar_usuario(banco.uow(), SISTEMA, login="ativa", nome="A", senha="senha123", papeis=["fiscal"])
    inativa = criar_usuario(
        banco.uow(), SISTEMA, login="inativa", nome="I", senha="senha123", papeis=["fiscal"]
    )
    criar_usuario(banco.uow(), SISTEMA, login="presa", nome="P", senha="senha123", papeis=["fiscal"])
    modulo.definir_ativo(banco.uow(), SISTEMA, inativa, ativo=False)
    for _ in range(modulo.FALHAS_PARA_BLOQUEIO):
        with pytest.raises(modulo.FalhaLogin):
            modulo.autenticar(banco.uow(), "presa", "errada999")
    modulo._hash_ficticio()  # computed once per process, before counting
    original = hashlib.scrypt
    chamadas: list[int] = []

    def contar(*args: object, **kwargs: object) -> bytes:
        chamadas.append(1)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hashlib, "scrypt", contar)
    for login in ("ninguem", "inativa", "presa", "ativa"):
        chamadas.clear()
        with pytest.raises(modulo.FalhaLogin):
            modulo.autenticar(banco.uow(), login, "errada999")
        assert len(chamadas) == 1, login
