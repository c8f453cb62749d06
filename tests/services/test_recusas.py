"""Bad input and acts out of order: each refused with a Portuguese message and nothing written.

ONE table-driven test: the cases are built once per database (autos in every state), then each entry of the
table is tried and the row counts (audit included) and version sums are compared before and after.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from secretaria.db import Banco
from secretaria.services.autos import PedidoCancelamento, anexar_evidencia, cancelar_auto
from secretaria.services.base import AcessoNegado, ErroDominio
from secretaria.services.execucao import PedidoPagamento, registrar_pagamento
from secretaria.services.processo_base import data_valida, dias_validos, reais_validos, urm_valida
from secretaria.services.representacoes import receber_representacao
from secretaria.services.tramitacao import (
    PedidoDecisao,
    PedidoIntimacao,
    decidir,
    registrar_defesa,
    registrar_intimacao,
    registrar_proposta,
)
from tests.helpers import arquivos_prova
from tests.helpers.fabrica import ATORES, Roteiro, contagens


@dataclass(frozen=True)
class Casos:
    lavrado: int
    cancelado: int
    intimado: int
    prazo_vencido: int
    sem_urm: int
    arquivado: int
    com_recurso: int
    elegivel_suspensao: int
    sem_proposta: int
    com_defesa: int
    decidido: int
    representacao: int


def _montar(roteiro: Roteiro) -> Casos:
    r = roteiro
    lavrado = r.lavrar(data_infracao=date(2026, 11, 2)).id
    cancelado = r.lavrar(data_infracao=date(2026, 11, 3)).id
    cancelar_auto(
        r.uow(), ATORES["autoridade"], PedidoCancelamento(auto_id=cancelado, motivo="Lavrado em duplicidade.")
    )
    intimado = r.lavrar(data_infracao=date(2026, 11, 16)).id
    r.intimar(intimado, date(2026, 11, 17))  # defence until 02/12/2026 (today is 30/11)
    prazo_vencido = r.lavrar(data_infracao=date(2026, 10, 1)).id
    r.intimar(prazo_vencido, date(2026, 10, 2))
    r.propor(prazo_vencido, date(2026, 10, 20), "0.30")  # so the rows below reach the decision's own checks
    sem_urm = r.lavrar(data_infracao=date(2019, 3, 1)).id  # the URM table starts on 01/01/2020
    r.intimar(sem_urm, date(2019, 3, 5))
    r.propor(sem_urm, date(2019, 3, 25), "0.30")
    sem_proposta = r.lavrar(data_infracao=date(2026, 10, 1)).id
    r.intimar(sem_proposta, date(2026, 10, 2))
    com_defesa = r.lavrar(data_infracao=date(2026, 11, 16)).id
    r.intimar(com_defesa, date(2026, 11, 17))  # defence until 02/12, filed on 25/11
    registrar_defesa(r.uow(), ATORES["protocolo"], auto_id=com_defesa, protocolada_em=date(2026, 11, 25))
    decidido = r.decidido(data_infracao=date(2026, 8, 3), multa="0.30").id  # decided on 24/08
    representacao = receber_representacao(
        r.uow(), ATORES["fiscal"], recebida_em=date(2026, 11, 20), peticionario_nome="Beatriz",
        peticionario_profissao="Professora", peticionario_endereco="Rua A, 1", fatos="Ônibus sujo.",
        meios_prova="Fotos.",
    ).id  # fmt: skip
    arquivado = r.lavrar(data_infracao=date(2026, 6, 1), dispositivo="1-XVI").id
    r.decidir(arquivado, date(2026, 6, 2), resultado="arquivado")
    com_recurso = r.decidido(data_infracao=date(2026, 7, 1), multa="2.00", dispositivo="1-XV").id
    r.recorrer(com_recurso, date(2026, 7, 25))
    r.decidido(data_infracao=date(2026, 1, 5), multa="3.00", dispositivo="1-I")
    r.decidido(data_infracao=date(2026, 3, 5), multa="6.00", dispositivo="1-I")
    elegivel = r.lavrar(data_infracao=date(2026, 9, 1), dispositivo="1-I").id  # 2ª reincidência, tipo E
    r.intimar(elegivel, date(2026, 9, 2))
    r.propor(elegivel, date(2026, 9, 20), "10.00", suspensao=5)
    return Casos(
        lavrado, cancelado, intimado, prazo_vencido, sem_urm, arquivado, com_recurso, elegivel, sem_proposta,
        com_defesa, decidido, representacao,
    )  # fmt: skip


def _tabela(r: Roteiro, c: Casos) -> list[tuple[str, Callable[[], object], str]]:
    protocolo, fiscal = ATORES["protocolo"], ATORES["fiscal"]

    def defesa(auto_id: int, dia: date) -> Callable[[], object]:
        return lambda: registrar_defesa(r.uow(), protocolo, auto_id=auto_id, protocolada_em=dia)

    def intimacao(auto_id: int, dia: date, **kw: object) -> Callable[[], object]:
        campos: dict[str, object] = {
            "meio": "pessoal",
            "resultado": "entregue",
            "recebedor_nome": "Carlos",
        } | kw
        return lambda: registrar_intimacao(
            r.uow(),
            protocolo,
            PedidoIntimacao(auto_id=auto_id, data=dia, **campos),  # type: ignore[arg-type]
        )

    return [
        # acts out of order
        ("defesa antes da intimação", defesa(c.lavrado, date(2026, 11, 20)), "ainda não foi intimado"),
        (
            "penalidade antes da intimação",
            lambda: r.decidir(c.lavrado, date(2026, 11, 20), "0.30", propor=False),
            "ainda não foi intimado",
        ),
        (
            "penalidade com prazo de defesa aberto",
            lambda: r.decidir(c.intimado, date(2026, 11, 30), "0.30", propor=False),
            "antes do fim do prazo",
        ),
        (
            "penalidade antes da defesa protocolada no prazo",
            lambda: r.decidir(c.com_defesa, date(2026, 11, 20), "0.30", propor=False),
            "a defesa só foi protocolada em 25/11/2026",
        ),
        (
            "proposta antes da defesa protocolada no prazo",
            lambda: r.propor(c.com_defesa, date(2026, 11, 24), "0.30"),
            "a defesa só foi protocolada em 25/11/2026",
        ),
        (
            "penalidade sem proposta da autoridade (art. 13)",
            lambda: r.decidir(c.sem_proposta, date(2026, 11, 20), "0.30", propor=False),
            "Não há proposta de penalidade da autoridade competente",
        ),
        (
            "intimação do auto depois da decisão",
            intimacao(c.decidido, date(2026, 11, 20)),
            "registre a intimação da decisão",
        ),
        ("defesa depois da decisão", defesa(c.decidido, date(2026, 11, 20)), "não pode mais ser registrada"),
        (
            "provimento parcial que não reduz",
            lambda: r.julgar(
                c.com_recurso, date(2026, 11, 20), "provido_parcialmente", multa_ur_nova=Decimal("2.00")
            ),
            "deve ser reduzida",
        ),
        (
            "decidir duas vezes",
            lambda: r.decidir(c.arquivado, date(2026, 11, 1), resultado="arquivado"),
            "já foi decidido",
        ),
        (
            "intimar decisão que não existe",
            intimacao(c.intimado, date(2026, 11, 20), objeto="decisao"),
            "ainda não foi decidido",
        ),
        (
            "julgar recurso inexistente",
            lambda: r.julgar(c.prazo_vencido, date(2026, 11, 20), "negado"),
            "Não há recurso",
        ),
        (
            "recurso contra auto arquivado",
            lambda: r.recorrer(c.arquivado, date(2026, 6, 10)),
            "Não cabe recurso",
        ),
        ("segundo recurso", lambda: r.recorrer(c.com_recurso, date(2026, 7, 26)), "admite um só recurso"),
        ("recurso sem decisão", lambda: r.recorrer(c.intimado, date(2026, 11, 20)), "ainda não foi decidido"),
        (
            "dívida ativa antes da decisão definitiva",
            lambda: registrar_pagamento(
                r.uow(),
                protocolo,
                PedidoPagamento(auto_id=c.com_recurso, situacao="divida_ativa", data=date(2026, 11, 1)),
            ),
            "ainda não é definitiva",
        ),
        # any act on a cancelled auto
        ("intimação de auto cancelado", intimacao(c.cancelado, date(2026, 11, 4)), "foi cancelado"),
        ("defesa em auto cancelado", defesa(c.cancelado, date(2026, 11, 20)), "foi cancelado"),
        (
            "decisão em auto cancelado",
            lambda: r.decidir(c.cancelado, date(2026, 11, 20), resultado="arquivado"),
            "foi cancelado",
        ),
        ("recurso em auto cancelado", lambda: r.recorrer(c.cancelado, date(2026, 11, 20)), "foi cancelado"),
        (
            "proposta em auto cancelado",
            lambda: r.propor(c.cancelado, date(2026, 11, 20), acao="arquivar"),
            "foi cancelado",
        ),
        (
            "julgamento em auto cancelado",
            lambda: r.julgar(c.cancelado, date(2026, 11, 20), "negado"),
            "foi cancelado",
        ),
        (
            "intimação da decisão em auto cancelado",
            intimacao(c.cancelado, date(2026, 11, 20), objeto="decisao"),
            "foi cancelado",
        ),
        (
            "anexo em auto cancelado",
            lambda: anexar_evidencia(
                r.uow(), fiscal, auto_id=c.cancelado, nome_arquivo="a.pdf", conteudo=arquivos_prova.pdf()
            ),
            "foi cancelado",
        ),
        (
            "cancelar de novo",
            lambda: cancelar_auto(
                r.uow(), ATORES["secretario"], PedidoCancelamento(auto_id=c.cancelado, motivo="De novo.")
            ),
            "foi cancelado",
        ),
        # the penalty
        (
            "decisão sem URM em vigor",
            lambda: r.decidir(c.sem_urm, date(2019, 4, 1), "0.30"),
            "Não há valor da URM em vigor em 01/04/2019",
        ),
        (
            "multa acima da faixa",
            lambda: r.decidir(c.prazo_vencido, date(2026, 11, 20), "0.60"),
            "fora da faixa cabível (0,10 a 0,50 URM",
        ),
        (
            "multa abaixo da faixa",
            lambda: r.decidir(c.prazo_vencido, date(2026, 11, 20), "0.05"),
            "fora da faixa cabível",
        ),
        (
            "multa negativa",
            lambda: r.decidir(c.prazo_vencido, date(2026, 11, 20), "-1"),
            "A multa (URM) está fora dos limites (-1,00).",
        ),
        (
            "multa com três casas",
            lambda: r.decidir(c.prazo_vencido, date(2026, 11, 20), "0.305"),
            "duas casas decimais",
        ),
        (
            "aplicar sem multa",
            lambda: r.decidir(c.prazo_vencido, date(2026, 11, 20), None),
            "Informe a multa",
        ),
        (
            "suspensão abaixo do nível do § 5º",
            lambda: r.decidir(c.prazo_vencido, date(2026, 11, 20), "0.30", suspensao=5),
            "Suspensão não cabível",
        ),
        (
            "suspensão de duração absurda",
            lambda: r.decidir(c.elegivel_suspensao, date(2026, 11, 20), "10.00", suspensao=400),
            "A suspensão está fora dos limites: 400 dias.",
        ),
        (
            "multa que não é número",
            lambda: _decidir(r, c.prazo_vencido, multa_ur="trinta centavos"),
            "A multa (URM) é inválida: use um número como 0,50.",
        ),
        (
            "suspensão acima da duração cabível",
            lambda: r.decidir(c.elegivel_suspensao, date(2026, 11, 20), "10.00", suspensao=11),
            "fora do cabível (de 1 a 10 dias",
        ),
        (
            "proposta fora da faixa",
            lambda: registrar_proposta(
                r.uow(),
                ATORES["autoridade"],
                auto_id=c.prazo_vencido,
                data=date(2026, 11, 20),
                acao="aplicar",
                multa_ur=Decimal("1.00"),
                fundamentacao="Grave.",
            ),
            "fora da faixa cabível",
        ),
        # dates in the future or before the auto
        ("lavratura no futuro", lambda: r.lavrar(data_infracao=date(2026, 12, 1)), "está no futuro"),
        (
            "infração depois da lavratura",
            lambda: r.lavrar(data_infracao=date(2026, 11, 20), data_lavratura=date(2026, 11, 19)),
            "não pode ser posterior à da lavratura",
        ),
        ("intimação no futuro", intimacao(c.lavrado, date(2026, 12, 1)), "está no futuro"),
        ("intimação antes do auto", intimacao(c.lavrado, date(2026, 11, 1)), "anterior à lavratura do auto"),
        (
            "intimação da decisão antes da decisão",
            intimacao(c.decidido, date(2026, 8, 23), objeto="decisao"),
            "não pode ser anterior à decisão (24/08/2026)",
        ),
        (
            "proposta antes do auto",
            lambda: r.propor(c.lavrado, date(2026, 11, 1), acao="arquivar"),
            "não pode ser anterior à lavratura (02/11/2026)",
        ),
        (
            "recurso antes da decisão",
            lambda: r.recorrer(c.decidido, date(2026, 8, 20)),
            "não pode ser anterior à decisão (24/08/2026)",
        ),
        ("recurso no futuro", lambda: r.recorrer(c.decidido, date(2026, 12, 1)), "está no futuro"),
        (
            "julgamento antes do recurso",
            lambda: r.julgar(c.com_recurso, date(2026, 7, 24), "negado"),
            "não pode ser anterior ao protocolo do recurso (25/07/2026)",
        ),
        (
            "auto de representação lavrado antes de recebê-la",
            lambda: r.lavrar(
                data_infracao=date(2026, 11, 18),
                data_lavratura=date(2026, 11, 19),
                representacao_id=c.representacao,
            ),
            "não pode ser anterior ao recebimento da representação nº 0001/2026 (20/11/2026)",
        ),
        ("defesa antes da intimação (data)", defesa(c.intimado, date(2026, 11, 16)), "anterior à intimação"),
        ("defesa no futuro", defesa(c.intimado, date(2026, 12, 1)), "está no futuro"),
        (
            "decisão antes do auto",
            lambda: r.decidir(c.lavrado, date(2026, 11, 1), resultado="arquivado"),
            "anterior à lavratura",
        ),
        (
            "decisão no futuro",
            lambda: r.decidir(c.prazo_vencido, date(2026, 12, 1), "0.30"),
            "está no futuro",
        ),
        (
            "pagamento antes da decisão",
            lambda: registrar_pagamento(
                r.uow(),
                protocolo,
                PedidoPagamento(auto_id=c.com_recurso, situacao="pago", data=date(2026, 7, 1)),
            ),
            "anterior à decisão",
        ),
        # the provision
        ("citar o Art. 1º, X sem tipo", lambda: r.lavrar(dispositivo="1-X"), "ainda não tem tipo"),
        ("dispositivo inexistente", lambda: r.lavrar(dispositivo="7-XC"), "não existe no catálogo"),
        # bad choices and texts
        (
            "meio de intimação desconhecido",
            intimacao(c.lavrado, date(2026, 11, 20), meio="telepatia"),
            "Escolha o meio",
        ),
        (
            "intimação no endereço sem recibo (art. 11)",
            intimacao(c.lavrado, date(2026, 11, 20), meio="endereco"),
            "mediante recibo (art. 11)",
        ),
        (
            "intimação por AR sem o número do AR",
            intimacao(c.lavrado, date(2026, 11, 20), meio="postal_ar", recibo="  "),
            "mediante recibo (art. 11)",
        ),
        (
            "intimação entregue sem recebedor",
            intimacao(c.lavrado, date(2026, 11, 20), recebedor_nome=" "),
            "quem recebeu",
        ),
        ("decisão sem fundamentação", lambda: _decidir_sem_fundamentos(r, c.prazo_vencido), "fundamentação"),
    ]


def _decidir_sem_fundamentos(r: Roteiro, auto_id: int) -> object:
    return _decidir(r, auto_id, fundamentacao="\t ")


def _decidir(r: Roteiro, auto_id: int, **campos: object) -> object:
    """The Secretary's decision with raw inputs, as a form could send them."""
    argumentos: dict[str, object] = {
        "data": date(2026, 11, 20), "resultado": "aplicada", "multa_ur": Decimal("0.30"),
        "fundamentacao": "Comprovado.",
    } | campos  # fmt: skip
    return decidir(r.uow(), ATORES["secretario"], PedidoDecisao(auto_id=auto_id, **argumentos))  # type: ignore[arg-type]


