"""Attachments: a size limit, the type checked by content, SHA-256 stored; a file altered in the database
(or in the database file on disk) is refused when opened, and named by `secretaria auditoria verificar`."""

from __future__ import annotations

import hashlib
import struct
import zlib
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa

from secretaria.cli import main
from secretaria.db import Banco, arquivo_sqlite
from secretaria.models import Anexo
from secretaria.services import anexos
from secretaria.services.anexos import AnexoAlterado, abrir_anexo_conferido, nome_seguro, validar_conteudo
from secretaria.services.autos import LIMITE_ANEXO_BYTES, anexar_evidencia, lavrar_auto
from secretaria.services.base import Ator, ErroDominio


def _png(marca: bytes = b"") -> bytes:
    def bloco(tipo: bytes, dados: bytes) -> bytes:
        return struct.pack(">I", len(dados)) + tipo + dados + struct.pack(">I", zlib.crc32(tipo + dados))

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    texto = bloco(b"tEXt", b"Comment\x00" + marca) if marca else b""
    return (
        b"\x89PNG\r\n\x1a\n"
        + bloco(b"IHDR", ihdr)
        + texto
        + bloco(b"IDAT", zlib.compress(b"\x00\x80"))
        + bloco(b"IEND", b"")
    )


JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + b"\x11" * 200 + b"\xff\xd9"
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


# ------------------------------------------------------------------------------------------- content


@pytest.mark.parametrize(
    ("conteudo", "tipo"), [(_png(), "image/png"), (JPEG, "image/jpeg"), (PDF, "application/pdf")]
)
def test_tipo_pelo_conteudo_e_nao_pelo_nome(conteudo: bytes, tipo: str) -> None:
    assert validar_conteudo("qualquer.exe", conteudo) == ("qualquer.exe", tipo)


@pytest.mark.parametrize(
    ("conteudo", "motivo"),
    [
        (b"", "vazio"),
        (b"MZ\x90\x00" + b"\x00" * 100, "não é PDF, JPEG nem PNG"),
        (b"<html><script>alert(1)</script></html>", "não é PDF, JPEG nem PNG"),
        (b"%PDF-1.4\n" + b"x" * 5000, "incompleto ou danificado"),
        (_png()[:-12], "incompleto ou danificado"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x00IEND\xaeB`\x82", "incompleto ou danificado"),
        (JPEG[:-2] + b"\x00" * 100, "incompleto ou danificado"),
    ],
)
def test_conteudo_ruim_e_recusado(conteudo: bytes, motivo: str) -> None:
    with pytest.raises(ErroDominio, match=motivo) as erro:
        validar_conteudo("prova.pdf", conteudo)
    assert erro.value.campo == "arquivo"


def test_limite_de_tamanho() -> None:
    with pytest.raises(ErroDominio, match="o limite é 1 MB"):
        validar_conteudo("grande.pdf", b"%PDF-" + b"0" * (1024 * 1024) + b"%%EOF", limite=1024 * 1024)


@pytest.mark.parametrize(
    ("nome", "tipo", "esperado"),
    [
        ("foto.html", "application/pdf", "foto.pdf"),
        ("../../etc/passwd", "image/png", "passwd.png"),
        ("C:\\Users\\x\\Área de Trabalho\\multa 1.JPG", "image/jpeg", "multa 1.jpg"),
        ("a\x00b\x1b[31m;rm -rf.png", "image/png", "ab_31m_rm -rf.png"),
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
        (b"%PDF-" + b"0" * LIMITE_ANEXO_BYTES, "o limite é 20 MB"),
        (b"", "vazio"),
    ]:
        with pytest.raises(ErroDominio, match=motivo):
            _anexar(banco, auto_id, fiscal, ruim, "prova.pdf")
    with banco.leitura() as s:
        assert s.scalar(sa.select(sa.func.count(Anexo.id))) == antes
    with banco.leitura() as s:
        conferido = abrir_anexo_conferido(s, resumo.id)
    assert conferido.conteudo == conteudo and conferido.nome_para_abrir == "foto.png"


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
    from secretaria.db import abrir_banco

    reaberto = abrir_banco(banco_sqlite.url)
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
