"""Each figure of the benchmark, beside the plain way of doing the same thing, measured in the same run.

Every `medir_*` function returns `Resultado` rows. A measurement whose code is missing (a module not written
yet) or that fails returns a row with the reason instead of a figure, so the table always prints.

Clock: the services read `relogio.hoje()`; the benchmark moves it to the day the city was generated for, so
queues and deadlines mean the same on every rerun of a cached city.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import json
import os
import re
import statistics
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from datetime import time as dt_time
from decimal import Decimal
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.models import AutoInfracao, Base

RAIZ = Path(__file__).resolve().parent.parent
META_CONGELAMENTO = 0.1
"""No long action may keep the window from painting for longer than this (seconds)."""


@dataclass
class Resultado:
    """One row of the table: our figure, the plain way's figure, and the goal."""

    medida: str
    banco: str
    valor: float | None  # seconds, or MB when unidade == "MB"
    simples: float | None = None
    descricao_simples: str = ""
    meta: float | None = None
    unidade: str = "s"
    nota: str = ""
    congelamento: float | None = None  # seconds: the longest the window's event loop did not run

    @property
    def atingida(self) -> bool | None:
        metas: list[bool] = []
        if self.valor is not None and self.meta is not None:
            metas.append(self.valor <= self.meta)
        if self.congelamento is not None:
            metas.append(self.congelamento <= META_CONGELAMENTO)
        return all(metas) if metas else None

    @property
    def razao(self) -> float | None:
        if self.valor is None or self.simples is None or self.valor <= 0:
            return None
        return self.simples / self.valor


def falha(
    medida: str, banco: str, exc: BaseException, meta: float | None = None, unidade: str = "s"
) -> Resultado:
    if isinstance(exc, ImportError):
        motivo = f"não medido: {exc.name or exc} ainda não existe"
    elif isinstance(exc, subprocess.TimeoutExpired):
        motivo = f"erro: o processo não terminou em {exc.timeout:.0f} s"
    else:
        ultima = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        onde = f" ({Path(ultima.filename).name}:{ultima.lineno})" if ultima else ""
        motivo = f"erro: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}{onde}"
    return Resultado(medida, banco, None, meta=meta, unidade=unidade, nota=motivo)


def cronometrar(funcao: Callable[[], Any]) -> tuple[float, Any]:
    inicio = time.perf_counter()
    valor = funcao()
    return time.perf_counter() - inicio, valor


def mediana(funcao: Callable[[], Any], vezes: int) -> float:
    tempos = []
    for _ in range(vezes):
        inicio = time.perf_counter()
        funcao()
        tempos.append(time.perf_counter() - inicio)
    return statistics.median(tempos)


# --------------------------------------------------------------------------------------------------------
# "Without its index": the same query after DROP INDEX inside a transaction that is rolled back
# --------------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def sem_indices(banco: Banco, tabelas: Sequence[str], nomes: Sequence[str] | None = None) -> Iterator[Any]:
    """A session in which the named indexes (default: every plain index of `tabelas`) do not exist.

    DDL is transactional on SQLite and PostgreSQL: the drop is rolled back at the end, nothing changes.
    """
    alvos = list(nomes or [])
    if nomes is None:
        for t in tabelas:
            alvos += [i.name for i in Base.metadata.tables[t].indexes if i.name]
    sessao = banco.fabrica()
    try:
        for nome in alvos:
            sessao.execute(sa.text(f'DROP INDEX IF EXISTS "{nome}"'))
        yield sessao
    finally:
        sessao.rollback()
        sessao.close()


# --------------------------------------------------------------------------------------------------------
# 1. The autos list (offscreen Qt)
# --------------------------------------------------------------------------------------------------------


def _aplicacao() -> Any:
    from secretaria.ui.aplicacao import configurar_aplicacao

    return configurar_aplicacao()


def _com_a_coleta_da_janela(medir: Callable[..., list[Resultado]]) -> Callable[..., list[Resultado]]:
    """A part that measures windows, measured as the program runs them: cyclic collections in the GUI thread
    only (`coletar_so_na_thread_da_janela`); the automatic collector back afterwards, for the parts that
    measure what the command line and the services do."""

    @functools.wraps(medir)
    def como_a_janela(*args: Any, **kwargs: Any) -> list[Resultado]:
        from secretaria.ui.widgets.tarefas import coletar_so_na_thread_da_janela, devolver_a_coleta_ao_python

        _aplicacao()
        coletar_so_na_thread_da_janela()
        try:
            return medir(*args, **kwargs)
        finally:
            devolver_a_coleta_ao_python()

    return como_a_janela


def _esperar_pintura(app: Any, alvo: Any, acao: Callable[[], Any], limite: float = 600.0) -> float:
    """Seconds from the start of `acao()` until `alvo` (a widget) has painted."""
    from PySide6.QtCore import QEvent, QObject

    class Espia(QObject):
        pintou = False

        def eventFilter(self, _obj: Any, evento: Any) -> bool:
            if evento.type() == QEvent.Type.Paint:
                Espia.pintou = True
            return False

    espia = Espia()
    inicio = time.perf_counter()
    resultado = acao()
    widget = alvo() if callable(alvo) and not hasattr(alvo, "installEventFilter") else alvo
    widget.installEventFilter(espia)
    if hasattr(widget, "update"):
        widget.update()
    while not Espia.pintou:
        app.processEvents()
        if time.perf_counter() - inicio > limite:
            raise TimeoutError("a tabela não foi pintada")
    app.processEvents()
    decorrido = time.perf_counter() - inicio
    widget.removeEventFilter(espia)
    del resultado
    return decorrido


TERMO_BUSCA = "laranjal"


@_com_a_coleta_da_janela
def medir_lista(banco: Banco, nome_banco: str, hoje: date) -> list[Resultado]:
    """Open the autos list page, scroll to the end, search; the plain way is a QTableWidget of every row."""
    medidas = (
        "Lista de autos: abrir até a 1ª pintura",
        "Lista de autos: rolar até o fim",
        f"Lista de autos: busca “{TERMO_BUSCA}”",
    )
    metas = (0.5, 0.03, 0.05)  # the goals: scrolling to the end ≤ 30 ms, the search ≤ 50 ms
    try:
        from PySide6.QtWidgets import QTableWidget, QTableWidgetItem

        from secretaria.services import listas
        from secretaria.services.base import Ator
        from secretaria.ui.contexto import Contexto
        from secretaria.ui.modelo_tabela import formatar_celula
        from secretaria.ui.processo.paginas import PaginaAutos
    except ImportError as exc:
        return [falha(m, nome_banco, exc, meta) for m, meta in zip(medidas, metas, strict=True)]
    app = _aplicacao()
    contexto = Contexto(banco, Ator("consulta", "Clara Consulta", frozenset({"consulta"})), demo=False)
    resultados: list[Resultado] = []
    paginas: list[Any] = []

    def abrir() -> Any:
        p = PaginaAutos(contexto)
        p.resize(1280, 800)
        p.show()
        paginas.append(p)
        return p

    t_abrir = _esperar_pintura(app, lambda: paginas[0].tabela.viewport(), abrir)
    pagina = paginas[0]
    total = pagina.modelo.total
    t_fim = _esperar_pintura(app, pagina.tabela.viewport(), pagina.tabela.scrollToBottom)

    def buscar(termo: str) -> float:
        """The search as the window runs it (read off the GUI thread, the GUI thread waiting in its event
        loop as the program's does), until its rows have painted. Not a loop of `processEvents()`: spinning,
        it held Python's lock against the reading thread and added 15–20 ms the program does not spend."""
        from PySide6.QtCore import QEventLoop, QTimer

        mostrada: list[bool] = []
        laco = QEventLoop()

        def depois() -> None:
            mostrada.append(True)
            laco.quit()

        inicio = time.perf_counter()
        pagina.busca.setText(termo)
        pagina.buscar_em_segundo_plano(depois=depois)
        if not mostrada:
            limite = QTimer()
            limite.setSingleShot(True)
            limite.timeout.connect(laco.quit)
            limite.start(600_000)
            laco.exec()
            limite.stop()
        if not mostrada:
            raise TimeoutError("a busca não terminou")
        return (time.perf_counter() - inicio) + _esperar_pintura(app, pagina.tabela.viewport(), lambda: None)

    tempos_busca = []
    for _ in range(
        3
    ):  # one search is noisy (75–148 ms on PostgreSQL): the median of three, each from all rows
        buscar("")
        tempos_busca.append(buscar(TERMO_BUSCA))
    t_busca = statistics.median(tempos_busca)
    achados = pagina.modelo.total
    pagina.close()
    pagina.deleteLater()
    app.processEvents()

    # The plain way: load every row and fill a QTableWidget item by item.
    colunas = listas.definicao("autos").colunas
    tabela: list[Any] = []

    def encher() -> Any:
        with banco.leitura() as s:
            linhas = list(listas.exportar_linhas(s, "autos"))
        w = QTableWidget(len(linhas), len(colunas))
        w.setHorizontalHeaderLabels([c.cabecalho for c in colunas])
        textos = []
        for i, linha in enumerate(linhas):
            valores = [formatar_celula(v) for v in linha[1:]]
            textos.append(" ".join(valores).lower())
            for j, texto in enumerate(valores):
                w.setItem(i, j, QTableWidgetItem(texto))
        w.resize(1280, 800)
        w.show()
        tabela.append((w, textos))
        return w

    s_abrir = _esperar_pintura(app, lambda: tabela[0][0].viewport(), encher)
    w, textos = tabela[0]
    s_fim = _esperar_pintura(app, w.viewport(), w.scrollToBottom)

    def filtrar() -> None:
        w.setUpdatesEnabled(False)
        for i, texto in enumerate(textos):
            w.setRowHidden(i, TERMO_BUSCA not in texto)
        w.setUpdatesEnabled(True)

    s_busca = _esperar_pintura(app, w.viewport(), filtrar)
    w.close()
    w.deleteLater()
    _apagar_pendentes()
    tabela.clear()

    simples = "QTableWidget com todas as linhas, item a item"
    resultados.append(
        Resultado(medidas[0], nome_banco, t_abrir, s_abrir, simples, metas[0], nota=f"{total} autos")
    )
    resultados.append(
        Resultado(medidas[1], nome_banco, t_fim, s_fim, "QTableWidget.scrollToBottom", metas[1])
    )
    resultados.append(
        Resultado(
            medidas[2],
            nome_banco,
            t_busca,
            s_busca,
            "esconder linha a linha as que não contêm o texto",
            metas[2],
            nota=f"{achados} achados; lida fora da janela, até a pintura; mediana de 3",
        )
    )
    return resultados


