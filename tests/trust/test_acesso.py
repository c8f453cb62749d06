"""Logins in the audit and logins that never wait for nor conflict with another writer: the password is
checked in a read transaction, the outcome recorded in a short write."""

from __future__ import annotations

import functools
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria.db import Banco, arquivo_sqlite
from secretaria.models import Auditoria, Usuario
from secretaria.services import contas
from secretaria.services.auditoria import ENTIDADE_ACESSO
from secretaria.services.base import SISTEMA, Ator, ErroDominio
from secretaria.services.contas import FalhaLogin, autenticar, criar_usuario
from secretaria.services.verificacao import verificar_tudo

SENHA = "Correta123"


def _conta(banco: Banco, login: str = "ana", *papeis: str) -> int:
    return criar_usuario(
        banco.uow(), SISTEMA, login=login, nome=login.title(), senha=SENHA, papeis=papeis or ["fiscal"]
    )


def _acessos(banco: Banco) -> list[dict[str, Any]]:
    with banco.leitura() as s:
        regs = s.scalars(
            sa.select(Auditoria).where(Auditoria.entidade == ENTIDADE_ACESSO).order_by(Auditoria.id)
        ).all()
        return [
            {"acao": r.acao, "login": r.usuario_login, "entidade_id": r.entidade_id, "depois": r.depois}
            for r in regs
        ]


def _conta_atual(banco: Banco, uid: int) -> Usuario:
    with banco.leitura() as s:
        usuario = s.get(Usuario, uid)
        assert usuario is not None
        s.expunge(usuario)  # read as it is now, kept after the read transaction ends
        return usuario


# --- logins in the audit ----------------------------------------------------------------------------


def test_cada_entrada_recusa_bloqueio_saida_e_troca_e_auditada(banco: Banco) -> None:
    uid = _conta(banco, "ana", "administrador")
    uid_bia = _conta(banco, "bia", "fiscal")
    _conta(banco, "caio", "administrador")
    ana = autenticar(banco.uow(), "ana", SENHA)
    with pytest.raises(FalhaLogin):
        autenticar(banco.uow(), "ana", "Errada999")
    tentado = "  " + "x" * 100 + "  "
    with pytest.raises(FalhaLogin, match="incorretos"):
        autenticar(banco.uow(), tentado, "Qualquer123")
    contas.definir_ativo(banco.uow(), ana, uid_bia, ativo=False)
    with pytest.raises(FalhaLogin, match="incorretos"):
        autenticar(banco.uow(), "bia", SENHA)
    for _ in range(contas.FALHAS_PARA_BLOQUEIO - 1):
        with pytest.raises(FalhaLogin):
            autenticar(banco.uow(), "ana", "Errada999")
    with pytest.raises(FalhaLogin, match="bloqueada"):
        autenticar(banco.uow(), "ana", SENHA)
    caio = autenticar(banco.uow(), "caio", SENHA)  # on SQLite an act is signed by whoever logged in
    contas.desbloquear_usuario(banco.uow(), caio, uid)
    ana2 = autenticar(banco.uow(), "ana", SENHA)
    assert contas.registrar_saida(banco.uow(), ana, para=ana2)
    assert contas.registrar_saida(banco.uow(), ana2)

    acessos = _acessos(banco)
    acoes = [(a["acao"], a["login"]) for a in acessos]
    assert acoes == [
        ("entrada", "ana"),
        ("falha_entrada", "ana"),
        ("recusa_entrada", "x" * 60),  # the attempted text, trimmed to the column
        ("recusa_entrada", "bia"),
        *[("falha_entrada", "ana")] * 3,
        ("falha_entrada", "ana"),
        ("bloqueio", "ana"),
        ("recusa_entrada", "ana"),
        ("entrada", "caio"),
        ("entrada", "ana"),
        ("troca_usuario", "ana"),
        ("saida", "ana"),
    ]
    assert acessos[0]["entidade_id"] == ana.sessao and acessos[-2]["entidade_id"] == ana.sessao
    assert '"para": "ana"' in acessos[-2]["depois"] and acessos[-1]["entidade_id"] == ana2.sessao
    assert '"motivo": "conta inexistente"' in acessos[2]["depois"]
    assert '"motivo": "conta inativa"' in acessos[3]["depois"]
    assert '"motivo": "conta bloqueada"' in acessos[-5]["depois"]
    # Login rows are events, not record images: the whole verification still passes.
    with banco.leitura() as s:
        relatorio = verificar_tudo(s)
    assert relatorio.integro, relatorio.achados


