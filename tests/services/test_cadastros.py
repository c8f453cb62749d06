"""Registry services: happy paths, every refusal with nothing written, duplicates, vehicle history, stale edits."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import date
from functools import cache
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria import relogio
from secretaria.db import Banco
from secretaria.lei.documentos import validar_cnpj, validar_cpf, validar_renavam
from secretaria.models import Auditoria, Empregado, Fiscal, Linha, Operadora, Veiculo, VeiculoHistorico
from secretaria.services import cadastros
from secretaria.services.base import AcessoNegado, Ator, ConflitoEdicao, ErroDominio
from secretaria.services.cadastros import (
    DadosEmpregado,
    DadosFiscal,
    DadosLinha,
    DadosOperadora,
    DadosVeiculo,
)

HOJE = date(2026, 11, 30)
ADMIN = Ator("ana", "Ana Administradora", frozenset({"administrador"}))
OUTRO_ADMIN = Ator("bruno", "Bruno", frozenset({"administrador"}))
FISCAL = Ator("fabio", "Fábio", frozenset({"fiscal", "consulta"}))


@pytest.fixture(autouse=True)
def _hoje(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relogio, "hoje", lambda: HOJE)


def _com_dv(base: str, validar: Callable[[str], str], digitos: int) -> str:
    for n in range(10**digitos):
        try:
            return validar(f"{base}{n:0{digitos}d}")
        except ValueError:
            continue
    raise AssertionError(base)


@cache
def cnpj(i: int) -> str:
    return _com_dv(f"{44555666 + i:08d}0001", validar_cnpj, 2)


@cache
def cpf(i: int) -> str:
    return _com_dv(f"{987654000 + i:09d}", validar_cpf, 2)


@cache
def renavam(i: int) -> str:
    return _com_dv(f"{7000000000 + i:010d}", validar_renavam, 1)


def dados_operadora(i: int = 0, **mudancas: Any) -> DadosOperadora:
    base = DadosOperadora(
        razao_social=f"Viação Teste {i} Ltda",
        nome_fantasia=f"Teste {i}",
        cnpj=cnpj(i),
        logradouro="Rua XV de Novembro",
        numero_endereco="600",
        cep="96015-000",
        representante_nome="Maria Representante",
        representante_cpf="111.444.777-35",
        contrato_numero=f"{i}/2020",
        contrato_inicio=date(2020, 1, 1),
        contrato_fim=date(2030, 12, 31),
    )
    return dataclasses.replace(base, **mudancas)


def criar_base(banco: Banco) -> dict[str, int]:
    op1 = cadastros.criar_operadora(banco.uow(), ADMIN, dados_operadora(1))
    op2 = cadastros.criar_operadora(banco.uow(), ADMIN, dados_operadora(2))
    l1 = cadastros.criar_linha(banco.uow(), ADMIN, DadosLinha(codigo="10", nome="Centro", operadora_id=op1))
    l1b = cadastros.criar_linha(banco.uow(), ADMIN, DadosLinha(codigo="11", nome="Fragata", operadora_id=op1))
    l2 = cadastros.criar_linha(banco.uow(), ADMIN, DadosLinha(codigo="20", nome="Laranjal", operadora_id=op2))
    return {"op1": op1, "op2": op2, "l1": l1, "l1b": l1b, "l2": l2}


def dados_veiculo(ids: dict[str, int], i: int = 0, **mudancas: Any) -> DadosVeiculo:
    base = DadosVeiculo(
        prefixo=str(100 + i),
        placa=f"IPX-{1000 + i}",
        renavam=renavam(i),
        operadora_id=ids["op1"],
        linha_id=ids["l1"],
        marca_modelo="Marcopolo Torino",
        ano_fabricacao=2018,
        lugares_sentados=40,
        lugares_em_pe=30,
        vistoria_validade=date(2027, 3, 1),
        licenca_validade=date(2027, 1, 31),
    )
    return dataclasses.replace(base, **mudancas)


def _contagens(banco: Banco) -> dict[str, int]:
    with banco.leitura() as s:
        return {
            m.__tablename__: s.scalar(sa.select(sa.func.count()).select_from(m)) or 0
            for m in (Operadora, Linha, Veiculo, VeiculoHistorico, Empregado, Fiscal, Auditoria)
        }


def test_cadastros_completos_e_leitura_para_edicao(banco: Banco) -> None:
    ids = criar_base(banco)
    alfanumerico = cadastros.criar_operadora(
        banco.uow(), ADMIN, dados_operadora(9, cnpj="12.abc.345/01de-35", delegacao="permissao")
    )
    vid = cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids, placa="ipx1a23"))
    eid = cadastros.criar_empregado(
        banco.uow(),
        ADMIN,
        DadosEmpregado(
            nome="João da Silva",
            cpf=f"{cpf(0)[:3]}.{cpf(0)[3:6]}.{cpf(0)[6:9]}-{cpf(0)[9:]}",
            operadora_id=ids["op1"],
            funcao="cobrador",
            carteira_cadastro="A-123",
            admissao=date(2020, 5, 4),
        ),
    )
    fid = cadastros.criar_fiscal(banco.uow(), ADMIN, DadosFiscal(nome="Élida Souza", matricula="smsu-77"))
    with banco.leitura() as s:
        op = cadastros.obter_operadora(s, ids["op1"])
        assert op.versao == 1 and op.alterado_por == "ana"
        assert op.situacao == "ativa"
        assert op.dados == dados_operadora(1, cnpj=cnpj(1), cep="96015000", representante_cpf="11144477735")
        assert cadastros.obter_operadora(s, alfanumerico).dados.cnpj == "12ABC34501DE35"
        v = cadastros.obter_veiculo(s, vid)
        assert v.dados.placa == "IPX1A23" and v.placa_formatada == "IPX1A23"
        assert [(p.operadora_id, p.linha_codigo, p.inicio, p.fim) for p in v.historico] == [
            (ids["op1"], "10", HOJE, None)
        ]
        e = cadastros.obter_empregado(s, eid)
        assert (e.dados.cpf, e.dados.funcao, e.dados.demissao) == (cpf(0), "cobrador", None)
        assert cadastros.obter_fiscal(s, fid).dados.matricula == "SMSU-77"
        assert cadastros.obter_linha(s, ids["l2"]).operadora_nome == "Viação Teste 2 Ltda"
        # Combo boxes.
        assert [o.rotulo for o in cadastros.opcoes_operadoras(s)] == ["Teste 1", "Teste 2", "Teste 9"]
        assert [o.rotulo for o in cadastros.opcoes_linhas(s, ids["op1"])] == ["10 — Centro", "11 — Fragata"]
        assert [o.rotulo for o in cadastros.opcoes_veiculos(s, ids["op1"])] == ["100 — IPX1A23"]
        assert [o.rotulo for o in cadastros.opcoes_empregados(s, ids["op1"])] == ["João da Silva (cobrador)"]
        assert [o.id for o in cadastros.opcoes_fiscais(s)] == [fid]
        acoes = s.scalars(sa.select(Auditoria.acao).order_by(Auditoria.id)).all()
    assert acoes.count("criar_operadora") == 3 and "criar_veiculo" in acoes and "criar_fiscal" in acoes
    # An edit saves, bumps the version and audits before → after.
    cadastros.editar_operadora(
        banco.uow(), OUTRO_ADMIN, ids["op1"], dados_operadora(1, telefone="(53) 3222-0000"), versao=1
    )
    with banco.leitura() as s:
        op = cadastros.obter_operadora(s, ids["op1"])
        assert (op.versao, op.alterado_por, op.dados.telefone) == (2, "bruno", "(53) 3222-0000")
        ultima = s.scalars(sa.select(Auditoria).order_by(Auditoria.id.desc()).limit(1)).one()
        assert (ultima.acao, ultima.usuario_login, ultima.entidade_id) == (
            "editar_operadora",
            "bruno",
            str(ids["op1"]),
        )
        assert '"telefone": ""' in (ultima.antes or "") and "3222-0000" in (ultima.depois or "")


def _refusals(ids: dict[str, int]) -> list[tuple[str, Callable[[Banco], object], str]]:
    """(what, act, field the message belongs beside)."""

    def op(**m: Any) -> Callable[[Banco], object]:
        return lambda b: cadastros.criar_operadora(b.uow(), ADMIN, dados_operadora(5, **m))

    def ve(**m: Any) -> Callable[[Banco], object]:
        return lambda b: cadastros.criar_veiculo(b.uow(), ADMIN, dados_veiculo(ids, 5, **m))

    def em(**m: Any) -> Callable[[Banco], object]:
        base = DadosEmpregado(nome="Pedro", cpf=cpf(3), operadora_id=ids["op1"])
        return lambda b: cadastros.criar_empregado(b.uow(), ADMIN, dataclasses.replace(base, **m))

    def li(**m: Any) -> Callable[[Banco], object]:
        base = DadosLinha(codigo="99", nome="Porto", operadora_id=ids["op1"])
        return lambda b: cadastros.criar_linha(b.uow(), ADMIN, dataclasses.replace(base, **m))

    def fi(**m: Any) -> Callable[[Banco], object]:
        base = DadosFiscal(nome="Caio", matricula="900")
        return lambda b: cadastros.criar_fiscal(b.uow(), ADMIN, dataclasses.replace(base, **m))

    return [
        ("razão social vazia", op(razao_social="  "), "razao_social"),
        ("CNPJ com dígito errado", op(cnpj="11.222.333/0001-82"), "cnpj"),
        ("CNPJ curto", op(cnpj="1122233300018"), "cnpj"),
        ("CNPJ duplicado", op(cnpj=cnpj(1)), "cnpj"),
        ("delegação desconhecida", op(delegacao="autorizacao"), "delegacao"),
        ("sem endereço", op(logradouro=""), "logradouro"),
        ("UF inexistente", op(uf="XX"), "uf"),
        ("CEP curto", op(cep="9601"), "cep"),
        ("e-mail sem arroba", op(email="empresa.com.br"), "email"),
        ("CPF do representante inválido", op(representante_cpf="111.444.777-36"), "representante_cpf"),
        ("CPF sem representante", op(representante_nome=""), "representante_nome"),
        ("contrato termina antes de começar", op(contrato_fim=date(2019, 1, 1)), "contrato_fim"),
        ("razão social longa demais", op(razao_social="x" * 201), "razao_social"),
        ("linha sem nome", li(nome=""), "nome"),
        ("código de linha repetido", li(codigo="10"), "codigo"),
        ("linha sem operadora", li(operadora_id=None), "operadora_id"),
        ("linha de operadora inexistente", li(operadora_id=999), "operadora_id"),
        ("placa inválida", ve(placa="IP-1234"), "placa"),
        ("placa repetida na outra forma", ve(placa="IPX1A00"), "placa"),
        ("placa repetida igual", ve(placa="IPX-1100"), "placa"),
        (
            "RENAVAM com dígito errado",
            ve(renavam=renavam(9)[:-1] + str((int(renavam(9)[-1]) + 1) % 10)),
            "renavam",
        ),
        ("RENAVAM repetido", ve(renavam=renavam(0)), "renavam"),
        ("prefixo repetido na mesma operadora", ve(prefixo="100"), "prefixo"),
        ("prefixo vazio", ve(prefixo=""), "prefixo"),
        ("linha de outra operadora", ve(linha_id=ids["l2"]), "linha_id"),
        ("linha inexistente", ve(linha_id=999), "linha_id"),
        ("ano de fabricação impossível", ve(ano_fabricacao=1800), "ano_fabricacao"),
        ("lugares negativos", ve(lugares_em_pe=-1), "lugares_em_pe"),
        ("situação desconhecida", ve(situacao="vendido"), "situacao"),
        ("empregado sem nome", em(nome=""), "nome"),
        ("CPF inválido", em(cpf="123.456.789-00"), "cpf"),
        ("CPF repetido na operadora", em(cpf=cpf(0)), "cpf"),
        ("função desconhecida", em(funcao="gerente"), "funcao"),
        (
            "demissão antes da admissão",
            em(admissao=date(2021, 1, 1), demissao=date(2020, 12, 31)),
            "demissao",
        ),
        ("matrícula repetida", fi(matricula="smsu-77"), "matricula"),
        ("fiscal sem nome", fi(nome=" "), "nome"),
        ("usuário inexistente", fi(usuario_id=999), "usuario_id"),
    ]


def test_cada_recusa_aponta_o_campo_e_nada_grava(banco: Banco) -> None:
    ids = criar_base(banco)
    cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids, 0))  # IPX-1000 = IPX1A00
    cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids, 100, prefixo="300", linha_id=None))
    cadastros.criar_empregado(
        banco.uow(), ADMIN, DadosEmpregado(nome="Ana", cpf=cpf(0), operadora_id=ids["op1"])
    )
    cadastros.criar_fiscal(banco.uow(), ADMIN, DadosFiscal(nome="Élida", matricula="SMSU-77"))
    antes = _contagens(banco)
    for descricao, ato, campo in _refusals(ids):
        with pytest.raises(ErroDominio) as erro:
            ato(banco)
        assert erro.value.campo == campo, descricao
        assert erro.value.mensagem and erro.value.mensagem[0].isupper(), descricao
        assert _contagens(banco) == antes, descricao


def test_placa_nas_duas_formas_e_a_mesma(banco: Banco) -> None:
    ids = criar_base(banco)
    cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids, 0, placa="IPX-1234"))
    with pytest.raises(ErroDominio) as erro:
        cadastros.criar_veiculo(
            banco.uow(), ADMIN, dados_veiculo(ids, 1, placa="IPX1C34", operadora_id=ids["op2"], linha_id=None)
        )
    assert erro.value.campo == "placa"
    assert (
        "IPX1C34 já está cadastrada no veículo de prefixo 100 da operadora Viação Teste 1 Ltda"
        in erro.value.mensagem
    )
    assert "IPX-1234" in erro.value.mensagem
    # The same fleet number at another operator is fine.
    cadastros.criar_veiculo(
        banco.uow(), ADMIN, dados_veiculo(ids, 1, prefixo="100", operadora_id=ids["op2"], linha_id=ids["l2"])
    )


def test_integridade_do_banco_segura_uma_corrida_perdida(
    banco: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If another user saves the same plate between our check and our insert, the unique index refuses it
    and the user gets a message beside the field, not a crash."""
    ids = criar_base(banco)
    cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids, 0))
    monkeypatch.setattr(cadastros, "_conferir_veiculo", lambda *a: None)
    antes = _contagens(banco)
    with pytest.raises(ErroDominio) as erro:
        cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids, 1, placa="IPX1A00"))
    assert erro.value.campo == "placa"
    assert _contagens(banco) == antes


