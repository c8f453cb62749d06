"""The demo database (`secretaria demo`): a lived-in, legally coherent city, built once per database kind.

The demo is built once per module and database (SQLite and PostgreSQL) at full size (a few seconds); the
tests then look at it as a user would: counts, every phase of the procedure, an operator suspended today,
the logins on the login screen, and the coherence checks of `secretaria.demo.conferencia`.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa

from secretaria import relogio
from secretaria.db import Banco
from secretaria.demo.cidade import ESCALA_DEMO
from secretaria.demo.conferencia import conferir_cidade
from secretaria.demo.popular import SENHA_DEMO, USUARIOS_DEMO, popular_demo
from secretaria.lei.documentos import validar_cnpj, validar_cpf, validar_placa, validar_renavam
from secretaria.models import (
    FASES_AUTO,
    AutoInfracao,
    Base,
    Decisao,
    Empregado,
    Fiscal,
    Linha,
    Numeracao,
    Operadora,
    Pagamento,
    Recurso,
    Representacao,
    Suspensao,
    Usuario,
    Veiculo,
)
from secretaria.services.auditoria import verificar_cadeia
from secretaria.services.contas import FalhaLogin, autenticar
from secretaria.services.semente import abrir_e_semear


def _limpar_pg(url: str) -> None:
    engine = sa.create_engine(url)
    nomes = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
    with engine.begin() as conn:
        # The audit refuses TRUNCATE (migration 0003); a superuser's replica mode skips that trigger.
        conn.exec_driver_sql("SET LOCAL session_replication_role = replica")
        conn.exec_driver_sql(f"TRUNCATE {nomes} RESTART IDENTITY CASCADE")
    engine.dispose()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Banco]:
    if request.param == "sqlite":
        modelo: Path = request.getfixturevalue("sqlite_modelo")
        arquivo = tmp_path_factory.mktemp("demo") / "demo.sqlite"
        shutil.copyfile(modelo, arquivo)
        url = f"sqlite:///{arquivo}"
    else:
        url = request.getfixturevalue("pg_url")
        _limpar_pg(url)
    banco = abrir_e_semear(url)
    etapas: list[tuple[int, int, str]] = []
    assert popular_demo(banco, progresso=lambda f, t, e: etapas.append((f, t, e))) is True
    assert etapas and etapas[-1][0] == etapas[-1][1], "o progresso termina em 100 %"
    try:
        yield banco
    finally:
        banco.fechar()


def _contar(banco: Banco, modelo: type[Base]) -> int:
    with banco.leitura() as s:
        return int(s.scalar(sa.select(sa.func.count()).select_from(modelo)) or 0)


def test_demo_tem_o_tamanho_prometido(demo: Banco) -> None:
    assert _contar(demo, Operadora) == ESCALA_DEMO.operadoras == 6
    assert _contar(demo, Linha) == 40
    assert _contar(demo, Veiculo) == 400
    assert _contar(demo, Empregado) == 1500
    assert _contar(demo, Fiscal) == 8
    assert _contar(demo, AutoInfracao) == 3000
    with demo.leitura() as s:
        inicio, fim = s.execute(
            sa.select(sa.func.min(AutoInfracao.data_lavratura), sa.func.max(AutoInfracao.data_lavratura))
        ).one()
    hoje = relogio.hoje()
    assert (hoje - fim).days <= 7, "autos até os últimos dias"
    assert 3 * 365 - 15 <= (hoje - inicio).days < 3 * 366, "três anos de autos"


def test_identificadores_validos_e_nos_dois_formatos(demo: Banco) -> None:
    with demo.leitura() as s:
        cnpjs = s.scalars(sa.select(Operadora.cnpj)).all()
        placas = s.scalars(sa.select(Veiculo.placa)).all()
        renavams = s.scalars(sa.select(Veiculo.renavam)).all()
        cpfs = s.scalars(sa.select(Empregado.cpf)).all()
        ruas = s.scalars(sa.select(Operadora.logradouro)).all()
    assert all(validar_cnpj(c) == c for c in cnpjs)
    assert any(not c[:12].isdigit() for c in cnpjs), "algum CNPJ alfanumérico"
    assert any(c.isdigit() for c in cnpjs), "algum CNPJ numérico"
    assert all(validar_placa(p) == p for p in placas)
    assert any(p[4].isdigit() for p in placas) and any(p[4].isalpha() for p in placas), (
        "placas antigas e Mercosul"
    )
    assert all(validar_renavam(r) == r for r in renavams)
    assert all(validar_cpf(c) == c for c in cpfs)
    assert len(set(cpfs)) == len(cpfs)
    assert all(r.startswith(("Rua ", "Av. ")) for r in ruas)


def test_todas_as_fases_do_procedimento(demo: Banco) -> None:
    with demo.leitura() as s:
        fases = dict(
            s.execute(sa.select(AutoInfracao.fase, sa.func.count()).group_by(AutoInfracao.fase))
            .tuples()
            .all()
        )
        decisoes = set(s.scalars(sa.select(Decisao.resultado).distinct()))
        recursos = set(s.scalars(sa.select(Recurso.resultado).distinct()))
        pagamentos = set(s.scalars(sa.select(Pagamento.situacao).distinct()))
        representacoes = set(s.scalars(sa.select(Representacao.situacao).distinct()))
        autos_de_rep = s.scalar(
            sa.select(sa.func.count())
            .select_from(AutoInfracao)
            .where(AutoInfracao.representacao_id.is_not(None))
        )
        em_defesa = s.scalar(
            sa.select(sa.func.count())
            .select_from(AutoInfracao)
            .where(AutoInfracao.fase == "intimado", AutoInfracao.prazo_defesa >= relogio.hoje())
        )
        suspensoes = s.scalar(sa.select(sa.func.count()).select_from(Suspensao))
    assert set(fases) == set(FASES_AUTO)
    assert all(n >= 5 for n in fases.values()), fases
    assert em_defesa, "algum auto com prazo de defesa em curso"
    assert decisoes == {"aplicada", "arquivado"}
    assert recursos == {"pendente", "negado", "provido", "provido_parcialmente"}
    assert pagamentos == {"aberto", "pago", "divida_ativa", "cancelado"}
    assert representacoes == {"recebida", "arquivada", "autuada"}
    assert autos_de_rep
    assert suspensoes and suspensoes >= 3, "cadeias de reincidência que chegam à suspensão"


def test_uma_operadora_suspensa_hoje(demo: Banco) -> None:
    hoje = relogio.hoje()
    with demo.leitura() as s:
        suspensas = s.execute(
            sa.select(Operadora.razao_social, Suspensao.inicio, Suspensao.fim)
            .join(Suspensao, Suspensao.operadora_id == Operadora.id)
            .where(Suspensao.inicio <= hoje, Suspensao.fim >= hoje, Suspensao.anulada.is_(False))
        ).all()
    assert suspensas


def test_reincidencia_ate_a_suspensao_em_dobro(demo: Banco) -> None:
    """A chain of one provision climbing levels, first suspension then the doubled one (art. 7º, § 7º)."""
    with demo.leitura() as s:
        linhas = s.execute(
            sa.select(
                AutoInfracao.operadora_id,
                AutoInfracao.dispositivo_codigo,
                Decisao.reincidencia,
                Decisao.suspensao_dias,
            )
            .join(Decisao, Decisao.auto_id == AutoInfracao.id)
            .where(Decisao.suspensao_dias > 0)
            .order_by(AutoInfracao.operadora_id, AutoInfracao.dispositivo_codigo, AutoInfracao.data_infracao)
        ).all()
    cadeias: dict[tuple[int, str], list[int]] = {}
    for op, disp, _nivel, dias in linhas:
        cadeias.setdefault((op, disp), []).append(dias)
    assert any(len(d) >= 2 and d[1] == min(2 * d[0], 30) for d in cadeias.values()), cadeias
    assert max(r.reincidencia for r in linhas) >= 4


def test_painel_de_sancao_concorda_com_as_decisoes_da_cadeia(demo: Banco) -> None:
    """Under REGRAS § 3 rule 1 (priors counted once final), the sanction panel, reading the stored final days,
    gives every decided link of the recidivism chains the level its decision recorded, up to suspension."""
    from secretaria.services.sancao import avaliar_sancao

    with demo.leitura() as s:
        decididos = s.execute(
            sa.select(AutoInfracao, Decisao.reincidencia)
            .join(Decisao, Decisao.auto_id == AutoInfracao.id)
            .where(Decisao.resultado == "aplicada", Decisao.reincidencia >= 2)
        ).all()
        assert any(nivel >= 4 for _a, nivel in decididos)
        for auto, nivel in decididos:
            avaliacao = avaliar_sancao(
                s,
                operadora_id=auto.operadora_id,
                dispositivo_codigo=auto.dispositivo_codigo,
                data_infracao=auto.data_infracao,
                excluir_auto_id=auto.id,
                tipo=auto.tipo,
            )
            assert avaliacao.reincidencia == nivel, auto.numero_formatado
            assert all(
                a.definitiva_em is not None and a.definitiva_em <= auto.data_infracao
                for a in avaliacao.antecedentes
                if a.contado
            )


def test_logins_do_demo_entram_com_seus_papeis(demo: Banco) -> None:
    for login, _nome, papeis in USUARIOS_DEMO:
        ator = autenticar(demo.uow(), login, SENHA_DEMO)
        assert ator.papeis == frozenset(papeis)
    with pytest.raises(FalhaLogin):
        autenticar(demo.uow(), "admin", "senha-errada1")


def test_cidade_coerente_e_auditoria_integra(demo: Banco) -> None:
    with demo.leitura() as s:
        assert conferir_cidade(s, relogio.hoje()) == []
        resultado = verificar_cadeia(s)
    assert resultado.integra, resultado.mensagem
    assert resultado.linhas >= 20


def test_conferencia_acusa_multa_fora_da_faixa(demo: Banco) -> None:
    """The coherence check is not blind: a fine above the range is named (change rolled back)."""
    with demo.leitura() as s:
        alvo = s.execute(
            sa.select(Decisao.id, AutoInfracao.ano, AutoInfracao.numero)
            .join(AutoInfracao, AutoInfracao.id == Decisao.auto_id)
            .where(Decisao.resultado == "aplicada")
            .limit(1)
        ).one()
        s.execute(sa.update(Decisao).where(Decisao.id == alvo.id).values(multa_ur=Decimal("10.00") + 1))
        problemas = conferir_cidade(s, relogio.hoje())
    assert any(p.startswith(f"AI {alvo.numero:04d}/{alvo.ano}:") and "fora da faixa" in p for p in problemas)


def test_conferencia_acusa_dia_definitivo_errado(demo: Banco) -> None:
    """A stored final day one day early (a prior counted while still appealable) is named (rolled back)."""
    with demo.leitura() as s:
        alvo = s.execute(
            sa.select(AutoInfracao.id, AutoInfracao.ano, AutoInfracao.numero, AutoInfracao.prazo_recurso)
            .join(Decisao, Decisao.auto_id == AutoInfracao.id)
            .where(
                Decisao.resultado == "aplicada",
                AutoInfracao.fase == "decidido",
                AutoInfracao.prazo_recurso.is_not(None),
            )
            .limit(1)
        ).one()
        s.execute(
            sa.update(AutoInfracao)
            .where(AutoInfracao.id == alvo.id)
            .values(data_definitiva=alvo.prazo_recurso)
        )
        problemas = conferir_cidade(s, relogio.hoje())
    assert any(p.startswith(f"AI {alvo.numero:04d}/{alvo.ano}: data_definitiva") for p in problemas)


def test_numeracao_e_ids_continuam_depois_do_demo(demo: Banco) -> None:
    """Later real autos continue the year's sequence, and new rows get fresh ids (PostgreSQL sequences)."""
    ano = relogio.hoje().year
    with demo.uow() as uow:
        s = uow.session
        ultimo = s.scalar(sa.select(Numeracao.ultimo).where(Numeracao.serie == "AI", Numeracao.ano == ano))
        maior = s.scalar(sa.select(sa.func.max(AutoInfracao.numero)).where(AutoInfracao.ano == ano))
        assert ultimo == maior and maior
        maior_id = s.scalar(sa.select(sa.func.max(Fiscal.id)))
        novo = Fiscal(nome="Fiscal Novo", matricula="99.999-9", alterado_por="teste")
        s.add(novo)
        s.flush()
        assert novo.id > (maior_id or 0)
        uow.rollback()


