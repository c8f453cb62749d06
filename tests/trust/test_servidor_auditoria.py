"""PostgreSQL: the audit rows are written by the database (`secretaria_auditar`, migration 0019), through the
roles `secretaria servidor preparar` creates. No role a PC uses inserts a row or writes the chain; the moment
is the server's clock whatever the PC's says; rows written in SQL verify with the one Python verifier."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from secretaria import relogio
from secretaria.db import Banco
from secretaria.models import Auditoria
from secretaria.services import auditoria
from secretaria.services.base import Ator
from secretaria.services.semente import abrir_e_semear

SECRETARIO = Ator("secretario", "Secretário", frozenset({"secretario"}))


def _ato(banco: Banco, ator: Ator, **depois: object) -> Auditoria:
    with banco.uow() as uow:
        reg = auditoria.registrar(uow.session, ator, "teste", "caso", 7, None, dict(depois))
        uow.commit()
        return reg


def _relogio_do_servidor(banco: Banco) -> sa.Row[tuple[object]] | None:
    with banco.leitura() as s:
        return s.execute(sa.text("SELECT date_trunc('second', clock_timestamp()::timestamp)")).first()


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO auditoria (id, momento, usuario_login, acao, entidade, hash_anterior, hash) "
        "SELECT max(id) + 1, now(), 'secretario', 'decidir', 'decisao', max(hash), max(hash) FROM auditoria",
        "SELECT secretaria_anexar('secretario', now()::timestamp, 'decidir', 'decisao', '1', NULL, NULL)",
        "CREATE OR REPLACE FUNCTION secretaria_servidor(OUT grupo text, OUT entrada text, OUT prefixo text) "
        "LANGUAGE sql AS $$ SELECT NULL::text, NULL::text, NULL::text $$",
    ],
)
def test_papel_do_usuario_nao_insere_linha_nem_escreve_a_cadeia(
    banco_do_usuario: tuple[Banco, Ator], sql: str
) -> None:
    banco, _ator = banco_do_usuario
    _ato(banco, SECRETARIO, multa="100.00")
    with banco.leitura() as s:
        linhas = s.scalar(sa.select(sa.func.count()).select_from(Auditoria))
    with (
        pytest.raises(sa.exc.DatabaseError, match=r"permission denied|must be owner"),
        banco.engine.begin() as conn,
    ):
        conn.exec_driver_sql(sql)
    with banco.leitura() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(Auditoria)) == linhas
        assert auditoria.verificar_cadeia(s).integra


def test_relogio_do_computador_um_mes_atrasado_nao_data_a_auditoria(
    banco_do_usuario: tuple[Banco, Ator], monkeypatch: pytest.MonkeyPatch
) -> None:
    banco, _ator = banco_do_usuario
    antes = _relogio_do_servidor(banco)
    atrasado = relogio.agora() - timedelta(days=31)
    monkeypatch.setattr(relogio, "agora", lambda: atrasado)
    reg = _ato(banco, SECRETARIO, multa="100.00")
    depois = _relogio_do_servidor(banco)
    assert antes is not None and depois is not None
    assert antes[0] <= reg.momento <= depois[0]
    assert reg.momento != atrasado
    assert reg.usuario_login == "todos"  # the account whose role wrote it, not the name the program gave
    with banco.leitura() as s:
        assert auditoria.verificar_cadeia(s).integra


@pytest.mark.parametrize("como", ["usuario", "dono"])
def test_cadeia_calculada_pelo_servidor_confere_com_o_verificador(
    banco_preparado: tuple[str, str, str], banco_do_usuario: tuple[Banco, Ator], como: str
) -> None:
    """The SQL rule and the Python rule are one: texts JSON escapes differently (quotes, backslashes, control
    characters, accents, emoji, line and paragraph separators) chain and verify alike, in the login too (the
    owner's sessions keep the login the program gives)."""
    banco = banco_do_usuario[0] if como == "usuario" else abrir_e_semear(banco_preparado[1])
    with banco.leitura() as s:
        ja = s.scalar(sa.select(sa.func.count()).select_from(Auditoria)) or 0
    dificeis = ['aspas "x"', "barra \\ n", "linha\nnova\ttab\r\x01\x1f\x7f", "ação — 😀", "\u2028\u2029", ""]
    try:
        for texto in dificeis:
            _ato(banco, Ator(texto or "vazio", "x", frozenset()), texto=texto)
        with banco.uow() as uow:
            auditoria.registrar_lote(
                uow.session, SECRETARIO, [("lote", "caso", None, {"t": t}, None) for t in dificeis]
            )
            uow.commit()
        with banco.leitura() as s:
            resultado = auditoria.verificar_cadeia(s)
            assert resultado.integra, resultado.mensagem
            assert resultado.linhas == ja + 2 * len(dificeis)
        with banco.leitura() as s:
            linhas = s.scalars(sa.select(Auditoria).where(Auditoria.id > ja).order_by(Auditoria.id)).all()
            logins = [linha.usuario_login for linha in linhas[: len(dificeis)]]
            assert logins == (
                [t or "vazio" for t in dificeis] if como == "dono" else ["todos"] * len(dificeis)
            )
    finally:
        if como == "dono":
            banco.fechar()


def test_dono_e_superusuario_mantem_o_momento_do_programa(pg_url: str) -> None:
    """Outside the PCs' roles (the demo, the tests, the owner migrating) the program's clock is kept: those
    roles could rewrite the table anyway."""
    banco = abrir_e_semear(pg_url)
    try:
        reg = _ato(banco, SECRETARIO, multa="1.00")
        assert abs(reg.momento - relogio.agora()) <= timedelta(seconds=5)
        with banco.leitura() as s:
            assert auditoria.verificar_cadeia(s).integra
    finally:
        banco.fechar()
