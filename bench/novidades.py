"""The bench's rows for this turn's new work, each on scratch data of its own (the big city is not needed).

- "processo": the complete case file (cópia integral, `documento processo`) of a 40-piece case, to the file;
  the plain way is the same case's stored PDFs joined by pypdf (no cover, index, folios or record pages).
- "auditoria": one audited act (an auto drawn up) and the audit row alone, per act: on PostgreSQL appended by
  the database (`secretaria_auditar`, migration 0019), on SQLite in the program.
- "dist": the frozen folder of `make dist` (dist/Secretaria here, in /work/ci2 or in /work/ci1): its size and
  its start to the login window; "não montado" when no folder exists.

Scratch databases: a SQLite file in a temporary folder, or a PostgreSQL database `secretaria_medida_<parte>`
created and dropped here (never one of the cached `secretaria_bench*` databases).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench import gerador
from bench.medidas import Resultado, cronometrar, falha
from secretaria.db import Banco, url_sqlite

PECAS = 40
ATOS = 200
RAIZ = Path(__file__).resolve().parent.parent
PASTAS_DIST = (
    RAIZ / "dist" / "Secretaria",
    Path("/work/ci2/dist/Secretaria"),
    Path("/work/ci1/dist/Secretaria"),
)


@contextmanager
def _banco_temporario(nome_banco: str, parte: str) -> Iterator[Banco]:
    from secretaria.services.semente import abrir_e_semear

    with tempfile.TemporaryDirectory(prefix=f"bench-{parte}-") as pasta:
        if nome_banco == "SQLite":
            url = url_sqlite(Path(pasta) / f"{parte}.sqlite")
        else:
            url = f"{gerador.PG_SERVIDOR}/secretaria_medida_{parte}"
        gerador.esvaziar(url)
        banco = abrir_e_semear(url)
        try:
            yield banco
        finally:
            banco.fechar()
            if nome_banco != "SQLite":
                from bench.importacao import _apagar_pg

                _apagar_pg(url)


def _caso_de_40_pecas(banco: Banco, monkeypatch: Any) -> int:
    """tests/helpers/cenario_processo's case, with scanned PDFs and photos attached until it has 40 pieces."""
    from secretaria.reports.intimacao import IntimacaoPdf
    from secretaria.services.autos import anexar_evidencia
    from secretaria.services.processo_integral import dados_processo_integral
    from tests.helpers import amostras_documentos, arquivos_prova, cenario_processo

    caso = cenario_processo.montar(banco, monkeypatch)
    with banco.leitura() as s:
        faltam = PECAS - len(dados_processo_integral(s, caso.auto_id).pecas)
    digitalizado = IntimacaoPdf().render(amostras_documentos.intimacao())
    for i in range(faltam):
        nome, conteudo = (
            (f"digitalizacao-{i}.pdf", digitalizado + f"%{i}\n".encode())
            if i % 2
            else (f"foto-{i}.png", arquivos_prova.png(str(i).encode()))
        )
        anexar_evidencia(
            banco.uow(),
            cenario_processo.ATORES["fiscal"],
            auto_id=caso.auto_id,
            nome_arquivo=nome,
            conteudo=conteudo,
        )
    return caso.auto_id


