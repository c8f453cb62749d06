"""PRODUTO path 3: receive a representação, then draw up the auto from it (pre-filled) or file it away; and the
two case lists of the main window (open a row, "Novo" for the roles that may)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services.caso import obter_caso
from secretaria.ui.processo.campos import selecionar_dado
from secretaria.ui.processo.form_auto import DialogoAuto
from secretaria.ui.processo.form_representacao import DialogoArquivarRepresentacao, DialogoRepresentacao
from secretaria.ui.processo.paginas import PaginaAutos, PaginaRepresentacoes
from secretaria.ui.processo.tela_caso import TelaCaso
from tests.helpers import apoio_processo as ap
from tests.helpers import arquivos_prova, fabrica

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")
OK = QMessageBox.StandardButton.Ok
SIM = QMessageBox.StandardButton.Yes


def _receber(qtbot: QtBot, pagina: PaginaRepresentacoes, operadora_id: int) -> None:
    qtbot.mouseClick(pagina.botao_novo, Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, DialogoRepresentacao)
    qtbot.keyClicks(dialogo.peticionario_nome, "Maria Passageira")
    qtbot.keyClicks(dialogo.peticionario_endereco, "Rua Goncalves Chaves, 500")
    qtbot.keyClicks(dialogo.fatos, "O onibus da linha L10 nao parou no ponto.")
    qtbot.keyClicks(dialogo.meios_prova, "Fotografia.")
    selecionar_dado(dialogo.operadora, operadora_id)
    selecionar_dado(dialogo.dispositivo, "2-III")
    dialogo.data_fato.editor.setText("25112026")
    qtbot.keyClicks(dialogo.local_fato, "Av. Bento Goncalves, 3000")
    # Art. 12 § 1º: the profession is required; refused beside the field, nothing written.
    qtbot.keyClick(dialogo.local_fato, Qt.Key.Key_Return)
    assert "profissão" in dialogo.form.mensagem("peticionario_profissao")
    assert fabrica.contagens(pagina.contexto.banco)["representacao"] == 0
    qtbot.keyClicks(dialogo.peticionario_profissao, "professora")
    qtbot.keyClick(dialogo.local_fato, Qt.Key.Key_Return)
    assert "Representação nº 0001/2026 recebida." in ap.responder_caixa(qtbot, OK)


def test_caminho_3_representacao_vira_auto(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    pagina = ap.manter(PaginaRepresentacoes(ap.contexto(banco, "fiscal", login="fiscal")))
    qtbot.addWidget(pagina)
    pagina.show()
    _receber(qtbot, pagina, roteiro.cidade.operadora_id)
    assert pagina.modelo.total == 1
    assert pagina.modelo.data(pagina.modelo.index(0, 2)) == "Maria Passageira"

    pagina.selecionar_linha(0)
    pagina.tabela.setFocus()
    qtbot.keyClick(pagina.tabela, Qt.Key.Key_Return)
    tela = pagina.tela
    assert tela is not None and tela.isVisible()
    assert "O onibus da linha L10 nao parou no ponto." in tela.corpo.text()

    qtbot.mouseClick(tela.botao_lavrar, Qt.MouseButton.LeftButton)
    form = ap.esperar_dialogo(qtbot, DialogoAuto)
    # Pre-filled from the representação; the panel already evaluates it.
    assert form.operadora.currentData() == roteiro.cidade.operadora_id
    assert form.dispositivo.currentData() == "2-III"
    assert form.data_infracao.texto() == "25/11/2026"
    assert form.local.text() == "Av. Bento Goncalves, 3000"
    assert "Conforme a representação nº 0001/2026" in form.circunstancias.texto()
    qtbot.waitUntil(lambda: "Tipo A" in form.painel.texto())
    selecionar_dado(form.fiscal, roteiro.cidade.fiscal_id)
    qtbot.keyClicks(form.local_lavratura, "Sede da SMSU")
    with qtbot.waitSignal(form.autoLavrado) as sinal:
        form.lavrar()
        ap.responder_caixa(qtbot, SIM)
    auto_id, numero = sinal.args
    assert numero == "0001/2026"
    assert "lavrado" in ap.responder_caixa(qtbot, QMessageBox.StandardButton.Close)
    caso_tela = ap.esperar_dialogo(qtbot, TelaCaso)  # the new case opens
    assert caso_tela.auto_id == auto_id
    with banco.leitura() as s:
        assert obter_caso(s, auto_id).representacao_numero == "0001/2026"
    assert pagina.modelo.data(pagina.modelo.index(0, 5)) == "Autuada"
    assert not tela.botao_lavrar.isVisible()  # cannot be drawn up twice
    texto = " ".join(tela.texto().split())
    assert "Auto de infração nº 0001/2026 — Lavrado — aguardando intimação" in texto
    assert tela.botao_abrir_auto.isVisible() and "0001/2026" in tela.botao_abrir_auto.text()


def test_arquivar_representacao_com_motivo(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    # Received by the inspector, filed away by the authority (art. 12 § 2º): one user holding both roles.
    pagina = ap.manter(PaginaRepresentacoes(ap.contexto(banco, "fiscal", "autoridade")))
    qtbot.addWidget(pagina)
    pagina.show()
    _receber(qtbot, pagina, roteiro.cidade.operadora_id)
    tela = pagina.abrir_representacao(pagina.modelo.id_da_linha(0))
    qtbot.mouseClick(tela.botao_arquivar, Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, DialogoArquivarRepresentacao)
    dialogo.arquivar()
    assert dialogo.form.mensagem("motivo") == "Informe o motivo do arquivamento."
    qtbot.keyClicks(dialogo.motivo, "Fato nao confirmado pela fiscalizacao.")
    dialogo.arquivar()
    assert "não poderá mais ser autuada" in ap.responder_caixa(qtbot, SIM)
    assert pagina.modelo.data(pagina.modelo.index(0, 5)) == "Arquivada"
    texto = " ".join(tela.texto().split())
    assert "Arquivada em 30/11/2026 Motivos Fato nao confirmado pela fiscalizacao." in texto
    assert not tela.botao_lavrar.isVisible() and not tela.botao_arquivar.isVisible()


def test_arquivar_recusa_antes_de_pedir_confirmacao(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    """Filing cannot be undone, so what the service would refuse is said beside the field before any
    "Arquivar?" box: a day before the receipt, and a petition filed meanwhile from another PC."""
    from secretaria.services.representacoes import arquivar_representacao
    from secretaria.ui.widgets import mensagens

    pagina = ap.manter(PaginaRepresentacoes(ap.contexto(banco, "fiscal", "autoridade")))
    qtbot.addWidget(pagina)
    pagina.show()
    _receber(qtbot, pagina, roteiro.cidade.operadora_id)
    rep_id = pagina.modelo.id_da_linha(0)
    tela = pagina.abrir_representacao(rep_id)
    qtbot.mouseClick(tela.botao_arquivar, Qt.MouseButton.LeftButton)
    dialogo = ap.esperar_dialogo(qtbot, DialogoArquivarRepresentacao)
    qtbot.keyClicks(dialogo.motivo, "Fato nao confirmado.")  # QTest types ASCII only
    dialogo.data.definir_data(date(2020, 1, 2))  # years before it was received
    dialogo.arquivar()
    assert mensagens.caixa_aberta(aguardar=False) is None
    assert "recebimento" in dialogo.form.mensagem("data")

    dialogo.data.definir_data(date(2026, 11, 30))
    arquivar_representacao(
        banco.uow(), fabrica.ATORES["autoridade"], representacao_id=rep_id, motivo="Arquivada por outro PC."
    )
    dialogo.arquivar()
    assert mensagens.caixa_aberta(aguardar=False) is None
    # The version check comes first: someone else changed it since the dialog opened (then Recarregar).
    geral = dialogo.form.mensagem("")
    assert "A representação nº 0001/2026 foi alterada por autoridade" in geral
    assert "depois que você a abriu" in geral and "nada foi gravado" in geral
    ap.salvar_png(dialogo, "arquivar-representacao-recusa")
    with banco.leitura() as s:
        from secretaria.models import Representacao

        gravada = s.get(Representacao, rep_id)
        assert gravada is not None and gravada.motivo_arquivamento == "Arquivada por outro PC."
    dialogo.descartar()


def test_lista_de_autos_abre_o_caso_e_so_o_fiscal_lavra(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    consulta = ap.manter(PaginaAutos(ap.contexto(banco, "consulta")))
    qtbot.addWidget(consulta)
    assert not consulta.botao_novo.isVisibleTo(consulta)
    pagina = ap.manter(PaginaAutos(ap.contexto(banco, "fiscal")))
    qtbot.addWidget(pagina)
    pagina.show()
    assert pagina.botao_novo.isVisible()
    assert pagina.modelo.data(pagina.modelo.index(0, 8)) == "R$ 49,42"
    pagina.selecionar_linha(0)
    pagina.abrir_selecionado()
    tela = ap.esperar_dialogo(qtbot, TelaCaso)
    assert tela.titulo.text() == "Auto de infração nº 0001/2026"
    qtbot.mouseClick(pagina.botao_novo, Qt.MouseButton.LeftButton)
    form = ap.esperar_dialogo(qtbot, DialogoAuto)
    assert form.windowTitle() == "Lavrar auto de infração"


def test_tela_mostra_a_representacao_inteira(
    qtbot: QtBot, banco: Banco, roteiro: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """Everything received is on the screen: the petitioner (with contact), the facts and the evidence,
    the provision's text, the evidence files (a copy saves the same bytes), who received it and when."""
    from secretaria.services.representacoes import anexar_prova_representacao, receber_representacao
    from secretaria.ui.widgets import arquivos

    fiscal = fabrica.ATORES["fiscal"]
    rep = receber_representacao(
        banco.uow(),
        fiscal,
        recebida_em=date(2026, 11, 20),
        peticionario_nome="Maria Passageira",
        peticionario_profissao="professora",
        peticionario_endereco="Rua Gonçalves Chaves, 500",
        peticionario_contato="(53) 99999-0000",
        fatos="O ônibus não parou no ponto.",
        meios_prova="Fotografia do ônibus passando.",
        operadora_id=roteiro.cidade.operadora_id,
        dispositivo_codigo="2-III",
        data_fato=date(2026, 11, 18),
        local_fato="Av. Bento Gonçalves, 3000",
    )
    foto = arquivos_prova.png()
    anexar_prova_representacao(
        banco.uow(), fiscal, representacao_id=rep.id, nome_arquivo="foto.png", conteudo=foto
    )
    pagina = ap.manter(PaginaRepresentacoes(ap.contexto(banco, "consulta")))
    qtbot.addWidget(pagina)
    pagina.show()
    tela = pagina.abrir_representacao(pagina.modelo.id_da_linha(0))
    texto = " ".join(tela.texto().split())
    for trecho in (
        "Representação nº 0001/2026",
        "Recebida",
        "Nome Maria Passageira",
        "Profissão professora",
        "Endereço Rua Gonçalves Chaves, 500",
        "Contato (53) 99999-0000",
        "Recebida em 20/11/2026, por fiscal",
        "Operadora Viação Princesa do Sul Ltda.",
        "Data do fato 18/11/2026",
        "Local do fato Av. Bento Gonçalves, 3000",
        "Fatos O ônibus não parou no ponto.",
        "Provas ou meios Fotografia do ônibus passando.",
        "Aguardando: lavrar o auto de infração ou arquivar com os motivos.",
        "foto.png — 1 kB, anexado em 30/11/2026 10:00 por fiscal",
    ):
        assert trecho in texto, trecho
    assert "Dispositivo Art. 2º, III" in texto
    assert not tela.botao_lavrar.isVisible() and not tela.botao_arquivar.isVisible()  # consulta only reads
    destino = tmp_path / "copia.png"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: destino)
    qtbot.mouseClick(tela.botao_salvar_anexo, Qt.MouseButton.LeftButton)
    assert destino.read_bytes() == foto


