"""Saving a copy of an attached file, shared by the case screen and the representação screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from secretaria.services.base import ErroDominio
from secretaria.services.rotulos import formatar_data_hora
from secretaria.ui.contexto import Contexto
from secretaria.ui.processo.campos import item_vazio
from secretaria.ui.widgets import arquivos, mensagens


def salvar_copia_do_anexo_selecionado(
    parent: QWidget, contexto: Contexto, lista: QListWidget, *, nome: str = "arquivo"
) -> None:
    """Save a copy of the file selected in `lista` (its id in UserRole), only if its bytes still match the
    SHA-256 taken when it was attached: an altered file is refused with the reason, never handed out."""
    from secretaria.services.anexos import abrir_anexo_conferido

    item = lista.currentItem()
    anexo_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
    if anexo_id is None:
        return
    try:
        with contexto.banco.leitura() as sessao:
            arquivo = abrir_anexo_conferido(sessao, anexo_id)
    except ErroDominio as erro:
        mensagens.avisar_erro(parent, f"{nome.capitalize()} alterado", erro.mensagem)
        return
    destino = arquivos.salvar_como(
        parent, f"Salvar cópia do {nome}", arquivo.nome_para_abrir, "Todos os arquivos (*)"
    )
    if destino is None:
        return
    try:
        destino.write_bytes(arquivo.conteudo)
    except OSError as exc:
        mensagens.avisar_erro(parent, f"Salvar cópia do {nome}", arquivos.texto_falha_gravacao(destino, exc))


def preencher_lista_anexos(lista: QListWidget, anexos: Sequence[Any]) -> None:
    """List attached files (name, size, when and by whom; SHA-256 in the tooltip; id in UserRole), the first
    selected, or a grey "none" line. `anexos` are the services' attachment rows (nome_arquivo, tamanho,
    anexado_em, anexado_por, sha256, id)."""
    lista.clear()
    for a in anexos:
        item = QListWidgetItem(
            f"{a.nome_arquivo} — {max(1, round(a.tamanho / 1024))} kB, anexado em "
            f"{formatar_data_hora(a.anexado_em)} por {a.anexado_por}"
        )
        item.setToolTip(f"SHA-256 {a.sha256}")
        item.setData(Qt.ItemDataRole.UserRole, a.id)
        lista.addItem(item)
    if anexos:
        lista.setCurrentRow(0)
    else:
        item_vazio(lista, "Nenhum arquivo anexado.")
