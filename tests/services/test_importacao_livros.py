"""The office's real spreadsheets and paper books: read as the office wrote them — title rows,
a hidden first sheet, merged cells, numbers as numbers, two-digit years, its own titles and words — and
what is accepted is stored exactly as the book says, value by value, on both databases."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
import sqlalchemy as sa

from secretaria import vocabulario
from secretaria.db import Banco
from secretaria.lei.documentos import validar_cnpj
from secretaria.models import AutoInfracao, Decisao, Fiscal, Operadora, Pagamento, Veiculo
from secretaria.services import filas
from secretaria.services.base import Ator, ErroDominio
from secretaria.services.importacao.colunas import mapear
from secretaria.services.importacao.leitura import ler_conteudo
from secretaria.services.importacao.servico import importar, previa
from secretaria.services.importacao.valores import ValorInvalido, ler_data, ler_decimal
from secretaria.services.sancao import avaliar_sancao
from tests.helpers import livros
from tests.helpers.fabrica import contagens, popular

ADMIN = Ator("ana", "Ana Administradora", frozenset({"administrador"}))


# -- cells read as what they are (no database) --------------------------------------------------------


@pytest.mark.parametrize(
    ("celula", "esperado"),
    [
        (82.37, Decimal("82.37")),  # an Excel number: never ×100
        (1.5, Decimal("1.5")),
        (3, Decimal(3)),
        ("82,37", Decimal("82.37")),
        ("R$ 1.234,56", Decimal("1234.56")),
        ("1.234", Decimal(1234)),
        ("82.37", Decimal("82.37")),
        ("", None),
        (None, None),
    ],
)
def test_numero_lido_como_numero_e_texto_em_pt_br(celula: object, esperado: Decimal | None) -> None:
    assert ler_decimal(celula) == esperado


@pytest.mark.parametrize(
    ("texto", "prazo", "esperado"),
    [
        ("23/7/27", True, date(2027, 7, 23)),  # an inspection due near today, not in 1927
        ("5/3/35", True, date(2035, 3, 5)),  # a contract's end
        ("5/3/70", True, date(2070, 3, 5)),  # within 50 years of 2026
        ("5/3/80", True, date(1980, 3, 5)),
        ("5/3/24", False, date(2024, 3, 5)),  # a fact: in the past
        ("29/11/26", False, date(2026, 11, 29)),
        ("1/12/26", False, date(1926, 12, 1)),  # a fact cannot be tomorrow
        ("05/03/2024", False, date(2024, 3, 5)),
        ("2024-03-05", False, date(2024, 3, 5)),
        (45356, False, date(2024, 3, 5)),  # an Excel day number in a date column
    ],
)
def test_ano_de_dois_digitos_no_seculo_que_faz_sentido(texto: object, prazo: bool, esperado: date) -> None:
    assert ler_data(texto, prazo=prazo) == esperado


@pytest.mark.parametrize(
    ("texto", "motivo"),
    [
        ("31/02/24", "não existe: fevereiro de 2024 tem 29 dias"),
        ("5/13/24", "não existe: o mês vai de 01 a 12"),
        ("ontem", "dd/mm"),
    ],
)
def test_data_impossivel_recusada_dizendo_por_que(texto: str, motivo: str) -> None:
    with pytest.raises(ValorInvalido, match=motivo):
        ler_data(texto)


def test_titulos_do_orgao_reconhecidos_e_nome_nunca_toma_o_cnpj() -> None:
    m = mapear("autos", livros.CABECALHO_AUTOS)
    assert m.colunas["numero"] == 0 and "ano" not in m.colunas  # "Nº/Ano" is the number, not the year
    assert m.colunas["operadora_nome"] == 1 and "operadora_cnpj" not in m.colunas
    assert m.colunas["multa_ur"] == 7  # "Multa Aplicada (URM)" is never ignored
    assert (m.colunas["veiculo"], m.colunas["fiscal_nome"], m.colunas["pago"]) == (2, 5, 9)
    assert m.nao_reconhecidas == () and m.faltando == ()

    v = mapear("veiculos", ["Empresa", "CNPJ", "Nº de Ordem", "Venc. Vistoria", "Venc. Licença", "Ano Fab."])
    assert v.colunas == {
        "operadora_nome": 0,
        "operadora_cnpj": 1,
        "prefixo": 2,
        "vistoria_validade": 3,
        "licenca_validade": 4,
        "ano_fabricacao": 5,
    }
    o = mapear("operadoras", ["Empresa", "CNPJ/CPF", "Vencimento", "Nº"])
    assert o.colunas == {"razao_social": 0, "cnpj": 1, "contrato_fim": 2, "numero_endereco": 3}


def test_coluna_parecida_e_dita_e_a_ambigua_e_perguntada() -> None:
    m = mapear("autos", ["Número", "Multa em URM aplicada pelo Secretário", "Placa do ônibus multado"])
    assert dict(m.parecidas) == {
        "Multa em URM aplicada pelo Secretário": "multa_ur",
        "Placa do ônibus multado": "veiculo",
    }
    duvidosa = mapear("autos", ["Data da decisão do recurso"])
    assert duvidosa.duvidosas and duvidosa.duvidosas[0][0] == "Data da decisão do recurso"
    # The user's word settles it (the window's column list and `--coluna`).
    decidida = mapear(
        "autos", ["Data da decisão do recurso"], {"Data da decisão do recurso": "recurso_julgado_em"}
    )
    assert decidida.colunas == {"recurso_julgado_em": 0} and not decidida.duvidosas


def test_palavras_do_orgao_num_so_vocabulario() -> None:
    from secretaria.codigos import ROTULOS_DELEGACAO, ROTULOS_FUNCAO, ROTULOS_VEICULO

    assert vocabulario.ler_codigo("delegacao", ROTULOS_DELEGACAO, "Concessionária") == "concessao"
    assert vocabulario.ler_codigo("delegacao", ROTULOS_DELEGACAO, "PERMISSIONÁRIA") == "permissao"
    assert vocabulario.ler_codigo("situacao_veiculo", ROTULOS_VEICULO, "Em operação") == "ativo"
    assert vocabulario.ler_codigo("situacao_veiculo", ROTULOS_VEICULO, "Desativada") == "baixado"
    assert vocabulario.ler_codigo("funcao", ROTULOS_FUNCAO, "Fiscal") == "fiscal_empresa"
    assert vocabulario.ler_booleano("Aposentado") is False
    assert vocabulario.ler_booleano("Em operação") is True
    assert vocabulario.ler_codigo("delegacao", ROTULOS_DELEGACAO, "Autorização") is None


# -- finding the table in the sheet --------------------------------------------------------------------


def test_tabela_achada_sob_titulos_na_primeira_aba_visivel_com_mescladas_preenchidas() -> None:
    planilha = ler_conteudo(livros.veiculos(), "frota.xlsx")
    assert planilha.aba == "Frota"
    assert planilha.cabecalhos[:3] == ("Empresa", "CNPJ", "Nº de Ordem")
    assert [n for n, _v in planilha.linhas] == [5, 6, 7, 8]  # no title rows, no "Total: 4 veículos"
    assert [v[1] for _n, v in planilha.linhas] == [livros.CNPJ_ALFA] * 3 + [livros.CNPJ_BETA]
    assert [v[0] for _n, v in planilha.linhas] == [livros.ALFA] * 3 + [livros.BETA]
    avisos = " ".join(planilha.avisos)
    assert "Lida a aba “Frota”, a primeira visível; outras abas: Listas (oculta)." in avisos
    assert "Cabeçalho na linha 4" in avisos and "Rodapé ignorado: linha 9" in avisos
    assert "A5:A7" in avisos and "B5:B7" in avisos


# -- the whole office through the service, on both databases -------------------------------------------


def _importar_cadastros(banco: Banco) -> None:
    for tipo, conteudo in (
        ("operadoras", livros.operadoras()),
        ("fiscais", livros.fiscais()),
        ("veiculos", livros.veiculos()),
    ):
        planilha = ler_conteudo(conteudo, f"{tipo}.xlsx")
        with banco.leitura() as s:
            p = previa(s, tipo, planilha)
        assert not p.recusadas, (tipo, [r.problemas for r in p.recusadas])
        importar(banco.uow(), ADMIN, tipo, planilha)


def test_cadastros_do_orgao_gravados_como_a_planilha_diz(banco: Banco) -> None:
    popular(banco)
    _importar_cadastros(banco)
    with banco.leitura() as s:
        for cnpj, (delegacao, logradouro, numero, fim) in livros.OPERADORAS_ESPERADAS.items():
            op = s.scalars(sa.select(Operadora).where(Operadora.cnpj == validar_cnpj(cnpj))).one()
            assert (op.delegacao, op.logradouro, op.numero_endereco, op.contrato_fim) == (
                delegacao,
                logradouro,
                numero,
                fim,
            )
        ids = {validar_cnpj(c): s.scalar(sa.select(Operadora.id).where(Operadora.cnpj == validar_cnpj(c)))
               for c in livros.OPERADORAS_ESPERADAS}  # fmt: skip
        for placa, (
            cnpj,
            prefixo,
            renavam,
            ano,
            vistoria,
            licenca,
            situacao,
        ) in livros.VEICULOS_ESPERADOS.items():
            v = s.scalars(sa.select(Veiculo).where(Veiculo.placa == placa)).one()
            assert (v.operadora_id, v.prefixo, v.renavam, v.ano_fabricacao) == (
                ids[validar_cnpj(cnpj)],
                prefixo,
                renavam,
                ano,
            )
            assert (v.vistoria_validade, v.licenca_validade, v.situacao) == (vistoria, licenca, situacao)
        for matricula, (nome, ativo) in livros.FISCAIS_ESPERADOS.items():
            f = s.scalars(sa.select(Fiscal).where(Fiscal.matricula == matricula)).one()
            assert (f.nome, f.ativo) == (nome, ativo)


def test_previa_mostra_o_ano_com_quatro_digitos_e_todos_os_problemas_da_linha(banco: Banco) -> None:
    popular(banco)
    _importar_cadastros(banco)
    conteudo, _esperados = livros.autos()
    planilha = ler_conteudo(conteudo, "livro.xlsx")
    with banco.leitura() as s:
        p = previa(s, "autos", planilha)
    primeira = p.linhas[0]
    assert (
        primeira.valores[4] == "05/03/2025"
        and primeira.valores[7] == "1,50"
        and primeira.valores[8] == "82,37"
    )
    recusada = {r.numero: r.problemas for r in p.recusadas}
    assert list(recusada) == [8]
    assert any("1.234,56" in m for m in recusada[8])
    assert (p.contar("nova"), p.contar("atualizada"), p.contar("igual"), len(p.recusadas)) == (3, 0, 0, 1)

    # Several problems of one row, each naming its column and value.
    ruim = livros.livro_xlsx(
        [livros.CABECALHO_AUTOS, ["16/2026", "Viação Inexistente", "", "1-I", "31/02/26", "Ninguém", "", "", "",
                                  "Talvez", "", ""]]
    )  # fmt: skip
    with banco.leitura() as s:
        p2 = previa(s, "autos", ler_conteudo(ruim, "ruim.xlsx"))
    problemas = p2.recusadas[0].problemas
    assert "Coluna “Data”: “31/02/26” não existe: fevereiro de 2026 tem 28 dias." in problemas
    assert "Coluna “Pago (Sim/Não)”: “Talvez” — use Sim ou Não." in problemas
    assert any(
        m.startswith("Coluna “Empresa”: Operadora “Viação Inexistente” não cadastrada") for m in problemas
    )
    assert any(m.startswith("Coluna “Fiscal”: Fiscal “Ninguém” não cadastrado") for m in problemas)


def test_nome_ambiguo_recusado_listando_os_candidatos(banco: Banco) -> None:
    popular(banco)
    _importar_cadastros(banco)
    with banco.uow() as uow:
        uow.session.add(Fiscal(nome="Rosa Fiscal", matricula="SMSU-777", alterado_por="teste"))
        uow.commit()
    conteudo = livros.livro_xlsx(
        [livros.CABECALHO_AUTOS, ["20/2026", livros.ALFA, "", "1-I", "2/2/26", "Rosa Fiscal", "", "", "", "", "",
                                  ""]]
    )  # fmt: skip
    with banco.leitura() as s:
        p = previa(s, "autos", ler_conteudo(conteudo, "l.xlsx"))
    (mensagem,) = p.recusadas[0].problemas
    assert "Fiscal “Rosa Fiscal” é ambíguo: há 2 cadastros com esse nome" in mensagem


def test_livro_aceito_e_gravado_exatamente_como_diz_e_presuncao_declarada(banco: Banco) -> None:
    popular(banco)
    _importar_cadastros(banco)
    conteudo, esperados = livros.autos()
    planilha = ler_conteudo(conteudo, "livro.xlsx")
    with banco.leitura() as s:
        sem = previa(s, "autos", planilha)
    nota = next(a for a in sem.avisos if "reincidência" in a)
    assert nota.startswith(
        "2 autos com penalidade aplicada não têm a data em que a penalidade se tornou definitiva"
    )
    with banco.leitura() as s, pytest.raises(ErroDominio, match="no mínimo 30 dias"):
        previa(s, "autos", planilha, presumir_definitiva=20)
    with banco.leitura() as s:
        com = previa(s, "autos", planilha, presumir_definitiva=30)
    assert any(a.startswith("2 autos terão a data definitiva presumida: 30 dias depois") for a in com.avisos)

    antes = contagens(banco)
    with pytest.raises(ErroDominio, match="1 linha recusada"):
        importar(banco.uow(), ADMIN, "autos", planilha, presumir_definitiva=30)
    assert contagens(banco) == antes
    r = importar(banco.uow(), ADMIN, "autos", planilha, somente_validas=True, presumir_definitiva=30)
    assert (r.novas, len(r.recusadas)) == (3, 1)

    with banco.leitura() as s:
        for e in esperados:
            auto = s.scalars(
                sa.select(AutoInfracao).where(AutoInfracao.ano == e.ano, AutoInfracao.numero == e.numero)
            ).one()
            op = s.get(Operadora, auto.operadora_id)
            assert op is not None and op.cnpj == validar_cnpj(e.operadora)
            veiculo = s.get(Veiculo, auto.veiculo_id) if auto.veiculo_id else None
            assert (veiculo.placa if veiculo else None) == e.placa
            assert (auto.dispositivo_codigo, auto.data_infracao, auto.data_decisao, auto.multa_ur) == (
                e.dispositivo,
                e.infracao,
                e.decisao,
                e.multa,
            )
            assert auto.encerrado_no_livro == e.encerrado
            decisao = s.scalar(sa.select(Decisao).where(Decisao.auto_id == auto.id))
            if e.decisao is None:
                assert decisao is None and auto.fase == "lavrado"
                assert auto.data_definitiva is None and not auto.definitiva_presumida
                continue
            assert decisao is not None and (decisao.data, decisao.resultado, decisao.multa_ur) == (
                e.decisao,
                "aplicada",
                e.multa,
            )
            # The presumption, recorded with each auto it touched.
            assert auto.data_definitiva == e.decisao + timedelta(days=30) and auto.definitiva_presumida
            pagamento = s.scalar(sa.select(Pagamento).where(Pagamento.decisao_id == decisao.id))
            assert pagamento is not None
            assert (pagamento.situacao, pagamento.pago_em, pagamento.valor_pago) == (
                e.situacao_pagamento,
                e.pago_em,
                e.valor_pago,
            )

        # The sanction panel counts the presumed prior and says where it came from.
        alfa = s.scalar(sa.select(Operadora.id).where(Operadora.cnpj == validar_cnpj(livros.CNPJ_ALFA)))
        assert alfa is not None
        avaliacao = avaliar_sancao(
            s, operadora_id=alfa, dispositivo_codigo="1-I", data_infracao=date(2025, 6, 1)
        )
        (prior,) = [a for a in avaliacao.antecedentes if a.numero == "0012/2025"]
        assert prior.contado and prior.definitiva_presumida and prior.importado_de == "livro.xlsx"
        assert "(definitiva presumida: importado de livro.xlsx)" in prior.motivo

        # Closed in the book (paid, dívida ativa): no home queue asks for an act on them.
        do_livro = set(s.scalars(sa.select(AutoInfracao.id).where(AutoInfracao.ano == 2025)))
        assert len(do_livro) == 2
        for fila in filas.painel(s):
            assert not do_livro & {linha.id for linha in fila.linhas if linha.entidade == "auto"}, fila.titulo


def test_cadastro_com_varios_problemas_mostra_todos(banco: Banco) -> None:
    popular(banco)
    conteudo = livros.livro_xlsx(
        [["Nº de Ordem", "Placa", "RENAVAM", "Empresa", "Sentados", "Venc. Vistoria"],
         ["900", "XX-1", "123", "Viação Fantasma", 40, "31/2/27"]],
        oculta_antes=False,
    )  # fmt: skip
    with banco.leitura() as s:
        p = previa(s, "veiculos", ler_conteudo(conteudo, "frota.xlsx"))
    problemas = p.recusadas[0].problemas
    assert problemas[0] == "Coluna “Venc. Vistoria”: “31/2/27” não existe: fevereiro de 2027 tem 28 dias."
    # Every key problem at once, each naming its column and the value typed.
    for mensagem, coluna, valor in zip(
        problemas[1:], ("Placa", "RENAVAM", "Empresa"), ("XX-1", "123", "Viação Fantasma"), strict=True
    ):
        assert mensagem.startswith(f"Coluna “{coluna}”") and valor in mensagem, mensagem


def test_recurso_julgado_no_livro_da_a_data_definitiva(banco: Banco) -> None:
    """REGRAS § 3 rule 1: on an appeal the penalty becomes final the day the Prefeito judges it."""
    popular(banco)
    conteudo = livros.livro_xlsx(
        [["Nº/Ano", "CNPJ", "Artigo", "Data", "Matrícula do fiscal", "Data da decisão", "Multa (URM)", "Recurso",
          "Recurso julgado em"],
         ["40/2025", "11.222.333/0001-81", "1-VI", "5/3/25", "SMSU-001", "20/4/25", 0.3, "Indeferido", "2/6/25"]],
        oculta_antes=False,
    )  # fmt: skip
    planilha = ler_conteudo(conteudo, "livro.xlsx")
    with banco.leitura() as s:
        p = previa(s, "autos", planilha)
    assert not p.recusadas and not any("reincidência" in a for a in p.avisos)
    importar(banco.uow(), ADMIN, "autos", planilha)
    with banco.leitura() as s:
        auto = s.scalars(sa.select(AutoInfracao).where(AutoInfracao.numero == 40)).one()
        assert (auto.data_definitiva, auto.definitiva_presumida, auto.multa_ur) == (
            date(2025, 6, 2),
            False,
            Decimal("0.30"),
        )


def test_csv_com_titulo_e_cabecalho_com_numero() -> None:
    texto = (
        "SECRETARIA MUNICIPAL DE SEGURANÇA;;;\n"
        ";;;\n"
        "Nome;Matrícula;Situação;Lotação 2026\n"
        "Rosa Fiscal;SMSU-101;Ativo;Centro\n"
        "Paulo Antigo;SMSU-102;Aposentado;Fragata\n"
        "Total: 2 fiscais;;;\n"
    )
    planilha = ler_conteudo(texto.encode("cp1252"), "fiscais.csv")
    assert planilha.cabecalhos == ("Nome", "Matrícula", "Situação", "Lotação 2026")
    assert [n for n, _v in planilha.linhas] == [4, 5]
    assert planilha.linhas_em_branco == ()


def test_cadastro_mostra_todos_os_problemas_do_formulario_de_uma_vez(banco: Banco) -> None:
    """Not only the form's first refusal: every field of the row, each naming the column and the value."""
    popular(banco)
    conteudo, esperados = livros.operadora_com_problemas()
    with banco.leitura() as s:
        p = previa(s, "operadoras", ler_conteudo(conteudo, "empresas.xlsx"))
    (linha,) = p.recusadas
    assert linha.numero == 3 and len(linha.problemas) == len(esperados), linha.problemas
    for mensagem, (coluna, valor, motivo) in zip(linha.problemas, esperados, strict=True):
        assert mensagem.startswith(f"Coluna “{coluna}”") and valor in mensagem and motivo in mensagem

    # The keys and the form together (the plate, the operator, the year of manufacture, the seats), a field
    # refused by its key not twice.
    frota = livros.livro_xlsx(
        [["Nº de Ordem", "Placa", "RENAVAM", "Empresa", "Sentados", "Ano Fab."],
         ["900", "XX-1", "00123456789", "Viação Fantasma", 0, 1800]],
        oculta_antes=False,
    )  # fmt: skip
    with banco.leitura() as s:
        v = previa(s, "veiculos", ler_conteudo(frota, "frota.xlsx"))
    problemas = v.recusadas[0].problemas
    assert [m.split("”")[0] for m in problemas] == [
        "Coluna “Placa",
        "Coluna “Empresa",
        "Coluna “Ano Fab.",
        "Coluna “Sentados",
    ], problemas
    assert "XX-1" in problemas[0] and "1800" in problemas[2] and "maior que zero" in problemas[3]


