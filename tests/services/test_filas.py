"""The home screen's work queues: the right autos in each, counts beyond the limit, one query each."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import Configuracao, Decisao, Suspensao
from secretaria.services import filas
from secretaria.services.representacoes import receber_representacao
from secretaria.services.tramitacao import registrar_defesa
from tests.services.fabrica import ATORES, Roteiro

HOJE = date(2026, 11, 30)


def _ids(fila: filas.Fila) -> list[int]:
    return [linha.id for linha in fila.linhas]


def test_cada_fila_mostra_o_que_precisa_ser_feito(banco: Banco, roteiro: Roteiro) -> None:
    r, c = roteiro, roteiro.cidade
    aguardando = [r.lavrar(data_infracao=date(2026, 11, d)).id for d in (24, 25, 26)]
    vence_logo = r.lavrar(data_infracao=date(2026, 11, 16)).id
    r.intimar(vence_logo, date(2026, 11, 17))  # defence until 02/12
    com_defesa = r.lavrar(data_infracao=date(2026, 11, 16)).id
    r.intimar(com_defesa, date(2026, 11, 17))
    registrar_defesa(r.uow(), ATORES["protocolo"], auto_id=com_defesa, protocolada_em=date(2026, 11, 20))
    atrasado = r.lavrar(data_infracao=date(2026, 9, 1)).id
    r.intimar(atrasado, date(2026, 9, 2))  # defence until 17/09: 74 days ago
    pouco_atrasado = r.lavrar(data_infracao=date(2026, 10, 26)).id
    r.intimar(pouco_atrasado, date(2026, 10, 27))  # defence until 11/11: 19 days ago
    sem_intimar_decisao = r.decidido(data_infracao=date(2026, 10, 1), multa="0.30").id
    em_prazo_recurso = r.decidido(data_infracao=date(2026, 10, 2), multa="0.30").id
    r.intimar(em_prazo_recurso, date(2026, 11, 20), objeto="decisao")  # appeal until 07/12
    em_recurso = r.decidido(data_infracao=date(2026, 10, 5), multa="0.30").id
    r.recorrer(em_recurso, date(2026, 10, 30))
    definitiva = r.decidido(data_infracao=date(2026, 8, 3), multa="0.40").id
    r.intimar(definitiva, date(2026, 9, 1), objeto="decisao")
    rep = receber_representacao(
        r.uow(), ATORES["fiscal"], recebida_em=date(2026, 11, 28), peticionario_nome="Beatriz",
        peticionario_profissao="Professora", peticionario_endereco="Rua A, 1", fatos="Atraso.", meios_prova="Relato.",
    )  # fmt: skip
    with banco.uow() as uow:  # a suspension being served (inserted directly: its path is tested elsewhere)
        decisao_id = uow.session.scalar(sa.select(Decisao.id).where(Decisao.auto_id == definitiva))
        uow.session.add(
            Suspensao(
                operadora_id=c.operadora_id, decisao_id=decisao_id, inicio=date(2026, 11, 28), dias=5,
                fim=date(2026, 12, 2), alterado_por="teste",
            )
        )  # fmt: skip
        uow.commit()

    with banco.leitura() as s:
        assert _ids(filas.autos_aguardando_intimacao(s, HOJE)) == aguardando
        limitada = filas.autos_aguardando_intimacao(s, HOJE, limite=2)
        assert (limitada.total, _ids(limitada)) == (3, aguardando[:2])
        assert _ids(filas.defesas_a_vencer(s, HOJE, dias=7)) == [vence_logo]
        assert filas.defesas_a_vencer(s, HOJE, dias=1).total == 0
        assert _ids(filas.decisoes_atrasadas(s, HOJE)) == [atrasado]
        assert _ids(filas.decisoes_aguardando_intimacao(s, HOJE)) == [sem_intimar_decisao]
        recursos = filas.recursos_em_prazo(s, HOJE)
        assert _ids(recursos) == [em_prazo_recurso] and recursos.linhas[0].prazo == date(2026, 12, 7)
        assert _ids(filas.recursos_aguardando_julgamento(s, HOJE)) == [em_recurso]
        assert _ids(filas.multas_definitivas_em_aberto(s, HOJE)) == [definitiva]
        veiculos = filas.veiculos_vencidos(s, HOJE)
        assert (
            _ids(veiculos) == [c.veiculo2_id]
            and "vistoria vencida em 31/10/2026" in veiculos.linhas[0].detalhe.lower()
        )
        suspensas = filas.operadoras_suspensas(s, HOJE)
        assert _ids(suspensas) == [c.operadora_id] and suspensas.linhas[0].detalhe.endswith("até 02/12/2026")
        assert _ids(filas.representacoes_pendentes(s, HOJE)) == [rep.id]
        assert [f.chave for f in filas.painel(s, HOJE)][:2] == ["aguardando_intimacao", "defesas_a_vencer"]

    with banco.uow() as uow:  # the office decides faster: overdue after 5 days
        uow.session.add(Configuracao(chave=filas.CHAVE_DIAS_DECISAO, valor="5"))
        uow.commit()
    with banco.leitura() as s:
        assert _ids(filas.decisoes_atrasadas(s, HOJE)) == [atrasado, pouco_atrasado]


def test_cada_fila_e_uma_consulta(banco: Banco, roteiro: Roteiro) -> None:
    roteiro.lavrar(data_infracao=date(2026, 11, 24))
    consultas: list[str] = []

    def contar(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        if not statement.strip().upper().startswith(("BEGIN", "SAVEPOINT", "RELEASE")):
            consultas.append(statement)

    funcoes: list[Callable[..., filas.Fila]] = [
        filas.autos_aguardando_intimacao,
        filas.defesas_a_vencer,
        filas.decisoes_aguardando_intimacao,
        filas.recursos_em_prazo,
        filas.recursos_aguardando_julgamento,
        filas.multas_definitivas_em_aberto,
        filas.veiculos_vencidos,
        filas.operadoras_suspensas,
        filas.representacoes_pendentes,
        lambda s, hoje: filas.decisoes_atrasadas(s, hoje, dias=30),
    ]
    with banco.leitura() as s:
        s.connection()
        sa.event.listen(banco.engine, "before_cursor_execute", contar)
        try:
            for funcao in funcoes:
                consultas.clear()
                fila = funcao(s, HOJE)
                assert len(consultas) == 1, (fila.chave, consultas)
        finally:
            sa.event.remove(banco.engine, "before_cursor_execute", contar)
