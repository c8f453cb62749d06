"""Documents signed with a digital certificate, on SQLite and PostgreSQL, without the internet.

The certificates come from the test CA of `tests/helpers/ca_teste.py`. A signed decision notice is checked
by pyHanko's own validator against the test root (not only through our report), reprints byte for byte, is
read back with pypdf and, when qpdf is installed, passes `qpdf --check`. Each refusal leaves nothing written.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives.serialization import Encoding
from pyhanko.keys import load_cert_from_pemder
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko_certvalidator import ValidationContext
from pypdf import PdfReader

from secretaria.db import Banco
from secretaria.models import Auditoria, DocumentoEmitido
from secretaria.services.assinatura import (
    carregar_a1,
    carregar_certificado,
    instalar_confianca,
    ler_config_assinatura,
    remover_raiz,
    salvar_config_assinatura,
)
from secretaria.services.base import Ator, ErroDominio
from secretaria.services.documentos import (
    assinar_documento,
    documentos_emitidos,
    emitir_documento,
    obter_documento,
)
from secretaria.services.verificacao import verificar_tudo
from secretaria.services.verificacao_pdf import verificar_pdf
from tests.helpers import ca_teste
from tests.helpers import cenario_documentos as cen

ATORES: dict[str, Ator] = cen.ATORES
SECRETARIO = ATORES["secretario"]


@pytest.fixture
def cenario(banco: Banco, monkeypatch: pytest.MonkeyPatch) -> Any:
    c = cen.montar(banco, monkeypatch)
    instalar_confianca(
        banco.uow(), ATORES["administrador"], conteudo=ca_teste.raiz_pem(), nome_arquivo="raiz.pem"
    )
    return c


def _certificado(**campos: Any) -> Any:
    return carregar_a1(ca_teste.p12(**campos), ca_teste.SENHA)


def _documentos(banco: Banco) -> int:
    with banco.leitura() as s:
        return int(s.scalar(sa.select(sa.func.count()).select_from(DocumentoEmitido)) or 0)


def _validar_com_pyhanko(pdf: bytes) -> Any:
    """pyHanko's validator, straight, against the test root (independent of `verificar_pdf`)."""
    leitor = PdfFileReader(io.BytesIO(pdf))
    (assinatura,) = leitor.embedded_signatures
    raiz = load_cert_from_pemder(_arquivo_temporario(ca_teste.raiz_pem()))
    contexto = ValidationContext(
        trust_roots=[raiz], allow_fetching=False, moment=datetime(2026, 11, 30, 13, tzinfo=UTC)
    )
    return validate_pdf_signature(assinatura, contexto)


def _arquivo_temporario(conteudo: bytes) -> str:
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".pem", delete=False) as f:
        f.write(conteudo)
        return f.name


def test_decisao_assinada_pelo_secretario_e_valida_reimprime_igual_e_se_verifica(
    banco: Banco, cenario: Any
) -> None:
    info = emitir_documento(
        banco.uow(), SECRETARIO, tipo="decisao", auto_id=cenario.multado, certificado=_certificado()
    )
    with banco.leitura() as s:
        pdf = obter_documento(s, info.id)
    assert info.assinado_por == ca_teste.NOME_SECRETARIO
    assert info.situacao_assinatura == f"assinado digitalmente por {ca_teste.NOME_SECRETARIO}"
    assert hashlib.sha256(pdf).hexdigest() == info.sha256

    status = _validar_com_pyhanko(pdf)
    assert status.bottom_line and status.intact and status.valid and status.trusted
    assert status.signing_cert.subject.native["common_name"] == f"{ca_teste.NOME_SECRETARIO}:{ca_teste.CPF}"

    # Issuing again serves the signed copy, byte for byte (no new signature, no new row).
    de_novo = emitir_documento(banco.uow(), SECRETARIO, tipo="decisao", auto_id=cenario.multado)
    assert de_novo.id == info.id and not de_novo.novo
    with banco.leitura() as s:
        assert obter_documento(s, de_novo.id) == pdf

    # The text reads back; the stamp is on the last page.
    leitor = PdfReader(io.BytesIO(pdf))
    texto = " ".join(" ".join(p.extract_text().split()) for p in leitor.pages)
    assert cenario.numeros[cenario.multado] in texto
    ultima = leitor.pages[-1]
    carimbos = [a.get_object() for a in ultima.get("/Annots", [])]
    assert any(a.get("/FT") == "/Sig" for a in carimbos)
    aparencia = next(a for a in carimbos if a.get("/FT") == "/Sig")["/AP"]["/N"].get_object()
    assert b"SERGIO SECRETARIO" in aparencia.get_data() or b"Assinado" in _conteudo_xobjects(aparencia)

    with banco.leitura() as s:
        relatorio = verificar_pdf(s, pdf)
    assert relatorio.valido and relatorio.identico_ao_emitido
    assert relatorio.documento_id == info.id and relatorio.caso == cenario.numeros[cenario.multado]
    (assinatura,) = relatorio.assinaturas
    assert assinatura.signatario == ca_teste.NOME_SECRETARIO and assinatura.confiavel and assinatura.integra
    assert any("Assinado digitalmente por SERGIO SECRETARIO" in linha for linha in relatorio.linhas)


