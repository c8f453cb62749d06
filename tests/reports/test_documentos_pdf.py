"""The official PDFs, read back as a user (or a judge) would read them: every required item with its value."""

from __future__ import annotations

import gc
import hashlib
import io
import os
import subprocess
import sys
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import DictionaryObject
from reportlab.pdfgen.canvas import Canvas

from secretaria.reports import pdf_base
from secretaria.reports.auto_infracao import AutoInfracaoPdf
from secretaria.reports.dados import (
    TEXTO_ART_14,
    TEXTO_ART_15,
    DadosIntimacao,
    DadosLoteIntimacao,
    Timbre,
)
from secretaria.reports.decisao import DecisaoPdf
from secretaria.reports.ficha import FichaOperadoraPdf
from secretaria.reports.formato import formatar_reais
from secretaria.reports.intimacao import IntimacaoPdf, LoteIntimacoesPdf
from tests.helpers.amostras_documentos import (
    NOTA_1_VI,
    OPERADORA,
    TEXTO_1_VI,
    TIMBRE,
    auto,
    decisao,
    decisao_arquivada,
    ficha,
    intimacao,
    lote,
)

RAIZ = Path(__file__).resolve().parents[2]


def paginas(pdf: bytes) -> list[str]:
    """Each page's text with whitespace collapsed, so wrapped lines read as one sentence."""
    leitor = PdfReader(io.BytesIO(pdf))
    return [" ".join(pagina.extract_text().split()) for pagina in leitor.pages]


def so_espacos(texto: str) -> str:
    return " ".join(texto.split())


# --------------------------------------------------------------------------------------------------------
# Auto de infração
# --------------------------------------------------------------------------------------------------------


def test_auto_tem_duas_vias_com_todos_os_itens_do_art_10_e_o_recibo_do_art_11() -> None:
    pdf = AutoInfracaoPdf().render(auto())
    texto = paginas(pdf)
    assert len(texto) == 2
    assert "1ª VIA OPERADORA" in texto[0]
    assert "2ª VIA PROCESSO" in texto[1]
    for pagina in texto:
        assert "PREFEITURA MUNICIPAL DE PELOTAS" in pagina
        assert "SECRETARIA MUNICIPAL DE SERVIÇOS URBANOS" in pagina
        assert "AUTO DE INFRAÇÃO Nº 0001/2026" in pagina
        # I – local, dia e hora
        assert "Terminal do Centro, Praça Coronel Pedro Osório" in pagina
        assert "Data e hora 20/11/2026, às 14h35" in pagina
        assert "Data e hora do fato 20/11/2026, às 14h20" in pagina
        # II – infrator (escaped as typed) and witnesses
        assert "Viação Princesa do Sul & Filhos <Ltda.>" in pagina
        assert "12.345.678/0001-95" in pagina
        assert "Av. Bento Gonçalves, 4500" in pagina
        assert "João da Silva – motorista – CPF 123.456.789-09" in pagina
        assert "prefixo 1234 – placa IAB1C23" in pagina
        assert "10 – Centro – Fragata" in pagina
        assert "1. Ana Paula Souza – RG 1234567890" in pagina
        assert "2. Pedro Ramos – CPF 987.654.321-00" in pagina
        # III – facts and circumstances
        assert "O motorista conduzia o ônibus sem o uniforme da empresa, de bermuda e chinelos." in pagina
        assert "Constatado no ponto final da linha, na presença de usuários." in pagina
        # IV – provision, its text, its tipo, the (sic) note
        assert "Art. 1º, VI, da Lei Municipal nº 2.413/1978 – infração do tipo A" in pagina
        assert so_espacos(TEXTO_1_VI) in pagina
        assert NOTA_1_VI in pagina
        # V – next penalty
        assert "Multa de 0,20 a 1,00 URM (art. 7º, § 1º, a, e § 2º – 1ª reincidência)." in pagina
        # inspector, refusal, receipt
        assert "Carlos Alberto Nunes" in pagina
        assert "Fiscal da SMSU – matrícula 12.345-6" in pagina
        assert "recusou-se a assinar este auto" in pagina
        assert "Recebi a 1ª via em ____/____/________." in pagina
        assert "Nome: ____" in pagina and "Assinatura: ____" in pagina
        assert "Pelotas, 20 de novembro de 2026." in pagina
        # each copy is its own paper, numbered on its own; each witness signs it
        assert "Página 1 de 1" in pagina and "de 2" not in pagina.split("Página")[-1]
        assert "Ana Paula Souza Testemunha – RG 1234567890" in pagina
        assert "Pedro Ramos Testemunha – CPF 987.654.321-00" in pagina


