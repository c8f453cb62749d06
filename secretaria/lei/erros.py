"""A exceção de base do pacote ``secretaria.lei``.

Fica num módulo próprio para que todos os módulos da lei (e as camadas de cima) capturem um só tipo
quando querem mostrar ao usuário o motivo de uma recusa.
"""

from __future__ import annotations

__all__ = ["ErroLei"]


class ErroLei(ValueError):
    """Recusa com fundamento na lei ou nos dados; a mensagem, em português, vai ao usuário tal como está.

    É ``ValueError`` porque quase sempre decorre de um valor inadmissível (tipo, documento, data sem URM),
    o que permite ao código genérico tratá-la como tal.
    """
