"""The files the import hands the user: the template of a kind and the rejected rows."""

from __future__ import annotations

from collections.abc import Sequence

from secretaria.reports.importacao import ColunaModelo, planilha_modelo, planilha_recusadas
from secretaria.services.importacao.colunas import COLUNAS, ROTULOS_TIPOS, Coluna
from secretaria.services.importacao.comum import LinhaAvaliada
from secretaria.services.importacao.leitura import LIMITE_BYTES, LIMITE_LINHAS

__all__ = ["modelo", "recusadas"]


def _opcoes(coluna: Coluna) -> tuple[str, ...]:
    if coluna.tipo == "booleano":
        return ("Sim", "Não")
    if coluna.opcoes:
        return tuple(coluna.opcoes.values())
    return ()


def modelo(tipo: str) -> bytes:
    """The `.xlsx` template of `tipo` ("operadoras", "veiculos", …)."""
    colunas = [
        ColunaModelo(c.titulo, c.obrigatoria, c.exemplo, c.nota, _opcoes(c), c.sinonimos)
        for c in COLUNAS[tipo]
    ]
    limite = f"{LIMITE_LINHAS:,}".replace(",", ".")
    observacoes = (
        "Preencha uma linha por registro na aba Dados, a partir da linha 2 (apague o exemplo). "
        "A primeira linha traz os títulos: a ordem das colunas não importa, e títulos parecidos "
        "(sem acento, em maiúsculas, com sinônimos) também são reconhecidos.",
        "CPF, CNPJ, placa e RENAVAM podem ter ou não pontos e traços; datas no formato dd/mm/aaaa.",
        "Importar de novo o mesmo arquivo não duplica nada: um registro já cadastrado (pelo CNPJ, pela "
        "placa ou RENAVAM, pelo CPF na operadora, pelo código da linha, pela matrícula ou pelo número e ano do auto) é atualizado.",
        "Fórmulas são lidas pelo valor que o Excel calculou ao salvar; nada é calculado pelo programa.",
        f"Limites: {limite} linhas e {LIMITE_BYTES // (1024 * 1024)} MB por arquivo. Também aceita CSV "
        "(separado por ponto e vírgula ou vírgula, UTF-8 ou o formato do Excel em português).",
    )
    return planilha_modelo(ROTULOS_TIPOS[tipo], colunas, observacoes)


def recusadas(cabecalhos: Sequence[str], linhas: Sequence[LinhaAvaliada]) -> bytes:
    """The rejected rows as an `.xlsx`, the reason in a last column, to fix and import again."""
    return planilha_recusadas(
        cabecalhos, [(linha.numero, linha.valores, " ".join(linha.problemas)) for linha in linhas]
    )
