"""What the window needs of the system before Qt starts (no Qt import here).

On Linux Qt draws through its xcb plugin, which links system libraries a fresh Debian/Ubuntu desktop may
lack (libxcb-cursor0 above all, since Qt 6.5). Without them Qt prints an English "Could not load the Qt
platform plugin" and aborts with a core dump; checked beforehand, the user is told in Portuguese which
packages to install and the program exits normally.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Mapping

# The libraries Qt's xcb plugin (libqxcb.so and libQt6XcbQpa.so) links, each with its Debian/Ubuntu package.
BIBLIOTECAS_XCB: dict[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
}


def carrega(nome: str) -> bool:
    """Whether the dynamic loader finds and loads the library (what Qt will do a moment later)."""
    try:
        ctypes.CDLL(nome)
    except OSError:
        return False
    return True


def usara_xcb(plataforma: str = sys.platform, ambiente: Mapping[str, str] | None = None) -> bool:
    """Whether Qt will try its xcb plugin first: on Linux, unless QT_QPA_PLATFORM names another first
    (Qt 6 takes xcb by default even in a Wayland session)."""
    if not plataforma.startswith("linux"):
        return False
    escolhida = (os.environ if ambiente is None else ambiente).get("QT_QPA_PLATFORM", "").strip()
    primeira = escolhida.split(";")[0].split(":")[0].strip()
    return primeira in ("", "xcb")


def pacotes_que_faltam(carregar: Callable[[str], bool] | None = None) -> list[str]:
    teste = carrega if carregar is None else carregar
    return [pacote for biblioteca, pacote in BIBLIOTECAS_XCB.items() if not teste(biblioteca)]


def conferir_bibliotecas_graficas(
    *,
    plataforma: str = sys.platform,
    ambiente: Mapping[str, str] | None = None,
    carregar: Callable[[str], bool] | None = None,
) -> str | None:
    """The message to show instead of opening the window, or None when nothing is missing."""
    if not usara_xcb(plataforma, ambiente):
        return None
    faltam = pacotes_que_faltam(carregar)
    if not faltam:
        return None
    plural = len(faltam) > 1
    return (
        f"{'Faltam' if plural else 'Falta'} no sistema {'bibliotecas gráficas' if plural else 'uma biblioteca gráfica'} "
        f"de que a janela do programa precisa ({', '.join(faltam)}).\n"
        f"Instale {'os pacotes' if plural else 'o pacote'} (Debian/Ubuntu) e abra o programa de novo:\n"
        f"    sudo apt-get install {' '.join(faltam)}"
    )
