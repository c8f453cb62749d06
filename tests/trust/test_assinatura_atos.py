"""On SQLite, a file every user of the PC can reach: every act signed by its author. A forged act added to
the file (even chained correctly, even in the Secretary's name over a changed fine) is named by `auditoria
verificar`; a password reset keeps the old rows verifying; rows written before the signing are accepted as
such."""

from __future__ import annotations

import json
import time
from datetime import datetime
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria import relogio
from secretaria.db import Banco
from secretaria.models import Auditoria, ChaveAssinatura, Decisao
from secretaria.services import auditoria, chaves, contas
from secretaria.services.assinatura_atos import (
    TIPO_ASSINATURA,
    TIPO_CHAVE,
    TIPO_NAO_ASSINADO,
    impressoes_ativas,
)
from secretaria.services.base import SISTEMA, Ator
from secretaria.services.verificacao import RelatorioVerificacao, verificar_tudo
from tests.trust.conftest import Adulterar

SENHA_ADMIN = "Admin1234"
SENHA_SECRETARIO = "Secretario1"


def _verificar(banco: Banco) -> RelatorioVerificacao:
    with banco.leitura() as s:
        return verificar_tudo(s)


def _ultimo_id(banco: Banco) -> int:
    with banco.leitura() as s:
        return int(s.scalar(sa.select(sa.func.max(Auditoria.id))) or 0)


def _forjar(
    banco: Banco,
    login: str,
    acao: str,
    entidade: str,
    entidade_id: object,
    depois: dict[str, object],
    assinatura: str | None = None,
    chave: chaves.ChaveAberta | None = None,
) -> int:
    """An audit row INSERTed into the file, chained exactly as the program chains (the hash computed the
    program's way, the signing key's number included): unsigned, with a copied `assinatura`, or signed by
    `chave` (a key the intruder holds). Returns its number."""
    with banco.engine.begin() as conn:
        ultimo = conn.execute(sa.text("SELECT id, hash FROM auditoria ORDER BY id DESC LIMIT 1")).one()
        reg = Auditoria(
            id=ultimo.id + 1,
            momento=relogio.agora(),
            usuario_login=login,
            acao=acao,
            entidade=entidade,
            entidade_id=str(entidade_id),
            antes=None,
            depois=json.dumps(depois, sort_keys=True, ensure_ascii=False),
            hash_anterior=ultimo.hash,
            assinatura=f"{chave.chave_id}:" if chave is not None else assinatura,
        )
        reg.hash = auditoria._calcular_hash(auditoria._campos(reg))
        if chave is not None:
            reg.assinatura = chave.assinar(reg.hash)
        conn.execute(
            sa.insert(Auditoria).values({c.name: getattr(reg, c.key) for c in Auditoria.__table__.c})
        )
        return int(reg.id)


@pytest.fixture
def contas_assinando(banco_sqlite: Banco) -> tuple[Ator, Ator]:
    """A new database's first administrator (the root of the certificates) and a Secretary the
    administrator created (key certified by the administrator), both logged in."""
    contas.criar_primeiro_administrador(banco_sqlite.uow(), login="admin", nome="Ana", senha=SENHA_ADMIN)
    admin = contas.autenticar(banco_sqlite.uow(), "admin", SENHA_ADMIN)
    return admin, _secretario_entra(banco_sqlite, admin)


def _secretario_entra(banco: Banco, criador: Ator) -> Ator:
    """The Secretary's account, created by `criador`, logged in."""
    contas.criar_usuario(
        banco.uow(), criador, login="secretario", nome="Sérgio", senha=SENHA_SECRETARIO, papeis=["secretario"]
    )
    return contas.autenticar(banco.uow(), "secretario", SENHA_SECRETARIO)


def test_cada_ato_e_assinado_pelo_seu_autor_e_a_auditoria_confere(
    banco_sqlite: Banco, contas_assinando: tuple[Ator, Ator]
) -> None:
    admin, secretario = contas_assinando
    assert admin.chave is not None and secretario.chave is not None
    with banco_sqlite.leitura() as s:
        linhas = s.execute(
            sa.select(Auditoria.usuario_login, Auditoria.acao, Auditoria.assinatura).order_by(Auditoria.id)
        ).all()
        motivos = dict(
            s.execute(sa.select(ChaveAssinatura.usuario_id, ChaveAssinatura.motivo)).tuples().all()
        )
        certificador = s.scalar(
            sa.select(ChaveAssinatura.certificada_por).where(ChaveAssinatura.id == secretario.chave.chave_id)
        )
    # The catalogue seeded at start-up precedes everyone; from the first administrator on, all is signed.
    depois_do_primeiro = [linha for linha in linhas if linha.usuario_login != "sistema"]
    assert [(login, acao) for login, acao, _a in depois_do_primeiro] == [
        ("admin", "criar_usuario"),
        ("admin", "entrada"),
        ("admin", "criar_usuario"),
        ("secretario", "entrada"),
    ]
    assert all(a is not None for _l, _a, a in depois_do_primeiro)
    assert motivos == {admin.usuario_id: "primeiro_administrador", secretario.usuario_id: "criacao"}
    assert certificador == admin.chave.chave_id
    relatorio = _verificar(banco_sqlite)
    assert relatorio.integro, relatorio.achados
    assert relatorio.assinaturas.startswith("4 registros assinados pelos seus autores")


