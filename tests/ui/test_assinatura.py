"""Digital signatures on screen: the Secretary's certificate chosen on this PC, its password asked
once, the decision notice issued signed from the case screen and checked with "Verificar um PDF…"; a copy
issued unsigned signed later; Administração › Assinatura digital installs the root and saves the settings.

The certificate's path lives in a file of the user's configuration folder: redirected to tmp_path here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.services import orgao
from secretaria.services.assinatura import instalar_confianca, ler_config_assinatura
from secretaria.services.base import Ator
from secretaria.ui import certificado
from secretaria.ui.admin.assinatura import PainelAssinatura
from secretaria.ui.contexto import Contexto
from secretaria.ui.processo.tela_caso import TelaCaso
from secretaria.ui.widgets import arquivos
from tests.helpers import apoio_processo as ap
from tests.helpers import ca_teste, fabrica

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")
OK = QMessageBox.StandardButton.Ok
SECRETARIO = Ator("sergio", "Sérgio Secretário", frozenset({"secretario"}))


@pytest.fixture
def preferencias(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    arquivo = tmp_path / "config" / "certificados.json"
    monkeypatch.setattr(certificado, "arquivo_preferencias", lambda: arquivo)
    certificado._SESSAO.clear()
    yield arquivo
    certificado._SESSAO.clear()


def _preencher_timbre(banco: Banco) -> None:
    with banco.leitura() as s:
        atual = orgao.obter_dados_orgao(s)
    dados = replace(
        atual.dados,
        secretario_nome="Sérgio Secretário",
        endereco="Praça Coronel Pedro Osório, 101",
        horario_expediente="de segunda a sexta-feira, das 8h às 14h",
        pagamento_instrucoes="por guia retirada no protocolo",
    )
    orgao.salvar_dados_orgao(banco.uow(), fabrica.ATORES["administrador"], dados, versao=atual.versao)


def test_decisao_assinada_pela_tela_do_caso_e_verificada(
    qtbot: QtBot,
    banco: Banco,
    roteiro: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    preferencias: Path,
) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    _preencher_timbre(banco)
    instalar_confianca(
        banco.uow(), fabrica.ATORES["administrador"], conteudo=ca_teste.raiz_pem(), nome_arquivo="raiz.pem"
    )
    p12 = tmp_path / "sergio.pfx"
    p12.write_bytes(ca_teste.p12())
    tela = ap.manter(TelaCaso(Contexto(banco, SECRETARIO), r.id))
    qtbot.addWidget(tela)
    tela.show()
    tela.abas.setCurrentIndex(3)

    monkeypatch.setattr(arquivos, "abrir_arquivo", lambda *_a, **_k: p12)
    tela.botao_meu_certificado.click()
    assert "Certificado escolhido neste computador" in ap.responder_caixa(qtbot, OK)
    assert certificado.caminho_certificado("sergio") == p12 and preferencias.exists()

    senhas: list[str] = []

    def pedir(_parent: Any, _caminho: Path) -> str:
        senhas.append("pedida")
        return ca_teste.SENHA

    monkeypatch.setattr(certificado, "pedir_senha", pedir)
    destino = tmp_path / "decisao.pdf"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: destino)
    tela.botoes_documentos.acoes[("decisao", "salvar")]()
    assert "gravada em" in ap.responder_caixa(qtbot, OK)
    assert f"assinado digitalmente por {ca_teste.NOME_SECRETARIO}" in tela.lista_documentos.item(0).text()
    assert not tela.botao_assinar.isEnabled()  # already signed
    tela.grab().save(str(tmp_path / "tela.png"))

    monkeypatch.setattr(arquivos, "abrir_arquivo", lambda *_a, **_k: destino)
    tela.botao_verificar_pdf.click()
    relatorio = ap.responder_caixa(qtbot, OK)
    assert "Documento desta Secretaria: Notificação de decisão do auto nº 0001/2026" in relatorio
    assert "idêntico, byte a byte" in relatorio and "raiz de confiança instalada" in relatorio

    assert senhas == ["pedida"]  # the password is asked once per session


def test_senha_errada_nada_emite_e_assinar_depois(
    qtbot: QtBot,
    banco: Banco,
    roteiro: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    preferencias: Path,
) -> None:
    r = roteiro.decidido(data_infracao=date(2026, 6, 1), multa="0.30")
    _preencher_timbre(banco)
    p12 = tmp_path / "sergio.pfx"
    p12.write_bytes(ca_teste.p12())
    certificado.guardar_caminho("sergio", p12)
    tela = ap.manter(TelaCaso(Contexto(banco, SECRETARIO), r.id))
    qtbot.addWidget(tela)
    tela.show()
    tela.abas.setCurrentIndex(3)
    monkeypatch.setattr(certificado, "pedir_senha", lambda *_a: "errada")
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: tmp_path / "x.pdf")
    tela.botoes_documentos.acoes[("decisao", "salvar")]()
    assert "Senha do certificado incorreta" in ap.responder_caixa(qtbot, OK)
    assert tela.lista_documentos.item(0).text() == "Nenhum documento emitido ainda."

    # Issued unsigned by a clerk (no certificate on this PC for them), then signed by the Secretary.
    balcao = ap.manter(TelaCaso(ap.contexto(banco, "protocolo", login="paula"), r.id))
    qtbot.addWidget(balcao)
    balcao.botoes_documentos.acoes[("decisao", "salvar")]()
    assert "gravada em" in ap.responder_caixa(qtbot, OK)
    tela.recarregar()
    assert tela.lista_documentos.item(0).text().endswith("sem assinatura digital")
    tela.lista_documentos.setCurrentRow(0)
    assert tela.botao_assinar.isEnabled()
    monkeypatch.setattr(certificado, "pedir_senha", lambda *_a: ca_teste.SENHA)
    tela.botao_assinar.click()
    qtbot.waitUntil(lambda: tela.lista_documentos.count() == 2)
    assert "versão assinada do documento nº" in tela.lista_documentos.item(0).text()
    assert tela.lista_documentos.item(1).text().endswith("sem assinatura digital")  # the first is kept


def test_administracao_instala_raiz_e_grava_configuracao(
    qtbot: QtBot, banco: Banco, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    painel = PainelAssinatura(ap.contexto(banco, "administrador"))
    qtbot.addWidget(painel)
    painel.resize(1366, 768)
    painel.show()
    assert "Nenhuma raiz instalada" in painel.lista_raizes.item(0).text()
    raiz = tmp_path / "raiz.pem"
    raiz.write_bytes(ca_teste.raiz_pem())
    monkeypatch.setattr(arquivos, "abrir_arquivo", lambda *_a, **_k: raiz)
    painel.botao_instalar.click()
    assert "Raiz de confiança instalada: AC Raiz de Teste." in ap.responder_caixa(qtbot, OK)
    assert painel.lista_raizes.item(0).text().startswith("AC Raiz de Teste — válida até 01/01/2040")

    painel.carimbo_url.setText("carimbo sem esquema")
    painel.salvar()
    assert "http://" in ap.responder_caixa(qtbot, OK)
    painel.carimbo_url.setText("https://carimbo.exemplo/tsa")
    painel.tipos["intimacao"].setChecked(True)
    painel.salvar()
    assert "gravada" in ap.responder_caixa(qtbot, OK)
    with banco.leitura() as s:
        config = ler_config_assinatura(s)
    assert config.carimbo_url == "https://carimbo.exemplo/tsa" and config.tipos_emissor == {"intimacao"}
    painel.grab().save(str(tmp_path / "painel.png"))