def test_historico_do_veiculo_apos_duas_mudancas(banco: Banco) -> None:
    ids = criar_base(banco)
    vid = cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids), em_servico_desde=date(2024, 1, 1))
    # A change of line within the operator, then a transfer to another operator.
    cadastros.editar_veiculo(
        banco.uow(),
        ADMIN,
        vid,
        dados_veiculo(ids, linha_id=ids["l1b"]),
        versao=1,
        data_mudanca=date(2025, 6, 1),
    )
    with pytest.raises(ErroDominio) as erro:
        cadastros.editar_veiculo(
            banco.uow(),
            ADMIN,
            vid,
            dados_veiculo(ids, operadora_id=ids["op2"], linha_id=ids["l2"]),
            versao=2,
            data_mudanca=date(2025, 5, 1),
        )
    assert erro.value.campo == "data_mudanca"
    cadastros.editar_veiculo(
        banco.uow(), ADMIN, vid, dados_veiculo(ids, operadora_id=ids["op2"], linha_id=ids["l2"]), versao=2
    )
    # A change that moves nothing adds no period.
    cadastros.editar_veiculo(
        banco.uow(),
        ADMIN,
        vid,
        dados_veiculo(ids, operadora_id=ids["op2"], linha_id=ids["l2"], situacao="reserva"),
        versao=3,
    )
    with banco.leitura() as s:
        historico = cadastros.obter_veiculo(s, vid).historico
    assert [(p.operadora_nome, p.linha_codigo, p.inicio, p.fim) for p in historico] == [
        ("Viação Teste 1 Ltda", "10", date(2024, 1, 1), date(2025, 6, 1)),
        ("Viação Teste 1 Ltda", "11", date(2025, 6, 1), HOJE),
        ("Viação Teste 2 Ltda", "20", HOJE, None),
    ]