def test_linha_forjada_e_bem_encadeada_no_arquivo_e_apontada(
    banco_sqlite: Banco, contas_assinando: tuple[Ator, Ator]
) -> None:
    # Someone with the file adds an account-neutral act (the office's settings) chained correctly.
    with banco_sqlite.engine.begin() as conn:
        conn.execute(
            sa.text("INSERT INTO configuracao (chave, valor) VALUES ('backup_copias_mantidas', '1')")
        )
    forjada = _forjar(
        banco_sqlite, "admin", "configurar_backup", "configuracao", "backup_copias_mantidas", {"valor": "1"}
    )
    relatorio = _verificar(banco_sqlite)
    assert relatorio.cadeia.integra  # the chain alone is whole: only the signature tells
    assert not relatorio.integro
    assert relatorio.contagem_achados == {TIPO_NAO_ASSINADO: 1}, relatorio.achados
    assert relatorio.achados[0].startswith(
        f"Registro de auditoria nº {forjada} (“configurar_backup” em configuracao backup_copias_mantidas, em "
        "nome de admin"
    )
    assert "não tem a assinatura de nenhum usuário" in relatorio.achados[0]


def test_multa_alterada_e_linha_forjada_em_nome_do_secretario_sao_apontadas(banco_sqlite: Banco) -> None:
    from tests.helpers.cidade_auditada import montar

    cidade = montar(banco_sqlite)  # written before anyone logged in: "anteriores à assinatura"
    secretario = _secretario_entra(banco_sqlite, SISTEMA)
    assert secretario.chave is not None
    assert _verificar(banco_sqlite).integro
    with banco_sqlite.leitura() as s:
        multa = s.scalar(sa.select(Decisao.multa_ur).where(Decisao.id == cidade.decisao_id))
        assinatura_real = s.scalar(
            sa.select(Auditoria.assinatura).where(
                Auditoria.usuario_login == "secretario", Auditoria.acao == "entrada"
            )
        )
    assert multa is not None and assinatura_real is not None
    nova = str(Decimal(multa) * 10)
    with banco_sqlite.engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE decisao SET multa_ur = :m WHERE id = :i"), {"m": nova, "i": cidade.decisao_id}
        )

    def forjar(assinatura: str | None = None, chave: chaves.ChaveAberta | None = None) -> int:
        depois: dict[str, object] = {"multa_ur": nova}
        decisao = cidade.decisao_id
        return _forjar(
            banco_sqlite, "secretario", "rever_decisao", "decisao", decisao, depois, assinatura, chave
        )

    sem = forjar()  # 1. unsigned, in the Secretary's name: the record now agrees with the forged image
    copiada = forjar(assinatura=assinatura_real)  # 2. the Secretary's real signature of another row
    # 3. a key of the intruder's own, put in the file for the Secretary, self-certified, and a row it signs.
    intrusa = chaves.preparar("Intrusa123")
    with banco_sqlite.uow() as uow:
        assert secretario.usuario_id is not None
        aberta = chaves.gravar(
            uow.session, secretario.usuario_id, "secretario", intrusa, chaves.MOTIVO_PRIMEIRA_ENTRADA, None
        )
        uow.commit()
    assinada = forjar(chave=aberta)
    relatorio = _verificar(banco_sqlite)
    assert relatorio.cadeia.integra
    assert not any("o campo multa_ur" in a for a in relatorio.achados)  # the images agree with the record
    assert _achado(relatorio, sem).startswith(
        f"Registro de auditoria nº {sem} (“rever_decisao” em decisao {cidade.decisao_id}, em nome de secretario"
    )
    assert "não tem a assinatura de nenhum usuário" in _achado(relatorio, sem)
    assert "a assinatura não confere com a chave" in _achado(relatorio, copiada)
    assert "que não tem certificação válida" in _achado(relatorio, assinada)
    assert any(
        a.startswith(f"A chave de assinatura nº {aberta.chave_id} de secretario certifica a si mesma")
        for a in relatorio.achados
    )
    assert relatorio.contagem_achados == {TIPO_CHAVE: 1, TIPO_NAO_ASSINADO: 1, TIPO_ASSINATURA: 2}