def test_auto_sem_testemunhas_nem_recusa_diz_isso() -> None:
    texto = " ".join(paginas(AutoInfracaoPdf().render(auto(testemunhas=[], recusou_assinar=False))))
    assert "Testemunhas não houve" in texto
    assert "recusou-se" not in texto


def test_auto_de_representacao_e_empregado_nao_identificado() -> None:
    dados = auto(
        representacao="REP nº 0003/2026",
        empregado=replace(auto().empregado, nome=None, cpf=None),  # type: ignore[type-var]
        veiculo=None,
        linha=None,
    )
    texto = paginas(AutoInfracaoPdf().render(dados))[0]
    assert "representação REP nº 0003/2026 (art. 12" in texto
    assert "não identificado – motorista" in texto
    assert "Veículo" not in texto


def test_auto_longo_continua_nas_paginas_seguintes_e_cada_via_comeca_numa_pagina() -> None:
    fatos = " ".join(["O veículo trafegava com as portas abertas entre as paradas."] * 120)
    texto = paginas(AutoInfracaoPdf().render(auto(descricao_fatos=fatos)))
    total = len(texto)
    assert total >= 4
    inicios = [i for i, pagina in enumerate(texto) if "AUTO DE INFRAÇÃO Nº 0001/2026" in pagina]
    assert len(inicios) == 2
    # each copy is numbered on its own: "Página 1 de 3" … within the operator's copy, again in the file's
    for inicio, fim in ((inicios[0], inicios[1]), (inicios[1], total)):
        for numero, pagina in enumerate(texto[inicio:fim], 1):
            assert f"Página {numero} de {fim - inicio}" in pagina
    assert "1ª VIA" in texto[inicios[0]] and "2ª VIA" in texto[inicios[1]]
    assert sum("Recebi a 1ª via em" in pagina for pagina in texto) == 2


def test_auto_reimpresso_da_os_mesmos_bytes_e_a_data_do_documento() -> None:
    primeira = AutoInfracaoPdf().render(auto())
    assert primeira == AutoInfracaoPdf().render(auto())
    renderer = AutoInfracaoPdf()
    assert renderer.render(auto()) == renderer.render(auto()) == primeira
    leitor = PdfReader(io.BytesIO(primeira))
    assert leitor.metadata is not None
    assert leitor.metadata.title == "Auto de Infração nº 0001/2026"
    criado = leitor.metadata.creation_date
    assert criado is not None and criado.replace(tzinfo=None) == datetime(2026, 11, 20, 14, 35)
    outra = AutoInfracaoPdf().render(auto(numero="0002/2026"))
    assert outra != primeira
    assert PdfReader(io.BytesIO(outra)).trailer["/ID"] != leitor.trailer["/ID"]


def test_auto_nao_depende_do_relogio_nem_do_ambiente() -> None:
    """Another process, another SOURCE_DATE_EPOCH (which ReportLab reads): the same SHA-256."""
    codigo = (
        "import hashlib, sys; sys.path.insert(0, sys.argv[1]);"
        "from tests.helpers.amostras_documentos import auto;"
        "from secretaria.reports.auto_infracao import AutoInfracaoPdf;"
        "print(hashlib.sha256(AutoInfracaoPdf().render(auto())).hexdigest())"
    )
    ambiente = {**os.environ, "SOURCE_DATE_EPOCH": "1234567890", "PYTHONPATH": str(RAIZ)}
    saida = subprocess.run(
        [sys.executable, "-c", codigo, str(RAIZ)],
        env=ambiente,
        capture_output=True,
        text=True,
        check=True,
    )
    assert saida.stdout.strip() == hashlib.sha256(AutoInfracaoPdf().render(auto())).hexdigest()


# --------------------------------------------------------------------------------------------------------
# Intimação and the batch
# --------------------------------------------------------------------------------------------------------


