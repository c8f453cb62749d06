"""Timeline colours come from codes on the events, never from the words of their titles."""

from __future__ import annotations

from datetime import date

from secretaria.codigos import PrazoRevisado, ResultadoCassacao
from secretaria.services.caso import EventoCaso, PrazoCaso
from secretaria.services.execucao import EventoCassacao
from secretaria.ui.processo import cassacao, tela_caso
from secretaria.ui.processo.painel_sancao import COR_SECUNDARIA

DIA = date(2026, 11, 20)


def test_ressalva_da_linha_do_tempo_vem_do_evento() -> None:
    eventos = [
        EventoCaso(DIA, "intimacao", "Intimação do auto (sem êxito)", "", ressalva=True),
        EventoCaso(DIA, "defesa", "Defesa (tempestiva)", ""),
        # A title's words alone never colour a line (a requerente may well write "sem êxito").
        EventoCaso(DIA, "revisao_prazo", "Prazo de defesa (art. 14) prorrogado: intempestiva", ""),
        EventoCaso(DIA, "cancelamento", "Auto cancelado", ""),
    ]
    destaques = [linha.destaque for linha in tela_caso.linhas_da_linha_do_tempo(eventos)]
    assert destaques == ["ressalva", None, None, "cancelamento"]


def test_decisao_de_cassar_em_vermelho_pelo_resultado() -> None:
    eventos = [
        EventoCassacao(DIA, "Instauração", "", None),
        EventoCassacao(DIA, "Decisão: permissão cassada", "", None, ResultadoCassacao.CASSADA),
        EventoCassacao(DIA, "Decisão: arquivamento", "", None, ResultadoCassacao.ARQUIVADA),
    ]
    assert [linha.destaque for linha in cassacao.linhas_dos_eventos(eventos)] == [None, "cassada", None]


def test_prazo_cumprido_fora_do_prazo_pelo_indicador() -> None:
    prazo = PrazoCaso(
        "Recurso ao Prefeito (art. 15)",
        DIA,
        "cumprido",
        "cumprido: recurso protocolado em 23/11/2026 (intempestivo)",
        prazo=PrazoRevisado.RECURSO,
        tempestivo=False,
    )
    linha = tela_caso._linha_prazo(prazo, DIA, None)
    assert linha.texto.endswith("fora do prazo (vencia em 20/11/2026) — intempestivo")
    assert linha.cor == COR_SECUNDARIA