def _auto_12(banco: Banco) -> tuple[int | None, str | None, date | None, Decimal | None, date | None, bool]:
    """Auto 12/2025's vehicle, payment (situation, day, amount) and final day, as stored."""
    with banco.leitura() as s:
        auto = s.scalars(
            sa.select(AutoInfracao).where(AutoInfracao.ano == 2025, AutoInfracao.numero == 12)
        ).one()
        decisao = s.scalars(sa.select(Decisao).where(Decisao.auto_id == auto.id)).one()
        pagamento = s.scalars(sa.select(Pagamento).where(Pagamento.decisao_id == decisao.id)).one()
        return (
            auto.veiculo_id,
            pagamento.situacao,
            pagamento.pago_em,
            pagamento.valor_pago,
            auto.data_definitiva,
            auto.definitiva_presumida,
        )


def test_livro_corrigido_celula_em_branco_so_apaga_quando_pedido(banco: Banco) -> None:
    popular(banco)
    _importar_cadastros(banco)
    conteudo, _esperados = livros.autos()
    importar(banco.uow(), ADMIN, "autos", ler_conteudo(conteudo, "livro.xlsx"), somente_validas=True,
             presumir_definitiva=30)  # fmt: skip
    antes = _auto_12(banco)
    assert antes[0] is not None and antes[1:4] == ("pago", date(2025, 5, 10), Decimal("82.37")) and antes[5]

    corrigido = ler_conteudo(livros.autos_corrigido(), "livro-corrigido.xlsx")
    with banco.leitura() as s:
        mantem = previa(s, "autos", corrigido)
    (linha,) = mantem.linhas
    assert (linha.acao, linha.limpas, list(linha.mantidas)) == ("igual", (), livros.EM_BRANCO_NO_CORRIGIDO)
    assert "Em 1 linha, células em branco deixam os valores cadastrados como estão" in " ".join(mantem.avisos)
    # The final day presumed at the first import is not the book's: kept as presumed, and said.
    assert "1 auto mantém a data definitiva presumida na importação anterior" in " ".join(mantem.avisos)
    importar(banco.uow(), ADMIN, "autos", corrigido)
    assert _auto_12(banco) == antes

    with banco.leitura() as s:
        apaga = previa(s, "autos", corrigido, limpar_vazias=True)
    (linha,) = apaga.linhas
    assert (linha.acao, list(linha.limpas), linha.mantidas) == (
        "atualizada",
        livros.EM_BRANCO_NO_CORRIGIDO,
        (),
    )
    assert (
        "Em 1 linha, células em branco apagarão valores cadastrados (veja a coluna “Apaga”)." in apaga.avisos
    )
    r = importar(banco.uow(), ADMIN, "autos", corrigido, limpar_vazias=True)
    assert r.atualizadas == 1
    assert _auto_12(banco) == (None, "aberto", None, None, antes[4], True)


