"""The sanction panel on the database's data: provisions, antecedents, URM, calendar (lei_db + sancao)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.lei.prazos import Calendario
from secretaria.models import DiaNaoUtil, DispositivoCatalogo
from secretaria.services.autos import PedidoCancelamento, cancelar_auto
from secretaria.services.base import ErroDominio
from secretaria.services.lei_db import antecedentes, calendario, dispositivo_citavel, valor_urm_em
from secretaria.services.sancao import AvaliacaoSancao, avaliar_sancao, texto_proxima_penalidade
from tests.helpers.fabrica import ATORES, URM_2026, Cidade, Roteiro


def _avaliar(banco: Banco, cidade: Cidade, dia: date, codigo: str = "1-VI", **kw: Any) -> AvaliacaoSancao:
    with banco.leitura() as s:
        return avaliar_sancao(
            s,
            operadora_id=cidade.operadora_id,
            dispositivo_codigo=codigo,
            data_infracao=dia,
            **kw,
        )


def test_primaria_sem_antecedentes_com_faixa_em_reais(banco: Banco, roteiro: Roteiro) -> None:
    a = _avaliar(banco, roteiro.cidade, date(2026, 3, 10), data_valor=date(2026, 3, 10))
    assert (a.tipo, a.reincidencia) == ("A", 0)
    assert (a.sancao.multa_min_ur, a.sancao.multa_max_ur) == (Decimal("0.10"), Decimal("0.50"))
    assert a.valor_urm == URM_2026
    assert (a.multa_min_reais, a.multa_max_reais) == (Decimal("16.47"), Decimal("82.37"))
    assert a.antecedentes == ()
    assert a.leitura_paragrafo2 is None
    assert a.nota_dispositivo and "(sic)" in a.nota_dispositivo  # Art. 1º, VI has a garbled passage


def test_exemplo_2_reincidencia_lista_o_auto_que_conta(banco: Banco, roteiro: Roteiro) -> None:
    """REGRAS § 3, example 2: A, fact 10/03/2026, prior of 10/02/2026 final on 01/03/2026 → level 1.

    Its penalty became final on 01/03 because the Prefeito denied a timely appeal that day (rule 1)."""
    anterior = roteiro.lavrar(data_infracao=date(2026, 2, 10))
    roteiro.intimar(anterior.id, date(2026, 2, 11))
    roteiro.decidir(anterior.id, date(2026, 2, 27), "0.30")
    roteiro.recorrer(anterior.id, date(2026, 2, 27))
    roteiro.julgar(anterior.id, date(2026, 3, 1), "negado")
    # Noise that must not count: another operator, another provision.
    roteiro.decidido(data_infracao=date(2026, 2, 12), multa="0.30", operadora_id=roteiro.cidade.operadora2_id)
    roteiro.decidido(data_infracao=date(2026, 2, 12), multa="0.30", dispositivo="1-XVIII")

    a = _avaliar(banco, roteiro.cidade, date(2026, 3, 10))
    assert a.reincidencia == 1
    assert (a.sancao.multa_min_ur, a.sancao.multa_max_ur) == (Decimal("0.20"), Decimal("1.00"))
    assert [(x.numero, x.contado) for x in a.antecedentes] == [("0001/2026", True)]
    assert a.antecedentes[0].motivo.startswith("AI nº 0001/2026 — infração de 10/02/2026: conta")
    assert a.leitura_paragrafo2 is not None and "em dobro" in a.leitura_paragrafo2
    # Example 3: one day later the window of 1 month has passed.
    assert _avaliar(banco, roteiro.cidade, date(2026, 3, 11)).reincidencia == 0


def test_antecedentes_que_nao_contam_e_por_que(banco: Banco, roteiro: Roteiro) -> None:
    sem_decisao = roteiro.lavrar(data_infracao=date(2026, 2, 10))
    arquivado = roteiro.lavrar(data_infracao=date(2026, 2, 12))
    roteiro.decidir(arquivado.id, date(2026, 2, 20), resultado="arquivado")
    cancelado = roteiro.lavrar(data_infracao=date(2026, 2, 14))
    cancelar_auto(
        roteiro.uow(),
        ATORES["autoridade"],
        PedidoCancelamento(auto_id=cancelado.id, motivo="Lavrado em duplicidade."),
    )

    a = _avaliar(banco, roteiro.cidade, date(2026, 3, 10))
    assert a.reincidencia == 0
    motivos = {x.numero: (x.contado, x.situacao, x.motivo) for x in a.antecedentes}
    assert set(motivos) == {sem_decisao.numero_formatado, arquivado.numero_formatado}  # cancelled: left out
    assert motivos[sem_decisao.numero_formatado][:2] == (False, "sem_decisao")
    assert "sem penalidade definitiva" in motivos[sem_decisao.numero_formatado][2]
    assert motivos[arquivado.numero_formatado][:2] == (False, "arquivado")
    assert "auto arquivado" in motivos[arquivado.numero_formatado][2]
    with banco.leitura() as s:
        assert len(antecedentes(s, roteiro.cidade.operadora_id, "1-VI")) == 2
        assert len(antecedentes(s, roteiro.cidade.operadora_id, "1-VI", excluir_auto_id=sem_decisao.id)) == 1


def test_sem_urm_em_vigor_a_faixa_vem_sem_reais_e_com_aviso(banco: Banco, roteiro: Roteiro) -> None:
    a = _avaliar(banco, roteiro.cidade, date(2019, 5, 10), data_valor=date(2019, 5, 10))
    assert a.valor_urm is None and a.multa_min_reais is None
    assert a.aviso_urm is not None and "10/05/2019" in a.aviso_urm and "01/01/2020" in a.aviso_urm
    with banco.leitura() as s, pytest.raises(ErroDominio, match="Não há valor da URM em vigor em 10/05/2019"):
        valor_urm_em(s, date(2019, 5, 10))


def test_tabela_urm_vazia_e_recusada_com_mensagem(banco: Banco) -> None:
    with banco.leitura() as s, pytest.raises(ErroDominio, match="tabela da URM está vazia") as erro:
        valor_urm_em(s, date(2026, 5, 10))
    assert erro.value.campo == "data"


def test_valor_urm_e_o_da_vigencia_mais_recente(banco: Banco, roteiro: Roteiro) -> None:
    with banco.leitura() as s:
        assert valor_urm_em(s, date(2025, 12, 31)) == Decimal("150.0000")
        assert valor_urm_em(s, date(2026, 1, 1)) == URM_2026


def test_dispositivos_que_nao_podem_ser_citados(banco: Banco) -> None:
    with banco.uow() as uow:
        uow.session.get(DispositivoCatalogo, "2-III").ativo = False  # type: ignore[union-attr]
        uow.commit()
    with banco.leitura() as s:
        with pytest.raises(ErroDominio, match=r"Art\. 1º, X ainda não tem tipo") as erro:
            dispositivo_citavel(s, "1-X")
        assert erro.value.campo == "dispositivo_codigo"
        with pytest.raises(ErroDominio, match="desativado"):
            dispositivo_citavel(s, "2-III")
        with pytest.raises(ErroDominio, match="não existe"):
            dispositivo_citavel(s, "9-IX")
        assert dispositivo_citavel(s, " 1-xvi ").tipo == "D"


def test_tipo_definido_para_1_x_libera_a_citacao(banco: Banco, roteiro: Roteiro) -> None:
    with banco.uow() as uow:
        d = uow.session.get(DispositivoCatalogo, "1-X")
        assert d is not None
        d.tipo, d.ato_tipo = "B", "Portaria SMSU nº 1/2026"
        uow.commit()
    a = _avaliar(banco, roteiro.cidade, date(2026, 3, 10), codigo="1-X")
    assert (a.tipo, a.sancao.multa_min_ur) == ("B", Decimal("0.50"))


def test_texto_da_proxima_penalidade(banco: Banco, roteiro: Roteiro) -> None:
    """Art. 10, V, as printed on an auto drawn up on 12/03 for a fact of 10/03: the antecedents are those
    punished up to the day of the fact (§ 3º), so that is the day the text names."""
    texto = texto_proxima_penalidade(
        _avaliar(banco, roteiro.cidade, date(2026, 3, 10), data_valor=date(2026, 3, 12))
    )
    assert texto == (
        "Multa de 0,10 a 0,50 URM (infração primária) — Art. 1º, VI, tipo A; art. 7º da Lei Municipal "
        "nº 2.413/1978, considerando as infrações anteriores da operadora ao mesmo dispositivo autuadas e "
        "punidas em definitivo até a data desta infração (10/03/2026)."
    )


def test_proxima_penalidade_diz_que_a_suspensao_e_facultativa(banco: Banco, roteiro: Roteiro) -> None:
    """§ 5º: the suspension "poderá ser aplicada" — never printed as if it were certain; § 7º: exactly double."""
    roteiro.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 3, 5), multa="6.00", dispositivo="1-I")
    segunda = texto_proxima_penalidade(_avaliar(banco, roteiro.cidade, date(2026, 5, 5), codigo="1-I"))
    assert segunda.startswith(
        "Multa de 10,00 URM (2ª reincidência), podendo ser aplicada, cumulativamente, suspensão de 1 a 10 dias "
        "(art. 7º, §§ 5º, 6º e 8º) — Art. 1º, I, tipo E; art. 7º"
    )
    roteiro.decidido(data_infracao=date(2026, 5, 5), multa="10.00", suspensao=4, dispositivo="1-I")
    terceira = texto_proxima_penalidade(_avaliar(banco, roteiro.cidade, date(2026, 7, 1), codigo="1-I"))
    assert terceira.startswith(
        "Multa de 10,00 URM (3ª reincidência), podendo ser aplicada, cumulativamente, suspensão de "
        "exatamente 8 dias, o dobro da anterior (art. 7º, §§ 5º, 7º e 8º) — "
    )


def test_proxima_penalidade_diz_o_dobro_limitado_como_limitado(banco: Banco, roteiro: Roteiro) -> None:
    """REGRAS § 5: "suspensão de 30 dias (o dobro da anterior, 36 dias, limitado a 30 pelo art. 7º, II)",
    never "o dobro" beside a number that is not double."""
    roteiro.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 3, 5), multa="6.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 5, 5), multa="10.00", suspensao=10, dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 7, 1), multa="10.00", suspensao=20, dispositivo="1-I")
    texto = texto_proxima_penalidade(_avaliar(banco, roteiro.cidade, date(2026, 9, 1), codigo="1-I"))
    assert (
        "podendo ser aplicada, cumulativamente, suspensão de 30 dias (o dobro da anterior, 40 dias, limitado a "
        "30 pelo art. 7º, II) (art. 7º, §§ 5º, 7º e 8º)"
    ) in texto
    assert "exatamente" not in texto


def test_calendario_inclui_os_dias_cadastrados(banco: Banco) -> None:
    # Intimação on Wed 04/11/2026: 15 days end Thu 19/11; with 19/11 and 20/11 without office hours → Mon 23/11.
    with banco.leitura() as s:
        assert calendario(s).vencimento(date(2026, 11, 4)) == date(2026, 11, 19)
    with banco.uow() as uow:
        uow.session.add_all(
            [
                DiaNaoUtil(data=date(2026, 11, 19), descricao="Ponto facultativo", alterado_por="t"),
                DiaNaoUtil(data=date(2026, 11, 20), descricao="Consciência Negra", alterado_por="t"),
            ]
        )
        uow.commit()
    with banco.leitura() as s:
        cal = calendario(s)
        assert isinstance(cal, Calendario)
        assert cal.vencimento(date(2026, 11, 4)) == date(2026, 11, 23)
        assert "Ponto facultativo" in cal.prazo(date(2026, 11, 4)).explicacao
        # Worked example of REGRAS § 4: Fri 20/11/2026 → Sat 05/12 → Mon 07/12.
        assert cal.vencimento(date(2026, 11, 20)) == date(2026, 12, 7)


def test_painel_e_uma_consulta_so_de_antecedentes(banco: Banco, roteiro: Roteiro) -> None:
    """Many earlier autos of other provisions do not slow the panel: the query filters on the index."""
    for i in range(5):
        roteiro.lavrar(dispositivo="1-XVI", data_infracao=date(2026, 1, 5) + timedelta(days=i))
    consultas: list[str] = []

    def contar(conn: object, cursor: object, statement: str, *args: object) -> None:
        consultas.append(statement)

    sa.event.listen(banco.engine, "before_cursor_execute", contar)
    try:
        _avaliar(banco, roteiro.cidade, date(2026, 3, 10))
    finally:
        sa.event.remove(banco.engine, "before_cursor_execute", contar)
    assert sum("FROM auto_infracao" in c for c in consultas) == 1
    assert len(consultas) <= 4  # provision, antecedents, URM value (+ BEGIN on SQLite)
