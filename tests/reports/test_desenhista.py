"""The chart helper's messages (`secretaria.reports.desenhista`): what is not a message of the protocol is
refused as such, never read as something else nor waited for."""

from __future__ import annotations

import io
import pickle
import subprocess
import sys

import pytest

from secretaria import auxiliares
from secretaria.reports import desenhista


def _mensagem(corpo: bytes, marca: bytes = desenhista.MARCA, tamanho: int | None = None) -> bytes:
    return desenhista.CABECALHO.pack(marca, len(corpo) if tamanho is None else tamanho) + corpo


def test_mensagens_vao_e_voltam_uma_apos_a_outra() -> None:
    canal = io.BytesIO()
    desenhista.escrever_mensagem(canal, ("um", 2), desenhista.LIMITE_PEDIDO)
    desenhista.escrever_mensagem(canal, {"tres": 3.0}, desenhista.LIMITE_PEDIDO)
    canal.seek(0)
    assert desenhista.ler_mensagem(canal, desenhista.LIMITE_PEDIDO) == ("um", 2)
    assert desenhista.ler_mensagem(canal, desenhista.LIMITE_PEDIDO) == {"tres": 3.0}
    assert desenhista.ler_mensagem(canal, desenhista.LIMITE_PEDIDO) is None  # the end, between messages


@pytest.mark.parametrize(
    ("bytes_", "erro"),
    [
        (b"Carregando fontes...\n" + _mensagem(pickle.dumps(1)), "cabeçalho inválido"),  # a stray print
        (_mensagem(b"", tamanho=1_600_000_000), "1600000000 bytes"),  # what a stray line once meant
        (_mensagem(pickle.dumps("x" * 100))[:-10], "mensagem incompleta"),
        (_mensagem(b"nada de pickle"), "mensagem ilegível"),
        (desenhista.MARCA[:3], "cabeçalho incompleto"),
    ],
    ids=["linha-solta", "tamanho-absurdo", "incompleta", "ilegivel", "cabecalho-curto"],
)
def test_o_que_nao_e_mensagem_do_protocolo_e_recusado(bytes_: bytes, erro: str) -> None:
    with pytest.raises(desenhista.ErroProtocolo, match=erro):
        desenhista.ler_mensagem(io.BytesIO(bytes_), desenhista.LIMITE_RESPOSTA)


def test_mensagem_maior_que_o_limite_nao_e_escrita() -> None:
    canal = io.BytesIO()
    with pytest.raises(desenhista.ErroProtocolo, match="o limite é 1000"):
        desenhista.escrever_mensagem(canal, b"x" * 2000, 1000)
    assert canal.getvalue() == b""


def test_erro_que_nao_passa_por_pickle_vira_texto() -> None:
    class ErroLocal(Exception):
        pass

    resposta = desenhista._resposta_de_erro(ErroLocal("eixo sem dados"))
    assert isinstance(resposta, RuntimeError)
    assert str(resposta) == "ErroLocal: eixo sem dados"
    valor = ValueError("largura negativa")
    assert desenhista._resposta_de_erro(valor) is valor


@pytest.mark.parametrize("argumentos", [[], ["x"], ["3", "4"]])
def test_desenhista_sem_canal_recusa(argumentos: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert desenhista.main(argumentos) == 2
    assert "uso: python -m secretaria.reports.desenhista CANAL" in capsys.readouterr().err


@pytest.mark.skipif(sys.platform == "win32", reason="passa um descritor (no Windows, um handle)")
def test_desenhista_termina_num_pedido_invalido_sem_responder() -> None:
    """A request that is not a message of the protocol ends the helper (exit 1) instead of leaving it
    waiting for 1.6 GB; nothing is written to its answers' pipe."""
    import os

    leitura, escrita = os.pipe()
    processo = subprocess.Popen(
        [*auxiliares.comando(auxiliares.DESENHISTA), str(escrita)],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=auxiliares.ambiente(),
        pass_fds=(escrita,),
    )
    os.close(escrita)
    with os.fdopen(leitura, "rb") as respostas:
        _, erros = processo.communicate(_mensagem(b"", tamanho=1_600_000_000), timeout=120)
        assert respostas.read() == b""
    assert processo.returncode == 1
    assert b"1600000000 bytes" in erros
