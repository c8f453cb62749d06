"""What other PCs changed (`services.mudancas.Vigia`): two Banco instances on one database are two PCs; an
act committed on one is read by the other's watcher, named by entity, id and login, and told apart from the
watcher's own acts. On PostgreSQL the notification travels with the COMMIT and a dropped listener comes back
by itself."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import date

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.services.mudancas import Mudanca, Vigia
from secretaria.services.notificacao import CANAL_MUDANCAS, aviso_de_mudanca
from secretaria.services.semente import abrir_e_semear
from tests.helpers import fabrica


def esperar(vigia: Vigia, condicao: Callable[[list[Mudanca]], bool], segundos: float = 2.0) -> list[Mudanca]:
    """Call `ler()` as a window would (it never blocks) until `condicao` holds on what was read."""
    lidas: list[Mudanca] = []
    prazo = time.monotonic() + segundos
    while time.monotonic() < prazo:
        lidas += vigia.ler()
        if condicao(lidas):
            return lidas
        time.sleep(0.02)
    raise AssertionError(f"nada chegou em {segundos} s: {lidas}")


def test_ato_de_outro_pc_chega_com_entidade_login_e_origem(
    banco: Banco, outro: Banco, cidade: fabrica.Cidade, monkeypatch: pytest.MonkeyPatch
) -> None:
    vigia = Vigia(banco)
    assert vigia.ler() == []  # only what is committed after the watcher starts
    auto = fabrica.Roteiro(outro, cidade, monkeypatch).lavrar()
    lidas = esperar(vigia, bool)
    assert [(m.entidade, m.entidade_id, m.login, m.proprio) for m in lidas] == [
        ("auto_infracao", str(auto.id), "fiscal", False)
    ]
    assert lidas[0].momento is not None and lidas[0].momento.date() == date(2026, 11, 30)
    assert vigia.ler() == []  # read once

    # The watcher's own Banco acting: read too, marked as its own.
    meu = fabrica.Roteiro(banco, cidade, monkeypatch).lavrar()
    proprias = esperar(vigia, bool)
    assert [(m.entidade_id, m.proprio) for m in proprias] == [(str(meu.id), True)]
    vigia.fechar()
    assert vigia.ler() == []


def test_ato_desfeito_nao_avisa_e_login_vem_como_acesso(
    banco: Banco, outro: Banco, cidade: fabrica.Cidade, monkeypatch: pytest.MonkeyPatch
) -> None:
    from secretaria.erros import ErroDominio

    vigia = Vigia(banco)
    roteiro = fabrica.Roteiro(outro, cidade, monkeypatch)
    with pytest.raises(ErroDominio):
        roteiro.lavrar(operadora_id=999_999)  # refused: nothing written, nothing announced
    with outro.uow() as uow:  # an entry of the session log: "acesso", which only the accounts list hears
        from secretaria.services import auditoria

        auditoria.registrar(uow.session, fabrica.ATORES["fiscal"], "entrada", auditoria.ENTIDADE_ACESSO, "x")
        uow.commit()
    assert [m.entidade for m in esperar(vigia, bool)] == [auditoria.ENTIDADE_ACESSO]
    roteiro.lavrar()
    assert [m.entidade for m in esperar(vigia, bool)] == ["auto_infracao"]
    vigia.fechar()


def test_o_banco_fechado_fecha_o_observador(banco_url: str) -> None:
    banco = abrir_e_semear(banco_url)
    vigia = Vigia(banco)
    assert vigia.conectado
    banco.fechar()
    assert not vigia.conectado and vigia.ler() == []


def test_postgresql_avisa_no_commit_e_reconecta_depois_de_derrubado(
    banco: Banco, outro: Banco, cidade: fabrica.Cidade, monkeypatch: pytest.MonkeyPatch
) -> None:
    if banco.eh_sqlite:
        pytest.skip("LISTEN/NOTIFY e pg_terminate_backend são do PostgreSQL")
    vigia = Vigia(banco)
    assert vigia.descritor() is not None
    roteiro = fabrica.Roteiro(outro, cidade, monkeypatch)

    # The notification itself: sent by the committing transaction, naming entity, id, login and origin.
    escuta = Vigia(outro)
    avisos: list[str] = []

    def guardar(texto: str) -> list[Mudanca]:
        avisos.append(texto)
        return []

    monkeypatch.setattr(escuta, "_do_aviso", guardar)
    roteiro.lavrar()
    esperar(vigia, bool)
    esperar(escuta, lambda _l: bool(avisos))
    dados = json.loads(avisos[0])
    assert dados["o"] == outro.origem.id and dados["e"] == [["auto_infracao", "1", "fiscal"]]
    escuta.fechar()

    # The server drops the listener: the next read reconnects and reads what was committed meanwhile.
    with outro.engine.connect() as conn:
        conn.execute(sa.select(sa.func.pg_terminate_backend(vigia._conexao.info.backend_pid)))
        conn.commit()
    segundo = roteiro.lavrar()
    lidas = esperar(vigia, bool, segundos=5)
    assert vigia.reconexoes == 1
    assert [(m.entidade, m.entidade_id) for m in lidas] == [("auto_infracao", str(segundo.id))]
    terceiro = roteiro.lavrar()  # and it listens again
    assert [m.entidade_id for m in esperar(vigia, bool)] == [str(terceiro.id)]
    vigia.fechar()


def test_aviso_grande_demais_manda_ler_a_auditoria() -> None:
    muitos = [(i, "veiculo", str(i), "administrador") for i in range(1, 500)]
    dados = json.loads(aviso_de_mudanca("abc", muitos))
    assert dados["e"] is None and dados["a"] == [1, 499]
    poucos = json.loads(aviso_de_mudanca("abc", muitos[:3]))
    assert len(poucos["e"]) == 3
    assert CANAL_MUDANCAS == "secretaria"


def test_muitos_avisos_no_postgresql_leem_a_auditoria(
    banco: Banco, outro: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A notification that names nothing (too many records in one act) makes the watcher read the audit."""
    if banco.eh_sqlite:
        pytest.skip("só o PostgreSQL manda avisos")
    from secretaria.services import notificacao

    monkeypatch.setattr(notificacao, "_MAX_ENTIDADES_AVISO", 1)
    vigia = Vigia(banco)
    fabrica.popular(outro)  # no audit rows: nothing to say
    from secretaria.services import auditoria

    with outro.uow() as uow:
        for n in (1, 2, 3):
            auditoria.registrar(uow.session, fabrica.ATORES["administrador"], "teste", "veiculo", n)
        uow.commit()
    lidas = esperar(vigia, lambda lidas: len(lidas) >= 3)
    assert sorted(m.entidade_id or "" for m in lidas) == ["1", "2", "3"]
    vigia.fechar()