def test_intimacao_diz_o_prazo_como_data_onde_e_a_quem_apresentar_a_defesa() -> None:
    texto = paginas(IntimacaoPdf().render(intimacao()))
    assert len(texto) == 1
    pagina = texto[0]
    assert "INTIMAÇÃO" in pagina
    assert "Auto de Infração nº 0001/2026" in pagina
    assert "lavrado em 20/11/2026" in pagina
    assert "Art. 1º, VI, da Lei Municipal nº 2.413/1978 (infração do tipo A)" in pagina
    assert "Viação Princesa do Sul & Filhos <Ltda.>" in pagina
    assert "Representante legal Roberto Carlos Almeida" in pagina
    # REGRAS § 5: counted from the receipt, never a date computed from a planned delivery
    assert "15 (quinze) dias contados do recebimento desta intimação" in pagina
    assert "defesa até" not in pagina
    assert "Processo Auto de Infração nº 0001/2026" in pagina
    assert "de segunda a sexta-feira, das 8h às 14h" in pagina
    assert "por seu representante legal ou por procurador constituído" in pagina
    assert "art. 26, § 1º, IV" in pagina and "art. 26, § 1º, V)" in pagina
    assert "o processo prosseguirá e será decidido independentemente dela" in pagina
    assert "petição, contra recibo" in pagina
    assert "dirigida ao Secretário Municipal de Serviços Urbanos" in pagina
    assert "Rua Marechal Floriano, 123 – Centro – CEP 96015-440 – Pelotas/RS" in pagina
    assert so_espacos(TEXTO_ART_14) in pagina
    assert "Recebi esta intimação" in pagina and "____/____/________" in pagina
    assert "Maria Helena Duarte" in pagina and "Secretária Municipal de Serviços Urbanos" in pagina
    assert "Pelotas, 20 de novembro de 2026." in pagina
    assert "Página 1 de 1" in pagina


def test_intimacao_com_local_de_protocolo_proprio() -> None:
    pagina = paginas(
        IntimacaoPdf().render(intimacao(local_protocolo="Protocolo Geral, Praça Cel. Pedro Osório, 101"))
    )[0]
    assert "Protocolo Geral, Praça Cel. Pedro Osório, 101" in pagina


def test_intimacao_recusa_prazo_antes_da_intimacao() -> None:
    with pytest.raises(ValueError, match="prazo de defesa"):
        intimacao(data_intimacao=date(2026, 11, 20), prazo_defesa=date(2026, 11, 20))
    with pytest.raises(ValueError, match="data e o prazo"):
        intimacao(data_intimacao=date(2026, 11, 20))


def test_intimacao_ja_entregue_diz_o_dia_do_recibo_e_o_prazo_contado() -> None:
    pagina = paginas(
        IntimacaoPdf().render(intimacao(data_intimacao=date(2026, 11, 20), prazo_defesa=date(2026, 12, 7)))
    )[0]
    assert "15 (quinze) dias contados do recebimento desta intimação" in pagina
    assert "Intimação recebida em 20/11/2026, conforme o recibo: defesa até 07/12/2026." in pagina


def test_lote_uma_intimacao_por_pagina_e_relacao_de_entrega_a_assinar() -> None:
    dados = lote(20)
    pdf = LoteIntimacoesPdf().render(dados)
    texto = paginas(pdf)
    notificacoes, relacao = texto[:20], texto[20:]
    for indice, pagina in enumerate(notificacoes):
        numero = f"{indice + 1:04d}/2026"
        assert f"Auto de Infração nº {numero} – Lei Municipal" in pagina
        assert f"Empresa de Transportes {indice % 20:02d} Ltda." in pagina
        assert "15 (quinze) dias contados do recebimento desta intimação" in pagina
        assert "defesa até" not in pagina
        assert "Recebi esta intimação" in pagina
        assert "Página 1 de 1" in pagina  # each notice leaves the building on its own
    assert len(relacao) == 2
    assert "RELAÇÃO DE ENTREGA DE INTIMAÇÕES" in relacao[0]
    assert "Período de 01/11/2026 a 30/11/2026 – 20 intimações" in relacao[0]
    for cabecalho in ("Nº", "Auto", "Operadora", "Endereço", "Recebido por", "Data", "Assinatura"):
        assert cabecalho in relacao[0] and cabecalho in relacao[1]
    juntas = " ".join(relacao)
    for intimacao_ in dados.intimacoes:
        assert intimacao_.numero_auto in juntas
    assert "Página 1 de 2" in relacao[0] and "Página 2 de 2" in relacao[1]
    assert "Responsável pela entrega" in relacao[1]
    assert pdf == LoteIntimacoesPdf().render(lote(20))


