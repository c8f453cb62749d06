"""The import's figures: 6,000 employees and 1,500 vehicles checked and imported in under 10 s,
10,000 historical autos in under 30 s, each beside the plain way (one service call per row).

The spreadsheets are generated (valid CNPJs, CPFs, plates and RENAVAMs, fixed seed) into a temporary
folder and imported into a fresh database of each kind — the big city is not needed. The plain way is
timed on the first rows and scaled to the whole file (said in the table), so the bench stays short.
"""

from __future__ import annotations

import random
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench import gerador
from bench.medidas import Resultado
from secretaria.db import Banco, url_sqlite
from secretaria.lei.documentos import digito_renavam, digitos_cnpj, digitos_cpf
from secretaria.services import cadastros
from secretaria.services.base import SISTEMA
from secretaria.services.importacao.leitura import Planilha, ler_arquivo
from secretaria.services.importacao.servico import importar, previa
from secretaria.services.semente import abrir_e_semear

OPERADORAS = 20
LINHAS_POR_OPERADORA = 3
VEICULOS = 1_500
EMPREGADOS = 6_000
AUTOS = 10_000
FISCAIS = 12
AMOSTRA_SIMPLES = 300
META_CADASTROS = 10.0
META_AUTOS = 30.0
DISPOSITIVOS = ("1-I", "1-VI", "1-XVI", "2-I", "2-V", "3-I", "4-II", "5-I", "6-III")
_LETRAS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _cnpj(i: int) -> str:
    base = f"{30_000_000 + i:08d}0001"
    return base + digitos_cnpj(base)


def _cpf(i: int) -> str:
    base = f"{200_000_000 + i:09d}"
    return base + digitos_cpf(base)


def _renavam(i: int) -> str:
    base = f"{5_000_000_000 + i:010d}"
    return base + digito_renavam(base)


def _placa(i: int) -> str:
    a, resto = divmod(i, 26 * 10_000)
    b, n = divmod(resto, 10_000)
    return f"I{_LETRAS[a % 26]}{_LETRAS[b]}{n:04d}"


def _gravar(caminho: Path, cabecalho: list[str], linhas: list[list[Any]]) -> Path:
    import openpyxl

    livro = openpyxl.Workbook(write_only=True)
    ws = livro.create_sheet("Dados")
    ws.append(cabecalho)
    for linha in linhas:
        ws.append(linha)
    livro.save(caminho)
    return caminho