def test_rajada_longa_chega_em_lotes_e_servidor_ausente_espera_para_tentar_de_novo(
    banco: Banco, outro: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    from secretaria.services import auditoria, mudancas

    monkeypatch.setattr(mudancas, "LIMITE_LEITURA", 2)
    vigia = Vigia(banco)
    with outro.uow() as uow:
        for n in range(1, 6):
            auditoria.registrar(uow.session, fabrica.ATORES["administrador"], "teste", "veiculo", n)
        uow.commit()
    lidas = esperar(vigia, lambda lidas: len(lidas) >= 5)
    assert [m.entidade_id for m in lidas] == ["1", "2", "3", "4", "5"]  # in batches of 2, nothing lost

    # The connection breaks and the server stays away: one try, then none until the pause has passed.
    tentativas: list[float] = []

    def recusar() -> None:
        tentativas.append(time.monotonic())
        raise ConnectionError("servidor fora do ar")

    # SQLite reopens its file in `ler()` itself; PostgreSQL connects in the watcher's reconnecting thread.
    nome = "_conectar" if banco.eh_sqlite else "_escuta_pg"
    conectar = getattr(vigia, nome)
    monkeypatch.setattr(vigia, nome, recusar)
    vigia._descartar()
    assert vigia.ler() == [] and vigia.ler() == []
    while vigia.reconectando:  # the attempt ends by itself (here at once: refused)
        time.sleep(0.01)
    assert len(tentativas) == 1
    monkeypatch.setattr(vigia, nome, conectar)
    monkeypatch.setattr(vigia, "_proxima_tentativa", 0.0)  # the pause is over
    with outro.uow() as uow:
        auditoria.registrar(uow.session, fabrica.ATORES["administrador"], "teste", "veiculo", 6)
        uow.commit()
    assert [m.entidade_id for m in esperar(vigia, bool)] == ["6"]  # what came meanwhile, from the audit
    vigia.fechar()


def test_reconexao_ao_servidor_que_nao_responde_nao_prende_quem_le(
    banco: Banco, outro: Banco, cidade: fabrica.Cidade, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the server does not answer, `ler()` returns at once (the attempt waits in a thread of its own,
    up to the connect timeout); once the server is back, the watcher reconnects and reads what it missed."""
    if banco.eh_sqlite:
        pytest.skip("a reconexão em segundo plano é a do PostgreSQL")
    from tests.helpers.servidor_mudo import servidor_fora_do_ar

    vigia = Vigia(banco)
    with servidor_fora_do_ar(banco, monkeypatch):
        vigia._conexao.close()  # the listener dropped: the next reads reconnect
        assert vigia.ler() == [] and not vigia.conectado
        assert vigia.ler() == []  # starts the attempt and returns...
        assert vigia.reconectando  # ...while the attempt still waits for the silent server
        while vigia.reconectando:  # the attempt gives up by itself (TEMPO_CONEXAO)
            assert vigia.ler() == []
            time.sleep(0.02)
        assert not vigia.conectado and vigia.reconexoes == 0
    auto = fabrica.Roteiro(outro, cidade, monkeypatch).lavrar()
    lidas = esperar(vigia, bool, segundos=10)
    assert vigia.reconexoes == 1
    assert [(m.entidade, m.entidade_id) for m in lidas] == [("auto_infracao", str(auto.id))]
    vigia.fechar()
