"""The rows a city of any size adds to the table, meant for `--escala 2000000`: the Painel over the whole
period and the audit verification, time and memory peak (`bench/run --so escala`); the checks a copy passes
before it is restored (`--so restauracao`); the database's size on disk is in the table's header.

The verification and the restore's checks read every record and every audit row: their cost grows with what
is stored, by design (they are what proves nothing was changed), so they are run once, each in a process of
its own (`secretaria auditoria verificar`, `backup.verificar_copia`), timed from outside with the process's
peak resident memory (`os.wait4` in a small launcher, `_LANCADOR`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import sqlalchemy as sa

from bench.medidas import Resultado, falha, mediana
from secretaria.db import Banco, arquivo_sqlite

_RAIZ = Path(__file__).resolve().parent.parent


_LANCADOR = """
import os, subprocess, sys
filho = subprocess.Popen(sys.argv[1:])
_pid, estado, uso = os.wait4(filho.pid, 0)
sys.stdout.flush()
print(f"\\n{sys.argv[0]} pico {uso.ru_maxrss}", flush=True)
sys.exit(os.waitstatus_to_exitcode(estado))
"""
"""Runs the measured process and reports its peak. Linux carries a process's peak resident memory across
fork and exec (the forked copy of the parent counts as the child's own pages), so a process started straight
from the bench reported the bench's 1.5 GB as its own peak (the verification and the restore's checks showed
the same 1,469 MB). Started from this launcher, of a few MB, the peak is the measured process's."""


def _processo_medido(argumentos: list[str]) -> tuple[float, float, str]:
    """Run the program's Python with `argumentos`; (seconds, peak resident MB, its first output line).
    Raises when it fails."""
    marca = "-c"  # the launcher's sys.argv[0]: its line is told from the measured process's output by it
    inicio = time.perf_counter()
    processo = subprocess.run(
        [sys.executable, "-c", _LANCADOR, sys.executable, *argumentos],
        cwd=_RAIZ,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(_RAIZ)},
        check=False,
    )
    segundos = time.perf_counter() - inicio
    saida = processo.stdout.decode("utf-8", "replace")
    linhas = [x for x in saida.strip().splitlines() if x.strip()]
    picos = [x for x in linhas if x.startswith(f"{marca} pico ")]
    if processo.returncode != 0 or not picos:
        raise RuntimeError(f"saiu com {processo.returncode}: {linhas[-2:]}")
    linhas = [x for x in linhas if x not in picos]
    return segundos, int(picos[-1].split()[-1]) / 1024, linhas[0] if linhas else ""


def medir_verificacao(url: str, nome_banco: str) -> list[Resultado]:
    """`secretaria auditoria verificar` on the whole database: seconds and peak memory."""
    medida = "auditoria verificar: a cadeia e cada registro contra a sua imagem"
    try:
        segundos, mb, primeira = _processo_medido(["-m", "secretaria", "auditoria", "verificar", "--db", url])
    except Exception as exc:  # one broken part must not hide the others
        return [falha(medida, nome_banco, exc)]
    nota = primeira.split(": ", 1)[-1]
    return [
        Resultado(medida, nome_banco, segundos, nota=nota),
        Resultado(f"{medida} (pico de memória)", nome_banco, mb, unidade="MB"),
    ]


_CONFERIR_COPIA = """
import sys
from pathlib import Path
from secretaria.services import backup
copia = backup.verificar_copia(Path(sys.argv[1]))
print(f"{copia.registros_auditoria} registros de auditoria; SHA-256 {copia.sha256[:12]}…")
"""


def medir_conferencia_da_copia(url: str, nome_banco: str) -> list[Resultado]:
    """What a copy goes through before it is restored (`backup.verificar_copia`: integrity, schema, references,
    the chain and everything `verificar` checks, the SHA-256), on the city's own file read-only. PostgreSQL is
    restored with pg_restore, outside the program: its check afterwards is `auditoria verificar`, above."""
    medida = "Conferência de uma cópia antes de restaurar (integridade, esquema, referências, auditoria)"
    arquivo = arquivo_sqlite(url)
    if arquivo is None:
        return [
            Resultado(medida, nome_banco, None, nota="restaura-se com pg_restore; confere-se com verificar")
        ]
    try:
        segundos, mb, primeira = _processo_medido(["-c", _CONFERIR_COPIA, str(arquivo)])
    except Exception as exc:  # one broken part must not hide the others
        return [falha(medida, nome_banco, exc)]
    return [
        Resultado(medida, nome_banco, segundos, nota=primeira),
        Resultado(f"{medida} (pico de memória)", nome_banco, mb, unidade="MB"),
    ]


def medir_painel_todo_periodo(banco: Banco, nome_banco: str, hoje: date, vezes: int = 3) -> list[Resultado]:
    """The Painel's numbers and its 7 charts over every year the city holds (the page's period set to all)."""
    from secretaria.models import AutoInfracao
    from secretaria.reports import graficos
    from secretaria.services import painel

    with banco.leitura() as s:
        primeiro = s.scalar(sa.select(sa.func.min(AutoInfracao.data_infracao)))
    assert primeiro is not None
    filtro = painel.FiltroPainel(date(primeiro.year, 1, 1), hoje)
    anos = hoje.year - primeiro.year + 1

    def numeros() -> painel.Painel:
        with banco.leitura() as s:
            return painel.ler_painel(s, filtro, hoje)

    dados = numeros()
    leitura = mediana(numeros, vezes)
    cartoes = painel.graficos_do_painel(dados)
    graficos.preparar()

    def desenhar() -> None:
        for gp in cartoes:
            graficos.imagem(gp.grafico, 640, 300)

    desenhar()
    desenho = mediana(desenhar, vezes)
    total = sum(c.valor for c in dados.por_tipo)
    return [
        Resultado(
            f"Painel: números de todos os gráficos ({anos} anos)",
            nome_banco,
            leitura,
            nota=f"{total:,} autos no período".replace(",", "."),
        ),
        Resultado(f"Painel: os 7 gráficos de {anos} anos desenhados num processo", nome_banco, desenho),
    ]


def medir_escala(banco: Banco, url: str, nome_banco: str, hoje: date) -> list[Resultado]:
    """Part `escala`: the Painel over the whole period and the audit verification."""
    return medir_painel_todo_periodo(banco, nome_banco, hoje) + medir_verificacao(url, nome_banco)
