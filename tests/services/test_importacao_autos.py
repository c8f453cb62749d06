"""The history of autos: the same history drawn up in the program and imported from a
spreadsheet gives the sanction panel the same answer (level, range, suspension, the priors that count), on
both databases; numbers are kept and the year's sequence continues after the highest; re-importing
changes nothing; the panel's reasons say "importado de ARQUIVO"."""

from __future__ import annotations

import io
import re
from datetime import date
from typing import Any

import openpyxl
import pytest
import sqlalchemy as sa

from secretaria.codigos import ROTULOS_RECURSO
from secretaria.db import Banco
from secretaria.lei.formato import formatar_data
from secretaria.models import AutoInfracao, Decisao, Numeracao, Pagamento, Recurso
from secretaria.services.base import Ator, ErroDominio
from secretaria.services.caso import obter_caso
from secretaria.services.importacao import arquivos
from secretaria.services.importacao.leitura import ler_conteudo
from secretaria.services.importacao.servico import importar, previa
from secretaria.services.sancao import AvaliacaoSancao, avaliar_sancao
from secretaria.services.verificacao import verificar_tudo
from tests.helpers.fabrica import Cidade, Roteiro, contagens

ADMIN = Ator("ana", "Ana Administradora", frozenset({"administrador"}))
CNPJ_2 = "11.444.777/0001-61"  # the city's second operator
DISPOSITIVO = "1-I"  # tipo E: window of 8 months, suspension from the 2nd recidivism
CABECALHO = [
    "Nº do AI",
    "Ano",
    "CNPJ da empresa",
    "Dispositivo infringido",
    "Data da infração",
    "Matrícula do fiscal",
    "Decisão",
    "Data da decisão",
    "Multa (URM)",
    "Suspensão (dias)",
    "Definitiva em",
    "Recurso",
    "Recurso julgado em",
    "Pago em",
]


def _historia_nativa(roteiro: Roteiro) -> list[int]:
    """REGRAS § 3, example 7, drawn up act by act in the program, plus a dismissed auto and a granted appeal."""
    op = roteiro.cidade.operadora_id
    ids = [
        roteiro.decidido(
            data_infracao=date(2026, 1, 5), multa="3.00", dispositivo=DISPOSITIVO, operadora_id=op
        ).id,
        roteiro.decidido(
            data_infracao=date(2026, 3, 5), multa="6.00", dispositivo=DISPOSITIVO, operadora_id=op
        ).id,
        roteiro.decidido(
            data_infracao=date(2026, 5, 5),
            multa="10.00",
            suspensao=4,
            dispositivo=DISPOSITIVO,
            operadora_id=op,
        ).id,
    ]
    arquivado = roteiro.lavrar(dispositivo=DISPOSITIVO, data_infracao=date(2026, 6, 10), operadora_id=op)
    roteiro.intimar(arquivado.id, date(2026, 6, 11))
    roteiro.decidir(arquivado.id, date(2026, 7, 1), resultado="arquivado")
    provido = roteiro.decidido(
        data_infracao=date(2026, 7, 20), multa="10.00", dispositivo=DISPOSITIVO, operadora_id=op
    )
    with roteiro.banco.leitura() as s:
        auto = s.get(AutoInfracao, provido.id)
        assert auto is not None and auto.prazo_recurso is not None
        recurso_em = auto.prazo_recurso
    roteiro.recorrer(provido.id, recurso_em)
    roteiro.julgar(provido.id, recurso_em, "provido")
    return [*ids, arquivado.id, provido.id]


def _linhas_do_livro(banco: Banco, ids: list[int]) -> list[list[Any]]:
    """The paper book's rows for the same cases, read from what the program recorded (numbers 101…)."""
    linhas: list[list[Any]] = []
    with banco.leitura() as s:
        for n, auto_id in enumerate(ids, start=101):
            auto = s.get(AutoInfracao, auto_id)
            assert auto is not None
            decisao = s.scalar(sa.select(Decisao).where(Decisao.auto_id == auto_id))
            recurso = decisao and s.scalar(sa.select(Recurso).where(Recurso.decisao_id == decisao.id))
            pagamento = decisao and s.scalar(sa.select(Pagamento).where(Pagamento.decisao_id == decisao.id))
            linhas.append(
                [
                    f"{n:04d}/{auto.ano}" if n % 2 else n,
                    "" if n % 2 else auto.ano,
                    CNPJ_2,
                    f"Art. 1º, {auto.dispositivo_codigo.split('-')[1]}",
                    formatar_data(auto.data_infracao) if n % 2 else auto.data_infracao,
                    "SMSU-001",
                    "Arquivado" if decisao and decisao.resultado == "arquivado" else "Penalidade aplicada",
                    decisao.data if decisao else None,
                    str(decisao.multa_ur).replace(".", ",") if decisao else "",
                    decisao.suspensao_dias if decisao else 0,
                    auto.data_definitiva,
                    {"provido": "Provido", "negado": "Negado"}.get(recurso.resultado, "") if recurso else "",
                    recurso.julgado_em if recurso else None,
                    pagamento.pago_em if pagamento else None,
                ]
            )
    return linhas


