"""The bench's row for the `make dist` folder (`bench/novidades.py`): it measures a folder that is there and says
"não montado" when none is, never failing the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import novidades


def test_sem_pasta_montada_diz_nao_montado(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(novidades, "PASTAS_DIST", (tmp_path / "dist" / "Secretaria",))
    linhas = novidades.medir_dist("SQLite")
    assert [r.valor for r in linhas] == [None, None]
    assert all("não montado" in r.nota for r in linhas)


def test_tamanho_da_pasta_soma_os_arquivos(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pasta = tmp_path / "dist" / "Secretaria"
    (pasta / "_internal").mkdir(parents=True)
    (pasta / "secretaria").write_bytes(b"x" * 1500)
    (pasta / "_internal" / "lib.so").write_bytes(b"y" * 2500)
    monkeypatch.setattr(novidades, "PASTAS_DIST", (tmp_path / "ausente", pasta))
    monkeypatch.setattr(
        novidades, "_inicio_dist", lambda *_a, **_k: (_ for _ in ()).throw(OSError("sem exec"))
    )
    tamanho, inicio = novidades.medir_dist("SQLite")
    assert novidades.pasta_dist() == pasta
    assert tamanho.valor == pytest.approx(4000 / 1e6)
    assert inicio.valor is None and "sem exec" in inicio.nota
