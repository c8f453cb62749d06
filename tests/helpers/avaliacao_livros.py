"""A one-shot evaluation of the import against files shaped like an office's, measured once.

`gerar` writes a set of files as an office keeps them — title rows above the header, a hidden first sheet
of lookup lists, a company's name and CNPJ merged over its block of buses, numbers typed as Excel numbers
(a RENAVAM that lost its leading zero, a year as 2015.0, a fine as 1.5, a payment as 82.37), two-digit
years ("23/7/27"), the office's words ("Concessionária", "Em operação", "Aposentado", "Quitado",
"Inscrito em dívida ativa"), operators and inspectors named instead of identified — with some rows the
program must refuse (a wrong check digit, a fine above the law's cap, a decision before the fact…). Beside
each row the generator keeps the truth: refuse it, or the values it must be stored with.

`avaliar` imports the files through an `Importador` (the service, the command line or the window: only the
valid rows, the book with REGRAS § 3 rule 1's presumption of 30 days) and counts, value by value against the truth: rows accepted, refused, wrongly accepted (a row the program
should have refused, or one stored with any value other than the book's) and wrongly refused.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import sqlalchemy as sa

from secretaria.db import Banco
from secretaria.lei.documentos import digito_renavam, digitos_cnpj
from secretaria.lei.urm import urm_para_reais
from secretaria.models import AutoInfracao, Decisao, Fiscal, Operadora, Pagamento, Veiculo
from secretaria.services.base import Ator
from secretaria.services.importacao.leitura import ler_conteudo
from secretaria.services.importacao.servico import importar
from tests.helpers.fabrica import URM_2020, URM_2026
from tests.helpers.livros import TITULOS, livro_xlsx

PRESUNCAO = 30
"""Days after the decision the book's penalties are presumed final (the importer's minimum)."""
ORDEM = ("operadoras", "fiscais", "veiculos", "autos")
_LETRAS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Caso:
    """One row of a file and what the program must do with it."""

    numero: int
    """The row's number in the sheet."""
    chave: Any
    """How the stored record is found (CNPJ, plate, registration, (year, number))."""
    esperado: dict[str, Any] | None
    """The values it must be stored with; None: the row must be refused."""


@dataclass
class Conjunto:
    arquivos: dict[str, bytes] = field(default_factory=dict)
    casos: dict[str, list[Caso]] = field(default_factory=dict)


@dataclass
class Contagem:
    aceitas: int = 0
    recusadas: int = 0
    aceitas_indevidamente: list[str] = field(default_factory=list)
    recusadas_indevidamente: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        def n(quantas: int, palavra: str) -> str:
            return f"{quantas} {palavra if quantas == 1 else palavra + 's'}"

        return (
            f"{n(self.aceitas, 'aceita')}, {n(self.recusadas, 'recusada')}, "
            f"{n(len(self.aceitas_indevidamente), 'aceita')} indevidamente, "
            f"{n(len(self.recusadas_indevidamente), 'recusada')} indevidamente"
        )


def _cnpj(i: int) -> str:
    base = f"{61_000_000 + 7 * i:08d}0001"
    t = base + digitos_cnpj(base)
    return f"{t[:2]}.{t[2:5]}.{t[5:8]}/{t[8:12]}-{t[12:]}"


def _cnpj_errado(i: int) -> str:
    certo = _cnpj(i)
    return certo[:-1] + str((int(certo[-1]) + 1) % 10)


def _renavam(i: int) -> str:
    base = f"{(i % 3) * 1_000_000_000 + 4_000_000 + 97 * i:010d}"  # one in three begins with 0
    return base + digito_renavam(base)


def _placa(i: int) -> tuple[str, str]:
    """(as typed, as stored): the old form with a dash, or Mercosul."""
    letras = f"I{_LETRAS[i // 26 % 26]}{_LETRAS[i % 26]}"
    if i % 2:
        return f"{letras}-{1000 + i:04d}", f"{letras}{1000 + i:04d}"
    placa = f"{letras}{i % 10}{_LETRAS[i % 26]}{i % 100:02d}"
    return placa, placa