def _conteudo_xobjects(aparencia: Any) -> bytes:
    """The stamp's text may sit in a nested form XObject: every stream under the appearance, joined."""
    dados = b""
    recursos = aparencia.get("/Resources", {})
    for objeto in recursos.get("/XObject", {}).values():
        o = objeto.get_object()
        dados += o.get_data() + _conteudo_xobjects(o)
    return dados


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf não instalado (apt-get install qpdf)")
def test_pdf_assinado_passa_no_qpdf_check(banco: Banco, cenario: Any, tmp_path: Any) -> None:
    info = emitir_documento(
        banco.uow(), SECRETARIO, tipo="decisao", auto_id=cenario.multado, certificado=_certificado()
    )
    with banco.leitura() as s:
        arquivo = tmp_path / "decisao.pdf"
        arquivo.write_bytes(obter_documento(s, info.id))
    resultado = subprocess.run(["qpdf", "--check", str(arquivo)], capture_output=True, text=True, check=False)
    assert resultado.returncode == 0, resultado.stdout + resultado.stderr
    assert "No syntax or stream encoding errors" in resultado.stdout


def test_um_byte_alterado_e_apontado(banco: Banco, cenario: Any) -> None:
    info = emitir_documento(
        banco.uow(), SECRETARIO, tipo="decisao", auto_id=cenario.multado, certificado=_certificado()
    )
    with banco.leitura() as s:
        pdf = bytearray(obter_documento(s, info.id))
    # A byte of the page's text stream, inside the signed range (well before the signature's contents).
    posicao = pdf.index(b"stream") + 40
    pdf[posicao] = pdf[posicao] ^ 0x01
    with banco.leitura() as s:
        relatorio = verificar_pdf(s, bytes(pdf))
    assert not relatorio.valido and not relatorio.identico_ao_emitido
    assert relatorio.documento_id == info.id  # still named, by the identifier in the signature
    (assinatura,) = relatorio.assinaturas
    assert not assinatura.integra and not assinatura.valida
    assert any("ASSINATURA INVÁLIDA" in linha for linha in relatorio.linhas)
    assert any("difere do documento guardado" in linha for linha in relatorio.linhas)


def test_certificado_de_outra_cadeia_assina_mas_nao_e_confiavel(banco: Banco, cenario: Any) -> None:
    estrangeiro = _certificado(ac="AC Estrangeira", serie=3001)
    info = emitir_documento(
        banco.uow(), SECRETARIO, tipo="decisao", auto_id=cenario.multado, certificado=estrangeiro
    )
    with banco.leitura() as s:
        pdf = obter_documento(s, info.id)
        relatorio = verificar_pdf(s, pdf)
    (assinatura,) = relatorio.assinaturas
    assert assinatura.integra and not assinatura.confiavel and not assinatura.valida
    assert not relatorio.valido
    assert any("NÃO se encadeia" in linha for linha in relatorio.linhas)
    assert not _validar_com_pyhanko(pdf).trusted