def test_lote_desenha_o_timbre_uma_vez_e_o_reutiliza_em_todas_as_paginas() -> None:
    leitor = PdfReader(io.BytesIO(LoteIntimacoesPdf().render(lote(5))))
    timbres = set()
    for pagina in leitor.pages:
        recursos = pagina["/Resources"]
        assert isinstance(recursos, DictionaryObject)
        xobjetos = recursos["/XObject"]
        assert isinstance(xobjetos, DictionaryObject)
        nomes = [nome for nome in xobjetos if "Timbre" in nome]
        assert len(nomes) == 1
        timbres.add(xobjetos.raw_get(nomes[0]).idnum)
    assert len(timbres) == 1


def test_lote_recusa_intimacao_de_outro_timbre() -> None:
    outra = replace(intimacao(), timbre=Timbre(secretario_nome="Outro", endereco="Outro lugar"))
    with pytest.raises(ValueError, match="outro timbre"):
        DadosLoteIntimacao(
            timbre=TIMBRE,
            periodo_inicio=date(2026, 11, 1),
            periodo_fim=date(2026, 11, 30),
            emitido_em=date(2026, 11, 30),
            intimacoes=[outra],
        )


def test_lote_vazio_ainda_da_a_relacao() -> None:
    dados = replace(lote(0), intimacoes=())
    texto = paginas(LoteIntimacoesPdf().render(dados))
    assert len(texto) == 1 and "0 intimações" in texto[0]


# --------------------------------------------------------------------------------------------------------
# Decision notice
# --------------------------------------------------------------------------------------------------------


def test_decisao_aplicada_mostra_multa_em_urm_e_reais_por_extenso_suspensao_e_recurso() -> None:
    texto = paginas(DecisaoPdf().render(decisao()))
    assert len(texto) <= 2
    for numero, folha in enumerate(texto, 1):
        assert f"Página {numero} de {len(texto)}" in folha
    pagina = " ".join(texto)
    assert "NOTIFICAÇÃO DE DECISÃO" in pagina
    assert "nº 0001/2026, lavrado em 20/11/2026 – Art. 1º, VI (infração do tipo A)" in pagina
    assert "Em 18/12/2026, a Secretária Municipal de Serviços Urbanos" in pagina
    assert "APLICAR PENALIDADE" in pagina
    assert "0,50 URM × R$ 164,74 = R$ 82,37 (oitenta e dois reais e trinta e sete centavos)" in pagina
    assert "5 (cinco) dias, de 01/02/2027 a 05/02/2027" in pagina
    assert "cumulativa com a multa (art. 7º, § 8º)" in pagina
    assert "A defesa não afasta a infração" in pagina
    assert "art. 8º" in pagina
    assert "RECURSO (art. 15)" in pagina
    assert "Intimação da decisão em 21/12/2026 – recurso até 05/01/2027" in pagina
    assert "cabe recurso ao Prefeito Municipal" in pagina
    assert so_espacos(TEXTO_ART_15) in pagina
    assert "Recebi a 1ª via desta notificação em ____/____/________." in pagina
    assert "Maria Helena Duarte" in pagina
    # REGRAS § 5: who is notified, payment deadline, where and how, dívida ativa; art. 8º once
    assert "Representante legal Roberto Carlos Almeida" in pagina
    assert "em até 30 (trinta) dias contados da data em que a penalidade se tornar definitiva" in pagina
    assert "Onde e como pagar: por guia de recolhimento retirada no protocolo" in pagina
    assert "inscrita em dívida ativa" in pagina
    assert pagina.count("art. 8º") + pagina.count("Art. 8º") == 1