def gerar_planilhas(pasta: Path, hoje: date, total_autos: int = AUTOS) -> dict[str, Path]:
    """The office's files: operators, lines, inspectors, the fleet, the staff and ten years of autos."""
    sorteio = random.Random(2413)
    arquivos = {
        "operadoras": _gravar(
            pasta / "operadoras.xlsx",
            ["Razão social", "CNPJ", "Endereço", "Bairro"],
            [[f"Viação Bench {i} Ltda.", _cnpj(i), f"Rua {i}", "Centro"] for i in range(OPERADORAS)],
        ),
        "linhas": _gravar(
            pasta / "linhas.xlsx",
            ["Código", "Nome", "CNPJ da operadora"],
            [
                [f"B{i:03d}", f"Linha {i}", _cnpj(i // LINHAS_POR_OPERADORA)]
                for i in range(OPERADORAS * LINHAS_POR_OPERADORA)
            ],
        ),
        "fiscais": _gravar(
            pasta / "fiscais.xlsx",
            ["Nome", "Matrícula"],
            [[f"Fiscal {i}", f"B-{i:03d}"] for i in range(FISCAIS)],
        ),
        "veiculos": _gravar(
            pasta / "veiculos.xlsx",
            [
                "Prefixo",
                "PLACA",
                "Renavam",
                "CNPJ da operadora",
                "Linha",
                "Ano",
                "Validade da vistoria",
                "Assentos",
            ],
            [
                [
                    str(1000 + i),
                    _placa(i),
                    _renavam(i),
                    _cnpj(i % OPERADORAS),
                    f"B{(i % OPERADORAS) * LINHAS_POR_OPERADORA + i % LINHAS_POR_OPERADORA:03d}",
                    2010 + i % 15,
                    date(2027, 1 + i % 12, 1),
                    36 + i % 8,
                ]
                for i in range(VEICULOS)
            ],
        ),
        "empregados": _gravar(
            pasta / "empregados.xlsx",
            ["Nome", "CPF do motorista", "CNPJ", "Função", "Admissão"],
            [
                [
                    f"Empregado {i}",
                    _cpf(i),
                    _cnpj(i % OPERADORAS),
                    "Motorista" if i % 3 else "Cobrador",
                    date(2015, 1, 1) + timedelta(days=i % 3000),
                ]
                for i in range(EMPREGADOS)
            ],
        ),
    }
    autos: list[list[Any]] = []
    anos = 10
    por_ano = total_autos // anos
    for k in range(total_autos):
        ano = hoje.year - anos + k // por_ano
        infracao = date(ano, 1, 1) + timedelta(days=sorteio.randrange(330))
        decidido = k % 4 != 0
        decisao = infracao + timedelta(days=25)
        autos.append(
            [
                f"{k % por_ano + 1:04d}/{ano}",
                _cnpj(sorteio.randrange(OPERADORAS)),
                sorteio.choice(DISPOSITIVOS),
                infracao,
                f"B-{k % FISCAIS:03d}",
                decisao if decidido else None,
                "0,50" if decidido else "",
                (decisao + timedelta(days=20)) if decidido and decisao + timedelta(days=20) < hoje else None,
            ]
        )
    arquivos["autos"] = _gravar(
        pasta / "autos.xlsx",
        ["Número do auto", "CNPJ da operadora", "Dispositivo", "Data da infração", "Matrícula do fiscal",
         "Data da decisão", "Multa (URM)", "Definitiva em"],
        autos,
    )  # fmt: skip
    return arquivos


def _apagar_pg(*urls: str) -> None:
    """The bench's own PostgreSQL databases go away afterwards (the SQLite files go with the temp folder)."""
    import sqlalchemy as sa

    admin = sa.create_engine(sa.make_url(urls[0]).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for url in urls:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{sa.make_url(url).database}" WITH (FORCE)')
    admin.dispose()


def _banco_novo(url: str) -> Banco:
    gerador.esvaziar(url)
    return abrir_e_semear(url)


def _url_temporaria(nome_banco: str, pasta: Path, sufixo: str) -> str:
    if nome_banco == "SQLite":
        return url_sqlite(pasta / f"importacao-{sufixo}.sqlite")
    return f"{gerador.PG_SERVIDOR}/secretaria_bench_importacao_{sufixo}"


def _importar_tudo(banco: Banco, planilhas: dict[str, Planilha], tipos: tuple[str, ...]) -> None:
    for tipo in tipos:
        with banco.leitura() as s:
            p = previa(s, tipo, planilhas[tipo])
        assert not p.recusadas, (tipo, p.recusadas[:3])
        importar(banco.uow(), SISTEMA, tipo, planilhas[tipo])


def _dia(valor: object) -> date:
    from datetime import datetime

    assert isinstance(valor, datetime)
    return valor.date()


def _simples_cadastros(banco: Banco, arquivos: dict[str, Path], amostra: int) -> float:
    """One service call per row (`criar_veiculo`, `criar_empregado`), on the first rows of each file."""
    import sqlalchemy as sa
    from openpyxl import load_workbook

    from secretaria.models import Linha, Operadora

    operadoras: dict[str, int] = {}
    linhas: dict[str, int] = {}
    with banco.leitura() as s:
        for cnpj, ident in s.execute(sa.select(Operadora.cnpj, Operadora.id)):
            operadoras[cnpj] = ident
        for codigo, ident in s.execute(sa.select(Linha.codigo, Linha.id)):
            linhas[codigo] = ident
    inicio = time.perf_counter()
    ws = load_workbook(arquivos["veiculos"], read_only=True).worksheets[0]
    for linha in list(ws.iter_rows(min_row=2, max_row=amostra + 1, values_only=True)):
        prefixo, placa, renavam, cnpj, codigo, ano, vistoria, assentos = linha
        dados = cadastros.DadosVeiculo(
            prefixo=str(prefixo), placa=str(placa), renavam=str(renavam), operadora_id=operadoras[cnpj],
            linha_id=linhas[codigo], ano_fabricacao=int(ano), vistoria_validade=_dia(vistoria),
            lugares_sentados=int(assentos),
        )  # fmt: skip
        cadastros.criar_veiculo(banco.uow(), SISTEMA, dados)
    ws = load_workbook(arquivos["empregados"], read_only=True).worksheets[0]
    for linha in list(ws.iter_rows(min_row=2, max_row=4 * amostra + 1, values_only=True)):
        nome, cpf, cnpj, funcao, admissao = linha
        cadastros.criar_empregado(
            banco.uow(),
            SISTEMA,
            cadastros.DadosEmpregado(
                nome=str(nome), cpf=str(cpf), operadora_id=operadoras[cnpj],
                funcao="motorista" if funcao == "Motorista" else "cobrador", admissao=_dia(admissao),
            ),
        )  # fmt: skip
    return time.perf_counter() - inicio


def _simples_autos(banco: Banco, planilha: Planilha, amostra: int) -> float:
    """The plain way for the history: each row imported by itself (one service call per row)."""
    from dataclasses import replace

    inicio = time.perf_counter()
    for linha in planilha.linhas[:amostra]:
        importar(banco.uow(), SISTEMA, "autos", replace(planilha, linhas=(linha,)))
    return time.perf_counter() - inicio


def medir_importacao(nome_banco: str, hoje: date, total_autos: int = AUTOS) -> list[Resultado]:
    """The two import rows; `total_autos` historical autos (the 2,000,000-auto city's table imports
    100,000: `bench/run --escala`)."""
    resultados: list[Resultado] = []
    with tempfile.TemporaryDirectory(prefix="secretaria-bench-importacao-") as temporaria:
        pasta = Path(temporaria)
        arquivos = gerar_planilhas(pasta, hoje, total_autos)
        url = _url_temporaria(nome_banco, pasta, "lote")
        banco = _banco_novo(url)
        try:
            bases = {t: ler_arquivo(arquivos[t]) for t in ("operadoras", "linhas", "fiscais")}
            _importar_tudo(banco, bases, ("operadoras", "linhas", "fiscais"))
            inicio = time.perf_counter()
            grandes = {t: ler_arquivo(arquivos[t]) for t in ("veiculos", "empregados")}
            _importar_tudo(banco, grandes, ("veiculos", "empregados"))
            cadastros_s = time.perf_counter() - inicio
            inicio = time.perf_counter()
            historico = {"autos": ler_arquivo(arquivos["autos"])}
            _importar_tudo(banco, historico, ("autos",))
            autos_s = time.perf_counter() - inicio
        finally:
            banco.fechar()
        url_simples = _url_temporaria(nome_banco, pasta, "simples")
        simples = _banco_novo(url_simples)
        try:
            _importar_tudo(simples, bases, ("operadoras", "linhas", "fiscais"))
            por_amostra = _simples_cadastros(simples, arquivos, AMOSTRA_SIMPLES)
            simples_cadastros = por_amostra * (VEICULOS + EMPREGADOS) / (5 * AMOSTRA_SIMPLES)
            amostra_autos = AMOSTRA_SIMPLES
            simples_autos = (
                _simples_autos(simples, historico["autos"], amostra_autos) * total_autos / amostra_autos
            )
        finally:
            simples.fechar()
        if nome_banco != "SQLite":
            _apagar_pg(url, url_simples)
    resultados.append(
        Resultado(
            "Importar 1.500 veículos + 6.000 empregados (ler, conferir, prévia, gravar)",
            nome_banco,
            cadastros_s,
            simples_cadastros,
            f"criar_veiculo/criar_empregado por linha (medido em {5 * AMOSTRA_SIMPLES} linhas)",
            META_CADASTROS,
        )
    )
    resultados.append(
        Resultado(
            f"Importar {total_autos:,} autos do histórico (ler, conferir, prévia, gravar)".replace(",", "."),
            nome_banco,
            autos_s,
            simples_autos,
            f"um auto por chamada do serviço (medido em {amostra_autos} linhas)",
            META_AUTOS * total_autos / AUTOS,
        )
    )
    return resultados
