"""The printed list on its own: portrait or landscape by the columns, every row on some page with the header on
each, text the user typed printed as typed, an empty result said in words, same data → same bytes."""

from __future__ import annotations

import io
from datetime import datetime

from pypdf import PdfReader

from secretaria.reports.lista_impressa import DadosListaImpressa, gerar_lista_impressa
from tests.helpers.amostras_documentos import TIMBRE


def _dados(colunas: tuple[str, ...], linhas: tuple[tuple[str, ...], ...]) -> DadosListaImpressa:
    return DadosListaImpressa(
        timbre=TIMBRE,
        titulo="Fiscais",
        filtros=(("Situação", "Ativo"), ("Busca", "“silva”")),
        colunas=colunas,
        alinhamentos=tuple("esquerda" for _ in colunas),
        linhas=linhas,
        emitida_em=datetime(2026, 11, 30, 10, 0),
        emitida_por="Ana Administradora",
    )


def _paginas(conteudo: bytes) -> list[str]:
    return [p.extract_text() or "" for p in PdfReader(io.BytesIO(conteudo)).pages]


def test_poucas_colunas_em_retrato_e_cabecalho_em_cada_pagina() -> None:
    linhas = tuple((f"Fiscal Silva {i:03d}", f"SMSU-{i:03d}", "Ativo") for i in range(150))
    conteudo, paisagem = gerar_lista_impressa(_dados(("Nome", "Matrícula", "Situação"), linhas))
    assert not paisagem
    paginas = _paginas(conteudo)
    assert len(paginas) > 1
    assert "Situação: Ativo · Busca: “silva”" in paginas[0]
    assert "150 linhas · impressa em 30/11/2026 às 10:00 por Ana Administradora" in paginas[0]
    texto = "\n".join(paginas)
    assert all(f"Fiscal Silva {i:03d}" in texto for i in range(150))
    for numero, pagina in enumerate(paginas, start=1):
        assert "Matrícula" in pagina and f"Página {numero} de {len(paginas)}" in pagina
    assert gerar_lista_impressa(_dados(("Nome", "Matrícula", "Situação"), linhas))[0] == conteudo


def test_coluna_larga_vai_para_paisagem_e_texto_sai_como_digitado() -> None:
    longo = "Rua " + "muito " * 40 + "comprida"
    colunas = ("Nome", "Endereço", "Observação", "Itinerário")
    conteudo, paisagem = gerar_lista_impressa(_dados(colunas, (("A & B <Ltda>", longo, longo, longo),)))
    assert paisagem  # four columns of long text do not fit a portrait page (they wrap in landscape)
    _retrato, em_pe = gerar_lista_impressa(_dados(colunas[:2], (("A & B <Ltda>", longo),)))
    assert not em_pe  # one long column wraps on a portrait page
    texto = " ".join(" ".join(_paginas(conteudo)).split())
    assert "A & B <Ltda>" in texto and "comprida" in texto


def test_sem_linhas_diz_que_nada_corresponde() -> None:
    conteudo, _ = gerar_lista_impressa(_dados(("Nome",), ()))
    texto = _paginas(conteudo)[0]
    assert "nenhuma linha" in texto and "Nenhum registro corresponde a estes filtros." in texto
