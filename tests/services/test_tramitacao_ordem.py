"""The order of the acts and their legal effects, as an operator's lawyer would probe them (arts. 7º, 11, 13–15).

Each test is a procedural flaw the services must not let through: a second intimação moving a running
deadline, a decision dated before the defence it should have weighed, a penalty no authority proposed, a prior
punished only after the new fact counted as recidivism, an annulled or reduced penalty still weighing on the
next case, a provision taken out of the catalogue blocking the cases that already cite it.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import Auditoria, AutoInfracao, DiaNaoUtil, DispositivoCatalogo, Pagamento
from secretaria.services.auditoria import verificar_cadeia
from secretaria.services.base import ConflitoEdicao, ErroDominio
from secretaria.services.catalogo import adicionar_dispositivo_contratual, desativar_dispositivo
from secretaria.services.tramitacao import PedidoDecisao, decidir, registrar_defesa, registrar_proposta
from tests.helpers.fabrica import ATORES, URM_2026, Roteiro, contagens


def _prazos(banco: Banco, auto_id: int) -> tuple[date | None, date | None]:
    with banco.leitura() as s:
        auto = s.get(AutoInfracao, auto_id)
        assert auto is not None
        return auto.prazo_defesa, auto.prazo_recurso


def test_nova_intimacao_com_exito_nao_move_o_prazo_em_curso(banco: Banco, roteiro: Roteiro) -> None:
    """Art. 14 counts 15 days "from the intimação": the first valid one. A later one (or one dated earlier but
    recorded later) neither reopens nor shortens the running deadline, and the clerk is told so."""
    r = roteiro.lavrar(data_infracao=date(2026, 11, 2))
    primeira = roteiro.intimar(r.id, date(2026, 11, 3))
    assert primeira.prazo == date(2026, 11, 18)

    depois = roteiro.intimar(r.id, date(2026, 11, 10))
    assert depois.sucesso and depois.prazo is None
    assert depois.explicacao_prazo is not None
    assert "mantido" in depois.explicacao_prazo and "18/11/2026" in depois.explicacao_prazo
    assert "03/11/2026" in depois.explicacao_prazo

    antes = roteiro.intimar(r.id, date(2026, 11, 2))  # an earlier receipt, recorded later
    assert antes.prazo is None and antes.explicacao_prazo is not None
    assert "mantido" in antes.explicacao_prazo and "18/11/2026" in antes.explicacao_prazo
    assert _prazos(banco, r.id)[0] == date(2026, 11, 18)

    defesa = registrar_defesa(
        roteiro.uow(), ATORES["protocolo"], auto_id=r.id, protocolada_em=date(2026, 11, 18)
    )
    assert defesa.tempestiva and defesa.prazo == date(2026, 11, 18)

    # The same for the decision's intimação and the appeal deadline (art. 15).
    roteiro.decidir(r.id, date(2026, 11, 20), "0.30")
    assert roteiro.intimar(r.id, date(2026, 11, 23), objeto="decisao").prazo == date(2026, 12, 8)
    outra = roteiro.intimar(r.id, date(2026, 11, 25), objeto="decisao")
    assert outra.prazo is None and outra.explicacao_prazo is not None
    assert "mantido" in outra.explicacao_prazo and "08/12/2026" in outra.explicacao_prazo
    assert _prazos(banco, r.id) == (date(2026, 11, 18), date(2026, 12, 8))


def test_falha_de_intimacao_nao_inicia_prazo_e_diz_por_que(banco: Banco, roteiro: Roteiro) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 11, 2))
    falha = roteiro.intimar(r.id, date(2026, 11, 3), resultado="nao_encontrado")
    assert not falha.sucesso and falha.prazo is None
    assert _prazos(banco, r.id) == (None, None)
    with pytest.raises(ErroDominio, match="ainda não foi intimado"):
        registrar_defesa(roteiro.uow(), ATORES["protocolo"], auto_id=r.id, protocolada_em=date(2026, 11, 4))


def test_decisao_no_prazo_de_defesa_so_depois_da_defesa_protocolada(banco: Banco, roteiro: Roteiro) -> None:
    """A defence on file lets the case go on before the deadline ends, but not to a day before that defence
    was filed: a decision dated 20/11 cannot have weighed a defence filed on 25/11 (art. 14, ampla defesa)."""
    r = roteiro.lavrar(data_infracao=date(2026, 11, 16))
    roteiro.intimar(r.id, date(2026, 11, 17))  # defence until 02/12; today is 30/11
    registrar_defesa(roteiro.uow(), ATORES["protocolo"], auto_id=r.id, protocolada_em=date(2026, 11, 25))
    antes = contagens(banco)
    with pytest.raises(ErroDominio, match="defesa só foi protocolada em 25/11/2026") as erro:
        roteiro.propor(r.id, date(2026, 11, 20), "0.30")
    assert erro.value.campo == "data"
    with pytest.raises(ErroDominio, match="defesa só foi protocolada em 25/11/2026"):
        roteiro.decidir(r.id, date(2026, 11, 20), "0.30", propor=False)
    assert contagens(banco) == antes
    roteiro.propor(r.id, date(2026, 11, 25), "0.30")
    assert roteiro.decidir(r.id, date(2026, 11, 26), "0.30").multa_ur == Decimal("0.30")


def test_penalidade_so_com_proposta_da_autoridade(banco: Banco, roteiro: Roteiro) -> None:
    """Art. 13: penalties are proposed by the competent authority and applied by the Secretary. No proposal on
    file (or a proposal to dismiss) → no penalty; the Secretary is not bound to the proposed amount; a
    dismissal needs no proposal."""
    r = roteiro.lavrar(data_infracao=date(2026, 10, 9))
    roteiro.intimar(r.id, date(2026, 10, 13))  # defence until 28/10

    def aplicar(dia: date, multa: str = "0.40") -> object:
        return decidir(
            roteiro.uow(), ATORES["secretario"], PedidoDecisao(auto_id=r.id, data=dia, resultado="aplicada",
            multa_ur=Decimal(multa), fundamentacao="Infração comprovada."),
        )  # fmt: skip

    antes = contagens(banco)
    with pytest.raises(ErroDominio, match=r"art\. 13") as erro:
        aplicar(date(2026, 11, 3))
    assert "Não há proposta" in erro.value.mensagem and erro.value.campo == "resultado"
    assert contagens(banco) == antes
    roteiro.propor(r.id, date(2026, 11, 5), acao="arquivar")
    antes = contagens(banco)
    with pytest.raises(ErroDominio, match="proposta da autoridade, de 05/11/2026, é de arquivamento"):
        aplicar(date(2026, 11, 10))
    assert contagens(banco) == antes
    roteiro.propor(r.id, date(2026, 11, 10), "0.40")
    antes = contagens(banco)
    with pytest.raises(ErroDominio, match="de arquivamento"):  # the proposal of 10/11 came after this day
        aplicar(date(2026, 11, 9))
    assert contagens(banco) == antes
    assert aplicar(date(2026, 11, 12), "0.50").multa_ur == Decimal("0.50")  # type: ignore[attr-defined]

    arquivado = roteiro.lavrar(data_infracao=date(2026, 10, 9))
    assert roteiro.decidir(arquivado.id, date(2026, 10, 20), resultado="arquivado").resultado == "arquivado"


def test_antecedente_punido_depois_do_novo_fato_nao_conta(banco: Banco, roteiro: Roteiro) -> None:
    """REGRAS § 3, rule 1 ("autuado e punido" before the new fact): a prior decided between this auto's
    infraction and this decision does not count, although it is punished when the Secretary decides."""
    anterior = roteiro.lavrar(data_infracao=date(2026, 2, 10))
    roteiro.intimar(anterior.id, date(2026, 2, 11))
    novo = roteiro.lavrar(data_infracao=date(2026, 2, 20))  # within 1 month of 10/02 (tipo A)
    assert "(infração primária)" in novo.proxima_penalidade
    roteiro.decidir(anterior.id, date(2026, 3, 1), "0.30")  # punished after the new fact
    roteiro.intimar(novo.id, date(2026, 2, 23))
    with pytest.raises(ErroDominio, match=r"fora da faixa cabível \(0,10 a 0,50 URM"):
        roteiro.decidir(novo.id, date(2026, 3, 20), "0.60")
    d = roteiro.decidir(novo.id, date(2026, 3, 20), "0.50")
    assert (d.reincidencia, d.faixa_min_ur, d.faixa_max_ur) == (0, Decimal("0.10"), Decimal("0.50"))


def test_suspensao_reduzida_a_zero_no_recurso_nao_dobra_no_caso_seguinte(
    banco: Banco, roteiro: Roteiro
) -> None:
    """The denormalized penalty state of the auto follows the appeal: a suspension struck out on appeal is no
    longer "a suspension already applied" for § 7º, so the next one of the chain is a first suspension again."""
    roteiro.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 3, 5), multa="6.00", dispositivo="1-I")
    terceiro = roteiro.decidido(data_infracao=date(2026, 5, 5), multa="10.00", suspensao=4, dispositivo="1-I")
    roteiro.intimar(terceiro.id, date(2026, 6, 1), objeto="decisao")
    roteiro.recorrer(terceiro.id, date(2026, 6, 5))
    roteiro.julgar(
        terceiro.id, date(2026, 6, 20), "provido_parcialmente", multa_ur_nova=Decimal("10.00"),
        suspensao_dias_nova=0,
    )  # fmt: skip
    with banco.leitura() as s:
        auto = s.get(AutoInfracao, terceiro.id)
        assert auto is not None
        assert (auto.multa_ur, auto.suspensao_dias, auto.penalidade_anulada) == (Decimal("10.00"), 0, False)
        assert auto.data_decisao == date(2026, 5, 26)  # the Secretary's decision day stays (REGRAS rule 1)
    quarto = roteiro.lavrar(data_infracao=date(2026, 7, 1), dispositivo="1-I")
    assert "suspensão de 1 a 10 dias" in quarto.proxima_penalidade
    assert "(3ª reincidência)" in quarto.proxima_penalidade


def test_dispositivo_desativado_depois_do_auto_nao_trava_o_caso(banco: Banco, roteiro: Roteiro) -> None:
    """A contractual provision taken out of the catalogue is "kept on its cases, no longer citable": the autos
    that already cite it are still proposed, decided and judged, in the range of the tipo they were drawn up
    with."""
    codigo = adicionar_dispositivo_contratual(
        roteiro.uow(), ATORES["administrador"], origem="contrato", codigo="CT-01",
        texto="Manter o ar-condicionado em funcionamento.", tipo="C", ato="Contrato de concessão nº 1/2020",
    )  # fmt: skip
    r = roteiro.lavrar(data_infracao=date(2026, 9, 1), dispositivo=codigo)
    roteiro.intimar(r.id, date(2026, 9, 2))
    desativar_dispositivo(roteiro.uow(), ATORES["administrador"], codigo)
    with pytest.raises(ErroDominio, match="desativado"):
        roteiro.lavrar(data_infracao=date(2026, 9, 3), dispositivo=codigo)
    registrar_proposta(
        roteiro.uow(), ATORES["autoridade"], auto_id=r.id, data=date(2026, 9, 30), acao="aplicar",
        multa_ur=Decimal("2.00"), fundamentacao="Comprovado.",
    )  # fmt: skip
    d = roteiro.decidir(r.id, date(2026, 10, 1), "2.00")
    assert (d.faixa_min_ur, d.faixa_max_ur) == (Decimal("1.00"), Decimal("2.00"))  # tipo C
    roteiro.intimar(r.id, date(2026, 10, 2), objeto="decisao")
    roteiro.recorrer(r.id, date(2026, 10, 5))
    roteiro.julgar(r.id, date(2026, 10, 20), "provido_parcialmente", multa_ur_nova=Decimal("1.50"))
    with banco.leitura() as s:
        assert s.get(AutoInfracao, r.id).multa_ur == Decimal("1.50")  # type: ignore[union-attr]
        assert not s.scalar(sa.select(DispositivoCatalogo.ativo).where(DispositivoCatalogo.codigo == codigo))


def test_suspensao_em_dobro_e_exata(banco: Banco, roteiro: Roteiro) -> None:
    """§ 7º: after a punished infraction that carried a suspension, the new one is exactly double (4 → 8)."""
    roteiro.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 3, 5), multa="6.00", dispositivo="1-I")
    roteiro.decidido(data_infracao=date(2026, 5, 5), multa="10.00", suspensao=4, dispositivo="1-I")
    r = roteiro.lavrar(data_infracao=date(2026, 7, 1), dispositivo="1-I")
    roteiro.intimar(r.id, date(2026, 7, 2))
    roteiro.propor(r.id, date(2026, 7, 20), "10.00", suspensao=8)
    antes = contagens(banco)
    for dias in (7, 9, 16):
        with pytest.raises(ErroDominio, match=r"fora do cabível \(8 dias, art\. 7º, §§ 6º e 7º\)") as erro:
            roteiro.decidir(r.id, date(2026, 7, 21), "10.00", suspensao=dias)
        assert erro.value.campo == "suspensao_dias"
    assert contagens(banco) == antes
    d = roteiro.decidir(r.id, date(2026, 7, 21), "10.00", suspensao=8)
    assert (d.reincidencia, d.suspensao_dias) == (3, 8)


def test_cada_ato_audita_na_mesma_transacao_com_antes_e_depois(banco: Banco, roteiro: Roteiro) -> None:
    """Every act writes its audit rows (who, what, before → after); an act that changes the auto records the
    auto's image before and after."""
    r = roteiro.lavrar(data_infracao=date(2026, 5, 4), dispositivo="1-XVI")
    with banco.leitura() as s:
        inicio = s.scalar(sa.select(sa.func.max(Auditoria.id)))
    roteiro.intimar(r.id, date(2026, 5, 5), resultado="recusada")
    roteiro.intimar(r.id, date(2026, 5, 6))
    registrar_defesa(roteiro.uow(), ATORES["protocolo"], auto_id=r.id, protocolada_em=date(2026, 5, 15))
    roteiro.propor(r.id, date(2026, 5, 25), "3.00")
    roteiro.decidir(r.id, date(2026, 5, 26), "3.00")
    roteiro.intimar(r.id, date(2026, 5, 27), objeto="decisao")
    roteiro.recorrer(r.id, date(2026, 6, 1))
    roteiro.julgar(r.id, date(2026, 6, 20), "provido_parcialmente", multa_ur_nova=Decimal("2.00"))
    with banco.leitura() as s:
        linhas = s.execute(
            sa.select(
                Auditoria.usuario_login, Auditoria.acao, Auditoria.entidade, Auditoria.antes, Auditoria.depois
            )
            .where(Auditoria.id > inicio)
            .order_by(Auditoria.id)
        ).all()
        assert verificar_cadeia(s).integra
    assert [(u, a, e) for u, a, e, _, _ in linhas] == [
        ("protocolo", "registrar_intimacao", "intimacao"),
        ("protocolo", "registrar_intimacao", "intimacao"),
        ("protocolo", "registrar_intimacao", "auto_infracao"),
        ("protocolo", "registrar_defesa", "defesa"),
        ("autoridade", "registrar_proposta", "proposta"),
        ("secretario", "decidir", "decisao"),
        ("secretario", "decidir", "pagamento"),
        ("secretario", "decidir", "cumprimento"),
        ("secretario", "decidir", "auto_infracao"),
        ("protocolo", "registrar_intimacao", "intimacao"),
        ("protocolo", "registrar_intimacao", "auto_infracao"),
        ("protocolo", "registrar_recurso", "recurso"),
        ("protocolo", "registrar_recurso", "auto_infracao"),
        ("protocolo", "julgar_recurso", "recurso"),
        ("protocolo", "julgar_recurso", "auto_infracao"),
        ("protocolo", "julgar_recurso", "pagamento"),
    ]
    imagens = [
        (json.loads(antes), json.loads(depois)) for _, _, e, antes, depois in linhas if e == "auto_infracao"
    ]
    assert [(a["fase"], d["fase"]) for a, d in imagens] == [
        ("lavrado", "intimado"),
        ("intimado", "decidido"),
        ("decidido", "decidido"),
        ("decidido", "em_recurso"),
        ("em_recurso", "encerrado"),
    ]
    assert (imagens[0][0]["prazo_defesa"], imagens[0][1]["prazo_defesa"]) == (None, "2026-05-21")
    assert (imagens[2][0]["prazo_recurso"], imagens[2][1]["prazo_recurso"]) == (None, "2026-06-11")
    assert (imagens[4][0]["multa_ur"], imagens[4][1]["multa_ur"]) == ("3.00", "2.00")
    assert all(
        antes is None for _, _, e, antes, _ in linhas if e in ("intimacao", "defesa", "proposta", "decisao")
    )


