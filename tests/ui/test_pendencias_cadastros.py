"""The clerk's registries on screen: a bus with 0 seats refused beside the field, missing dates warned and
queued, "vence em N dias" on the home page and in the lists, and an operator's records one click away."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from secretaria import relogio
from secretaria.db import Banco
from secretaria.lei.formato import formatar_data
from secretaria.models import Veiculo
from secretaria.services import cadastros, listas
from secretaria.services.base import Ator
from secretaria.ui.cadastros.operadoras import DialogoOperadora, PaginaOperadoras
from secretaria.ui.cadastros.veiculos import DialogoVeiculo, PaginaVeiculos
from secretaria.ui.contexto import Contexto
from secretaria.ui.inicio import PaginaInicio
from secretaria.ui.janela_principal import JanelaPrincipal
from secretaria.ui.lista import PaginaListaServico
from secretaria.ui.modelo_tabela import COR_ALERTA, COR_AVISO
from tests.helpers import apoio_processo as ap
from tests.helpers.fabrica import Roteiro

HOJE = date(2026, 11, 30)
ADMIN = Ator("ana", "Ana Administradora", frozenset({"administrador"}))


@pytest.fixture(autouse=True)
def _hoje(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relogio, "hoje", lambda: HOJE)


def _renavam(base: str) -> str:
    soma = sum(int(c) * p for c, p in zip(base, (3, 2, 9, 8, 7, 6, 5, 4, 3, 2), strict=True))
    return base + str(soma * 10 % 11 % 10)


def _operadora(banco: Banco, **campos: Any) -> int:
    dados = cadastros.DadosOperadora(
        razao_social=campos.pop("razao_social", "Viação Princesa do Sul Ltda."),
        cnpj=campos.pop("cnpj", "11222333000181"),
        logradouro="Rua XV de Novembro",
        **campos,
    )
    return cadastros.criar_operadora(banco.uow(), ADMIN, dados)


def _janela(qtbot: QtBot, contexto: Contexto) -> JanelaPrincipal:
    janela = ap.manter(JanelaPrincipal(contexto))
    qtbot.addWidget(janela)
    janela.resize(1366, 768)
    with qtbot.waitActive(janela):
        janela.show()
    return janela


def _visivel(dialogo: DialogoOperadora) -> bool:
    try:
        return dialogo.isVisible()
    except RuntimeError:  # closed and already deleted (WA_DeleteOnClose)
        return False


def _cor(pagina: PaginaListaServico, linha: int, coluna: str) -> QColor | None:
    indice = pagina.modelo.index(linha, pagina.fonte.definicao.indice(coluna) - 1)
    pincel = pagina.modelo.data(indice, Qt.ItemDataRole.ForegroundRole)
    return None if pincel is None else QColor(pincel.color())


def test_veiculo_sem_lugares_recusado_ao_lado_e_sem_datas_avisado(qtbot: QtBot, banco_sqlite: Banco) -> None:
    _operadora(banco_sqlite)
    contexto = ap.contexto(banco_sqlite, "administrador")
    dialogo = ap.manter(DialogoVeiculo(contexto))
    qtbot.addWidget(dialogo)
    with qtbot.waitActive(dialogo):
        dialogo.show()
    qtbot.keyClicks(dialogo.prefixo, "1001")
    qtbot.keyClicks(dialogo.placa, "iut1e04")
    qtbot.keyClicks(dialogo.renavam, _renavam("7872272249"))
    dialogo.operadora_id.setFocus()
    qtbot.keyClick(dialogo.operadora_id, Qt.Key.Key_Down)
    assert dialogo.operadora_id.currentData() is not None

    # No date yet: a warning (amber), not an error; the seats left at 0: refused beside the field on Enter.
    assert dialogo.aviso_datas.isVisible()
    assert dialogo.aviso_datas.text().startswith("Sem data de vistoria e de licença")
    qtbot.keyClick(dialogo.prefixo, Qt.Key.Key_Return)
    assert dialogo.isVisible()
    assert dialogo.erro("lugares_sentados") == "Informe o número de lugares sentados (maior que zero)."
    assert dialogo.lugares_sentados.hasFocus()
    qtbot.wait(50)  # the layout settles after the message line appears
    ap.salvar_png(dialogo, "veiculo-lugares-e-datas")
    with banco_sqlite.leitura() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(Veiculo)) == 0

    # The licence date typed: the warning names only the inspection; 40 seats typed; Enter saves.
    qtbot.keyClicks(dialogo.licenca_validade.editor, "31012027")
    assert dialogo.aviso_datas.text().startswith("Sem data de vistoria:")
    dialogo.lugares_sentados.selectAll()
    qtbot.keyClicks(dialogo.lugares_sentados, "40")
    qtbot.keyClick(dialogo.lugares_sentados, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not dialogo.isVisible())
    with banco_sqlite.leitura() as s:
        assert s.execute(sa.select(Veiculo.lugares_sentados, Veiculo.vistoria_validade)).one() == (40, None)


def test_inicio_mostra_vencidos_sem_data_e_a_vencer(qtbot: QtBot, banco_sqlite: Banco) -> None:
    vencido = _operadora(banco_sqlite, contrato_numero="12/2016", contrato_fim=date(2026, 10, 3))
    _operadora(
        banco_sqlite,
        razao_social="Transportes Laranjal Ltda.",
        cnpj="11444777000161",
        delegacao="permissao",
        contrato_numero="7/2021",
        contrato_fim=HOJE + timedelta(days=20),
    )
    for i, (vistoria, licenca) in enumerate(
        [
            (HOJE + timedelta(days=12), date(2027, 6, 1)),
            (None, None),
            (date(2027, 6, 1), HOJE + timedelta(days=3)),
        ]
    ):
        cadastros.criar_veiculo(
            banco_sqlite.uow(),
            ADMIN,
            cadastros.DadosVeiculo(
                prefixo=f"10{i}",
                placa=f"IAB1C2{i}",
                renavam=_renavam(f"787227224{i}"),
                operadora_id=vencido,
                lugares_sentados=40,
                vistoria_validade=vistoria,
                licenca_validade=licenca,
            ),
        )
    janela = _janela(qtbot, ap.contexto(banco_sqlite, "administrador"))
    inicio = janela.pagina_atual()
    assert isinstance(inicio, PaginaInicio)

    inicio.selecionar_fila("veiculos_a_vencer")
    textos = [inicio.modelo.data(inicio.modelo.index(r, 4)) for r in range(inicio.modelo.rowCount())]
    assert textos == [
        f"Licença vence em 3 dias ({formatar_data(HOJE + timedelta(days=3))})",
        f"Vistoria vence em 12 dias ({formatar_data(HOJE + timedelta(days=12))})",
    ]
    ap.salvar_png(janela, "inicio-vence-em")
    inicio.selecionar_fila("veiculos_vencidos")
    assert inicio.modelo.data(inicio.modelo.index(0, 4)) == "Sem data de vistoria; sem licença"

    inicio.selecionar_fila("contratos_a_vencer")
    assert [inicio.modelo.data(inicio.modelo.index(r, 4)) for r in range(2)] == [
        "Contrato vencido em 03/10/2026",
        f"Permissão vence em 20 dias ({formatar_data(HOJE + timedelta(days=20))})",
    ]
    vermelho = inicio.modelo.data(inicio.modelo.index(0, 4), Qt.ItemDataRole.ForegroundRole)
    assert vermelho is not None and QColor(vermelho.color()).name() == "#b00020"
    assert inicio.modelo.data(inicio.modelo.index(1, 4), Qt.ItemDataRole.ForegroundRole) is None
    # Enter on the expired contract opens its operator.
    inicio.tabela.setFocus()
    inicio.tabela.selectRow(0)
    qtbot.keyClick(inicio.tabela, Qt.Key.Key_Return)
    aberto = ap.esperar_dialogo(qtbot, DialogoOperadora)
    assert aberto.registro_id == vencido
    assert "contrato vencido em 03/10/2026" in aberto.situacao.text()
    ap.salvar_png(aberto, "operadora-contrato-vencido-dialogo")
    aberto.reject()

    # The vehicles list: amber for an expiry within 30 days, red for missing dates, the reason in Situação.
    qtbot.keyClick(janela, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    veiculos = janela.pagina_atual()
    assert isinstance(veiculos, PaginaVeiculos)
    qtbot.waitUntil(lambda: veiculos.modelo.rowCount() == 3)
    coluna = veiculos.fonte.definicao.indice("situacao") - 1
    por_prefixo = {
        veiculos.modelo.data(veiculos.modelo.index(r, 0)): (
            veiculos.modelo.data(veiculos.modelo.index(r, coluna)),
            _cor(veiculos, r, "situacao"),
        )
        for r in range(3)
    }
    assert por_prefixo == {
        "100": ("Ativo — vistoria vence em 12 dias", COR_AVISO),
        "101": ("Ativo — sem data de vistoria; sem licença", COR_ALERTA),
        "102": ("Ativo — licença vence em 3 dias", COR_AVISO),
    }
    qtbot.wait(100)
    ap.salvar_png(janela, "veiculos-vencimentos")


def test_lista_de_operadoras_destaca_contrato_vencido_e_a_vencer(qtbot: QtBot, banco_sqlite: Banco) -> None:
    _operadora(banco_sqlite, contrato_numero="12/2016", contrato_fim=date(2026, 10, 3))
    _operadora(
        banco_sqlite,
        razao_social="Transportes Laranjal Ltda.",
        cnpj="11444777000161",
        contrato_numero="7/2021",
        contrato_fim=HOJE + timedelta(days=12),
    )
    _operadora(
        banco_sqlite, razao_social="Expresso Fragata", cnpj="11222333000262", contrato_fim=date(2031, 1, 1)
    )
    janela = _janela(qtbot, ap.contexto(banco_sqlite, "administrador"))
    qtbot.keyClick(janela, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    area = janela.pagina_atual()
    assert isinstance(area, PaginaOperadoras)
    pagina = area.operadoras
    qtbot.waitUntil(lambda: pagina.modelo.rowCount() == 3)
    coluna = pagina.fonte.definicao.indice("situacao") - 1
    por_nome = {
        pagina.modelo.data(pagina.modelo.index(r, 0)): (
            pagina.modelo.data(pagina.modelo.index(r, coluna)),
            _cor(pagina, r, "situacao"),
        )
        for r in range(3)
    }
    qtbot.wait(100)  # the columns fit their contents after the first page is shown
    ap.salvar_png(janela, "operadoras-contrato-vencido")
    assert por_nome["Viação Princesa do Sul Ltda."] == ("Ativa — contrato vencido", COR_ALERTA)
    texto, cor = por_nome["Transportes Laranjal Ltda."]
    assert texto == "Ativa — contrato vence em 12 dias" and cor == COR_AVISO
    assert por_nome["Expresso Fragata"] == ("Ativa", None)


@pytest.mark.parametrize("lista", ["veiculos", "linhas", "empregados", "autos"])
def test_da_operadora_um_clique_para_seus_registros(
    qtbot: QtBot, banco: Banco, roteiro: Roteiro, lista: str
) -> None:
    c = roteiro.cidade
    for dia in (date(2026, 11, 2), date(2026, 11, 3)):
        roteiro.lavrar(data_infracao=dia)
    roteiro.lavrar(data_infracao=date(2026, 11, 4), operadora_id=c.operadora2_id)
    janela = _janela(qtbot, ap.contexto(banco, "administrador", "fiscal"))
    qtbot.keyClick(janela, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    area = janela.pagina_atual()
    assert isinstance(area, PaginaOperadoras)
    operadoras = area.operadoras
    qtbot.waitUntil(lambda: operadoras.modelo.rowCount() == 2)
    linha = next(r for r in range(2) if operadoras.modelo.id_da_linha(r) == c.operadora_id)
    operadoras.tabela.setFocus()
    operadoras.selecionar_linha(linha)
    qtbot.keyClick(operadoras.tabela, Qt.Key.Key_Return)
    dialogo = operadoras.dialogo
    assert isinstance(dialogo, DialogoOperadora) and dialogo.registro_id == c.operadora_id

    with banco.leitura() as s:
        esperados = {
            r[0] for r in listas.pagina(s, lista, listas.Filtro(operadora_id=c.operadora_id), quantidade=1000)
        }
        outros = {r[0] for r in listas.pagina(s, lista, quantidade=1000)} - esperados
    assert esperados and outros  # the other operator has rows too, which must not show
    botao = dialogo.vinculos[lista]
    assert botao.text().endswith(f"({len(esperados)})")
    if lista == "veiculos":
        ap.salvar_png(dialogo, "operadora-vinculos")
    if lista == "autos":  # by keyboard: the button's mnemonic (Alt+A)
        qtbot.waitUntil(lambda: QApplication.activeWindow() is dialogo)
        qtbot.keyClick(dialogo, Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier)
    else:
        qtbot.mouseClick(botao, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not _visivel(dialogo))

    pagina = area.linhas if lista == "linhas" else janela.pagina_atual()
    assert isinstance(pagina, PaginaListaServico)
    if lista == "linhas":
        assert janela.pagina_atual() is area and area.abas.currentWidget() is area.linhas
    if lista == "veiculos":
        assert isinstance(pagina, PaginaVeiculos)
    qtbot.waitUntil(lambda: pagina.modelo.rowCount() == len(esperados))
    mostrados = {pagina.modelo.id_da_linha(r) for r in range(pagina.modelo.rowCount())}
    assert mostrados == esperados
    assert pagina.combo_operadora is not None and pagina.combo_operadora.currentData() == c.operadora_id
