"""PRODUTO path 1 (registries) driven through the window: type, click, then check what the user sees and
what the services saved."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox, QWidget
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from secretaria import relogio
from secretaria.db import Banco
from secretaria.services import cadastros
from secretaria.services.base import SISTEMA
from secretaria.services.contas import autenticar, criar_usuario
from secretaria.ui.cadastros.base import DialogoCadastro
from secretaria.ui.cadastros.empregados import DialogoEmpregado, PaginaEmpregados
from secretaria.ui.cadastros.fiscais import DialogoFiscal, PaginaFiscais
from secretaria.ui.cadastros.operadoras import DialogoLinha, DialogoOperadora, PaginaOperadoras
from secretaria.ui.cadastros.veiculos import DialogoVeiculo, PaginaVeiculos
from secretaria.ui.contexto import Contexto
from secretaria.ui.janela_principal import JanelaPrincipal
from secretaria.ui.lista import FonteLista, PaginaLista
from secretaria.ui.modelo_tabela import ModeloTabela
from secretaria.ui.widgets import arquivos, mensagens

HOJE = date(2026, 11, 30)
CNPJ = "11222333000181"
CPF = "52998224725"


def renavam(base: str) -> str:
    soma = sum(int(c) * p for c, p in zip(base, (3, 2, 9, 8, 7, 6, 5, 4, 3, 2), strict=True))
    return base + str(soma * 10 % 11 % 10)


@pytest.fixture(autouse=True)
def _hoje(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relogio, "hoje", lambda: HOJE)


def _contexto(banco: Banco, login: str = "ana", papeis: tuple[str, ...] = ("administrador",)) -> Contexto:
    criar_usuario(
        banco.uow(), SISTEMA, login=login, nome=login.capitalize(), senha="segredo123", papeis=papeis
    )
    return Contexto(banco, autenticar(banco.uow(), login, "segredo123"))


def _janela(qtbot: QtBot, contexto: Contexto) -> JanelaPrincipal:
    janela = JanelaPrincipal(contexto)
    qtbot.addWidget(janela)
    with qtbot.waitActive(janela):
        janela.show()
    return janela


def _linhas_visiveis(pagina: PaginaLista, coluna: int = 0) -> list[str]:
    m = pagina.modelo
    return [m.data(m.index(i, coluna)) for i in range(m.rowCount())]


def _salvar(qtbot: QtBot, dialogo: DialogoCadastro, campo: QWidget) -> None:
    """Press Enter in a field: the dialog's default button saves."""
    qtbot.keyClick(campo, Qt.Key.Key_Return)