# --------------------------------------------------------------------------------------------------------
# 2. The sanction panel
# --------------------------------------------------------------------------------------------------------


def par_mais_longo(banco: Banco) -> tuple[int, str, int]:
    """The operator with the most autos, and its provision with the most autos: (operator, provision, n)."""
    a = AutoInfracao
    with banco.leitura() as s:
        operadora = s.execute(
            sa.select(a.operadora_id).group_by(a.operadora_id).order_by(sa.func.count().desc()).limit(1)
        ).scalar_one()
        codigo, n = s.execute(
            sa.select(a.dispositivo_codigo, sa.func.count())
            .where(a.operadora_id == operadora)
            .group_by(a.dispositivo_codigo)
            .order_by(sa.func.count().desc())
            .limit(1)
        ).one()
    return int(operadora), str(codigo), int(n)


def medir_sancao(banco: Banco, nome_banco: str, hoje: date, vezes: int = 200) -> list[Resultado]:
    medida = "Painel de sanção (mediana de 200)"
    try:
        from secretaria.services.sancao import avaliar_sancao
    except ImportError as exc:
        return [falha(medida, nome_banco, exc, 0.005)]
    operadora, codigo, n = par_mais_longo(banco)

    def uma(sessao: Any) -> None:
        avaliar_sancao(sessao, operadora_id=operadora, dispositivo_codigo=codigo, data_infracao=hoje)

    def com_sessao() -> None:
        with banco.leitura() as s:
            uma(s)

    com_sessao()  # warm the connection pool and the catalogue cache
    valor = mediana(com_sessao, vezes)
    with sem_indices(banco, (), ["ix_auto_recidiva"]) as s:
        uma(s)
        simples = mediana(lambda: uma(s), max(20, vezes // 10))
    return [
        Resultado(
            medida,
            nome_banco,
            valor,
            simples,
            "a mesma consulta sem o índice ix_auto_recidiva",
            0.005,
            nota=f"operadora {operadora}, {codigo}: {n} autos",
        )
    ]


# --------------------------------------------------------------------------------------------------------
# 3. The home screen's queues
# --------------------------------------------------------------------------------------------------------

_TABELAS_FILAS = ("auto_infracao", "pagamento", "recurso", "veiculo", "suspensao", "representacao", "decisao")


def medir_filas(banco: Banco, nome_banco: str, hoje: date, vezes: int = 15) -> list[Resultado]:
    try:
        from secretaria.services import filas
    except ImportError as exc:
        return [falha("Filas da tela inicial", nome_banco, exc, 0.05)]
    with banco.leitura() as s:
        todas = filas.painel(s, hoje)
    funcoes: list[tuple[str, Callable[[Any], Any]]] = [
        ("aguardando_intimacao", lambda s: filas.autos_aguardando_intimacao(s, hoje)),
        ("defesas_a_vencer", lambda s: filas.defesas_a_vencer(s, hoje)),
        ("decisoes_atrasadas", lambda s: filas.decisoes_atrasadas(s, hoje)),
        ("decisoes_aguardando_intimacao", lambda s: filas.decisoes_aguardando_intimacao(s, hoje)),
        ("recursos_em_prazo", lambda s: filas.recursos_em_prazo(s, hoje)),
        ("recursos_aguardando_julgamento", lambda s: filas.recursos_aguardando_julgamento(s, hoje)),
        ("multas_em_aberto", lambda s: filas.multas_definitivas_em_aberto(s, hoje)),
        ("veiculos_vencidos", lambda s: filas.veiculos_vencidos(s, hoje)),
        ("operadoras_suspensas", lambda s: filas.operadoras_suspensas(s, hoje)),
        ("representacoes_pendentes", lambda s: filas.representacoes_pendentes(s, hoje)),
    ]
    titulos = {f.chave: (f.titulo, f.total) for f in todas}
    resultados = []
    simples: dict[str, float] = {}
    with sem_indices(banco, _TABELAS_FILAS) as s:
        for chave, funcao in funcoes:
            funcao(s)
            simples[chave] = mediana(lambda f=funcao: f(s), max(3, vezes // 3))  # type: ignore[misc]
    for chave, funcao in funcoes:

        def uma(f: Callable[[Any], Any] = funcao) -> None:
            with banco.leitura() as s:
                f(s)

        uma()
        valor = mediana(uma, vezes)
        titulo, total = titulos.get(chave, (chave, 0))
        resultados.append(
            Resultado(
                f"Fila: {titulo}",
                nome_banco,
                valor,
                simples[chave],
                "sem os índices das tabelas consultadas",
                0.05,
                nota=f"{total} na fila",
            )
        )
    return resultados


# --------------------------------------------------------------------------------------------------------
# 4. The monthly spreadsheet (fresh process: its own peak memory)
# --------------------------------------------------------------------------------------------------------


def mes_mais_cheio(banco: Banco) -> tuple[int, int, int]:
    a = AutoInfracao
    ano = sa.extract("year", a.data_lavratura)
    mes = sa.extract("month", a.data_lavratura)
    with banco.leitura() as s:
        r = s.execute(
            sa.select(ano, mes, sa.func.count()).group_by(ano, mes).order_by(sa.func.count().desc()).limit(1)
        ).one()
    return int(r[0]), int(r[1]), int(r[2])


_PLANILHA = r"""
import io, json, resource, sys, time
sys.path.insert(0, {raiz!r})
from secretaria.db import abrir_banco
from secretaria import relogio
relogio.hoje = lambda: __import__("datetime").date.fromisoformat({hoje!r})
banco = abrir_banco({url!r}, migrar=False)
from secretaria.services.relatorios import dados_mensais
inicio = time.perf_counter()
with banco.leitura() as s:
    dados = dados_mensais(s, {ano}, {mes})
consulta = time.perf_counter() - inicio
saida = io.BytesIO()
t = time.perf_counter()
cpu = time.process_time()
if {simples!r}:
    from openpyxl import Workbook
    livro = Workbook()
    livro.remove(livro.active)
    for nome, linhas in (("Autos", dados.autos), ("Penalidades", dados.penalidades), ("Prazos", dados.prazos),
                         ("Pagamentos", dados.pagamentos)):
        aba = livro.create_sheet(nome)
        campos = None
        for linha in linhas:
            if campos is None:
                campos = [f for f in linha.__dataclass_fields__]
                aba.append(campos)
            aba.append([getattr(linha, f) for f in campos])
    livro.save(saida)
else:
    from secretaria.reports.planilha_mensal import gerar_planilha_mensal
    gerar_planilha_mensal(dados, saida)
planilha = time.perf_counter() - t
cpu = time.process_time() - cpu
def _pico():
    # VmHWM belongs to this program's memory map; ru_maxrss would carry the parent's peak across exec.
    try:
        for linha in open("/proc/self/status"):
            if linha.startswith("VmHWM:"):
                return int(linha.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
pico = _pico()
print(json.dumps({{"consulta": consulta, "planilha": planilha, "cpu": cpu, "pico_mb": pico, "bytes": len(saida.getvalue()),
                  "autos": len(dados.autos)}}))
"""


def _subprocesso(codigo: str) -> dict[str, Any]:
    saida = subprocess.run(
        [sys.executable, "-c", codigo], cwd=RAIZ, capture_output=True, text=True, check=False, timeout=1800
    )
    if saida.returncode != 0:
        linhas = [x for x in saida.stderr.strip().splitlines() if x.strip()]
        raise RuntimeError(linhas[-1] if linhas else f"código de saída {saida.returncode}")
    resultado: dict[str, Any] = json.loads(saida.stdout.strip().splitlines()[-1])
    return resultado


META_PLANILHA = 1.5
"""The monthly workbook of the fullest month, query and file (goal 1.5 s; it was 2.5 s)."""


def medir_planilha(banco: Banco, nome_banco: str, hoje: date) -> list[Resultado]:
    medidas = ("Planilha mensal do mês mais cheio: tempo", "Planilha mensal: pico de memória do processo")
    try:
        import secretaria.reports.planilha_mensal
        import secretaria.services.relatorios  # noqa: F401
    except ImportError as exc:
        return [
            falha(medidas[0], nome_banco, exc, META_PLANILHA),
            falha(medidas[1], nome_banco, exc, 150, "MB"),
        ]
    ano, mes, _n = mes_mais_cheio(banco)
    campos = {"raiz": str(RAIZ), "url": banco.url, "ano": ano, "mes": mes, "hoje": hoje.isoformat()}
    nosso = _subprocesso(_PLANILHA.format(simples=False, **campos))
    plano = _subprocesso(_PLANILHA.format(simples=True, **campos))
    nota = (
        f"{mes:02d}/{ano}: {nosso['autos']} autos; consulta {nosso['consulta']:.2f} s + "
        f"xlsx {nosso['planilha']:.2f} s (CPU {nosso['cpu']:.2f} s; {nosso['bytes'] / 1e6:.1f} MB)"
    )
    return [
        Resultado(
            medidas[0],
            nome_banco,
            nosso["consulta"] + nosso["planilha"],
            plano["consulta"] + plano["planilha"],
            "openpyxl em modo normal",
            META_PLANILHA,
            nota=nota,
        ),
        _prazos_do_mes(banco, nome_banco, ano, mes),
        Resultado(
            medidas[1],
            nome_banco,
            nosso["pico_mb"],
            plano["pico_mb"],
            "openpyxl em modo normal",
            150,
            unidade="MB",
            nota="processo inteiro (Python, SQLAlchemy, openpyxl e os dados)",
        ),
    ]


def _prazos_do_mes(banco: Banco, nome_banco: str, ano: int, mes: int, vezes: int = 7) -> Resultado:
    """The workbook's costliest query alone: the deadlines running on the month's last day (issue 31: 146 ms
    on PostgreSQL, a parallel scan of every auto for a few thousand intimações)."""
    from secretaria.services import relatorios

    _inicio, fim = relatorios.periodo_do_mes(ano, mes)
    achados: list[int] = []

    def uma() -> None:
        with banco.leitura() as s:
            achados[:] = [len(relatorios._prazos(s, fim))]

    uma()
    return Resultado(
        "Planilha mensal: prazos correndo no fim do mês (consulta)",
        nome_banco,
        mediana(uma, vezes),
        nota=f"{achados[0]} prazos em {fim:%d/%m/%Y}; mediana de {vezes}",
    )


# --------------------------------------------------------------------------------------------------------
# 5. 1,000 intimações in one batch PDF
# --------------------------------------------------------------------------------------------------------


def _canvas_sem_formas(base: type) -> Any:
    """The plain way: every page draws the letterhead (and each fixed block) anew, no form XObjects."""

    class SemFormas(base):  # type: ignore[misc]
        def hasForm(self, _nome: str) -> bool:
            return False

        def beginForm(self, *_a: Any, **_k: Any) -> None:
            return None

        def endForm(self, *_a: Any, **_k: Any) -> None:
            return None

        def doForm(self, *_a: Any, **_k: Any) -> None:
            return None

    return SemFormas


def medir_lote(banco: Banco, nome_banco: str, hoje: date, quantidade: int = 1000) -> list[Resultado]:
    medida = "Lote de 1.000 intimações em um PDF"
    try:
        from secretaria.reports import pdf_base
        from secretaria.reports.intimacao import LoteIntimacoesPdf
        from secretaria.services.documentos import dados_lote_intimacoes
    except ImportError as exc:
        return [falha(medida, nome_banco, exc, 6.0)]
    from secretaria.reports import dados as dados_pdf

    afrouxado = False
    if not dados_pdf._NUMERO_AUTO.match("10000/2026"):
        # The large city draws up ~20,000 autos a year: numbers pass 9999, which reports/dados.py refuses.
        dados_pdf._NUMERO_AUTO = re.compile(r"^\d{4,}/\d{4}$")
        afrouxado = True
    with banco.leitura() as s:
        t_dados, dados = cronometrar(
            lambda: dados_lote_intimacoes(s, date(1990, 1, 1), hoje, data_entrega=hoje)
        )
    disponiveis = len(dados.intimacoes)
    lista = list(dados.intimacoes)
    while len(lista) < quantidade:
        lista += lista[: quantidade - len(lista)]
    dados = dataclasses.replace(dados, intimacoes=lista[:quantidade])
    LoteIntimacoesPdf().render(dataclasses.replace(dados, intimacoes=lista[:5]))  # imports, fonts
    cpu = time.process_time()
    t_nosso, pdf = cronometrar(lambda: LoteIntimacoesPdf().render(dados))
    cpu = time.process_time() - cpu
    original = pdf_base._CanvasNumerado
    pdf_base._CanvasNumerado = _canvas_sem_formas(original)  # type: ignore[misc]
    try:
        t_plano, pdf_plano = cronometrar(lambda: LoteIntimacoesPdf().render(dados))
    finally:
        pdf_base._CanvasNumerado = original  # type: ignore[misc]
    nota = (
        f"{disponiveis} autos aguardando intimação"
        + (f" (repetidos até {quantidade})" if disponiveis < quantidade else "")
        + f"; dados {t_dados:.2f} s; CPU do PDF {cpu:.2f} s; PDF {len(pdf) / 1e6:.1f} MB (simples: {len(pdf_plano) / 1e6:.1f} MB)"
        + (
            "; números de auto com 5 dígitos aceitos só no benchmark (reports/dados.py exige NNNN/AAAA)"
            if afrouxado
            else ""
        )
    )
    return [
        Resultado(
            medida,
            nome_banco,
            t_nosso,
            t_plano,
            "Platypus redesenhando o timbre em cada página",
            6.0,
            nota=nota,
        )
    ]


META_FICHA = 10.0
"""Seconds for the largest operator's ficha, to the file (it took 88.4 s on SQLite, 59.2 s on
PostgreSQL while ReportLab split one Table of every case page by page)."""


def medir_ficha(banco: Banco, nome_banco: str) -> list[Resultado]:
    """The largest operator's ficha without the window: the data read, then the PDF (wall and CPU), so a
    slow figure in the window's row says which half grew."""
    medida = "Ficha da maior operadora: dados + PDF"
    try:
        from secretaria.reports.ficha import FichaOperadoraPdf
        from secretaria.services.documentos import dados_ficha
    except ImportError as exc:
        return [falha(medida, nome_banco, exc, META_FICHA)]
    from secretaria.reports import dados as dados_pdf

    if not dados_pdf._NUMERO_AUTO.match("10000/2026"):  # see medir_lote: the big city passes auto nº 9999
        dados_pdf._NUMERO_AUTO = re.compile(r"^\d{4,}/\d{4}$")
    operadora_id, nome, autos = maior_operadora(banco)
    with banco.leitura() as s:
        t_dados, dados = cronometrar(lambda: dados_ficha(s, operadora_id))
    FichaOperadoraPdf().render(dataclasses.replace(dados, casos=dados.casos[:5]))  # imports, fonts
    cpu = time.process_time()
    t_pdf, pdf = cronometrar(lambda: FichaOperadoraPdf().render(dados))
    cpu = time.process_time() - cpu
    paginas = pdf.count(b"/Type /Page\n")
    nota = (
        f"{nome}, {autos} autos, {paginas} páginas; dados {t_dados:.2f} s; PDF {t_pdf:.2f} s "
        f"(CPU {cpu:.2f} s), {len(pdf) / 1e6:.1f} MB; antes (uma Table inteira): 88,4 s SQLite / 59,2 s PG"
    )
    return [Resultado(medida, nome_banco, t_dados + t_pdf, meta=META_FICHA, nota=nota)]


# --------------------------------------------------------------------------------------------------------
# 5b. The window while long actions run: the longest freeze of its event loop
# --------------------------------------------------------------------------------------------------------


class Congelamento:
    """The longest interval the GUI thread's event loop did not run: a precise 5 ms timer on the GUI thread
    ticks as long as the loop runs, and the largest gap between two ticks is the longest freeze."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.maior = 0.0
        self._ultimo = 0.0
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(5)
        self._timer.timeout.connect(self._tique)

    def _tique(self) -> None:
        agora = time.perf_counter()
        self.maior = max(self.maior, agora - self._ultimo)
        self._ultimo = agora

    def medir(self, acao: Callable[[], Any], pronto: Callable[[], bool], limite: float = 1800.0) -> float:
        """Run `acao()` from inside the event loop, keep the loop running until `pronto()`; seconds in all."""
        from PySide6.QtCore import QEventLoop, QTimer

        _apagar_pendentes()  # an earlier measure's widgets, deleted now, not inside this one's freeze
        laco = QEventLoop()
        vigia = QTimer()
        inicio = time.perf_counter()

        def conferir() -> None:
            if pronto() or time.perf_counter() - inicio > limite:
                laco.quit()

        vigia.timeout.connect(conferir)
        self.maior, self._ultimo = 0.0, time.perf_counter()
        amostrador = _Amostrador(self) if os.environ.get("SECRETARIA_BENCH_AMOSTRAR") else None
        self._timer.start()
        QTimer.singleShot(0, acao)
        vigia.start(20)
        laco.exec()
        vigia.stop()
        self._tique()
        self._timer.stop()
        if amostrador is not None:
            amostrador.parar()
        if time.perf_counter() - inicio > limite:
            raise TimeoutError(f"a ação não terminou em {limite:.0f} s")
        return time.perf_counter() - inicio


def _apagar_pendentes() -> None:
    """Delete now the widgets given to deleteLater (processEvents never does: the deletion waits for the next
    event loop). The plain way's QTableWidget of 200,000 rows took 3 s of the GUI thread to delete, which the
    next measure's freeze counted (the biggest ficha's "3.5 s")."""
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    QCoreApplication.processEvents()


class _Amostrador:
    """SECRETARIA_BENCH_AMOSTRAR=1: while a freeze is measured, a thread of its own looks at the GUI thread's
    stack whenever the timer is more than 100 ms late and prints, at the end, where the window was each time
    (what froze it). A diagnosis aid; the figures are measured the same way with it or without it."""

    def __init__(self, congelamento: Congelamento) -> None:
        import threading

        self._congelamento = congelamento
        self._gui = threading.get_ident()
        self._gui_nativo = threading.get_native_id()
        self.cpu_nas_paradas: list[tuple[float, float]] = []
        self._parar = threading.Event()
        self._vistos: dict[str, int] = {}
        self._fio = threading.Thread(target=self._olhar, daemon=True)
        self._fio.start()

    def _olhar(self) -> None:
        import threading
        import traceback

        def cpu() -> float:
            with open(f"/proc/self/task/{self._gui_nativo}/stat") as f:
                campos = f.read().rsplit(")", 1)[1].split()
            return (int(campos[11]) + int(campos[12])) / os.sysconf("SC_CLK_TCK")

        anterior, parada = cpu(), None
        while not self._parar.wait(0.02):
            atraso = time.perf_counter() - self._congelamento._ultimo
            if atraso < 0.1:
                if parada is not None:
                    self.cpu_nas_paradas.append((parada[0], cpu() - parada[1]))
                    parada = None
                anterior = cpu()  # the window thread's CPU just before a freeze may begin
                continue
            parada = (atraso, anterior if parada is None else parada[1])
            eu = threading.get_ident()
            partes = []
            for ident, quadro in sys._current_frames().items():
                if ident == eu:
                    continue
                quem = "janela" if ident == self._gui else "outra"
                partes.append(
                    f"[{quem}]\n" + "".join(traceback.format_list(traceback.extract_stack(quadro)[-6:]))
                )
            pilha = "".join(sorted(partes))
            self._vistos[pilha] = self._vistos.get(pilha, 0) + 1

    def parar(self) -> None:
        self._parar.set()
        self._fio.join()
        for atraso, gasto in self.cpu_nas_paradas:
            print(
                f"--- parada de ≥{atraso * 1000:.0f} ms: a thread da janela usou {gasto * 1000:.0f} ms de CPU",
                file=sys.stderr,
            )
        for pilha, vezes in sorted(self._vistos.items(), key=lambda p: -p[1])[:5]:
            print(f"--- a janela parada aqui ({vezes} amostras de 20 ms):\n{pilha}", file=sys.stderr)


def _terminou_com_mensagem() -> bool:
    """Every background task over and its message box on screen (the user has been told)."""
    from secretaria.ui.widgets import mensagens
    from secretaria.ui.widgets.tarefas import Tarefa

    return not Tarefa._em_andamento and mensagens.caixa_aberta(aguardar=False) is not None


def _fechar_mensagens() -> str:
    from secretaria.ui.widgets import mensagens

    textos = []
    while (caixa := mensagens.caixa_aberta(aguardar=False)) is not None:
        textos.append(caixa.text())
        caixa.done(0)
    return " / ".join(textos)


def _emitir_sem_gravar(banco: Banco, ator: Any, progresso: Any = None, **pedido: Any) -> tuple[Any, bytes]:
    """The shared PostgreSQL city is read-only for the benchmark: the same reading and rendering as
    `impressao.emitir_e_ler`, without storing the document (the stored row is a few ms of the whole)."""
    from secretaria import relogio
    from secretaria.services import documentos

    with banco.leitura() as s:
        p = documentos._pedido(
            s,
            pedido["tipo"],
            pedido.get("auto_id"),
            pedido.get("operadora_id"),
            pedido.get("periodo"),
            pedido.get("data_entrega"),
            pedido.get("retificacao_id"),
        )
    conteudo = documentos.renderizar(p.tipo, p.dados, progresso)
    info = documentos.DocumentoInfo(
        id=0,
        tipo=p.tipo,
        referencia=p.referencia,
        nome_arquivo=p.nome_arquivo,
        sha256="",
        emitido_em=relogio.agora(),
        emitido_por=ator.login,
        novo=True,
    )
    return info, conteudo


def maior_operadora(banco: Banco) -> tuple[int, str, int]:
    a = AutoInfracao
    with banco.leitura() as s:
        r = s.execute(
            sa.select(a.operadora_id, sa.func.count())
            .group_by(a.operadora_id)
            .order_by(sa.func.count().desc())
        ).first()
        from secretaria.models import Operadora

        nome = s.scalar(sa.select(Operadora.razao_social).where(Operadora.id == r[0])) if r else ""
    return (int(r[0]), str(nome), int(r[1])) if r else (0, "", 0)


def periodo_de_mil_intimacoes(banco: Banco, hoje: date, quantidade: int = 1000) -> tuple[date, date, int]:
    """A period whose autos still awaiting intimação are about `quantidade` (the most recent ones)."""
    a = AutoInfracao
    with banco.leitura() as s:
        datas = list(
            s.scalars(
                sa.select(a.data_lavratura)
                .where(a.fase == "lavrado", a.data_lavratura <= hoje)
                .order_by(a.data_lavratura.desc())
                .limit(quantidade)
            )
        )
    if not datas:
        return hoje, hoje, 0
    inicio = datas[-1]
    with banco.leitura() as s:
        n = s.scalar(
            sa.select(sa.func.count()).where(
                a.fase == "lavrado", a.data_lavratura >= inicio, a.data_lavratura <= hoje
            )
        )
    return inicio, hoje, int(n or 0)


ACOES_JANELA = ("ficha", "planilha", "lote", "exportar", "busca", "copia")


@_com_a_coleta_da_janela
def medir_janela(
    banco: Banco, nome_banco: str, hoje: date, pasta: Path, acoes: Collection[str] = ACOES_JANELA
) -> list[Resultado]:
    """Each long action through the screens' own code, in an offscreen window, while a 5 ms timer on the GUI
    thread records the longest freeze of the window (goal: none over 100 ms). Measured after `_aquecer`.
    `acoes` (keys of ACOES_JANELA) picks some of them (bench/run --janela)."""
    import itertools

    from secretaria.reports import dados as dados_pdf
    from secretaria.services.base import Ator
    from secretaria.ui import impressao
    from secretaria.ui.contexto import Contexto
    from secretaria.ui.janela_principal import fazer_copia_de_seguranca
    from secretaria.ui.processo.paginas import PaginaAutos
    from secretaria.ui.relatorios import PaginaRelatorios
    from secretaria.ui.widgets import arquivos
    from secretaria.ui.widgets.exportar import exportar_para_excel

    if not dados_pdf._NUMERO_AUTO.match("10000/2026"):  # see medir_lote: the big city passes auto nº 9999
        dados_pdf._NUMERO_AUTO = re.compile(r"^\d{4,}/\d{4}$")
    app = _aplicacao()
    ator = Ator("bench", "Benchmark", frozenset({"administrador", "protocolo", "fiscal", "consulta"}))
    contexto = Contexto(banco, ator, demo=False)
    pasta.mkdir(parents=True, exist_ok=True)
    destinos: list[Path] = []

    def salvar_como(_pai: Any, _titulo: str, nome: str, *_a: Any, **_k: Any) -> Path:
        destino = pasta / nome
        destino.unlink(missing_ok=True)
        destinos.append(destino)
        return destino

    original_salvar, original_emitir = arquivos.salvar_como, impressao.emitir_e_ler
    arquivos.salvar_como = salvar_como  # type: ignore[assignment]
    if not banco.eh_sqlite:
        impressao.emitir_e_ler = _emitir_sem_gravar
    medidor = Congelamento()
    resultados: list[Resultado] = []
    nota_pg = (
        "" if banco.eh_sqlite else "; documento gerado sem ser guardado (banco compartilhado, só leitura)"
    )

    def medir(
        chave: str,
        medida: str,
        acao: Callable[[], Any],
        nota: str,
        pronto: Callable[[], bool] | None = None,
        meta: float | None = None,
    ) -> None:
        if chave not in acoes:
            return
        try:
            segundos = medidor.medir(acao, pronto or _terminou_com_mensagem)
            mensagem = _fechar_mensagens()
            resultados.append(
                Resultado(
                    medida,
                    nome_banco,
                    segundos,
                    meta=meta,
                    nota=f"{nota}; {mensagem.splitlines()[0] if mensagem else 'sem mensagem'}",
                    congelamento=medidor.maior,
                )
            )
        except Exception as exc:
            resultados.append(falha(medida, nome_banco, exc))
        for destino in destinos:
            destino.unlink(missing_ok=True)
        destinos.clear()

    try:
        pagina = PaginaRelatorios(contexto)
        pagina.resize(1366, 768)
        pagina.show()
        app.processEvents()
        _aquecer(pagina)

        operadora_id, nome, autos = maior_operadora(banco)

        def ficha() -> None:
            pagina.operadora.setCurrentIndex(pagina.operadora.findData(operadora_id))
            pagina.ficha("salvar")

        medir(
            "ficha",
            "Janela: ficha da maior operadora",
            ficha,
            f"{nome}, {autos} autos{nota_pg}",
            meta=META_FICHA,
        )

        ano, mes, n_mes = mes_mais_cheio(banco)

        def planilha() -> None:
            pagina.ano.setValue(ano)
            pagina.mes.setCurrentIndex(mes - 1)
            pagina.gerar_planilha()

        medir("planilha", "Janela: planilha do mês mais cheio", planilha, f"{mes:02d}/{ano}, {n_mes} autos")

        inicio, fim, n_lote = periodo_de_mil_intimacoes(banco, hoje)

        def lote() -> None:
            pagina.inicio.definir_data(inicio)
            pagina.fim.definir_data(fim)
            pagina.entrega.definir_data(hoje)
            pagina.lote("salvar")

        medir(
            "lote",
            "Janela: lote de ~1.000 intimações",
            lote,
            f"{inicio:%d/%m/%Y} a {fim:%d/%m/%Y}: {n_lote} autos{nota_pg}",
        )
        pagina.close()
        pagina.deleteLater()

        autos_pagina = PaginaAutos(contexto)
        autos_pagina.resize(1366, 768)
        autos_pagina.show()
        app.processEvents()
        quantas = min(15_000, autos_pagina.modelo.total)

        def exportar() -> None:
            exportar_para_excel(
                autos_pagina,
                titulo="Autos de infração",
                cabecalhos=[c.titulo for c in autos_pagina.modelo.colunas],
                linhas=itertools.islice(autos_pagina.modelo.iterar_visiveis(), quantas),
                total=quantas,
                dinheiro=[c.dinheiro for c in autos_pagina.modelo.colunas],
            )

        medir("exportar", "Janela: exportar 15.000 linhas", exportar, f"{quantas} linhas da lista de autos")

        achados: list[int] = []
        autos_pagina.buscaMostrada.connect(lambda: achados.append(autos_pagina.modelo.total))

        def buscar() -> None:
            autos_pagina.busca.setText(TERMO_BUSCA)
            autos_pagina.buscar_em_segundo_plano()  # what the page's timer calls 250 ms after the last key

        medir(
            "busca",
            f"Janela: busca “{TERMO_BUSCA}” na lista de autos",
            buscar,
            "a consulta",
            pronto=lambda: bool(achados),
        )
        if achados:
            resultados[-1].nota = f"{achados[0]} achados (lidos fora da thread da janela)"
        autos_pagina.close()
        autos_pagina.deleteLater()

        janela = _janela_vazia()
        medir(
            "copia",
            "Janela: cópia de segurança",
            lambda: fazer_copia_de_seguranca(janela, contexto),
            "SQLite: cópia verificada" if banco.eh_sqlite else "PostgreSQL: mostra o comando do pg_dump",
        )
        if "copia" in acoes and banco.eh_sqlite:
            resultados += _medir_copia_cancelada(janela, contexto, medidor, pasta)
    finally:
        arquivos.salvar_como = original_salvar
        impressao.emitir_e_ler = original_emitir
        _fechar_mensagens()
    return resultados


def _medir_copia_cancelada(janela: Any, contexto: Any, medidor: Congelamento, pasta: Path) -> list[Resultado]:
    """The backup from the window, Cancelar pressed once the bar has moved three times: the seconds from the
    click until the copy has stopped and nothing is left in the folder."""
    from PySide6.QtWidgets import QProgressDialog, QPushButton

    from secretaria.ui.janela_principal import fazer_copia_de_seguranca
    from secretaria.ui.widgets.tarefas import Tarefa

    medida = "Janela: cópia de segurança, Cancelar no meio (do clique até parar)"
    valores: list[int] = []
    cancelada: list[float] = []

    def acao() -> None:
        fazer_copia_de_seguranca(janela, contexto)

    def pronto() -> bool:
        dialogos = janela.findChildren(QProgressDialog)
        if not cancelada and dialogos and dialogos[-1].isVisible():
            valor = dialogos[-1].value()
            if valor > 0 and (not valores or valores[-1] != valor):
                valores.append(valor)
            if len(valores) >= 3:
                botao = next(b for b in dialogos[-1].findChildren(QPushButton) if b.text() == "Cancelar")
                cancelada.append(time.perf_counter())
                botao.click()  # as the user does (QProgressDialog.cancel() would only hide the dialog)
        return bool(cancelada) and not Tarefa._em_andamento

    try:
        medidor.medir(acao, pronto)
        segundos = time.perf_counter() - cancelada[0] if cancelada else None
        restos = sorted(p.name for p in pasta.iterdir())
        _fechar_mensagens()
        nota = f"a barra andou {len(valores)} vezes antes; " + (
            "nada ficou na pasta" if not restos else f"FICOU: {', '.join(restos)}"
        )
        return [Resultado(medida, "SQLite", segundos, meta=1.0, nota=nota, congelamento=medidor.maior)]
    except Exception as exc:
        return [falha(medida, "SQLite", exc, 1.0)]


def _aquecer(pagina: Any) -> None:
    """Once per session, not per action: the report libraries imported and the first message box shown
    and the PDF fonts registered (a user's first document or workbook of the session pays 0.2–0.3 s of
    imports, font loading and style loading once, which hold Python's GIL). The start-up's objects are set
    aside from the cyclic collector first, as the program does once its main window is built."""
    from secretaria.ui.widgets.tarefas import guardar_objetos_do_inicio

    guardar_objetos_do_inicio()
    import openpyxl  # noqa: F401
    import reportlab.platypus  # noqa: F401

    import secretaria.reports.ficha
    import secretaria.reports.intimacao
    import secretaria.reports.planilha_mensal  # noqa: F401
    from secretaria.reports.fontes import registrar_fontes
    from secretaria.ui.widgets import mensagens

    registrar_fontes()
    mensagens.informar(pagina, "Aquecimento", "Pronto.")
    pagina.repaint()
    _fechar_mensagens()


def _janela_vazia() -> Any:
    """A window to parent the dialogs of an action that has no page of its own."""
    from PySide6.QtWidgets import QWidget

    janela = QWidget()
    janela.resize(1366, 768)
    janela.show()
    return janela


# --------------------------------------------------------------------------------------------------------
# 6. Process start to the login window
# --------------------------------------------------------------------------------------------------------

# The login dialog is patched when the program itself imports its module, so the program loads everything
# in its own order: importing `secretaria.ui.login` here first would load Qt before SQLAlchemy, and PySide6
# reads the source of every module imported after Qt (its `__feature__` check) — about 0.15 s that the
# program, which opens the database before it starts Qt, never spends.
_INICIO = r"""
import importlib.machinery, os, sys, time
sys.path.insert(0, {raiz!r})
{importar_tudo}

def _marcar(login):
    from PySide6.QtCore import QTimer

    original = login.DialogoLogin.showEvent

    def mostrado(self, evento):
        original(self, evento)
        QTimer.singleShot(0, lambda: (print("PRONTO", time.time(), flush=True), os._exit(0)))

    login.DialogoLogin.showEvent = mostrado

class _AoImportarLogin:
    @staticmethod
    def find_spec(nome, caminho=None, alvo=None):
        if nome != "secretaria.ui.login":
            return None
        spec = importlib.machinery.PathFinder.find_spec(nome, caminho)
        executar = spec.loader.exec_module

        def exec_module(modulo):
            executar(modulo)
            _marcar(modulo)

        spec.loader.exec_module = exec_module
        return spec

if "secretaria.ui.login" in sys.modules:
    _marcar(sys.modules["secretaria.ui.login"])
else:
    sys.meta_path.insert(0, _AoImportarLogin)
from secretaria.cli import main
main(["--db", {url!r}])
"""

_IMPORTAR_TUDO = r"""
import importlib, pkgutil
import reportlab.platypus, reportlab.pdfgen.canvas, reportlab.lib.styles, openpyxl, holidays, num2words, lxml.etree
import PySide6.QtWidgets, PySide6.QtGui, PySide6.QtCore, PySide6.QtPrintSupport
import sqlalchemy.orm, alembic.command, platformdirs
import secretaria
for _m in pkgutil.walk_packages(secretaria.__path__, "secretaria."):
    if not _m.name.startswith(("secretaria.migrations", "secretaria.__main__")):
        importlib.import_module(_m.name)
"""


def _inicio_ate_login(url: str, importar_tudo: bool) -> float:
    codigo = _INICIO.format(raiz=str(RAIZ), url=url, importar_tudo=_IMPORTAR_TUDO if importar_tudo else "")
    ambiente = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    inicio = time.time()
    saida = subprocess.run(
        [sys.executable, "-c", codigo], cwd=RAIZ, env=ambiente, capture_output=True, text=True, timeout=600
    )
    for linha in saida.stdout.splitlines():
        if linha.startswith("PRONTO"):
            return float(linha.split()[1]) - inicio
    linhas = [x for x in saida.stderr.strip().splitlines() if x.strip()]
    raise RuntimeError(linhas[-1] if linhas else "a janela de login não apareceu")


def medir_inicio(banco: Banco, nome_banco: str, vezes: int = 5) -> list[Resultado]:
    medida = "Início do programa até a janela de login"
    resultados: list[Resultado] = []
    try:
        # The day's first start owes the daily copy (SQLite); it starts once the login has painted.
        primeira = _inicio_ate_login(banco.url, False)
        valor = statistics.median(_inicio_ate_login(banco.url, False) for _ in range(vezes))
        simples = statistics.median(_inicio_ate_login(banco.url, True) for _ in range(max(3, vezes // 2)))
    except Exception as exc:  # a failed start is reported in the table, not raised
        return [falha(medida, nome_banco, exc, 0.8)]
    resultados.append(
        Resultado(
            medida,
            nome_banco,
            valor,
            simples,
            "importando todas as bibliotecas na partida",
            0.8,
            nota=f"mediana de {vezes}, processo novo a cada vez",
        )
    )
    if banco.eh_sqlite:
        resultados.append(
            Resultado(
                "Início até o login, 1ª abertura do dia",
                nome_banco,
                primeira,
                None,
                "",
                0.8,
                nota="a cópia de segurança diária (backup.copia_diaria) começa quando o login aparece",
            )
        )
    return resultados


# --------------------------------------------------------------------------------------------------------
# 7. Another PC's act on the screen (live refresh): two Banco instances on one database are two PCs
# --------------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def _copia_descartavel(banco: Banco) -> Iterator[str]:
    """A throwaway copy of the city to write acts into (the cached city stays as generated): SQLite's backup
    API into a file beside it; on PostgreSQL a database made from it as TEMPLATE (which needs nobody
    connected to it: our own pool is emptied first), dropped afterwards."""
    from secretaria.db import arquivo_sqlite, copiar_sqlite, url_sqlite

    arquivo = arquivo_sqlite(banco.url)
    if arquivo is not None:
        destino = arquivo.with_name(f"{arquivo.stem}-ao-vivo-descartavel.sqlite")
        copiar_sqlite(arquivo, destino)
        try:
            yield url_sqlite(destino)
        finally:
            for sufixo in ("", "-wal", "-shm", "-journal"):
                Path(f"{destino}{sufixo}").unlink(missing_ok=True)
        return
    url = sa.make_url(banco.url)
    nome = f"{url.database}_ao_vivo_{os.getpid()}"
    banco.engine.dispose()
    admin = sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{nome}" TEMPLATE "{url.database}"')
        try:
            yield url.set(database=nome).render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{nome}" WITH (FORCE)')
    finally:
        admin.dispose()


def _esperar_na_tela(app: Any, condicao: Callable[[], bool], limite: float = 15.0) -> float:
    """Seconds until `condicao` holds while the window's event loop runs (its timers, its socket), plus
    the paint that follows."""
    inicio = time.perf_counter()
    while not condicao():
        app.processEvents()
        if time.perf_counter() - inicio > limite:
            raise TimeoutError(f"o ato não apareceu em {limite:.0f} s")
        time.sleep(0.002)
    app.processEvents()
    return time.perf_counter() - inicio


@_com_a_coleta_da_janela
def medir_ao_vivo(banco: Banco, nome_banco: str, hoje: date, vezes: int = 5) -> list[Resultado]:
    """The time until another window shows an act: the main window of one PC open on the home queues (then
    on the autos list), an auto lavrado on the other PC, the seconds from its COMMIT until the first PC's
    page shows it. The plain way has no figure: without the live refresh it shows only after a click."""
    medidas = ("Outro PC: ato visível nas filas do início", "Outro PC: ato visível na lista de autos")
    meta = 2.0
    try:
        from secretaria.db import abrir_banco
        from secretaria.models import DispositivoCatalogo, Fiscal, Operadora
        from secretaria.services.autos import NovoAuto, lavrar_auto
        from secretaria.services.base import Ator
        from secretaria.ui.contexto import Contexto
        from secretaria.ui.janela_principal import JanelaPrincipal
    except ImportError as exc:
        return [falha(m, nome_banco, exc, meta) for m in medidas]
    app = _aplicacao()
    resultados: list[Resultado] = []
    with _copia_descartavel(banco) as url:
        este, outro = abrir_banco(url), abrir_banco(url)  # two PCs on the same database
        janela: Any = None
        try:
            with outro.leitura() as s:
                operadora_id = s.scalar(sa.select(Operadora.id).order_by(Operadora.id).limit(1))
                fiscal_id = s.scalar(sa.select(Fiscal.id).where(Fiscal.ativo).limit(1))
                dispositivo = s.scalar(
                    sa.select(DispositivoCatalogo.codigo).where(DispositivoCatalogo.codigo == "1-VI")
                )
            fiscal = Ator("fiscal_do_outro_pc", "Fiscal do outro PC", frozenset({"fiscal"}))

            def lavrar() -> None:
                lavrar_auto(
                    outro.uow(),
                    fiscal,
                    NovoAuto(
                        operadora_id=int(operadora_id or 0),
                        dispositivo_codigo=str(dispositivo or "1-VI"),
                        data_infracao=hoje,
                        local="Praça Coronel Pedro Osório",
                        data_lavratura=hoje,
                        hora_lavratura=dt_time(9, 0),
                        local_lavratura="Terminal central",
                        descricao_fatos="Veículo em circulação sem condições de higiene.",
                        fiscal_id=int(fiscal_id or 0),
                    ),
                )

            papeis = frozenset({"fiscal", "protocolo", "autoridade", "secretario", "administrador"})
            janela = JanelaPrincipal(Contexto(este, Ator("bench", "Benchmark", papeis), demo=False))
            janela.resize(1366, 768)
            janela.show()
            _esperar_na_tela(app, lambda: janela.vigia is not None)
            inicio = janela.mostrar_pagina("inicio")  # the Secretary's role starts on the Painel
            lista: Any = None

            def na_fila() -> int:
                return int(inicio.fila("aguardando_intimacao").total)

            def na_lista() -> int:
                return int(lista.modelo.total)

            tempos: list[list[float]] = [[], []]
            for i, contar in enumerate((na_fila, na_lista)):
                if i == 1:
                    lista = janela.mostrar_pagina("autos")
                    app.processEvents()
                for _ in range(vezes):
                    antes = contar()
                    lavrar()
                    tempos[i].append(_esperar_na_tela(app, lambda c=contar, a=antes: c() > a))  # type: ignore[misc]
                    fim = time.perf_counter() + 0.6  # acts a little apart: each one its own refresh
                    while time.perf_counter() < fim:
                        app.processEvents()
                        time.sleep(0.01)
            modo = (
                "SQLite: PRAGMA data_version a cada 0,5 s" if este.eh_sqlite else "PostgreSQL: LISTEN/NOTIFY"
            )
            for medida, valores in zip(medidas, tempos, strict=True):
                resultados.append(
                    Resultado(
                        medida,
                        nome_banco,
                        statistics.median(valores),
                        None,
                        "sem atualização automática: só ao clicar",
                        meta,
                        nota=f"mediana de {vezes} (máx. {max(valores):.2f} s); {modo}",
                    )
                )
        finally:
            if janela is not None:
                janela.close()
                janela.deleteLater()
                app.processEvents()
            outro.fechar()
            este.fechar()
    return resultados


# --------------------------------------------------------------------------------------------------------
# 8. The Painel: every chart's numbers (aggregated in the database) and the page drawn
# --------------------------------------------------------------------------------------------------------


def _painel_simples(sessao: Any, desde: date, ate: date, hoje: date) -> dict[str, Any]:
    """The plain way: read the period's rows and aggregate them in Python (counts, sums, medians)."""
    from collections import Counter, defaultdict

    from secretaria.models import AutoInfracao, Decisao, Intimacao, Pagamento, Recurso, Veiculo

    a, d = AutoInfracao, Decisao
    autos = sessao.execute(
        sa.select(a.id, a.operadora_id, a.tipo, a.dispositivo_codigo, a.data_infracao, a.fase, a.prazo_defesa,
                  a.prazo_recurso).where(a.data_infracao >= desde, a.data_infracao <= ate)
    ).all()  # fmt: skip
    por_id = {x.id: x for x in autos}

    def mes(dia: date) -> str:
        return f"{dia.year:04d}-{dia.month:02d}"

    resultado: dict[str, Any] = {
        "por_operadora": Counter((mes(x.data_infracao), x.operadora_id) for x in autos),
        "por_tipo": Counter((mes(x.data_infracao), x.tipo) for x in autos),
        "dispositivos": Counter(x.dispositivo_codigo for x in autos).most_common(10),
        "frota": Counter(
            sessao.scalars(sa.select(Veiculo.operadora_id).where(Veiculo.situacao != "baixado"))
        ),
    }
    multas: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for dia, valor in sessao.execute(
        sa.select(d.data, d.multa_reais).where(d.data >= desde, d.data <= ate, d.resultado == "aplicada")
    ):
        multas[(mes(dia), "decidida")] += valor
    for situacao, pago, valor_pago, valor, inscrito in sessao.execute(
        sa.select(Pagamento.situacao, Pagamento.pago_em, Pagamento.valor_pago, Pagamento.valor,
                  Pagamento.inscrito_divida_em)
    ):  # fmt: skip
        if situacao == "pago" and pago is not None and desde <= pago <= ate:
            multas[(mes(pago), "paga")] += valor_pago or valor
        if situacao == "divida_ativa" and inscrito is not None and desde <= inscrito <= ate:
            multas[(mes(inscrito), "divida_ativa")] += valor
    resultado["multas"] = multas
    dias: dict[tuple[str, str], list[int]] = defaultdict(list)
    for auto_id, dia in sessao.execute(
        sa.select(Intimacao.auto_id, Intimacao.data).where(
            Intimacao.sucesso.is_(True), Intimacao.objeto == "auto"
        )
    ):
        x = por_id.get(auto_id)
        if x is not None:
            dias[(mes(x.data_infracao), "intimacao")].append((dia - x.data_infracao).days)
    for auto_id, dia, _tempestivo in sessao.execute(
        sa.select(d.auto_id, d.data, Recurso.tempestivo).outerjoin(Recurso, Recurso.decisao_id == d.id)
    ):
        x = por_id.get(auto_id)
        if x is not None:
            dias[(mes(x.data_infracao), "decisao")].append((dia - x.data_infracao).days)
    resultado["medianas"] = {k: statistics.median(v) for k, v in dias.items()}
    return resultado


def medir_painel(banco: Banco, nome_banco: str, hoje: date, vezes: int = 7) -> list[Resultado]:
    """The Painel's numbers for the last 12 months (every chart's query, one read session), beside the
    plain way (the period's rows read and aggregated in Python); then the page drawn with them."""
    try:
        from secretaria.services import painel
    except ImportError as exc:
        return [falha("Painel: números de todos os gráficos", nome_banco, exc, 0.3)]
    filtro = painel.filtro_padrao(hoje)

    def nossos() -> Any:
        with banco.leitura() as s:
            return painel.ler_painel(s, filtro, hoje)

    def simples() -> Any:
        with banco.leitura() as s:
            return _painel_simples(s, filtro.desde, filtro.ate, hoje)

    dados = nossos()
    valor = mediana(nossos, vezes)
    simples()
    valor_simples = mediana(simples, max(3, vezes // 2))
    total = sum(c.valor for c in dados.por_tipo)
    resultados = [
        Resultado(
            "Painel: números de todos os gráficos (12 meses)",
            nome_banco,
            valor,
            valor_simples,
            "linhas do período agregadas em Python",
            0.3,
            nota=f"{total} autos no período",
        )
    ]
    partes: list[tuple[str, Callable[[Any], Any]]] = [
        ("autos por mês", lambda s: (painel.autos_por_mes(s, filtro), painel.autos_por_mes(s, filtro, "tipo"))),
        ("dispositivos e frota", lambda s: (painel.dispositivos_mais_citados(s, filtro), painel.autos_por_frota(s, filtro))),
        ("multas", lambda s: painel.multas_por_mes(s, filtro)),
        ("medianas", lambda s: painel.medianas_por_mes(s, filtro, hoje)),
        ("prazos", lambda s: painel.prazos(s, filtro, hoje)),
        ("reincidência", lambda s: painel.cadeias_abertas(s, filtro, hoje)),
    ]  # fmt: skip
    for rotulo, funcao in partes:

        def uma(f: Callable[[Any], Any] = funcao) -> None:
            with banco.leitura() as s:
                f(s)

        uma()
        resultados.append(Resultado(f"Painel: {rotulo}", nome_banco, mediana(uma, vezes)))
    resultados.append(_desenho_do_painel(dados, nome_banco))
    resultados += _medir_pagina_do_painel(banco, nome_banco)
    return resultados


def _desenho_do_painel(dados: Any, nome_banco: str, vezes: int = 3) -> Resultado:
    """The 7 charts drawn one after the other in this process (CPU seconds): what the Painel's two helper
    processes share when the period changes, without the numbers' reading or the hand-over."""
    from secretaria.reports import graficos
    from secretaria.services import painel

    cartoes = painel.graficos_do_painel(dados)
    graficos.preparar()

    def todos() -> None:
        for gp in cartoes:
            graficos.imagem(gp.grafico, 640, 300)

    todos()  # fonts and matplotlib's caches warm, as in a helper that has drawn before
    tempos = []
    for _ in range(vezes):
        cpu = time.process_time()
        todos()
        tempos.append(time.process_time() - cpu)
    return Resultado(
        "Painel: os 7 gráficos desenhados num processo (CPU)",
        nome_banco,
        min(tempos),
        nota=f"640×300 px cada; o menor de {vezes}",
    )


@_com_a_coleta_da_janela
def _medir_pagina_do_painel(banco: Banco, nome_banco: str) -> list[Resultado]:
    """The Painel page itself, shown at 1366×768, with the longest freeze of the window meanwhile: its first
    open (matplotlib imported, the 7 charts drawn in the background); opened again (the numbers read again,
    the charts whose numbers did not change kept: what "after the first open" means); and every chart drawn
    afresh, as when the period or the operator changes."""
    import sys

    from secretaria.services.base import Ator
    from secretaria.ui.contexto import Contexto
    from secretaria.ui.painel import PaginaPainel

    _aplicacao()
    ator = Ator("bench", "Benchmark", frozenset({"secretario"}))
    paginas: list[PaginaPainel] = []
    medidor = Congelamento()
    resultados = []

    def abrir() -> None:
        pagina = PaginaPainel(Contexto(banco, ator, demo=False))
        pagina.resize(1366, 768)
        pagina.show()
        paginas.append(pagina)

    try:
        importado = "matplotlib" in sys.modules
        primeira = medidor.medir(abrir, lambda: bool(paginas) and paginas[0].pronta, limite=120)
        resultados.append(
            Resultado(
                "Painel: 1ª abertura (números e os 7 gráficos, em segundo plano)",
                nome_banco,
                primeira,
                congelamento=medidor.maior,
                nota="matplotlib já importado" if importado else "com a importação do matplotlib",
            )
        )
        pagina = paginas[0]

        def de_novo(redesenhar: bool) -> None:
            if redesenhar:
                for cartao in pagina.cartoes:
                    cartao.impressao = None  # drawn afresh, as when every chart's numbers changed
            pagina.recarregar()

        for rotulo, redesenhar, meta in (
            ("Painel: aberto de novo (números relidos, gráficos iguais mantidos)", False, 0.3),
            ("Painel: os 7 gráficos redesenhados (outro período), em segundo plano", True, 0.5),
        ):
            tempos, congelamentos = [], []
            acao = functools.partial(de_novo, redesenhar)
            for _ in range(3):
                tempos.append(medidor.medir(acao, lambda: pagina.pronta, limite=120))
                congelamentos.append(medidor.maior)
            resultados.append(
                Resultado(
                    rotulo,
                    nome_banco,
                    statistics.median(tempos),
                    meta=meta,
                    congelamento=max(congelamentos),
                    nota="mediana de 3; congelamento: o maior das 3",
                )
            )
    except Exception as exc:
        resultados.append(falha("Painel: a página com os 7 gráficos", nome_banco, exc, 0.3))
    finally:
        for pagina in paginas:
            pagina.close()
            pagina.deleteLater()
        _apagar_pendentes()
    return resultados


def tamanho_banco(banco: Banco) -> str:
    with banco.leitura() as s:
        if banco.eh_sqlite:
            paginas = s.execute(sa.text("PRAGMA page_count")).scalar() or 0
            tamanho = s.execute(sa.text("PRAGMA page_size")).scalar() or 0
            return f"{paginas * tamanho / 1e6:.0f} MB"
        return f"{(s.execute(sa.text('SELECT pg_database_size(current_database())')).scalar() or 0) / 1e6:.0f} MB"


def contar_linhas(banco: Banco) -> dict[str, int]:
    with banco.leitura() as s:
        return {
            t: int(s.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar() or 0)
            for t in ("operadora", "veiculo", "empregado", "auto_infracao")
        }


def formatar_tempo(valor: float) -> str:
    if valor < 1:
        return f"{valor * 1000:.1f} ms".replace(".", ",")
    return f"{valor:.2f} s".replace(".", ",")


def formatar_valor(valor: float | None, unidade: str) -> str:
    if valor is None:
        return "—"
    if unidade == "MB":
        return f"{valor:.0f} MB"
    return formatar_tempo(valor)


def tabela(resultados: Sequence[Resultado]) -> str:
    """The one table, plain text, columns aligned."""
    cab = (
        "Medida",
        "Banco",
        "Secretaria",
        "Jeito simples",
        "Razão",
        "Meta",
        "Maior congelamento",
        "Atingida?",
    )
    linhas: list[tuple[str, ...]] = []
    notas: list[str] = []
    for r in resultados:
        razao = f"{r.razao:.1f}×".replace(".", ",") if r.razao is not None else "—"
        meta = f"≤ {formatar_valor(r.meta, r.unidade)}" if r.meta is not None else "—"
        atingida = {True: "sim", False: "NÃO", None: "—"}[r.atingida]
        simples = formatar_valor(r.simples, r.unidade)
        congelamento = "—" if r.congelamento is None else f"{r.congelamento * 1000:.0f} ms (≤ 100 ms)"
        linhas.append(
            (
                r.medida,
                r.banco,
                formatar_valor(r.valor, r.unidade),
                simples,
                razao,
                meta,
                congelamento,
                atingida,
            )
        )
        if r.nota or r.descricao_simples:
            partes = [
                p for p in (f"simples = {r.descricao_simples}" if r.descricao_simples else "", r.nota) if p
            ]
            notas.append(f"  {r.medida} [{r.banco}]: {'; '.join(partes)}")
    larguras = [
        max(len(c), *(len(linha[i]) for linha in linhas)) if linhas else len(c) for i, c in enumerate(cab)
    ]

    def fmt(valores: Sequence[str]) -> str:
        return " | ".join(
            v.ljust(larguras[i]) if i < 2 else v.rjust(larguras[i]) for i, v in enumerate(valores)
        )

    separador = "-+-".join("-" * n for n in larguras)
    saida = io.StringIO()
    saida.write(fmt(cab) + "\n" + separador + "\n")
    for linha in linhas:
        saida.write(fmt(linha) + "\n")
    if notas:
        saida.write("\nNotas:\n" + "\n".join(notas) + "\n")
    return saida.getvalue()
