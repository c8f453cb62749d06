"""Official documents issued from the database (services.documentos), on SQLite and PostgreSQL.

Each PDF is read back with pypdf and checked for what the law and PRODUTO § 9 require, with the values the
database holds; issuing twice gives the stored bytes, and a stored document altered behind the program's
back is refused.
"""

from __future__ import annotations

import hashlib
import io
import json
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa
from pypdf import PdfReader

from secretaria.db import Banco
from secretaria.lei.formato import formatar_data
from secretaria.lei.urm import por_extenso
from secretaria.models import Auditoria, AutoInfracao, DispositivoCatalogo, DocumentoEmitido
from secretaria.services.base import AcessoNegado, Ator, ErroDominio, NaoEncontrado
from secretaria.services.caso import obter_caso
from secretaria.services.documentos import (
    DocumentoAlterado,
    dados_auto,
    dados_decisao,
    dados_intimacao,
    documentos_emitidos,
    emitir_documento,
    localizar_auto,
    localizar_operadora,
    obter_documento,
    renderizar,
)
from secretaria.services.lei_db import calendario
from secretaria.services.orgao import obter_dados_orgao
from tests.helpers import cenario_documentos as cen
from tests.helpers import fabrica

ATORES: dict[str, Ator] = cen.ATORES


@pytest.fixture
def cenario(banco: Banco, monkeypatch: pytest.MonkeyPatch) -> Any:
    return cen.montar(banco, monkeypatch)


def texto_pdf(conteudo: bytes) -> tuple[str, int]:
    """The PDF's text with whitespace collapsed (lines wrap anywhere), and its page count."""
    leitor = PdfReader(io.BytesIO(conteudo))
    texto = " ".join(pagina.extract_text() for pagina in leitor.pages)
    return " ".join(texto.split()), len(leitor.pages)


def plano(texto: str) -> str:
    return " ".join(texto.split())


def emitir(banco: Banco, papel: str = "consulta", **campos: Any) -> tuple[Any, bytes]:
    info = emitir_documento(banco.uow(), ATORES[papel], **campos)
    with banco.leitura() as s:
        return info, obter_documento(s, info.id)


def test_auto_traz_cada_item_do_art_10_e_reemitido_da_os_mesmos_bytes(banco: Banco, cenario: Any) -> None:
    info, pdf = emitir(banco, "fiscal", tipo="auto", auto_id=cenario.multado)
    texto, paginas = texto_pdf(pdf)
    with banco.leitura() as s:
        auto = s.get(AutoInfracao, cenario.multado)
        assert auto is not None
        dispositivo = s.get(DispositivoCatalogo, auto.dispositivo_codigo)
        assert dispositivo is not None
        numero, proxima, texto_lei = auto.numero_formatado, auto.proxima_penalidade, dispositivo.texto
    assert info.nome_arquivo == f"auto-de-infracao-{numero.replace('/', '-')}.pdf"
    # two copies, each its own one-page paper
    assert paginas == 2 and texto.count("Página 1 de 1") == 2 and "Página 1 de 2" not in texto
    assert texto.count(f"AUTO DE INFRAÇÃO Nº {numero}") == 2
    assert "1ª VIA OPERADORA" in texto and "2ª VIA PROCESSO" in texto
    # I – place, day and hour (and where the fact happened)
    assert "Terminal central" in texto and "03/11/2026, às 08h15" in texto
    assert "Praça Coronel Pedro Osório" in texto and "03/11/2026, às 07h40" in texto
    # II – offender and witnesses
    assert "Viação Princesa do Sul Ltda." in texto and "11.222.333/0001-81" in texto
    assert "Ana Paula Souza – RG 1234567890" in texto
    assert "João Motorista – motorista – CPF 111.444.777-35" in texto
    assert "prefixo 101 – placa IAB1C23" in texto
    # III – facts; IV – provision, text and tipo; V – next penalty as computed when drawn up
    assert "Veículo em circulação sem condições de higiene." in texto
    assert "Art. 1º, VI, da Lei Municipal nº 2.413/1978 – infração do tipo A" in texto
    assert plano(texto_lei)[:80] in texto
    assert plano(proxima) in texto
    # the inspector, the refusal, and art. 11's receipt on both copies
    assert "Fábio Fiscal" in texto and "matrícula SMSU-001" in texto
    assert "recusou-se a assinar" in texto
    assert texto.count("Recebi a 1ª via em") == 2
    assert texto.count("SECRETARIA MUNICIPAL DE SERVIÇOS URBANOS") == 2

    # issuing again gives the stored bytes; nothing new is written
    primeiro, pdf1 = info, pdf
    segundo, pdf2 = emitir(banco, "consulta", tipo="auto", auto_id=cenario.multado)
    assert primeiro.novo and not segundo.novo
    assert segundo.id == primeiro.id and pdf1 == pdf2
    assert hashlib.sha256(pdf1).hexdigest() == primeiro.sha256
    with banco.leitura() as s:
        # a fresh rendering of the same data is byte-identical (fixed creation date and /ID)
        assert renderizar("auto", dados_auto(s, cenario.multado)) == pdf1
        assert renderizar("auto", dados_auto(s, cenario.multado)) == pdf1
        assert s.scalar(sa.select(sa.func.count(DocumentoEmitido.id))) == 1
        auditorias = s.scalars(sa.select(Auditoria).where(Auditoria.acao == "emitir_documento")).all()
        assert len(auditorias) == 1
        depois = json.loads(auditorias[0].depois or "{}")
        assert auditorias[0].usuario_login == "fiscal" and auditorias[0].entidade == "documento_emitido"
        assert depois["sha256"] == primeiro.sha256 and depois["tamanho"] == len(pdf1)
        # the case screen lists it
        caso = obter_caso(s, cenario.multado)
        assert [d.sha256 for d in caso.documentos] == [primeiro.sha256]
        assert [d.id for d in documentos_emitidos(s, auto_id=cenario.multado)] == [primeiro.id]


