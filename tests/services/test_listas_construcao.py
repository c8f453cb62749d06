"""Each list's SQL is built once a day per database and shared by every read of that day (built for each read it
was a third of reading a window of the autos list); a list whose SQL compares with the time of day (the users',
blocked until a time) is built for each read."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date, datetime, time

import pytest

from secretaria import relogio
from secretaria.db import Banco
from secretaria.services import listas
from secretaria.services.listas.nucleo import ConsultaLista, ContextoConsulta, DefinicaoLista

Construtor = Callable[[DefinicaoLista, ContextoConsulta], ConsultaLista]


@pytest.fixture
def construidas(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, date]]]:
    """(list, day) of each time a list's SQL is built, from an empty cache (and left empty)."""
    feitas: list[tuple[str, date]] = []

    def contando(nome: str, construir: Construtor) -> Construtor:
        def construir_contando(d: DefinicaoLista, ctx: ContextoConsulta) -> ConsultaLista:
            feitas.append((nome, ctx.hoje))
            return construir(d, ctx)

        return construir_contando

    for nome, construir in list(listas._CONSTRUTORES.items()):
        monkeypatch.setitem(listas._CONSTRUTORES, nome, contando(nome, construir))
    listas._construida.cache_clear()
    yield feitas
    listas._construida.cache_clear()


def test_sql_de_cada_lista_construido_uma_vez_por_dia(
    banco: Banco, construidas: list[tuple[str, date]], monkeypatch: pytest.MonkeyPatch
) -> None:
    dia, minuto = [date(2026, 11, 30)], [0]
    monkeypatch.setattr(relogio, "hoje", lambda: dia[0])
    monkeypatch.setattr(relogio, "agora", lambda: datetime.combine(dia[0], time(10, minuto[0])))
    for m in range(3):
        minuto[0] = m  # the clock goes on between the reads
        with banco.leitura() as s:
            total = listas.contar(s, "autos")
            listas.pagina(s, "autos", None, None, 0, 10, total=total)
            listas.pagina_e_total(s, "autos", listas.Filtro(texto="rua"))
            listas.contar(s, "usuarios")
    assert construidas.count(("autos", date(2026, 11, 30))) == 1
    assert construidas.count(("usuarios", date(2026, 11, 30))) == 3
    dia[0] = date(2026, 12, 1)  # another day: the day's SQL (deadlines, situations) built for it
    with banco.leitura() as s:
        listas.contar(s, "autos")
    assert construidas.count(("autos", date(2026, 12, 1))) == 1
