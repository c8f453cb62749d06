"""`secretaria documento processo NNNN/AAAA -o ARQUIVO.pdf`: the complete case file from the command line
(in-process, on a SQLite copy; the service under it is tested on both databases)."""

from __future__ import annotations

import hashlib
import io
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from secretaria import cli
from secretaria.services.documentos import obter_documento
from secretaria.services.semente import abrir_e_semear
from tests.helpers import cenario_processo


def test_documento_processo(
    sqlite_modelo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    arquivo = tmp_path / "secretaria.sqlite"
    shutil.copyfile(sqlite_modelo, arquivo)
    url = f"sqlite:///{arquivo}"
    banco = abrir_e_semear(url)
    try:
        caso = cenario_processo.montar(banco, monkeypatch)
    finally:
        banco.fechar()

    destino = tmp_path / "processo.pdf"
    codigo = cli.main(["documento", "processo", caso.numero.lstrip("0"), "-o", str(destino), "--db", url])
    saida = capsys.readouterr()
    assert codigo == 0, saida.err
    conteudo = destino.read_bytes()
    sha = hashlib.sha256(conteudo).hexdigest()
    assert f"Cópia integral do processo do auto nº {caso.numero} (emitido agora, documento nº" in saida.out
    assert f"SHA-256: {sha}" in saida.out
    paginas = PdfReader(io.BytesIO(conteudo)).pages
    assert "CÓPIA INTEGRAL DO PROCESSO" in paginas[0].extract_text()
    assert f"fl. {len(paginas)}\nAI {caso.numero}" in paginas[-1].extract_text()

    # Again: the stored document, the same bytes.
    copia = tmp_path / "copia.pdf"
    assert cli.main(["documento", "processo", caso.numero, "-o", str(copia), "--db", url]) == 0
    assert "já emitido em" in capsys.readouterr().out
    assert copia.read_bytes() == conteudo
    banco = abrir_e_semear(url)
    try:
        with banco.leitura() as s:
            achado = re.search(r"documento nº (\d+)", saida.out)
            assert achado is not None
            numero = int(achado[1])
            assert obter_documento(s, numero) == conteudo
    finally:
        banco.fechar()

    codigo = cli.main(["documento", "processo", "0099/2026", "-o", str(tmp_path / "x.pdf"), "--db", url])
    assert codigo == 2 and "Auto de infração nº 0099/2026 não encontrado." in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()