def test_pdf_alheio_nao_e_documento_da_secretaria(banco: Banco, cenario: Any) -> None:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    folha = canvas.Canvas(buf)
    folha.drawString(72, 720, "Um PDF qualquer")
    folha.save()
    with banco.leitura() as s:
        relatorio = verificar_pdf(s, buf.getvalue())
        ilegivel = verificar_pdf(s, b"isto nao e um pdf")
    assert relatorio.documento_id is None and not relatorio.assinaturas and not relatorio.valido
    assert relatorio.linhas[0].startswith("Não é um documento emitido por esta Secretaria")
    assert not ilegivel.legivel and ilegivel.linhas == ["O arquivo não é um PDF legível."]


@pytest.mark.parametrize(
    ("campos", "senha", "campo", "trecho"),
    [
        ({}, "senha-errada", "senha", "Senha do certificado incorreta"),
        (
            {
                "inicio": datetime(2024, 1, 1, tzinfo=UTC),
                "fim": datetime(2025, 12, 31, tzinfo=UTC),
                "serie": 1002,
            },
            ca_teste.SENHA,
            "certificado",
            "venceu em 31/12/2025",
        ),
        (
            {
                "inicio": datetime(2027, 1, 1, tzinfo=UTC),
                "fim": datetime(2028, 1, 1, tzinfo=UTC),
                "serie": 1003,
            },
            ca_teste.SENHA,
            "certificado",
            "só é válido a partir de 01/01/2027",
        ),
        ({"titular": "OUTRA PESSOA", "serie": 1004}, ca_teste.SENHA, "certificado", "é de OUTRA PESSOA"),
    ],
    ids=["senha-errada", "vencido", "ainda-nao-valido", "nome-de-outro"],
)
def test_recusas_do_certificado_nada_emitem(
    banco: Banco, cenario: Any, campos: dict[str, Any], senha: str, campo: str, trecho: str
) -> None:
    antes = _documentos(banco)
    with pytest.raises(ErroDominio) as erro:
        cert = carregar_a1(ca_teste.p12(**campos), senha)
        emitir_documento(banco.uow(), SECRETARIO, tipo="decisao", auto_id=cenario.multado, certificado=cert)
    assert erro.value.campo == campo and trecho in str(erro.value)
    assert _documentos(banco) == antes


def test_certificado_revogado_pela_lista_instalada_e_recusado(banco: Banco, cenario: Any) -> None:
    instalar_confianca(
        banco.uow(),
        ATORES["administrador"],
        conteudo=ca_teste.lcr_revogando(1005),
        nome_arquivo="ac-intermediaria.crl",
    )
    revogado = _certificado(serie=1005)
    antes = _documentos(banco)
    with pytest.raises(ErroDominio, match="foi revogado"):
        emitir_documento(
            banco.uow(), SECRETARIO, tipo="decisao", auto_id=cenario.multado, certificado=revogado
        )
    assert _documentos(banco) == antes
    # Another certificate of the same authority, not on the list, signs.
    info = emitir_documento(
        banco.uow(), SECRETARIO, tipo="decisao", auto_id=cenario.multado, certificado=_certificado(serie=1006)
    )
    assert info.assinado_por == ca_teste.NOME_SECRETARIO


