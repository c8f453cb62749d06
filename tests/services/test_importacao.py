"""Importing the registries: a messy spreadsheet — mixed headers, Latin-1 CSV, invalid rows,
duplicates — through preview, refusal, partial import, the rejected-rows file, its correction and
re-import, on both databases; idempotence and updates by natural key; the audit names the file."""

from __future__ import annotations

import io
import json
from datetime import date
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.lei.documentos import DocumentoInvalido, digitos_cpf, validar_cpf, validar_renavam
from secretaria.models import Auditoria, Empregado, Operadora, Veiculo, VeiculoHistorico
from secretaria.services import cadastros
from secretaria.services.auditoria import verificar_cadeia
from secretaria.services.base import Ator, ErroDominio
from secretaria.services.importacao import arquivos
from secretaria.services.importacao.cadastros import importar_cadastro, previa_cadastro
from secretaria.services.importacao.leitura import Planilha, ler_conteudo
from secretaria.services.verificacao import verificar_tudo
from tests.helpers.fabrica import contagens, popular

ADMIN = Ator("ana", "Ana Administradora", frozenset({"administrador"}))
CNPJ_1 = "11.222.333/0001-81"  # the city's first operator (tests.helpers.fabrica)
CPF_INVALIDO = "111.444.777-00"


def _xlsx(linhas: list[list[Any]], aba: str = "Planilha1") -> bytes:
    livro = openpyxl.Workbook()
    ws = livro.active
    assert ws is not None
    ws.title = aba
    for linha in linhas:
        ws.append(linha)
    saida = io.BytesIO()
    livro.save(saida)
    return saida.getvalue()


def _mensagem_do_formulario(**campos: Any) -> str:
    """What the employee form says about these values (the import must say the same)."""
    base = cadastros.DadosEmpregado(nome="X", cpf="52998224725", operadora_id=1)
    try:
        cadastros.validar_empregado(cadastros.DadosEmpregado(**{**base.__dict__, **campos}))
    except ErroDominio as exc:
        return str(exc)
    raise AssertionError("o formulário aceitou")


def _csv_empregados() -> bytes:
    """The messy file: Latin-1, ";" separated, headers as an office writes them, a blank row in the middle,
    an invalid CPF, a date that is not a date, an operator not registered, a duplicate inside the file."""
    texto = (
        "NOME DO EMPREGADO;CPF do motorista;Cnpj;Função;Data de Admissão;Observação\n"
        "Ênio Açoriano;529.982.247-25;11.222.333/0001-81;Motorista;02/05/2018;ok\n"
        f"Zé Errado;{CPF_INVALIDO};11222333000181;cobrador;01/03/2020;\n"
        ";;;;;\n"
        "Márcia Dia;390.533.447-05;11222333000181;Cobrador;31/02/2019;\n"
        "Ênio Repetido;52998224725;11222333000181;Motorista;;\n"
        "Sem Empresa;111.444.777-35;99.999.999/0001-91;Motorista;;\n"
        "Ana Três;153.509.460-56;11222333000181;Fiscal da empresa;15/07/2021;\n"
    )
    return texto.encode("cp1252")


