"""What every screen receives: the open database, the logged-in user, and whether this is the demo.

Screens call services with `contexto.banco.uow()` (one unit of work per user action) and
`contexto.ator`; they never hold a session across user actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from secretaria.db import Banco
from secretaria.services.base import Ator


@dataclass
class Contexto:
    banco: Banco
    ator: Ator
    demo: bool = False

    def pode(self, *papeis: str) -> bool:
        return self.ator.tem(*papeis)
