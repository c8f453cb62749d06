"""The insider with ordinary access: what the audit must hold and compare so that an act made
behind the program's back, or in someone else's name, is refused or named by `auditoria verificar`."""

from __future__ import annotations

import hashlib
import io
import json
import threading
import time
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa
import sqlalchemy.orm as so

from secretaria import cli
from secretaria.db import Banco, ErroBanco, abrir_banco
from secretaria.models import Auditoria, Operadora, Usuario
from secretaria.services import contas
from secretaria.services.base import SISTEMA, ErroDominio
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
            json.loads(t or "{}")
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


# --- the first administrator: only while the database has no user, in the same transaction ----------------


def test_dois_computadores_no_primeiro_acesso_so_um_cria(
    banco: Banco, banco_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both PCs pass the screen's "no user yet" at once; inside the creation each waits (up to a second)
    for the other to reach the same point: a check made outside the creating transaction lets both create."""
    chegaram: list[str] = []
    calcular = contas.hash_senha

    def devagar(senha: str) -> str:
        chegaram.append(senha)
        # Up to a second for the other PC, counted in short sleeps: a timed wait (Barrier.wait(timeout))
        # never returns under libfaketime (its deadline is on the faked clock), and held the lock forever.
        for _ in range(20):
            if len(chegaram) >= 2:
                break
            time.sleep(0.05)
        return calcular(senha)

    monkeypatch.setattr(contas, "hash_senha", devagar)
    outro = abrir_banco(banco_url, migrar=False)
    resultados: dict[str, object] = {}

    def criar(nome: str, b: Banco) -> None:
        try:
            resultados[nome] = contas.criar_primeiro_administrador(
                b.uow(), login=nome, nome=nome, senha=SENHA
            )
        except ErroDominio as exc:
            resultados[nome] = exc

    try:
        fios = [threading.Thread(target=criar, args=(n, b)) for n, b in (("ana", banco), ("bia", outro))]
        for f in fios:
            f.start()
        for f in fios:
            f.join()  # a hang is pytest-timeout's to report (a timed join has the same faked deadline)
    finally:
        outro.fechar()
    recusas = [r for r in resultados.values() if isinstance(r, ErroDominio)]
    assert len(resultados) == 2 and len(recusas) == 1, resultados
    assert "já tem usuários" in recusas[0].mensagem and recusas[0].campo == "login"
    with banco.leitura() as s:
        logins = list(s.scalars(sa.select(Usuario.login)))
        quem = s.execute(
            sa.select(Auditoria.usuario_login, Auditoria.acao).where(Auditoria.entidade == "usuario")
        ).all()
    assert len(logins) == 1
    assert [tuple(linha) for linha in quem] == [
        (logins[0], "criar_usuario")
    ]  # in the new administrator's name, not "sistema"
    assert _verificar(banco).integro


def test_primeiro_administrador_recusado_com_usuario_existente(banco: Banco) -> None:
    contas.criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha=SENHA, papeis=["fiscal"])
    with pytest.raises(ErroDominio, match="já tem usuários"):
        contas.criar_primeiro_administrador(banco.uow(), login="zeca", nome="Zeca", senha=SENHA)
    with pytest.raises(ErroDominio, match="papel Administrador") as erro:
        contas.criar_primeiro_administrador(
            banco.uow(), login="zeca", nome="Zeca", senha=SENHA, papeis=["fiscal"]
        )
    assert erro.value.campo == "papeis"
    with banco.leitura() as s:
        assert list(s.scalars(sa.select(Usuario.login))) == ["ana"]


# --- every command-line act that writes or issues asks for a login ------------------------------------------


def _cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, entrada: str, *args: str
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(entrada))
    codigo = cli.main(list(args))
    saida = capsys.readouterr()
    return codigo, saida.out + saida.err


def _autores(banco: Banco, entidade: str) -> list[str]:
    with banco.leitura() as s:
        return list(
            s.scalars(
                sa.select(Auditoria.usuario_login)
                .where(Auditoria.entidade == entidade)
                .order_by(Auditoria.id)
            )
        )


@pytest.fixture
def com_usuarios(banco: Banco) -> Banco:
    contas.criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha=SENHA, papeis=["administrador"])
    contas.criar_usuario(banco.uow(), SISTEMA, login="caio", nome="Caio", senha=SENHA, papeis=["consulta"])
    return banco


def test_backup_manter_pede_um_administrador(
    com_usuarios: Banco, banco_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    banco = com_usuarios
    for entrada, esperado in (("", "incorretos"), (f"caio\n{SENHA}\n", "papel Administrador")):
        codigo, texto = _cli(capsys, monkeypatch, entrada, "backup", "--manter", "3", "--db", banco_url)
        assert codigo == cli.SAIDA_ERRO and esperado in texto
    assert _autores(banco, "configuracao") == []
    codigo, texto = _cli(capsys, monkeypatch, f"ana\n{SENHA}\n", "backup", "--manter", "3", "--db", banco_url)
    assert codigo == 0, texto
    assert _autores(banco, "configuracao") == ["ana"]


def test_documento_pede_um_usuario_e_fica_em_nome_dele(
    com_usuarios: Banco,
    banco_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    banco = com_usuarios
    with banco.uow() as uow:
        uow.session.add(
            Operadora(
                razao_social="Viação Sul Ltda.", cnpj="11222333000181", logradouro="Rua A", alterado_por="t"
            )
        )
        uow.commit()
    saida = tmp_path / "ficha.pdf"
    argumentos = ("documento", "ficha", "11222333000181", "-o", str(saida), "--db", banco_url)
    codigo, texto = _cli(capsys, monkeypatch, "caio\nErrada999\n", *argumentos)
    assert codigo == cli.SAIDA_ERRO and "incorretos" in texto and not saida.exists()
    assert _autores(banco, "documento_emitido") == []
    codigo, texto = _cli(capsys, monkeypatch, f"caio\n{SENHA}\n", *argumentos)
    assert codigo == 0, texto
    assert _autores(banco, "documento_emitido") == ["caio"]


def test_importar_pede_um_administrador(
    com_usuarios: Banco,
    banco_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    planilha = tmp_path / "operadoras.csv"
    planilha.write_bytes(
        "Razão social;CNPJ;Logradouro;Bairro\nViação Nova Ltda.;11.444.777/0001-61;Rua A;Centro\n".encode(
            "cp1252"
        )
    )
    argumentos = ("importar", "operadoras", str(planilha), "--db", banco_url)
    codigo, texto = _cli(capsys, monkeypatch, f"caio\n{SENHA}\n", *argumentos)
    assert codigo == cli.SAIDA_ERRO and "papel Administrador" in texto
    assert _autores(com_usuarios, "operadora") == []
    codigo, texto = _cli(capsys, monkeypatch, f"ana\n{SENHA}\n", *argumentos)
    assert codigo == 0, texto
    assert _autores(com_usuarios, "operadora") == ["ana"]


# --- any text a field accepts gives a normal result (lone surrogates) ----------------------------------------

SOLTOS = ["\ud800", "Viação \udfff Sul", "\ud83d"]


@pytest.mark.parametrize("texto", SOLTOS)
def test_texto_com_surrogato_solto_nas_buscas_no_login_e_num_ato(banco: Banco, texto: str) -> None:
    from secretaria.services import listas
    from secretaria.services.cadastros import DadosOperadora, criar_operadora
    from secretaria.services.listas.nucleo import Filtro

    contas.criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha=SENHA, papeis=["administrador"])
    with banco.leitura() as s:
        for lista in listas.LISTAS:
            assert listas.contar(s, lista, Filtro(texto=texto)) == 0
            assert listas.pagina(s, lista, Filtro(texto=texto), None, 0, 10) == []
    with pytest.raises(contas.FalhaLogin, match="incorretos"):
        contas.autenticar(banco.uow(), f"ana{texto}", SENHA)
    with pytest.raises(contas.FalhaLogin, match="incorretos"):
        contas.autenticar(banco.uow(), "ana", f"{SENHA}{texto}")
    antes = _imagens(banco)
    dados = DadosOperadora(razao_social=texto, cnpj="11444777000161", logradouro="Rua A")
    with pytest.raises(ErroDominio, match="caractere inválido") as erro:
        criar_operadora(banco.uow(), SISTEMA, dados)
    assert erro.value.campo == "razao_social"
    with pytest.raises(ErroDominio, match="caractere inválido") as erro:
        contas.criar_usuario(
            banco.uow(), SISTEMA, login="bia", nome="Bia", senha=f"Senha123{texto}", papeis=["fiscal"]
        )
    assert erro.value.campo == "senha"
    assert _imagens(banco) == antes  # nothing of the refused acts written
    assert _verificar(banco).integro


# --- the protection compared by its full definition; the clock -----------------------------------------------


def test_gatilho_com_o_mesmo_nome_e_corpo_vazio_e_apontado(banco: Banco) -> None:
    assert _verificar(banco).protecao.startswith("gatilhos de somente inclusão presentes")
    with banco.engine.begin() as conn:
        if banco.eh_sqlite:
            conn.exec_driver_sql("DROP TRIGGER auditoria_sem_alteracao")
            conn.exec_driver_sql(
                "CREATE TRIGGER auditoria_sem_alteracao BEFORE UPDATE ON auditoria BEGIN SELECT 1; END"
            )
        else:
            conn.exec_driver_sql(
                "CREATE OR REPLACE FUNCTION auditoria_somente_insercao() RETURNS trigger "
                "LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END; $$"
            )
    try:
        relatorio = _verificar(banco)
    finally:
        if not banco.eh_sqlite:  # the session's database outlives this test: the function put back
            from secretaria.services.verificacao import GATILHOS_PG

            with banco.engine.begin() as conn:
                conn.exec_driver_sql(
                    "CREATE OR REPLACE FUNCTION auditoria_somente_insercao() RETURNS trigger "
                    f"LANGUAGE plpgsql AS $$ {GATILHOS_PG['auditoria_somente_insercao'][1]} $$"
                )
            assert _verificar(banco).protecao.startswith("gatilhos de somente inclusão presentes")
    nome = "auditoria_sem_alteracao" if banco.eh_sqlite else "auditoria_somente_insercao"
    assert not relatorio.integro and relatorio.protecao == ""
    assert any(f"o gatilho {nome} existe, mas a sua definição" in a for a in relatorio.achados), (
        relatorio.achados
    )


def test_momento_anterior_ao_registro_de_antes_e_apontado(
    banco: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import datetime

    contas.criar_usuario(banco.uow(), SISTEMA, login="ana", nome="Ana", senha=SENHA, papeis=["fiscal"])
    assert _verificar(banco).integro
    monkeypatch.setattr("secretaria.relogio.agora", lambda: datetime(2026, 11, 2, 9, 0))
    contas.criar_usuario(banco.uow(), SISTEMA, login="bia", nome="Bia", senha=SENHA, papeis=["fiscal"])
    with banco.leitura() as s:
        ultimo = s.scalar(sa.select(sa.func.max(Auditoria.id)))
    achados = _verificar(banco).achados
    assert any(
        a.startswith(f"Registro de auditoria nº {ultimo}: gravado com o momento 02/11/2026 09:00")
        for a in achados
    ), achados


# --- everything the program writes is compared ----------------------------------------------------------------


@pytest.fixture
def cidade(banco: Banco) -> Banco:
    from tests.helpers.cidade_auditada import montar

    montar(banco)
    return banco


@pytest.mark.parametrize(
    ("sql", "esperado"),
    [
        pytest.param(
            "UPDATE testemunha SET documento = 'RG 0000000'",
            "o campo testemunhas",
            id="documento_da_testemunha",
        ),
        pytest.param(
            "UPDATE testemunha SET endereco = 'Rua Falsa, 1'",
            "o campo testemunhas",
            id="endereco_da_testemunha",
        ),
        pytest.param(
            "UPDATE veiculo_historico SET inicio = '2001-01-01'",
            "o campo historico",
            id="historico_do_veiculo",
        ),
        pytest.param(
            "UPDATE numeracao SET ultimo = 1 WHERE serie = 'AI'", "A numeração AI de 2026", id="numeracao"
        ),
        pytest.param(
            "INSERT INTO configuracao (chave, valor) VALUES ('backup_copias_mantidas', '1')",
            "A configuração backup_copias_mantidas não tem nenhum registro",
            id="configuracao",
        ),
    ],
)
def test_o_que_o_programa_grava_e_comparado(cidade: Banco, sql: str, esperado: str) -> None:
    assert _verificar(cidade).integro, _verificar(cidade).achados
    with cidade.engine.begin() as conn:
        conn.exec_driver_sql(sql)
    achados = _verificar(cidade).achados
    assert any(esperado in a for a in achados), achados


# --- a restore checks the copy as completely as `auditoria verificar` ---------------------------------------


def _copia(banco: Banco, destino: Path) -> Path:
    from secretaria.services.backup import fazer_backup

    fazer_backup(banco.url, destino)
    return destino


def _na_copia(copia: Path, *comandos: str) -> None:
    """Tamper with a copy as its holder would (the file's triggers dropped first)."""
    import sqlite3

    con = sqlite3.connect(copia)
    try:
        con.execute("DROP TRIGGER IF EXISTS auditoria_sem_alteracao")
        con.execute("DROP TRIGGER IF EXISTS auditoria_sem_exclusao")
        for comando in comandos:
            con.execute(comando)
        con.commit()
    finally:
        con.close()


def _recriar_gatilhos(copia: Path) -> None:
    from secretaria.services.verificacao import GATILHOS_SQLITE

    _na_copia(copia, *GATILHOS_SQLITE.values())


def test_copia_de_esquema_anterior_com_multa_alterada_e_recusada(banco_sqlite: Banco, tmp_path: Path) -> None:
    from alembic import command

    from secretaria import migracoes
    from secretaria.services import backup
    from tests.helpers.cidade_auditada import montar

    montar(banco_sqlite)
    antiga = _copia(banco_sqlite, tmp_path / "antiga.sqlite")
    engine = sa.create_engine(f"sqlite:///{antiga}")
    with engine.begin() as conn:  # an older release's schema (before 0012)
        command.downgrade(migracoes.configuracao(conn), "0011")
    engine.dispose()
    assert backup.verificar_copia(antiga).revisao == "0011"  # whole: accepted
    _na_copia(antiga, "UPDATE decisao SET multa_ur = multa_ur * 10")
    _recriar_gatilhos(antiga)
    with pytest.raises(ErroBanco, match="A decisão 1: o campo multa_ur"):
        backup.verificar_copia(antiga)


def test_copia_com_cadeia_recalculada_e_recusada_pelo_termo_do_banco_atual(
    banco_sqlite: Banco, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from secretaria.services import auditoria, backup
    from secretaria.services.verificacao import emitir_termo
    from tests.helpers.cidade_auditada import ADMIN, montar

    montar(banco_sqlite)
    copia = _copia(banco_sqlite, tmp_path / "copia.sqlite")
    termo = emitir_termo(banco_sqlite, ADMIN)  # anchors the copy's last row
    # The copy's holder raises a fine and re-chains the whole audit after it (plain SHA-256, no key).
    engine = sa.create_engine(f"sqlite:///{copia}")
    with so.Session(engine) as s:
        regs = list(s.scalars(sa.select(Auditoria).order_by(Auditoria.id)))
        s.expunge_all()
    engine.dispose()
    anterior = auditoria.HASH_INICIAL
    comandos = ["UPDATE decisao SET multa_ur = multa_ur * 10"]
    for reg in regs:
        if reg.entidade == "decisao" and reg.depois:
            imagem = json.loads(reg.depois)
            if "multa_ur" in imagem:
                imagem["multa_ur"] = str(Decimal(imagem["multa_ur"]) * 10)
                reg.depois = json.dumps(imagem, sort_keys=True, ensure_ascii=False)
        reg.hash_anterior = anterior
        reg.hash = auditoria._calcular_hash(auditoria._campos(reg))
        anterior = reg.hash
        depois = "NULL" if reg.depois is None else "'" + reg.depois.replace("'", "''") + "'"
        comandos.append(
            f"UPDATE auditoria SET depois = {depois}, hash_anterior = '{reg.hash_anterior}', hash = '{reg.hash}' "
            f"WHERE id = {reg.id}"
        )
    _na_copia(copia, *comandos)
    _recriar_gatilhos(copia)
    backup.verificar_copia(copia)  # on its own the recomputed copy is whole
    with pytest.raises(ErroBanco, match=f"Registro de auditoria nº {termo.ultimo_id}: o hash"):
        backup.preparar_restauracao(copia, banco_sqlite.url, ator=ADMIN)
    # The paper's anchor, on the command line, refuses it as well (no administrator in this database).
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    ancora = f"{termo.ultimo_id}:{termo.ultimo_hash}"
    banco_sqlite.fechar()
    codigo = cli.main(["restaurar", str(copia), "--sim", "--ancora", ancora, "--db", banco_sqlite.url])
    saida = capsys.readouterr()
    assert codigo == cli.SAIDA_ERRO and f"Registro de auditoria nº {termo.ultimo_id}: o hash" in saida.err
