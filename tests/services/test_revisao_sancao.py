"""Revision of a decided sanction (Lei 9.784/1999, art. 65; REGRAS § 5), on SQLite and PostgreSQL.

"When a prior that a decided case counted as recidivism is later annulled or reduced (an appeal granted, an
auto cancelled), the decided case goes to a home-screen review list for the Secretary, with the level and
range it would have today. The Secretary may revise the penalty into the new range by a numbered 'termo de
revisão' (notified like a decision) or keep it with reasons; a revision never raises a penalty. A fine
already paid beyond the revised amount is recorded as to be refunded."
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from secretaria.db import Banco
from secretaria.services import filas, revisao_sancao
from secretaria.services.autos import PedidoCancelamento, cancelar_auto
from secretaria.services.base import AcessoNegado, ErroDominio
from tests.helpers.cenario_documentos import preencher_orgao
from tests.helpers.fabrica import ATORES, contagens

HOJE = date(2026, 11, 30)


def _na_lista(banco: Banco) -> list[int]:
    with banco.leitura() as s:
        return [linha.id for linha in filas.revisoes_de_sancao(s, HOJE).linhas]


def _pendente(banco: Banco, auto_id: int) -> int:
    with banco.leitura() as s:
        return revisao_sancao.revisoes_pendentes_do_auto(s, auto_id)[0].id


@pytest.fixture
def cadeia(banco: Banco, roteiro: Any) -> tuple[int, ...]:
    """Five art. 1º, I (tipo E) cases of one operator: 3,00 and 6,00 URM, then 10,00 URM with suspensions of
    10, 20 (the double, § 7º) and 30 days (40, capped by art. 7º, II), each decided and final."""
    preencher_orgao(banco)
    roteiro.hoje = HOJE
    casos = []
    for fato, multa, dias in (
        (date(2026, 1, 5), "3.00", 0),
        (date(2026, 3, 5), "6.00", 0),
        (date(2026, 5, 5), "10.00", 10),
        (date(2026, 7, 1), "10.00", 20),
        (date(2026, 9, 1), "10.00", 30),
    ):
        casos.append(
            int(roteiro.decidido(data_infracao=fato, multa=multa, suspensao=dias, dispositivo="1-I").id)
        )
    return tuple(casos)


def test_recurso_provido_em_parte_e_a_propria_revisao_alimentam_a_lista(
    banco: Banco, roteiro: Any, cadeia: tuple[int, ...]
) -> None:
    _c1, _c2, c3, c4, c5 = cadeia
    assert _na_lista(banco) == []
    # The third case's appeal, filed on time (01/06) but typed in only now, reduces its suspension to 5 days.
    # Its penalty became final only with the judgment (30/11), after the facts of the fourth and fifth cases,
    # which therefore no longer count it (art. 7º, § 3º): both would be lighter today, both are listed.
    roteiro.recorrer(c3, date(2026, 6, 1))
    roteiro.julgar(c3, HOJE, "provido_parcialmente", multa_ur_nova=Decimal("10.00"), suspensao_dias_nova=5)
    assert _na_lista(banco) == [c4, c5]
    revisao_sancao.manter_sancao(
        banco.uow(),
        ATORES["secretario"],
        revisao_sancao.PedidoManutencao(revisao_id=_pendente(banco, c5), fundamentacao="Mantida por ora."),
    )
    assert _na_lista(banco) == [c4]
    with banco.leitura() as s:
        revisao = revisao_sancao.revisoes_pendentes_do_auto(s, c4)[0]
        assert (revisao.suspensao_max_dias, revisao.faixa_max_ur) == (10, Decimal("10.00"))
        assert "teve a penalidade reduzida em recurso julgado em 30/11/2026" in revisao.origem
        revisao_id = revisao.id

    # Never raising, never outside today's range: refused beside the field, nothing written.
    antes = contagens(banco)
    for multa, dias, campo in (
        ("10.00", 25, "suspensao_dias"),  # more than the 20 days in force
        ("10.50", 10, "multa_ur"),  # more than the 10,00 URM in force
        ("10.00", 15, "suspensao_dias"),  # less than in force, but above today's first-suspension 10 days
    ):
        with pytest.raises(ErroDominio) as erro:
            revisao_sancao.revisar_sancao(
                banco.uow(),
                ATORES["secretario"],
                revisao_sancao.PedidoRevisao(
                    revisao_id=revisao_id,
                    multa_ur=Decimal(multa),
                    suspensao_dias=dias,
                    fundamentacao="Revisão.",
                ),
            )
        assert erro.value.campo == campo, erro.value.mensagem
    with pytest.raises(AcessoNegado):
        revisao_sancao.revisar_sancao(
            banco.uow(),
            ATORES["autoridade"],
            revisao_sancao.PedidoRevisao(revisao_id=revisao_id, multa_ur=Decimal("10.00"), fundamentacao="x"),
        )
    assert contagens(banco) == antes

    # Revised to 10 days (today the fourth is a first suspension, 1 to 10 days): the fifth case, which doubled
    # the fourth's 20 days, is listed again, now by the revision.
    resumo = revisao_sancao.revisar_sancao(
        banco.uow(),
        ATORES["secretario"],
        revisao_sancao.PedidoRevisao(
            revisao_id=revisao_id,
            multa_ur=Decimal("10.00"),
            suspensao_dias=10,
            fundamentacao="A suspensão anterior foi reduzida em recurso: dobra-se a de 5 dias.",
        ),
    )
    assert resumo.numero_formatado == "0001/2026" and resumo.valor_restituir is None
    assert _na_lista(banco) == [c5]
    assert "teve a penalidade revista pelo termo de revisão nº 0001/2026" in _origem(banco, c5)

    # Kept with reasons: off the list, and the penalty stands.
    revisao_sancao.manter_sancao(
        banco.uow(),
        ATORES["secretario"],
        revisao_sancao.PedidoManutencao(
            revisao_id=_pendente(banco, c5), fundamentacao="Mantida: já cumprida."
        ),
    )
    assert _na_lista(banco) == []
    with pytest.raises(ErroDominio, match="já foi decidida"):
        revisao_sancao.manter_sancao(
            banco.uow(),
            ATORES["secretario"],
            revisao_sancao.PedidoManutencao(revisao_id=_pendente_ou_ultima(banco, c5), fundamentacao="x"),
        )


def _origem(banco: Banco, auto_id: int) -> str:
    with banco.leitura() as s:
        return revisao_sancao.revisoes_pendentes_do_auto(s, auto_id)[0].origem


def _pendente_ou_ultima(banco: Banco, auto_id: int) -> int:
    import sqlalchemy as sa

    from secretaria.models import RevisaoSancao

    with banco.leitura() as s:
        return int(s.scalar(sa.select(sa.func.max(RevisaoSancao.id)).where(RevisaoSancao.auto_id == auto_id)))


def test_auto_cancelado_nunca_punido_nao_lista_nada(
    banco: Banco, roteiro: Any, cadeia: tuple[int, ...]
) -> None:
    """An auto is cancelled only before any decision: it never counted as recidivism (art. 7º, § 3º), so its
    cancellation — which also feeds the list — lists nothing."""
    roteiro.hoje = HOJE
    novo = roteiro.lavrar(dispositivo="1-I", data_infracao=date(2026, 8, 1))
    cancelar_auto(
        banco.uow(), ATORES["autoridade"], PedidoCancelamento(auto_id=novo.id, motivo="Lavrado por engano.")
    )
    assert _na_lista(banco) == []


def _intimar_revisao(banco: Banco, auto_id: int, dia: date) -> Any:
    from secretaria.services.tramitacao import PedidoIntimacao, registrar_intimacao

    return registrar_intimacao(
        banco.uow(),
        ATORES["protocolo"],
        PedidoIntimacao(
            auto_id=auto_id,
            objeto="revisao",
            data=dia,
            meio="pessoal",
            resultado="entregue",
            recebedor_nome="Carlos Representante",
        ),
    )


def _recusada(banco: Banco, auto_id: int, dia: date, campo: str) -> str:
    antes = contagens(banco)
    with pytest.raises(ErroDominio) as erro:
        _intimar_revisao(banco, auto_id, dia)
    assert erro.value.campo == campo, erro.value.mensagem
    assert contagens(banco) == antes
    return erro.value.mensagem


def test_intimacao_do_termo_de_revisao(banco: Banco, roteiro: Any, cadeia: tuple[int, ...]) -> None:
    """REGRAS § 5: the termo de revisão is notified like a decision. Its delivery is of the auto's latest
    termo, once its PDF was issued, dated on or after it; it starts no deadline (the case is decided and the
    penalty only lowered); the case shows it delivered and stops offering it."""
    from secretaria.models import AutoInfracao
    from secretaria.services.caso import obter_caso
    from secretaria.services.documentos import emitir_documento

    _c1, _c2, c3, c4, _c5 = cadeia
    assert "não tem termo de revisão" in _recusada(banco, c4, HOJE, "objeto")
    roteiro.recorrer(c3, date(2026, 6, 1))
    roteiro.julgar(c3, HOJE, "provido_parcialmente", multa_ur_nova=Decimal("10.00"), suspensao_dias_nova=5)
    assert "não tem termo de revisão" in _recusada(banco, c4, HOJE, "objeto")  # listed, not yet revised
    resumo = revisao_sancao.revisar_sancao(
        banco.uow(),
        ATORES["secretario"],
        revisao_sancao.PedidoRevisao(
            revisao_id=_pendente(banco, c4),
            multa_ur=Decimal("10.00"),
            suspensao_dias=10,
            fundamentacao="A suspensão anterior foi reduzida em recurso.",
        ),
    )
    numero = resumo.numero_formatado
    with banco.leitura() as s:
        caso = obter_caso(s, c4)
        auto = s.get(AutoInfracao, c4)
        assert auto is not None
        prazos = (auto.prazo_defesa, auto.prazo_recurso)
    assert [(t.numero_formatado, t.data, t.intimado_em) for t in caso.termos_revisao] == [
        (numero, HOJE, None)
    ]
    assert "registrar_intimacao_revisao" in caso.proximos_atos
    # No proof of what was delivered until the termo's PDF is issued.
    assert "ainda não foi emitido" in _recusada(banco, c4, HOJE, "objeto")
    emitir_documento(banco.uow(), ATORES["protocolo"], tipo="revisao", auto_id=c4)

    roteiro.hoje = date(2026, 12, 3)
    mensagem = _recusada(banco, c4, date(2026, 11, 29), "data")  # before the termo
    assert f"termo de revisão nº {numero}" in mensagem
    entrega = _intimar_revisao(banco, c4, date(2026, 12, 2))
    assert entrega.sucesso and entrega.prazo is None
    assert "nenhum prazo começa a correr" in (entrega.explicacao_prazo or "")
    with banco.leitura() as s:
        caso = obter_caso(s, c4)
        auto = s.get(AutoInfracao, c4)
        assert auto is not None
        assert (auto.prazo_defesa, auto.prazo_recurso) == prazos  # no deadline started or moved
    assert caso.termos_revisao[-1].intimado_em == date(2026, 12, 2)
    assert "registrar_intimacao_revisao" not in caso.proximos_atos
    titulos = [e.titulo for e in caso.linha_do_tempo]
    assert titulos.index(f"Intimação do termo de revisão nº {numero}") > titulos.index(
        f"Termo de revisão nº {numero}"
    )
    evento = next(e for e in caso.linha_do_tempo if e.titulo == f"Intimação do termo de revisão nº {numero}")
    assert evento.descricao.startswith(f"Termo de revisão nº {numero} entregue em 02/12/2026.")
    assert "Carlos Representante" in evento.descricao and not evento.ressalva
    with banco.leitura() as s:  # the complete case file holds the delivery's record, naming the termo
        from secretaria.services.processo_integral import dados_processo_integral

        pecas = [p.titulo for p in dados_processo_integral(s, c4).pecas]
    assert f"Registro da intimação do termo de revisão nº {numero}" in pecas