def test_decisao_mostra_o_valor_da_urm_com_todas_as_casas_e_a_faixa_em_algarismos() -> None:
    urm = Decimal("157.6459")
    base = (Decimal("1.00"), Decimal("2.00"))
    faixa = (min(base[0] * 16, Decimal(10)), min(base[1] * 16, Decimal(10)))
    reais = (Decimal("10.00") * urm).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    pagina = " ".join(
        paginas(
            DecisaoPdf().render(
                decisao(
                    tipo="C",
                    multa_urm=Decimal("10.00"),
                    valor_urm=urm,
                    valor_reais=reais,
                    valor_por_extenso="mil quinhentos e setenta e seis reais e quarenta e seis centavos",
                    reincidencia=4,
                    faixa_base=base,
                    faixa=faixa,
                )
            )
        )
    )
    assert f"10,00 URM × R$ 157,6459 = {formatar_reais(reais)}" in pagina
    assert "R$ 1.576,46" in pagina
    assert (
        "(1,00 a 2,00 URM) × 16 (2 elevado a 4, reincidência de nível 4, art. 7º, § 2º) = 16,00 a 32,00 URM; "
        "cada extremo limitado a 10,00 URM (art. 7º, I): 10,00 a 10,00 URM"
    ) in pagina
    assert "⁴" not in pagina and "× 24" not in pagina


def test_decisao_assinada_por_quem_decidiu_nao_pelo_timbre_de_hoje() -> None:
    pagina = " ".join(
        paginas(
            DecisaoPdf().render(
                decisao(
                    secretario_nome="José Antigo", secretario_cargo="Secretário Municipal de Serviços Urbanos"
                )
            )
        )
    )
    assert "José Antigo" in pagina and "Maria Helena Duarte" not in pagina
    assert "o Secretário Municipal de Serviços Urbanos, José Antigo" in pagina


def test_decisao_antes_da_intimacao_explica_o_prazo_sem_data() -> None:
    dados = decisao(
        data_intimacao_decisao=None,
        prazo_recurso=None,
        suspensao_dias=None,
        suspensao_inicio=None,
        suspensao_fim=None,
    )
    pagina = paginas(DecisaoPdf().render(dados))[0]
    assert "recurso até" not in pagina
    assert "15 (quinze) dias contados da data da intimação desta decisão" in pagina
    assert "Suspensão não aplicada" in pagina


def test_decisao_com_suspensao_ainda_sem_periodo() -> None:
    dados = decisao(suspensao_dias=1, suspensao_inicio=None, suspensao_fim=None)
    pagina = paginas(DecisaoPdf().render(dados))[0]
    assert "1 (um) dia, com início na data em que a decisão se tornar definitiva" in pagina


def test_decisao_de_arquivamento_nao_fala_em_multa_nem_recurso() -> None:
    pagina = paginas(DecisaoPdf().render(decisao_arquivada()))[0]
    assert "ARQUIVAR O AUTO DE INFRAÇÃO" in pagina
    assert "julgado insubsistente e arquivado" in pagina
    assert "manutenção programada" in pagina
    assert "URM" not in pagina
    assert "RECURSO" not in pagina


FRASE = "O fiscal constatou a irregularidade descrita no auto, confirmada pelas fotografias do processo. "


@pytest.mark.parametrize("frases", [1, 6, 14, 22, 30])
@pytest.mark.parametrize("arquivada", [False, True], ids=["aplicada", "arquivada"])
def test_assinatura_da_decisao_nunca_sozinha_na_pagina(arquivada: bool, frases: int) -> None:
    """Whatever the length of the grounds, the page with the place, date and signature also carries the text
    just before it: the appeal box (a penalty) or the end of the grounds (an archived auto)."""
    base = decisao_arquivada() if arquivada else decisao()
    fundamentacao = FRASE * (frases - 1) + "Fim da fundamentação."
    texto = paginas(DecisaoPdf().render(replace(base, fundamentacao=fundamentacao)))
    (assinada,) = [t for t in texto if "Pelotas, 18 de dezembro de 2026." in t]
    antes_da_data = assinada.split("Pelotas, 18 de dezembro de 2026.")[0]
    if arquivada:
        assert "Fim da fundamentação." in antes_da_data
    else:
        assert "RECURSO (art. 15)" in antes_da_data and "Prefeito" in antes_da_data


