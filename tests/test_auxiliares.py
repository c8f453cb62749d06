"""How helper processes are started (`secretaria.auxiliares`) and the frozen program's `--auxiliar`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from secretaria import auxiliares, cli
from secretaria.reports import graficos
from tests.helpers.programa_congelado import RAIZ, congelar


def test_comando_fora_de_um_programa_congelado_usa_python_m(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert auxiliares.comando(auxiliares.DESENHISTA, "7") == [
        sys.executable,
        "-m",
        "secretaria.reports.desenhista",
        "7",
    ]


def test_comando_num_programa_congelado_usa_a_opcao_auxiliar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", r"C:\Programas\Secretaria\Secretaria.exe")
    assert auxiliares.comando(auxiliares.SELETOR_ARQUIVO, '{"titulo": "x"}') == [
        r"C:\Programas\Secretaria\Secretaria.exe",
        "--auxiliar",
        "secretaria.ui.seletor_arquivo",
        '{"titulo": "x"}',
    ]


def test_comando_recusa_um_modulo_fora_da_lista() -> None:
    with pytest.raises(ValueError, match="não é um processo auxiliar"):
        auxiliares.comando("os")


def test_ambiente_poe_a_pasta_do_pacote_primeiro_sem_entrada_vazia(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(["", "/outra/pasta", ""]))
    monkeypatch.setenv("SECRETARIA_VARIAVEL_DE_TESTE", "mantida")
    ambiente = auxiliares.ambiente()
    assert ambiente["PYTHONPATH"].split(os.pathsep) == [str(RAIZ), "/outra/pasta"]
    assert ambiente["SECRETARIA_VARIAVEL_DE_TESTE"] == "mantida"

    monkeypatch.delenv("PYTHONPATH")
    assert auxiliares.ambiente()["PYTHONPATH"] == str(RAIZ)


def test_ambiente_de_um_programa_congelado_fica_como_esta(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setenv("PYTHONPATH", "/outra/pasta")
    assert auxiliares.ambiente() == dict(os.environ)


@pytest.mark.parametrize(
    "argumentos", [["--auxiliar"], ["--auxiliar", "os"], ["--auxiliar", "secretaria.cli"]]
)
def test_opcao_auxiliar_recusa_o_que_nao_esta_na_lista(
    argumentos: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argumentos) == cli.SAIDA_ERRO
    assert "não é um processo auxiliar do programa" in capsys.readouterr().err


def test_cada_modulo_da_lista_roda_pela_opcao_auxiliar() -> None:
    """Each module of the list has the `main(argv) -> int` that `cli.main` calls."""
    assert {auxiliares.DESENHISTA, auxiliares.SELETOR_ARQUIVO} == auxiliares.MODULOS
    codigo = Path(cli.__file__).read_text(encoding="utf-8")
    for modulo in auxiliares.MODULOS:
        pacote, nome = modulo.rsplit(".", 1)
        assert f"from {pacote} import {nome}" in codigo  # imported by name: a frozen build collects it


GRAFICO = graficos.Grafico(
    chave="teste",
    titulo="Autos por mês",
    categorias=("jan", "fev", "mar"),
    series=(graficos.Serie("Autos", (3.0, 5.0, 2.0)),),
)

pular_no_windows = pytest.mark.skipif(
    sys.platform == "win32", reason="o programa congelado de teste é um script com linha #!"
)


@pular_no_windows
def test_programa_congelado_desenha_com_seu_processo_auxiliar(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The frozen program starts `itself --auxiliar secretaria.reports.desenhista` and the chart comes back
    from that process."""
    from secretaria.ui import desenho_em_processos

    programa = congelar(monkeypatch, tmp_path)
    ajudante = desenho_em_processos._Ajudante()
    try:
        argumentos = ajudante.processo.args
        assert isinstance(argumentos, list)
        assert argumentos[:3] == [str(programa), "--auxiliar", auxiliares.DESENHISTA]
        imagem = ajudante.desenhar((GRAFICO, 240, 120, 100.0))
        assert (imagem.largura, imagem.altura) == (240, 120)
        assert len(imagem.rgba) == 4 * 240 * 120
        assert {r.categoria for r in imagem.regioes} == {0, 1, 2}
    finally:
        ajudante.encerrar()
    assert ajudante.processo.returncode == 0


@pular_no_windows
def test_opcao_auxiliar_pela_linha_de_comando_do_programa(tmp_path: Path) -> None:
    """`secretaria --auxiliar MODULO` reaches the module's own `main` (its usage refusal, exit 2), not the
    program's argument parser (which would refuse `--auxiliar` itself)."""
    from tests.helpers.programa_congelado import escrever_programa

    programa = escrever_programa(tmp_path)
    feito = subprocess.run(
        [str(programa), "--auxiliar", auxiliares.SELETOR_ARQUIVO], capture_output=True, text=True, timeout=60
    )
    assert feito.returncode == 2
    assert "seletor_arquivo PEDIDO_JSON" in feito.stderr
    feito = subprocess.run(
        [str(programa), "--auxiliar", "secretaria.demo"], capture_output=True, text=True, timeout=60
    )
    assert feito.returncode == 2
    assert "“secretaria.demo” não é um processo auxiliar do programa" in feito.stderr
