"""Measure the two heavy documents against PRODUTO's budget (not a test: too slow for the suite).

    .venv/bin/python tests/reports/medir_desempenho.py

- a batch of 1,000 intimações (one page each, plus the delivery list): budget 6 s;
- the monthly workbook with 10,000 autos (plus 1,000 rows in each other sheet): budget 2.5 s and 150 MB.

Each measurement runs in a fresh process, so imports are counted once (as when the program makes the file)
and the memory figure is that process's own peak. The bench/ engineer may call `medir()` directly.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]

_LOTE = """
import io, json, resource, time, sys
sys.path.insert(0, {raiz!r})
from tests.reports.amostras_documentos import lote
dados = lote(1000)
inicio = time.perf_counter()
from secretaria.reports.intimacao import LoteIntimacoesPdf
pdf = LoteIntimacoesPdf().render(dados)
segundos = time.perf_counter() - inicio
print(json.dumps({{"segundos": segundos, "bytes": len(pdf), "pico_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

_PLANILHA = """
import io, json, resource, time, sys
sys.path.insert(0, {raiz!r})
from tests.reports.amostras_documentos import mensal
dados = mensal(10000)
antes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
saida = io.BytesIO()
inicio = time.perf_counter()
from secretaria.reports.planilha_mensal import gerar_planilha_mensal
gerar_planilha_mensal(dados, saida)
segundos = time.perf_counter() - inicio
pico = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"segundos": segundos, "bytes": len(saida.getvalue()), "pico_mb": pico, "acrescimo_mb": pico - antes}}))
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
    print(
        f"Lote de 1.000 intimações: {lote['segundos']:.2f} s (orçamento 6 s), "
        f"{lote['bytes'] / 1e6:.1f} MB de PDF, pico {lote['pico_mb']:.0f} MB"
    )
    print(
        f"Planilha de 10.000 autos: {planilha['segundos']:.2f} s (orçamento 2,5 s), "
        f"pico {planilha['pico_mb']:.0f} MB do processo (+{planilha['acrescimo_mb']:.0f} MB ao gerar; "
        "orçamento 150 MB)"
    )