def test_intimacao_e_lote_dizem_ate_quando_onde_e_a_quem(banco: Banco, cenario: Any) -> None:
    with banco.leitura() as s:
        auto = s.get(AutoInfracao, cenario.multado)
        assert auto is not None and auto.prazo_defesa is not None
        prazo_registrado = auto.prazo_defesa
    _info, pdf = emitir(banco, tipo="intimacao", auto_id=cenario.multado)
    texto, paginas = texto_pdf(pdf)
    assert paginas == 1
    assert f"Auto de Infração nº {cenario.numeros[cenario.multado]}" in texto
    # intimated on 04/11: the recorded deadline, not one counted from today
    assert "15 (quinze) dias contados do recebimento desta intimação" in texto
    assert (
        f"Intimação recebida em 04/11/2026, conforme o recibo: defesa até {formatar_data(prazo_registrado)}"
        in texto
    )
    assert prazo_registrado == date(2026, 11, 19)
    assert "Secretário Municipal de Serviços Urbanos" in texto and "petição, contra recibo" in texto
    assert "Rua Marechal Floriano, 123" in texto and "Carlos Representante" in texto
    assert "Maria Helena Duarte" in texto
    with banco.leitura() as s:
        horario = obter_dados_orgao(s).dados.horario_expediente
    assert horario and horario in texto  # the office hours the administrator filled (art. 26 § 1º)
    assert "Processo Auto de Infração nº" in texto and "procurador constituído" in texto

    # not intimated yet: no date computed from a planned delivery, only the rule (REGRAS § 5)
    _info, pdf = emitir(banco, tipo="intimacao", auto_id=cenario.aguardando)
    texto, _ = texto_pdf(pdf)
    assert "15 (quinze) dias contados do recebimento desta intimação" in texto
    assert "defesa até" not in texto
    with banco.leitura() as s, pytest.raises(ErroDominio, match="anterior à lavratura"):
        dados_intimacao(s, cenario.aguardando, data_intimacao=date(2026, 11, 26))

    # the batch: every auto of the period still awaiting its intimação, then the delivery list
    info, pdf = emitir(banco, tipo="lote_intimacoes", periodo=(date(2026, 11, 1), date(2026, 11, 30)))
    texto, paginas = texto_pdf(pdf)
    aguardam = [cenario.numeros[cenario.aguardando2], cenario.numeros[cenario.aguardando]]
    assert paginas == 3  # one notice per page, then the delivery list
    assert texto.count("INTIMAÇÃO ") >= 2 and "RELAÇÃO DE ENTREGA DE INTIMAÇÕES" in texto
    for numero in aguardam:
        assert f"Auto de Infração nº {numero}" in texto
    # intimated, cancelled or decided autos are not notified again
    for outro in (cenario.em_defesa, cenario.cancelado, cenario.multado):
        assert f"Auto de Infração nº {cenario.numeros[outro]}" not in texto
    assert "2 intimações" in texto and "Transportes Laranjal Ltda." in texto
    assert "defesa até" not in texto and texto.count("contados do recebimento desta intimação") == 2
    assert info.referencia == "01/11/2026 a 30/11/2026"
    with pytest.raises(ErroDominio, match="Nenhum auto lavrado de 01/01/2026 a 31/01/2026 aguarda"):
        emitir_documento(
            banco.uow(),
            ATORES["consulta"],
            tipo="lote_intimacoes",
            periodo=(date(2026, 1, 1), date(2026, 1, 31)),
        )