def test_recusas_sem_gravar_nada(banco: Banco, roteiro: Roteiro) -> None:
    casos = _montar(roteiro)
    falhas: list[str] = []
    for descricao, ato, trecho in _tabela(roteiro, casos):
        antes = contagens(banco)
        try:
            ato()
        except AcessoNegado as exc:
            falhas.append(f"{descricao}: recusado por papel, não pelo motivo: {exc.mensagem}")
            continue
        except ErroDominio as exc:
            if trecho not in exc.mensagem:
                falhas.append(f"{descricao}: mensagem inesperada: {exc.mensagem!r}")
        else:
            falhas.append(f"{descricao}: aceito")
            continue
        if contagens(banco) != antes:
            falhas.append(f"{descricao}: gravou algo")
    assert not falhas, "\n".join(falhas)
    assert len(_tabela(roteiro, casos)) >= 58


def test_mensagens_de_datas_e_valores_em_portugues_correto() -> None:
    """Agreement and contraction in the shared validators: "à lavratura", "ao protocolo", "o início … é
    inválido", amounts written the Brazilian way."""
    casos: list[tuple[Callable[[], object], str]] = [
        (
            lambda: data_valida(
                date(2020, 1, 1), "d", "a data", minimo=date(2020, 2, 1), rotulo_minimo="a lavratura"
            ),
            "A data (01/01/2020) não pode ser anterior à lavratura (01/02/2020).",
        ),
        (
            lambda: data_valida(
                date(2020, 1, 1), "d", "a data", minimo=date(2020, 2, 1), rotulo_minimo="o protocolo"
            ),
            "A data (01/01/2020) não pode ser anterior ao protocolo (01/02/2020).",
        ),
        (lambda: data_valida("ontem", "d", "o início da suspensão"), "O início da suspensão é inválido."),  # type: ignore[arg-type]
        (lambda: data_valida("ontem", "d", "a data da decisão"), "A data da decisão é inválida."),  # type: ignore[arg-type]
        (
            lambda: urm_valida("1500,5", "m", "a multa (URM)"),
            "A multa (URM) está fora dos limites (1.500,50).",
        ),
        (lambda: reais_validos("0", "v", "o valor pago"), "O valor pago deve ser maior que zero."),
        (
            lambda: reais_validos("1e12", "v", "o valor pago"),
            "O valor pago está fora dos limites (1.000.000.000.000,00).",
        ),
        (
            lambda: reais_validos("x", "v", "o valor pago"),
            "O valor pago é inválido: use um valor como 82,37.",
        ),
        (lambda: dias_validos(-1, "s", "a suspensão"), "A suspensão está fora dos limites: -1 dias."),
    ]
    erradas = []
    for chamada, esperada in casos:
        try:
            chamada()
        except ErroDominio as exc:
            if exc.mensagem != esperada:
                erradas.append(f"{exc.mensagem!r} ≠ {esperada!r}")
        else:
            erradas.append(f"aceito: {esperada!r}")
    assert not erradas, "\n".join(erradas)
