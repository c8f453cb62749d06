"""The import dialog, driven with keyboard and mouse: choose a file, map an unrecognised column,
see the preview with the problems in red, import only the valid rows, save the rejected rows; Cancelar
writes nothing; the registry pages and Administração open it."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QMessageBox, QProgressDialog
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.importacao import cadastros as servico_cadastros
from secretaria.ui import importacao
from secretaria.ui.importacao import DialogoImportacao
from secretaria.ui.modelo_tabela import FiltroTabela
from secretaria.ui.widgets import arquivos, mensagens
from tests.helpers.apoio_processo import contexto
from tests.helpers.fabrica import contagens, popular
from tests.ui.test_teclado import alt_repetidos

RENDER = os.environ.get("SECRETARIA_RENDER_DIR")


def _xlsx(caminho: Path, linhas: list[list[Any]]) -> Path:
    livro = openpyxl.Workbook()
    ws = livro.active
    assert ws is not None
    for linha in linhas:
        ws.append(linha)
    livro.save(caminho)
    return caminho


def _arquivo_fiscais(tmp_path: Path) -> Path:
    return _xlsx(
        tmp_path / "fiscais.xlsx",
        [
            ["Quem", "Matrícula", "Situação"],
            ["Rui Barbosa", "SMSU-010", "Sim"],
            ["Sem Matrícula", "", "Sim"],
            ["Ana Nery", "SMSU-011", "talvez"],
            ["Rui Repetido", "smsu-010", "Não"],
            ["Clara Nunes", "SMSU-012", "Não"],
        ],
    )


def _guardar(dialogo: DialogoImportacao, nome: str) -> None:
    if RENDER:
        dialogo.resize(1366, 768)
        dialogo.grab().save(str(Path(RENDER) / f"h17-{nome}.png"))


def _ativar(qtbot: QtBot, dialogo: DialogoImportacao) -> None:
    with qtbot.waitActive(dialogo):
        dialogo.show()
        dialogo.activateWindow()


def _sem_progresso() -> bool:
    return not any(isinstance(w, QProgressDialog) and w.isVisible() for w in QApplication.topLevelWidgets())


def _esperar_previa(qtbot: QtBot, dialogo: DialogoImportacao) -> None:
    qtbot.waitUntil(
        lambda: dialogo.previa is not None or mensagens.caixa_aberta() is not None, timeout=30_000
    )
    qtbot.waitUntil(_sem_progresso)


@pytest.fixture
def base(banco: Banco) -> Banco:
    popular(banco)
    return banco


def test_mapear_previa_importar_validas_e_salvar_recusadas(
    base: Banco, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    arquivo = _arquivo_fiscais(tmp_path)
    monkeypatch.setattr(arquivos, "abrir_arquivo", lambda *a, **k: arquivo)
    dialogo = DialogoImportacao(contexto(base, "administrador"), "fiscais")
    qtbot.addWidget(dialogo)
    dialogo.show()
    qtbot.mouseClick(dialogo.botao_arquivo, Qt.MouseButton.LeftButton)
    # "Quem" is not a known header and "Nome" is required: the file is refused until it is mapped.
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None, timeout=30_000)
    assert "não tem a coluna obrigatória: Nome" in mensagens.responder(QMessageBox.StandardButton.Ok)
    assert dialogo.grupo_mapa.isVisible()
    combo = dialogo._combos_mapa["Quem"]
    _guardar(dialogo, "mapeamento")
    combo.setFocus()
    combo.setCurrentIndex(combo.findData("nome"))
    combo.activated.emit(combo.currentIndex())
    _esperar_previa(qtbot, dialogo)
    p = dialogo.previa
    assert p is not None
    assert [linha.acao for linha in p.linhas] == ["nova", "recusada", "recusada", "recusada", "nova"]
    assert "2 novas, 0 atualizadas, 0 sem alteração, 3 recusadas" in dialogo.resumo.text()
    assert dialogo.modelo is not None and dialogo.modelo.rowCount() == 5
    indice = dialogo.modelo.index(1, 2)
    assert "Informe a matrícula." in dialogo.modelo.data(indice)
    assert dialogo.modelo.data(indice, Qt.ItemDataRole.ForegroundRole) is not None  # red
    _guardar(dialogo, "previa")
    # Nothing cut that fits: each of the file's headers whole, the problems as wide as they need (to 720 px).
    cabecalho = dialogo.tabela.horizontalHeader()
    for coluna in range(3, dialogo.modelo.columnCount()):
        assert dialogo.tabela.columnWidth(coluna) >= cabecalho.sectionSizeFromContents(coluna).width()
    assert dialogo.tabela.columnWidth(2) >= min(720, dialogo.tabela.sizeHintForColumn(2))
    # Refused rows: "Importar" waits for "somente as linhas válidas".
    assert not dialogo.botao_importar.isEnabled()
    assert alt_repetidos(dialogo) == {}
    _ativar(qtbot, dialogo)
    dialogo.tabela.setFocus()
    qtbot.keyClick(dialogo.tabela, Qt.Key.Key_S, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(dialogo.so_validas.isChecked)  # a mnemonic clicks with Qt's animateClick
    assert dialogo.botao_importar.isEnabled()

    antes = contagens(base)
    qtbot.mouseClick(dialogo.botao_importar, Qt.MouseButton.LeftButton)
    assert "2 novas" in mensagens.responder(QMessageBox.StandardButton.No)  # confirmation: "Cancelar"
    assert contagens(base) == antes
    qtbot.mouseClick(dialogo.botao_importar, Qt.MouseButton.LeftButton)
    mensagens.responder(QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(lambda: dialogo.resultado is not None, timeout=30_000)
    assert dialogo.resultado is not None and dialogo.resultado.novas == 2
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None)
    _guardar(dialogo, "resumo")
    destino = tmp_path / "recusadas.xlsx"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: destino)
    assert "3 recusadas" in mensagens.responder(QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(lambda: destino.exists())
    linhas = list(openpyxl.load_workbook(destino).worksheets[0].iter_rows(values_only=True))
    assert linhas[0][-1] == "Motivo da recusa"
    assert [r[0] for r in linhas[1:]] == ["Sem Matrícula", "Ana Nery", "Rui Repetido"]
    assert "Linha repetida" in str(linhas[3][-1])
    mensagens.responder(QMessageBox.StandardButton.Ok)
    assert not dialogo.botao_importar.isEnabled()  # imported: once


def test_cancelar_nao_grava_nada(
    base: Banco, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    linhas: list[list[Any]] = [["Nome", "Matrícula"]]
    linhas += [[f"Fiscal {i}", f"M-{i}"] for i in range(1500)]
    arquivo = _xlsx(tmp_path / "muitos.xlsx", linhas)
    dialogo = DialogoImportacao(contexto(base, "administrador"), "fiscais")
    qtbot.addWidget(dialogo)
    dialogo.show()
    dialogo.abrir(arquivo)
    _esperar_previa(qtbot, dialogo)
    antes = contagens(base)
    original = servico_cadastros._gravar

    def devagar(*args: Any, **kwargs: Any) -> None:
        progresso = args[-1]
        progresso(0, 1, "Gravando")
        dialogo.tarefa.cancelar()  # type: ignore[union-attr]  # the user presses Cancelar
        original(*args, **kwargs)

    monkeypatch.setattr(servico_cadastros, "_gravar", devagar)
    dialogo.importar_agora()
    qtbot.waitUntil(lambda: "nada" in dialogo.resumo.text().lower(), timeout=30_000)
    assert dialogo.resultado is None
    assert contagens(base) == antes


def test_baixar_modelo(base: Banco, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    destino = tmp_path / "modelo.xlsx"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *a, **k: destino)
    dialogo = DialogoImportacao(contexto(base, "administrador"), "veiculos")
    qtbot.addWidget(dialogo)
    _ativar(qtbot, dialogo)
    qtbot.keyClick(dialogo.tipo, Qt.Key.Key_M, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None)
    assert "gravado" in mensagens.responder(QMessageBox.StandardButton.Ok)
    livro = openpyxl.load_workbook(io.BytesIO(destino.read_bytes()))
    assert livro.sheetnames == ["Dados", "Notas"]
    assert livro["Dados"]["B1"].value == "Placa"


def test_paginas_de_cadastro_e_administracao_abrem_a_importacao(base: Banco, qtbot: QtBot) -> None:
    from secretaria.ui.admin import PaginaAdministracao
    from secretaria.ui.cadastros.veiculos import PaginaVeiculos

    ctx = contexto(base, "administrador")
    pagina = PaginaVeiculos(ctx)
    qtbot.addWidget(pagina)
    assert pagina.botao_importar is not None
    qtbot.mouseClick(pagina.botao_importar, Qt.MouseButton.LeftButton)
    dialogo = pagina.findChild(DialogoImportacao)
    assert dialogo is not None and dialogo.tipo_atual == "veiculos"
    dialogo.close()

    consulta = PaginaVeiculos(contexto(base, "consulta"))
    qtbot.addWidget(consulta)
    assert consulta.botao_importar is None

    admin = PaginaAdministracao(ctx)
    qtbot.addWidget(admin)
    painel = admin.aba("importacao")
    assert isinstance(painel, importacao_admin().PainelImportacao)
    qtbot.mouseClick(painel.botoes["autos"], Qt.MouseButton.LeftButton)
    assert painel.dialogo is not None and painel.dialogo.tipo_atual == "autos"
    combos = painel.dialogo.findChildren(QComboBox)
    assert combos
    painel.dialogo.close()


def importacao_admin() -> Any:
    from secretaria.ui.admin import importacao as modulo

    return modulo


def test_modelo_da_previa_passa_no_qtmodeltester(
    base: Banco, qtbot: QtBot, qtmodeltester: Any, tmp_path: Path
) -> None:
    dialogo = DialogoImportacao(contexto(base, "administrador"), "fiscais")
    qtbot.addWidget(dialogo)
    dialogo.abrir(_xlsx(tmp_path / "f.xlsx", [["Nome", "Matrícula"], ["A", "1"], ["B", ""]]))
    _esperar_previa(qtbot, dialogo)
    assert dialogo.modelo is not None
    qtmodeltester.check(dialogo.modelo)
    assert dialogo.previa is not None
    assert importacao.FontePrevia(dialogo.previa).contar(FiltroTabela(situacao="recusada")) == 1


def test_tela_do_caso_diz_que_o_auto_foi_importado(base: Banco, qtbot: QtBot) -> None:
    import sqlalchemy as sa

    from secretaria.models import AutoInfracao
    from secretaria.services.base import Ator
    from secretaria.services.importacao.leitura import ler_conteudo
    from secretaria.services.importacao.servico import importar
    from secretaria.ui.processo.tela_caso import TelaCaso
    from tests.helpers import apoio_processo as ap

    livro = openpyxl.Workbook()
    ws = livro.active
    assert ws is not None
    ws.append(
        ["Número do auto", "CNPJ da operadora", "Dispositivo", "Data da infração", "Matrícula do fiscal"]
    )
    ws.append(["0031/2025", "11222333000181", "Art. 1º, VI", "10/02/2025", "SMSU-001"])
    conteudo = io.BytesIO()
    livro.save(conteudo)
    planilha = ler_conteudo(conteudo.getvalue(), "livro-2025.xlsx")
    importar(base.uow(), Ator("ana", "Ana", frozenset({"administrador"})), "autos", planilha)
    with base.leitura() as s:
        auto_id = s.scalar(sa.select(AutoInfracao.id).where(AutoInfracao.numero == 31))
    assert auto_id is not None
    tela = ap.manter(TelaCaso(ap.contexto(base), auto_id))
    qtbot.addWidget(tela)
    tela.show()
    assert "Importado de livro-2025.xlsx em 30/11/2026" in tela.penalidade.text()
    if RENDER:
        tela.resize(1366, 768)
        tela.grab().save(str(Path(RENDER) / "h17-caso-importado.png"))


# -- the office's own files through the window ------------------------------------------------------------


def _png(widget: Any, nome: str) -> None:
    """At 1366×768, for the engineer to look at (always written under /tmp: a few KB)."""
    widget.resize(1366, 768)
    widget.grab().save(str(Path(RENDER or "/tmp") / f"h25-{nome}.png"))


def _abrir(qtbot: QtBot, base: Banco, tipo: str, caminho: Path) -> DialogoImportacao:
    dialogo = DialogoImportacao(contexto(base, "administrador"), tipo)
    qtbot.addWidget(dialogo)
    dialogo.show()
    dialogo.abrir(caminho)
    _esperar_previa(qtbot, dialogo)
    return dialogo


def _importar_pela_janela(qtbot: QtBot, dialogo: DialogoImportacao) -> None:
    qtbot.mouseClick(dialogo.botao_importar, Qt.MouseButton.LeftButton)
    mensagens.responder(QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(lambda: dialogo.resultado is not None, timeout=30_000)
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None)
    assert dialogo.resultado is not None
    # With refused rows the window offers to save them ("Agora não"); else it just says what was done.
    recusadas = bool(dialogo.resultado.recusadas)
    mensagens.responder(QMessageBox.StandardButton.No if recusadas else QMessageBox.StandardButton.Ok)


def test_planilhas_do_orgao_pela_janela_toda_coluna_trocavel_e_presuncao(
    base: Banco, qtbot: QtBot, tmp_path: Path
) -> None:
    import sqlalchemy as sa

    from secretaria.models import AutoInfracao, Veiculo
    from tests.helpers import livros

    for tipo, conteudo in (("operadoras", livros.operadoras()), ("fiscais", livros.fiscais())):
        caminho = tmp_path / f"{tipo}.xlsx"
        caminho.write_bytes(conteudo)
        dialogo = _abrir(qtbot, base, tipo, caminho)
        assert dialogo.previa is not None and not dialogo.previa.recusadas
        _importar_pela_janela(qtbot, dialogo)

    frota = tmp_path / "frota.xlsx"
    frota.write_bytes(livros.veiculos())
    dialogo = _abrir(qtbot, base, "veiculos", frota)
    assert "Lida a aba “Frota”; outras abas: Listas (oculta)." in dialogo.resumo.text()
    assert dialogo.aba.currentText() == "Frota"
    # Every column of the file is listed with its field, the recognised ones too, and each can be changed.
    assert list(dialogo._combos_mapa) == list(dialogo.previa.cabecalhos)  # type: ignore[union-attr]
    licenca = dialogo._combos_mapa["Venc. Licença"]
    assert licenca.currentData() == "licenca_validade"
    _png(dialogo, "mapeamento")
    licenca.setCurrentIndex(licenca.findData(""))
    licenca.activated.emit(licenca.currentIndex())
    _esperar_previa(qtbot, dialogo)
    assert dialogo.previa is not None and "licenca_validade" not in dialogo.previa.mapeamento.colunas
    assert dialogo.mapeamento == {"Venc. Licença": ""}
    assert dialogo._combos_mapa["Venc. Licença"].currentData() == ""
    _importar_pela_janela(qtbot, dialogo)
    with base.leitura() as s:
        v = s.scalars(sa.select(Veiculo).where(Veiculo.placa == "IAA1A11")).one()
        assert (v.vistoria_validade, v.licenca_validade) == (livros.VEICULOS_ESPERADOS["IAA1A11"][4], None)

    conteudo, esperados = livros.autos()
    livro = tmp_path / "livro.xlsx"
    livro.write_bytes(conteudo)
    dialogo = _abrir(qtbot, base, "autos", livro)
    assert dialogo.presumir.isVisible() and dialogo.limpar_vazias.isVisible()  # blanks clear only if asked
    assert "2 autos com penalidade aplicada não têm a data" in dialogo.resumo.text()
    assert "3 novas, 0 atualizadas, 0 sem alteração, 1 recusada" in dialogo.resumo.text()
    dialogo.presumir.setChecked(True)
    _esperar_previa(qtbot, dialogo)
    qtbot.waitUntil(lambda: "2 autos terão a data definitiva presumida" in dialogo.resumo.text())
    assert dialogo.modelo is not None
    recusada = dialogo.modelo.data(dialogo.modelo.index(3, 2))
    assert "1.234,56" in recusada
    _png(dialogo, "previa-livro")
    dialogo.so_validas.setChecked(True)
    _importar_pela_janela(qtbot, dialogo)
    with base.leitura() as s:
        for e in esperados:
            auto = s.scalars(
                sa.select(AutoInfracao).where(AutoInfracao.ano == e.ano, AutoInfracao.numero == e.numero)
            ).one()
            assert (auto.data_infracao, auto.data_decisao, auto.multa_ur) == (e.infracao, e.decisao, e.multa)
            assert auto.definitiva_presumida == (e.decisao is not None)


def test_painel_da_sancao_diz_importado_de_arquivo_e_definitiva_presumida() -> None:
    from datetime import date
    from decimal import Decimal

    from secretaria.lei.sancoes import calcular_sancao
    from secretaria.services.sancao import AntecedenteAvaliado, AvaliacaoSancao
    from secretaria.ui.processo.painel_sancao import conteudo_de

    anterior = AntecedenteAvaliado(
        auto_id=1, numero="0012/2025", data_infracao=date(2025, 3, 5), data_decisao=date(2025, 4, 20),
        multa_ur=Decimal("1.50"), suspensao_dias=0, anulada=False, contado=True, situacao="contado",
        motivo="AI nº 0012/2025 (definitiva presumida: importado de livro.xlsx) — infração de 05/03/2025: conta",
        definitiva_em=date(2025, 5, 20), importado_de="livro.xlsx", definitiva_presumida=True,
    )  # fmt: skip
    avaliacao = AvaliacaoSancao(
        operadora_id=1, dispositivo_codigo="1-I", dispositivo_rotulo="Art. 1º, I", dispositivo_texto="",
        tipo="E", data_infracao=date(2025, 6, 1), sancao=calcular_sancao("E", date(2025, 6, 1), []),
        antecedentes=(anterior,), data_valor=date(2025, 6, 1), valor_urm=None, multa_min_reais=None,
        multa_max_reais=None, aviso_urm=None, nota_dispositivo=None, leitura_paragrafo2=None, omitidos=0,
    )  # fmt: skip
    (exibido,) = conteudo_de(avaliacao).antecedentes
    assert exibido.motivo.endswith("(definitiva presumida: importado de livro.xlsx)")
    assert "definitiva em 20/05/2025 (definitiva presumida)" in exibido.descricao


def test_coluna_duvidosa_perguntada_na_janela(base: Banco, qtbot: QtBot, tmp_path: Path) -> None:
    arquivo = _xlsx(
        tmp_path / "livro.xlsx",
        [
            ["Nº do auto", "CNPJ da operadora", "Dispositivo", "Data da infração", "Matrícula do fiscal",
             "Data da decisão do recurso"],
            ["0005/2025", "11.222.333/0001-81", "Art. 1º, VI", "10/02/2025", "SMSU-001", None],
        ],
    )  # fmt: skip
    dialogo = DialogoImportacao(contexto(base, "administrador"), "autos")
    qtbot.addWidget(dialogo)
    dialogo.show()
    dialogo.abrir(arquivo)
    qtbot.waitUntil(lambda: mensagens.caixa_aberta() is not None, timeout=30_000)
    texto = mensagens.responder(QMessageBox.StandardButton.Ok)
    assert "“Data da decisão do recurso” pode ser Data da decisão ou Recurso" in texto
    linha = list(dialogo._combos_mapa).index("Data da decisão do recurso")
    item = dialogo.tabela_mapa.item(linha, 2)
    assert item is not None and item.text() == "Escolha: pode ser Data da decisão ou Recurso"
    _png(dialogo, "coluna-duvidosa")
    combo = dialogo._combos_mapa["Data da decisão do recurso"]
    combo.setCurrentIndex(combo.findData("recurso_julgado_em"))
    combo.activated.emit(combo.currentIndex())
    _esperar_previa(qtbot, dialogo)
    assert dialogo.previa is not None and dialogo.previa.mapeamento.colunas["recurso_julgado_em"] == 5
    assert [linha.acao for linha in dialogo.previa.linhas] == ["nova"]


def test_todos_os_problemas_de_uma_linha_de_cadastro_na_janela(
    base: Banco, qtbot: QtBot, tmp_path: Path
) -> None:
    from tests.helpers import livros

    conteudo, esperados = livros.operadora_com_problemas()
    arquivo = tmp_path / "empresas.xlsx"
    arquivo.write_bytes(conteudo)
    dialogo = _abrir(qtbot, base, "operadoras", arquivo)
    assert dialogo.modelo is not None and dialogo.previa is not None
    assert (
        dialogo.modelo.data(dialogo.modelo.index(0, 0)),
        dialogo.modelo.data(dialogo.modelo.index(0, 1)),
    ) == (
        "3",
        "Recusada",
    )
    problemas = dialogo.modelo.data(dialogo.modelo.index(0, 2)).split(" • ")
    assert len(problemas) == len(esperados), problemas
    for mensagem, (coluna, valor, motivo) in zip(problemas, esperados, strict=True):
        assert mensagem.startswith(f"Coluna “{coluna}”") and valor in mensagem and motivo in mensagem
    # Under the table, the current row's problems one per line (the cell above shows them cut).
    assert dialogo.detalhe.isVisible()
    assert dialogo.detalhe.text().splitlines() == ["Linha 3, recusada:", *(f"• {m}" for m in problemas)]
    assert not dialogo.botao_importar.isEnabled()
    _png(dialogo, "todos-os-problemas")


def test_celulas_em_branco_so_apagam_quando_pedido_na_janela(
    base: Banco, qtbot: QtBot, tmp_path: Path
) -> None:
    """The option is offered for every kind, the history of autos too; the preview says what it clears."""
    import sqlalchemy as sa

    from secretaria.models import AutoInfracao, Operadora
    from secretaria.services.base import Ator
    from secretaria.services.importacao.leitura import ler_conteudo
    from secretaria.services.importacao.servico import importar
    from tests.helpers import livros

    ator = Ator("ana", "Ana", frozenset({"administrador"}))
    for tipo, conteudo in (
        ("operadoras", livros.operadoras()),
        ("fiscais", livros.fiscais()),
        ("veiculos", livros.veiculos()),
        ("autos", livros.autos()[0]),
    ):
        importar(base.uow(), ator, tipo, ler_conteudo(conteudo, f"{tipo}.xlsx"), somente_validas=True)

    # A registry: "Nº" blank over a stored number.
    vazio = tmp_path / "operadoras.csv"
    vazio.write_text(
        f"CNPJ;Razão social;Logradouro;Nº\n{livros.CNPJ_ALFA};{livros.ALFA};Rua Alfa;\n", "utf-8"
    )
    dialogo = _abrir(qtbot, base, "operadoras", vazio)
    assert dialogo.limpar_vazias.isVisible() and not dialogo.limpar_vazias.isChecked()
    assert "deixam os valores cadastrados como estão" in dialogo.resumo.text()
    qtbot.mouseClick(dialogo.limpar_vazias, Qt.MouseButton.LeftButton)
    _esperar_previa(qtbot, dialogo)
    assert dialogo.modelo is not None and dialogo.modelo.data(dialogo.modelo.index(0, 3)) == "Nº"
    _importar_pela_janela(qtbot, dialogo)
    with base.leitura() as s:
        assert (
            s.scalars(sa.select(Operadora.numero_endereco).where(Operadora.razao_social == livros.ALFA)).one()
            == ""
        )

    # The history of autos: a corrected book with the vehicle and the payment left blank.
    corrigido = tmp_path / "livro-corrigido.xlsx"
    corrigido.write_bytes(livros.autos_corrigido())
    dialogo = _abrir(qtbot, base, "autos", corrigido)
    assert dialogo.limpar_vazias.isVisible() and dialogo.presumir.isVisible()
    assert "1 sem alteração" in dialogo.resumo.text()
    assert "deixam os valores cadastrados como estão" in dialogo.resumo.text()
    assert not dialogo.botao_importar.isEnabled()  # nothing to change
    qtbot.mouseClick(dialogo.limpar_vazias, Qt.MouseButton.LeftButton)
    _esperar_previa(qtbot, dialogo)
    assert "1 atualizada" in dialogo.resumo.text()
    assert "células em branco apagarão valores cadastrados" in dialogo.resumo.text()
    apaga = ", ".join(livros.EM_BRANCO_NO_CORRIGIDO)
    assert dialogo.modelo is not None and dialogo.modelo.data(dialogo.modelo.index(0, 3)) == apaga
    assert dialogo.detalhe.text() == f"Linha 5: as células em branco apagam {apaga}."
    _png(dialogo, "apaga-em-branco")
    _importar_pela_janela(qtbot, dialogo)
    with base.leitura() as s:
        assert s.scalar(sa.select(AutoInfracao.veiculo_id).where(AutoInfracao.numero == 12)) is None


def test_multa_em_reais_na_janela(base: Banco, qtbot: QtBot, tmp_path: Path) -> None:
    import sqlalchemy as sa

    from secretaria.models import AutoInfracao
    from secretaria.services.base import Ator
    from secretaria.services.importacao.leitura import ler_conteudo
    from secretaria.services.importacao.servico import importar
    from tests.helpers import livros

    ator = Ator("ana", "Ana", frozenset({"administrador"}))
    for tipo, conteudo in (("operadoras", livros.operadoras()), ("fiscais", livros.fiscais())):
        importar(base.uow(), ator, tipo, ler_conteudo(conteudo, f"{tipo}.xlsx"))
    conteudo, esperados = livros.livro_multa_em_reais()
    livro = tmp_path / "livro-reais.xlsx"
    livro.write_bytes(conteudo)
    dialogo = _abrir(qtbot, base, "autos", livro)
    assert dialogo._combos_mapa["Valor da multa (R$)"].currentData() == "multa_reais"
    assert dialogo.modelo is not None
    multa = 4 + livros.CABECALHO_MULTA_REAIS.index("Valor da multa (R$)")
    assert dialogo.modelo.data(dialogo.modelo.index(0, multa)) == "225,00 = 1,50 URM"
    assert "2 novas, 0 atualizadas, 0 sem alteração, 2 recusadas" in dialogo.resumo.text()
    # The first refused row is the current one, its problem under the table.
    assert dialogo.detalhe.text().startswith("Linha 7, recusada:\n• Coluna “Valor da multa (R$)”: R$ 100,00")
    _png(dialogo, "multa-em-reais")
    dialogo.so_validas.setChecked(True)
    _importar_pela_janela(qtbot, dialogo)
    with base.leitura() as s:
        for (ano, numero), (urm, _reais) in esperados.items():
            assert (
                s.scalar(
                    sa.select(AutoInfracao.multa_ur).where(
                        AutoInfracao.ano == ano, AutoInfracao.numero == numero
                    )
                )
                == urm
            )


def test_avaliacao_dos_arquivos_do_orgao_pela_janela(
    base: Banco, qtbot: QtBot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one-shot evaluation (`tests.helpers.avaliacao_livros`) through the window: the rows it refuses
    are the ones the preview shows refused, every accepted row stored exactly as the file says."""
    from secretaria import relogio
    from tests.helpers import avaliacao_livros

    def importar_arquivo(tipo: str, conteudo: bytes) -> dict[int, str]:
        caminho = tmp_path / f"{tipo}.xlsx"
        caminho.write_bytes(conteudo)
        dialogo = _abrir(qtbot, base, tipo, caminho)
        if tipo == "autos":
            dialogo.dias_presuncao.setValue(avaliacao_livros.PRESUNCAO)
            dialogo.presumir.setChecked(True)
            qtbot.waitUntil(lambda: "autos terão a data definitiva presumida" in dialogo.resumo.text())
        assert dialogo.previa is not None
        recusadas = {linha.numero: " ".join(linha.problemas) for linha in dialogo.previa.recusadas}
        dialogo.so_validas.setChecked(True)
        _importar_pela_janela(qtbot, dialogo)
        assert dialogo.resultado is not None
        assert {linha.numero for linha in dialogo.resultado.recusadas} == set(recusadas)
        return recusadas

    conjunto = avaliacao_livros.gerar(relogio.hoje())
    resumo = avaliacao_livros.conferir(avaliacao_livros.avaliar(base, conjunto, importar_arquivo), conjunto)
    with capsys.disabled():
        print(f"\n[{base.engine.dialect.name}, janela]\n{resumo}")