def test_decisao_com_multa_por_extenso_suspensao_e_prazo_de_recurso(banco: Banco, cenario: Any) -> None:
    with banco.leitura() as s:
        auto = s.get(AutoInfracao, cenario.suspenso)
        assert auto is not None and auto.prazo_recurso is not None
        prazo_recurso = auto.prazo_recurso
    _info, pdf = emitir(banco, "secretario", tipo="decisao", auto_id=cenario.suspenso)
    texto, _ = texto_pdf(pdf)
    reais = (cen.MULTA_SUSPENSO * cen.URM_2026).quantize(Decimal("0.01"))
    assert reais == Decimal("1647.40")
    assert "NOTIFICAÇÃO DE DECISÃO" in texto and "APLICAR PENALIDADE" in texto
    assert f"10,00 URM × R$ 164,74 = R$ 1.647,40 ({por_extenso(reais)})" in texto
    assert "mil seiscentos e quarenta e sete reais e quarenta centavos" in texto
    assert "5 (cinco) dias, de 01/06/2026 a 05/06/2026" in texto
    assert f"Intimação da decisão em 05/05/2026 – recurso até {formatar_data(prazo_recurso)}" in texto
    assert "Prefeito Municipal" in texto and "Infração comprovada pelo auto" in texto
    assert "2ª reincidência" in texto  # the legal bases of the range follow the reasons

    _info, pdf = emitir(banco, "secretario", tipo="decisao", auto_id=cenario.multado)
    texto, _ = texto_pdf(pdf)
    assert "0,30 URM × R$ 164,74 = R$ 49,42 (quarenta e nove reais e quarenta e dois centavos)" in texto
    assert "Suspensão não aplicada" in texto

    _info, pdf = emitir(banco, "secretario", tipo="decisao", auto_id=cenario.arquivado)
    texto, _ = texto_pdf(pdf)
    assert "ARQUIVAR O AUTO DE INFRAÇÃO" in texto and "URM ×" not in texto

    # refused: nothing written
    antes = fabrica.contagens(banco)
    with pytest.raises(ErroDominio, match="foi cancelado em 30/11/2026"):
        emitir_documento(banco.uow(), ATORES["consulta"], tipo="auto", auto_id=cenario.cancelado)
    with pytest.raises(ErroDominio, match="ainda não foi decidido"):
        emitir_documento(banco.uow(), ATORES["consulta"], tipo="decisao", auto_id=cenario.em_defesa)
    assert fabrica.contagens(banco) == antes

    info, pdf = emitir(banco, tipo="decisao", auto_id=cenario.multado)
    adulterado = pdf + b"\n% alterado\n"
    with banco.engine.begin() as conn:
        conn.execute(
            sa.update(DocumentoEmitido).where(DocumentoEmitido.id == info.id).values(conteudo=adulterado)
        )
    with banco.leitura() as s, pytest.raises(DocumentoAlterado, match="SHA-256 guardado não confere"):
        obter_documento(s, info.id)


