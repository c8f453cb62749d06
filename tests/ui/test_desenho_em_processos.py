"""The Painel's chart helpers survive helpers that misbehave (`secretaria.ui.desenho_em_processos`).

Each test points the helpers' command at a small script of its own (in `tmp_path`): one that prints to its
standard output, one that dies in the middle of a request, ones that answer garbage or nothing at all. Every
chart must still come back — from the helper where it works, drawn in this process where it does not — with
the failed helper dropped (killed, out of the pool), no wait longer than the timeout, no exception for the
caller, and no helper started again once they have failed.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from secretaria.reports import desenhista, graficos
from secretaria.ui import desenho_em_processos as dp

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="ajudantes de teste recebem um descritor")

GRAFICO = graficos.Grafico(
    chave="teste",
    titulo="Autos por mês",
    categorias=("jan", "fev", "mar"),
    series=(graficos.Serie("Autos", (3.0, 5.0, 2.0)),),
)
PEDIDOS: list[dp.Pedido] = [(k, GRAFICO, 200 + 10 * k, 120, 100.0) for k in range(4)]

_RESPONDE_E = """
import os, sys, time
from secretaria.reports import desenhista
saida = desenhista.abrir_canal(int(sys.argv[1]))
entrada = sys.stdin.buffer
while desenhista.ler_mensagem(entrada, desenhista.LIMITE_PEDIDO) is not None:
    time.sleep({pausa})
    saida.write({resposta!r})
    saida.flush()
    {depois}
"""


def _cabecalho(tamanho: int, marca: bytes = desenhista.MARCA) -> bytes:
    return desenhista.CABECALHO.pack(marca, tamanho)


@pytest.fixture
def reserva(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A pool of helpers of this test's own (the program's, if any, are left alone), ended at its end."""
    monkeypatch.setattr(dp, "_ajudantes", [])
    monkeypatch.setattr(dp, "_falhas", 0)
    monkeypatch.setattr(dp, "_indisponivel", False)
    monkeypatch.setattr(dp, "PROCESSOS", 1)
    monkeypatch.setattr(dp, "ESPERA_PRIMEIRA_RESPOSTA", 60.0)
    yield
    dp.encerrar()