def test_emitida_sem_assinatura_e_assinada_depois_como_nova_versao(banco: Banco, cenario: Any) -> None:
    primeira = emitir_documento(banco.uow(), ATORES["protocolo"], tipo="decisao", auto_id=cenario.multado)
    assert primeira.assinado_por is None and primeira.situacao_assinatura == "sem assinatura digital"
    with banco.leitura() as s:
        original = obter_documento(s, primeira.id)
        assert verificar_pdf(s, original).linhas[-1] == "O arquivo não tem assinatura digital."

    assinada = assinar_documento(
        banco.uow(), SECRETARIO, documento_id=primeira.id, certificado=_certificado()
    )
    assert assinada.id != primeira.id and assinada.versao_de_id == primeira.id
    with banco.leitura() as s:
        pdf = obter_documento(s, assinada.id)
        assert obter_documento(s, primeira.id) == original  # the first is kept
        ultima = s.scalar(sa.select(Auditoria.acao).order_by(Auditoria.id.desc()).limit(1))
    assert pdf.startswith(original)  # an incremental update: the issued bytes are the signed revision
    assert _validar_com_pyhanko(pdf).bottom_line
    assert ultima == "assinar_documento"

    # Issuing again now serves the signed version; signing again is refused.
    de_novo = emitir_documento(banco.uow(), ATORES["consulta"], tipo="decisao", auto_id=cenario.multado)
    assert de_novo.id == assinada.id
    with pytest.raises(ErroDominio, match="já tem uma versão assinada"):
        assinar_documento(banco.uow(), SECRETARIO, documento_id=primeira.id, certificado=_certificado())
    with pytest.raises(ErroDominio, match="já está assinado"):
        assinar_documento(banco.uow(), SECRETARIO, documento_id=assinada.id, certificado=_certificado())
    with banco.leitura() as s:
        ids = [d.id for d in documentos_emitidos(s, auto_id=cenario.multado)]
        relatorio = verificar_tudo(s)  # `auditoria verificar`: both versions match their audit rows
    # (the scenario's registry, built by test helpers, has rows without audit: only the documents matter here)
    assert relatorio.documentos == 2
    assert [a for a in relatorio.achados if "documento" in a.lower()] == []
    assert primeira.id in ids and assinada.id in ids


def test_quem_pode_assinar_cada_tipo(banco: Banco, cenario: Any) -> None:
    fiscal = ATORES["fiscal"]  # "Fábio Fiscal"
    cert_fiscal = _certificado(titular="FABIO FISCAL", serie=2001)
    antes = _documentos(banco)
    with pytest.raises(ErroDominio, match="assinado pelo Secretário") as erro:
        emitir_documento(
            banco.uow(), fiscal, tipo="decisao", auto_id=cenario.multado, certificado=cert_fiscal
        )
    assert erro.value.campo == "certificado"
    with pytest.raises(ErroDominio, match="não é assinado digitalmente"):
        emitir_documento(
            banco.uow(), fiscal, tipo="intimacao", auto_id=cenario.aguardando, certificado=cert_fiscal
        )
    assert _documentos(banco) == antes

    salvar_config_assinatura(
        banco.uow(), ATORES["administrador"], carimbo_url="", tipos_emissor=["intimacao"]
    )
    info = emitir_documento(
        banco.uow(), fiscal, tipo="intimacao", auto_id=cenario.aguardando, certificado=cert_fiscal
    )
    assert info.assinado_por == "FABIO FISCAL"
    with banco.leitura() as s:
        assert verificar_pdf(s, obter_documento(s, info.id)).valido


def test_configuracao_da_assinatura(banco: Banco, cenario: Any) -> None:
    admin = ATORES["administrador"]
    with pytest.raises(ErroDominio) as erro:
        salvar_config_assinatura(banco.uow(), admin, carimbo_url="carimbo.exemplo", tipos_emissor=[])
    assert erro.value.campo == "carimbo_url"
    with pytest.raises(ErroDominio) as erro:
        salvar_config_assinatura(banco.uow(), admin, carimbo_url="", tipos_emissor=["decisao"])
    assert erro.value.campo == "tipos_emissor"
    with pytest.raises(ErroDominio, match="não é o certificado de uma autoridade"):
        instalar_confianca(
            banco.uow(),
            admin,
            conteudo=ca_teste.certificado_usuario().public_bytes(Encoding.PEM),
            nome_arquivo="pessoa.cer",
        )
    with pytest.raises(ErroDominio, match="já está instalada"):
        instalar_confianca(banco.uow(), admin, conteudo=ca_teste.raiz_pem(), nome_arquivo="raiz.pem")
    with pytest.raises(ErroDominio) as erro:
        instalar_confianca(banco.uow(), admin, conteudo=b"lixo", nome_arquivo="lixo.txt")
    assert erro.value.campo == "arquivo"

    salvar_config_assinatura(
        banco.uow(), admin, carimbo_url="https://carimbo.exemplo/tsa", tipos_emissor=["auto", "intimacao"]
    )
    with banco.leitura() as s:
        config = ler_config_assinatura(s)
    assert config.carimbo_url == "https://carimbo.exemplo/tsa"
    assert config.tipos_emissor == frozenset({"auto", "intimacao"})
    (raiz,) = config.raizes
    assert raiz.nome == "AC Raiz de Teste"
    remover_raiz(banco.uow(), admin, impressao=raiz.impressao)
    with banco.leitura() as s:
        assert ler_config_assinatura(s).raizes == ()
        ultima = s.scalar(sa.select(Auditoria.acao).order_by(Auditoria.id.desc()).limit(1))
    assert ultima == "alterar_assinatura"
    with pytest.raises(ErroDominio):
        salvar_config_assinatura(banco.uow(), ATORES["secretario"], carimbo_url="", tipos_emissor=[])