def test_planilha_baguncada_previa_recusa_parcial_recusadas_correcao_reimportacao(banco: Banco) -> None:
    popular(banco)
    planilha = ler_conteudo(_csv_empregados(), "empregados.csv")
    assert planilha.codificacao == "Windows-1252 (Latin-1)"
    assert planilha.linhas_em_branco == (4,)

    with banco.leitura() as s:
        previa = previa_cadastro(s, "empregados", planilha)
    problemas = {linha.numero: linha.problemas for linha in previa.recusadas}
    assert set(problemas) == {3, 5, 6, 7}
    # Exactly what the form says (prefixed by the column when the message does not name it).
    assert problemas[3] == (
        f"Coluna “CPF do motorista”, “{CPF_INVALIDO}”: {_mensagem_do_formulario(cpf=CPF_INVALIDO)}",
    )
    assert problemas[5] == (
        "Coluna “Data de Admissão”: “31/02/2019” não existe: fevereiro de 2019 tem 28 dias.",
    )
    assert problemas[6][0].startswith("Linha repetida: a linha 2 da planilha já traz o CPF 529.982.247-25")
    assert "99.999.999/0001-91 não cadastrada" in problemas[7][0]
    assert {(linha.numero, linha.acao) for linha in previa.linhas if linha.acao != "recusada"} == {
        (2, "nova"),
        (8, "nova"),
    }
    assert any("Observação" in a for a in previa.avisos)

    # Refused whole: nothing written.
    antes = contagens(banco)
    with pytest.raises(ErroDominio, match=r"4 linhas recusadas em empregados\.csv; nada foi gravado"):
        importar_cadastro(banco.uow(), ADMIN, "empregados", planilha)
    assert contagens(banco) == antes

    # Only the valid rows.
    resultado = importar_cadastro(banco.uow(), ADMIN, "empregados", planilha, somente_validas=True)
    assert (resultado.novas, resultado.atualizadas, resultado.iguais, len(resultado.recusadas)) == (
        2,
        0,
        0,
        4,
    )
    with banco.leitura() as s:
        ana = s.scalar(sa.select(Empregado).where(Empregado.cpf == validar_cpf("153.509.460-56")))
        assert ana is not None
        assert (ana.nome, ana.funcao, ana.admissao) == ("Ana Três", "fiscal_empresa", date(2021, 7, 15))

    # The rejected rows come back as an .xlsx with the reason in the last column.
    conteudo = arquivos.recusadas(planilha.cabecalhos, resultado.recusadas)
    livro = openpyxl.load_workbook(io.BytesIO(conteudo))
    ws = livro.worksheets[0]
    linhas = [list(r) for r in ws.iter_rows(values_only=True)]
    assert linhas[0][-1] == "Motivo da recusa"
    assert linhas[0][: len(planilha.cabecalhos)] == list(planilha.cabecalhos)
    assert [r[-2] for r in linhas[1:]] == [3, 5, 6, 7]
    assert linhas[1][-1] == problemas[3][0]

    # Fixed in the rejected-rows file itself and imported again.
    ws["B2"] = "168.995.350-09"  # a valid CPF for Zé
    ws["E3"] = "28/02/2019"
    ws["A4"] = "Ênio Açoriano"  # the duplicate is the same person: now equal to row 2
    ws["C5"] = CNPJ_1
    ws["B5"] = "048574630" + digitos_cpf("048574630")
    corrigido = io.BytesIO()
    livro.save(corrigido)
    segunda = ler_conteudo(corrigido.getvalue(), "empregados-corrigido.xlsx")
    with banco.leitura() as s:
        previa2 = previa_cadastro(s, "empregados", segunda)
    assert not previa2.recusadas, previa2.recusadas
    assert any("Motivo da recusa" in a for a in previa2.avisos)
    r2 = importar_cadastro(banco.uow(), ADMIN, "empregados", segunda)
    assert (r2.novas, r2.atualizadas, r2.iguais) == (3, 0, 1)

    # The same file again changes nothing at all.
    antes = contagens(banco)
    r3 = importar_cadastro(banco.uow(), ADMIN, "empregados", segunda)
    assert (r3.novas, r3.atualizadas, r3.iguais) == (0, 0, 4)
    assert contagens(banco) == antes

    # Every imported record has its audit row naming the file and its SHA-256, and the audit is whole.
    with banco.leitura() as s:
        linhas_aud = s.scalars(sa.select(Auditoria).where(Auditoria.acao == "importar_empregado")).all()
        assert len(linhas_aud) == 5
        origens = {json.loads(a.depois or "{}")["_importacao"]["arquivo"] for a in linhas_aud}
        assert origens == {"empregados.csv", "empregados-corrigido.xlsx"}
        shas = {json.loads(a.depois or "{}")["_importacao"]["sha256"] for a in linhas_aud}
        assert shas == {planilha.sha256, segunda.sha256}
        assert verificar_cadeia(s).integra
        relatorio = verificar_tudo(s, [])
        # The city itself was inserted without audit (tests.helpers.fabrica); the imported records are not
        # among the findings: their audit images match them.
        assert set(relatorio.contagem_achados) == {"registro sem auditoria"}, relatorio.achados
        importados = {a.entidade_id for a in linhas_aud}
        assert not [a for a in relatorio.achados if any(f"empregado {i} " in a for i in importados)]


def test_correcao_atualiza_pela_chave_e_so_as_colunas_do_arquivo(banco: Banco) -> None:
    cidade = popular(banco)
    arquivo = _xlsx(
        [
            ["Razão Social", "cnpj", "ENDEREÇO", "Telefone"],
            ["Viação Princesa do Sul S.A.", "11222333000181", "Rua Quinze de Novembro", "(53) 3222-0000"],
            ["Nova Viação Ltda.", "11.444.777/0001-61", "Av. Bento Gonçalves", ""],
        ]
    )
    planilha = ler_conteudo(arquivo, "operadoras.xlsx")
    r = importar_cadastro(banco.uow(), ADMIN, "operadoras", planilha)
    # 11.444.777/0001-61 is the city's second operator: updated, not duplicated.
    assert (r.novas, r.atualizadas, r.iguais) == (0, 2, 0)
    with banco.leitura() as s:
        op = s.get(Operadora, cidade.operadora_id)
        assert op is not None
        assert op.razao_social == "Viação Princesa do Sul S.A."
        assert op.telefone == "(53) 3222-0000"
        assert op.bairro == "Centro"  # a column the file lacks is kept
        assert op.representante_cpf == "52998224725"
        assert s.scalar(sa.select(sa.func.count(Operadora.id))) == 2