def _dois_digitos(dia: date) -> str:
    return f"{dia.day}/{dia.month}/{dia.year % 100:02d}"


def _data(sorteio: random.Random, dia: date) -> Any:
    """A day as an office types it: an Excel date, "5/3/25", or "05/03/2025"."""
    return sorteio.choice(
        (datetime(dia.year, dia.month, dia.day), _dois_digitos(dia), dia.strftime("%d/%m/%Y"))
    )


def _urm(dia: date) -> Decimal:
    return URM_2026 if dia >= date(2026, 1, 1) else URM_2020


def gerar(hoje: date, semente: int = 25) -> Conjunto:
    sorteio = random.Random(semente)
    c = Conjunto()
    inicio = len(TITULOS) + 2  # title rows, the header, then the first row

    # Operators: the office's words for the delegation, the number as a number, a contract's end "5/3/35".
    operadoras: list[tuple[str, str]] = []  # (name, CNPJ) of the valid ones
    linhas: list[list[Any]] = []
    casos: list[Caso] = []
    for i in range(10):
        nome, cnpj = f"Viação Avaliação {i} Ltda.", _cnpj(i)
        palavra, codigo = sorteio.choice(
            (("Concessionária", "concessao"), ("Permissionária", "permissao"), ("CONCESSÃO", "concessao"),
             ("permissão", "permissao"))
        )  # fmt: skip
        fim = date(2030 + i, 1 + i % 12, 1 + i)
        numero = sorteio.choice((100 + i, str(100 + i)))
        linha = [nome, cnpj, palavra, f"Rua {i}", numero, _data(sorteio, fim)]
        esperado: dict[str, Any] | None = {
            "razao_social": nome, "delegacao": codigo, "logradouro": f"Rua {i}",
            "numero_endereco": str(100 + i), "contrato_fim": fim,
        }  # fmt: skip
        if i == 8:
            linha[1], esperado = _cnpj_errado(i), None  # a wrong check digit
        elif i == 9:
            linha[3], esperado = "", None  # no address for the notices
        else:
            operadoras.append((nome, cnpj))
        linhas.append(linha)
        casos.append(Caso(inicio + i, cnpj.replace(".", "").replace("/", "").replace("-", ""), esperado))
    c.arquivos["operadoras"] = livro_xlsx(
        [*TITULOS, ["Empresa", "CNPJ/CPF", "Modalidade", "Endereço", "Nº", "Vencimento"], *linhas,
         [], [f"Total: {len(linhas)} empresas"]],
        titulo="Empresas",
    )  # fmt: skip
    c.casos["operadoras"] = casos

    # Inspectors: named by the book; "Aposentado" is inactive. One without a registration.
    fiscais: list[str] = []
    linhas, casos = [], []
    for i in range(7):
        nome, matricula = f"Fiscal Avaliação {i}", f"AV-{i:03d}"
        palavra, ativo = sorteio.choice((("Em atividade", True), ("Aposentado", False), ("Ativo", True),
                                         ("Exonerada", False)))  # fmt: skip
        esperado = {"nome": nome, "ativo": ativo}
        if i == 6:
            matricula, esperado = "", None
        else:
            fiscais.append(nome)
        linhas.append([nome, matricula, palavra])
        casos.append(Caso(inicio + i, matricula or nome, esperado))
    c.arquivos["fiscais"] = livro_xlsx(
        [*TITULOS, ["Nome", "Matrícula", "Situação"], *linhas], titulo="Fiscais"
    )
    c.casos["fiscais"] = casos

    # The fleet: each operator's name and CNPJ merged over its block of buses.
    veiculos: dict[str, list[tuple[str, str]]] = {}  # operator's name → (plate, prefixo) of valid buses
    linhas, casos = [], []
    mesclas: list[str] = []
    k = 0
    for nome, cnpj in operadoras:
        primeira = inicio + len(linhas)
        for j in range(5):
            digitada, placa = _placa(k)
            renavam = _renavam(k)
            prefixo = 100 * (len(mesclas) // 2 + 1) + j
            ano = 2010 + k % 14
            vistoria = hoje + timedelta(days=30 + 37 * k)
            palavra, situacao = sorteio.choice((("Em operação", "ativo"), ("Desativado", "baixado"),
                                                ("Reserva", "reserva"), ("Ativo", "ativo")))  # fmt: skip
            sentados = 30 + k % 12
            linha = [nome if j == 0 else None, cnpj if j == 0 else None, prefixo, digitada,
                     int(renavam) if k % 2 else renavam, float(ano) if k % 3 else ano,
                     _dois_digitos(vistoria) if k % 2 else datetime(vistoria.year, vistoria.month, vistoria.day),
                     palavra, sentados]  # fmt: skip
            esperado = {
                "operadora": cnpj, "prefixo": str(prefixo), "renavam": renavam, "ano_fabricacao": ano,
                "vistoria_validade": vistoria, "situacao": situacao, "lugares_sentados": sentados,
            }  # fmt: skip
            if k % 11 == 5:
                linha[3], esperado = "XX-1", None  # a plate no state issues
            elif k % 11 == 9 and situacao != "baixado":
                linha[8], esperado = 0, None  # a bus in service with no seat
            else:
                veiculos.setdefault(nome, []).append((placa, str(prefixo)))
            linhas.append(linha)
            casos.append(Caso(inicio + len(linhas) - 1, placa if esperado else f"#{k}", esperado))
            k += 1
        mesclas += [f"A{primeira}:A{primeira + 4}", f"B{primeira}:B{primeira + 4}"]
    c.arquivos["veiculos"] = livro_xlsx(
        [*TITULOS, ["Empresa", "CNPJ", "Nº de Ordem", "Placa", "RENAVAM", "Ano Fab.", "Venc. Vistoria",
                    "Situação", "Sentados"], *linhas, [f"Total: {len(linhas)} veículos"]],
        titulo="Frota",
        mesclas=mesclas,
    )  # fmt: skip
    c.casos["veiculos"] = casos

    c.arquivos["autos"], c.casos["autos"] = _livro(sorteio, hoje, operadoras, fiscais, veiculos, inicio)
    return c


def _livro(
    sorteio: random.Random,
    hoje: date,
    operadoras: list[tuple[str, str]],
    fiscais: list[str],
    veiculos: dict[str, list[tuple[str, str]]],
    inicio: int,
) -> tuple[bytes, list[Caso]]:
    """The paper book of autos: no final day (the presumption gives it), fines and payments as numbers."""
    linhas: list[list[Any]] = []
    casos: list[Caso] = []
    numeros: dict[int, int] = {}
    for k in range(160):
        infracao = date(2020, 1, 1) + timedelta(days=sorteio.randrange((hoje - date(2020, 1, 1)).days - 1))
        ano = infracao.year
        numeros[ano] = numero = numeros.get(ano, 0) + 1
        nome, cnpj = sorteio.choice(operadoras)
        placa = None
        veiculo_texto = ""
        if veiculos.get(nome) and sorteio.random() < 0.6:
            placa, prefixo = sorteio.choice(veiculos[nome])
            veiculo_texto = sorteio.choice((placa, prefixo))
        dispositivo, artigo = sorteio.choice(
            (("1-I", "Art. 1º, I"), ("1-VI", "1-VI"), ("1-XVI", "art. 1, XVI"))
        )
        fiscal = sorteio.choice(fiscais)
        decisao = infracao + timedelta(days=sorteio.randrange(10, 90))
        decidido = decisao <= hoje and sorteio.random() < 0.75
        multa = (
            Decimal(sorteio.choice(("0.10", "0.30", "0.50", "1.00", "1.50", "2.00")))
            if decidido
            else Decimal(0)
        )
        pago_em = decisao + timedelta(days=20) if decidido else None
        destino = sorteio.random() if decidido else 1.0
        pago = destino < 0.4 and pago_em is not None and pago_em <= hoje
        divida = 0.4 <= destino < 0.6
        valor_pago = urm_para_reais(multa, _urm(decisao)) if pago else None
        linha: list[Any] = [
            f"{numero}/{ano}", nome, veiculo_texto, artigo, _data(sorteio, infracao), fiscal,
            _data(sorteio, decisao) if decidido else None,
            (float(multa) if k % 2 else f"{multa:.2f}".replace(".", ",")) if decidido else None,
            float(valor_pago) if valor_pago is not None else None,
            ("Sim" if pago else "Não") if decidido else "",
            _data(sorteio, pago_em) if pago and pago_em is not None else None,
            "Quitado" if pago and k % 3 == 0 else ("Inscrito em dívida ativa" if divida else ""),
        ]  # fmt: skip
        definitiva = decisao + timedelta(days=PRESUNCAO) if decidido else None
        if definitiva is not None and definitiva > hoje:
            definitiva = None
        esperado: dict[str, Any] | None = {
            "operadora": cnpj, "placa": placa, "dispositivo": dispositivo, "data_infracao": infracao,
            "data_decisao": decisao if decidido else None, "multa_ur": multa,
            "data_definitiva": definitiva, "definitiva_presumida": definitiva is not None,
            "encerrado_no_livro": ("pago" if pago and k % 3 == 0 else "divida_ativa" if divida else None),
            "pagamento": (("pago" if pago else "divida_ativa" if divida else "aberto"),
                          pago_em if pago else None, valor_pago) if decidido else None,
        }  # fmt: skip
        erro = k % 13
        if erro == 3 and decidido:
            linha[7], esperado = "1.234,56", None  # above the law's cap (10,00 URM)
        elif erro == 5 and decidido:
            linha[6], esperado = _dois_digitos(infracao - timedelta(days=3)), None  # decided before the fact
        elif erro == 7 and not decidido:
            linha[9], esperado = "Sim", None  # paid, with no fine
        elif erro == 9:
            linha[5], esperado = "Fulano Desconhecido", None  # an inspector not in the registry
        elif erro == 11:
            linha[4], esperado = f"31/02/{ano % 100:02d}", None  # a day no calendar has
        linhas.append(linha)
        casos.append(Caso(inicio + k, (ano, numero), esperado))
    conteudo = livro_xlsx(
        [*TITULOS, ["Nº/Ano", "Empresa", "Placa/Prefixo", "Artigo", "Data", "Fiscal", "Data da decisão",
                    "Multa Aplicada (URM)", "Valor pago (R$)", "Pago (Sim/Não)", "Data do pagamento",
                    "Situação final"], *linhas, [], [f"Total: {len(linhas)} autos"]],
        titulo="Livro de autos",
    )  # fmt: skip
    return conteudo, casos


# -- what was stored ---------------------------------------------------------------------------------------


def _cnpj_de(s: Any, operadora_id: int) -> str:
    op = s.get(Operadora, operadora_id)
    return op.cnpj if op is not None else ""


def _operadora(s: Any, chave: str) -> dict[str, Any] | None:
    op = s.scalars(sa.select(Operadora).where(Operadora.cnpj == chave)).one_or_none()
    if op is None:
        return None
    return {"razao_social": op.razao_social, "delegacao": op.delegacao, "logradouro": op.logradouro,
            "numero_endereco": op.numero_endereco, "contrato_fim": op.contrato_fim}  # fmt: skip


def _fiscal(s: Any, chave: str) -> dict[str, Any] | None:
    f = s.scalars(sa.select(Fiscal).where(Fiscal.matricula == chave)).one_or_none()
    return None if f is None else {"nome": f.nome, "ativo": f.ativo}


def _veiculo(s: Any, chave: str) -> dict[str, Any] | None:
    v = s.scalars(sa.select(Veiculo).where(Veiculo.placa == chave)).one_or_none()
    if v is None:
        return None
    return {"operadora": _formatar(_cnpj_de(s, v.operadora_id)), "prefixo": v.prefixo, "renavam": v.renavam,
            "ano_fabricacao": v.ano_fabricacao, "vistoria_validade": v.vistoria_validade,
            "situacao": v.situacao, "lugares_sentados": v.lugares_sentados}  # fmt: skip


def _auto(s: Any, chave: tuple[int, int]) -> dict[str, Any] | None:
    ano, numero = chave
    a = s.scalars(
        sa.select(AutoInfracao).where(AutoInfracao.ano == ano, AutoInfracao.numero == numero)
    ).one_or_none()
    if a is None:
        return None
    veiculo = s.get(Veiculo, a.veiculo_id) if a.veiculo_id else None
    decisao = s.scalars(sa.select(Decisao).where(Decisao.auto_id == a.id)).one_or_none()
    pagamento = (
        s.scalars(sa.select(Pagamento).where(Pagamento.decisao_id == decisao.id)).one_or_none()
        if decisao is not None
        else None
    )
    return {
        "operadora": _formatar(_cnpj_de(s, a.operadora_id)), "placa": veiculo.placa if veiculo else None,
        "dispositivo": a.dispositivo_codigo, "data_infracao": a.data_infracao,
        "data_decisao": decisao.data if decisao is not None else None, "multa_ur": a.multa_ur,
        "data_definitiva": a.data_definitiva, "definitiva_presumida": a.definitiva_presumida,
        "encerrado_no_livro": a.encerrado_no_livro,
        "pagamento": (pagamento.situacao, pagamento.pago_em, pagamento.valor_pago) if pagamento else None,
    }  # fmt: skip


def _formatar(cnpj: str) -> str:
    return f"{cnpj[:2]}.{cnpj[2:5]}.{cnpj[5:8]}/{cnpj[8:12]}-{cnpj[12:]}" if len(cnpj) == 14 else cnpj


_GUARDADO: dict[str, Callable[[Any, Any], dict[str, Any] | None]] = {
    "operadoras": _operadora,
    "fiscais": _fiscal,
    "veiculos": _veiculo,
    "autos": _auto,
}


Importador = Callable[[str, bytes], dict[int, str]]
"""Imports a file of a kind (only its valid rows; the book with the presumption of `PRESUNCAO` days) and
gives its refused rows: row number → the reasons. By the service, the command line or the window."""


def pelo_servico(banco: Banco, ator: Ator) -> Importador:
    def importar_arquivo(tipo: str, conteudo: bytes) -> dict[int, str]:
        planilha = ler_conteudo(conteudo, f"{tipo}.xlsx")
        r = importar(banco.uow(), ator, tipo, planilha, somente_validas=True,
                     presumir_definitiva=PRESUNCAO if tipo == "autos" else None)  # fmt: skip
        return {linha.numero: " ".join(linha.problemas) for linha in r.recusadas}

    return importar_arquivo


def avaliar(banco: Banco, conjunto: Conjunto, importar_arquivo: Importador) -> dict[str, Contagem]:
    """Import every file and count each row against the truth, value by value."""
    contagens: dict[str, Contagem] = {}
    for tipo in ORDEM:
        recusadas = importar_arquivo(tipo, conjunto.arquivos[tipo])
        contagem = contagens[tipo] = Contagem()
        with banco.leitura() as s:
            for caso in conjunto.casos[tipo]:
                if caso.numero in recusadas:
                    contagem.recusadas += 1
                    if caso.esperado is not None:
                        contagem.recusadas_indevidamente.append(
                            f"linha {caso.numero}: {recusadas[caso.numero]}"
                        )
                    continue
                contagem.aceitas += 1
                guardado = _GUARDADO[tipo](s, caso.chave) if caso.esperado is not None else None
                if caso.esperado is None or guardado != caso.esperado:
                    contagem.aceitas_indevidamente.append(
                        f"linha {caso.numero}: esperado {caso.esperado}, gravado {guardado}"
                    )
    return contagens


def conferir(contagens: dict[str, Contagem], conjunto: Conjunto) -> str:
    """Nothing wrongly accepted or refused, every row counted, and each file with rows of both kinds (so the
    set tests both sides); the counts, one line per file, for the closing note."""
    for tipo, contagem in contagens.items():
        assert contagem.aceitas_indevidamente == [], (tipo, contagem.aceitas_indevidamente)
        assert contagem.recusadas_indevidamente == [], (tipo, contagem.recusadas_indevidamente)
        assert contagem.aceitas and contagem.recusadas, (tipo, str(contagem))
        assert contagem.aceitas + contagem.recusadas == len(conjunto.casos[tipo]), tipo
    return "\n".join(f"{tipo}: {contagem}" for tipo, contagem in contagens.items())
