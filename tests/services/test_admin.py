"""Administration: URM table, calendar, catalogue, letterhead, settings, audit log and user accounts."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria import relogio
from secretaria.db import Banco
from secretaria.models import (
    Auditoria,
    DiaNaoUtil,
    DispositivoCatalogo,
    ValorURM,
)
from secretaria.services import (
    calendario,
    catalogo,
    configuracoes,
    consulta_auditoria,
    contas,
    lei_db,
    orgao,
    urm,
)
from secretaria.services.base import AcessoNegado, Ator, ConflitoEdicao, ErroDominio
from tests.helpers import fabrica

HOJE = date(2026, 11, 30)
ADMIN = Ator("ana", "Ana", frozenset({"administrador"}))
CONSULTA = Ator("carlos", "Carlos", frozenset({"consulta", "protocolo", "secretario"}))


@pytest.fixture(autouse=True)
def _hoje(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relogio, "hoje", lambda: HOJE)
    monkeypatch.setattr(relogio, "agora", lambda: datetime(2026, 11, 30, 9, 0))


def _contar(banco: Banco, modelo: Any) -> int:
    with banco.leitura() as s:
        return int(s.scalar(sa.select(sa.func.count()).select_from(modelo)) or 0)


def test_tabela_da_urm_valor_em_vigor_e_recusas(banco: Banco) -> None:
    primeiro = urm.adicionar_valor_urm(
        banco.uow(), ADMIN, vigencia=date(2020, 1, 1), valor="100,00", ato="Decreto 1"
    )
    urm.adicionar_valor_urm(
        banco.uow(), ADMIN, vigencia=date(2026, 1, 1), valor=Decimal("164.74"), ato="Decreto 2"
    )
    with banco.leitura() as s:
        assert urm.valor_urm_em(s, date(2025, 12, 31)) == Decimal("100.0000")
        assert urm.valor_urm_em(s, date(2026, 1, 1)) == Decimal("164.7400")
        with pytest.raises(ErroDominio) as erro:
            urm.valor_urm_em(s, date(2019, 12, 31))
        assert "31/12/2019" in erro.value.mensagem and "01/01/2020" in erro.value.mensagem
        assert [(x.vigencia, x.valor) for x in urm.tabela_urm(s)] == [
            (date(2020, 1, 1), Decimal("100.0000")),
            (date(2026, 1, 1), Decimal("164.7400")),
        ]
    antes = _contar(banco, ValorURM), _contar(banco, Auditoria)
    recusas: list[tuple[dict[str, Any], str]] = [
        ({"vigencia": date(2020, 1, 1), "valor": "120", "ato": "D"}, "vigencia"),
        ({"vigencia": None, "valor": "120", "ato": "D"}, "vigencia"),
        ({"vigencia": date(2027, 1, 1), "valor": "0", "ato": "D"}, "valor"),
        ({"vigencia": date(2027, 1, 1), "valor": "-3", "ato": "D"}, "valor"),
        ({"vigencia": date(2027, 1, 1), "valor": "abc", "ato": "D"}, "valor"),
        ({"vigencia": date(2027, 1, 1), "valor": "1,23456", "ato": "D"}, "valor"),
        ({"vigencia": date(2027, 1, 1), "valor": "170", "ato": "  "}, "ato"),
    ]
    for campos, campo in recusas:
        with pytest.raises(ErroDominio) as erro:
            urm.adicionar_valor_urm(banco.uow(), ADMIN, **campos)
        assert erro.value.campo == campo, campos
    with pytest.raises(AcessoNegado):
        urm.adicionar_valor_urm(banco.uow(), CONSULTA, vigencia=date(2027, 1, 1), valor="170", ato="D")
    assert (_contar(banco, ValorURM), _contar(banco, Auditoria)) == antes
    # No decision yet: the first value may still be corrected and an unused one removed.
    urm.editar_valor_urm(
        banco.uow(), ADMIN, primeiro, vigencia=date(2020, 1, 1), valor="101", ato="Decreto 1", versao=1
    )
    with banco.leitura() as s:
        assert urm.valor_urm_em(s, date(2021, 5, 5)) == Decimal("101.0000")


def test_urm_usada_por_decisao_nao_muda(banco: Banco) -> None:
    v2020 = urm.adicionar_valor_urm(
        banco.uow(), ADMIN, vigencia=date(2020, 1, 1), valor="100", ato="Decreto 1"
    )
    v2026 = urm.adicionar_valor_urm(
        banco.uow(), ADMIN, vigencia=date(2026, 1, 1), valor="164,74", ato="Decreto 2"
    )
    fabrica.inserir_auto(banco, data_decisao=date(2025, 3, 10))
    with banco.leitura() as s:
        assert [x.decisoes for x in urm.tabela_urm(s)] == [1, 0]
    antes = _contar(banco, ValorURM), _contar(banco, Auditoria)
    atos: list[Callable[[], object]] = [
        lambda: urm.editar_valor_urm(
            banco.uow(), ADMIN, v2020, vigencia=date(2020, 1, 1), valor="99", ato="Decreto 1", versao=1
        ),
        lambda: urm.editar_valor_urm(
            banco.uow(), ADMIN, v2026, vigencia=date(2025, 1, 1), valor="164,74", ato="Decreto 2", versao=1
        ),
        lambda: urm.excluir_valor_urm(banco.uow(), ADMIN, v2020),
        lambda: urm.adicionar_valor_urm(banco.uow(), ADMIN, vigencia=date(2024, 6, 1), valor="120", ato="D"),
    ]
    for ato in atos:
        with pytest.raises(ErroDominio) as erro:
            ato()
        assert "10/03/2025" in erro.value.mensagem
    assert (_contar(banco, ValorURM), _contar(banco, Auditoria)) == antes
    # What does not change the value in force on 10/03/2025 is allowed.
    urm.editar_valor_urm(
        banco.uow(), ADMIN, v2020, vigencia=date(2020, 1, 1), valor="100", ato="Decreto nº 1/2020", versao=1
    )
    urm.adicionar_valor_urm(banco.uow(), ADMIN, vigencia=date(2025, 3, 11), valor="150", ato="Decreto 3")
    urm.adicionar_valor_urm(banco.uow(), ADMIN, vigencia=date(2010, 1, 1), valor="80", ato="Decreto antigo")
    urm.excluir_valor_urm(banco.uow(), ADMIN, v2026)
    with banco.leitura() as s:
        assert urm.valor_urm_em(s, date(2025, 3, 10)) == Decimal("100.0000")
        assert urm.valor_urm_em(s, date(2026, 6, 1)) == Decimal("150.0000")
        assert urm.tabela_urm(s)[1].ato == "Decreto nº 1/2020"


def test_calendario_de_dias_sem_expediente(banco: Banco) -> None:
    """The table holds the decreed pontos facultativos and other closures; the municipal holidays are computed
    for every year (REGRAS § 4), so nobody seeds them and the table of a new year starts empty."""
    assert not hasattr(calendario, "semear_feriados_municipais")
    carnaval = calendario.adicionar_dia_nao_util(
        banco.uow(),
        ADMIN,
        data=date(2027, 2, 9),
        descricao="Ponto facultativo — Carnaval",
        ato="Decreto 9/2027",
    )
    natal = calendario.adicionar_dia_nao_util(
        banco.uow(), ADMIN, data=date(2027, 12, 24), descricao="Ponto facultativo — véspera de Natal"
    )
    with pytest.raises(ErroDominio) as erro:
        calendario.adicionar_dia_nao_util(banco.uow(), ADMIN, data=date(2027, 2, 9), descricao="Outro")
    assert erro.value.campo == "data" and "Carnaval" in erro.value.mensagem
    with pytest.raises(ErroDominio) as erro:
        calendario.adicionar_dia_nao_util(banco.uow(), ADMIN, data=date(2027, 3, 1), descricao="")
    assert erro.value.campo == "descricao"
    with banco.leitura() as s:
        dias = calendario.dias_nao_uteis(s, 2027)
        assert lei_db.calendario(s).motivo_sem_expediente(date(2027, 2, 2)) == (
            "feriado municipal: Nossa Senhora dos Navegantes"
        )
    assert [(d.data, d.descricao) for d in dias] == [
        (date(2027, 2, 9), "Ponto facultativo — Carnaval"),
        (date(2027, 12, 24), "Ponto facultativo — véspera de Natal"),
    ]
    calendario.remover_dia_nao_util(banco.uow(), ADMIN, carnaval)
    assert _contar(banco, DiaNaoUtil) == 1
    with pytest.raises(AcessoNegado):
        calendario.remover_dia_nao_util(banco.uow(), CONSULTA, natal)


def test_catalogo_tipo_do_1x_uma_vez_e_lei_intocavel(banco: Banco) -> None:
    antes = _contar(banco, Auditoria)
    for codigo, tipo in (("1-I", "A"), ("6-V", "E")):
        with pytest.raises(ErroDominio) as erro:
            catalogo.definir_tipo_dispositivo(banco.uow(), ADMIN, codigo=codigo, tipo=tipo, ato="Portaria")
        assert "não pode ser alterado" in erro.value.mensagem
    for excluir in (catalogo.excluir_dispositivo, catalogo.desativar_dispositivo):
        with pytest.raises(ErroDominio):
            excluir(banco.uow(), ADMIN, "1-I")
    with pytest.raises(ErroDominio) as erro:
        catalogo.definir_tipo_1x(banco.uow(), ADMIN, tipo="F", ato="Portaria")
    assert erro.value.campo == "tipo"
    with pytest.raises(ErroDominio) as erro:
        catalogo.definir_tipo_1x(banco.uow(), ADMIN, tipo="B", ato="")
    assert erro.value.campo == "ato"
    with pytest.raises(AcessoNegado):
        catalogo.definir_tipo_1x(banco.uow(), CONSULTA, tipo="B", ato="Portaria SMSU nº 1/2026")
    assert _contar(banco, Auditoria) == antes
    catalogo.definir_tipo_1x(banco.uow(), ADMIN, tipo="b", ato="Portaria SMSU nº 1/2026")
    with pytest.raises(ErroDominio) as erro:
        catalogo.definir_tipo_1x(banco.uow(), ADMIN, tipo="C", ato="Portaria SMSU nº 2/2026")
    assert "já foi definido (tipo B, Portaria SMSU nº 1/2026)" in erro.value.mensagem
    with banco.leitura() as s:
        lei = catalogo.listar_dispositivos(s)
        assert len(lei) == 55 and [d.codigo for d in lei[:3]] == ["1-I", "1-II", "1-III"]
        assert [d.codigo for d in lei if d.codigo.startswith("1-")][8:11] == ["1-IX", "1-X", "1-XI"]
        um_x = s.get(DispositivoCatalogo, "1-X")
        assert um_x is not None and (um_x.tipo, um_x.ato_tipo) == ("B", "Portaria SMSU nº 1/2026")


def test_dispositivos_contratuais(banco: Banco) -> None:
    codigo = catalogo.adicionar_dispositivo_contratual(
        banco.uow(),
        ADMIN,
        origem="contrato",
        codigo="ct-01",
        texto="Manter ar-condicionado em funcionamento.",
        tipo="C",
        ato="Contrato de concessão nº 1/2020, cláusula 5ª",
    )
    assert codigo == "CT-01"
    recusas: list[tuple[dict[str, Any], str]] = [
        ({"codigo": "CT-01"}, "codigo"),
        ({"codigo": "1-XXX"}, "codigo"),
        ({"codigo": ""}, "codigo"),
        ({"origem": "lei"}, "origem"),
        ({"tipo": "Z"}, "tipo"),
        ({"texto": " "}, "texto"),
        ({"ato": ""}, "ato"),
        ({"natureza": "talvez"}, "natureza"),
    ]
    for mudanca, campo in recusas:
        campos = {
            "origem": "ato",
            "codigo": "PT-7",
            "texto": "Texto.",
            "tipo": "A",
            "ato": "Portaria 7",
            **mudanca,
        }
        with pytest.raises(ErroDominio) as erro:
            catalogo.adicionar_dispositivo_contratual(banco.uow(), ADMIN, **campos)
        assert erro.value.campo == campo, mudanca
    # Not yet cited: may be retyped or deleted; once cited: neither, only deactivated.
    catalogo.definir_tipo_dispositivo(banco.uow(), ADMIN, codigo="CT-01", tipo="D", ato="Aditivo 1")
    catalogo.adicionar_dispositivo_contratual(
        banco.uow(), ADMIN, origem="ato", codigo="PT-7", texto="Texto.", tipo="A", ato="Portaria 7"
    )
    catalogo.excluir_dispositivo(banco.uow(), ADMIN, "PT-7")
    fabrica.inserir_auto(banco, codigo="CT-01")
    with pytest.raises(ErroDominio):
        catalogo.definir_tipo_dispositivo(banco.uow(), ADMIN, codigo="CT-01", tipo="E", ato="Aditivo 2")
    with pytest.raises(ErroDominio):
        catalogo.excluir_dispositivo(banco.uow(), ADMIN, "CT-01")
    catalogo.desativar_dispositivo(banco.uow(), ADMIN, "CT-01")
    with banco.leitura() as s:
        todos = catalogo.listar_dispositivos(s)
        ct = todos[-1]
        assert (ct.codigo, ct.rotulo, ct.tipo, ct.ativo, ct.citacoes) == (
            "CT-01",
            "Contrato CT-01",
            "D",
            False,
            1,
        )
        assert "CT-01" not in [d.codigo for d in catalogo.listar_dispositivos(s, incluir_inativos=False)]


def test_dados_do_orgao_e_configuracoes(banco: Banco) -> None:
    with banco.leitura() as s:
        atual = orgao.obter_dados_orgao(s)
    assert atual.dados.prefeitura == "Prefeitura Municipal de Pelotas"
    novos = orgao.DadosDoOrgao(
        prefeitura="Prefeitura Municipal de Pelotas",
        secretaria="Secretaria Municipal de Serviços Urbanos",
        secretario_nome="Marta Secretária",
        endereco="Praça Coronel Pedro Osório, 101",
        telefone="(53) 3225-0000",
        email="smsu@pelotas.rs.gov.br",
    )
    orgao.salvar_dados_orgao(banco.uow(), ADMIN, novos, versao=atual.versao)
    with pytest.raises(ConflitoEdicao) as conflito:
        orgao.salvar_dados_orgao(banco.uow(), ADMIN, novos, versao=atual.versao)
    assert "ana" in conflito.value.mensagem
    with pytest.raises(ErroDominio) as erro:
        orgao.salvar_dados_orgao(
            banco.uow(), ADMIN, orgao.DadosDoOrgao("P", "S", "", "E"), versao=atual.versao + 1
        )
    assert erro.value.campo == "secretario_nome"
    with banco.leitura() as s:
        assert orgao.obter_dados_orgao(s).dados == novos
        assert configuracoes.obter_configuracoes(s) == configuracoes.Configuracoes(
            copias_backup=7, dias_decisao_atrasada=30
        )
    configuracoes.salvar_configuracoes(banco.uow(), ADMIN, copias_backup=14, dias_decisao_atrasada=20)
    with pytest.raises(ErroDominio) as erro:
        configuracoes.salvar_configuracoes(banco.uow(), ADMIN, copias_backup=0, dias_decisao_atrasada=20)
    assert erro.value.campo == "copias_backup"
    backup = importlib.import_module("secretaria.services.backup")
    with banco.leitura() as s:
        assert configuracoes.obter_configuracoes(s) == configuracoes.Configuracoes(
            copias_backup=14, dias_decisao_atrasada=20
        )
        assert backup.copias_mantidas(s) == 14  # the settings are the ones the other services read
        filas = pytest.importorskip("secretaria.services.filas")
        assert filas.dias_para_decidir(s) == 20


def test_registro_de_auditoria_com_filtros(banco: Banco) -> None:
    urm.adicionar_valor_urm(banco.uow(), ADMIN, vigencia=date(2020, 1, 1), valor="100", ato="Decreto 1")
    outro = Ator("bruno", "Bruno", frozenset({"administrador"}))
    calendario.adicionar_dia_nao_util(banco.uow(), outro, data=date(2027, 2, 9), descricao="Carnaval")
    catalogo.definir_tipo_1x(banco.uow(), outro, tipo="B", ato="Portaria 1")
    with banco.leitura() as s:
        tudo = consulta_auditoria.consultar_auditoria(s)
        assert tudo.total == 3
        assert [r.acao for r in tudo.registros] == [
            "definir_tipo_dispositivo",
            "adicionar_dia_nao_util",
            "adicionar_valor_urm",
        ]
        do_bruno = consulta_auditoria.consultar_auditoria(s, usuario="bruno", entidade="dispositivo")
        assert [(r.entidade_id, r.alteracoes) for r in do_bruno.registros] == [
            ("1-X", [("ato_tipo", None, "Portaria 1"), ("tipo", None, "B")])
        ]
        assert consulta_auditoria.consultar_auditoria(s, texto="carnaval").total == 1
        assert consulta_auditoria.consultar_auditoria(s, desde=HOJE + date.resolution).total == 0
        assert (
            consulta_auditoria.consultar_auditoria(s, inicio=1, quantidade=1).registros[0].acao
            == "adicionar_dia_nao_util"
        )
        assert consulta_auditoria.entidades_auditadas(s) == ["dia_nao_util", "dispositivo", "valor_urm"]
        with pytest.raises(ErroDominio):
            consulta_auditoria.consultar_auditoria(s, desde=date(2026, 2, 1), ate=date(2026, 1, 1))


def test_usuarios_papeis_senha_bloqueio_e_ultimo_administrador(
    banco: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(contas, "_N", 2**10)  # a cheaper scrypt: this test hashes a dozen passwords
    ana = contas.criar_usuario(
        banco.uow(), ADMIN, login="ana", nome="Ana", senha="segredo123", papeis=["administrador"]
    )
    beto = contas.criar_usuario(
        banco.uow(), ADMIN, login="beto", nome="Beto", senha="segredo123", papeis=["fiscal"]
    )
    # The only active administrator keeps the role and the account.
    with pytest.raises(ErroDominio) as erro:
        contas.editar_usuario(banco.uow(), ADMIN, ana, nome="Ana", papeis=["consulta"], versao=1)
    assert "único administrador" in erro.value.mensagem
    with pytest.raises(ErroDominio):
        contas.definir_ativo(banco.uow(), ADMIN, ana, ativo=False)
    contas.editar_usuario(
        banco.uow(), ADMIN, beto, nome="Beto Silva", papeis=["fiscal", "administrador"], versao=1
    )
    with pytest.raises(ConflitoEdicao):
        contas.editar_usuario(banco.uow(), ADMIN, beto, nome="Beto", papeis=["fiscal"], versao=1)
    with pytest.raises(ErroDominio) as erro:
        contas.definir_ativo(banco.uow(), ADMIN, ana, ativo=False)
    assert erro.value.mensagem == "Você não pode desativar a própria conta."
    contas.editar_usuario(banco.uow(), ADMIN, ana, nome="Ana", papeis=["consulta", "secretario"], versao=1)
    with banco.leitura() as s:
        usuarios = {u.login: u for u in contas.listar_usuarios(s)}
    assert usuarios["ana"].papeis == {"consulta", "secretario"} and usuarios["ana"].versao == 2
    assert usuarios["beto"].papeis == {"fiscal", "administrador"} and usuarios["beto"].nome == "Beto Silva"
    # Lockout, unlock, reset; the audit never holds a password hash.
    for _ in range(contas.FALHAS_PARA_BLOQUEIO):
        with pytest.raises(contas.FalhaLogin):
            contas.autenticar(banco.uow(), "beto", "errada000")
    with banco.leitura() as s:
        assert contas.obter_usuario(s, beto).bloqueado()
    contas.desbloquear_usuario(banco.uow(), ADMIN, beto)
    assert contas.autenticar(banco.uow(), "beto", "segredo123").login == "beto"
    with pytest.raises(ErroDominio) as erro:
        contas.redefinir_senha(banco.uow(), ADMIN, beto, nova_senha="curta")
    assert erro.value.campo == "nova_senha"
    contas.redefinir_senha(banco.uow(), ADMIN, beto, nova_senha="nova123456")
    beto_ator = contas.autenticar(banco.uow(), "beto", "nova123456")
    with pytest.raises(ErroDominio) as erro:
        contas.alterar_propria_senha(banco.uow(), beto_ator, senha_atual="errada000", nova_senha="outra12345")
    assert erro.value.campo == "senha_atual"
    contas.alterar_propria_senha(banco.uow(), beto_ator, senha_atual="nova123456", nova_senha="outra12345")
    assert contas.autenticar(banco.uow(), "beto", "outra12345").login == "beto"
    contas.definir_ativo(banco.uow(), beto_ator, ana, ativo=False)
    with pytest.raises(contas.FalhaLogin):
        contas.autenticar(banco.uow(), "ana", "segredo123")
    with pytest.raises(AcessoNegado):
        contas.redefinir_senha(banco.uow(), CONSULTA, beto, nova_senha="nova123456")
    with banco.leitura() as s:
        textos = s.scalars(sa.select(Auditoria.depois).where(Auditoria.entidade == "usuario")).all()
    assert textos and not any("scrypt" in (t or "") for t in textos)
