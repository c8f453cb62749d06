"""The manual shipped in the package: every section listed in the contents exists and every file is listed,
each starts with its title, every link between sections resolves, and the search ignores case and accents."""

from __future__ import annotations

from importlib.resources import files

from secretaria.services import manual


def test_sumario_e_arquivos_coincidem() -> None:
    m = manual.carregar()
    pasta = files("secretaria.resources").joinpath("manual")
    arquivos = {p.name[:-3] for p in pasta.iterdir() if p.name.endswith(".md")}
    assert set(m.ids()) == arquivos
    assert len(m.ids()) == len(set(m.ids()))
    assert m.ids()[0] == manual.INICIO and manual.PRIMEIROS_PASSOS in m.ids()
    for secao in m.secoes:
        assert secao.texto.startswith(f"# {secao.titulo}\n")
        assert len(secao.texto) > 400, f"seção {secao.id} curta demais"


def test_links_internos_resolvem() -> None:
    m = manual.carregar()
    internos = 0
    for secao in m.secoes:
        for link in m.links(secao.id):
            alvo = manual.alvo_do_link(link)
            assert alvo is not None, f"{secao.id}: link para fora do manual: {link}"
            assert link.endswith(".md"), f"{secao.id}: {link}"
            assert m.existe(alvo), f"{secao.id}: link para seção inexistente {link}"
            internos += 1
    assert internos > 50
    # every section but the start is reachable by a link from another section
    alcancadas = {manual.alvo_do_link(link) for s in m.secoes for link in m.links(s.id)}
    assert set(m.ids()) - alcancadas <= {manual.INICIO}


def test_hierarquia_do_sumario() -> None:
    m = manual.carregar()
    assert m.secao("intimacao").pai == "processo" and m.secao("intimacao").nivel == 1
    assert m.secao("urm").pai == "administracao"
    assert m.secao("listas").pai is None


def test_busca_sem_acentos_e_todas_as_palavras() -> None:
    m = manual.carregar()
    com = [r.secao for r in m.buscar("cassação")]
    sem = [r.secao for r in m.buscar("CASSACAO")]
    assert com == sem and com[0] == "cassacao"  # the title match comes first
    ambas = {r.secao for r in m.buscar("recurso prefeito")}
    for id_ in ambas:
        texto = m.secao(id_).texto.lower()
        assert "recurso" in texto and "prefeito" in texto
    assert "recurso" in ambas
    assert m.buscar("palavrainexistentexyz") == []
    assert m.buscar("   ") == []