def _renavam(base: int) -> str:
    for n in range(10):
        try:
            return validar_renavam(f"{base:010d}{n}")
        except DocumentoInvalido:
            continue
    raise AssertionError(base)


def test_veiculo_pela_placa_em_qualquer_forma_ou_pelo_renavam(banco: Banco) -> None:
    cidade = popular(banco)
    # The city's bus 101 is IAB1C23 (Mercosul) / RENAVAM 00123456789; bus 201 is IXY9876, given a valid
    # RENAVAM here.
    r201, r_novo = _renavam(555_000_111), _renavam(555_000_222)
    with banco.uow() as uow:
        uow.session.execute(sa.update(Veiculo).where(Veiculo.id == cidade.veiculo2_id).values(renavam=r201))
        uow.commit()
    arquivo = _xlsx(
        [
            ["Nº de frota", "PLACA DO VEÍCULO", "Renavam", "CNPJ da operadora", "linha", "Ano", "Assentos"],
            ["102", "IAB1C23", r201, CNPJ_1, "", 2020, 40],  # plate of 101, RENAVAM of 201
            ["101", "IAB-1223", 123456789, CNPJ_1, "L10", 2019, 40],  # old form of IAB1C23, RENAVAM a number
            ["201", "IXY9J76", r201, "11444777000161", "L20", 2015, 38],  # Mercosul form of IXY9876
            ["101", "IQQ1A11", r_novo, CNPJ_1, "", 2021, 40],  # prefix 101 taken in the operator
            ["103", "IQQ1A12", "1234", CNPJ_1, "L10", "dois mil", 40],
        ]
    )
    planilha = ler_conteudo(arquivo, "frota.xlsx")
    with banco.leitura() as s:
        previa = previa_cadastro(s, "veiculos", planilha)
    acoes = {linha.numero: linha.acao for linha in previa.linhas}
    assert acoes == {2: "recusada", 3: "atualizada", 4: "atualizada", 5: "recusada", 6: "recusada"}
    problemas = {linha.numero: " ".join(linha.problemas) for linha in previa.recusadas}
    assert f"é do veículo de prefixo 101 e o RENAVAM {r201} é do veículo de prefixo 201" in problemas[2]
    assert "já tem um veículo com o prefixo 101" in problemas[5]
    with pytest.raises(DocumentoInvalido) as renavam_curto:
        validar_renavam("1234")
    assert str(renavam_curto.value) in problemas[6]
    assert "Coluna “Ano”: “dois mil” não é um número inteiro." in problemas[6]

    r = importar_cadastro(banco.uow(), ADMIN, "veiculos", planilha, somente_validas=True)
    assert (r.novas, r.atualizadas) == (0, 2)
    with banco.leitura() as s:
        v = s.get(Veiculo, cidade.veiculo_id)
        assert v is not None
        assert (v.placa, v.ano_fabricacao, v.linha_id) == ("IAB1223", 2019, cidade.linha_id)
        v2 = s.get(Veiculo, cidade.veiculo2_id)
        assert v2 is not None and (v2.placa, v2.ano_fabricacao) == ("IXY9J76", 2015)
        assert s.scalar(sa.select(sa.func.count(Veiculo.id))) == 2


def test_veiculo_novo_tem_historico_e_a_mudanca_de_operadora_abre_periodo(banco: Banco) -> None:
    cidade = popular(banco)
    cab = ["Prefixo", "Placa", "RENAVAM", "CNPJ da operadora", "Linha", "Lugares sentados"]
    primeira = _xlsx([cab, ["150", "IQQ1A11", "12345678900", CNPJ_1, "L10", 40]])
    importar_cadastro(banco.uow(), ADMIN, "veiculos", ler_conteudo(primeira, "a.xlsx"))
    segunda = _xlsx([cab, ["150", "IQQ1A11", "12345678900", "11444777000161", "L20", 40]])
    importar_cadastro(banco.uow(), ADMIN, "veiculos", ler_conteudo(segunda, "b.xlsx"))
    with banco.leitura() as s:
        vid = s.scalar(sa.select(Veiculo.id).where(Veiculo.prefixo == "150"))
        periodos = s.execute(
            sa.select(VeiculoHistorico.operadora_id, VeiculoHistorico.fim)
            .where(VeiculoHistorico.veiculo_id == vid)
            .order_by(VeiculoHistorico.id)
        ).all()
    assert [p.operadora_id for p in periodos] == [cidade.operadora_id, cidade.operadora2_id]
    assert periodos[0].fim is not None and periodos[1].fim is None


