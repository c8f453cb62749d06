"""The annual report (PDF and workbook): the year's numbers against the test's own reading of the rows, the
charts, and no personal data (no CPF, no petitioner's, employee's or driver's name)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections import Counter
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa
from openpyxl import load_workbook
from pypdf import PdfReader

from secretaria.db import Banco
from secretaria.models import (
    AutoInfracao,
    Decisao,
    Empregado,
    Fiscal,
    Intimacao,
    Operadora,
    Representacao,
    Usuario,
)
from secretaria.reports.relatorio_anual import ABAS_ANUAIS
from secretaria.services import painel
from secretaria.services.base import ErroDominio
from secretaria.services.listas.nucleo import nome_operadora
from secretaria.services.representacoes import receber_representacao
from tests.helpers.cenario_painel import cenario
from tests.helpers.fabrica import ATORES, Roteiro

PETICIONARIA = "Beatriz Peticionária Quintana"
CPF = re.compile(r"\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b")


def _com_dados_pessoais(r: Roteiro) -> list[str]:
    """A year of cases plus what must never appear: a petitioner, autos naming the employees."""
    cenario(r)
    receber_representacao(
        r.uow(), ATORES["fiscal"], recebida_em=date(2026, 11, 20), peticionario_nome=PETICIONARIA,
        peticionario_profissao="Professora", peticionario_endereco="Rua A, 1", fatos="Atraso.", meios_prova="Relato.",
    )  # fmt: skip
    r.lavrar(data_infracao=date(2026, 11, 10), dispositivo="6-I", empregado_id=r.cidade.empregado_id)
    # Two operators under one trade name: the report tells them apart without anyone's personal data.
    with r.banco.engine.begin() as conexao:
        conexao.execute(
            sa.update(Operadora)
            .where(Operadora.id == r.cidade.operadora2_id)
            .values(nome_fantasia="Princesa do Sul")
        )
    with r.banco.leitura() as s:
        pessoais = [
            *s.scalars(sa.select(Empregado.nome)),
            *s.scalars(sa.select(Empregado.cpf)),
            *s.scalars(sa.select(Fiscal.nome)),
            *s.scalars(sa.select(Usuario.nome)),
            *s.scalars(sa.select(Representacao.peticionario_nome)),
            *s.scalars(sa.select(Intimacao.recebedor_nome)),
            *s.scalars(sa.select(Operadora.representante_nome)),
            *s.scalars(sa.select(Operadora.representante_cpf)),
        ]
    nomes = sorted({n for n in pessoais if n})
    assert PETICIONARIA in nomes and "Carlos Representante" in nomes
    return nomes


def _sem_dados_pessoais(texto: str, nomes: list[str]) -> None:
    assert CPF.search(texto) is None
    for nome in nomes:
        assert nome not in texto


def test_numeros_do_ano_conferem_com_o_banco(banco: Banco, roteiro: Roteiro) -> None:
    """Per operator and tipo: the autos drawn up in the year (by the lavratura) and what became of them — so
    fines plus dismissals never exceed the autos (REGRAS § 5, "Figures in reports")."""
    cenario(roteiro)
    with banco.leitura() as s:
        dados = painel.dados_anuais(s, 2026)
        autos = s.execute(
            sa.select(nome_operadora(), AutoInfracao.tipo, AutoInfracao.data_lavratura).join(
                Operadora, Operadora.id == AutoInfracao.operadora_id
            )
        ).all()
        decisoes = s.execute(
            sa.select(
                nome_operadora(),
                AutoInfracao.tipo,
                AutoInfracao.data_lavratura,
                AutoInfracao.penalidade_anulada,
                Decisao.resultado,
                Decisao.multa_reais,
            )
            .join(AutoInfracao, AutoInfracao.id == Decisao.auto_id)
            .join(Operadora, Operadora.id == AutoInfracao.operadora_id)
        ).all()
    do_ano = Counter((o, t) for o, t, d in autos if d.year == 2026)
    assert {(x.operadora, x.tipo): x.autos for x in dados.linhas if x.autos} == dict(do_ano)
    reais: dict[tuple[str, str], Decimal] = Counter()  # type: ignore[assignment]
    arquivados: Counter[tuple[str, str]] = Counter()
    for o, t, lavrado, anulada, resultado, valor in decisoes:
        if lavrado.year == 2026 and resultado == "aplicada" and not anulada:
            reais[(o, t)] += valor
        if lavrado.year == 2026 and resultado == "arquivado":
            arquivados[(o, t)] += 1
    assert {(x.operadora, x.tipo): x.multas_reais for x in dados.linhas if x.multas_reais} == {
        k: v for k, v in reais.items() if v
    }
    assert {(x.operadora, x.tipo): x.arquivados for x in dados.linhas if x.arquivados} == dict(arquivados)
    assert all(x.multas_aplicadas + x.arquivados <= x.autos for x in dados.linhas)
    assert [m.mes for m in dados.meses] == [date(2026, m, 1) for m in range(1, 13)]
    assert sum(m.autos for m in dados.meses) == dados.total_autos == sum(do_ano.values())
    assert dados.graficos and all(g.chave != "reincidencia" for g in dados.graficos)


def test_pdf_e_planilha_sem_dados_pessoais(banco: Banco, roteiro: Roteiro, tmp_path: Path) -> None:
    nomes = _com_dados_pessoais(roteiro)
    pdf, xlsx = tmp_path / "anual.pdf", tmp_path / "anual.xlsx"
    mensagem = painel.gerar_relatorio_anual(banco, 2026, pdf)
    painel.gerar_relatorio_anual(banco, 2026, xlsx)
    with banco.leitura() as s:
        dados = painel.dados_anuais(s, 2026)
    assert f"{dados.total_autos} autos lavrados" in mensagem
    leitor = PdfReader(io.BytesIO(pdf.read_bytes()))
    texto = "\n".join(p.extract_text() for p in leitor.pages)
    assert "Relatório anual de 2026" in texto and "Por operadora e tipo" in texto
    assert sum(len(p.images) for p in leitor.pages) == len(dados.graficos)  # the charts, as images
    _sem_dados_pessoais(texto, nomes)

    livro = load_workbook(xlsx)
    assert livro.sheetnames == [*ABAS_ANUAIS, "Gráficos"]
    celulas = " ".join(
        str(c) for aba in livro for linha in aba.iter_rows(values_only=True) for c in linha if c
    )
    _sem_dados_pessoais(celulas, nomes)
    graficos = livro["Gráficos"]._charts
    assert len(graficos) == 3
    por_mes = livro[ABAS_ANUAIS[1]]
    assert [por_mes.cell(i, 2).value for i in range(2, 14)] == [m.autos for m in dados.meses]
    assert livro["Gráficos"]["B3"].value == f"='{ABAS_ANUAIS[1]}'!B2"
    assert not list(tmp_path.glob(".*parcial"))


def test_formato_e_ano_recusados(banco: Banco, tmp_path: Path) -> None:
    with pytest.raises(ErroDominio, match="PDF"):
        painel.gerar_relatorio_anual(banco, 2026, tmp_path / "anual.docx")
    with pytest.raises(ErroDominio, match="Ano inválido"):
        painel.gerar_relatorio_anual(banco, 1900, tmp_path / "anual.pdf")


def test_linha_de_comando(banco_url: str, tmp_path: Path) -> None:
    destino = tmp_path / "anual.xlsx"
    saida = subprocess.run(
        [sys.executable, "-m", "secretaria", "--db", banco_url, "relatorio", "anual", "2026", "-o", str(destino)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "Relatório anual de 2026 gravado em" in saida.stdout
    assert load_workbook(destino).sheetnames[0] == ABAS_ANUAIS[0]


def test_duas_operadoras_com_o_mesmo_nome_fantasia_sao_duas_linhas(banco: Banco, roteiro: Roteiro) -> None:
    """Rows are by operator, as the Painel counts: two operators under one trade name stay two rows, each
    with its own numbers and told apart by the company name; each operator is one row per tipo."""
    cenario(roteiro)
    c = roteiro.cidade
    with banco.engine.begin() as conexao:
        conexao.execute(
            sa.update(Operadora)
            .where(Operadora.id == c.operadora2_id)
            .values(nome_fantasia="Princesa do Sul")
        )
    with banco.leitura() as s:
        dados = painel.dados_anuais(s, 2026)
        autos = s.execute(
            sa.select(AutoInfracao.operadora_id, AutoInfracao.tipo, AutoInfracao.data_infracao)
        ).all()
        razoes = {i: r for i, r in s.execute(sa.select(Operadora.id, Operadora.razao_social))}
    do_ano = Counter((o, t) for o, t, d in autos if d.year == 2026)
    assert {o for o, _t in do_ano} == {c.operadora_id, c.operadora2_id}
    nomes = {oid: f"Princesa do Sul ({razoes[oid]})" for oid in (c.operadora_id, c.operadora2_id)}
    assert {(x.operadora, x.tipo): x.autos for x in dados.linhas if x.autos} == {
        (nomes[o], t): n for (o, t), n in do_ano.items()
    }
    assert len({(x.operadora, x.tipo) for x in dados.linhas}) == len(dados.linhas)
    assert dados.total_autos == sum(do_ano.values())