@pytest.mark.parametrize("frases", [1, 6, 11, 16, 24])
def test_assinaturas_do_auto_nunca_sozinhas_na_pagina(frases: int) -> None:
    """However long the facts, the signatures of the fiscal, the person present and the witnesses share
    their page with section V (the next penalty and the defence deadline)."""
    texto = paginas(AutoInfracaoPdf().render(auto(descricao_fatos=FRASE * frases)))
    assinadas = [t for t in texto if "Pelotas, 20 de novembro de 2026." in t]
    assert assinadas  # one per copy
    for pagina in assinadas:
        antes_da_data = pagina.split("Pelotas, 20 de novembro de 2026.")[0]
        assert (
            "V – Próxima penalidade a ser aplicada" in antes_da_data and "Prazo para defesa" in antes_da_data
        )


@pytest.mark.parametrize(
    ("mudancas", "mensagem"),
    [
        ({"valor_reais": Decimal("82.36")}, "incoerente"),
        ({"valor_por_extenso": None}, "por extenso"),
        ({"suspensao_fim": date(2027, 2, 6)}, "não corresponde"),
        ({"suspensao_dias": 31, "suspensao_inicio": None, "suspensao_fim": None}, "1 a 30 dias"),
        ({"data_decisao": date(2026, 11, 19)}, "anterior ao auto"),
        ({"prazo_recurso": date(2026, 12, 21)}, "recurso"),
    ],
)
def test_decisao_incoerente_e_recusada(mudancas: dict[str, object], mensagem: str) -> None:
    with pytest.raises(ValueError, match=mensagem):
        decisao(**mudancas)


def test_arquivamento_com_multa_e_recusado() -> None:
    with pytest.raises(ValueError, match="arquivamento"):
        replace(decisao_arquivada(), multa_urm=Decimal("0.5"))


# --------------------------------------------------------------------------------------------------------
# Ficha
# --------------------------------------------------------------------------------------------------------


def test_ficha_tem_cadastro_resumo_e_todos_os_processos_com_cabecalho_repetido() -> None:
    dados = ficha(60)
    texto = paginas(FichaOperadoraPdf().render(dados))
    total = len(texto)
    assert total >= 2
    primeira = texto[0]
    assert "FICHA DA OPERADORA" in primeira
    for esperado in (
        "Viação Princesa do Sul & Filhos <Ltda.>",
        "Nome fantasia Princesa do Sul",
        "CNPJ 12.345.678/0001-95",
        "Modalidade Concessionária",
        "Roberto Carlos Almeida – CPF 111.222.333-44",
        "nº 12/2015, de 01/03/2015 a 28/02/2035",
        "87 veículo(s), 12 linha(s)",
        "Situação Ativa",
    ):
        assert esperado in primeira
    multas = [c.multa_reais for c in dados.casos if c.multa_reais is not None]
    pagas = [c.multa_reais for c in dados.casos if c.multa_reais is not None and c.data_pagamento]
    assert f"Multas aplicadas {len(multas)} – {formatar_reais(sum(multas, Decimal(0)))}" in primeira
    assert f"Multas pagas {len(pagas)} – {formatar_reais(sum(pagas, Decimal(0)))}" in primeira
    # "Em aberto" is what is still the Secretaria's to collect: a fine in dívida ativa is not (REGRAS § 5).
    abertas = [c.multa_reais for c in dados.casos if c.multa_reais is not None and c.pagamento == "Em aberto"]
    divida = [
        c.multa_reais for c in dados.casos if c.multa_reais is not None and c.pagamento == "Dívida ativa"
    ]
    assert divida, "the sample must hold a fine in dívida ativa"
    assert f"Em aberto {len(abertas)} – {formatar_reais(sum(abertas, Decimal(0)))}" in primeira
    assert f"Em dívida ativa {len(divida)} – {formatar_reais(sum(divida, Decimal(0)))}" in primeira
    suspensas = [c for c in dados.casos if c.suspensao_dias]
    assert f"Suspensões {len(suspensas)} ({5 * len(suspensas)} dias no total)" in primeira
    for numero, pagina in enumerate(texto, 1):
        assert "Auto Data Dispositivo Tipo Situação Multa (URM) Multa (R$) Suspensão Pagamento" in pagina
        assert f"Página {numero} de {total}" in pagina
    juntas = " ".join(texto)
    for caso in dados.casos:
        assert caso.numero in juntas
    assert "5 dias: 01/03/2025 a 05/03/2025" in juntas
    assert "Pago em 01/06/2025" in juntas