@pytest.fixture(scope="module")
def token_a3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """SoftHSM playing the Secretary's A3 token (skipped when the Debian package softhsm2 is absent)."""
    pasta = tmp_path_factory.mktemp("softhsm")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOFTHSM2_CONF", str(pasta / "softhsm2.conf"))
        modulo = ca_teste.token_softhsm(pasta)
        if modulo is None:
            pytest.skip("SoftHSM não instalado (apt-get install softhsm2): o token A3 não é simulado")
        yield modulo


def test_decisao_assinada_com_token_a3(banco: Banco, cenario: Any, token_a3: Path) -> None:
    with pytest.raises(ErroDominio, match="PIN do token incorreto") as erro:
        carregar_certificado(token_a3, "0000")
    assert erro.value.campo == "token"
    cert = carregar_certificado(token_a3, ca_teste.PIN)
    try:
        info = emitir_documento(
            banco.uow(), SECRETARIO, tipo="decisao", auto_id=cenario.multado, certificado=cert
        )
    finally:
        cert.fechar()  # the token stays logged in while its session is open
    with banco.leitura() as s:
        pdf = obter_documento(s, info.id)
        relatorio = verificar_pdf(s, pdf)
    assert _validar_com_pyhanko(pdf).bottom_line
    assert relatorio.valido and relatorio.assinaturas[0].signatario == ca_teste.NOME_SECRETARIO


def test_carimbo_do_tempo_quando_o_orgao_configura_o_servidor(
    banco: Banco, cenario: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyhanko.sign import timestamps

    pedidos: list[str] = []

    def servidor(url: str) -> Any:
        pedidos.append(url)
        return ca_teste.carimbador()

    monkeypatch.setattr(timestamps, "HTTPTimeStamper", servidor)  # looked up at each signature
    salvar_config_assinatura(
        banco.uow(), ATORES["administrador"], carimbo_url="https://carimbo.exemplo/tsa", tipos_emissor=[]
    )
    info = emitir_documento(
        banco.uow(), SECRETARIO, tipo="decisao", auto_id=cenario.multado, certificado=_certificado()
    )
    assert pedidos == ["https://carimbo.exemplo/tsa"]
    with banco.leitura() as s:
        pdf = obter_documento(s, info.id)
        relatorio = verificar_pdf(s, pdf)
    status = _validar_com_pyhanko(pdf)
    assert status.bottom_line and status.timestamp_validity is not None and status.timestamp_validity.intact
    (assinatura_pdf,) = relatorio.assinaturas
    assert assinatura_pdf.carimbo_do_tempo and relatorio.valido
    assert any("(com carimbo do tempo)" in linha for linha in relatorio.linhas)
    # Without a server: PAdES B-B, no timestamp.
    assert all("carimbo" not in linha for linha in _linhas_sem_carimbo(banco, cenario))


def _linhas_sem_carimbo(banco: Banco, cenario: Any) -> list[str]:
    salvar_config_assinatura(banco.uow(), ATORES["administrador"], carimbo_url="", tipos_emissor=["auto"])
    fiscal_cert = _certificado(titular="FABIO FISCAL", serie=2002)
    info = emitir_documento(
        banco.uow(), ATORES["fiscal"], tipo="auto", auto_id=cenario.aguardando, certificado=fiscal_cert
    )
    with banco.leitura() as s:
        return verificar_pdf(s, obter_documento(s, info.id)).linhas