def test_multa_em_reais_convertida_em_urm_pelo_valor_do_dia_da_decisao(banco: Banco) -> None:
    """REGRAS § 2: the program keeps fines in URM, R$ = URM × the value in force on the decision day. A
    "Valor da multa (R$)" column is read, converted exactly, or refused naming the row, column and value."""
    assert mapear("autos", livros.CABECALHO_MULTA_REAIS).colunas["multa_reais"] == 6
    assert mapear("autos", ["Multa em reais", "Valor pago (R$)"]).colunas == {
        "multa_reais": 0,
        "valor_pago": 1,
    }
    conteudo, esperados = livros.livro_multa_em_reais()
    planilha = ler_conteudo(conteudo, "livro-reais.xlsx")
    popular(banco)
    _importar_cadastros(banco)
    with banco.leitura() as s:
        p = previa(s, "autos", planilha)
    assert [linha.valores[6] for linha in p.linhas[:2]] == ["225,00 = 1,50 URM", "82,37 = 0,50 URM"]
    recusadas = {r.numero: r.problemas for r in p.recusadas}
    assert list(recusadas) == [7, 8]
    assert recusadas[7] == (
        "Coluna “Valor da multa (R$)”: R$ 100,00 não corresponde a uma multa em URM com duas casas: com a URM "
        "de 20/04/2025 a R$ 150,00, 0,67 URM são R$ 100,50. Confira o valor ou informe a multa em URM.",
    )
    assert recusadas[8] == (
        "Coluna “Valor da multa (R$)”: A multa em reais (R$ 75,00) é 0,50 URM com a URM de 20/04/2025, e a "
        "coluna da multa em URM diz 0,60 URM: confira qual está certa.",
    )
    importar(banco.uow(), ADMIN, "autos", planilha, somente_validas=True)
    with banco.leitura() as s:
        for (ano, numero), (urm, reais) in esperados.items():
            auto = s.scalars(
                sa.select(AutoInfracao).where(AutoInfracao.ano == ano, AutoInfracao.numero == numero)
            ).one()
            decisao = s.scalars(sa.select(Decisao).where(Decisao.auto_id == auto.id)).one()
            pagamento = s.scalars(sa.select(Pagamento).where(Pagamento.decisao_id == decisao.id)).one()
            assert (auto.multa_ur, decisao.multa_ur, decisao.multa_reais, pagamento.valor) == (
                urm,
                urm,
                reais,
                reais,
            )

    # A corrected copy with only the fine in reais: a changed amount is converted again (the stored URM
    # amount is not taken for the file's), a blank one keeps the stored fine and says so.
    corrigido = livros.livro_xlsx(
        [["Nº/Ano", "Empresa", "Artigo", "Data", "Fiscal", "Data da decisão", "Valor da multa (R$)"],
         ["30/2025", livros.ALFA, "1-I", "5/3/25", "Rosa Fiscal", "20/4/25", 300],
         ["34/2026", livros.ALFA, "1-I", "5/3/26", "Rosa Fiscal", "20/4/26", None]],
        oculta_antes=False,
    )  # fmt: skip
    with banco.leitura() as s:
        p2 = previa(s, "autos", ler_conteudo(corrigido, "livro-reais-corrigido.xlsx"))
    assert [(linha.acao, linha.problemas, linha.mantidas) for linha in p2.linhas] == [
        ("atualizada", (), ()),
        ("igual", (), ("Valor da multa (R$)",)),
    ]
    assert p2.linhas[0].valores[6] == "300,00 = 2,00 URM"
