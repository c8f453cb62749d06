"""The monthly spreadsheet from the database (services.relatorios), on SQLite and PostgreSQL.

The workbook is read back with openpyxl: sheets, headers, formats, and totals that equal what the database
holds (computed here by separate queries, not by the service's code).
"""

from __future__ import annotations

import importlib.util
import sys
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import sqlalchemy as sa
from openpyxl import load_workbook
from sqlalchemy import event

from secretaria import relogio
from secretaria.db import Banco
from secretaria.lei.urm import urm_para_reais
from secretaria.models import AutoInfracao, Decisao, Operadora, Pagamento
from secretaria.reports.planilha_mensal import ABAS, FORMATO_DATA, FORMATO_REAIS, FORMATO_URM
from secretaria.services.base import ErroDominio
from secretaria.services.relatorios import dados_mensais, gerar_relatorio_mensal, ler_mes
from secretaria.services.tramitacao import registrar_defesa


def _carregar(nome: str, arquivo: str) -> ModuleType:
    if nome in sys.modules:
        return sys.modules[nome]
    spec = importlib.util.spec_from_file_location(nome, Path(__file__).with_name(arquivo))
    assert spec is not None and spec.loader is not None
    modulo = importlib.util.module_from_spec(spec)
    sys.modules[nome] = modulo
    spec.loader.exec_module(modulo)
    return modulo


cen = _carregar("tests.services.cenario_documentos", "cenario_documentos.py")
NOVEMBRO = (date(2026, 11, 1), date(2026, 11, 30))


@pytest.fixture
def cenario(banco: Banco, monkeypatch: pytest.MonkeyPatch) -> Any:
    return cen.montar(banco, monkeypatch)


def _multas_do_mes(banco: Banco) -> tuple[Decimal, dict[str, int]]:
    """Fines (R$) of the autos drawn up in November that stand, and autos per operator, straight from SQL."""
    a = AutoInfracao
    with banco.leitura() as s:
        linhas = s.execute(
            sa.select(a.multa_ur, a.penalidade_anulada, Decisao.resultado, Decisao.valor_urm)
            .outerjoin(Decisao, Decisao.auto_id == a.id)
            .where(a.data_lavratura.between(*NOVEMBRO))
        ).all()
        total = sum(
            (
                urm_para_reais(r.multa_ur, r.valor_urm)
                for r in linhas
                if r.resultado == "aplicada" and not r.penalidade_anulada
            ),
            Decimal(0),
        )
        por_operadora = dict(
            s.execute(
                sa.select(Operadora.razao_social, sa.func.count(a.id))
                .join(a, a.operadora_id == Operadora.id)
                .where(a.data_lavratura.between(*NOVEMBRO))
                .group_by(Operadora.razao_social)
            ).all()
        )
    return total, por_operadora


def _coluna(folha: Any, titulo: str) -> list[Any]:
    cabecalho = [c.value for c in folha[1]]
    indice = cabecalho.index(titulo)
    return [linha[indice] for linha in folha.iter_rows(min_row=2)]


