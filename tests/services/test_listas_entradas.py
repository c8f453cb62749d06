"""Any text a search box accepts gives a normal result on every list, on SQLite and PostgreSQL.

A QLineEdit takes up to 32,767 characters of any Unicode: a 5,000-letter word once made SQLite's GLOB
pattern too long, a NUL was refused by PostgreSQL, and the list repainted the error forever.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria import relogio
from secretaria.db import Banco
from secretaria.models import Auditoria
from secretaria.services import listas
from secretaria.services.listas import Filtro
from tests.services.test_listas import AGORA, HOJE, povoar


@pytest.fixture(autouse=True)
def _relogio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relogio, "hoje", lambda: HOJE)
    monkeypatch.setattr(relogio, "agora", lambda: AGORA)


# Texts that find nothing in the test data, however they are turned into SQL.
NADA = [
    "á" * 5_000,
    "x" * 32_767,
    "\U0001f68c" * 16_383,  # a bus emoji, as many as a QLineEdit takes (two UTF-16 units each)
    " ".join(f"palavra{i}" for i in range(5_000)),
    " ".join(["zzz"] * 16_000),
    "%",
    "%%",
    "__",
    "\\",
    "[",
    "]",
    "[a-z]",
    "*",
    "?",
    "^",
    "'; DROP TABLE auto_infracao; --",
    "\U0001f68c",
    "e\u0301\u0301\u0301",
    "\u200f\u202e",
    "zzz\x00",
    "\x00\x01zzz\x1f\x7f\x85\x9f",
]


def _resultado(sessao: Any, lista: str, texto: str) -> tuple[int, list[Any]]:
    filtro = Filtro(texto=texto)
    total = listas.contar(sessao, lista, filtro)
    pagina = listas.pagina(sessao, lista, filtro, None, 0, 50)
    exportadas = list(listas.exportar_linhas(sessao, lista, filtro))
    assert len(exportadas) == total and len(pagina) == min(total, 50), (lista, texto[:20])
    return total, pagina


def _ids_com_sublinhado(sessao: Any, lista: str) -> set[int]:
    if lista != "auditoria":
        return set()
    colunas = (Auditoria.usuario_login, Auditoria.acao, Auditoria.entidade, Auditoria.antes, Auditoria.depois)
    linhas = sessao.execute(sa.select(Auditoria.id, *colunas))
    return {r[0] for r in linhas if any("_" in (v or "") for v in r[1:])}


def test_qualquer_texto_da_caixa_de_busca_da_um_resultado_normal(banco: Banco) -> None:
    povoar(banco)
    with banco.leitura() as s:
        for lista in listas.LISTAS:
            todas = listas.contar(s, lista)
            assert todas > 0, lista
            for texto in NADA:
                assert _resultado(s, lista, texto) == (0, []), (lista, texto[:20])
            # "_" is a plain character (actions are stored as "lavrar_auto"), never LIKE's wildcard.
            sublinhado = {r[0] for r in listas.exportar_linhas(s, lista, Filtro(texto="_"))}
            assert sublinhado == _ids_com_sublinhado(s, lista), lista
            # Only control characters and blanks: no search at all.
            assert _resultado(s, lista, "\x00 \t\n\x1b\x85")[0] == todas, lista


def test_caracteres_de_controle_separam_palavras_e_acentos_compostos_acham_o_mesmo(banco: Banco) -> None:
    povoar(banco)
    with banco.leitura() as s:
        assert _resultado(s, "operadoras", "viação")[0] == 1
        for variante in ("viação\x00", "\x00viação", "viação\x00alfa", "viação\u0085\x7falfa"):
            assert _resultado(s, "operadoras", variante) == _resultado(s, "operadoras", "viação"), variante
        decomposto = unicodedata.normalize("NFD", "Viação")
        assert decomposto != "Viação"
        assert _resultado(s, "operadoras", decomposto) == _resultado(s, "operadoras", "viação")
        conceicao = _resultado(s, "autos", "conceicao avila")
        assert conceicao[0] == 1
        assert _resultado(s, "autos", "conceicao\x00avila") == conceicao
        # Many words: past the limit, repeats are dropped and the rest still has to match.
        assert _resultado(s, "autos", " ".join(["conceicao", "avila"] * 5_000)) == conceicao
        assert _resultado(s, "auditoria", "gaucha\x00")[0] == 1