def test_caminho_1_cadastros_pela_janela(
    qtbot: QtBot, banco: Banco, digitar: Callable[[QWidget, str], None]
) -> None:
    janela = _janela(qtbot, _contexto(banco))
    qtbot.keyClick(janela, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    area = janela.pagina_atual()
    assert isinstance(area, PaginaOperadoras)
    pagina = area.operadoras
    assert pagina.contagem.text() == "nenhuma operadora"

    # A new operator: a wrong CNPJ is refused beside the field and nothing is written.
    qtbot.mouseClick(pagina.botao_novo, Qt.MouseButton.LeftButton)
    d = pagina.dialogo
    assert isinstance(d, DialogoOperadora) and d.isVisible()
    digitar(d.razao_social, "Viação Princesa do Sul Ltda.")
    qtbot.keyClicks(d.nome_fantasia, "Princesa do Sul")
    qtbot.keyClicks(d.cnpj, "11222333000100")
    qtbot.keyClicks(d.logradouro, "Rua XV de Novembro")
    qtbot.keyClicks(d.numero_endereco, "100")
    qtbot.keyClicks(d.representante_nome, "Carlos Representante")
    qtbot.keyClicks(d.representante_cpf, CPF)
    qtbot.keyClicks(d.contrato_inicio.editor, "01022016")
    _salvar(qtbot, d, d.razao_social)
    assert d.isVisible()
    assert d.erro("cnpj") == "O dígito verificador do CNPJ não confere."
    assert d.focusWidget() is d.cnpj  # the field in error gets the focus
    with banco.leitura() as s:
        assert cadastros.opcoes_operadoras(s) == []
    d.cnpj.clear()
    qtbot.keyClicks(d.cnpj, CNPJ)
    _salvar(qtbot, d, d.cnpj)
    assert not d.isVisible()
    assert _linhas_visiveis(pagina) == ["Viação Princesa do Sul Ltda."]
    assert pagina.contagem.text() == "1 operadora"
    assert pagina.modelo.data(pagina.modelo.index(0, 2)) == "11.222.333/0001-81"
    with banco.leitura() as s:
        operadora_id = cadastros.opcoes_operadoras(s)[0].id
        salva = cadastros.obter_operadora(s, operadora_id)
    assert salva.dados.representante_cpf == CPF and salva.dados.contrato_inicio == date(2016, 2, 1)
    assert salva.situacao.startswith("ativa")

    # A line of that operator (second tab).
    area.abas.setCurrentIndex(1)
    linhas = area.linhas
    qtbot.mouseClick(linhas.botao_novo, Qt.MouseButton.LeftButton)
    dl = linhas.dialogo
    assert isinstance(dl, DialogoLinha)
    qtbot.keyClicks(dl.codigo, "404")
    qtbot.keyClicks(dl.nome, "Centro / Pontal da Barra")
    dl.operadora_id.setCurrentIndex(1)
    _salvar(qtbot, dl, dl.nome)
    assert _linhas_visiveis(linhas) == ["404"]

    # A vehicle: Ctrl+3, new, plate in Mercosul form, in service on that line.
    qtbot.keyClick(janela, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    veiculos = janela.pagina_atual()
    assert isinstance(veiculos, PaginaVeiculos)
    qtbot.mouseClick(veiculos.botao_novo, Qt.MouseButton.LeftButton)
    dv = veiculos.dialogo
    assert isinstance(dv, DialogoVeiculo)
    qtbot.keyClicks(dv.prefixo, "01001")
    qtbot.keyClicks(dv.placa, "iut1e04")
    qtbot.keyClicks(dv.renavam, renavam("7872272249"))
    dv.operadora_id.setCurrentIndex(1)
    dv.linha_id.setCurrentIndex(1)
    dv.lugares_sentados.setValue(39)
    dv.lugares_em_pe.setValue(44)
    qtbot.keyClicks(dv.vistoria_validade.editor, "20112027")
    dv.data_mudanca.definir_data(date(2026, 1, 10))
    _salvar(qtbot, dv, dv.prefixo)
    assert not dv.isVisible(), dv.form.mensagem("")
    assert _linhas_visiveis(veiculos)[:1] == ["01001"]
    assert veiculos.modelo.data(veiculos.modelo.index(0, 1)) == "IUT1E04"
    qtbot.keyClicks(veiculos.busca, "IUT-1")  # search as you type, either plate form
    qtbot.waitUntil(lambda: veiculos.contagem.text() == "1 veículo")

    # An employee: the CPF is refused when it does not check, then saved.
    qtbot.keyClick(janela, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    empregados = janela.pagina_atual()
    assert isinstance(empregados, PaginaEmpregados)
    qtbot.mouseClick(empregados.botao_novo, Qt.MouseButton.LeftButton)
    de = empregados.dialogo
    assert isinstance(de, DialogoEmpregado)
    digitar(de.nome, "João da Silva")
    qtbot.keyClicks(de.cpf, "52998224700")
    de.operadora_id.setCurrentIndex(1)
    qtbot.keyClicks(de.carteira_cadastro, "SMSU-001")
    qtbot.keyClicks(de.admissao.editor, "02032020")
    _salvar(qtbot, de, de.nome)
    assert "CPF" in de.erro("cpf") and de.isVisible()
    de.cpf.clear()
    qtbot.keyClicks(de.cpf, CPF)
    _salvar(qtbot, de, de.nome)
    assert _linhas_visiveis(empregados) == ["João da Silva"]

    # An SMSU inspector.
    qtbot.keyClick(janela, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    fiscais = janela.pagina_atual()
    assert isinstance(fiscais, PaginaFiscais)
    qtbot.mouseClick(fiscais.botao_novo, Qt.MouseButton.LeftButton)
    df = fiscais.dialogo
    assert isinstance(df, DialogoFiscal)
    qtbot.keyClicks(df.nome, "Valdir Nogueira")
    qtbot.keyClicks(df.matricula, "17.687-0")
    _salvar(qtbot, df, df.matricula)
    assert _linhas_visiveis(fiscais) == ["Valdir Nogueira"]
    assert fiscais.modelo.data(fiscais.modelo.index(0, 2)) == "Ativo"

    # Every change is in the audit log.
    with banco.leitura() as s:
        from secretaria.services import listas

        acoes = [r[4] for r in listas.pagina(s, "auditoria", None, ("id", True), 0, 100)]
    assert len([a for a in acoes if a]) >= 5


def test_editar_veiculo_troca_de_operadora_fica_no_historico(qtbot: QtBot, banco_sqlite: Banco) -> None:
    contexto = _contexto(banco_sqlite)
    ator = contexto.ator
    op = [
        cadastros.criar_operadora(
            banco_sqlite.uow(),
            ator,
            cadastros.DadosOperadora(razao_social=nome, cnpj=cnpj, logradouro="Rua A"),
        )
        for nome, cnpj in (("Alfa Ltda.", CNPJ), ("Beta Ltda.", "11444777000161"))
    ]
    vid = cadastros.criar_veiculo(
        banco_sqlite.uow(),
        ator,
        cadastros.DadosVeiculo(
            prefixo="10",
            placa="ABC1234",
            renavam=renavam("1234567890"),
            operadora_id=op[0],
            lugares_sentados=40,
        ),
        em_servico_desde=date(2025, 1, 1),
    )
    pagina = PaginaVeiculos(contexto)
    qtbot.addWidget(pagina)
    pagina.show()
    pagina.selecionar_linha(0)
    pagina.abrir_selecionado()
    d = pagina.dialogo
    assert isinstance(d, DialogoVeiculo)
    assert d.placa.text() == "ABC-1234"
    assert not d.data_mudanca.isEnabled()
    d.operadora_id.setCurrentIndex(d.operadora_id.findData(op[1]))
    assert d.data_mudanca.isEnabled()
    d.data_mudanca.limpar()
    qtbot.keyClicks(d.data_mudanca.editor, "15062026")
    d.salvar()
    assert not d.isVisible()
    with banco_sqlite.leitura() as s:
        historico = cadastros.historico_veiculo(s, vid)
    assert [(p.operadora_nome, p.inicio, p.fim) for p in historico] == [
        ("Alfa Ltda.", date(2025, 1, 1), date(2026, 6, 15)),
        ("Beta Ltda.", date(2026, 6, 15), None),
    ]
    pagina.abrir(vid)
    assert pagina.dialogo is not None
    assert isinstance(pagina.dialogo, DialogoVeiculo)
    assert pagina.dialogo.modelo_historico.rowCount() == 2


def test_edicao_concorrente_e_recusada(qtbot: QtBot, banco_sqlite: Banco) -> None:
    contexto = _contexto(banco_sqlite)
    oid = cadastros.criar_operadora(
        banco_sqlite.uow(),
        contexto.ator,
        cadastros.DadosOperadora(razao_social="Alfa Ltda.", cnpj=CNPJ, logradouro="Rua A"),
    )
    primeiro = DialogoOperadora(contexto, oid)
    segundo = DialogoOperadora(contexto, oid)
    qtbot.addWidget(primeiro)
    qtbot.addWidget(segundo)
    primeiro.bairro.setText("Centro")
    primeiro.salvar()
    segundo.bairro.setText("Fragata")
    segundo.salvar()
    assert segundo.faixa is not None and segundo.faixa.botao.isVisibleTo(segundo)  # "Recarregar"
    assert "foi alterado por ana" in segundo.faixa.texto.text()
    with banco_sqlite.leitura() as s:
        assert cadastros.obter_operadora(s, oid).dados.bairro == "Centro"


def test_consulta_ve_mas_nao_edita(qtbot: QtBot, banco_sqlite: Banco) -> None:
    admin = _contexto(banco_sqlite)
    oid = cadastros.criar_operadora(
        banco_sqlite.uow(),
        admin.ator,
        cadastros.DadosOperadora(razao_social="Alfa Ltda.", cnpj=CNPJ, logradouro="Rua A"),
    )
    consulta = _contexto(banco_sqlite, "clara", ("consulta",))
    area = PaginaOperadoras(consulta)
    qtbot.addWidget(area)
    area.show()
    assert not area.operadoras.botao_novo.isVisible()
    d = area.operadoras.abrir(oid)
    assert isinstance(d, DialogoOperadora)
    assert d.razao_social.isReadOnly() and not d.delegacao.isEnabled()
    assert [b.text().replace("&", "") for b in d.botoes.buttons()] == ["Fechar"]
    assert d.botoes.button(QDialogButtonBox.StandardButton.Close) is not None


def test_modelos_das_listas_de_cadastro(qtmodeltester: ModelTester, banco_sqlite: Banco) -> None:
    contexto = _contexto(banco_sqlite)
    for nome, cnpj in (("Alfa Ltda.", CNPJ), ("Beta Ltda.", "11444777000161")):
        cadastros.criar_operadora(
            banco_sqlite.uow(),
            contexto.ator,
            cadastros.DadosOperadora(razao_social=nome, cnpj=cnpj, logradouro="Rua A"),
        )
    for lista in ("operadoras", "linhas", "veiculos", "empregados", "fiscais", "usuarios", "auditoria"):
        qtmodeltester.check(ModeloTabela(FonteLista(banco_sqlite, lista)))


def test_exportar_operadoras_visiveis(
    qtbot: QtBot, banco_sqlite: Banco, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from openpyxl import load_workbook

    contexto = _contexto(banco_sqlite)
    for nome, cnpj in (("Alfa Ltda.", CNPJ), ("Beta Ltda.", "11444777000161")):
        cadastros.criar_operadora(
            banco_sqlite.uow(),
            contexto.ator,
            cadastros.DadosOperadora(razao_social=nome, cnpj=cnpj, logradouro="Rua A"),
        )
    destino = tmp_path / "operadoras.xlsx"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: destino)
    area = PaginaOperadoras(contexto)
    qtbot.addWidget(area)
    area.show()
    area.operadoras.busca.setText("beta")
    area.operadoras.exportar()
    assert "1 linha" in mensagens.responder(QMessageBox.StandardButton.Ok)
    linhas = list(load_workbook(destino).active.iter_rows(values_only=True))
    assert linhas[0][:3] == ("Razão social", "Nome fantasia", "CNPJ")
    assert linhas[1][0] == "Beta Ltda." and linhas[1][2] == "11.444.777/0001-61"
