"""Saving a copy of an attached file, shared by the case screen and the representação screen."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QWidget

from secretaria.services.base import ErroDominio
from secretaria.ui.contexto import Contexto
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
    if destino is not None:
        destino.write_bytes(arquivo.conteudo)