def test_paginas_de_um_documento_longo_nao_esperam_o_coletor_de_ciclos() -> None:
    """What each page drew is freed by reference counting once the page is written, not left in reference
    cycles for the cyclic collector to free all at once (which holds the GIL: the window froze as the
    biggest operator's ficha ended)."""
    gc.collect()
    ligado = gc.isenabled()
    gc.disable()  # as during a background task
    try:
        pdf = FichaOperadoraPdf().render(ficha(60))
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        telas = {id(vars(o)) for o in gc.garbage if isinstance(o, Canvas)}  # a canvas's own attributes
        estados_de_pagina = [  # what the numbered canvas kept of each page until the footers were drawn
            o for o in gc.garbage if isinstance(o, dict) and "rodape_grupo" in o and id(o) not in telas
        ]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if ligado:
            gc.enable()
    assert len(paginas(pdf)) >= 2
    assert estados_de_pagina == []


def test_ficha_sem_processos() -> None:
    pagina = paginas(FichaOperadoraPdf().render(ficha(0, representante_nome=None, contrato_numero=None)))[0]
    assert "Nenhum auto de infração registrado" in pagina
    assert "Suspensões nenhuma" in pagina
    assert "Página 1 de 1" in pagina


def test_texto_de_usuario_nao_e_marcacao_e_caracteres_de_controle_somem() -> None:
    operadora = replace(OPERADORA, razao_social="A <b>&amp;</b> B\x07 Ltda.\r\nFilial ğ")
    pagina = paginas(IntimacaoPdf().render(intimacao(operadora=operadora)))[0]
    assert "A <b>&amp;</b> B Ltda. Filial ğ" in pagina  # a letter outside WinAnsi prints as typed


def test_listas_viram_tuplas_e_dados_sao_imutaveis() -> None:
    dados = intimacao()
    assert isinstance(lote(2).intimacoes, tuple)
    with pytest.raises(AttributeError):
        dados.numero_auto = "0002/2026"  # type: ignore[misc]
    with pytest.raises(ValueError, match="NNNN/AAAA"):
        DadosIntimacao(
            **{**{f: getattr(dados, f) for f in dados.__dataclass_fields__}, "numero_auto": "1/26"}
        )


def test_timbre_longo_encolhe_em_vez_de_sair_da_pagina() -> None:
    endereco = (
        "Rua Marechal Floriano Peixoto, 1234, sala 501, Edifício Comendador Francisco Alves – Centro Histórico – "
        "CEP 96015-440 – Caixa Postal 123 – Protocolo Geral"
    )
    dados = intimacao(timbre=replace(TIMBRE, endereco=endereco))
    leitor = PdfReader(io.BytesIO(IntimacaoPdf().render(dados)))
    linhas_do_timbre: list[tuple[float, float]] = []

    def visitar(texto: str, _cm: object, tm: list[float], _fonte: object, tamanho: float) -> None:
        if texto.startswith("Rua Marechal") and texto.rstrip().endswith("Pelotas/RS"):
            linhas_do_timbre.append((tm[4], tamanho))

    assert endereco in so_espacos(leitor.pages[0].extract_text(visitor_text=visitar))
    assert len(linhas_do_timbre) == 1
    x, tamanho = linhas_do_timbre[0]
    assert tamanho < 7.5  # shrunk to fit
    assert x >= IntimacaoPdf.MARGEM_ESQUERDA - 0.5


# --------------------------------------------------------------------------------------------------------
# The embedded font
# --------------------------------------------------------------------------------------------------------

TIPOGRAFIA = "Nível 2⁴ – 1º e 2ª vias… 10 € × 3"


def _fontes(pdf: bytes) -> list[Any]:
    """Every font dictionary the pages use (in page forms too)."""
    leitor = PdfReader(io.BytesIO(pdf))
    encontradas: dict[str, Any] = {}

    def visitar(recursos: Any) -> None:
        recursos = recursos.get_object() if recursos is not None else {}
        for fonte in (recursos.get("/Font") or {}).values():
            fonte = fonte.get_object()
            encontradas[str(fonte["/BaseFont"])] = fonte
        for objeto in (recursos.get("/XObject") or {}).values():
            visitar(objeto.get_object().get("/Resources"))

    for pagina in leitor.pages:
        visitar(pagina.get("/Resources"))
    return list(encontradas.values())


