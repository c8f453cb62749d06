"""Start-up on Linux without the libraries of Qt's xcb plugin: a Portuguese message naming the packages to
install and exit 2, before Qt (or the database) is touched; nothing said when they are all there."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from secretaria import cli
from secretaria.db import Banco
from secretaria.ui import requisitos

_SEM_CURSOR = {"libxcb-cursor.so.0", "libxcb-icccm.so.4"}


def _faltando(*nomes: str) -> Callable[[str], bool]:
    return lambda biblioteca: biblioteca not in nomes


def test_pacotes_que_faltam_pelo_nome_debian() -> None:
    faltam = requisitos.pacotes_que_faltam(_faltando(*_SEM_CURSOR))
    assert faltam == ["libxcb-cursor0", "libxcb-icccm4"]
    assert requisitos.pacotes_que_faltam(lambda _b: True) == []


@pytest.mark.parametrize(
    ("plataforma", "ambiente", "xcb"),
    [
        ("linux", {}, True),
        ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, True),  # Qt 6 still takes xcb unless told
        ("linux", {"QT_QPA_PLATFORM": "xcb"}, True),
        ("linux", {"QT_QPA_PLATFORM": "wayland"}, False),
        ("linux", {"QT_QPA_PLATFORM": "wayland;xcb"}, False),
        ("linux", {"QT_QPA_PLATFORM": "offscreen"}, False),
        ("win32", {}, False),
        ("darwin", {}, False),
    ],
)
def test_quando_o_qt_usara_xcb(plataforma: str, ambiente: dict[str, str], xcb: bool) -> None:
    assert requisitos.usara_xcb(plataforma, ambiente) is xcb


def test_mensagem_diz_o_que_instalar() -> None:
    mensagem = requisitos.conferir_bibliotecas_graficas(
        plataforma="linux", ambiente={}, carregar=_faltando(*_SEM_CURSOR)
    )
    assert mensagem is not None
    assert "Faltam no sistema bibliotecas gráficas" in mensagem
    assert "sudo apt-get install libxcb-cursor0 libxcb-icccm4" in mensagem
    um = requisitos.conferir_bibliotecas_graficas(
        plataforma="linux", ambiente={}, carregar=_faltando("libxcb-cursor.so.0")
    )
    assert um is not None and "Falta no sistema uma biblioteca gráfica" in um and "o pacote" in um
    assert (
        requisitos.conferir_bibliotecas_graficas(plataforma="linux", ambiente={}, carregar=lambda _b: True)
        is None
    )


def test_carrega_de_verdade() -> None:
    assert requisitos.carrega("libc.so.6")
    assert not requisitos.carrega("libnao-existe-secretaria.so.9")


@pytest.fixture
def linux_xcb(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The program started as on a desktop: Linux, no QT_QPA_PLATFORM; the window itself is recorded."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    aberturas: list[str] = []
    from secretaria.ui import app

    def executar(banco: Banco, *, demo: bool) -> int:
        aberturas.append(banco.url)
        return 0

    monkeypatch.setattr(app, "executar", executar)
    return aberturas


def test_sem_bibliotecas_nao_abre_nem_cria_o_banco(
    linux_xcb: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(requisitos, "carrega", _faltando(*_SEM_CURSOR))
    arquivo = tmp_path / "novo.sqlite"
    for args in (
        ["--db", f"sqlite:///{arquivo}", "--criar"],
        ["demo", "--abrir", "--db", f"sqlite:///{arquivo}"],
    ):
        codigo = cli.main(args)
        erro = capsys.readouterr().err
        assert codigo == cli.SAIDA_ERRO
        assert erro.startswith("secretaria: Faltam no sistema bibliotecas gráficas")
        assert "sudo apt-get install libxcb-cursor0 libxcb-icccm4" in erro
    assert linux_xcb == [] and not arquivo.exists()


def test_com_bibliotecas_abre_sem_mensagem(
    linux_xcb: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(requisitos, "carrega", lambda _b: True)
    arquivo = tmp_path / "novo.sqlite"
    assert cli.main(["demo", "--abrir", "--db", f"sqlite:///{arquivo}"]) == 0
    assert linux_xcb == [f"sqlite:///{arquivo}"]
    assert "bibliotecas" not in capsys.readouterr().err


def test_readme_lista_os_pacotes() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    for pacote in requisitos.BIBLIOTECAS_XCB.values():
        assert pacote in readme
