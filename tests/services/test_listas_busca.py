"""The autos list's one-word search reads indexes and unites the ids: exactly the rows the row-by-row test finds.

A search of one word goes through `busca_ids` (a union of index reads); the same word typed twice goes through
`busca` (each row tested, as every search of several words): counts, pages and order must agree.
"""

from __future__ import annotations

import pytest

from secretaria import relogio
from secretaria.db import Banco
from secretaria.services import listas
from secretaria.services.listas import Filtro
from tests.services.test_listas import AGORA, HOJE, povoar


@pytest.fixture(autouse=True)
def _relogio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relogio, "hoje", lambda: HOJE)
    monkeypatch.setattr(relogio, "agora", lambda: AGORA)


def test_busca_de_uma_palavra_por_indices_igual_a_linha_a_linha(banco: Banco) -> None:
    dados = povoar(banco)
    placa = next(v["placa"] for v in dados["veiculos"] if v["placa"])
    palavras = [
        "conceicao", "ÁVILA", "motorista", "cruzeiro", "alfa", "onibus", "I", "1-VI", "Art.", "xi",
        "17", "3", "0002/2025", placa, placa.lower(), f"{placa[:3]}-{placa[3:]}", "%", "_", "zzz",
    ]  # fmt: skip
    vistos = 0
    with banco.leitura() as s:
        for palavra in palavras:
            uma, duas = Filtro(texto=palavra), Filtro(texto=f"{palavra} {palavra}")
            total = listas.contar(s, "autos", uma)
            assert total == listas.contar(s, "autos", duas), palavra
            vistos += total > 0
            for ordem in (None, ("data_infracao", True), ("fase", False), ("operadora", True)):
                assert listas.pagina(s, "autos", uma, ordem, 0, 1000) == listas.pagina(
                    s, "autos", duas, ordem, 0, 1000
                ), (palavra, ordem)
            assert listas.pagina(s, "autos", uma, None, 5, 7) == listas.pagina(s, "autos", duas, None, 5, 7)
            filtrado = Filtro(texto=palavra, situacoes=frozenset({"encerrado"}))
            assert listas.contar(s, "autos", filtrado) == listas.contar(
                s, "autos", Filtro(texto=f"{palavra} {palavra}", situacoes=frozenset({"encerrado"}))
            )
    assert vistos >= 10  # most words find something: the comparison is not between empty lists