def medir_processo(nome_banco: str) -> list[Resultado]:
    import pypdf
    import pytest

    from secretaria.reports.processo_integral import montar_processo_integral
    from secretaria.services.documentos import emitir_documento
    from secretaria.services.processo_integral import dados_processo_integral
    from tests.helpers import cenario_processo

    medida = f"Cópia integral de um processo de {PECAS} peças, até o arquivo"
    try:
        with pytest.MonkeyPatch.context() as mp, _banco_temporario(nome_banco, "processo") as banco:
            auto_id = _caso_de_40_pecas(banco, mp)
            ator = cenario_processo.ATORES["secretario"]
            with banco.leitura() as s:
                dados = dados_processo_integral(s, auto_id)
            montar_processo_integral(dados)  # warm-up: fonts and the report's modules
            t_dados, _ = cronometrar(lambda: _ler_dados(banco, auto_id))
            t_pdf, pdf = cronometrar(lambda: montar_processo_integral(dados))
            t_nosso, _ = cronometrar(
                lambda: emitir_documento(banco.uow(), ator, tipo="processo", auto_id=auto_id)
            )

            def juntar() -> bytes:
                with banco.leitura() as s:
                    pecas = dados_processo_integral(s, auto_id).pecas
                escritor = pypdf.PdfWriter()
                for peca in pecas:
                    if peca.formato == "pdf":
                        escritor.append(io.BytesIO(peca.conteudo))
                saida = io.BytesIO()
                escritor.write(saida)
                return saida.getvalue()

            t_simples, _ = cronometrar(juntar)
            paginas = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    except Exception as exc:
        return [falha(medida, nome_banco, exc)]
    return [
        Resultado(
            medida,
            nome_banco,
            t_nosso,
            t_simples,
            "os PDFs guardados do mesmo caso juntados pelo pypdf (sem capa, índice, folhas nem registros)",
            5.0,
            nota=f"{len(dados.pecas)} peças, {paginas} páginas, {len(pdf) / 1e6:.2f} MB; dados {t_dados:.2f} s, "
            f"PDF {t_pdf:.2f} s; emitir_documento inteiro (grava e audita)",
        )
    ]


def _ler_dados(banco: Banco, auto_id: int) -> Any:
    from secretaria.services.processo_integral import dados_processo_integral

    with banco.leitura() as s:
        return dados_processo_integral(s, auto_id)