def test_ficha_da_operadora_com_todos_os_casos(banco: Banco, cenario: Any) -> None:
    _info, pdf = emitir(banco, tipo="ficha", operadora_id=cenario.cidade.operadora_id)
    texto, _ = texto_pdf(pdf)
    with banco.leitura() as s:
        numeros = [
            f"{n:04d}/{a}"
            for a, n in s.execute(
                sa.select(AutoInfracao.ano, AutoInfracao.numero).where(
                    AutoInfracao.operadora_id == cenario.cidade.operadora_id
                )
            )
        ]
    assert len(numeros) == 7
    assert f"Processos ({len(numeros)})" in texto
    assert all(n in texto for n in numeros)
    assert "Concessionária" in texto and "Situação Ativa" in texto
    assert "Carlos Representante – CPF 529.982.247-25" in texto
    assert "Arquivado" in texto and "Cancelado" in texto and "Aguardando intimação" in texto
    assert "5 dias: 01/06/2026 a 05/06/2026" in texto
    assert "Pago em 10/11/2026" in texto
    # 3,00 + 6,00 + 10,00 + 0,30 URM decided; 10,00 URM paid
    assert "Multas aplicadas 4 – R$ 3.179,48" in texto
    assert "Multas pagas 1 – R$ 1.647,40" in texto

    # who may issue, and finding an auto or an operator by what people type
    sem_papel = Ator("visitante", "Visitante", frozenset())
    with pytest.raises(AcessoNegado, match="emitir documentos"):
        emitir_documento(banco.uow(), sem_papel, tipo="auto", auto_id=cenario.multado)
    with pytest.raises(ErroDominio, match="Tipo de documento desconhecido"):
        emitir_documento(banco.uow(), ATORES["consulta"], tipo="certidao", auto_id=cenario.multado)
    with banco.leitura() as s:
        numero = cenario.numeros[cenario.multado]
        assert localizar_auto(s, numero) == cenario.multado
        assert localizar_auto(s, numero.lstrip("0")) == cenario.multado
        with pytest.raises(NaoEncontrado, match="Auto de infração nº 0099/2026 não encontrado"):
            localizar_auto(s, "99/2026")
        with pytest.raises(ErroDominio, match="Use NNNN/AAAA"):
            localizar_auto(s, "cinco")
        assert localizar_operadora(s, "11.222.333/0001-81") == cenario.cidade.operadora_id
        with pytest.raises(ErroDominio, match="dígito verificador"):
            localizar_operadora(s, "11.222.333/0001-82")
        with pytest.raises(
            NaoEncontrado, match=r"Nenhuma operadora cadastrada com o CNPJ 12\.345\.678/0001-95"
        ):
            localizar_operadora(s, "12345678000195")


def test_sem_dados_do_orgao_a_intimacao_e_recusada(banco: Banco, monkeypatch: pytest.MonkeyPatch) -> None:
    cidade = fabrica.popular(banco)
    roteiro = fabrica.Roteiro(banco, cidade, monkeypatch, hoje=cen.HOJE)
    r = roteiro.lavrar(data_infracao=date(2026, 11, 27))
    with pytest.raises(ErroDominio, match="faltam nos dados do órgão o nome do\\(a\\) Secretário\\(a\\)"):
        emitir_documento(banco.uow(), ATORES["consulta"], tipo="intimacao", auto_id=r.id)
    # the auto itself is signed by the inspector: it can be issued
    info = emitir_documento(banco.uow(), ATORES["fiscal"], tipo="auto", auto_id=r.id)
    assert info.novo


def test_intimacao_cita_a_entrega_que_abriu_o_prazo(banco: Banco, cenario: Any) -> None:
    """An earlier-dated delivery recorded later does not move the running deadline, and the notice names the
    delivery the deadline counts from — not the earliest date on file."""
    roteiro = cenario.roteiro
    r = roteiro.lavrar(data_infracao=date(2026, 11, 2))
    roteiro.intimar(r.id, date(2026, 11, 5))
    roteiro.intimar(r.id, date(2026, 11, 4))  # a receipt found later, dated a day earlier
    with banco.leitura() as s:
        dados = dados_intimacao(s, r.id)
        auto = s.get(AutoInfracao, r.id)
        assert auto is not None
        assert dados.data_intimacao == date(2026, 11, 5)
        assert dados.prazo_defesa == auto.prazo_defesa == calendario(s).vencimento(date(2026, 11, 5))


