"""The monthly spreadsheet from the database (services.relatorios), on SQLite and PostgreSQL.

The workbook is read back with openpyxl: sheets, headers, formats, and totals that equal what the database
holds (computed here by separate queries, not by the service's code).
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from openpyxl import load_workbook
from sqlalchemy import event

from secretaria import relogio
from secretaria.db import Banco
from secretaria.lei.urm import urm_para_reais
from secretaria.models import AutoInfracao, Decisao, Intimacao, Operadora, Pagamento, Suspensao
from secretaria.reports.planilha_mensal import ABA_GRAFICOS, ABAS, FORMATO_DATA, FORMATO_REAIS, FORMATO_URM
from secretaria.services.base import ErroDominio
from secretaria.services.documentos import numero_auto
from secretaria.services.execucao import PedidoSuspensao, iniciar_suspensao
from secretaria.services.relatorios import dados_mensais, gerar_relatorio_mensal, ler_mes
from secretaria.services.tramitacao import registrar_defesa
from tests.helpers import cenario_documentos as cen

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
        por_operadora: dict[str, int] = dict(
            s.execute(
                sa.select(Operadora.razao_social, sa.func.count(a.id))
                .join(a, a.operadora_id == Operadora.id)
                .where(a.data_lavratura.between(*NOVEMBRO))
                .group_by(Operadora.razao_social)
            )
            .tuples()
            .all()
        )
    return total, por_operadora


def _multas_decididas(banco: Banco) -> tuple[dict[tuple[str, str], tuple[int, Decimal, Decimal]], Decimal]:
    """Fines decided in November per (operator, tipo): how many, URM, R$ at each decision's URM; and the R$
    total, straight from SQL (whenever the autos were drawn up)."""
    a = AutoInfracao
    with banco.leitura() as s:
        linhas = s.execute(
            sa.select(
                Operadora.razao_social,
                a.tipo,
                sa.func.count(Decisao.id),
                sa.func.sum(Decisao.multa_ur),
                sa.func.sum(Decisao.multa_reais),
            )
            .join(a, a.id == Decisao.auto_id)
            .join(Operadora, Operadora.id == a.operadora_id)
            .where(Decisao.data.between(*NOVEMBRO), Decisao.resultado == "aplicada", Decisao.multa_ur > 0)
            .group_by(Operadora.razao_social, a.tipo)
        ).all()
    por_chave = {(r[0], r[1]): (int(r[2]), Decimal(r[3]), Decimal(r[4])) for r in linhas}
    return por_chave, sum((v[2] for v in por_chave.values()), Decimal(0))


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
    assert tuple(livro.sheetnames) == (*ABAS, ABA_GRAFICOS)
    autos = livro["Autos"]
    assert [c.value for c in autos[1]] == [
        "Número", "Data da infração", "Lavrado em", "Operadora", "Dispositivo", "Tipo", "Veículo", "Empregado",
        "Situação", "Multa (URM)", "Multa (R$)",
    ]  # fmt: skip
    for folha in (livro[nome] for nome in ABAS):  # the data sheets (Gráficos holds charts, not a table)
        assert folha.freeze_panes == "A2"
        assert len(folha.tables) == 1
    assert autos.tables["Autos"].ref == "A1:K7"  # header, five autos, the table's totals row
    numeros = [c.value for c in _coluna(autos, "Número")][:-1]
    assert numeros == [cenario.numeros[i] for i in sorted(cenario.numeros) if i >= cenario.multado]
    assert all(c.number_format == FORMATO_DATA for c in _coluna(autos, "Lavrado em")[:-1])
    multas = [c for c in _coluna(autos, "Multa (R$)")[:-1] if c.value is not None]
    assert all(c.number_format == FORMATO_REAIS for c in multas)
    assert all(c.number_format == FORMATO_URM for c in _coluna(autos, "Multa (URM)") if c.value is not None)
    assert _coluna(autos, "Multa (R$)")[-1].value == "=SUBTOTAL(109,Autos[Multa (R$)])"
    total_banco, por_operadora = _multas_do_mes(banco)
    assert total_banco == Decimal("49.42")
    assert sum(Decimal(str(c.value)) for c in multas) == total_banco
    situacoes = {c.value for c in _coluna(autos, "Situação")[:-1]}
    assert {"Penalidade aplicada", "Cancelado", "Aguardando intimação", "Intimado"} <= situacoes
    operadoras = [c for c in _coluna(autos, "Operadora")[:-1] if c.value.startswith("=")]
    assert operadoras and all(c.data_type == "s" for c in operadoras)
    veiculos = {c.value for c in _coluna(autos, "Veículo")}
    assert "101 – IAB1C23" in veiculos and "201 – IXY-9876" in veiculos

    # summary by operator × tipo: the autos drawn up and the fines decided in the month
    resumo_folha = livro["Resumo por operadora"]
    *dados, totais = list(resumo_folha.iter_rows(min_row=2, values_only=True))
    lavrados: dict[str, int] = {}
    for linha in dados:
        lavrados[linha[0]] = lavrados.get(linha[0], 0) + linha[2]
    assert {op: n for op, n in lavrados.items() if n} == por_operadora
    assert totais[0] == "Total" and totais[2] == "=SUBTOTAL(109,ResumoPorOperadora[Autos lavrados no mês])"
    assert sum(Decimal(str(linha[5])) for linha in dados) == _multas_decididas(banco)[1]

    *penalidades, _total = list(livro["Penalidades"].iter_rows(min_row=2, values_only=True))
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

    *pagamentos, _total = list(livro["Pagamentos"].iter_rows(min_row=2, values_only=True))
    assert len(pagamentos) == 1
    numero, _op, _valor, situacao, dia, valor_pago, observacao = pagamentos[0]
    assert (numero, situacao, observacao) == (cenario.numeros[cenario.suspenso], "Pago", "Guia nº 2026/778")
    assert dia == datetime.combine(pago.pago_em, datetime.min.time())
    assert Decimal(str(valor_pago)) == pago.valor_pago == Decimal("1647.40")


def test_mes_de_decisoes_suspensao_iniciada_e_prazos_que_correm(
    banco: Banco, cenario: Any, tmp_path: Path
) -> None:
    """November's decisions on autos drawn up earlier fill the summary; a suspension decided in August and
    started in November is listed; the notified dismissal has no appeal deadline, the notified fine has."""
    r = cenario.roteiro
    # A fine decided in November on an auto drawn up in October, on the permissionária.
    outubro = r.lavrar(
        dispositivo="1-VI", data_infracao=date(2026, 10, 19), operadora_id=cenario.cidade.operadora2_id
    )
    r.intimar(outubro.id, date(2026, 10, 20))
    r.decidir(outubro.id, date(2026, 11, 12), "0.30")
    # The dismissal of 05/11 notified on 06/11: nothing to appeal.
    r.intimar(cenario.arquivado, date(2026, 11, 6), objeto="decisao")
    # Even with a deadline stored on that intimação (as a database written by hand or by an older version may
    # hold), a dismissal has no appeal deadline.
    with banco.engine.begin() as conn:
        conn.execute(
            sa.update(Intimacao)
            .where(Intimacao.auto_id == cenario.arquivado, Intimacao.objeto == "decisao")
            .values(prazo=date(2026, 12, 1))
        )
    # The tipo E chain's fourth auto: decided with a suspension in August, final, started on 16/11.
    quarto = r.lavrar(dispositivo="1-I", data_infracao=date(2026, 7, 1))
    r.intimar(quarto.id, date(2026, 7, 2))
    r.decidir(quarto.id, date(2026, 8, 3), "10.00", suspensao=10)
    r.intimar(quarto.id, date(2026, 8, 4), objeto="decisao")
    iniciar_suspensao(
        banco.uow(), cen.ATORES["secretario"], PedidoSuspensao(auto_id=quarto.id, inicio=date(2026, 11, 16))
    )

    destino = tmp_path / "novembro.xlsx"
    gerar_relatorio_mensal(banco, 2026, 11, destino)
    livro = load_workbook(destino)
    assert tuple(livro.sheetnames) == (*ABAS, ABA_GRAFICOS)

    # Autos: both the day of the infraction and the lavratura, as the database holds them.
    a = AutoInfracao
    with banco.leitura() as s:
        dias = {
            numero_auto(n, ano): (infracao, lavratura)
            for n, ano, infracao, lavratura in s.execute(
                sa.select(a.numero, a.ano, a.data_infracao, a.data_lavratura).where(
                    a.data_lavratura.between(*NOVEMBRO)
                )
            )
        }
    *linhas_autos, _total = list(livro["Autos"].iter_rows(min_row=2, values_only=True))
    assert {linha[0]: (linha[1].date(), linha[2].date()) for linha in linhas_autos} == dias
    assert outubro.numero_formatado not in dias

    # Summary: the month's decisions of fines, by operator × tipo, in URM and R$ at the decision's URM.
    por_chave, total_reais = _multas_decididas(banco)
    assert len(por_chave) == 2 and total_reais > 0  # the October auto's fine and the November one
    resumo = livro["Resumo por operadora"]
    *linhas, totais = list(resumo.iter_rows(min_row=2, values_only=True))
    obtido = {
        (op, tipo): (qtd, Decimal(str(urm)), Decimal(str(reais)))
        for op, tipo, _lavrados, qtd, urm, reais in linhas
        if qtd
    }
    assert obtido == por_chave
    assert totais[5] == "=SUBTOTAL(109,ResumoPorOperadora[Multas decididas no mês (R$)])"

    # Suspensions started in November, from SQL.
    with banco.leitura() as s:
        iniciadas = s.execute(
            sa.select(
                a.numero, a.ano, Operadora.razao_social, Suspensao.inicio, Suspensao.fim, Suspensao.dias
            )
            .join(Decisao, Decisao.id == Suspensao.decisao_id)
            .join(a, a.id == Decisao.auto_id)
            .join(Operadora, Operadora.id == Suspensao.operadora_id)
            .where(Suspensao.inicio.between(*NOVEMBRO))
        ).all()
    assert len(iniciadas) == 1
    folha = livro["Suspensões"]
    *suspensoes, total_dias = list(folha.iter_rows(min_row=2, values_only=True))
    assert [(x[0], x[1], x[3].date(), x[4].date(), x[5]) for x in suspensoes] == [
        (numero_auto(n, ano), op, ini, fim, d) for n, ano, op, ini, fim, d in iniciadas
    ]
    assert suspensoes[0][6] == "Cumprida" and iniciadas[0].fim <= NOVEMBRO[1]
    assert total_dias[0] == "Total" and total_dias[5] == "=SUBTOTAL(109,Suspensoes[Dias])"

    # Deadlines running on 30/11: defence of intimated autos, appeal of notified penalties, from the stored
    # deadline columns; never an appeal against the dismissal.
    i = Intimacao
    with banco.leitura() as s:
        esperados = s.execute(
            sa.select(a.numero, a.ano, i.objeto, i.prazo)
            .join(a, a.id == i.auto_id)
            .outerjoin(Decisao, Decisao.auto_id == a.id)
            .where(
                i.sucesso.is_(True),
                i.prazo >= NOVEMBRO[1],
                a.cancelado_em.is_(None),
                sa.or_(
                    sa.and_(i.objeto == "auto", Decisao.id.is_(None)),
                    sa.and_(i.objeto == "decisao", Decisao.resultado == "aplicada", Decisao.data <= i.data),
                ),
            )
        ).all()
    prazos = list(livro["Prazos"].iter_rows(min_row=2, values_only=True))
    assert sorted((p[0], p[2], p[4].date()) for p in prazos) == sorted(
        (numero_auto(n, ano), "Defesa (art. 14)" if obj == "auto" else "Recurso (art. 15)", prazo)
        for n, ano, obj, prazo in esperados
    )
    arquivado = cenario.numeros[cenario.arquivado]
    assert arquivado not in {p[0] for p in prazos}
    assert len(prazos) == 2
    # Every header fits beside its filter button.
    for aba in (livro[nome] for nome in ABAS):
        for celula in aba[1]:
            assert aba.column_dimensions[celula.column_letter].width >= len(celula.value) + 3


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