def _xlsx(linhas: list[list[Any]]) -> bytes:
    livro = openpyxl.Workbook()
    ws = livro.active
    assert ws is not None
    ws.title = "Livro de autos"
    ws.append(CABECALHO)
    for linha in linhas:
        ws.append(linha)
    saida = io.BytesIO()
    livro.save(saida)
    return saida.getvalue()


def _resposta(avaliacao: AvaliacaoSancao) -> tuple[Any, ...]:
    """What the panel answers, without the autos' numbers (which differ by construction)."""
    sem_numero = [
        re.sub(r"^AI nº \S+( \(importado de [^)]*\))? — ", "", a.motivo) for a in avaliacao.antecedentes
    ]
    return (
        avaliacao.sancao,
        [
            (a.data_infracao, a.data_decisao, a.multa_ur, a.suspensao_dias, a.anulada, a.contado, a.situacao)
            for a in avaliacao.antecedentes
        ],
        [a.definitiva_em for a in avaliacao.antecedentes],
        sem_numero,
    )


def test_painel_de_sancao_igual_para_historico_importado_e_lavrado_no_programa(
    banco: Banco, cidade: Cidade, roteiro: Roteiro
) -> None:
    ids = _historia_nativa(roteiro)
    conteudo = _xlsx(_linhas_do_livro(banco, ids))
    planilha = ler_conteudo(conteudo, "livro-2026.xlsx")
    with banco.leitura() as s:
        p = previa(s, "autos", planilha)
    assert not p.recusadas, p.recusadas
    r = importar(banco.uow(), ADMIN, "autos", planilha)
    assert (r.novas, r.atualizadas, r.iguais) == (5, 0, 0)

    novo_fato = date(2026, 11, 1)
    with banco.leitura() as s:
        nativo = avaliar_sancao(
            s, operadora_id=cidade.operadora_id, dispositivo_codigo=DISPOSITIVO, data_infracao=novo_fato
        )
        importado = avaliar_sancao(
            s, operadora_id=cidade.operadora2_id, dispositivo_codigo=DISPOSITIVO, data_infracao=novo_fato
        )
    assert _resposta(importado) == _resposta(nativo)
    # REGRAS § 3 example 7: level 3, fine 10,00, a suspension of exactly double the 4 days.
    assert importado.reincidencia == 3
    assert (importado.sancao.suspensao_min_dias, importado.sancao.suspensao_max_dias) == (8, 8)
    assert [a.contado for a in importado.antecedentes] == [True, True, True, False, False]
    assert all("(importado de livro-2026.xlsx)" in a.motivo for a in importado.antecedentes)
    assert not any("importado" in a.motivo for a in nativo.antecedentes)

    # The book records no hour: the case's timeline says so instead of the import's midnight.
    with banco.leitura() as s:
        auto_id = s.scalar(sa.select(AutoInfracao.id).where(AutoInfracao.importado_de == "livro-2026.xlsx"))
        assert auto_id is not None
        caso = obter_caso(s, auto_id)
    lavratura = next(e for e in caso.linha_do_tempo if e.ato == "lavratura")
    assert "hora não registrada" in lavratura.descricao and "00:00" not in lavratura.descricao
    assert "importado de livro-2026.xlsx" in lavratura.descricao

    # Numbers kept; the year's sequence continues after the highest imported one.
    with banco.leitura() as s:
        numeros = s.scalars(
            sa.select(AutoInfracao.numero).where(AutoInfracao.importado_de == "livro-2026.xlsx")
        ).all()
        assert sorted(numeros) == [101, 102, 103, 104, 105]
    seguinte = roteiro.lavrar(dispositivo="1-VI", data_infracao=date(2026, 11, 20))
    assert seguinte.numero_formatado == "0106/2026"

    # The same file again changes nothing.
    antes = contagens(banco)
    r2 = importar(banco.uow(), ADMIN, "autos", planilha)
    assert (r2.novas, r2.atualizadas, r2.iguais) == (0, 0, 5)
    assert contagens(banco) == antes


