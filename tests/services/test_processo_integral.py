"""The complete case file (cópia integral do processo), read back with pypdf: the index names each piece
with its folhas and the SHA-256 of the bytes stored for it, every page carries its folha in order, the
evidence is in it, and printing it again gives the same bytes."""

from __future__ import annotations

import hashlib
import io
import re
from typing import Any

import pytest
import sqlalchemy as sa
from pypdf import PdfReader

from secretaria.db import Banco
from secretaria.models import Auditoria
from secretaria.services.documentos import emitir_documento, info_documento, obter_documento
from tests.helpers import cenario_processo, fabrica

ATORES = fabrica.ATORES


@pytest.fixture
def caso(banco: Banco, monkeypatch: pytest.MonkeyPatch) -> cenario_processo.CasoCompleto:
    return cenario_processo.montar(banco, monkeypatch)


def _emitir(banco: Banco, auto_id: int) -> tuple[Any, bytes]:
    info = emitir_documento(banco.uow(), ATORES["consulta"], tipo="processo", auto_id=auto_id)
    with banco.leitura() as s:
        return info, obter_documento(s, info.id)


def _paginas(conteudo: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(conteudo)).pages]


def test_indice_folhas_e_sha256_de_cada_peca(banco: Banco, caso: cenario_processo.CasoCompleto) -> None:
    info, conteudo = _emitir(banco, caso.auto_id)
    paginas = _paginas(conteudo)
    # Every page carries its folha, in order, in its top corner.
    for n, texto in enumerate(paginas, 1):
        assert re.search(rf"\bfl\. {n}\b", texto), f"página {n} sem “fl. {n}”"
    indice = "".join(t for t in paginas if "CÓPIA INTEGRAL DO PROCESSO" in t or "Índice" in t)
    assert f"Auto de Infração nº {caso.numero}" in paginas[0]
    assert f"{len(paginas)}, numeradas no alto de cada página" in paginas[0]
    compacto = indice.replace("\n", "")
    with banco.leitura() as s:
        for doc_id in caso.documentos:
            doc = info_documento(s, doc_id)
            guardado = obter_documento(s, doc_id)
            assert hashlib.sha256(guardado).hexdigest() == doc.sha256
            assert doc.sha256 in compacto, f"SHA-256 de {doc.descricao} ausente do índice"
            # Its folhas in the index hold the stored document's own pages, as they were issued.
            linha = re.search(rf"{re.escape(doc.descricao)} – \d\d/\d\d/\d{{4}}\s*(fls?\. [\d–]+)", indice)
            assert linha is not None, doc.descricao
            folhas = [int(x) for x in re.findall(r"\d+", linha.group(1))]
            primeira, ultima = folhas[0], folhas[-1]
            proprias = _paginas(guardado)
            assert ultima - primeira + 1 == len(proprias)
            primeira_linha = proprias[0].strip().splitlines()[-1]
            assert primeira_linha in paginas[primeira - 1]
    # The records without a document of their own, and the evidence, are pieces too.
    for peca in (
        "Registro da intimação do auto",
        "Defesa",
        "Proposta da autoridade (art. 13)",
        "Registro da intimação da decisão",
        "Recurso ao Prefeito",
        "Julgamento do recurso",
        "Pagamento da multa",
        "Prova: foto-onibus.png",
        "Prova: laudo.pdf",
        "Linha do tempo do processo",
    ):
        assert peca in indice, peca
    assert (
        indice.index("Defesa") < indice.index("Proposta da autoridade") < indice.index("Recurso ao Prefeito")
    )
    assert indice.index("Julgamento do recurso") < indice.index("Pagamento da multa")
    texto = "\n".join(paginas)
    assert "A operadora nega o fato" in texto  # the defence's text, drawn from its record
    assert "Provido em parte" in texto and re.search(r"Nova multa\s+0,35 URM\s", texto)
    assert re.search(r"Proposta\s+multa de 0,40 URM\s", texto)
    assert "LINHA DO TEMPO DO PROCESSO" in paginas[-1]
    assert info.descricao == f"Cópia integral do processo do auto nº {caso.numero}"


def test_provas_imagem_e_pdf_entram_no_arquivo(banco: Banco, caso: cenario_processo.CasoCompleto) -> None:
    _info, conteudo = _emitir(banco, caso.auto_id)
    leitor = PdfReader(io.BytesIO(conteudo))
    textos = [p.extract_text() for p in leitor.pages]
    foto = next(i for i, t in enumerate(textos) if "Prova: foto-onibus.png – anexo nº" in t)
    assert len(leitor.pages[foto].images) == 1  # the photo placed on the page
    # The scanned PDF's own (blank) page follows the photo's, carrying only its folha.
    laudo = textos[foto + 1]
    assert f"fl. {foto + 2}" in laudo and "Prova: laudo.pdf (anexo nº" in laudo
    assert "PREFEITURA" not in laudo


