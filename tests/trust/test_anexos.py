"""Attachments: a size limit, the type checked by content, SHA-256 stored; a file altered in the database
(or in the database file on disk) is refused when opened, and named by `secretaria auditoria verificar`."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria.cli import main
from secretaria.db import Banco, arquivo_sqlite
from secretaria.models import Anexo, Auditoria
from secretaria.services import anexos
from secretaria.services.anexos import AnexoAlterado, abrir_anexo_conferido, nome_seguro, validar_conteudo
from secretaria.services.autos import LIMITE_ANEXO_BYTES, anexar_evidencia, lavrar_auto
from secretaria.services.base import Ator, ErroDominio
from secretaria.services.representacoes import anexar_prova_representacao, receber_representacao
from tests.helpers import arquivos_prova

_png = arquivos_prova.png
JPEG = arquivos_prova.jpeg()
PDF = arquivos_prova.pdf()


def _com_crc_errado(dados: bytes) -> bytes:
    return dados[:-1] + bytes([dados[-1] ^ 1])


# ------------------------------------------------------------------------------------------- content


@pytest.mark.parametrize(
    ("nome", "conteudo", "tipo"),
    [
        ("foto.png", _png(), "image/png"),
        ("FOTO.JPEG", JPEG, "image/jpeg"),
        ("foto.jpg", JPEG + b"\x00ftypmp42" + b"\x00" * 500, "image/jpeg"),  # a phone's motion clip after EOI
        ("laudo.pdf", PDF, "application/pdf"),
        ("laudo.pdf", PDF + b"\r\n\x00\x00", "application/pdf"),  # bytes after %%EOF
        ("sem extensao", PDF, "application/pdf"),
    ],
)
def test_arquivo_inteiro_com_extensao_do_tipo_e_aceito(nome: str, conteudo: bytes, tipo: str) -> None:
    assert validar_conteudo(nome, conteudo) == (nome, tipo)


def test_pdf_de_verdade_e_aceito() -> None:
    from reportlab.pdfgen import canvas

    saida = io.BytesIO()
    folha = canvas.Canvas(saida)
    folha.drawString(72, 720, "Laudo de vistoria")
    folha.save()
    assert validar_conteudo("laudo.pdf", saida.getvalue())[1] == "application/pdf"


@pytest.mark.parametrize(
    ("nome", "conteudo", "motivo"),
    [
        ("prova.pdf", b"", "vazio"),
        ("prova.pdf", b"MZ\x90\x00" + b"\x00" * 100, "não é PDF, JPEG nem PNG"),
        ("prova.pdf", b"<html><script>alert(1)</script></html>", "não é PDF, JPEG nem PNG"),
        ("prova.pdf", b"%PDF-", "incompleto ou danificado"),
        ("prova.pdf", PDF[: len(PDF) // 2], "incompleto ou danificado"),
        ("prova.pdf", b"%PDF-1.4\n" + b"x" * 5000, "incompleto ou danificado"),
        ("prova.pdf", b"%PDF-1.4\n%%EOF", "incompleto ou danificado"),
        ("prova.pdf", PDF.replace(b"/Kids [3 0 R] /Count 1", b"/Kids [] /Count 0  "), "incompleto"),
        ("prova.pdf", b"%PDF-1.4\n1 0 obj\n<< >>\nendobj\nstartxref\n99999\n%%EOF\n", "incompleto"),
        ("foto.png", b"\x89PNG\r\n\x1a\n", "incompleto ou danificado"),
        ("foto.png", _png()[:-12], "incompleto ou danificado"),
        ("foto.png", _com_crc_errado(_png()), "incompleto ou danificado"),
        ("foto.png", b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x00IEND\xaeB`\x82", "incompleto ou danificado"),
        ("foto.jpg", JPEG[:-2], "incompleto ou danificado"),
        ("foto.jpg", JPEG[:-2] + b"\x00" * 100, "incompleto ou danificado"),
        ("foto.jpg", b"\xff\xd8\xff\xe0" + b"\x00" * 60 + b"\xff\xd9", "incompleto ou danificado"),
        ("foto.jpg", PDF, "é um PDF, mas o nome termina em .jpg; renomeie-o para .pdf"),
        ("laudo.pdf", _png(), "é um PNG, mas o nome termina em .pdf"),
        ("foto.exe", JPEG, "é um JPEG, mas o nome termina em .exe"),
        ("evil\u202egpj.exe", JPEG, "O arquivo evilgpj.exe é um JPEG, mas o nome termina em .exe"),
    ],
)
def test_conteudo_ruim_e_recusado(nome: str, conteudo: bytes, motivo: str) -> None:
    with pytest.raises(ErroDominio, match=re.escape(motivo)) as erro:
        validar_conteudo(nome, conteudo)
    assert erro.value.campo == "arquivo"


def test_limite_de_tamanho_com_o_numero_em_portugues() -> None:
    with pytest.raises(ErroDominio, match="o limite é 1 MB") as erro:
        validar_conteudo("grande.pdf", b"%PDF-" + b"0" * (1024 * 1024) + b"%%EOF", limite=1024 * 1024)
    assert erro.value.mensagem == "O arquivo grande.pdf tem 1,1 MB; o limite é 1 MB."
    with pytest.raises(ErroDominio) as erro:
        validar_conteudo("25mb.pdf", b"%PDF-" + b"0" * (25 * 1024 * 1024 - 5))
    assert erro.value.mensagem == "O arquivo 25mb.pdf tem 25,0 MB; o limite é 20 MB."


@pytest.mark.parametrize(
    ("nome", "limpo"),
    [
        ("evil\u202egpj.exe", "evilgpj.exe"),
        ("foto\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u200e\u200f\u061c.jpg", "foto.jpg"),
        ("linha 1\nlinha 2\r\n\tfim.png", "linha 1 linha 2 fim.png"),
        ("a\x00b\x1b\x7f\x85c\x9f.png", "ab c.png"),
        ("C:\\Users\\x\\Área de Trabalho\\multa 1.JPG", "multa 1.JPG"),
        ("  ônibus\u2028 lotado .png ", "ônibus lotado .png"),
        ("cafe\u0301.png", "café.png"),
        ("\U0001f68c ônibus.png", "\U0001f68c ônibus.png"),
    ],
)
def test_nome_limpo_e_legivel(nome: str, limpo: str) -> None:
    assert anexos.limpar_nome(nome) == limpo


@pytest.mark.parametrize(
    ("nome", "tipo", "esperado"),
    [
        ("foto.html", "application/pdf", "foto.pdf"),
        ("../../etc/passwd", "image/png", "passwd.png"),
        ("C:\\Users\\x\\Área de Trabalho\\multa 1.JPG", "image/jpeg", "multa 1.jpg"),
        ("a\x00b\x1b[31m;rm -rf.png", "image/png", "ab_31m_rm -rf.png"),
        ("evil\u202egpj.exe", "image/jpeg", "evilgpj.jpg"),
        ("", "application/pdf", "anexo.pdf"),
    ],
)
def test_nome_seguro_para_abrir(nome: str, tipo: str, esperado: str) -> None:
    assert nome_seguro(nome, tipo) == esperado


# ------------------------------------------------------------------------------------- stored files


@pytest.fixture
def auto_id(banco: Banco, novo_auto: Callable[..., Any], atores: dict[str, Ator]) -> int:
    return int(lavrar_auto(banco.uow(), atores["fiscal"], novo_auto()).id)


def _anexar(banco: Banco, auto_id: int, fiscal: Ator, conteudo: bytes, nome: str = "foto.png") -> int:
    return anexar_evidencia(banco.uow(), fiscal, auto_id=auto_id, nome_arquivo=nome, conteudo=conteudo).id


def test_servico_guarda_sha256_e_recusa_por_conteudo_e_tamanho(
    banco: Banco, auto_id: int, atores: dict[str, Ator]
) -> None:
    fiscal = atores["fiscal"]
    conteudo = _png(b"placa IAB1C23")
    resumo = anexar_evidencia(
        banco.uow(), fiscal, auto_id=auto_id, nome_arquivo="foto.png", conteudo=conteudo
    )
    assert resumo.sha256 == hashlib.sha256(conteudo).hexdigest() and resumo.tipo_mime == "image/png"
    with banco.leitura() as s:
        antes = s.scalar(sa.select(sa.func.count(Anexo.id)))
    for ruim, motivo in [
        (b"MZ" + b"\x00" * 64, "não é PDF, JPEG nem PNG"),
        (b"%PDF-" + b"0" * LIMITE_ANEXO_BYTES, "tem 20,1 MB; o limite é 20 MB."),
        (b"", "vazio"),
    ]:
        with pytest.raises(ErroDominio, match=motivo):
            _anexar(banco, auto_id, fiscal, ruim, "prova.pdf")
    with banco.leitura() as s:
        assert s.scalar(sa.select(sa.func.count(Anexo.id))) == antes
    with banco.leitura() as s:
        conferido = abrir_anexo_conferido(s, resumo.id)
    assert conferido.conteudo == conteudo and conferido.nome_para_abrir == "foto.png"


# Damaged or disguised files that reach an office as proof, each with the name it came under.
ARQUIVOS_RUINS = [
    ("cinco.pdf", b"%PDF-", "PDF mas está incompleto"),
    ("metade.pdf", PDF[: len(PDF) // 2], "PDF mas está incompleto"),
    ("sem fim.jpg", JPEG[:-2], "JPEG mas está incompleto"),
    ("oito.png", b"\x89PNG\r\n\x1a\n", "PNG mas está incompleto"),
    ("pagina.pdf", b"<!DOCTYPE html><html><body>Prova</body></html>", "não é PDF, JPEG nem PNG"),
    ("laudo.jpg", PDF, "é um PDF, mas o nome termina em .jpg"),
    ("evil\u202egpj.exe", JPEG, "evilgpj.exe é um JPEG, mas o nome termina em .exe"),
]


def _contar_anexos(banco: Banco) -> tuple[int, int]:
    with banco.leitura() as s:
        auditados = s.scalar(sa.select(sa.func.count(Auditoria.id)).where(Auditoria.entidade == "anexo"))
        return int(s.scalar(sa.select(sa.func.count(Anexo.id))) or 0), int(auditados or 0)


def test_cada_servico_que_anexa_recusa_arquivo_ruim_sem_gravar_nada(
    banco: Banco, auto_id: int, atores: dict[str, Ator], cidade: Any
) -> None:
    fiscal = atores["fiscal"]
    rep = receber_representacao(
        banco.uow(),
        fiscal,
        recebida_em=date(2026, 11, 3),
        peticionario_nome="Beatriz Usuária",
        peticionario_profissao="Professora",
        peticionario_endereco="Rua Félix da Cunha, 500",
        fatos="O ônibus passou sem parar no ponto.",
        meios_prova="Fotos.",
        operadora_id=cidade.operadora_id,
    )
    servicos: list[Callable[[str, bytes], Any]] = [
        lambda nome, conteudo: anexar_evidencia(
            banco.uow(), fiscal, auto_id=auto_id, nome_arquivo=nome, conteudo=conteudo
        ),
        lambda nome, conteudo: anexar_prova_representacao(
            banco.uow(), fiscal, representacao_id=rep.id, nome_arquivo=nome, conteudo=conteudo
        ),
    ]
    antes = _contar_anexos(banco)
    for anexar in servicos:
        for nome, conteudo, motivo in ARQUIVOS_RUINS:
            with pytest.raises(ErroDominio, match=re.escape(motivo)) as erro:
                anexar(nome, conteudo)
            assert erro.value.campo == "arquivo"
    assert _contar_anexos(banco) == antes
    for anexar in servicos:  # the same files whole, under their own type's name, are taken
        assert anexar("foto\u202e.jpg", JPEG).nome_arquivo == "foto.jpg"
        assert anexar("laudo.pdf", PDF).tipo_mime == "application/pdf"
    assert _contar_anexos(banco) == (antes[0] + 4, antes[1] + 4)


def test_arquivo_alterado_no_banco_e_recusado_ao_abrir(
    banco: Banco, auto_id: int, atores: dict[str, Ator], capsys: pytest.CaptureFixture[str]
) -> None:
    bom = _anexar(banco, auto_id, atores["fiscal"], _png(b"original"), "boa.png")
    alvo = _anexar(banco, auto_id, atores["fiscal"], _png(b"original 2"), "prova.png")
    with banco.engine.begin() as conn:
        conn.execute(sa.update(Anexo).where(Anexo.id == alvo).values(conteudo=_png(b"forjada 2")))
    with (
        banco.leitura() as s,
        pytest.raises(AnexoAlterado, match=r"prova\.png .*foi alterado depois de anexado"),
    ):
        abrir_anexo_conferido(s, alvo)
    with banco.leitura() as s:
        assert abrir_anexo_conferido(s, bom).nome_arquivo == "boa.png"
    assert main(["auditoria", "verificar", "--db", banco.url]) == 1
    saida = capsys.readouterr().out
    assert f"anexo nº {alvo} (prova.png)" in saida and f"anexo nº {bom}" not in saida


def test_conteudo_e_hash_trocados_juntos_sao_pegos_pela_auditoria(
    banco: Banco, auto_id: int, atores: dict[str, Ator]
) -> None:
    alvo = _anexar(banco, auto_id, atores["fiscal"], _png(b"original"))
    forjado = _png(b"forjado")
    with banco.engine.begin() as conn:
        conn.execute(
            sa.update(Anexo)
            .where(Anexo.id == alvo)
            .values(conteudo=forjado, sha256=hashlib.sha256(forjado).hexdigest(), tamanho=len(forjado))
        )
    with banco.leitura() as s:
        resultado = anexos.verificar_anexo(s, alvo)
        assert not resultado.integro and "auditoria" in resultado.motivo
        with pytest.raises(AnexoAlterado):
            abrir_anexo_conferido(s, alvo)


def test_arquivo_do_banco_alterado_no_disco_e_detectado(
    banco: Banco, auto_id: int, atores: dict[str, Ator]
) -> None:
    """A byte of the photo changed inside the .sqlite file itself (a disk fault or an editor): SQLite does
    not notice (no page checksums), the stored SHA-256 does."""
    if not banco.eh_sqlite:
        pytest.skip("o arquivo em disco é o do SQLite")
    banco_sqlite = banco
    auto = auto_id
    marca = b"MARCA-UNICA-DO-ANEXO-0123456789"
    alvo = _anexar(banco_sqlite, auto, atores["fiscal"], _png(marca))
    banco_sqlite.fechar()  # the last connection closing checkpoints the WAL into the main file
    arquivo = arquivo_sqlite(banco_sqlite.url)
    assert arquivo is not None
    dados = bytearray(arquivo.read_bytes())
    pos = dados.find(marca)
    assert pos > 0 and dados.count(marca) == 1
    dados[pos] ^= 0x20
    arquivo.write_bytes(bytes(dados))
    from secretaria.services.semente import abrir_e_semear

    reaberto = abrir_e_semear(banco_sqlite.url)
    try:
        with reaberto.leitura() as s:
            assert s.execute(sa.text("PRAGMA integrity_check")).scalar() == "ok"  # SQLite sees nothing wrong
            with pytest.raises(AnexoAlterado, match="SHA-256"):
                abrir_anexo_conferido(s, alvo)
    finally:
        reaberto.fechar()


def test_anexo_inexistente(banco: Banco) -> None:
    with banco.leitura() as s, pytest.raises(ErroDominio, match="não encontrado"):
        abrir_anexo_conferido(s, 999)