def test_decisao_nomeia_quem_decidiu_prazo_e_forma_de_pagar_e_a_conta_confere(
    banco: Banco, cenario: Any
) -> None:
    from dataclasses import replace as substituir

    from secretaria.models import Decisao
    from secretaria.services.configuracoes import obter_configuracoes, salvar_configuracoes
    from secretaria.services.orgao import salvar_dados_orgao

    with banco.leitura() as s:
        d = s.scalar(sa.select(Decisao).where(Decisao.auto_id == cenario.suspenso))
        assert d is not None and d.valor_urm is not None
        decidiu, multa, valor, minimo, maximo, nivel = (
            d.secretario_nome,
            d.multa_ur,
            d.valor_urm,
            d.faixa_min_ur,
            d.faixa_max_ur,
            d.reincidencia,
        )
        orgao = obter_dados_orgao(s)
        config = obter_configuracoes(s)
    assert decidiu == orgao.dados.secretario_nome  # recorded when decided
    texto, _ = texto_pdf(emitir(banco, "secretario", tipo="decisao", auto_id=cenario.suspenso)[1])
    # every product printed is true as printed: the URM with all its decimals, the range in plain digits
    expoente = valor.normalize().as_tuple().exponent
    assert isinstance(expoente, int)  # a finite value
    casas = max(2, -expoente)
    urm = f"R$ {valor:.{casas}f}".replace(".", ",")
    produto = (multa * valor).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")

    def br(valor: Decimal) -> str:
        return f"{valor:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")

    assert f"{br(multa)} URM × {urm} = R$ {br(produto)}" in texto
    assert f"× {2**nivel} (2 elevado a {nivel}" in texto
    assert f"{minimo:.2f} a {maximo:.2f} URM".replace(".", ",") in texto
    assert "²" not in texto and "³" not in texto
    assert f"em até {config.prazo_pagamento_dias} " in texto and orgao.dados.pagamento_instrucoes in texto
    assert "inscrita em dívida ativa" in texto
    assert texto.count("art. 8º") + texto.count("Art. 8º") == 1

    # a new Secretary later: the old decision still names the one who decided, recorded or from the audit
    salvar_dados_orgao(
        banco.uow(),
        ATORES["administrador"],
        substituir(orgao.dados, secretario_nome="Nova Secretária"),
        versao=orgao.versao,
    )
    salvar_configuracoes(
        banco.uow(),
        ATORES["administrador"],
        copias_backup=config.copias_backup,
        dias_decisao_atrasada=config.dias_decisao_atrasada,
        prazo_pagamento_dias=45,
    )
    texto, _ = texto_pdf(emitir(banco, "secretario", tipo="decisao", auto_id=cenario.suspenso)[1])
    assert (
        decidiu in texto and "Nova Secretária" not in texto and "em até 45 (quarenta e cinco) dias" in texto
    )
    with banco.engine.begin() as conn:  # a row decided before revision 0003
        conn.execute(
            sa.update(Decisao).where(Decisao.auto_id == cenario.suspenso).values(secretario_nome=None)
        )
    with banco.leitura() as s:
        assert dados_decisao(s, cenario.suspenso).secretario_nome == decidiu


def test_fundamentos_agrupam_as_infracoes_fora_da_cadeia() -> None:
    from datetime import timedelta

    from secretaria.lei.sancoes import Antecedente, calcular_sancao
    from secretaria.services.fundamentos import legiveis

    antigas = [date(2023, 1, 5) + timedelta(days=10 * i) for i in range(25)]
    cadeia = [date(2026, m, 10) for m in (1, 3, 5, 7)]
    antecedentes = [Antecedente(d, d + timedelta(days=5), Decimal("1")) for d in antigas + cadeia]
    sancao = calcular_sancao("C", date(2026, 9, 1), antecedentes)
    bruto = "\n".join(sancao.fundamentos)
    lido = "\n".join(legiveis(sancao.fundamentos))
    assert bruto.count("interrompeu depois dela") == len(antigas) - 1  # the law layer's one-per-auto text
    assert lido.count("interrompeu") == 1
    assert (
        f"{len(antigas) - 1} infrações, de {formatar_data(antigas[0])} a {formatar_data(antigas[-2])}" in lido
    )
    assert "× 16 (2 elevado a 4, reincidência de nível 4) = 16,00 a 32,00 URM" in lido
    assert len(lido) < len(bruto) / 3
