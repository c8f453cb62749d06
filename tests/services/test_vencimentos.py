"""Registries the office can trust: no bus with 0 seats, missing validity dates as problems, expiries
announced 30 days ahead (home queues and list highlights), an ended contract never a plain "Ativa"."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.lei.formato import formatar_data
from secretaria.models import Auditoria, Veiculo
from secretaria.services import cadastros, filas, listas, vencimentos
from secretaria.services.base import ErroDominio
from secretaria.services.listas import Filtro
from tests.services.test_cadastros import ADMIN, HOJE, criar_base, dados_operadora, dados_veiculo

SEM_LUGARES = "Informe o número de lugares sentados (maior que zero)."


def _contar(banco: Banco, modelo: type) -> int:
    with banco.leitura() as s:
        return int(s.scalar(sa.select(sa.func.count()).select_from(modelo)) or 0)


def test_onibus_sem_lugares_sentados_e_recusado_salvo_se_baixado(banco: Banco) -> None:
    ids = criar_base(banco)
    antes = (_contar(banco, Veiculo), _contar(banco, Auditoria))
    for situacao in ("ativo", "reserva"):
        with pytest.raises(ErroDominio) as erro:
            cadastros.criar_veiculo(
                banco.uow(), ADMIN, dados_veiculo(ids, lugares_sentados=0, situacao=situacao)
            )
        assert (erro.value.mensagem, erro.value.campo) == (SEM_LUGARES, "lugares_sentados")
    assert (_contar(banco, Veiculo), _contar(banco, Auditoria)) == antes

    baixado = cadastros.criar_veiculo(
        banco.uow(), ADMIN, dados_veiculo(ids, 1, lugares_sentados=0, situacao="baixado")
    )
    vid = cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids, 2))
    with banco.leitura() as s:
        versao = cadastros.obter_veiculo(s, vid).versao
        assert cadastros.obter_veiculo(s, baixado).dados.lugares_sentados == 0
    with pytest.raises(ErroDominio) as erro:
        cadastros.editar_veiculo(
            banco.uow(), ADMIN, vid, dados_veiculo(ids, 2, lugares_sentados=0), versao=versao
        )
    assert erro.value.campo == "lugares_sentados"
    with banco.leitura() as s:
        assert (
            cadastros.obter_veiculo(s, vid).dados.lugares_sentados == dados_veiculo(ids, 2).lugares_sentados
        )


def test_veiculo_sem_datas_e_gravado_e_aparece_como_pendencia(banco: Banco) -> None:
    ids = criar_base(banco)
    sem_nada = cadastros.criar_veiculo(
        banco.uow(), ADMIN, dados_veiculo(ids, 1, vistoria_validade=None, licenca_validade=None)
    )
    sem_licenca = cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids, 2, licenca_validade=None))
    em_dia = cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids, 3))
    cadastros.criar_veiculo(  # withdrawn: its dates no longer matter
        banco.uow(), ADMIN, dados_veiculo(ids, 4, vistoria_validade=None, situacao="baixado")
    )
    with banco.leitura() as s:
        fila = filas.veiculos_vencidos(s, HOJE)
        detalhes = {linha.id: linha.detalhe for linha in fila.linhas}
        assert detalhes == {sem_nada: "Sem data de vistoria; sem licença", sem_licenca: "Sem licença"}
        assert em_dia not in detalhes
        linhas = {r[0]: r for r in listas.pagina(s, "veiculos", Filtro(operadora_id=ids["op1"]))}
    d = listas.definicao("veiculos")
    situacao = d.indice("situacao")
    assert linhas[sem_nada][situacao] == "Ativo — sem data de vistoria; sem licença"
    assert listas.destaque("veiculos", linhas[sem_nada], HOJE) == "alerta"
    assert (linhas[em_dia][situacao], listas.destaque("veiculos", linhas[em_dia], HOJE)) == ("Ativo", None)
    with banco.leitura() as s:  # the list's "Documentos" filter finds them (with the withdrawn one)
        sem_data = {r[0] for r in listas.pagina(s, "veiculos", Filtro(situacoes=frozenset({"sem_data"})))}
        ativos = Filtro(situacoes=frozenset({"sem_data", "ativo"}))
        assert {r[0] for r in listas.pagina(s, "veiculos", ativos)} == {sem_nada, sem_licenca}
    assert {sem_nada, sem_licenca} < sem_data and em_dia not in sem_data


def test_vistorias_e_licencas_a_vencer_em_30_dias(banco: Banco) -> None:
    ids = criar_base(banco)
    em = {n: HOJE + timedelta(days=n) for n in (0, 5, 12, 30, 31, 60)}
    vistoria_12 = cadastros.criar_veiculo(
        banco.uow(), ADMIN, dados_veiculo(ids, 1, vistoria_validade=em[12], licenca_validade=em[60])
    )
    licenca_5 = cadastros.criar_veiculo(
        banco.uow(), ADMIN, dados_veiculo(ids, 2, vistoria_validade=em[60], licenca_validade=em[5])
    )
    as_duas = cadastros.criar_veiculo(
        banco.uow(), ADMIN, dados_veiculo(ids, 3, vistoria_validade=em[30], licenca_validade=em[0])
    )
    fora = cadastros.criar_veiculo(
        banco.uow(), ADMIN, dados_veiculo(ids, 4, vistoria_validade=em[31], licenca_validade=em[60])
    )
    vencido = cadastros.criar_veiculo(
        banco.uow(), ADMIN, dados_veiculo(ids, 5, vistoria_validade=HOJE - timedelta(days=1))
    )
    with banco.leitura() as s:
        fila = filas.veiculos_a_vencer(s, HOJE)
        linhas = {r[0]: r for r in listas.pagina(s, "veiculos")}
    assert [linha.id for linha in fila.linhas] == [as_duas, licenca_5, vistoria_12]  # soonest first
    assert [linha.prazo for linha in fila.linhas] == [em[0], em[5], em[12]]
    detalhes = {linha.id: linha.detalhe for linha in fila.linhas}
    assert detalhes[vistoria_12] == f"Vistoria vence em 12 dias ({formatar_data(em[12])})"
    assert detalhes[as_duas] == f"Vistoria vence em 30 dias ({formatar_data(em[30])}); licença vence hoje"
    assert fila.titulo == f"Vistorias e licenças que vencem nos próximos {vencimentos.DIAS_AVISO} dias"
    assert fora not in detalhes and vencido not in detalhes
    with banco.leitura() as s:
        a_vencer = listas.pagina(s, "veiculos", Filtro(situacoes=frozenset({"a_vencer"})))
    assert {r[0] for r in a_vencer} == set(detalhes)

    situacao = listas.definicao("veiculos").indice("situacao")
    assert linhas[vistoria_12][situacao] == "Ativo — vistoria vence em 12 dias"
    assert listas.destaque("veiculos", linhas[vistoria_12], HOJE) == "aviso"
    assert listas.destaque("veiculos", linhas[fora], HOJE) is None
    assert linhas[vencido][situacao] == "Ativo — vistoria vencida"
    assert listas.destaque("veiculos", linhas[vencido], HOJE) == "alerta"


def test_contrato_vencido_nao_e_ativa_simples(banco: Banco) -> None:
    vencido = cadastros.criar_operadora(
        banco.uow(), ADMIN, dados_operadora(1, contrato_numero="12/2016", contrato_fim=date(2026, 10, 3))
    )
    a_vencer = cadastros.criar_operadora(
        banco.uow(),
        ADMIN,
        dados_operadora(
            2, delegacao="permissao", contrato_numero="7/2021", contrato_fim=HOJE + timedelta(12)
        ),
    )
    longe = cadastros.criar_operadora(banco.uow(), ADMIN, dados_operadora(3))
    sem_fim = cadastros.criar_operadora(banco.uow(), ADMIN, dados_operadora(4, contrato_fim=None))
    with banco.leitura() as s:
        fila = filas.contratos_a_vencer(s, HOJE)
        linhas = {r[0]: r for r in listas.pagina(s, "operadoras")}
        assert "contratos_a_vencer" in [f.chave for f in filas.painel(s, HOJE)]
    assert [linha.id for linha in fila.linhas] == [vencido, a_vencer]
    assert [(linha.referencia, linha.detalhe) for linha in fila.linhas] == [
        ("Contrato nº 12/2016", "Contrato vencido em 03/10/2026"),
        ("Permissão nº 7/2021", f"Permissão vence em 12 dias ({formatar_data(HOJE + timedelta(12))})"),
    ]

    situacao = listas.definicao("operadoras").indice("situacao")
    assert linhas[vencido][situacao] == "Ativa — contrato vencido"
    assert listas.destaque("operadoras", linhas[vencido], HOJE) == "alerta"
    assert linhas[a_vencer][situacao] == "Ativa — permissão vence em 12 dias"
    assert listas.destaque("operadoras", linhas[a_vencer], HOJE) == "aviso"
    for ok in (longe, sem_fim):
        assert (linhas[ok][situacao], listas.destaque("operadoras", linhas[ok], HOJE)) == ("Ativa", None)
    # The list filters on the status code, which stays "ativa" (an ended contract is no status of the law).
    with banco.leitura() as s:
        assert listas.contar(s, "operadoras", Filtro(situacoes=frozenset({"ativa"}))) == 4


def test_filas_de_vencimento_sao_uma_consulta_cada(banco: Banco) -> None:
    ids = criar_base(banco)
    cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids, 1, vistoria_validade=HOJE + timedelta(3)))
    consultas: list[str] = []

    def contar(conn: object, cursor: object, statement: str, *args: object) -> None:
        if not statement.strip().upper().startswith(("BEGIN", "SAVEPOINT", "RELEASE")):
            consultas.append(statement)

    funcoes: list[Callable[..., filas.Fila]] = [
        filas.veiculos_vencidos,
        filas.veiculos_a_vencer,
        filas.contratos_a_vencer,
    ]
    with banco.leitura() as s:
        s.connection()
        sa.event.listen(banco.engine, "before_cursor_execute", contar)
        try:
            for funcao in funcoes:
                consultas.clear()
                funcao(s, HOJE)
                assert len(consultas) == 1, consultas
        finally:
            sa.event.remove(banco.engine, "before_cursor_execute", contar)


@pytest.mark.parametrize(
    ("dias", "esperado"),
    [(-1, "vencida"), (0, "a_vencer"), (30, "a_vencer"), (31, "em_dia")],
)
def test_estado_de_uma_validade(dias: int, esperado: str) -> None:
    assert vencimentos.estado(HOJE + timedelta(days=dias), HOJE) == esperado
    assert vencimentos.estado(None, HOJE) == "sem_data"
