"""Crash safety: a process doing a stream of real acts on a SQLite file is killed with SIGKILL in the middle;
after reopening, every act it reported as committed is there, none is half-written (each record has its
audit row and each audit row its record), the audit chain is whole and `PRAGMA integrity_check` is ok."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria.db import abrir_banco, arquivo_sqlite
from secretaria.models import Auditoria, Operadora, Usuario
from secretaria.services.auditoria import verificar_cadeia

FLUXO = r"""
import sys
from secretaria.db import abrir_banco
from secretaria.services import contas
from secretaria.services.base import SISTEMA
from secretaria.services.cadastros import DadosOperadora, criar_operadora

contas._N = 2**10  # cheap hashes: more acts per second, more chances to be killed mid-transaction


def cnpj(n):
    digitos = [int(c) for c in f"{n:08d}0001"]
    for pesos in ([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]):
        resto = sum(a * b for a, b in zip(digitos, pesos)) % 11
        digitos.append(0 if resto < 2 else 11 - resto)
    return "".join(map(str, digitos))


url, rodada = sys.argv[1], int(sys.argv[2])
banco = abrir_banco(url)
print("pronto", flush=True)
i = 0
while True:
    i += 1
    n = rodada * 100_000 + i
    uid = contas.criar_usuario(
        banco.uow(), SISTEMA, login=f"r{rodada}.{i}", nome=f"Usuário {n}", senha="senha123", papeis=["fiscal"]
    )
    print(f"usuario {uid}", flush=True)
    oid = criar_operadora(banco.uow(), SISTEMA, DadosOperadora(
        razao_social=f"Viação {n} Ltda.", cnpj=cnpj(n), logradouro="Rua XV de Novembro"
    ))
    print(f"operadora {oid}", flush=True)
"""

RODADAS = 5


def _integridade(arquivo: Path) -> str:
    con = sqlite3.connect(arquivo)
    try:
        return str(con.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        con.close()


@pytest.mark.slow
def test_atos_confirmados_sobrevivem_a_sigkill(
    url_sqlite: str, tmp_path: Path, filho: tuple[str, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    python, ambiente = filho
    script = tmp_path / "fluxo.py"
    script.write_text(FLUXO)
    arquivo = arquivo_sqlite(url_sqlite)
    assert arquivo is not None
    sorteio = random.Random(2413)
    relatados: dict[str, set[int]] = {"usuario": set(), "operadora": set()}
    for rodada in range(1, RODADAS + 1):
        limite = sorteio.randint(8, 40)
        proc = subprocess.Popen(
            [python, str(script), url_sqlite, str(rodada)], env=ambiente, stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "pronto"
        for contados, linha in enumerate(proc.stdout, start=1):
            entidade, ident = linha.split()
            relatados[entidade].add(int(ident))
            if contados >= limite:
                os.kill(proc.pid, signal.SIGKILL)  # mid-stream: the next act is already under way
                break
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL

        assert _integridade(arquivo) == "ok"
        banco = abrir_banco(url_sqlite)
        try:
            with banco.leitura() as s:
                usuarios = set(s.scalars(sa.select(Usuario.id)))
                operadoras = set(s.scalars(sa.select(Operadora.id)))
                auditados = {
                    (e, int(i))
                    for e, i in s.execute(sa.select(Auditoria.entidade, Auditoria.entidade_id)).tuples()
                    if e in relatados and i is not None
                }
                cadeia = verificar_cadeia(s)
        finally:
            banco.fechar()
        # Every act reported as committed is there …
        assert relatados["usuario"] <= usuarios and relatados["operadora"] <= operadoras
        # … none is half-written: record ⇔ audit row, both ways …
        assert auditados == {("usuario", u) for u in usuarios} | {("operadora", o) for o in operadoras}
        # … and at most the one act that committed just before the kill was not yet reported.
        nao_relatados = len(usuarios - relatados["usuario"]) + len(operadoras - relatados["operadora"])
        assert nao_relatados <= rodada
        assert cadeia.integra, cadeia.mensagem
    with capsys.disabled():
        total = len(relatados["usuario"]) + len(relatados["operadora"])
        print(
            f"\n[crash] {RODADAS} SIGKILLs; {total} atos relatados sobreviveram; {cadeia.linhas} registros de auditoria íntegros"
        )
