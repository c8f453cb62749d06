"""`secretaria documento … --certificado`, `documento assinar` and `documento verificar`.

In-process on a SQLite copy of the November 2026 scenario (the services under it run on both databases in
tests/services/test_assinatura.py). Who signs types login and password, then the certificate's password:
three lines on stdin when it is not a terminal.
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from secretaria import cli
from secretaria.services.assinatura import instalar_confianca
from secretaria.services.contas import criar_usuario
from secretaria.services.semente import abrir_e_semear
from tests.helpers import ca_teste
from tests.helpers import cenario_documentos as cen

SENHA_USUARIO = "Senha-do-Sergio-1"


@pytest.fixture
def base(sqlite_modelo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Any, Path]:
    """The scenario's URL, the scenario, and the Secretary's .p12 (an account "sergio" holds the role)."""
    arquivo = tmp_path / "secretaria.sqlite"
    shutil.copyfile(sqlite_modelo, arquivo)
    url = f"sqlite:///{arquivo}"
    banco = abrir_e_semear(url)
    try:
        cenario = cen.montar(banco, monkeypatch)
        admin = cen.ATORES["administrador"]
        criar_usuario(
            banco.uow(),
            admin,
            login="sergio",
            nome="Sérgio Secretário",
            senha=SENHA_USUARIO,
            papeis=["secretario"],
        )
        instalar_confianca(banco.uow(), admin, conteudo=ca_teste.raiz_pem(), nome_arquivo="raiz.pem")
    finally:
        banco.fechar()
    p12 = tmp_path / "sergio.p12"
    p12.write_bytes(ca_teste.p12())
    return url, cenario, p12


def rodar(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, entrada: str, *argv: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(entrada))
    codigo = cli.main(list(argv))
    saida = capsys.readouterr()
    return codigo, saida.out, saida.err


def test_emitir_assinado_verificar_e_byte_alterado(
    base: tuple[str, Any, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, cenario, p12 = base
    numero = cenario.numeros[cenario.multado]
    pdf = tmp_path / "decisao.pdf"
    entrada = f"sergio\n{SENHA_USUARIO}\n{ca_teste.SENHA}\n"
    codigo, out, err = rodar(
        capsys, monkeypatch, entrada, "documento", "decisao", numero, "-o", str(pdf), "--certificado", str(p12),
        "--db", url,
    )  # fmt: skip
    assert codigo == 0, err
    assert f"assinado digitalmente por {ca_teste.NOME_SECRETARIO}" in out

    codigo, out, err = rodar(capsys, monkeypatch, "", "documento", "verificar", str(pdf), "--db", url)
    assert codigo == 0, err
    assert f"Documento desta Secretaria: Notificação de decisão do auto nº {numero}" in out
    assert f"do processo do auto nº {numero}" in out
    assert "idêntico, byte a byte" in out
    assert f"Assinado digitalmente por {ca_teste.NOME_SECRETARIO}" in out
    assert "se encadeia a uma raiz de confiança instalada" in out

    alterado = bytearray(pdf.read_bytes())
    posicao = alterado.index(b"stream") + 40
    alterado[posicao] ^= 0x01
    copia = tmp_path / "alterado.pdf"
    copia.write_bytes(bytes(alterado))
    codigo, out, _err = rodar(capsys, monkeypatch, "", "documento", "verificar", str(copia), "--db", url)
    assert codigo == cli.SAIDA_NAO_VALIDO
    assert "ASSINATURA INVÁLIDA" in out and "foi alterado depois de emitido" in out


def test_senha_do_certificado_errada_nada_emite_e_assinar_depois(
    base: tuple[str, Any, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, cenario, p12 = base
    numero = cenario.numeros[cenario.multado]
    pdf = tmp_path / "decisao.pdf"
    codigo, _out, err = rodar(
        capsys, monkeypatch, f"sergio\n{SENHA_USUARIO}\nerrada\n",
        "documento", "decisao", numero, "-o", str(pdf), "--certificado", str(p12), "--db", url,
    )  # fmt: skip
    assert codigo == cli.SAIDA_ERRO and "Senha do certificado incorreta" in err and not pdf.exists()

    codigo, out, err = rodar(
        capsys,
        monkeypatch,
        f"sergio\n{SENHA_USUARIO}\n",
        "documento",
        "decisao",
        numero,
        "-o",
        str(pdf),
        "--db",
        url,
    )  # issued unsigned, still in a user's name
    assert codigo == 0 and "sem assinatura digital" in out
    documento = int(out.split("documento nº ")[1].split(",")[0])
    assinado = tmp_path / "assinado.pdf"
    codigo, out, err = rodar(
        capsys, monkeypatch, f"sergio\n{SENHA_USUARIO}\n{ca_teste.SENHA}\n",
        "documento", "assinar", str(documento), "--certificado", str(p12), "-o", str(assinado), "--db", url,
    )  # fmt: skip
    assert codigo == 0, err
    assert f"do documento nº {documento}, que é mantido" in out
    assert assinado.read_bytes().startswith(pdf.read_bytes())