def test_ato_sobre_copia_desatualizada_e_recusado_dizendo_quem_alterou(
    banco: Banco, roteiro: Roteiro
) -> None:
    r = roteiro.lavrar(data_infracao=date(2026, 10, 1))
    roteiro.intimar(r.id, date(2026, 10, 2))  # the auto moves to version 2 (fase, prazo)
    roteiro.propor(r.id, date(2026, 10, 20), "0.30")
    antes = contagens(banco)
    with pytest.raises(ConflitoEdicao, match=r"alterado por protocolo em \d\d/\d\d/\d{4} às \d\d:\d\d"):
        decidir(
            roteiro.uow(), ATORES["secretario"], PedidoDecisao(auto_id=r.id, data=date(2026, 10, 21), resultado="aplicada",
            multa_ur=Decimal("0.30"), fundamentacao="Comprovado.", versao=r.versao),
        )  # fmt: skip
    assert contagens(banco) == antes


def test_prazo_de_defesa_com_os_dias_sem_expediente_do_banco(banco: Banco, roteiro: Roteiro) -> None:
    """REGRAS § 4 with the administrator's table: intimated Wed 04/11/2026, 15 days end Thu 19/11, a decreed
    ponto facultativo, and Fri 20/11 (Consciência Negra in the table) → Mon 23/11; the clerk is told why."""
    with banco.uow() as uow:
        uow.session.add_all(
            [
                DiaNaoUtil(data=date(2026, 11, 19), descricao="Ponto facultativo", alterado_por="t"),
                DiaNaoUtil(data=date(2026, 11, 20), descricao="Consciência Negra", alterado_por="t"),
            ]
        )
        uow.commit()
    r = roteiro.lavrar(data_infracao=date(2026, 11, 3))
    intimacao = roteiro.intimar(r.id, date(2026, 11, 4))
    assert intimacao.prazo == date(2026, 11, 23)
    assert intimacao.explicacao_prazo is not None and "Ponto facultativo" in intimacao.explicacao_prazo
    tardia = registrar_defesa(
        roteiro.uow(), ATORES["protocolo"], auto_id=r.id, protocolada_em=date(2026, 11, 24)
    )
    assert not tardia.tempestiva


def test_multa_em_reais_pela_urm_do_dia_da_decisao(banco: Banco, roteiro: Roteiro) -> None:
    """A fact of 2025 decided in 2026: R$ at the URM in force on the decision day (REGRAS § 2), not at the
    infraction's or the lavratura's."""
    r = roteiro.lavrar(data_infracao=date(2025, 12, 10), dispositivo="1-XVI")
    roteiro.intimar(r.id, date(2025, 12, 11))
    d = roteiro.decidir(r.id, date(2026, 1, 20), "2.00")
    assert (d.valor_urm, d.multa_reais) == (URM_2026, Decimal("329.48"))
    with banco.leitura() as s:
        assert s.scalar(sa.select(Pagamento.valor).where(Pagamento.decisao_id == d.id)) == Decimal("329.48")
