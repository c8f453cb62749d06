"""Widgets every screen shares (both UI parts use them; keep their API stable).

- `CampoData` (datas): dd/mm/aaaa with calendar popup and an empty state; `data()`, `data_ou_erro()`.
- `CampoDecimal`, `RotuloValor`, `texto_reais`, `texto_urm` (valores): money and URM in pt-BR form.
- `CampoCnpj`, `CampoCpf`, `CampoPlaca` (documentos): masked identifiers; `valor()` gives the bare value.
- `Formulario` (formulario): QFormLayout whose fields show an `ErroDominio` in red beside them (a reserved
  line that grows to the text and clears when the field changes); `botoes_salvar_cancelar(dialogo)` for
  Enter = save / Escape = cancel; `DialogoFormulario`, the base of every editing dialog ("Descartar as
  alterações?" on a changed form; `avisar_alteracao_externa(mensagem)` / Recarregar after a conflict).
- `mensagens`: `informar`, `avisar_erro`, `confirmar(parent, titulo, texto, ao_confirmar)` — non-blocking,
  with callbacks; `caixa_aberta()` / `responder()` for tests.
- `arquivos`: `salvar_como`, `abrir_arquivo`, `abrir_arquivos`, `escolher_pasta` (tests patch these).
- `exportar`: `exportar_para_excel(parent, titulo=, cabecalhos=, linhas=, total=)`: rows read and written in a
  background task (`tarefas.em_segundo_plano`: progress, Cancelar leaves no file; openpyxl imported lazily).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from secretaria.ui.widgets import arquivos, mensagens
    from secretaria.ui.widgets.datas import CampoData, ler_data
    from secretaria.ui.widgets.documentos import CampoCnpj, CampoCpf, CampoMascarado, CampoPlaca
    from secretaria.ui.widgets.formulario import (
        Formulario,
        botoes_salvar_cancelar,
        rotulo_erro,
        traduzir_botoes,
    )
    from secretaria.ui.widgets.valores import CampoDecimal, RotuloValor, ler_decimal, texto_reais, texto_urm

# Each name is imported from its module when first asked for (PEP 562), so a screen that needs one widget
# loads only that one's module: the login, before which every millisecond counts, needs only the form.
_MODULOS = {
    "arquivos": "arquivos",
    "mensagens": "mensagens",
    "CampoData": "datas",
    "ler_data": "datas",
    "CampoCnpj": "documentos",
    "CampoCpf": "documentos",
    "CampoMascarado": "documentos",
    "CampoPlaca": "documentos",
    "Formulario": "formulario",
    "botoes_salvar_cancelar": "formulario",
    "rotulo_erro": "formulario",
    "traduzir_botoes": "formulario",
    "CampoDecimal": "valores",
    "RotuloValor": "valores",
    "ler_decimal": "valores",
    "texto_reais": "valores",
    "texto_urm": "valores",
}


def __getattr__(nome: str) -> Any:
    modulo = _MODULOS.get(nome)
    if modulo is None:  # a submodule not listed (exportar, tarefas…): the import system loads it
        raise AttributeError(f"module {__name__!r} has no attribute {nome!r}")
    carregado = importlib.import_module(f"{__name__}.{modulo}")
    valor = carregado if nome == modulo else getattr(carregado, nome)
    globals()[nome] = valor
    return valor


__all__ = [
    "CampoCnpj",
    "CampoCpf",
    "CampoData",
    "CampoDecimal",
    "CampoMascarado",
    "CampoPlaca",
    "Formulario",
    "RotuloValor",
    "arquivos",
    "botoes_salvar_cancelar",
    "ler_data",
    "ler_decimal",
    "mensagens",
    "rotulo_erro",
    "texto_reais",
    "texto_urm",
    "traduzir_botoes",
]