def test_cancelar_no_meio_nao_grava_nada(banco: Banco) -> None:
    popular(banco)
    linhas: list[list[Any]] = [["Nome", "Matrícula"]] + [[f"Fiscal {i}", f"M-{i}"] for i in range(1200)]
    planilha = ler_conteudo(_xlsx(linhas), "fiscais.xlsx")
    antes = contagens(banco)

    class Cancelado(Exception):
        pass

    def progresso(feitas: int, total: int, etapa: str) -> None:
        if etapa == "Gravando" and feitas >= 500:
            raise Cancelado

    with pytest.raises(Cancelado):
        importar_cadastro(banco.uow(), ADMIN, "fiscais", planilha, progresso=progresso)
    assert contagens(banco) == antes


def test_coluna_obrigatoria_faltando_e_mapeamento_manual(banco: Banco) -> None:
    popular(banco)
    planilha = ler_conteudo(_xlsx([["Quem", "Código funcional"], ["Rui", "SMSU-9"]]), "f.xlsx")
    with banco.leitura() as s, pytest.raises(ErroDominio, match="colunas obrigatórias: Nome, Matrícula"):
        previa_cadastro(s, "fiscais", planilha)
    with banco.leitura() as s:
        previa = previa_cadastro(
            s, "fiscais", planilha, mapeamento={"Quem": "nome", "Código funcional": "matricula"}
        )
    assert [linha.acao for linha in previa.linhas] == ["nova"]
    with banco.leitura() as s, pytest.raises(ErroDominio, match="não existe na importação"):
        previa_cadastro(s, "fiscais", planilha, mapeamento={"Quem": "placa"})


def test_somente_administrador_importa(banco: Banco) -> None:
    from secretaria.services.base import AcessoNegado

    popular(banco)
    planilha = ler_conteudo(_xlsx([["Nome", "Matrícula"], ["Rui", "SMSU-9"]]), "f.xlsx")
    with pytest.raises(AcessoNegado):
        importar_cadastro(banco.uow(), Ator("f", "F", frozenset({"fiscal"})), "fiscais", planilha)


def test_modelo_tem_cabecalhos_exemplo_listas_e_notas(tmp_path: Path, banco: Banco) -> None:
    from secretaria.services.importacao.colunas import COLUNAS

    popular(banco)
    conteudo = arquivos.modelo("veiculos")
    livro = openpyxl.load_workbook(io.BytesIO(conteudo))
    assert livro.sheetnames == ["Dados", "Notas"]
    dados = livro["Dados"]
    titulos = [c.value for c in dados[1]]
    assert titulos == [c.titulo for c in COLUNAS["veiculos"]]
    listas = {str(v.sqref): v.formula1 for v in dados.data_validations.dataValidation}
    coluna_situacao = titulos.index("Situação") + 1
    letra = openpyxl.utils.get_column_letter(coluna_situacao)
    assert listas[f"{letra}2:{letra}5000"] == '"Ativo,Reserva,Baixado"'
    notas = [r[0] for r in livro["Notas"].iter_rows(values_only=True) if r[0]]
    assert "RENAVAM" in notas and any("dd/mm/aaaa" in str(n) for n in notas)
    # The template's own example imports (after the operator and line it names exist).
    planilha: Planilha = ler_conteudo(conteudo, "modelo.xlsx")
    with banco.leitura() as s:
        previa = previa_cadastro(s, "veiculos", planilha)
    assert len(previa.linhas) == 1 and not previa.recusadas, previa.linhas


def test_modelo_de_cada_tipo_le_de_volta_sem_colunas_desconhecidas() -> None:
    from secretaria.services.importacao.colunas import TIPOS, mapear

    for tipo in TIPOS:
        planilha = ler_conteudo(arquivos.modelo(tipo), f"{tipo}.xlsx")
        mapa = mapear(tipo, planilha.cabecalhos)
        assert not mapa.nao_reconhecidas and not mapa.faltando, tipo