def _achado(relatorio: RelatorioVerificacao, numero: int) -> str:
    return next(a for a in relatorio.achados if a.startswith(f"Registro de auditoria nº {numero} "))


def test_redefinicao_faz_chave_nova_e_os_registros_antigos_continuam_conferindo(
    banco_sqlite: Banco, contas_assinando: tuple[Ator, Ator]
) -> None:
    admin, secretario = contas_assinando
    assert secretario.chave is not None and secretario.usuario_id is not None
    antiga = secretario.chave.chave_id
    contas.redefinir_senha(banco_sqlite.uow(), admin, secretario.usuario_id, nova_senha="Redefinida1")
    depois = contas.autenticar(banco_sqlite.uow(), "secretario", "Redefinida1")
    assert depois.chave is not None and depois.chave.chave_id != antiga
    with banco_sqlite.leitura() as s:
        guardadas = s.execute(
            sa.select(
                ChaveAssinatura.id,
                ChaveAssinatura.ativa,
                ChaveAssinatura.motivo,
                ChaveAssinatura.certificada_por,
            )
            .where(ChaveAssinatura.usuario_id == secretario.usuario_id)
            .order_by(ChaveAssinatura.id)
        ).all()
        assinadas_pela_antiga = s.scalar(
            sa.select(sa.func.count()).where(Auditoria.assinatura.like(f"{antiga}:%"))
        )
    assert [tuple(g) for g in guardadas] == [
        (antiga, False, "criacao", admin.chave.chave_id if admin.chave else None),
        (depois.chave.chave_id, True, "redefinicao", admin.chave.chave_id if admin.chave else None),
    ]
    assert assinadas_pela_antiga == 1  # the Secretary's first entry, signed by the old key
    # The user's own change re-seals the same key: the next login opens it with the new password.
    contas.alterar_propria_senha(
        banco_sqlite.uow(), depois, senha_atual="Redefinida1", nova_senha="Propria123"
    )
    outra = contas.autenticar(banco_sqlite.uow(), "secretario", "Propria123")
    assert outra.chave is not None and outra.chave.chave_id == depois.chave.chave_id
    relatorio = _verificar(banco_sqlite)
    assert relatorio.integro, relatorio.achados


def test_assinatura_removida_rompe_o_hash_do_registro(
    banco_sqlite: Banco, contas_assinando: tuple[Ator, Ator], adulterar: Adulterar
) -> None:
    """Blanking every signature would make every row look "anterior à assinatura": the key's number is part
    of each signed row's hash, so the first such row is named."""
    with banco_sqlite.leitura() as s:
        primeira = s.scalar(sa.select(sa.func.min(Auditoria.id)).where(Auditoria.assinatura.is_not(None)))
    adulterar(banco_sqlite, "UPDATE auditoria SET assinatura = NULL")
    _recriar_gatilhos(banco_sqlite)
    relatorio = _verificar(banco_sqlite)
    assert relatorio.cadeia.primeiro_erro_id == primeira
    assert (
        relatorio.cadeia.mensagem
        == f"Registro de auditoria nº {primeira}: conteúdo alterado após a gravação."
    )


def test_chave_posta_no_arquivo_para_quem_ainda_nao_entrou_recusa_a_entrada(banco_sqlite: Banco) -> None:
    uid = contas.criar_usuario(
        banco_sqlite.uow(), SISTEMA, login="fiscal", nome="Fábio", senha="Fiscal1234", papeis=["fiscal"]
    )
    with banco_sqlite.uow() as uow:
        chaves.gravar(
            uow.session, uid, "fiscal", chaves.preparar("Intrusa123"), chaves.MOTIVO_PRIMEIRA_ENTRADA, None
        )
        uow.commit()
    with pytest.raises(contas.FalhaLogin) as erro:
        contas.autenticar(banco_sqlite.uow(), "fiscal", "Fiscal1234")
    assert erro.value.mensagem == contas.MENSAGEM_CHAVE_ALHEIA
    with banco_sqlite.leitura() as s:
        ultima = s.execute(
            sa.select(Auditoria.acao, Auditoria.depois).order_by(Auditoria.id.desc()).limit(1)
        ).one()
    assert ultima.acao == "recusa_entrada" and "chave de assinatura alheia" in (ultima.depois or "")


