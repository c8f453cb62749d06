"""PRODUTO path 11 (administration) driven through the window, on both databases, plus the smaller acts."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from secretaria import relogio
from secretaria.db import Banco
from secretaria.services import contas
from secretaria.services.base import SISTEMA
from secretaria.services.calendario import adicionar_dia_nao_util
from secretaria.services.catalogo import adicionar_dispositivo_contratual, listar_dispositivos
from secretaria.services.consulta_auditoria import RegistroAuditoria
from secretaria.services.orgao import obter_dados_orgao
from secretaria.services.urm import adicionar_valor_urm, tabela_urm, valor_urm_em
from secretaria.ui.admin import PaginaAdministracao
from secretaria.ui.admin.auditoria import PaginaAuditoria
from secretaria.ui.admin.catalogo import DialogoDispositivoContratual, DialogoTipo1X, PainelCatalogo
from secretaria.ui.admin.sistema import PainelOrgao, PainelSistema
from secretaria.ui.admin.tabelas import PainelCalendario, PainelUrm
from secretaria.ui.admin.usuarios import DialogoUsuario, PaginaUsuarios
from secretaria.ui.contexto import Contexto
from secretaria.ui.janela_principal import JanelaPrincipal
from secretaria.ui.modelo_tabela import ModeloTabela
from secretaria.ui.widgets import arquivos, mensagens
from secretaria.ui.widgets.tarefas import em_andamento
from tests.helpers import fabrica

HOJE = date(2026, 11, 30)


@pytest.fixture(autouse=True)
def _hoje(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relogio, "hoje", lambda: HOJE)


def _contexto(banco: Banco, login: str = "ana", papeis: tuple[str, ...] = ("administrador",)) -> Contexto:
    contas.criar_usuario(
        banco.uow(), SISTEMA, login=login, nome=login.capitalize(), senha="segredo123", papeis=papeis
    )
    return Contexto(banco, contas.autenticar(banco.uow(), login, "segredo123"))


def _textos(modelo: ModeloTabela, coluna: int = 0) -> list[str]:
    return [modelo.data(modelo.index(i, coluna)) for i in range(modelo.rowCount())]


def test_caminho_11_administracao_pela_janela(
    qtbot: QtBot, banco: Banco, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    contexto = _contexto(banco)
    janela = JanelaPrincipal(contexto)
    qtbot.addWidget(janela)
    with qtbot.waitActive(janela):
        janela.show()
    qtbot.keyClick(janela, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)  # the tenth entry
    area = janela.pagina_atual()
    assert isinstance(area, PaginaAdministracao)

    # Users and roles: a refusal beside the roles, then the account is created.
    usuarios = area.aba("usuarios")
    assert isinstance(usuarios, PaginaUsuarios)
    qtbot.mouseClick(usuarios.botao_novo, Qt.MouseButton.LeftButton)
    d = usuarios.dialogo
    assert isinstance(d, DialogoUsuario)
    qtbot.keyClicks(d.login, "paula")
    qtbot.keyClicks(d.nome, "Paula Souza")
    qtbot.keyClicks(d.senha, "protocolo1")
    qtbot.keyClicks(d.repetir, "protocolo1")
    qtbot.keyClick(d.repetir, Qt.Key.Key_Return)
    assert d.erro("papeis") == "Escolha ao menos um papel."
    d.papeis.caixas["protocolo"].setChecked(True)
    qtbot.keyClick(d.repetir, Qt.Key.Key_Return)
    assert not d.isVisible()
    assert "paula" in _textos(usuarios.modelo)
    with banco.leitura() as s:
        paula = next(u for u in contas.listar_usuarios(s) if u.login == "paula")
    assert paula.papeis == frozenset({"protocolo"}) and paula.nome == "Paula Souza"
    # The administrator chose her password: she must replace it at her first login, as after a reset.
    assert paula.trocar_senha
    with banco.leitura() as s:
        assert contas.precisa_trocar_senha(s, contas.autenticar(banco.uow(), "paula", "protocolo1"))
    d = usuarios.abrir(paula.id)
    d.papeis.caixas["consulta"].setChecked(True)
    d.salvar()
    with banco.leitura() as s:
        assert contas.obter_usuario(s, paula.id).papeis == frozenset({"protocolo", "consulta"})
    linha = _textos(usuarios.modelo).index("paula")
    assert usuarios.modelo.data(usuarios.modelo.index(linha, 2)) == "Consulta, Protocolo"

    # URM table: a value needs its act; then it is listed, newest first.
    urm = area.aba("urm")
    assert isinstance(urm, PainelUrm)
    qtbot.mouseClick(urm.botao_novo, Qt.MouseButton.LeftButton)
    du = urm.dialogo
    assert du is not None
    qtbot.keyClicks(du.vigencia.editor, "01012027")
    qtbot.keyClicks(du.valor, "170,1234")
    du.salvar()
    assert du.erro("ato").startswith("Informe o ato")
    qtbot.keyClicks(du.ato, "Decreto 7300/2026")
    qtbot.keyClick(du.ato, Qt.Key.Key_Return)
    assert _textos(urm.modelo)[0] == "01/01/2027"
    assert urm.modelo.data(urm.modelo.index(0, 1)) == "170,1234"
    with banco.leitura() as s:
        assert valor_urm_em(s, date(2027, 3, 1)) == Decimal("170.1234")

    # Days without office hours: add a decreed day, then remove it after confirming.
    calendario = area.aba("calendario")
    assert isinstance(calendario, PainelCalendario)
    dd = calendario.novo()
    qtbot.keyClicks(dd.data.editor, "13112026")
    qtbot.keyClicks(dd.descricao, "Ponto facultativo")
    dd.salvar()
    assert _textos(calendario.painel.modelo) == ["13/11/2026"]
    assert calendario.painel.modelo.data(calendario.painel.modelo.index(0, 1)) == "sexta-feira"
    calendario.painel.tabela.selectRow(0)
    calendario.remover()
    assert "13/11/2026" in mensagens.responder(QMessageBox.StandardButton.Yes)
    assert _textos(calendario.painel.modelo) == []

    # Catalogue: Art. 1º, X gets its tipo once.
    catalogo = area.aba("catalogo")
    assert isinstance(catalogo, PainelCatalogo)
    assert catalogo.botao_1x.isEnabled()
    d1 = catalogo.definir_1x()
    assert isinstance(d1, DialogoTipo1X)
    d1.tipo.setCurrentIndex(d1.tipo.findData("C"))
    qtbot.keyClicks(d1.ato, "Portaria SMSU 12/2026")
    qtbot.keyClick(d1.ato, Qt.Key.Key_Return)
    assert not catalogo.botao_1x.isEnabled()
    linha_1x = _textos(catalogo.modelo).index("1-X")
    assert catalogo.modelo.data(catalogo.modelo.index(linha_1x, 2)) == "C"
    assert "Portaria SMSU 12/2026" in catalogo.detalhe.toPlainText()

    # Letterhead.
    orgao = area.aba("orgao")
    assert isinstance(orgao, PainelOrgao)
    orgao.secretario_nome.clear()
    orgao.salvar()
    assert orgao.form.mensagem("secretario_nome").startswith("Informe o nome do(a) Secretário(a)")
    qtbot.keyClicks(orgao.secretario_nome, "Maria Lopes")
    orgao.endereco.setText("Rua Lobo da Costa, 1000")
    qtbot.keyClick(orgao.secretario_nome, Qt.Key.Key_Return)
    assert mensagens.responder(QMessageBox.StandardButton.Ok) == "Dados do órgão gravados."
    with banco.leitura() as s:
        assert obter_dados_orgao(s).dados.secretario_nome == "Maria Lopes"

    # Backup now: a checked copy on SQLite; the pg_dump command on PostgreSQL.
    sistema = area.aba("sistema")
    assert isinstance(sistema, PainelSistema)
    destino = tmp_path / "copia.sqlite"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: destino)
    qtbot.mouseClick(sistema.botao_backup, Qt.MouseButton.LeftButton)
    texto = mensagens.responder(QMessageBox.StandardButton.Ok)
    if banco.eh_sqlite:
        assert destino.exists() and "verificação de integridade: ok" in texto
    else:
        assert "pg_dump" in texto and not destino.exists()

    # The audit log shows who changed what, before → after.
    log = area.aba("auditoria")
    assert isinstance(log, PaginaAuditoria)
    log.recarregar()
    log.combo_usuario.setCurrentIndex(log.combo_usuario.findData("ana"))
    acoes = _textos(log.lista.modelo, 3)
    assert acoes[0] == "Editar os dados do órgão" and "Definir tipo dispositivo" in acoes
    assert log.lista.modelo.data(log.lista.modelo.index(0, 4)) == "Dados do órgão"
    log.lista.selecionar_linha(0)
    detalhe = log.detalhe.toPlainText()
    assert "secretario_nome: (vazio) → Maria Lopes" in detalhe and "Por ana em" in detalhe


def test_desativar_e_redefinir_senha(qtbot: QtBot, banco_sqlite: Banco) -> None:
    contexto = _contexto(banco_sqlite)
    uid = contas.criar_usuario(
        banco_sqlite.uow(), contexto.ator, login="bia", nome="Bia", senha="senhaboa1", papeis=["fiscal"]
    )
    pagina = PaginaUsuarios(contexto)
    qtbot.addWidget(pagina)
    d = pagina.abrir(uid)
    assert d.login.isReadOnly() and d.botao_ativo is not None and d.botao_senha is not None
    d.alternar_ativo()
    assert "Desativar a conta bia" in mensagens.responder(QMessageBox.StandardButton.No)
    with banco_sqlite.leitura() as s:
        assert contas.obter_usuario(s, uid).ativo
    d.alternar_ativo()
    mensagens.responder(QMessageBox.StandardButton.Yes)
    assert mensagens.responder(QMessageBox.StandardButton.Ok) == "A conta bia foi desativada."
    assert (
        d.situacao.text().startswith("Desativado")
        and d.botao_ativo.text().replace("&", "") == "Reativar conta"
    )
    linha = _textos(pagina.modelo).index("bia")
    assert pagina.modelo.data(pagina.modelo.index(linha, 3)) == "Inativo"
    d.redefinir_senha()
    ds = d.dialogo_senha
    qtbot.keyClicks(ds.senha, "curta")
    qtbot.keyClicks(ds.repetir, "curta")
    ds.salvar()
    assert ds.erro("nova_senha") == "A senha deve ter pelo menos 8 caracteres."
    ds.senha.setText("novasenha9")
    ds.repetir.setText("novasenha9")
    ds.salvar()
    assert not ds.isVisible()
    contas.definir_ativo(banco_sqlite.uow(), contexto.ator, uid, ativo=True)
    assert contas.autenticar(banco_sqlite.uow(), "bia", "novasenha9").login == "bia"


def test_corrigir_valor_urm_e_dispositivo_contratual(qtbot: QtBot, banco_sqlite: Banco) -> None:
    contexto = _contexto(banco_sqlite)
    painel = PainelUrm(contexto)
    qtbot.addWidget(painel)
    adicionar_valor_urm(
        banco_sqlite.uow(), contexto.ator, vigencia=date(2026, 1, 1), valor=Decimal("164.74"), ato="Decreto 1"
    )
    painel.recarregar()
    painel.tabela.selectRow(0)
    dialogo = painel.abrir(painel.id_selecionado())
    # As the decree reads: two decimals, more only where needed (never "164,7400").
    assert painel.modelo.data(painel.modelo.index(0, 1)) == "164,74"
    assert dialogo is not None and dialogo.valor.text() == "164,74"
    qtbot.keyClicks(dialogo.valor, "x")  # the validator refuses letters
    assert dialogo.valor.text() == "164,74"
    dialogo.valor.setText("164,7412")
    dialogo.salvar()
    assert painel.modelo.data(painel.modelo.index(0, 1)) == "164,7412"

    catalogo = PainelCatalogo(contexto)
    qtbot.addWidget(catalogo)
    d = catalogo.novo()
    assert isinstance(d, DialogoDispositivoContratual)
    qtbot.keyClicks(d.codigo, "1-XXX")
    d.salvar()
    assert "inválido" in d.erro("codigo")
    d.codigo.clear()
    qtbot.keyClicks(d.codigo, "ct-01")
    qtbot.keyClicks(d.texto, "Manter os veiculos limpos")
    d.tipo.setCurrentIndex(d.tipo.findData("E"))
    qtbot.keyClicks(d.ato, "Contrato 14/2016")
    d.salvar()
    assert not d.isVisible()
    assert catalogo.id_selecionado() == "CT-01"
    assert catalogo.botao_excluir.isEnabled()
    catalogo.excluir()
    mensagens.responder(QMessageBox.StandardButton.Yes)
    assert "CT-01" not in _textos(catalogo.modelo)


def test_exclusao_recusada_antes_da_pergunta(qtbot: QtBot, banco: Banco) -> None:
    """A deletion the service would refuse is refused at once, with no "Excluir…?" box asked first; a
    permitted one still asks, and only then deletes."""
    contexto = _contexto(banco)
    usado = adicionar_valor_urm(
        banco.uow(), contexto.ator, vigencia=date(2020, 1, 1), valor=Decimal("100"), ato="Decreto 1"
    )
    livre = adicionar_valor_urm(
        banco.uow(), contexto.ator, vigencia=date(2026, 1, 1), valor=Decimal("164.74"), ato="Decreto 2"
    )
    adicionar_dispositivo_contratual(
        banco.uow(), contexto.ator, origem="contrato", codigo="CT-01", texto="Limpeza.", tipo="E", ato="C 1"
    )
    fabrica.inserir_auto(banco, data_decisao=date(2025, 3, 10), codigo="CT-01")
    painel = PainelUrm(contexto)
    qtbot.addWidget(painel)
    catalogo = PainelCatalogo(contexto)
    qtbot.addWidget(catalogo)
    for tela, chave, trecho in (
        (painel, usado, "10/03/2025"),
        (catalogo, "CT-01", "já foi citado"),
    ):
        tela.recarregar(chave)
        assert tela.id_selecionado() == chave
        tela.excluir()
        caixa = mensagens.caixa_aberta()
        assert caixa is not None and caixa.icon() == QMessageBox.Icon.Warning, trecho
        assert trecho in caixa.text()
        assert "Excluir" not in {b.text().replace("&", "") for b in caixa.buttons()}
        caixa.button(QMessageBox.StandardButton.Ok).click()
        assert mensagens.caixa_aberta() is None
    with banco.leitura() as s:
        assert [v.vigencia for v in tabela_urm(s)] == [date(2020, 1, 1), date(2026, 1, 1)]
        assert "CT-01" in {d.codigo for d in listar_dispositivos(s)}
    painel.recarregar(livre)
    painel.excluir()
    assert "Excluir o valor" in mensagens.responder(QMessageBox.StandardButton.Yes)
    with banco.leitura() as s:
        assert [v.vigencia for v in tabela_urm(s)] == [date(2020, 1, 1)]


def test_modelos_das_tabelas_de_administracao(
    qtmodeltester: ModelTester, qtbot: QtBot, banco_sqlite: Banco
) -> None:
    contexto = _contexto(banco_sqlite)
    adicionar_valor_urm(
        banco_sqlite.uow(), contexto.ator, vigencia=date(2026, 1, 1), valor=Decimal("164.74"), ato="Decreto 1"
    )
    for dia, descricao in (
        (date(2026, 2, 16), "Carnaval"),
        (date(2026, 2, 17), "Carnaval"),
        (date(2026, 12, 24), "Véspera de Natal"),
    ):
        adicionar_dia_nao_util(
            banco_sqlite.uow(), contexto.ator, data=dia, descricao=f"Ponto facultativo — {descricao}"
        )
    for painel in (PainelUrm(contexto), PainelCatalogo(contexto)):
        qtbot.addWidget(painel)
        qtmodeltester.check(painel.modelo)
    calendario = PainelCalendario(contexto)
    qtbot.addWidget(calendario)
    assert calendario.painel.modelo.rowCount() == 3
    qtmodeltester.check(calendario.painel.modelo)


def test_detalhe_da_auditoria_com_datas_brasileiras() -> None:
    from datetime import datetime

    from secretaria.ui.admin.auditoria import descrever

    registro = RegistroAuditoria(
        7,
        datetime(2026, 11, 30, 9, 15, 2),
        "ana",
        "editar_valor_urm",
        "valor_urm",
        "3",
        {"vigencia": "2026-01-01", "ato": "Decreto 1", "alterado_em": "2026-01-02T10:00:00"},
        {"vigencia": "2027-01-01", "ato": "Decreto 1", "alterado_em": "2026-11-30T09:15:02.5"},
    )
    texto = descrever(registro)
    assert texto.splitlines()[:2] == [
        "Editar valor URM — Valor da URM nº 3",
        "Por ana em 30/11/2026 às 09:15:02 (registro nº 7)",
    ]
    assert "vigencia: 01/01/2026 → 01/01/2027" in texto
    assert "ato" not in texto and "alterado_em" not in texto  # unchanged and bookkeeping fields left out


def test_mensagens_no_plural_certo(qtbot: QtBot, banco_sqlite: Banco) -> None:
    contexto = _contexto(banco_sqlite)
    calendario = PainelCalendario(contexto)
    qtbot.addWidget(calendario)
    # The municipal holidays are computed for every year (REGRAS § 4): there is nothing left to seed.
    assert not hasattr(calendario, "incluir_municipais") and not hasattr(calendario, "botao_municipais")
    ajudas = " ".join(r.text() for r in calendario.painel.findChildren(QLabel))
    assert "feriados nacionais, estaduais e municipais" in ajudas and "nunca encurta" in ajudas
    catalogo = PainelCatalogo(contexto)
    qtbot.addWidget(catalogo)
    catalogo.tabela.selectRow(_textos(catalogo.modelo).index("1-X"))
    assert "Ainda não citado em autos ou representações." in catalogo.detalhe.toPlainText()


def test_termo_de_verificacao_pela_janela(
    qtbot: QtBot, banco_sqlite: Banco, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Administração → Auditoria: the term is verified, recorded and saved; a tampered database gets none."""
    from tests.helpers.cidade_auditada import montar

    montar(banco_sqlite)
    pagina = PaginaAuditoria(_contexto(banco_sqlite))
    qtbot.addWidget(pagina)
    destino = tmp_path / "termo.pdf"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: destino)
    qtbot.mouseClick(pagina.botao_termo, Qt.MouseButton.LeftButton)
    # verified and rendered off the GUI thread: the click returned with the work under way
    assert em_andamento(("termo_auditoria",)) == "Termo de verificação"
    texto = mensagens.responder(QMessageBox.StandardButton.Ok)
    assert "Auditoria íntegra. Termo nº 1" in texto and destino.read_bytes().startswith(b"%PDF-")
    assert "Termo de verificação da auditoria" in _textos(pagina.lista.modelo, 4)

    with banco_sqlite.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE decisao SET multa_ur = multa_ur * 10")
    destino.unlink()
    qtbot.mouseClick(pagina.botao_termo, Qt.MouseButton.LeftButton)
    texto = mensagens.responder(QMessageBox.StandardButton.Ok)
    assert "não pode ser emitido" in texto and "multa_ur" in texto and not destino.exists()
