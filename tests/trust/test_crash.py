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
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria.db import Banco, arquivo_sqlite
from secretaria.models import Auditoria, AutoInfracao, Operadora, Usuario
from secretaria.services.auditoria import verificar_cadeia
from secretaria.services.semente import abrir_e_semear

FLUXO = r"""
import sys
from secretaria.services.semente import abrir_e_semear
from secretaria.services import contas
from secretaria.services.base import SISTEMA
from datetime import date, time
from secretaria.services.autos import NovoAuto, lavrar_auto
from secretaria.services.base import Ator
from secretaria.services.cadastros import DadosOperadora, criar_operadora

contas._N = 2**10  # cheap hashes: more acts per second, more chances to be killed mid-transaction


def cnpj(n):
    digitos = [int(c) for c in f"{n:08d}0001"]
    for pesos in ([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]):
        resto = sum(a * b for a, b in zip(digitos, pesos)) % 11
        digitos.append(0 if resto < 2 else 11 - resto)
    return "".join(map(str, digitos))


url, rodada, operadora_id, fiscal_id = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
fiscal = Ator("fiscal", "Fábio Fiscal", frozenset({"fiscal"}))
banco = abrir_e_semear(url)
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
    auto = lavrar_auto(banco.uow(), fiscal, NovoAuto(
        operadora_id=operadora_id, dispositivo_codigo="1-VI", data_infracao=date(2026, 11, 2),
        local="Praça Coronel Pedro Osório", data_lavratura=date(2026, 11, 2), hora_lavratura=time(9, 0),
        local_lavratura="Terminal central", descricao_fatos=f"Fato {n}.", fiscal_id=fiscal_id,
    ))
    print(f"auto_infracao {auto.id}", flush=True)
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
    banco: Banco,
    cidade: Any,
    tmp_path: Path,
    filho: tuple[str, dict[str, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not banco.eh_sqlite:
        pytest.skip(
            "o SIGKILL no meio da escrita é o risco do arquivo SQLite; o PostgreSQL é um servidor à parte"
        )
    url_sqlite = banco.url
    banco.fechar()
    python, ambiente = filho
    script = tmp_path / "fluxo.py"
    script.write_text(FLUXO)
    arquivo = arquivo_sqlite(url_sqlite)
    assert arquivo is not None
    sorteio = random.Random(2413)
    relatados: dict[str, set[int]] = {"usuario": set(), "operadora": set(), "auto_infracao": set()}
    for rodada in range(1, RODADAS + 1):
        limite = sorteio.randint(8, 40)
        with subprocess.Popen(
            [python, str(script), url_sqlite, str(rodada), str(cidade.operadora_id), str(cidade.fiscal_id)],
            env=ambiente,
            stdout=subprocess.PIPE,
            text=True,
        ) as proc:
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
        banco = abrir_e_semear(url_sqlite)
        try:
            with banco.leitura() as s:
                existentes = {
                    "usuario": set(s.scalars(sa.select(Usuario.id))),
                    "operadora": set(s.scalars(sa.select(Operadora.id))) - {cidade.operadora_id},
                    "auto_infracao": set(s.scalars(sa.select(AutoInfracao.id))),
                }
                numeros = sorted(s.scalars(sa.select(AutoInfracao.numero).where(AutoInfracao.ano == 2026)))
                auditados = {
                    (e, int(i))
                    for e, i in s.execute(sa.select(Auditoria.entidade, Auditoria.entidade_id)).tuples()
                    if e in relatados and i is not None
                }
                cadeia = verificar_cadeia(s)
        finally:
            banco.fechar()
        # Every act reported as committed is there …
        for entidade, ids in relatados.items():
            assert ids <= existentes[entidade], entidade
        # … none is half-written: record ⇔ audit row, both ways …
        assert auditados == {(e, i) for e, ids in existentes.items() for i in ids}
        # … the autos' numbers have no gap and no repeat …
        assert numeros == list(range(1, len(numeros) + 1))
        # … and at most the one act that committed just before each kill was not yet reported.
        nao_relatados = sum(len(existentes[e] - relatados[e]) for e in relatados)
        assert nao_relatados <= rodada
        assert cadeia.integra, cadeia.mensagem
    with capsys.disabled():
        total = sum(len(ids) for ids in relatados.values())
        print(
            f"\n[crash] {RODADAS} SIGKILLs; {total} atos relatados sobreviveram ({len(relatados['auto_infracao'])} autos numerados sem lacuna); {cadeia.linhas} registros de auditoria íntegros"
        )