def test_edicao_sobre_versao_antiga_diz_quem_alterou_e_quando(banco: Banco) -> None:
    ids = criar_base(banco)
    with banco.leitura() as s:
        carregada = cadastros.obter_operadora(s, ids["op1"])
    cadastros.editar_operadora(
        banco.uow(), OUTRO_ADMIN, ids["op1"], dados_operadora(1, bairro="Centro"), versao=carregada.versao
    )
    with banco.leitura() as s:
        atual = cadastros.obter_operadora(s, ids["op1"])
    with pytest.raises(ConflitoEdicao) as erro:
        cadastros.editar_operadora(
            banco.uow(), ADMIN, ids["op1"], dados_operadora(1, bairro="Fragata"), versao=carregada.versao
        )
    assert "bruno" in erro.value.mensagem
    assert atual.alterado_em.strftime("%d/%m/%Y às %H:%M") in erro.value.mensagem
    with banco.leitura() as s:
        assert cadastros.obter_operadora(s, ids["op1"]).dados.bairro == "Centro"


def test_so_o_administrador_cadastra(banco: Banco) -> None:
    ids = criar_base(banco)
    antes = _contagens(banco)
    with pytest.raises(AcessoNegado) as erro:
        cadastros.criar_veiculo(banco.uow(), FISCAL, dados_veiculo(ids))
    assert "Administrador" in erro.value.mensagem
    with pytest.raises(AcessoNegado):
        cadastros.editar_linha(banco.uow(), FISCAL, ids["l1"], DadosLinha("10", "X", ids["op1"]), versao=1)
    assert _contagens(banco) == antes


def test_linha_com_veiculos_nao_muda_de_operadora(banco: Banco) -> None:
    ids = criar_base(banco)
    cadastros.criar_veiculo(banco.uow(), ADMIN, dados_veiculo(ids))
    with pytest.raises(ErroDominio) as erro:
        cadastros.editar_linha(
            banco.uow(), ADMIN, ids["l1"], DadosLinha("10", "Centro", ids["op2"]), versao=1
        )
    assert erro.value.campo == "operadora_id"
    cadastros.editar_linha(banco.uow(), ADMIN, ids["l1b"], DadosLinha("11", "Fragata", ids["op2"]), versao=1)
