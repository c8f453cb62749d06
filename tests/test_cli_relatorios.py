"""`secretaria relatorio mensal` and `secretaria documento …`: files written, messages, exit codes.

Run in-process on a SQLite copy holding the November 2026 scenario of tests/helpers/cenario_documentos.py
(the command line is the same on PostgreSQL: the services under it are tested on both).
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from secretaria import cli
from secretaria.services.semente import abrir_e_semear
from tests.helpers import cenario_documentos as cen


@pytest.fixture
def base(sqlite_modelo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Any]:
    """The scenario's database URL (today is 30/11/2026 for the services) and the scenario."""
    arquivo = tmp_path / "secretaria.sqlite"
    shutil.copyfile(sqlite_modelo, arquivo)
    url = f"sqlite:///{arquivo}"
    banco = abrir_e_semear(url)
    try:
        cenario = cen.montar(banco, monkeypatch)
    finally:
        banco.fechar()
    return url, cenario


def rodar(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    codigo = cli.main(list(argv))
    saida = capsys.readouterr()
    return codigo, saida.out, saida.err


def test_relatorio_mensal(base: tuple[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url, _cenario = base
    destino = tmp_path / "novembro.xlsx"
    codigo, out, err = rodar(capsys, "relatorio", "mensal", "2026-11", "-o", str(destino), "--db", url)
    assert codigo == 0, err
    assert f"Planilha de 11/2026 gravada em {destino}: 5 autos lavrados" in out
    assert load_workbook(destino).sheetnames[0] == "Autos"
    assert err == ""  # a small month prints no progress

    for mes, mensagem in (
        ("2026-13", "Mês inválido: 13. Use um mês de 1 a 12."),
        ("novembro", "Escreva o mês como AAAA-MM, por exemplo 2026-11."),
        ("2027-01", "O mês 01/2027 ainda não começou (hoje é 30/11/2026)."),
    ):
        outro = tmp_path / f"recusado-{mes}.xlsx"
        codigo, _out, err = rodar(capsys, "relatorio", "mensal", mes, "-o", str(outro), "--db", url)
        assert codigo == 2 and err.startswith("secretaria: ") and mensagem in err
        assert not outro.exists()
    codigo, _out, err = rodar(
        capsys, "relatorio", "mensal", "2026-11", "-o", str(tmp_path / "nao" / "x.xlsx"), "--db", url
    )
    assert codigo == 2 and "não existe; nada foi gravado" in err


def test_documentos_pelo_numero_e_pelo_cnpj(
    base: tuple[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, cenario = base
    numero = cenario.numeros[cenario.multado]
    pdf = tmp_path / "auto.pdf"
    codigo, out, err = rodar(capsys, "documento", "auto", numero, "-o", str(pdf), "--db", url)
    assert codigo == 0, err
    conteudo = pdf.read_bytes()
    assert conteudo.startswith(b"%PDF") and len(PdfReader(io.BytesIO(conteudo)).pages) == 2
    assert f"Auto de infração nº {numero} (emitido agora" in out
    assert f"SHA-256: {hashlib.sha256(conteudo).hexdigest()}" in out
    # again: the stored document, byte for byte
    codigo, out, _err = rodar(capsys, "documento", "auto", numero.lstrip("0"), "-o", str(pdf), "--db", url)
    assert codigo == 0 and "já emitido em 30/11/2026" in out and pdf.read_bytes() == conteudo

    ficha = tmp_path / "ficha.pdf"
    codigo, out, err = rodar(
        capsys, "documento", "ficha", "11.222.333/0001-81", "-o", str(ficha), "--db", url
    )
    assert codigo == 0, err
    assert "Viação Princesa do Sul Ltda." in PdfReader(ficha).pages[0].extract_text()

    lote = tmp_path / "lote.pdf"
    codigo, out, err = rodar(
        capsys, "documento", "intimacoes", "01/11/2026", "30/11/2026", "-o", str(lote), "--db", url
    )
    assert codigo == 0, err
    assert "Lote de intimações de 01/11/2026 a 30/11/2026" in out and len(PdfReader(lote).pages) == 3
    decisao = tmp_path / "decisao.pdf"
    codigo, out, err = rodar(capsys, "documento", "decisao", numero, "-o", str(decisao), "--db", url)
    assert codigo == 0 and "R$ 49,42" in PdfReader(decisao).pages[0].extract_text()

    recusas = (
        (("documento", "auto", "0099/2026"), "Auto de infração nº 0099/2026 não encontrado."),
        (("documento", "auto", "noventa"), "Número de auto inválido: “noventa”. Use NNNN/AAAA"),
        (("documento", "ficha", "11.222.333/0001-82"), "O dígito verificador do CNPJ não confere."),
        (
            ("documento", "ficha", "12.345.678/0001-95"),
            "Nenhuma operadora cadastrada com o CNPJ 12.345.678/0001-95",
        ),
        (("documento", "decisao", cenario.numeros[cenario.em_defesa]), "ainda não foi decidido"),
        (
            ("documento", "intimacoes", "31/11/2026", "30/11/2026"),
            "Data inválida: “31/11/2026”. Use DD/MM/AAAA",
        ),
    )
    for argumentos, mensagem in recusas:
        alvo = tmp_path / "recusado.pdf"
        codigo, _out, err = rodar(capsys, *argumentos, "-o", str(alvo), "--db", url)
        assert codigo == 2 and err.startswith("secretaria: ") and mensagem in err, (argumentos, err)
        assert not alvo.exists()


def test_linha_de_progresso_num_registro(monkeypatch: pytest.MonkeyPatch) -> None:
    erros = io.StringIO()
    monkeypatch.setattr(sys, "stderr", erros)
    progresso = cli._progresso_planilha(minimo=5_000)
    for feitas in range(0, 20_001, 1_000):
        progresso(feitas, 20_000)
    linhas = erros.getvalue().splitlines()
    assert linhas[0] == "Planilha: 0/20.000 linhas" and linhas[-1] == "Planilha: 20.000/20.000 linhas"
    assert len(linhas) == 11  # one per tenth, not one per call
    pequeno = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pequeno)
    cli._progresso_planilha(minimo=5_000)(100, 100)
    assert pequeno.getvalue() == ""


def test_linha_de_comando_nao_carrega_reportlab_nem_openpyxl_ao_iniciar() -> None:
    codigo = (
        "import sys, secretaria.cli as c; c._parser(); "
        "print(sorted(m for m in ('reportlab', 'openpyxl', 'PySide6') if m in sys.modules))"
    )
    ambiente = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    saida = subprocess.run(
        [sys.executable, "-c", codigo], capture_output=True, text=True, check=True, env=ambiente
    ).stdout
    assert saida.strip() == "[]"


def test_intimacao_do_termo_e_julgamento_pela_linha_de_comando(
    base: tuple[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """REGRAS § 5: after a correction of substance the termo's intimação (with the corrected auto's copy);
    after the appeal's judgment, its notice; the auto's earlier intimação reprinted is the stored paper."""
    from datetime import date

    from secretaria.services.retificacoes import PedidoRetificacao, retificar_auto

    url, cenario = base
    numero = cenario.numeros[cenario.aguardando]
    antes = tmp_path / "intimacao-antes.pdf"
    codigo, _out, err = rodar(capsys, "documento", "intimacao", numero, "-o", str(antes), "--db", url)
    assert codigo == 0, err
    banco = abrir_e_semear(url)
    try:
        retificar_auto(
            banco.uow(),
            cen.ATORES["fiscal"],
            PedidoRetificacao(
                auto_id=cenario.aguardando,
                alteracoes={"dispositivo_codigo": "1-V"},
                motivo="Dispositivo errado.",
            ),
        )
        retificar_auto(
            banco.uow(),
            cen.ATORES["fiscal"],
            PedidoRetificacao(
                auto_id=cenario.aguardando,
                alteracoes={"descricao_fatos": "Veículo com bancos rasgados."},
                motivo="Fatos incompletos.",
            ),
        )
        cenario.roteiro.recorrer(cenario.multado, date(2026, 11, 30))
        cenario.roteiro.julgar(cenario.multado, date(2026, 11, 30), "negado")
    finally:
        banco.fechar()
    de_novo = tmp_path / "intimacao-de-novo.pdf"
    codigo, out, err = rodar(capsys, "documento", "intimacao", numero, "-o", str(de_novo), "--db", url)
    assert codigo == 0 and "já emitido em 30/11/2026" in out and de_novo.read_bytes() == antes.read_bytes()

    # Two termos of substance await their intimação: each is issued (the first by --termo), the last by default.
    termo = tmp_path / "termo.pdf"
    codigo, out, err = rodar(
        capsys, "documento", "intimacao-termo", numero, "--termo", "1/2026", "-o", str(termo), "--db", url
    )
    assert codigo == 0, err
    assert "Intimação do termo de retificação nº 0001/2026 (emitido agora" in out
    texto = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(termo).pages)
    assert "INTIMAÇÃO DE TERMO DE RETIFICAÇÃO" in texto and "CÓPIA DO AUTO RETIFICADO" in texto
    assert "Termo de Retificação nº 0001/2026" in texto
    ultimo = tmp_path / "termo-2.pdf"
    codigo, out, err = rodar(capsys, "documento", "intimacao-termo", numero, "-o", str(ultimo), "--db", url)
    assert codigo == 0, err
    assert "Intimação do termo de retificação nº 0002/2026 (emitido agora" in out
    codigo, out, err = rodar(
        capsys, "documento", "intimacao-termo", numero, "--termo", "9/2026", "-o", str(ultimo), "--db", url
    )
    assert codigo != 0 and "Termo de retificação nº 0009/2026 não encontrado neste auto." in err

    julgamento = tmp_path / "julgamento.pdf"
    numero_multado = cenario.numeros[cenario.multado]
    codigo, out, err = rodar(
        capsys, "documento", "julgamento", numero_multado, "-o", str(julgamento), "--db", url
    )
    assert codigo == 0, err
    assert "RECURSO NÃO PROVIDO" in PdfReader(julgamento).pages[0].extract_text()