def test_login_nao_altera_a_versao_da_conta(banco: Banco) -> None:
    """The administrator's open edit of an account is not refused because its user logged in meanwhile
    (before: the login bumped the version and the edit answered "alterado por sistema")."""
    _conta(banco, "ana", "administrador")
    uid = _conta(banco, "bia", "fiscal")
    ana = autenticar(banco.uow(), "ana", SENHA)
    versao = _conta_atual(banco, uid).versao
    autenticar(banco.uow(), "bia", SENHA)
    with pytest.raises(FalhaLogin):
        autenticar(banco.uow(), "bia", "Errada999")
    assert _conta_atual(banco, uid).versao == versao
    contas.editar_usuario(banco.uow(), ana, uid, nome="Bia", papeis=["protocolo"], versao=versao)


# --- a busy database ---------------------------------------------------------------------------------


class TravaDeEscrita:
    """Another process holding the SQLite write lock (BEGIN IMMEDIATE) from `travar()` to `soltar()`."""

    def __init__(self, arquivo: Path) -> None:
        self.arquivo = arquivo
        self.processo: subprocess.Popen[str] | None = None

    def travar(self) -> None:
        self.processo = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sqlite3, sys\n"
                f"c = sqlite3.connect({str(self.arquivo)!r}, isolation_level=None)\n"
                "c.execute('BEGIN IMMEDIATE')\n"
                "print('travado', flush=True)\n"
                "sys.stdin.readline()\n"
                "c.rollback()\n",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.processo.stdout is not None
        assert self.processo.stdout.readline().strip() == "travado"

    def soltar(self) -> None:
        if self.processo is not None:
            with self.processo:  # closes the pipes, waits for the child
                self.processo.communicate("fim\n", timeout=30)
        self.processo = None


@pytest.fixture
def trava(banco_sqlite: Banco) -> Iterator[TravaDeEscrita]:
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    trava = TravaDeEscrita(arquivo)
    yield trava
    trava.soltar()


def _cronometrar(funcao: Callable[[], Any]) -> tuple[float, Any]:
    inicio = time.monotonic()
    try:
        resultado: Any = funcao()
    except ErroDominio as exc:
        resultado = exc
    return time.monotonic() - inicio, resultado


def test_login_com_o_banco_travado_por_outro_processo_responde_em_2_segundos(
    banco_sqlite: Banco, trava: TravaDeEscrita
) -> None:
    banco = banco_sqlite
    uid = _conta(banco, "ana", "fiscal")
    for _ in range(2):
        with pytest.raises(FalhaLogin):
            autenticar(banco.uow(), "ana", "Errada999")
    trava.travar()

    duracao, ator = _cronometrar(lambda: autenticar(banco.uow(), "ana", SENHA))
    assert duracao < 2.5 and isinstance(ator, Ator), ator  # before: 30 s, then "banco ocupado"
    assert ator.usuario_id == uid and ator.entrada_pendente is not None

    # A wrong password is refused, and said busy: it could not be counted, so it never passes uncounted;
    # an unknown login answers the same.
    for login in ("ana", "ninguem"):
        duracao, erro = _cronometrar(functools.partial(autenticar, banco.uow(), login, "Errada999"))
        assert duracao < 2.5 and isinstance(erro, FalhaLogin) and erro.mensagem == contas.MENSAGEM_OCUPADO

    trava.soltar()
    assert _conta_atual(banco, uid).falhas_login == 2
    # The session's first act (here its exit) records the delayed entry before its own row.
    assert contas.registrar_saida(banco.uow(), ator)
    acessos = [a for a in _acessos(banco) if a["login"] == "ana"]
    assert [a["acao"] for a in acessos[-2:]] == ["entrada", "saida"]
    assert '"registro": "adiado"' in acessos[-2]["depois"] and acessos[-2]["entidade_id"] == ator.sessao
    assert _conta_atual(banco, uid).ultimo_acesso == ator.entrada_pendente


