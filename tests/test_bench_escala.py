"""The bench's peak memory of a process it starts is that process's own, not the bench's."""

from __future__ import annotations

import pytest

from bench.escala import _processo_medido

_CHEIO = 200 * 1024 * 1024


def test_pico_e_do_processo_medido_nao_de_quem_o_inicia() -> None:
    lastro = bytearray(_CHEIO)  # the bench's own memory, touched: resident in this process
    for i in range(0, len(lastro), 4096):
        lastro[i] = 1
    _s, pequeno, primeira = _processo_medido(["-c", "print('pronto')"])
    codigo = f"x = bytearray({_CHEIO})\nfor i in range(0, len(x), 4096): x[i] = 1\nprint('cheio')"
    _s, cheio, _p = _processo_medido(["-c", codigo])
    assert primeira == "pronto"
    assert pequeno < 100  # a bare Python: tens of MB, not the 200 MB this process holds
    assert cheio >= _CHEIO / 2**20  # what the measured process itself touched is counted
    del lastro


def test_processo_que_falha_levanta_com_a_sua_saida() -> None:
    with pytest.raises(RuntimeError, match="saiu com 3"):
        _processo_medido(["-c", "import sys; print('antes'); sys.exit(3)"])