def medir_auditoria(nome_banco: str, atos: int = ATOS) -> list[Resultado]:
    import pytest
    import sqlalchemy as sa

    from secretaria.models import Auditoria
    from secretaria.services import auditoria
    from tests.helpers import fabrica

    como = "pelo banco (secretaria_auditar)" if nome_banco == "PostgreSQL" else "no programa"
    medida_ato = "Um ato auditado (lavrar auto), por ato"
    medida_linha = "Só a linha de auditoria de um ato, por ato"
    try:
        with pytest.MonkeyPatch.context() as mp, _banco_temporario(nome_banco, "auditoria") as banco:
            cidade = fabrica.popular(banco)
            r = fabrica.Roteiro(banco, cidade, mp)
            ator = fabrica.ATORES["fiscal"]
            for _ in range(10):  # warm-up
                r.lavrar()
            # With and without the row in alternating rounds, so the machine's load and the tables' growth
            # fall on both alike; without it the act is the same, the actor still checked.
            t_atos = t_sem = 0.0
            rodada = 20
            for _ in range(atos // rodada):
                t_atos += cronometrar(lambda: [r.lavrar() for _ in range(rodada)])[0]
                with pytest.MonkeyPatch.context() as sem:
                    sem.setattr(auditoria, "_anexar", lambda *_a, **_k: None)
                    t_sem += cronometrar(lambda: [r.lavrar() for _ in range(rodada)])[0]

            def so_linhas() -> None:
                for i in range(atos):
                    with banco.uow() as uow:
                        auditoria._anexar(
                            uow.session, ator.login, "medida", "bench", i, None, {"i": i}, ator.chave
                        )
                        uow.commit()

            t_linhas, _ = cronometrar(so_linhas)

            def transacoes_vazias() -> None:
                for _ in range(atos):
                    with banco.uow() as uow:
                        uow.session.execute(sa.select(1))
                        uow.commit()

            t_vazias, _ = cronometrar(transacoes_vazias)
            with banco.leitura() as s:
                linhas = s.scalar(sa.select(sa.func.count()).select_from(Auditoria))
    except Exception as exc:
        return [falha(medida_ato, nome_banco, exc), falha(medida_linha, nome_banco, exc)]
    return [
        Resultado(
            medida_ato,
            nome_banco,
            t_atos / atos,
            t_sem / atos,
            "o mesmo ato sem a linha de auditoria (o usuário ainda conferido)",
            None,
            nota=f"média de {atos} autos lavrados, auditoria {como}; a linha custa "
            f"{(t_atos - t_sem) / atos * 1e6:.0f} µs por ato",
        ),
        Resultado(
            medida_linha,
            nome_banco,
            t_linhas / atos,
            t_vazias / atos,
            "uma transação vazia (SELECT 1 e COMMIT, nada gravado em disco)",
            None,
            nota=f"média de {atos} linhas anexadas {como}, cada uma na sua transação; "
            f"auditoria com {linhas} linhas ao fim",
        ),
    ]


def pasta_dist() -> Path | None:
    return next((p for p in PASTAS_DIST if (p / "secretaria").is_file()), None)


def _tamanho(pasta: Path) -> int:
    return sum(f.stat().st_size for f in pasta.rglob("*") if f.is_file() and not f.is_symlink())


def medir_dist(nome_banco: str) -> list[Resultado]:
    """The same start the CI's smoke test times (empacotamento/testar_pasta.sh): the frozen program opens the
    demo offscreen under SECRETARIA_FUMACA, which writes the moment the login window was painted."""
    medida_tam = "Pasta do make dist: tamanho"
    medida_inicio = "Programa montado: início até a janela de login"
    pasta = pasta_dist()
    if pasta is None:
        nota = "não montado (nenhuma dist/Secretaria aqui, em /work/ci2 nem em /work/ci1)"
        return [
            Resultado(medida_tam, nome_banco, None, unidade="MB", nota=nota),
            Resultado(medida_inicio, nome_banco, None, meta=1.0, nota=nota),
        ]
    resultados = [
        Resultado(
            medida_tam,
            nome_banco,
            _tamanho(pasta) / 1e6,
            unidade="MB",
            nota=f"{pasta} (montada em {time.strftime('%d/%m/%Y %H:%M', time.localtime(pasta.stat().st_mtime))})",
        )
    ]
    try:
        resultados.append(_inicio_dist(pasta, medida_inicio, nome_banco))
    except Exception as exc:
        resultados.append(falha(medida_inicio, nome_banco, exc))
    return resultados


def _inicio_dist(pasta: Path, medida: str, nome_banco: str, vezes: int = 3) -> Resultado:
    tmp = Path(tempfile.mkdtemp(prefix="bench-dist-"))
    try:
        for sub in ("casa/Documents", "dados", "vazio"):
            (tmp / sub).mkdir(parents=True)
        ambiente = {
            "PATH": str(tmp / "vazio"),
            "HOME": str(tmp / "casa"),
            "XDG_DATA_HOME": str(tmp / "dados"),
            "LANG": "C.UTF-8",
        }
        programa = str(pasta / "secretaria")
        banco = f"sqlite:///{tmp / 'demo.sqlite'}"
        subprocess.run(
            [programa, "demo", "--db", banco],
            env=ambiente,
            cwd=tmp,
            check=True,
            capture_output=True,
            timeout=600,
        )
        tempos: list[float] = []
        for i in range(vezes):
            fumaca = tmp / f"fumaca-{i}.json"
            env = ambiente | {
                "QT_QPA_PLATFORM": "offscreen",
                "SECRETARIA_FUMACA": str(fumaca),
                "SECRETARIA_SELETOR_TESTE": '{"nomes": []}',
            }
            inicio = time.time()
            subprocess.run(
                [programa, "demo", "--abrir", "--db", banco],
                env=env,
                cwd=tmp,
                check=True,
                capture_output=True,
                timeout=300,
            )
            tempos.append(float(json.loads(fumaca.read_text())["login_pintado"]) - inicio)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    tempos.sort()
    return Resultado(
        medida,
        nome_banco,
        tempos[len(tempos) // 2],
        None,
        "",
        1.0,
        nota=f"mediana de {vezes} (offscreen, SECRETARIA_FUMACA, como empacotamento/testar_pasta.sh); "
        f"todas: {', '.join(f'{t:.2f} s' for t in tempos)}; carga {os.getloadavg()[0]:.1f}",
    )