def test_bloqueio_devido_vale_com_o_banco_travado(banco_sqlite: Banco, trava: TravaDeEscrita) -> None:
    """A locked account stays locked while the database is busy: not even the right password enters."""
    banco = banco_sqlite
    _conta(banco, "ana", "fiscal")
    for _ in range(contas.FALHAS_PARA_BLOQUEIO):
        with pytest.raises(FalhaLogin):
            autenticar(banco.uow(), "ana", "Errada999")
    trava.travar()
    duracao, erro = _cronometrar(lambda: autenticar(banco.uow(), "ana", SENHA))
    assert duracao < 2.5 and isinstance(erro, FalhaLogin)


# --- simultaneous logins on one account ---------------------------------------------------------------


def _simultaneos(n: int, funcao: Callable[[], Any]) -> list[Any]:
    barreira = threading.Barrier(n)
    resultados: list[Any] = [None] * n

    def rodar(i: int) -> None:
        barreira.wait()
        try:
            resultados[i] = funcao()
        except Exception as exc:  # every outcome is examined by the test
            resultados[i] = exc

    linhas = [threading.Thread(target=rodar, args=(i,)) for i in range(n)]
    for t in linhas:
        t.start()
    for t in linhas:
        t.join(timeout=60)
    return resultados


def test_oito_logins_simultaneos_na_mesma_conta(banco: Banco) -> None:
    """Before, on PostgreSQL: "O registro de usuário nº 1 foi alterado por sistema…" on the login screen."""
    uid = _conta(banco, "ana", "fiscal")
    resultados = _simultaneos(8, lambda: autenticar(banco.uow(), "ana", SENHA))
    assert all(isinstance(r, Ator) for r in resultados), resultados
    assert len({r.sessao for r in resultados}) == 8
    entradas = [a for a in _acessos(banco) if a["acao"] == "entrada"]
    pendentes = [r for r in resultados if r.entrada_pendente is not None]
    assert len(entradas) + len(pendentes) == 8 and not pendentes
    conta = _conta_atual(banco, uid)
    assert conta.falhas_login == 0 and conta.bloqueado_ate is None and conta.ultimo_acesso is not None


def test_oito_senhas_erradas_simultaneas_contam_todas(banco: Banco) -> None:
    uid = _conta(banco, "ana", "fiscal")
    resultados = _simultaneos(8, lambda: autenticar(banco.uow(), "ana", "Errada999"))
    assert all(isinstance(r, FalhaLogin) for r in resultados), resultados
    assert not [r for r in resultados if r.mensagem == contas.MENSAGEM_OCUPADO]
    assert sum("bloqueada por 15 minutos" in r.mensagem for r in resultados) == 1
    acessos = _acessos(banco)
    assert sum(a["acao"] == "falha_entrada" for a in acessos) == 8
    assert sum(a["acao"] == "bloqueio" for a in acessos) == 1
    conta = _conta_atual(banco, uid)
    # None lost: 5 counted into the lockout (which resets the counter), the 3 after it counted again.
    assert conta.bloqueado_ate is not None
    assert conta.falhas_login == 8 - contas.FALHAS_PARA_BLOQUEIO
    with pytest.raises(FalhaLogin, match="bloqueada"):
        autenticar(banco.uow(), "ana", SENHA)