def test_banco_anterior_a_assinatura_confere_e_cada_conta_recebe_a_chave_na_entrada(
    banco_sqlite: Banco,
) -> None:
    """An upgraded database: its rows are unsigned (here: written by actors that did not log in, as every row
    before revision 0018 was). They are reported as earlier than the signing, not as forgeries; each account
    gets its key at its next login, self-certified; the termo prints every active user's fingerprint."""
    from secretaria.services.verificacao import emitir_termo

    for login, papel in (("admin", "administrador"), ("fiscal", "fiscal")):
        contas.criar_usuario(
            banco_sqlite.uow(), SISTEMA, login=login, nome=login.title(), senha="Senha1234", papeis=[papel]
        )
    antes = _ultimo_id(banco_sqlite)
    admin = contas.autenticar(banco_sqlite.uow(), "admin", "Senha1234")
    with pytest.raises(contas.FalhaLogin):
        contas.autenticar(banco_sqlite.uow(), "fiscal", "errada1234")  # unsigned by nature: nobody to sign
    relatorio = _verificar(banco_sqlite)
    assert relatorio.integro, relatorio.achados
    assert relatorio.assinaturas.startswith(
        f"1 registro assinado pelos seus autores; {antes} anteriores à assinatura"
    )
    with banco_sqlite.leitura() as s:
        impressoes = {i.login: i for i in impressoes_ativas(s)}
        publica = s.scalar(
            sa.select(ChaveAssinatura.publica).where(ChaveAssinatura.usuario_id == admin.usuario_id)
        )
    assert publica is not None
    assert impressoes["admin"].impressao == chaves.impressao(publica)
    assert impressoes["admin"].certificacao.startswith(
        "autocertificada na primeira entrada após a atualização"
    )
    assert impressoes["fiscal"].impressao == ""  # not logged in yet
    termo = emitir_termo(banco_sqlite, admin)
    texto = _texto_do_pdf(termo.pdf)
    assert chaves.impressao(publica) in texto
    assert "recebe a chave na próxima entrada" in texto


def test_tempo_de_cada_assinatura(contas_assinando: tuple[Ator, Ator]) -> None:
    """Signing is not what makes an act slow (the unsealing runs once, at login)."""
    _admin, secretario = contas_assinando
    assert secretario.chave is not None
    inicio = time.perf_counter()
    for n in range(1000):
        secretario.chave.assinar(f"{n:064x}")
    por_assinatura = (time.perf_counter() - inicio) / 1000
    assert por_assinatura < 0.005, por_assinatura


def _recriar_gatilhos(banco: Banco) -> None:
    from secretaria.services.verificacao import GATILHOS_SQLITE

    with banco.engine.begin() as conn:
        for sql in GATILHOS_SQLITE.values():
            conn.exec_driver_sql(sql)


def _texto_do_pdf(pdf: bytes) -> str:
    from tests.services.test_documentos import texto_pdf

    return texto_pdf(pdf)[0]


def test_banco_na_revisao_0016_atualizado_confere_e_assina_dali_em_diante(tmp_path: Path) -> None:
    """A real upgrade: an audit written at revision 0016 (no signature column), then 0018 added by the
    start-up's migration. The append-only triggers survive it, the old rows are "anteriores à assinatura",
    and the first login after it signs."""
    from secretaria import migracoes
    from secretaria.services.semente import abrir_e_semear

    url = f"sqlite:///{tmp_path / 'antigo.sqlite'}"
    engine = sa.create_engine(url)
    migracoes.atualizar(engine, "0016")
    anterior = auditoria.HASH_INICIAL
    with engine.begin() as conn:
        for numero in (1, 2):
            linha = {
                "id": numero,
                "momento": datetime(2026, 11, 30, 8, numero).isoformat(sep=" "),
                "usuario_login": "ana",
                "acao": "falha_entrada" if numero == 1 else "entrada",
                "entidade": "acesso",
                "entidade_id": None,
                "antes": None,
                "depois": json.dumps({"usuario_id": 9}),
                "hash_anterior": anterior,
            }
            campos = {**linha, "momento": datetime(2026, 11, 30, 8, numero).isoformat()}
            anterior = auditoria._calcular_hash(campos)
            conn.execute(
                sa.text(
                    "INSERT INTO auditoria (id, momento, usuario_login, acao, entidade, entidade_id, antes, depois, "
                    "hash_anterior, hash) VALUES (:id, :momento, :usuario_login, :acao, :entidade, :entidade_id, "
                    ":antes, :depois, :hash_anterior, :hash)"
                ),
                {**linha, "hash": anterior},
            )
    engine.dispose()
    banco = abrir_e_semear(url)
    try:
        contas.criar_usuario(
            banco.uow(), SISTEMA, login="ana", nome="Ana", senha=SENHA_ADMIN, papeis=["administrador"]
        )
        relatorio = _verificar(banco)
        assert relatorio.integro, relatorio.achados
        assert "gatilhos de somente inclusão presentes" in relatorio.protecao
        antes = _ultimo_id(banco)
        ana = contas.autenticar(banco.uow(), "ana", SENHA_ADMIN)
        assert ana.chave is not None
        relatorio = _verificar(banco)
        assert relatorio.integro, relatorio.achados
        assert relatorio.assinaturas.startswith(
            f"1 registro assinado pelos seus autores; {antes} anteriores à assinatura"
        )
    finally:
        banco.fechar()