def test_segunda_chamada_deixa_o_banco_como_estava(demo: Banco) -> None:
    antes = (_contar(demo, AutoInfracao), _contar(demo, Usuario), _contar(demo, Operadora))
    assert popular_demo(demo) is False
    assert (_contar(demo, AutoInfracao), _contar(demo, Usuario), _contar(demo, Operadora)) == antes


def test_demo_de_outro_dia_tambem_fecha(
    tmp_path: Path, sqlite_modelo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Generated on a holiday (2 February, Pelotas) the city still holds together, and is the same city
    when generated twice (fixed seed)."""
    monkeypatch.setattr(relogio, "hoje", lambda: date(2027, 2, 2))
    digestos = []
    for nome in ("a.sqlite", "b.sqlite"):
        shutil.copyfile(sqlite_modelo, tmp_path / nome)
        banco = abrir_e_semear(f"sqlite:///{tmp_path / nome}")
        try:
            from secretaria.demo.cidade import Escala

            assert popular_demo(
                banco, escala=Escala(operadoras=2, veiculos=40, empregados=60, autos=400, anos=2, cadeias=2)
            )
            with banco.leitura() as s:
                assert conferir_cidade(s, date(2027, 2, 2)) == []
                digestos.append(
                    s.execute(
                        sa.select(
                            AutoInfracao.numero,
                            AutoInfracao.dispositivo_codigo,
                            AutoInfracao.fase,
                            AutoInfracao.multa_ur,
                        ).order_by(AutoInfracao.id)
                    ).all()
                )
        finally:
            banco.fechar()
    assert digestos[0] == digestos[1]


def test_demo_confere_com_a_auditoria_depois_de_entrar(demo: Banco) -> None:
    """A login writes the account's last access; the demo's images must agree with it (before, the
    termo could never be issued on the demo), and no image holds a password hash."""
    from secretaria.models import Auditoria
    from secretaria.services.verificacao import verificar_tudo

    autenticar(demo.uow(), "admin", SENHA_DEMO)
    with pytest.raises(FalhaLogin):
        autenticar(demo.uow(), "fiscal", "errada123")
    with demo.leitura() as s:
        relatorio = verificar_tudo(s)
        imagens = s.execute(
            sa.select(Auditoria.antes, Auditoria.depois).where(Auditoria.entidade == "usuario")
        )
        texto = repr(imagens.all())
    assert relatorio.integro, relatorio.achados
    assert "scrypt" not in texto and "senha_hash" not in texto


def test_demo_confere_com_cada_usuario_assinando_os_seus_atos(demo: Banco) -> None:
    """On SQLite (acts signed by their authors): every demo user gets their key at their first login and
    signs their acts; the generator's rows come before the first signature ("anteriores à assinatura"): the
    demo verifies clean."""
    from secretaria.models import Auditoria
    from secretaria.services import backup
    from secretaria.services.verificacao import verificar_tudo

    atores = [autenticar(demo.uow(), login, SENHA_DEMO) for login, _nome, _papeis in USUARIOS_DEMO]
    administrador = next(a for a in atores if a.tem("administrador"))
    backup.definir_copias_mantidas(demo.uow(), administrador, quantidade=5)
    with demo.leitura() as s:
        relatorio = verificar_tudo(s)
        sem_assinatura = s.scalar(
            sa.select(sa.func.count()).where(
                Auditoria.usuario_login == administrador.login,
                Auditoria.assinatura.is_(None),
                Auditoria.acao.not_in(["falha_entrada", "recusa_entrada", "bloqueio"]),  # nobody to sign
            )
        )
    assert relatorio.integro, relatorio.achados
    if demo.eh_sqlite:
        assert all(a.chave is not None for a in atores)
        assert sem_assinatura == 0
        assert f"{len(USUARIOS_DEMO)} chaves de assinatura certificadas" in relatorio.assinaturas
        assert "anteriores à assinatura" in relatorio.assinaturas
    else:
        assert all(a.chave is None for a in atores) and relatorio.assinaturas == ""
