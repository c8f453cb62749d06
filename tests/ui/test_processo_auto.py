"""PRODUTO path 2: the auto form with the live sanction panel, and drawing up the auto.

The panel is checked against REGRAS.md § 3's worked examples: the earlier autos are created through the
case services (tests/helpers/fabrica.py), then the form's fields are set as a user would and the panel's
text is read.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from secretaria.db import Banco
from secretaria.lei.sancoes import Antecedente, calcular_sancao
from secretaria.services.caso import obter_caso
from secretaria.ui.processo.campos import selecionar_dado
from secretaria.ui.processo.form_auto import DialogoAuto
from secretaria.ui.processo.painel_sancao import ConteudoPainel, PainelSancao
from secretaria.ui.widgets import arquivos, mensagens
from tests.helpers import apoio_processo as ap
from tests.helpers import arquivos_prova, fabrica

pytestmark = pytest.mark.usefixtures("sem_caixas_abertas")


# --- the panel alone, on the law's own results ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("tipo", "dia", "antecedentes", "esperado"),
    [
        ("A", date(2026, 3, 10), [], ["Infração primária (nível 0)", "0,10 a 0,50 URM", "Não cabível"]),
        (
            "A",
            date(2026, 3, 10),
            [Antecedente(date(2026, 2, 10), date(2026, 3, 1), Decimal("0.30"))],
            ["1ª reincidência (nível 1)", "0,20 a 1,00 URM", "Não cabível", "Leitura do § 2º"],
        ),
        (
            "E",
            date(2026, 11, 1),
            [
                Antecedente(date(2026, 1, 5), date(2026, 2, 1), Decimal(3)),
                Antecedente(date(2026, 3, 5), date(2026, 4, 1), Decimal(6)),
                Antecedente(date(2026, 5, 5), date(2026, 6, 1), Decimal(10), 4),
            ],
            ["3ª reincidência (nível 3)", "10,00 URM", "exatamente 8 dias"],
        ),
    ],
)
def test_painel_mostra_nivel_faixa_e_suspensao(
    qtbot: QtBot, tipo: str, dia: date, antecedentes: list[Antecedente], esperado: list[str]
) -> None:
    painel = ap.manter(PainelSancao())
    qtbot.addWidget(painel)
    painel.mostrar(
        ConteudoPainel(
            dispositivo_rotulo="Art. 1º, VI",
            tipo=tipo,
            data_infracao=dia,
            sancao=calcular_sancao(tipo, dia, antecedentes),
            valor_urm=Decimal("164.74"),
            urm_desde=dia,
        )
    )
    texto = painel.texto()
    for trecho in esperado:
        assert trecho in texto
    assert "Art. 7º" in texto  # every line cites its basis


def test_painel_diz_quantos_autos_antigos_nao_listou(qtbot: QtBot) -> None:
    """Older autos outside any recidivism window are not read one by one; the panel says how many there are."""
    painel = ap.manter(PainelSancao())
    qtbot.addWidget(painel)
    dia = date(2026, 3, 10)
    painel.mostrar(
        ConteudoPainel(
            dispositivo_rotulo="Art. 1º, VI",
            tipo="A",
            data_infracao=dia,
            sancao=calcular_sancao("A", dia, []),
            aviso_omitidos="1.788 autos anteriores mais antigos, fora do prazo de reincidência, não listados.",
        )
    )
    assert (
        "1.788 autos anteriores mais antigos, fora do prazo de reincidência, não listados." in painel.texto()
    )


# --- the form, live, on the database -------------------------------------------------------------------------


def _abrir_form(qtbot: QtBot, banco: Banco, **kw: Any) -> DialogoAuto:
    dialogo = ap.manter(DialogoAuto(ap.contexto(banco, "fiscal", login="fiscal"), **kw))
    qtbot.addWidget(dialogo)
    dialogo.show()
    return dialogo


def _preencher(dialogo: DialogoAuto, operadora_id: int, codigo: str, dia: date) -> None:
    assert selecionar_dado(dialogo.operadora, operadora_id)
    assert selecionar_dado(dialogo.dispositivo, codigo)
    dialogo.data_infracao.editor.setFocus()
    dialogo.data_infracao.editor.selectAll()
    dialogo.data_infracao.editor.setText(dia.strftime("%d%m%Y"))


def _painel(qtbot: QtBot, dialogo: DialogoAuto, trecho: str) -> str:
    qtbot.waitUntil(lambda: trecho in dialogo.painel.texto(), timeout=3000)
    return dialogo.painel.texto()


def _definitivo_em(roteiro: Any, infracao: date, decisao: date, final: date, multa: str) -> Any:
    """A prior whose penalty became final on `final`: the Prefeito denied a timely appeal that day."""
    r = roteiro.lavrar(data_infracao=infracao)
    roteiro.intimar(r.id, date.fromordinal(infracao.toordinal() + 1))
    roteiro.decidir(r.id, decisao, multa)
    roteiro.recorrer(r.id, decisao)
    roteiro.julgar(r.id, final, "negado")
    return r


def test_exemplo_2_reincidencia_tipo_a(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    # REGRAS § 3, example 2: P(10/02/2026, final 01/03/2026, 0,30).
    anterior = _definitivo_em(roteiro, date(2026, 2, 10), date(2026, 2, 27), date(2026, 3, 1), "0.30")
    dialogo = _abrir_form(qtbot, banco)
    _preencher(dialogo, roteiro.cidade.operadora_id, "1-VI", date(2026, 3, 10))
    texto = _painel(qtbot, dialogo, "nível 1")
    assert "Tipo A · 1ª reincidência (nível 1) · multa 0,20 a 1,00 URM · sem suspensão" in texto
    assert "Autos anteriores que contam (1)" in texto
    assert (
        f"AI nº {anterior.numero_formatado} — infração de 10/02/2026, decidida em 27/02/2026, "
        "definitiva em 01/03/2026" in texto
    )
    assert "0,20 a 1,00 URM = R$ 32,95 a R$ 164,74" in texto
    assert "Não cabível: no tipo A a suspensão só cabe a partir da 6ª reincidência." in texto
    assert "sic" in texto and "em dobro" in texto  # the § 2º reading is shown when n ≥ 1

    # Example 3: one day later the prior is out of the one-month window (§ 4º), and the panel says why.
    dialogo.data_infracao.editor.setText("11032026")
    texto = _painel(qtbot, dialogo, "nível 0")
    assert "Infração primária (nível 0)" in texto and "0,10 a 0,50 URM" in texto
    assert "Autos anteriores que não contam (1)" in texto
    assert "fora do prazo de reincidência" in texto


def test_exemplo_5_fim_de_mes(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    # 31/01 + 1 month = 28/02 (the target month lacks the day: its last day), so 28/02 is still a repeat.
    # REGRAS § 3, example 5: P(31/01/2026, final 20/02/2026, 0,20).
    _definitivo_em(roteiro, date(2026, 1, 31), date(2026, 2, 17), date(2026, 2, 20), "0.20")
    dialogo = _abrir_form(qtbot, banco)
    _preencher(dialogo, roteiro.cidade.operadora_id, "1-VI", date(2026, 2, 28))
    texto = _painel(qtbot, dialogo, "nível 1")
    assert "1ª reincidência (nível 1)" in texto and "0,20 a 1,00 URM" in texto
    assert "definitiva em 20/02/2026" in texto


def test_anterior_decidido_mas_ainda_recorrivel_nao_conta_e_diz_ate_quando(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    """REGRAS § 3 rule 1: a prior decided but still appealable on the new fact's day is listed as not counted,
    with the day the appeal deadline ends; one with a pending appeal, and one never notified, likewise."""
    recorrivel = roteiro.decidido(data_infracao=date(2026, 2, 10), multa="0.30", dias_ate_decisao=18)
    # decided 01/03/2026, notified 02/03 → appealable until 17/03/2026
    pendente = roteiro.decidido(data_infracao=date(2026, 2, 12), multa="0.30", dias_ate_decisao=18)
    roteiro.recorrer(pendente.id, date(2026, 3, 10))
    nao_notificado = roteiro.decidido(
        data_infracao=date(2026, 2, 16), multa="0.30", dias_ate_decisao=18, notificar=False
    )
    dialogo = _abrir_form(qtbot, banco)
    _preencher(dialogo, roteiro.cidade.operadora_id, "1-VI", date(2026, 3, 12))
    texto = _painel(qtbot, dialogo, "não contam (3)")
    assert "Infração primária (nível 0)" in texto
    assert (
        f"AI nº {recorrivel.numero_formatado} — infração de 10/02/2026, decidida em 01/03/2026" in texto
        and "Não conta — decisão de 01/03/2026 ainda recorrível até 17/03/2026" in texto
    )
    assert "Não conta — decisão de 03/03/2026 com recurso pendente ao Prefeito" in texto
    assert "Não conta — decisão de 07/03/2026 não notificada" in texto
    assert nao_notificado.numero_formatado in texto
    dialogo.resize(900, 900)
    ap.salvar_png(dialogo.painel, "painel_nao_definitiva")


def test_exemplo_4_anterior_sem_decisao_nao_conta(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    roteiro.lavrar(dispositivo="1-XXII", data_infracao=date(2026, 2, 10))
    dialogo = _abrir_form(qtbot, banco)
    _preencher(dialogo, roteiro.cidade.operadora_id, "1-XXII", date(2026, 3, 10))
    texto = _painel(qtbot, dialogo, "não contam (1)")
    assert "Infração primária (nível 0)" in texto
    assert "Não conta — sem penalidade definitiva: autuada, mas não punida" in texto


def test_exemplos_6_e_7_tipo_e_com_suspensao(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    roteiro.decidido(dispositivo="1-I", data_infracao=date(2026, 1, 5), multa="3")
    roteiro.decidido(dispositivo="1-I", data_infracao=date(2026, 3, 5), multa="6")
    dialogo = _abrir_form(qtbot, banco)
    _preencher(dialogo, roteiro.cidade.operadora_id, "1-I", date(2026, 9, 1))
    texto = _painel(qtbot, dialogo, "nível 2")
    assert "Tipo E · 2ª reincidência (nível 2) · multa 10,00 URM · suspensão de 1 a 10 dias" in texto
    assert "Cabível: de 1 a 10 dias (primeira suspensão), além da multa." in texto
    assert "10,00 URM = R$ 1.647,40" in texto

    roteiro.decidido(dispositivo="1-I", data_infracao=date(2026, 5, 5), multa="10", suspensao=4)
    dialogo.data_infracao.editor.setText("01112026")
    texto = _painel(qtbot, dialogo, "nível 3")
    assert "suspensão de 8 dias" in texto
    assert "Cabível: exatamente 8 dias (o dobro da última suspensão), além da multa." in texto
    assert "Autos anteriores que contam (3)" in texto


def test_dispositivo_sem_tipo_nao_pode_ser_citado(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    dialogo = _abrir_form(qtbot, banco)
    _preencher(dialogo, roteiro.cidade.operadora_id, "1-X", date(2026, 11, 2))
    texto = _painel(qtbot, dialogo, "não pode ser citado")
    assert "Art. 1º, X" in texto
    assert "O administrador deve definir o tipo" in texto


def test_lavrar_auto_pelo_formulario(
    qtbot: QtBot, banco: Banco, roteiro: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    foto = tmp_path / "foto.png"
    foto.write_bytes(arquivos_prova.png())
    dialogo = _abrir_form(qtbot, banco)
    _preencher(dialogo, roteiro.cidade.operadora_id, "1-VI", date(2026, 11, 27))
    assert selecionar_dado(dialogo.veiculo, roteiro.cidade.veiculo_id)
    assert selecionar_dado(dialogo.fiscal, roteiro.cidade.fiscal_id)
    qtbot.keyClicks(dialogo.local, "Praca Coronel Pedro Osorio")  # QTest types ASCII only
    qtbot.keyClicks(dialogo.descricao_fatos, "Cobrador sem uniforme.")
    qtbot.keyClicks(dialogo.local_lavratura, "Terminal central")
    dialogo.testemunhas.adicionar("Rita Testemunha", "RG 123", "Rua A, 1")
    dialogo.adicionar_arquivo(foto)

    # A missing required field: refused beside it, no confirmation asked, nothing written.
    dialogo.local.clear()
    qtbot.mouseClick(dialogo.botoes.buttons()[0], Qt.MouseButton.LeftButton)
    assert "local da infração" in dialogo.form.mensagem("local")
    qtbot.keyClicks(dialogo.local, "Praca Coronel Pedro Osorio")  # QTest types ASCII only

    with qtbot.waitSignal(dialogo.autoLavrado) as sinal:
        qtbot.keyClick(dialogo.local, Qt.Key.Key_Return)  # Enter = the default button, "Lavrar auto"
        pergunta = ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
        assert "próximo número de 2026" in pergunta
    auto_id, numero = sinal.args
    assert numero == "0001/2026"
    # The PDF of the auto right away: "Salvar PDF…" in the success box.
    destino = tmp_path / "auto.pdf"
    monkeypatch.setattr(arquivos, "salvar_como", lambda *_a, **_k: destino)
    aviso = ap.responder_caixa(qtbot, QMessageBox.StandardButton.Save)
    assert "Auto de infração nº 0001/2026 lavrado" in aviso
    assert "Multa de 0,10 a 0,50 URM" in aviso
    assert "gravado em" in ap.responder_caixa(qtbot, QMessageBox.StandardButton.Ok)
    assert destino.read_bytes().startswith(b"%PDF")
    with banco.leitura() as s:
        caso = obter_caso(s, auto_id)
    assert caso.testemunhas[0].nome == "Rita Testemunha"
    assert [a.nome_arquivo for a in caso.anexos] == ["foto.png"]
    assert caso.veiculo_id == roteiro.cidade.veiculo_id
    assert [d.tipo for d in caso.documentos] == ["auto"]  # issued and stored with its SHA-256


def test_recusa_do_servico_aparece_ao_lado_do_campo(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    dialogo = _abrir_form(qtbot, banco)
    _preencher(dialogo, roteiro.cidade.operadora_id, "1-VI", date(2026, 11, 27))
    assert selecionar_dado(dialogo.fiscal, roteiro.cidade.fiscal_id)
    dialogo.local.setText("Centro")
    dialogo.descricao_fatos.setPlainText("Fatos.")
    dialogo.local_lavratura.setText("Terminal")
    dialogo.data_lavratura.editor.setText("26112026")  # before the infraction
    dialogo.lavrar()
    assert mensagens.caixa_aberta() is None  # refused before "Lavrar auto?", never after it
    assert "não pode ser posterior à da lavratura" in dialogo.form.mensagem("data_infracao")
    assert dialogo.isVisible()
    assert fabrica.contagens(banco)["auto_infracao"] == 0


def _lavrar_minimo(qtbot: QtBot, banco: Banco, roteiro: Any) -> tuple[DialogoAuto, int]:
    dialogo = _abrir_form(qtbot, banco)
    _preencher(dialogo, roteiro.cidade.operadora_id, "1-VI", date(2026, 11, 27))
    assert selecionar_dado(dialogo.fiscal, roteiro.cidade.fiscal_id)
    qtbot.keyClicks(dialogo.local, "Praca Coronel Pedro Osorio")
    qtbot.keyClicks(dialogo.descricao_fatos, "Cobrador sem uniforme.")
    qtbot.keyClicks(dialogo.local_lavratura, "Terminal central")
    with qtbot.waitSignal(dialogo.autoLavrado) as sinal:
        dialogo.lavrar()
        ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
    return dialogo, sinal.args[0]


def test_pdf_do_auto_emitido_e_guardado_ao_lavrar(qtbot: QtBot, banco: Banco, roteiro: Any) -> None:
    """PRODUTO path 2, "on save: … the PDF of the auto": issued and stored even if the user just closes."""
    import hashlib

    import sqlalchemy as sa

    from secretaria.models import DocumentoEmitido
    from secretaria.services.documentos import dados_auto, renderizar

    _dialogo, auto_id = _lavrar_minimo(qtbot, banco, roteiro)
    aviso = ap.responder_caixa(qtbot, QMessageBox.StandardButton.Close)  # no print, no save
    assert "O PDF do auto foi emitido e guardado (auto-de-infracao-0001-2026.pdf" in aviso
    with banco.leitura() as s:
        docs = s.scalars(sa.select(DocumentoEmitido).where(DocumentoEmitido.auto_id == auto_id)).all()
        assert [(d.tipo, d.referencia) for d in docs] == [("auto", "0001/2026")]
        guardado = bytes(docs[0].conteudo)
        assert docs[0].sha256 == hashlib.sha256(guardado).hexdigest()
        assert docs[0].emitido_por == "fiscal"
        # The stored bytes are the auto as the program renders it (the same document, byte for byte).
        assert hashlib.sha256(renderizar("auto", dados_auto(s, auto_id))).hexdigest() == docs[0].sha256
    assert guardado.startswith(b"%PDF")


def test_falha_do_pdf_aparece_na_caixa_e_o_auto_fica_gravado(
    qtbot: QtBot, banco: Banco, roteiro: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from secretaria.services import documentos
    from secretaria.services.base import ErroDominio

    def recusar(*_a: Any, **_k: Any) -> Any:
        raise ErroDominio("Os dados do órgão não foram encontrados; reabra o banco de dados.")

    monkeypatch.setattr(documentos, "emitir_documento", recusar)
    dialogo, auto_id = _lavrar_minimo(qtbot, banco, roteiro)
    aviso = ap.responder_caixa(qtbot, QMessageBox.StandardButton.Close)
    assert "Auto de infração nº 0001/2026 lavrado" in aviso
    assert "O PDF do auto NÃO foi emitido: Os dados do órgão não foram encontrados" in aviso
    assert "emita o PDF depois pela tela do caso" in aviso
    assert not dialogo.isVisible()  # the form closed: a second click cannot draw up a duplicate
    assert fabrica.contagens(banco)["auto_infracao"] == 1
    with banco.leitura() as s:
        assert obter_caso(s, auto_id).documentos == ()


def test_disco_cheio_ao_lavrar_e_uma_recusa_e_nada_e_gravado(
    qtbot: QtBot, banco: Banco, roteiro: Any
) -> None:
    """A full disk (SQLite's real SQLITE_FULL: the database may not grow by one page) is shown in the form
    like any refusal, in Portuguese, and no auto is written. (PostgreSQL's disk_full: tests/test_db.py.)"""
    from sqlalchemy import event

    if not banco.eh_sqlite:
        pytest.skip(
            "PRAGMA max_page_count é do SQLite; o disk_full do PostgreSQL é testado em tests/test_db.py"
        )
    dialogo = _abrir_form(qtbot, banco)
    _preencher(dialogo, roteiro.cidade.operadora_id, "1-VI", date(2026, 11, 27))
    assert selecionar_dado(dialogo.fiscal, roteiro.cidade.fiscal_id)
    dialogo.local.setText("Centro")
    dialogo.descricao_fatos.setPlainText("Cobrador sem uniforme. " * 300)  # needs new pages to be stored
    dialogo.local_lavratura.setText("Terminal")

    def disco_cheio(conexao: Any, _registro: Any) -> None:
        paginas = conexao.execute("PRAGMA page_count").fetchone()[0]
        conexao.execute(f"PRAGMA max_page_count = {paginas}")

    event.listen(banco.engine, "connect", disco_cheio)
    banco.engine.dispose()
    try:
        dialogo.lavrar()
        ap.responder_caixa(qtbot, QMessageBox.StandardButton.Yes)
        assert "O disco está cheio" in dialogo.form.mensagem("")
        assert "nada foi gravado" in dialogo.form.mensagem("")
        assert dialogo.isVisible()
        assert mensagens.caixa_aberta() is None  # a refusal, not the unexpected-error box
    finally:
        event.remove(banco.engine, "connect", disco_cheio)
        banco.engine.dispose()
    assert fabrica.contagens(banco)["auto_infracao"] == 0
