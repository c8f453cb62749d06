"""Tampering from inside, one test per kind: each kind of tampering an insider can do with the database
(SQLite: the file, with the append-only triggers dropped and put back; PostgreSQL: the owner role, triggers
disabled and re-enabled) is named by `secretaria auditoria verificar` (exit 1) or refused by the database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria.cli import main
from secretaria.db import Banco
from secretaria.models import Auditoria, Base
from secretaria.services import auditoria
from secretaria.services.verificacao import RelatorioVerificacao, emitir_termo, verificar_tudo
from tests.helpers.cidade_auditada import ADMIN, CidadeAuditada, montar

SQLITE_GATILHOS = {
    "auditoria_sem_alteracao": "UPDATE",
    "auditoria_sem_exclusao": "DELETE",
}
_COLUNAS_AUTO = [c.name for c in Base.metadata.tables["auto_infracao"].columns if c.name != "id"]
# A copy of auto 1 under number 99, inserted directly.
_COPIAR_AUTO = (
    f"INSERT INTO auto_infracao ({', '.join(_COLUNAS_AUTO)}) SELECT "
    + ", ".join("99" if c == "numero" else c for c in _COLUNAS_AUTO)
    + " FROM auto_infracao WHERE id = 1"
)
MENSAGEM_0002 = (
    "A auditoria só aceita inclusões: registros de auditoria não podem ser alterados nem apagados."
)


@pytest.fixture
def cidade(banco: Banco) -> Iterator[CidadeAuditada]:
    yield montar(banco)


def _por_fora(banco: Banco, *comandos: str | tuple[str, dict[str, object]], repor: bool = True) -> None:
    """Run SQL as an insider would: protection off, the statements, protection back on (covering tracks)."""
    with banco.engine.begin() as conn:
        if banco.eh_sqlite:
            for nome in SQLITE_GATILHOS:
                conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {nome}")
        else:
            conn.exec_driver_sql("ALTER TABLE auditoria DISABLE TRIGGER USER")
        for comando in comandos:
            sql, parametros = comando if isinstance(comando, tuple) else (comando, {})
            conn.execute(sa.text(sql), parametros)
        if not repor:
            return
        if banco.eh_sqlite:
            for nome, evento in SQLITE_GATILHOS.items():
                conn.exec_driver_sql(
                    f"CREATE TRIGGER {nome} BEFORE {evento} ON auditoria "
                    f"BEGIN SELECT RAISE(ABORT, '{MENSAGEM_0002}'); END"
                )
        else:
            conn.exec_driver_sql("ALTER TABLE auditoria ENABLE TRIGGER USER")


def _verificar(banco: Banco, ancoras: list[tuple[int, str]] | None = None) -> RelatorioVerificacao:
    with banco.leitura() as s:
        return verificar_tudo(s, ancoras or [])


def _cli(banco: Banco, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    codigo = main(["auditoria", "verificar", "--db", banco.url, *extra])
    saida = capsys.readouterr()
    return codigo, saida.out + saida.err


def _rechain_desde(banco: Banco, inicio: int, alterar: dict[str, object]) -> None:
    """Rewrite row `inicio` with `alterar` and recompute every hash after it (plain SHA-256, no key)."""
    with banco.leitura() as s:
        linhas = [auditoria._campos(reg) for reg in s.scalars(sa.select(Auditoria).order_by(Auditoria.id))]
    anterior = auditoria.HASH_INICIAL
    comandos: list[str | tuple[str, dict[str, object]]] = []
    for campos in linhas:
        if campos["id"] == inicio:
            campos.update(alterar)
        if campos["id"] >= inicio:
            campos["hash_anterior"] = anterior
            novo = auditoria._calcular_hash(campos)
            comandos.append(
                (
                    "UPDATE auditoria SET depois = :d, hash_anterior = :a, hash = :h WHERE id = :i",
                    {"d": campos["depois"], "a": anterior, "h": novo, "i": campos["id"]},
                )
            )
            anterior = novo
        else:
            anterior = auditoria._calcular_hash(campos)
    _por_fora(banco, *comandos)


def test_cidade_feita_pelos_servicos_e_integra(
    banco: Banco, cidade: CidadeAuditada, capsys: pytest.CaptureFixture[str]
) -> None:
    relatorio = _verificar(banco)
    assert relatorio.integro, relatorio.achados
    assert relatorio.registros > 50 and relatorio.documentos == 1 and relatorio.anexos == 1
    codigo, saida = _cli(banco, capsys)
    assert codigo == 0, saida
    assert "gatilhos de somente inclusão presentes" in saida


# --- the business tables, edited behind the program's back -------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "esperado"),
    [
        pytest.param(
            "UPDATE decisao SET multa_ur = multa_ur * 10", "A decisão 1: o campo multa_ur", id="multa_x10"
        ),
        pytest.param(
            "UPDATE auto_infracao SET descricao_fatos = 'Nada de errado.' WHERE id = 1",
            "O auto de infração 0001/2026 (registro 1): o campo descricao_fatos",
            id="fatos_do_auto",
        ),
        pytest.param(
            "DELETE FROM intimacao WHERE id = 1", "A intimação 1 consta da auditoria", id="intimacao_apagada"
        ),
        pytest.param("DELETE FROM anexo WHERE id = 1", "O anexo 1 consta da auditoria", id="anexo_apagado"),
        pytest.param(_COPIAR_AUTO, "O auto de infração 0099/2026", id="auto_inserido"),
        pytest.param(
            "UPDATE usuario SET ativo = false WHERE login = 'clara'",
            "O usuário 1: o campo ativo",
            id="usuario",
        ),
        pytest.param(
            "INSERT INTO usuario_papel (usuario_id, papel) VALUES (1, 'administrador')",
            "O usuário 1: o campo papeis",
            id="papel_dado_por_fora",
        ),
        pytest.param(
            "UPDATE documento_emitido SET conteudo = :x",
            "O documento emitido nº 1 foi alterado",
            id="documento",
        ),
        pytest.param(
            "DELETE FROM documento_emitido",
            "O documento emitido 1 consta da auditoria",
            id="documento_apagado",
        ),
    ],
)
def test_registro_alterado_incluido_ou_apagado_por_fora_e_apontado(
    banco: Banco, cidade: CidadeAuditada, capsys: pytest.CaptureFixture[str], sql: str, esperado: str
) -> None:
    _por_fora(banco, (sql, {"x": b"%PDF-1.4 outro"}) if ":x" in sql else sql)
    relatorio = _verificar(banco)
    assert relatorio.cadeia.integra  # the chain itself is untouched: only the records say what happened
    assert not relatorio.integro
    assert any(esperado in a for a in relatorio.achados), relatorio.achados
    codigo, saida = _cli(banco, capsys)
    assert codigo == 1 and esperado in saida


def test_arquivo_de_prova_trocado_com_hash_e_auditoria_recalculada_e_apontado_pelo_termo(
    banco: Banco, cidade: CidadeAuditada, tmp_path: Path
) -> None:
    """Replace an evidence file, its hash, and its audit row, re-chaining everything: the term catches it."""
    termo = emitir_termo(banco, ADMIN)
    novo = b"%PDF-1.4\n% outra foto\n%%EOF\n"
    import hashlib

    sha = hashlib.sha256(novo).hexdigest()
    with banco.leitura() as s:
        reg_id, depois = s.execute(
            sa.text("SELECT id, depois FROM auditoria WHERE entidade = 'anexo' AND entidade_id = '1'")
        ).one()
    imagem = json.loads(depois)
    imagem.update(sha256=sha, tamanho=len(novo))
    _por_fora(
        banco,
        ("UPDATE anexo SET conteudo = :c, sha256 = :s, tamanho = :t", {"c": novo, "s": sha, "t": len(novo)}),
    )
    _rechain_desde(banco, reg_id, {"depois": json.dumps(imagem, sort_keys=True, ensure_ascii=False)})
    relatorio = _verificar(banco)
    assert relatorio.cadeia.integra  # a perfect re-chain...
    assert any(
        f"nº {termo.ultimo_id}: o hash no banco" in a and "termo de verificação" in a
        for a in relatorio.achados
    )
    # ... and the paper copy of the same term, typed in by hand.
    por_ancora = _verificar(banco, [(termo.ultimo_id, termo.ultimo_hash)])
    assert any("a âncora informada" in a for a in por_ancora.achados)


def test_linha_alterada_e_recadeada_e_apontada_pela_ancora(
    banco: Banco, cidade: CidadeAuditada, capsys: pytest.CaptureFixture[str]
) -> None:
    with banco.leitura() as s:
        ultimo_id, ultimo_hash = s.execute(
            sa.text("SELECT id, hash FROM auditoria ORDER BY id DESC LIMIT 1")
        ).one()
    _rechain_desde(banco, 2, {"depois": json.dumps({"forjado": True})})
    codigo, saida = _cli(banco, capsys, "--ancora", f"{ultimo_id}:{ultimo_hash}")
    assert codigo == 1
    assert f"Registro de auditoria nº {ultimo_id}: o hash no banco" in saida


# --- the audit itself shortened, emptied or unprotected ------------------------------------------------------


def test_ultimos_registros_apagados_sao_apontados(banco: Banco, cidade: CidadeAuditada) -> None:
    termo = emitir_termo(banco, ADMIN)
    _por_fora(banco, f"DELETE FROM auditoria WHERE id >= {termo.ultimo_id - 2}")
    relatorio = _verificar(banco)
    assert relatorio.cadeia.integra  # what remains is a whole chain
    assert not relatorio.integro
    assert any(
        "não existe mais" in a or "não tem nenhum registro" in a or "o campo" in a for a in relatorio.achados
    )


def test_auditoria_toda_apagada_nao_e_integra(
    banco: Banco, cidade: CidadeAuditada, capsys: pytest.CaptureFixture[str]
) -> None:
    _por_fora(banco, "DELETE FROM auditoria")
    codigo, saida = _cli(banco, capsys)
    assert codigo == 1
    assert "não tem nenhum registro na auditoria" in saida
    assert "íntegra: 0 registros" in saida  # the chain alone would still call it whole


def test_gatilhos_removidos_sem_mais_nada_sao_apontados(
    banco: Banco, cidade: CidadeAuditada, capsys: pytest.CaptureFixture[str]
) -> None:
    if banco.eh_sqlite:
        _por_fora(banco, repor=False)
        esperado = "o gatilho auditoria_sem_alteracao"
    else:
        with banco.engine.begin() as conn:
            conn.exec_driver_sql("DROP TRIGGER auditoria_sem_truncate ON auditoria")
            conn.exec_driver_sql("ALTER TABLE auditoria DISABLE TRIGGER auditoria_somente_insercao")
        esperado = "o gatilho auditoria_sem_truncate"
    codigo, saida = _cli(banco, capsys)
    assert codigo == 1 and esperado in saida
    if not banco.eh_sqlite:
        assert "auditoria_somente_insercao está desativado" in saida
        with banco.engine.begin() as conn:  # the shared test database keeps its protection
            conn.exec_driver_sql("ALTER TABLE auditoria ENABLE TRIGGER auditoria_somente_insercao")
        from alembic import command

        from secretaria import migracoes

        with banco.engine.begin() as conn:  # back to the revision before 0005's trigger (and what follows it)
            command.downgrade(migracoes.configuracao(conn), "0004")
        migracoes.atualizar(banco.engine)


def test_truncate_da_auditoria_e_recusado_pelo_postgresql(banco: Banco, cidade: CidadeAuditada) -> None:
    if banco.eh_sqlite:
        pytest.skip("SQLite não tem TRUNCATE (DELETE é recusado linha a linha)")
    with pytest.raises(sa.exc.DatabaseError, match="não pode ser esvaziada"), banco.engine.begin() as conn:
        conn.exec_driver_sql("TRUNCATE auditoria")
    assert _verificar(banco).integro


def test_termo_em_pdf_pela_linha_de_comando(
    banco: Banco,
    cidade: CidadeAuditada,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import io

    from secretaria.services.contas import criar_usuario

    criar_usuario(banco.uow(), ADMIN, login="ana", nome="Ana", senha="senha123", papeis=["administrador"])
    monkeypatch.setattr("sys.stdin", io.StringIO("ana\nsenha123\n"))
    saida = tmp_path / "termo.pdf"
    assert main(["auditoria", "termo", str(saida), "--db", banco.url]) == 0
    assert saida.read_bytes().startswith(b"%PDF-")
    texto = capsys.readouterr().out
    assert "Termo de verificação nº 1" in texto
    codigo, saida_verificar = _cli(banco, capsys)
    assert codigo == 0 and "âncoras e termos: 1" in saida_verificar
