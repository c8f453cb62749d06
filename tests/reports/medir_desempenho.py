"""Measure the two heavy documents against PRODUTO's budget (not a test: too slow for the suite).

    .venv/bin/python tests/reports/medir_desempenho.py

- a batch of 1,000 intimações (one page each, plus the delivery list): budget 6 s;
- the monthly workbook with 10,000 autos (plus 1,000 rows in each other sheet): budget 2.5 s and 150 MB.

Each measurement runs in a fresh process, so imports are counted once (as when the program makes the file)
and the memory figure is that process's own peak. The bench/ engineer may call `medir()` directly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]

_LOTE = """
import io, json, resource, time, sys
sys.path.insert(0, {raiz!r})
from tests.helpers.amostras_documentos import lote
dados = lote(1000)
inicio, cpu = time.perf_counter(), time.process_time()
from secretaria.reports.intimacao import LoteIntimacoesPdf
pdf = LoteIntimacoesPdf().render(dados)
segundos, cpu = time.perf_counter() - inicio, time.process_time() - cpu
pico = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"segundos": segundos, "cpu": cpu, "bytes": len(pdf), "pico_mb": pico}}))
"""

_PLANILHA = """
import io, json, resource, time, sys
sys.path.insert(0, {raiz!r})
from tests.helpers.amostras_documentos import mensal
dados = mensal(10000)
antes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
saida = io.BytesIO()
inicio, cpu = time.perf_counter(), time.process_time()
from secretaria.reports.planilha_mensal import gerar_planilha_mensal
gerar_planilha_mensal(dados, saida)
segundos, cpu = time.perf_counter() - inicio, time.process_time() - cpu
pico = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"segundos": segundos, "cpu": cpu, "bytes": len(saida.getvalue()), "pico_mb": pico,
                  "acrescimo_mb": pico - antes}}))
"""


def _rodar(codigo: str) -> dict[str, float]:
    saida = subprocess.run(
        [sys.executable, "-c", codigo.format(raiz=str(RAIZ))],
        cwd=RAIZ,
        capture_output=True,
        text=True,
        check=True,
    )
    resultado: dict[str, float] = json.loads(saida.stdout.strip())
    return resultado


def medir() -> dict[str, dict[str, float]]:
    """Both measurements, as plain numbers (seconds, bytes, MB of peak resident memory)."""
    return {"lote_1000_intimacoes": _rodar(_LOTE), "planilha_10000_autos": _rodar(_PLANILHA)}


if __name__ == "__main__":
    resultados = medir()
    lote = resultados["lote_1000_intimacoes"]
    planilha = resultados["planilha_10000_autos"]
    carga = os.getloadavg()[0]
    print(f"Carga da máquina: {carga:.1f} (o tempo de relógio sobe com ela; o de CPU, pouco)")
    print(
        f"Lote de 1.000 intimações: {lote['segundos']:.2f} s de relógio, {lote['cpu']:.2f} s de CPU "
        "(orçamento 6 s), "
        f"{lote['bytes'] / 1e6:.1f} MB de PDF, pico {lote['pico_mb']:.0f} MB"
    )
    print(
        f"Planilha de 10.000 autos: {planilha['segundos']:.2f} s de relógio, {planilha['cpu']:.2f} s de CPU "
        "(orçamento 2,5 s), "
        f"pico {planilha['pico_mb']:.0f} MB do processo (+{planilha['acrescimo_mb']:.0f} MB ao gerar; "
        "orçamento 150 MB)"
    )