def test_correcao_atualiza_o_auto_importado_e_nunca_um_do_programa(
    banco: Banco, cidade: Cidade, roteiro: Roteiro
) -> None:
    nativo = roteiro.lavrar(dispositivo="1-VI", data_infracao=date(2026, 2, 10))
    assert nativo.numero == 1
    linhas: list[list[Any]] = [
        ["0001/2026", "", CNPJ_2, "1-VI", "10/02/2026", "SMSU-001", "", None, "", 0, None, "", None, None],
        ["0007/2025", "", CNPJ_2, "1-VI", "10/02/2025", "SMSU-001", "", "20/03/2025", "0,30", 0, "10/04/2025",
         "", None, None],
        ["8", "2025", CNPJ_2, "1-X", "11/02/2025", "SMSU-001", "", None, "", 0, None, "", None, None],
        ["9", "2025", CNPJ_2, "1-VI", "32/02/2025", "SMSU-999", "Arquivado", "20/03/2025", "0,30", 0, None,
         "", None, None],
    ]  # fmt: skip
    planilha = ler_conteudo(_xlsx(linhas), "livro.xlsx")
    with banco.leitura() as s:
        p = previa(s, "autos", planilha)
    problemas = {linha.numero: " ".join(linha.problemas) for linha in p.recusadas}
    assert set(problemas) == {2, 4, 5}
    assert "O AI nº 0001/2026 foi lavrado no programa" in problemas[2]
    assert "ainda não tem tipo de infração" in problemas[4]  # exactly what the auto form says of 1-X
    assert "“32/02/2025” não existe: fevereiro de 2025 tem 28 dias." in problemas[5]
    with pytest.raises(ErroDominio, match="3 linhas recusadas"):
        importar(banco.uow(), ADMIN, "autos", planilha)
    r = importar(banco.uow(), ADMIN, "autos", planilha, somente_validas=True)
    assert (r.novas, len(r.recusadas)) == (1, 3)
    with banco.leitura() as s:
        assert (
            s.scalar(sa.select(Numeracao.ultimo).where(Numeracao.serie == "AI", Numeracao.ano == 2025)) == 7
        )

    # The book had the fine wrong: the corrected row updates the imported auto, never duplicates it.
    linhas[1][8] = "0,40"
    corrigida = ler_conteudo(_xlsx(linhas[1:2]), "livro-corrigido.xlsx")
    r2 = importar(banco.uow(), ADMIN, "autos", corrigida)
    assert (r2.novas, r2.atualizadas) == (0, 1)
    with banco.leitura() as s:
        auto = s.scalar(sa.select(AutoInfracao).where(AutoInfracao.ano == 2025, AutoInfracao.numero == 7))
        assert (
            auto is not None and str(auto.multa_ur) == "0.40" and auto.importado_de == "livro-corrigido.xlsx"
        )
        decisao = s.scalar(sa.select(Decisao).where(Decisao.auto_id == auto.id))
        assert decisao is not None and str(decisao.multa_ur) == "0.40"
        assert s.scalar(sa.select(sa.func.count(AutoInfracao.id)).where(AutoInfracao.ano == 2025)) == 1
        # The imported autos and their decisions match their audit images (the city itself was inserted
        # without audit by tests.helpers.fabrica: those are the only findings).
        relatorio = verificar_tudo(s, [])
        assert set(relatorio.contagem_achados) == {"registro sem auditoria"}, relatorio.achados
        assert not [a for a in relatorio.achados if "auto" in a.lower() or "decis" in a.lower()]


def test_modelo_do_historico_de_autos_tem_listas_de_decisao_e_recurso() -> None:
    livro = openpyxl.load_workbook(io.BytesIO(arquivos.modelo("autos")))
    dados = livro["Dados"]
    titulos = [c.value for c in dados[1]]
    listas = {v.formula1 for v in dados.data_validations.dataValidation}
    assert '"Penalidade aplicada,Arquivado"' in listas
    assert f'"{",".join(ROTULOS_RECURSO.values())}"' in listas
    assert "Definitiva em" in titulos
    notas = " ".join(str(c) for linha in livro["Notas"].iter_rows(values_only=True) for c in linha if c)
    assert "não conta para a reincidência" in notas


def test_autos_importados_saem_na_ficha_e_na_planilha_mensal(
    banco: Banco, cidade: Cidade, roteiro: Roteiro
) -> None:
    from pypdf import PdfReader

    from secretaria.services.documentos import emitir_documento, obter_documento
    from secretaria.services.relatorios import gerar_relatorio_mensal

    linhas: list[list[Any]] = [
        ["0042/2026", "", CNPJ_2, "1-VI", "03/11/2026", "SMSU-001", "", "20/11/2026", "0,30", 0, None, "", None,
         None],
        ["0043/2026", "", CNPJ_2, "1-VI", "05/11/2026", "SMSU-001", "Arquivado", "21/11/2026", "", 0, None, "",
         None, None],
    ]  # fmt: skip
    importar(banco.uow(), ADMIN, "autos", ler_conteudo(_xlsx(linhas), "livro-nov.xlsx"))
    info = emitir_documento(banco.uow(), ADMIN, tipo="ficha", operadora_id=cidade.operadora2_id)
    with banco.leitura() as s:
        pdf = obter_documento(s, info.id)
    # pypdf (a test dependency), not poppler's pdftotext: nothing the suite needs is installed by hand.
    texto = "\n".join(pagina.extract_text() for pagina in PdfReader(io.BytesIO(pdf)).pages)
    assert "0042/2026" in texto and "0043/2026" in texto
    saida = io.BytesIO()
    gerar_relatorio_mensal(banco, 2026, 11, saida)
    livro = openpyxl.load_workbook(io.BytesIO(saida.getvalue()))
    celulas = {str(c) for ws in livro.worksheets for linha in ws.iter_rows(values_only=True) for c in linha}
    assert {"0042/2026", "0043/2026"} <= celulas