def test_lavrar_da_janela_o_caso_aceita_cliques_e_leva_as_provas(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    """Through the main window: Representações → open → Lavrar auto → save. The case window that opens takes
    clicks (no window-modal representação left blocking it), lists the representação's evidence file with
    its SHA-256, and the representação, still open, shows the auto."""
    from PySide6.QtWidgets import QApplication

    from secretaria.services.representacoes import anexar_prova_representacao, receber_representacao
    from secretaria.ui.janela_principal import JanelaPrincipal
    from secretaria.ui.processo.form_representacao import TelaRepresentacao

    fiscal = fabrica.ATORES["fiscal"]
    rep = receber_representacao(
        roteiro.uow(),
        fiscal,
        recebida_em=date(2026, 11, 26),
        peticionario_nome="Maria Passageira",
        peticionario_profissao="Professora",
        peticionario_endereco="Rua Gonçalves Chaves, 500",
        fatos="O ônibus não parou no ponto.",
        meios_prova="Fotografia.",
        operadora_id=roteiro.cidade.operadora_id,
        dispositivo_codigo="2-iii",
        data_fato=date(2026, 11, 25),
        local_fato="Av. Bento Gonçalves, 3000",
    )
    foto = anexar_prova_representacao(
        roteiro.uow(),
        fiscal,
        representacao_id=rep.id,
        nome_arquivo="ponto.png",
        conteudo=arquivos_prova.png(),
    )
    janela = ap.manter(JanelaPrincipal(ap.contexto(banco, "fiscal", login="fiscal")))
    qtbot.addWidget(janela)
    with qtbot.waitActive(janela):
        janela.show()
    pagina = janela.mostrar_pagina("representacoes")
    assert isinstance(pagina, PaginaRepresentacoes)
    pagina.selecionar_linha(0)
    pagina.tabela.setFocus()
    qtbot.keyClick(pagina.tabela, Qt.Key.Key_Return)
    tela = ap.esperar_dialogo(qtbot, TelaRepresentacao)
    qtbot.mouseClick(tela.botao_lavrar, Qt.MouseButton.LeftButton)
    form = ap.esperar_dialogo(qtbot, DialogoAuto)
    selecionar_dado(form.fiscal, roteiro.cidade.fiscal_id)
    qtbot.keyClicks(form.local_lavratura, "Sede da SMSU")
    with qtbot.waitSignal(tela.autoLavrado) as sinal:
        form.lavrar()
        ap.responder_caixa(qtbot, SIM)
    auto_id = sinal.args[0]
    aviso = ap.responder_caixa(qtbot, QMessageBox.StandardButton.Close)
    assert "juntados ao auto" in aviso and "ponto.png" in aviso
    caso_tela = ap.esperar_dialogo(qtbot, TelaCaso)
    assert caso_tela.auto_id == auto_id
    # Nothing modal is left over the case window: a click on its tabs goes through.
    qtbot.waitUntil(lambda: QApplication.activeModalWidget() is None)
    barra = caso_tela.abas.tabBar()
    anexos = next(i for i in range(barra.count()) if "nexos" in barra.tabText(i))
    qtbot.mouseClick(barra, Qt.MouseButton.LeftButton, pos=barra.tabRect(anexos).center())
    assert caso_tela.abas.currentIndex() == anexos
    itens = [caso_tela.lista_anexos.item(i).text() for i in range(caso_tela.lista_anexos.count())]
    assert len(itens) == 1 and "ponto.png" in itens[0]
    with banco.leitura() as s:
        assert [(a.id, a.sha256) for a in obter_caso(s, auto_id).anexos] == [(foto.id, foto.sha256)]
    # The representação stays open (no longer modal), showing the auto drawn up from it.
    assert tela.isVisible() and tela.windowModality() == Qt.WindowModality.NonModal
    assert "Autuada" in tela.texto() and not tela.botao_lavrar.isVisible()
    assert tela.botao_abrir_auto.isVisible() and sinal.args[1] in tela.botao_abrir_auto.text()
    ap.salvar_png(caso_tela, "h15-caso-da-representacao")