@pytest.fixture
def desenhados_aqui(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The widths of the charts drawn in this process (not by a helper)."""
    larguras: list[int] = []
    original = graficos.imagem

    def imagem(g: graficos.Grafico, largura: int, altura: int, dpi: float = 100) -> graficos.Imagem:
        larguras.append(largura)
        return original(g, largura, altura, dpi)

    monkeypatch.setattr(graficos, "imagem", imagem)
    return larguras


@pytest.fixture
def ajudante_de_teste(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[str], list[int]]:
    """Point the helpers' command at a script with this code; returns the list of starts (one per helper)."""

    def apontar(codigo: str) -> list[int]:
        script = tmp_path / "ajudante.py"
        script.write_text(codigo, encoding="utf-8")
        iniciados: list[int] = []

        def comando() -> list[str]:
            iniciados.append(1)
            return [sys.executable, str(script)]

        monkeypatch.setattr(dp, "_comando", comando)
        return iniciados

    return apontar


def _desenhar() -> list[tuple[int, int, int]]:
    return sorted((k, i.largura, i.altura) for k, i in dp.desenhar(PEDIDOS, lambda: False))


ESPERADO = [(k, 200 + 10 * k, 120) for k in range(4)]


@pytest.mark.usefixtures("reserva")
def test_ajudante_que_escreve_na_saida_padrao_funciona(
    ajudante_de_teste: Callable[[str], list[int]], desenhados_aqui: list[int]
) -> None:
    """Stray output — before starting, and from a "library" while each chart is drawn, even bytes that look
    like a header — never reaches the answers: the helper draws every chart and stays."""
    ajudante_de_teste(
        """
import os, sys
print("Carregando fontes...", flush=True)
os.write(1, b"\\x00\\x00\\x00\\x10lixo\\n")
from secretaria.reports import desenhista, graficos
original = graficos.imagem
def imagem(*argumentos):
    print("aviso de uma biblioteca", flush=True)
    os.write(1, desenhista.CABECALHO.pack(desenhista.MARCA, 1_600_000_000))
    return original(*argumentos)
graficos.imagem = imagem
sys.exit(desenhista.main(sys.argv[1:]))
"""
    )
    assert _desenhar() == ESPERADO
    assert desenhados_aqui == []
    (ajudante,) = dp.ajudantes()
    assert ajudante.processo.poll() is None
    assert _desenhar() == ESPERADO  # and again, the same helper
    assert dp.ajudantes() == [ajudante]
    assert desenhados_aqui == []


_SO_COM_RELOGIO_REAL = pytest.mark.skipif(
    "FAKETIME" in os.environ,
    reason="sob a libfaketime (make test-futuro) uma espera com prazo nunca termina: o prazo do "
    "temporizador fica no relógio falso; o prazo das respostas não depende da data",
)


@pytest.mark.usefixtures("reserva")
@pytest.mark.parametrize(
    ("resposta", "depois"),
    [
        (b"", "os._exit(3)"),  # dies on its first request, answering nothing
        (_cabecalho(1000) + b"abc", "os._exit(3)"),  # dies in the middle of its answer
        (b"XXXX" + b"\x00" * 4 + b"lixo", "time.sleep(600)"),  # another header, and it stays
        (_cabecalho(1_600_000_000), "time.sleep(600)"),  # an absurd length
        (_cabecalho(5) + b"lixo!", "time.sleep(600)"),  # a body that is no pickle
        (_cabecalho(20) + b"\x80\x05\x95\x09" + b"\x00" * 16, "time.sleep(600)"),  # a broken pickle
        (None, "time.sleep(600)"),  # a valid message of the wrong type
        pytest.param(  # half an answer, then silence: the timeout
            _cabecalho(1000) + b"abc", "time.sleep(600)", marks=_SO_COM_RELOGIO_REAL
        ),
        pytest.param(b"", "time.sleep(600)", marks=_SO_COM_RELOGIO_REAL),  # silence: the timeout
    ],
    ids=[
        "morre",
        "morre-no-meio",
        "cabecalho-invalido",
        "tamanho-absurdo",
        "ilegivel",
        "pickle-quebrado",
        "tipo-errado",
        "metade-e-silencio",
        "silencio",
    ],
)
def test_ajudante_que_falha_e_descartado_e_o_grafico_desenhado_aqui(
    resposta: bytes | None,
    depois: str,
    ajudante_de_teste: Callable[[str], list[int]],
    desenhados_aqui: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pickle

    if resposta is None:
        corpo = pickle.dumps("uma resposta qualquer")
        resposta = _cabecalho(len(corpo)) + corpo
    monkeypatch.setattr(dp, "ESPERA_PRIMEIRA_RESPOSTA", 3.0)
    ajudante_de_teste(_RESPONDE_E.format(pausa=0, resposta=resposta, depois=depois))
    (ajudante,) = dp.ajudantes()
    assert _desenhar() == ESPERADO
    assert sorted(desenhados_aqui) == [w for _k, w, _h in ESPERADO]  # every chart, here
    assert ajudante.perdido and ajudante.processo.poll() is not None  # killed
    assert ajudante not in dp._ajudantes
    assert dp._falhas == 1


@pytest.mark.usefixtures("reserva")
def test_depois_das_falhas_os_ajudantes_nao_sao_iniciados_de_novo(
    ajudante_de_teste: Callable[[str], list[int]],
    desenhados_aqui: list[int],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(dp, "PROCESSOS", 2)
    iniciados = ajudante_de_teste(_RESPONDE_E.format(pausa=0, resposta=b"", depois="os._exit(3)"))
    with caplog.at_level(logging.WARNING, logger=dp.__name__):
        for _ in range(3):
            assert _desenhar() == ESPERADO
    assert len(iniciados) == dp.LIMITE_FALHAS == 2  # the first two, lost at the first drawing
    assert dp.ajudantes() == []
    assert len(desenhados_aqui) == 3 * len(PEDIDOS)
    desistencias = [r for r in caplog.records if "até o programa fechar" in r.getMessage()]
    assert len(desistencias) == 1


@pytest.mark.usefixtures("reserva")
def test_um_ajudante_perdido_e_substituido_enquanto_as_falhas_nao_chegam_ao_limite(
    ajudante_de_teste: Callable[[str], list[int]], desenhados_aqui: list[int]
) -> None:
    iniciados = ajudante_de_teste(_RESPONDE_E.format(pausa=0, resposta=b"", depois="os._exit(3)"))
    _desenhar()
    assert len(iniciados) == 1 and dp._falhas == 1
    _desenhar()  # a second helper: one failure may be a fluke
    assert len(iniciados) == 2 and dp._falhas == 2
    _desenhar()  # no third
    assert len(iniciados) == 2
    assert len(desenhados_aqui) == 3 * len(PEDIDOS)


@pytest.mark.usefixtures("reserva")
def test_ajudante_que_nao_inicia_desenha_aqui_e_nao_e_tentado_de_novo(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    desenhados_aqui: list[int],
    caplog: pytest.LogCaptureFixture,
) -> None:
    tentativas: list[int] = []

    def comando() -> list[str]:
        tentativas.append(1)
        return [str(tmp_path / "programa-que-nao-existe")]

    monkeypatch.setattr(dp, "_comando", comando)
    with caplog.at_level(logging.WARNING, logger=dp.__name__):
        assert _desenhar() == ESPERADO
        assert _desenhar() == ESPERADO
    assert tentativas == [1]
    assert len(desenhados_aqui) == 2 * len(PEDIDOS)
    assert sum("até o programa fechar" in r.getMessage() for r in caplog.records) == 1


@pytest.mark.usefixtures("reserva")
def test_dois_pedidos_ao_mesmo_ajudante_que_morre_nao_dao_erro(
    ajudante_de_teste: Callable[[str], list[int]], desenhados_aqui: list[int]
) -> None:
    """Two drawings at once share the one helper, which dies while the first waits for it; the second, queued
    behind, must not write to its closed pipe ("ValueError: write to closed file" reached the window)."""
    ajudante_de_teste(_RESPONDE_E.format(pausa=0.5, resposta=b"", depois="os._exit(3)"))
    (ajudante,) = dp.ajudantes()
    resultados: list[object] = []

    def desenhar() -> None:
        try:
            resultados.append(_desenhar())
        except BaseException as exc:
            resultados.append(exc)

    linhas = [threading.Thread(target=desenhar) for _ in range(2)]
    for linha in linhas:
        linha.start()
    for linha in linhas:
        linha.join(timeout=120)
    assert resultados == [ESPERADO, ESPERADO]
    assert ajudante.perdido and ajudante not in dp._ajudantes
    assert len(desenhados_aqui) == 2 * len(PEDIDOS)


@_SO_COM_RELOGIO_REAL
@pytest.mark.usefixtures("reserva")
def test_ao_fechar_o_programa_um_ajudante_ocupado_e_morto_e_o_grafico_desenhado_aqui(
    ajudante_de_teste: Callable[[str], list[int]], desenhados_aqui: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exit does not wait for a stuck helper's timeout: it is killed, and the drawing waiting for it
    ends with its charts drawn here."""
    monkeypatch.setattr(dp, "ESPERA_PRIMEIRA_RESPOSTA", 3600.0)
    ajudante_de_teste(_RESPONDE_E.format(pausa=0, resposta=b"", depois="time.sleep(3600)"))
    (ajudante,) = dp.ajudantes()
    resultados: list[object] = []
    linha = threading.Thread(target=lambda: resultados.append(_desenhar()))
    linha.start()
    while not ajudante.trava.locked():  # the first request sent, its answer awaited
        threading.Event().wait(0.05)
    dp.encerrar()
    linha.join(timeout=120)
    assert resultados == [ESPERADO]
    assert ajudante.perdido and ajudante.processo.poll() is not None
    assert len(desenhados_aqui) == len(PEDIDOS)