@pytest.mark.parametrize(
    "pdf",
    [
        lambda: AutoInfracaoPdf().render(auto(descricao_fatos=TIPOGRAFIA)),
        lambda: IntimacaoPdf().render(intimacao(operadora=replace(OPERADORA, razao_social=TIPOGRAFIA))),
        lambda: DecisaoPdf().render(decisao(fundamentacao=TIPOGRAFIA)),
        lambda: FichaOperadoraPdf().render(ficha(3, operadora=replace(OPERADORA, razao_social=TIPOGRAFIA))),
        lambda: LoteIntimacoesPdf().render(_lote_tipografico()),
    ],
    ids=["auto", "intimacao", "decisao", "ficha", "lote"],
)
def test_todo_caractere_sai_como_digitado_em_fonte_embutida(pdf: Any) -> None:
    conteudo = pdf()
    fontes = _fontes(conteudo)
    assert fontes
    for fonte in fontes:  # no base-14 font left: each one is a TrueType subset carried in the file
        assert str(fonte["/Subtype"]) == "/TrueType"
        assert "+LiberationSans" in str(fonte["/BaseFont"])
        assert "/FontFile2" in fonte["/FontDescriptor"].get_object()
    assert TIPOGRAFIA in " ".join(paginas(conteudo))


def _lote_tipografico() -> DadosLoteIntimacao:
    dados = lote(2)
    assert isinstance(dados.intimacoes[0], DadosIntimacao)
    primeira = replace(dados.intimacoes[0], operadora=replace(OPERADORA, razao_social=TIPOGRAFIA))
    return replace(dados, intimacoes=[primeira, *dados.intimacoes[1:]])


def test_decisao_e_lote_nao_dependem_do_processo() -> None:
    """Font subsets and names do not vary: another process renders the same bytes."""
    codigo = (
        "import hashlib, sys; sys.path.insert(0, sys.argv[1]);"
        "from tests.helpers.amostras_documentos import decisao, lote;"
        "from secretaria.reports.decisao import DecisaoPdf;"
        "from secretaria.reports.intimacao import LoteIntimacoesPdf;"
        f"print(hashlib.sha256(DecisaoPdf().render(decisao(fundamentacao={TIPOGRAFIA!r}))).hexdigest());"
        "print(hashlib.sha256(LoteIntimacoesPdf().render(lote(3))).hexdigest())"
    )
    saida = subprocess.run(
        [sys.executable, "-c", codigo, str(RAIZ)],
        env={**os.environ, "PYTHONPATH": str(RAIZ)},
        capture_output=True,
        text=True,
        check=True,
    )
    aqui = [
        hashlib.sha256(DecisaoPdf().render(decisao(fundamentacao=TIPOGRAFIA))).hexdigest(),
        hashlib.sha256(LoteIntimacoesPdf().render(lote(3))).hexdigest(),
    ]
    assert saida.stdout.split() == aqui


@pytest.mark.parametrize(("passo", "todas"), [(0.001, False), (0.5, True)])
def test_andamento_das_paginas_no_maximo_a_cada_intervalo(
    monkeypatch: pytest.MonkeyPatch, passo: float, todas: bool
) -> None:
    """A batch lays out pages faster than anyone reads them: the first page is told at once, the next ones
    only once INTERVALO_ANDAMENTO has passed (a flood of reports froze the window), all of them when pages
    come slowly."""
    relogio_falso = iter(range(1_000_000))
    monkeypatch.setattr(pdf_base, "monotonic", lambda: next(relogio_falso) * passo)
    relatos: list[str] = []
    pdf = LoteIntimacoesPdf().render(lote(40), lambda _f, _t, texto: relatos.append(texto))
    total = len(PdfReader(io.BytesIO(pdf)).pages)
    paginas = [int(t.split()[3].rstrip("…")) for t in relatos if t.startswith("Gerando a página")]
    assert paginas[0] == 1
    assert paginas == (list(range(1, total + 1)) if todas else [1])
