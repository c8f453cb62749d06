"""The list reads made faster give exactly the rows they gave before, on the demo city, on SQLite and
PostgreSQL: a new search's count and first page read at once (`listas.pagina_e_total`, the matching ids read
once), for many words (accents, case, parts of words, numbers, plates, wildcards); and the end of a list read
from its end (`pagina(..., total=)`), in every order."""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import AutoInfracao, Empregado, Operadora, Veiculo
from secretaria.services import listas
from secretaria.services.listas import Filtro
from tests.services.test_demo import demo  # noqa: F401 (the demo city, built once per module and database)


def _sem_acento(texto: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", texto) if unicodedata.category(c) != "Mn")


def _palavras(banco: Banco) -> list[str]:
    """Words a clerk would type, taken from the demo: names whole, in parts, without their accents, in
    capitals; numbers, plates and prefixes; and words that find nothing."""
    with banco.leitura() as s:
        nomes = list(s.scalars(sa.select(Operadora.razao_social).order_by(Operadora.id)))
        nomes += list(s.scalars(sa.select(Empregado.nome).order_by(Empregado.id).limit(3)))
        infratores = list(s.scalars(sa.select(AutoInfracao.infrator_nome).distinct().limit(5)))
        placa, prefixo = s.execute(
            sa.select(Veiculo.placa, Veiculo.prefixo).where(Veiculo.placa.is_not(None)).limit(1)
        ).one()
        ano, numero = s.execute(sa.select(AutoInfracao.ano, AutoInfracao.numero).limit(1)).one()
    palavras: list[str] = []
    for nome in nomes + infratores:
        for p in nome.split()[:2]:
            palavras += [p.upper(), p.lower()[:4], _sem_acento(p).lower(), p[1:-1]]
    palavras += [placa, placa.lower(), f"{placa[:3]}-{placa[3:]}", str(prefixo)]
    palavras += [f"{numero:04d}/{ano}", str(numero), "Art.", "VI", "1º", "ção", "ÇÃO", "viacao", "VIAÇÃO"]
    palavras += ["%", "_", "zzzz", "a", "á", "transporte coletivo", "ltda"]
    com_acento = [p for p in palavras if p != _sem_acento(p)]
    assert len(com_acento) >= 5, com_acento  # the comparison covers accented words
    return list(dict.fromkeys(p for p in palavras if p.strip()))


def test_busca_nova_da_exatamente_o_que_contar_e_pagina_dao(demo: Banco) -> None:  # noqa: F811
    palavras = _palavras(demo)
    achou = 0
    with demo.leitura() as s:
        for palavra in palavras:
            filtrado = Filtro(texto=palavra, situacoes=frozenset({"encerrado"}))
            for filtro, ordem in (
                (Filtro(texto=palavra), None),
                (Filtro(texto=palavra), ("data_infracao", True)),
                (Filtro(texto=palavra), ("operadora", False)),
                (filtrado, None),
            ):
                total = listas.contar(s, "autos", filtro)
                esperado = (total, listas.pagina(s, "autos", filtro, ordem, 0, 200))
                lido = listas.pagina_e_total(s, "autos", filtro, ordem=ordem, quantidade=200)
                assert lido == esperado, (palavra, ordem)
                achou += total > 0
            for lista in ("operadoras", "veiculos"):
                filtro = Filtro(texto=palavra)
                esperado = (listas.contar(s, lista, filtro), listas.pagina(s, lista, filtro, None, 0, 50))
                assert listas.pagina_e_total(s, lista, filtro, quantidade=50) == esperado, (lista, palavra)
    assert achou >= 2 * len(palavras)  # most words find autos: the comparison is not between empty lists


def test_fim_da_lista_lido_do_fim_igual_ao_lido_do_comeco(demo: Banco) -> None:  # noqa: F811
    """A window in a list's second half, read in the reverse order from the end (`pagina(..., total=)`), is
    the same rows in the same order, for every sort key both ways, blanks included (vehicle, fine)."""
    vistos = 0
    with demo.leitura() as s:
        for lista in ("autos", "operadoras", "veiculos", "empregados"):
            chaves = [c.chave for c in listas.definicao(lista).colunas]
            for filtro in (Filtro(), Filtro(texto="a")):
                total = listas.contar(s, lista, filtro)
                for chave in chaves:
                    for crescente in (True, False):
                        ordem = (chave, crescente)
                        for inicio in {max(0, total - 7), total * 2 // 3, total // 2 + 1, total}:
                            esperado = listas.pagina(s, lista, filtro, ordem, inicio, 13)
                            lido = listas.pagina(s, lista, filtro, ordem, inicio, 13, total=total)
                            assert lido == esperado, (lista, filtro.texto, ordem, inicio)
                            vistos += len(esperado)
    assert vistos > 1000
