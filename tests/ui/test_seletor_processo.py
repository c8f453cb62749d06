"""The file dialog's child process (`secretaria.ui.seletor_arquivo`): only its marked answer line
counts, whatever else reaches its standard output; a missing answer is a clear failure; and a frozen program
starts it as `secretaria --auxiliar secretaria.ui.seletor_arquivo`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QProcessEnvironment
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from secretaria.ui import seletor_arquivo
from secretaria.ui.widgets import arquivos, mensagens
from tests.helpers.programa_congelado import congelar

linux = pytest.mark.skipif(sys.platform == "win32", reason="scripts de teste com linha #! e descritores")


def test_resposta_e_a_linha_marcada_o_resto_e_ignorado() -> None:
    saida = (
        b'Qt: plugin carregado\n{"caminhos": ["/falso.pdf"]}\n'
        + seletor_arquivo.linha_de_resposta({"caminhos": ["/pasta/Fiscalização #2/anexo.pdf", ""]})
        + b"\x00\xff lixo depois\n"
    )
    assert seletor_arquivo.ler_resposta(saida) == ["/pasta/Fiscalização #2/anexo.pdf"]
    assert seletor_arquivo.ler_resposta(seletor_arquivo.linha_de_resposta({"caminhos": []})) == []


@pytest.mark.parametrize(
    ("saida", "erro"),
    [
        (b"", "terminou sem dar resposta"),
        (b'{"caminhos": ["/a.pdf"]}\n', "terminou sem dar resposta"),  # unmarked: not an answer
        (seletor_arquivo.MARCA_RESPOSTA + b'{"caminhos": \n', "resposta ilegível"),
        (seletor_arquivo.MARCA_RESPOSTA + b'{"nomes": []}\n', "resposta ilegível"),
        (seletor_arquivo.MARCA_RESPOSTA + b'{"caminhos": "/a.pdf"}\n', "resposta ilegível"),
    ],
    ids=["nada", "sem-marca", "json-cortado", "sem-caminhos", "caminhos-nao-lista"],
)
def test_saida_sem_resposta_valida_e_recusada(saida: bytes, erro: str) -> None:
    with pytest.raises(ValueError, match=erro):
        seletor_arquivo.ler_resposta(saida)


@pytest.fixture
def janela(qtbot: QtBot) -> QWidget:
    janela = QWidget()
    janela.resize(400, 300)
    qtbot.addWidget(janela)
    janela.show()
    return janela


@pytest.fixture
def pasta(tmp_path: Path) -> Path:
    pasta = tmp_path / "Fiscalização #2 100%"
    pasta.mkdir()
    (pasta / "anexo.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    arquivos._lembrar(pasta)
    return pasta


@pytest.fixture
def avisos(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    recebidos: list[tuple[str, str | None]] = []

    def avisar_erro(_parent: object, _titulo: str, texto: str, detalhes: str | None = None) -> None:
        recebidos.append((texto, detalhes))

    monkeypatch.setattr(mensagens, "avisar_erro", avisar_erro)
    return recebidos


def _rodar_script(monkeypatch: pytest.MonkeyPatch, script: Path) -> None:
    """The child is `python SCRIPT PEDIDO` instead of `python -m secretaria.ui.seletor_arquivo PEDIDO`."""
    original = arquivos._comando_do_seletor

    def comando(pedido_json: str) -> tuple[str, list[str], QProcessEnvironment]:
        programa, argumentos, ambiente = original(pedido_json)
        assert argumentos[:2] == ["-m", "secretaria.ui.seletor_arquivo"]
        return programa, [str(script), *argumentos[2:]], ambiente

    monkeypatch.setattr(arquivos, "_comando_do_seletor", comando)


@linux
def test_seletor_que_escreve_na_saida_padrao_responde_assim_mesmo(
    janela: QWidget, pasta: Path, avisos: list[object], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The real child with stray output before it starts and while the dialog runs, from Python and below
    it (straight to descriptor 1), even a line that looks like an answer without the marker."""
    script = tmp_path / "seletor_falador.py"
    script.write_text(
        """
import os, sys
print("Carregando plugins...", flush=True)
os.write(1, b'{"caminhos": ["/nao/e/isto.pdf"]}\\n')
from secretaria.ui import seletor_arquivo
original = seletor_arquivo.executar
def executar(*argumentos):
    print("aviso de uma biblioteca", flush=True)
    os.write(1, b"\\x00\\xfflixo binario\\n")
    return original(*argumentos)
seletor_arquivo.executar = executar
sys.exit(seletor_arquivo.main(sys.argv[1:]))
""",
        encoding="utf-8",
    )
    _rodar_script(monkeypatch, script)
    monkeypatch.setenv(seletor_arquivo.VARIAVEL_TESTE, json.dumps({"nomes": ["anexo.pdf"]}))
    assert arquivos.abrir_arquivo(janela, "Anexar arquivo") == pasta / "anexo.pdf"
    assert avisos == []


@linux
def test_seletor_que_nao_da_resposta_e_uma_falha_clara(
    janela: QWidget,
    pasta: Path,
    avisos: list[tuple[str, str | None]],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    script = tmp_path / "seletor_mudo.py"
    script.write_text('print("Só lixo, resposta nenhuma")\n', encoding="utf-8")
    _rodar_script(monkeypatch, script)
    assert arquivos.abrir_arquivo(janela, "Anexar arquivo") is None
    ((texto, detalhes),) = avisos
    assert texto.startswith(arquivos.FALHA_NA_RESPOSTA + "; nada foi feito.")
    assert detalhes is not None and "Só lixo, resposta nenhuma" in detalhes


@linux
def test_seletor_que_termina_com_erro_e_uma_falha_ao_abrir(
    janela: QWidget,
    pasta: Path,
    avisos: list[tuple[str, str | None]],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    script = tmp_path / "seletor_quebrado.py"
    script.write_text(
        'import sys\nprint("falta um módulo", file=sys.stderr)\nsys.exit(1)\n', encoding="utf-8"
    )
    _rodar_script(monkeypatch, script)
    assert arquivos.abrir_arquivo(janela, "Anexar arquivo") is None
    ((texto, detalhes),) = avisos
    assert texto.startswith(arquivos.FALHA_AO_ABRIR + "; nada foi feito.")
    assert detalhes is not None and "código de saída 1" in detalhes and "falta um módulo" in detalhes


@linux
def test_programa_congelado_abre_o_seletor_com_a_opcao_auxiliar(
    janela: QWidget, pasta: Path, avisos: list[object], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    programa = congelar(monkeypatch, tmp_path)
    relatorio = tmp_path / "relatorio.json"
    monkeypatch.setenv(
        seletor_arquivo.VARIAVEL_TESTE, json.dumps({"nomes": ["anexo.pdf"], "relatorio": str(relatorio)})
    )
    executavel, argumentos, _ambiente = arquivos._comando_do_seletor("{}")
    assert [executavel, *argumentos[:2]] == [str(programa), "--auxiliar", "secretaria.ui.seletor_arquivo"]
    assert arquivos.abrir_arquivo(janela, "Anexar arquivo") == pasta / "anexo.pdf"
    assert "anexo.pdf" in json.loads(relatorio.read_text(encoding="utf-8"))["listados"]
    assert avisos == []
