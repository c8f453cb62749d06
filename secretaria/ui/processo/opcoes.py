"""The choices the case forms offer (operators, provisions, inspectors, an operator's vehicles...).

Read through the list service (`secretaria.services.listas`), one read session per call, and only the
rows a combo needs: an operator's vehicles, lines and employees are loaded when that operator is chosen.
The forms take any `OpcoesCaso`, so a test or a preview can hand them fixed choices.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from secretaria.ui.contexto import Contexto

LIMITE_OPCOES = 2000


class Opcao(NamedTuple):
    rotulo: str
    id: Any
    busca: str = ""
    """More words a search finds it by (`preencher_combo`): an operator's razão social."""


class OpcoesCaso(Protocol):
    def operadoras(self) -> list[Opcao]: ...

    def dispositivos(self) -> list[Opcao]: ...

    def fiscais(self) -> list[Opcao]: ...

    def veiculos(self, operadora_id: int) -> list[Opcao]: ...

    def linhas(self, operadora_id: int) -> list[Opcao]: ...

    def empregados(self, operadora_id: int) -> list[Opcao]: ...

    def linha_do_veiculo(self, veiculo_id: int) -> int | None: ...

    def fiscal_do_usuario(self, login: str) -> int | None: ...


def _encurtar(texto: str, limite: int = 70) -> str:
    texto = " ".join(texto.split())
    return texto if len(texto) <= limite else texto[: limite - 1].rstrip() + "…"


class OpcoesDoBanco:
    """`OpcoesCaso` over the registries' choice queries (`secretaria.services.cadastros.opcoes_*`)."""

    def __init__(self, contexto: Contexto) -> None:
        self.contexto = contexto

    def _ler(self, funcao: Any, *args: Any, **kwargs: Any) -> list[Opcao]:
        with self.contexto.banco.leitura() as sessao:
            return [Opcao(o.rotulo, o.id, o.busca) for o in funcao(sessao, *args, **kwargs)]

    def operadoras(self) -> list[Opcao]:
        from secretaria.services.cadastros import opcoes_operadoras

        return self._ler(opcoes_operadoras)

    def dispositivos(self) -> list[Opcao]:
        return dispositivos_citaveis(self.contexto)

    def fiscais(self) -> list[Opcao]:
        from secretaria.services.cadastros import opcoes_fiscais

        return self._ler(opcoes_fiscais)

    def fiscal_do_usuario(self, login: str) -> int | None:
        from secretaria.services import listas

        d = listas.definicao("fiscais")
        with self.contexto.banco.leitura() as sessao:
            linhas = listas.pagina(
                sessao, "fiscais", listas.Filtro(situacoes=frozenset({"ativo"})), None, 0, LIMITE_OPCOES
            )
        for linha in linhas:
            if linha[d.indice("usuario")] == login:
                return int(linha[0])
        return None

    def veiculos(self, operadora_id: int) -> list[Opcao]:
        from secretaria.services.cadastros import opcoes_veiculos

        return self._ler(opcoes_veiculos, operadora_id)

    def linhas(self, operadora_id: int) -> list[Opcao]:
        from secretaria.services.cadastros import opcoes_linhas

        return self._ler(opcoes_linhas, operadora_id)

    def empregados(self, operadora_id: int) -> list[Opcao]:
        from secretaria.services.cadastros import opcoes_empregados

        return self._ler(opcoes_empregados, operadora_id)

    def linha_do_veiculo(self, veiculo_id: int) -> int | None:
        from secretaria.services.cadastros import linha_do_veiculo

        with self.contexto.banco.leitura() as sessao:
            return linha_do_veiculo(sessao, veiculo_id)


def dispositivos_citaveis(contexto: Contexto) -> list[Opcao]:
    """The active provisions of the catalogue (the law's 55, then contractual ones), as
    "Art. 1º, XVI (tipo D) — text…". One still without tipo (Art. 1º, X until the administrator sets it)
    stays listed, so that choosing it shows in the sanction panel why it cannot be cited yet."""
    from secretaria.services.catalogo import listar_dispositivos

    with contexto.banco.leitura() as sessao:
        itens = listar_dispositivos(sessao, incluir_inativos=False)
    saida = []
    for d in itens:
        tipo = f"tipo {d.tipo}" if d.tipo else "sem tipo"
        saida.append(Opcao(f"{d.rotulo} ({tipo}) — {_encurtar(d.texto)}", d.codigo))
    return saida


def opcoes_do_banco(contexto: Contexto) -> OpcoesCaso:
    return OpcoesDoBanco(contexto)
