"""A password the administrator resets may be temporary: the flag is set by the reset, cleared by the user's
own change, both audited, and the verifier finds the record matching its last image."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import Auditoria, Usuario
from secretaria.services import contas, verificacao
from secretaria.services.base import Ator, ErroDominio

ADMIN = Ator("ana", "Ana", frozenset({"administrador"}))


@pytest.fixture(autouse=True)
def _scrypt_barato(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(contas, "_N", 2**10)


def _auditoria(banco: Banco, usuario_id: int) -> list[tuple[str, dict[str, object]]]:
    with banco.leitura() as s:
        linhas = s.execute(
            sa.select(Auditoria.acao, Auditoria.depois)
            .where(Auditoria.entidade == "usuario", Auditoria.entidade_id == str(usuario_id))
            .order_by(Auditoria.id)
        ).all()
    return [(acao, json.loads(depois)) for acao, depois in linhas]


def test_redefinicao_provisoria_ate_a_troca_pelo_usuario(banco: Banco) -> None:
    # A logged-in administrator: on SQLite their acts are signed, and beto's new keys certified by them.
    contas.criar_primeiro_administrador(banco.uow(), login="ana", nome="Ana", senha="Admin1234")
    ana = contas.autenticar(banco.uow(), "ana", "Admin1234")
    beto = contas.criar_usuario(
        banco.uow(), ana, login="beto", nome="Beto", senha="segredo123", papeis=["fiscal"]
    )
    primeiro = contas.autenticar(banco.uow(), "beto", "segredo123")
    with banco.leitura() as s:
        assert not contas.precisa_trocar_senha(s, primeiro)
        assert not contas.obter_usuario(s, beto).trocar_senha

    contas.redefinir_senha(banco.uow(), ana, beto, nova_senha="provisoria1", temporaria=True)
    ator = contas.autenticar(banco.uow(), "beto", "provisoria1")
    with banco.leitura() as s:
        assert contas.precisa_trocar_senha(s, ator)
        assert contas.obter_usuario(s, beto).trocar_senha

    # A refused change leaves the flag (and everything else) as it was.
    with pytest.raises(ErroDominio) as erro:
        contas.alterar_propria_senha(banco.uow(), ator, senha_atual="provisoria1", nova_senha="provisoria1")
    assert erro.value.campo == "nova_senha"
    with banco.leitura() as s:
        assert contas.precisa_trocar_senha(s, ator)

    contas.alterar_propria_senha(banco.uow(), ator, senha_atual="provisoria1", nova_senha="minha12345")
    with banco.leitura() as s:
        assert not contas.precisa_trocar_senha(s, ator)
    assert contas.autenticar(banco.uow(), "beto", "minha12345").login == "beto"

    # A reset without "exigir troca" keeps the administrator's password as the user's.
    contas.redefinir_senha(banco.uow(), ana, beto, nova_senha="definitiva1", temporaria=False)
    with banco.leitura() as s:
        assert not s.scalar(sa.select(Usuario.trocar_senha).where(Usuario.id == beto))

    acoes = [(acao, depois.get("trocar_senha")) for acao, depois in _auditoria(banco, beto)]
    assert acoes == [
        ("criar_usuario", False),
        ("redefinir_senha", True),
        ("alterar_propria_senha", False),
        ("redefinir_senha", False),
    ]
    with banco.leitura() as s:
        relatorio = verificacao.verificar_tudo(s)
    assert not [a for a in relatorio.achados if "usuário" in a.lower()], relatorio.achados


def test_flag_alterada_fora_do_programa_e_apontada(banco: Banco) -> None:
    beto = contas.criar_usuario(
        banco.uow(), ADMIN, login="beto", nome="Beto", senha="segredo123", papeis=["fiscal"]
    )
    contas.redefinir_senha(banco.uow(), ADMIN, beto, nova_senha="provisoria1", temporaria=True)
    with banco.uow() as uow:  # someone clears the flag with SQL, skipping the forced change
        uow.session.execute(sa.update(Usuario).where(Usuario.id == beto).values(trocar_senha=False))
        uow.commit()
    with banco.leitura() as s:
        relatorio = verificacao.verificar_tudo(s)
    assert any("trocar_senha" in achado for achado in relatorio.achados), relatorio.achados


def test_senha_inicial_do_administrador_e_provisoria(banco: Banco) -> None:
    """An initial password set by the administrator is forced to change at the first login, as a reset's is."""
    beto = contas.criar_usuario(
        banco.uow(), ADMIN, login="beto", nome="Beto", senha="segredo123", papeis=["fiscal"], temporaria=True
    )
    ator = contas.autenticar(banco.uow(), "beto", "segredo123")
    with banco.leitura() as s:
        assert contas.precisa_trocar_senha(s, ator) and contas.obter_usuario(s, beto).trocar_senha
    acao, depois = _auditoria(banco, beto)[0]
    assert acao == "criar_usuario" and depois["trocar_senha"] is True
    contas.alterar_propria_senha(banco.uow(), ator, senha_atual="segredo123", nova_senha="minha12345")
    with banco.leitura() as s:
        assert not contas.precisa_trocar_senha(s, ator)
