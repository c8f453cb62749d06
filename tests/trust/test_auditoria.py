"""The audit chain: append-only in the database itself, and any change or removal behind the program's back
is named by `verificar_cadeia` and by `secretaria auditoria verificar` (exit 1)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
import sqlalchemy as sa

from secretaria.cli import main
from secretaria.db import Banco
from secretaria.models import Auditoria
from secretaria.services import auditoria
from secretaria.services.auditoria import verificar_cadeia
from secretaria.services.base import SISTEMA
from secretaria.services.contas import criar_usuario

MENSAGEM_TRIGGER = "A auditoria só aceita inclusões"


def _cinco_atos(banco: Banco) -> None:
    for i in range(5):
        criar_usuario(
            banco.uow(), SISTEMA, login=f"u{i}", nome=f"Usuária {i}", senha="senha123", papeis=["fiscal"]
        )


def _verificar(banco: Banco) -> auditoria.ResultadoVerificacao:
    with banco.leitura() as s:
        return verificar_cadeia(s)


def _cli(banco: Banco, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    codigo = main(["auditoria", "verificar", "--db", banco.url])
    saida = capsys.readouterr()
    return codigo, saida.out + saida.err


def test_cadeia_integra_e_cli_sai_com_zero(banco: Banco, capsys: pytest.CaptureFixture[str]) -> None:
    _cinco_atos(banco)
    resultado = _verificar(banco)
    assert resultado.integra and resultado.linhas == 5
    assert resultado.ultimo_id == 5 and resultado.ultimo_hash and len(resultado.ultimo_hash) == 64
    codigo, saida = _cli(banco, capsys)
    assert codigo == 0
    assert "íntegra: 5 registros" in saida and resultado.ultimo_hash in saida


@pytest.mark.parametrize(
    "sql", ["UPDATE auditoria SET acao = 'nada' WHERE id = 2", "DELETE FROM auditoria WHERE id = 2"]
)
def test_banco_recusa_alterar_ou_apagar_auditoria(banco: Banco, sql: str) -> None:
    _cinco_atos(banco)
    with pytest.raises(sa.exc.DatabaseError, match=MENSAGEM_TRIGGER), banco.engine.begin() as conn:
        conn.exec_driver_sql(sql)
    with banco.leitura() as s:
        assert s.scalar(sa.select(sa.func.count(Auditoria.id))) == 5
        assert s.get(Auditoria, 2).acao == "criar_usuario"  # type: ignore[union-attr]
    assert _verificar(banco).integra


def test_conteudo_alterado_por_fora_e_apontado(
    banco: Banco, adulterar: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    _cinco_atos(banco)
    adulterar(banco, "UPDATE auditoria SET usuario_login = 'intruso' WHERE id = 3")
    resultado = _verificar(banco)
    assert resultado.primeiro_erro_id == 3
    assert "nº 3" in resultado.mensagem and "alterado" in resultado.mensagem
    codigo, saida = _cli(banco, capsys)
    assert codigo == 1
    assert "nº 3" in saida


def test_registro_apagado_por_fora_e_apontado(
    banco: Banco, adulterar: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    _cinco_atos(banco)
    adulterar(banco, "DELETE FROM auditoria WHERE id = 2")
    resultado = _verificar(banco)
    assert resultado.primeiro_erro_id == 2 and "faltando" in resultado.mensagem
    codigo, saida = _cli(banco, capsys)
    assert codigo == 1 and "nº 2 está faltando" in saida


def test_adulterador_que_recalcula_o_hash_rompe_o_elo_seguinte(
    banco: Banco, adulterar: Callable[..., None]
) -> None:
    """Rewriting a row and its own hash is not enough: the next row still points at the old hash."""
    _cinco_atos(banco)
    with banco.leitura() as s:
        reg = s.get(Auditoria, 3)
        assert reg is not None
        campos = auditoria._campos(reg)
    depois = json.loads(campos["depois"])
    depois["papeis"] = ["administrador"]
    campos["depois"] = json.dumps(depois, sort_keys=True, ensure_ascii=False)
    novo_hash = auditoria._calcular_hash(campos)
    adulterar(
        banco, "UPDATE auditoria SET depois = :d, hash = :h WHERE id = 3", d=campos["depois"], h=novo_hash
    )
    resultado = _verificar(banco)
    assert resultado.primeiro_erro_id == 4
    assert "elo" in resultado.mensagem


def test_data_ilegivel_tambem_e_apontada(banco_sqlite: Banco, adulterar: Callable[..., None]) -> None:
    _cinco_atos(banco_sqlite)
    adulterar(banco_sqlite, "UPDATE auditoria SET momento = 'ontem à tarde' WHERE id = 4")
    resultado = _verificar(banco_sqlite)
    assert not resultado.integra and resultado.primeiro_erro_id is not None
    assert resultado.primeiro_erro_id <= 4


def test_cadeia_vazia_e_integra(banco: Banco) -> None:
    resultado = _verificar(banco)
    assert resultado.integra and resultado.linhas == 0 and resultado.ultimo_hash is None


def test_verificacao_em_lotes_atravessa_fronteiras(banco: Banco, adulterar: Callable[..., None]) -> None:
    _cinco_atos(banco)
    with banco.leitura() as s:
        assert verificar_cadeia(s, lote=2).integra
    adulterar(banco, "UPDATE auditoria SET entidade_id = '99' WHERE id = 5")
    with banco.leitura() as s:
        assert verificar_cadeia(s, lote=2).primeiro_erro_id == 5