def test_reimpressao_e_nova_emissao_dao_os_mesmos_bytes(
    banco: Banco, caso: cenario_processo.CasoCompleto
) -> None:
    info, conteudo = _emitir(banco, caso.auto_id)
    assert info.novo and info.tipo == "processo"
    de_novo, mesmos = _emitir(banco, caso.auto_id)
    assert not de_novo.novo and de_novo.id == info.id and mesmos == conteudo
    with banco.leitura() as s:
        assert obter_documento(s, info.id) == conteudo
        assert hashlib.sha256(conteudo).hexdigest() == info.sha256
        auditados = s.scalar(
            sa.select(sa.func.count(Auditoria.id)).where(
                Auditoria.acao == "emitir_documento", Auditoria.entidade_id == str(info.id)
            )
        )
    assert auditados == 1
    # The file is never a piece of the next one.
    assert "Cópia integral do processo do auto" not in "".join(_paginas(conteudo)[:2])


def test_qualquer_documento_guardado_do_caso_entra_com_o_seu_rotulo(
    banco: Banco, caso: cenario_processo.CasoCompleto, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kind of notice added later joins the file by itself: the list comes from the stored documents."""
    from datetime import datetime

    from secretaria.models import DocumentoEmitido
    from secretaria.services import documentos
    from tests.helpers import arquivos_prova

    monkeypatch.setitem(documentos.TIPOS_DOCUMENTO, "aviso_novo", "Notificação do julgamento do recurso")
    conteudo = arquivos_prova.pdf(b"aviso")
    with banco.uow() as uow:
        novo = DocumentoEmitido(
            tipo="aviso_novo",
            referencia=caso.numero,
            auto_id=caso.auto_id,
            nome_arquivo="aviso.pdf",
            sha256=hashlib.sha256(conteudo).hexdigest(),
            conteudo=conteudo,
            emitido_em=datetime(2026, 10, 21, 9, 0),
            emitido_por="protocolo",
        )
        uow.session.add(novo)
        uow.commit()
    _info, arquivo = _emitir(banco, caso.auto_id)
    paginas = _paginas(arquivo)
    indice = "".join(t for t in paginas[:2] if "Índice" in t or "SHA-256" in t)
    linha = f"Notificação do julgamento do recurso {caso.numero} – 21/10/2026"
    assert linha in indice
    # In the case's order: after the judgment (20/10), before the payment (10/11).
    assert indice.index("Julgamento do recurso") < indice.index(linha) < indice.index("Pagamento da multa")
    assert hashlib.sha256(conteudo).hexdigest() in indice.replace("\n", "")


def test_documento_guardado_alterado_recusa_a_copia_sem_gravar(
    banco: Banco, caso: cenario_processo.CasoCompleto
) -> None:
    from secretaria.models import DocumentoEmitido
    from secretaria.services.documentos import DocumentoAlterado

    with banco.uow() as uow:
        doc = uow.session.get(DocumentoEmitido, caso.documentos[0])
        assert doc is not None
        doc.conteudo = bytes(doc.conteudo) + b"%"
        uow.commit()
    with pytest.raises(DocumentoAlterado, match="foi alterado depois de emitido"):
        _emitir(banco, caso.auto_id)
    with banco.leitura() as s:
        assert s.scalar(sa.select(sa.func.count()).where(DocumentoEmitido.tipo == "processo")) == 0


def test_sem_documentos_emitidos_as_pecas_saem_dos_registros(
    banco: Banco, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import date

    from tests.helpers import cenario_documentos

    cidade = fabrica.popular(banco)
    cenario_documentos.preencher_orgao(banco)
    r = fabrica.Roteiro(banco, cidade, monkeypatch, hoje=cenario_processo.HOJE)
    auto = r.decidido(data_infracao=date(2026, 6, 1), multa="0.30", suspensao=0)
    _info, conteudo = _emitir(banco, auto.id)
    paginas = _paginas(conteudo)
    pecas = [
        f"Registro do auto de infração nº {auto.numero_formatado}",
        "Registro da intimação do auto",
        "Proposta da autoridade (art. 13)",
        "Decisão do(a) Secretário(a)",
        "Registro da intimação da decisão",
        "Linha do tempo do processo",
    ]
    posicoes = [paginas[0].index(p) for p in pecas]
    assert posicoes == sorted(posicoes)  # in the case's order
    assert len(paginas) == 1 + len(pecas)  # one short page each, after the cover
    for n, (texto, peca) in enumerate(zip(paginas[1:], pecas, strict=True), 2):
        assert peca.upper() in texto and f"fl. {n}" in texto
    assert re.search(r"Multa\s+0,30 URM = R\$", paginas[4])
