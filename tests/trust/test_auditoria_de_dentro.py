"""Issue 28, the insider with ordinary access: what the audit must hold and compare so that an act made
behind the program's back, or in someone else's name, is refused or named by `auditoria verificar`."""

from __future__ import annotations

import hashlib
import json

import pytest
import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import Auditoria, Usuario
from secretaria.services import contas
from secretaria.services.base import SISTEMA
from secretaria.services.verificacao import RelatorioVerificacao, verificar_tudo

SENHA = "Correta123"


def _verificar(banco: Banco) -> RelatorioVerificacao:
    with banco.leitura() as s:
        return verificar_tudo(s)


def _imagens(banco: Banco) -> list[str]:
    with banco.leitura() as s:
        return [t for linha in s.execute(sa.select(Auditoria.antes, Auditoria.depois)) for t in linha if t]


# --- no password hash (nor anything to test a guess against) in any audit image ------------------------------


def test_nenhuma_imagem_guarda_o_hash_da_senha(banco: Banco) -> None:
    uid = contas.criar_usuario(
        banco.uow(), SISTEMA, login="ana", nome="Ana", senha=SENHA, papeis=["administrador"]
    )
    hashes = []
    with banco.leitura() as s:
        hashes.append(s.scalar(sa.select(Usuario.senha_hash).where(Usuario.id == uid)))
    contas.redefinir_senha(banco.uow(), SISTEMA, uid, nova_senha="Redefinida1", temporaria=True)
    ana = contas.autenticar(banco.uow(), "ana", "Redefinida1")
    with banco.leitura() as s:
        hashes.append(s.scalar(sa.select(Usuario.senha_hash).where(Usuario.id == uid)))
    contas.alterar_propria_senha(banco.uow(), ana, senha_atual="Redefinida1", nova_senha="Propria123")
    with banco.leitura() as s:
        hashes.append(s.scalar(sa.select(Usuario.senha_hash).where(Usuario.id == uid)))
    imagens = _imagens(banco)
    texto = "\n".join(imagens)
    for h in hashes:
        assert h is not None
        _esquema, _n, _r, _p, sal, chave = h.split("$")
        for segredo in (h, sal, chave, hashlib.sha256(h.encode()).hexdigest()):
            assert segredo not in texto
    assert "scrypt" not in texto
    with banco.leitura() as s:
        depois = [
            json.loads(t)
            for t in s.scalars(sa.select(Auditoria.depois).where(Auditoria.entidade == "usuario"))
        ]
    assert [d["senha"] for d in depois] == ["alterada nº 1", "alterada nº 2", "alterada nº 3"]
    assert _verificar(banco).integro


def test_marca_da_senha_trocada_por_fora_e_apontada(banco: Banco) -> None:
    contas.criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha=SENHA, papeis=["fiscal"])
    with banco.engine.begin() as conn:
        conn.execute(sa.text("UPDATE usuario SET senha_versao = 7, nome = 'Ana Forjada'"))
    achados = " ".join(_verificar(banco).achados)
    assert "O usuário 1: o campo nome" in achados
    assert "o campo senha é “alterada nº 7” no banco" in achados


def test_imagem_antiga_com_digest_do_hash_nao_e_comparada(banco: Banco) -> None:
    """A database audited before the marker: its rows keep the SHA-256 of the hash they were written with
    (append-only); the verification skips that old digest and compares the rest of the account."""
    contas.criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha=SENHA, papeis=["fiscal"])
    from secretaria.services import auditoria

    with banco.uow() as uow:
        uow.session.execute(sa.update(Usuario).values(nome="Ana Maria"))
        auditoria.registrar(
            uow.session,
            SISTEMA,
            "editar_usuario",
            "usuario",
            1,
            None,
            {"login": "ana", "nome": "Ana Maria", "papeis": ["fiscal"], "senha": "ab" * 32},
        )
        uow.commit()
    assert _verificar(banco).integro