def test_planilha_mensal_confere_com_o_banco(banco: Banco, cenario: Any, tmp_path: Path) -> None:
    # An operator's name that looks like a formula is kept as text.
    with banco.engine.begin() as conn:
        conn.execute(
            sa.update(Operadora)
            .where(Operadora.id == cenario.cidade.operadora2_id)
            .values(razao_social="=HYPERLINK(1) Transportes Laranjal")
        )
    destino = tmp_path / "novembro.xlsx"
    chamadas: list[tuple[int, int]] = []
    resumo = gerar_relatorio_mensal(banco, 2026, 11, destino, progresso=lambda f, t: chamadas.append((f, t)))
    assert destino.is_file() and not list(tmp_path.glob(".*parcial"))
    assert chamadas and chamadas[-1][0] == chamadas[-1][1]
    assert (resumo.autos, resumo.penalidades, resumo.prazos, resumo.pagamentos) == (5, 2, 2, 1)
    assert "5 autos lavrados" in resumo.mensagem

    livro = load_workbook(destino)
    assert tuple(livro.sheetnames) == ABAS
    autos = livro["Autos"]
    assert [c.value for c in autos[1]] == [
        "Número", "Data", "Operadora", "Dispositivo", "Tipo", "Veículo", "Empregado", "Situação",
        "Multa (URM)", "Multa (R$)",
    ]  # fmt: skip
    for folha in livro:
        assert folha.freeze_panes == "A2"
        assert len(folha.tables) == 1
    assert autos.tables["Autos"].ref == "A1:J6"
    numeros = [c.value for c in _coluna(autos, "Número")]
    assert numeros == [cenario.numeros[i] for i in sorted(cenario.numeros) if i >= cenario.multado]
    assert all(c.number_format == FORMATO_DATA for c in _coluna(autos, "Data"))
    multas = [c for c in _coluna(autos, "Multa (R$)") if c.value is not None]
    assert all(c.number_format == FORMATO_REAIS for c in multas)
    assert all(c.number_format == FORMATO_URM for c in _coluna(autos, "Multa (URM)") if c.value is not None)
    total_banco, por_operadora = _multas_do_mes(banco)
    assert total_banco == Decimal("49.42")
    assert sum(Decimal(str(c.value)) for c in multas) == total_banco
    situacoes = {c.value for c in _coluna(autos, "Situação")}
    assert {"Penalidade aplicada", "Cancelado", "Aguardando intimação", "Intimado"} <= situacoes
    operadoras = [c for c in _coluna(autos, "Operadora") if c.value.startswith("=")]
    assert operadoras and all(c.data_type == "s" for c in operadoras)
    veiculos = {c.value for c in _coluna(autos, "Veículo")}
    assert "101 – IAB1C23" in veiculos and "201 – IXY-9876" in veiculos

    # summary by operator × tipo: counts and amounts equal the database; totals are formulas over the rows
    resumo_folha = livro["Resumo por operadora"]
    linhas = list(resumo_folha.iter_rows(min_row=2, values_only=True))
    *dados, totais = linhas
    assert {linha[0]: linha[1] for linha in dados} == por_operadora
    assert totais[0] == "Total" and totais[1] == f"=SUM(B2:B{len(dados) + 1})"
    assert sum(Decimal(str(linha[2])) for linha in dados) == total_banco
    assert resumo_folha.cell(row=len(linhas) + 1, column=13).number_format == FORMATO_REAIS

    penalidades = list(livro["Penalidades"].iter_rows(min_row=2, values_only=True))
    with banco.leitura() as s:
        decididos = s.execute(
            sa.select(Decisao.resultado, Decisao.multa_reais).where(Decisao.data.between(*NOVEMBRO))
        ).all()
    assert len(penalidades) == len(decididos) == 2
    assert sorted(linha[5] for linha in penalidades) == ["Arquivado", "Penalidade aplicada"]
    assert sum(Decimal(str(linha[8])) for linha in penalidades if linha[8] is not None) == sum(
        (d.multa_reais for d in decididos if d.resultado == "aplicada"), Decimal(0)
    )

    prazos = list(livro["Prazos"].iter_rows(min_row=2, values_only=True))
    with banco.leitura() as s:
        auto_multado = s.get(AutoInfracao, cenario.multado)
        auto_defesa = s.get(AutoInfracao, cenario.em_defesa)
        assert auto_multado is not None and auto_defesa is not None
        esperados = [
            (cenario.numeros[cenario.em_defesa], "Defesa (art. 14)", auto_defesa.prazo_defesa),
            (cenario.numeros[cenario.multado], "Recurso (art. 15)", auto_multado.prazo_recurso),
        ]
        pago = s.execute(
            sa.select(Pagamento.valor_pago, Pagamento.pago_em).where(Pagamento.situacao == "pago")
        ).one()
    assert [(p[0], p[2], p[4].date()) for p in prazos] == esperados
    assert prazos[0][5] == (date(2026, 12, 8) - date(2026, 11, 30)).days

    pagamentos = list(livro["Pagamentos"].iter_rows(min_row=2, values_only=True))
    assert len(pagamentos) == 1
    numero, _op, _valor, situacao, dia, valor_pago, observacao = pagamentos[0]
    assert (numero, situacao, observacao) == (cenario.numeros[cenario.suspenso], "Pago", "Guia nº 2026/778")
    assert dia == datetime.combine(pago.pago_em, datetime.min.time())
    assert Decimal(str(valor_pago)) == pago.valor_pago == Decimal("1647.40")


def test_prazos_em_aberto_no_fim_de_um_mes_passado(banco: Banco, cenario: Any) -> None:
    roteiro = cenario.roteiro
    r = roteiro.lavrar(data_infracao=date(2026, 10, 26))
    roteiro.intimar(r.id, date(2026, 10, 27))  # defence until 11/11: open on 31/10
    registrar_defesa(banco.uow(), cen.ATORES["protocolo"], auto_id=r.id, protocolada_em=date(2026, 11, 5))
    with banco.leitura() as s:
        outubro = dados_mensais(s, 2026, 10)
        novembro = dados_mensais(s, 2026, 11)
    assert [(p.numero_auto, p.prazo, p.vencimento) for p in outubro.prazos] == [
        (r.numero_formatado, "Defesa (art. 14)", date(2026, 11, 11))
    ]
    assert r.numero_formatado not in {p.numero_auto for p in novembro.prazos}
    assert {a.numero for a in outubro.autos} == {r.numero_formatado, cenario.numeros[cenario.arquivado]}


def test_um_mes_se_le_em_poucas_consultas_qualquer_que_seja_o_tamanho(banco: Banco, cenario: Any) -> None:
    """No query per row: the busy month and an empty one cost the same number of statements."""
    contagem: list[str] = []

    def contar(*_args: Any) -> None:
        contagem.append("x")

    event.listen(banco.engine, "before_cursor_execute", contar)
    try:
        with banco.leitura() as s:
            inicio = len(contagem)
            cheio = dados_mensais(s, 2026, 11)
            consultas_cheio = len(contagem) - inicio
            inicio = len(contagem)
            vazio = dados_mensais(s, 2026, 7)
            consultas_vazio = len(contagem) - inicio
    finally:
        event.remove(banco.engine, "before_cursor_execute", contar)
    assert len(cheio.autos) == 5 and not vazio.autos
    assert consultas_cheio == consultas_vazio <= 6


def test_mes_mal_escrito_ou_futuro_e_recusado(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relogio, "hoje", lambda: date(2026, 11, 30))
    assert ler_mes("2026-11") == (2026, 11)
    assert ler_mes("11/2026") == (2026, 11)
    assert ler_mes(" 2026-3 ") == (2026, 3)
    with pytest.raises(ErroDominio, match="Escreva o mês como AAAA-MM"):
        ler_mes("novembro")
    with pytest.raises(ErroDominio, match="Mês inválido: 13"):
        ler_mes("2026-13")
    with pytest.raises(ErroDominio, match="O mês 12/2026 ainda não começou"):
        ler_mes("2026-12")
    with pytest.raises(ErroDominio, match="anterior à Lei"):
        ler_mes("1977-01")
