"""Python's full cyclic collections held back while long work runs (a background task, a document's render).

The collector holds the GIL while it walks, and a full collection walks every tracked object: with a big
document's objects alive, each one froze the window for up to seconds (the ficha of an operator with 22,000
autos: 11 s), and eight of them were an eighth of that ficha's render even without a window (0.9–1.1 s of
7.2–7.5 s of CPU, gc.callbacks on the 200,000-auto city). So while such work runs there is no full collection
(the oldest generation's threshold is out of reach); the young generations are still collected, and when the
last such work ends the thresholds come back and the next full collection, as often as Python's own rule
makes it, frees what is left.

This is as narrow as CPython allows: its collector is one for the process (a collection started by any
thread's allocations walks every thread's objects), so "not in this thread" does not exist; what can be
narrowed is which collections wait. (The window's process goes further: it collects only in its GUI thread,
`coletar_como_o_python`, below.) Measured (gc.callbacks) on a 6,000-auto ficha of sample data laid out in
a thread while another thread ticked every 5 ms, three runs of each on 2 shared, busy cores: collector on, one
full collection of 54–86 ms per ficha and young ones up to 58 ms, the ticking thread stalled 91–129 ms;
young collections only, the longest 12–45 ms, stalled 24–75 ms; collector off, stalled 56–94 ms. Turning the
whole collector off bought nothing more, and switched back on after a 12-second ficha its first young
collection walked every object the render had made (a 337–588 ms freeze): it stays on.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["SEM_COLETA_COMPLETA", "coletar_como_o_python", "sem_coleta_completa"]

SEM_COLETA_COMPLETA = 1_000_000_000
"""The oldest generation's threshold while such work runs: a full collection comes after that many young
ones, which is never."""

_trava = threading.Lock()
_em_curso = 0
_limiares: tuple[int, int, int] = (700, 10, 10)


@contextmanager
def sem_coleta_completa() -> Iterator[None]:
    """No full collection until the last of the nested or concurrent blocks (any thread) has ended."""
    global _em_curso, _limiares
    with _trava:
        if _em_curso == 0:
            _limiares = gc.get_threshold()
            gc.set_threshold(_limiares[0], _limiares[1], SEM_COLETA_COMPLETA)
        _em_curso += 1
    try:
        yield
    finally:
        with _trava:
            _em_curso -= 1
            if _em_curso == 0:
                gc.set_threshold(*_limiares)


_vivos_apos_completa = 0
"""Objects in the oldest generation right after the last full collection `coletar_como_o_python` made
(CPython's `long_lived_total`)."""

_promovidos = 0
"""Objects the young collections have moved to the oldest generation since then (CPython's
`long_lived_pending`)."""


def coletar_como_o_python() -> int | None:
    """One step of CPython's own automatic collection (3.11's `collect_generations`), for a process that
    switched it off (`gc.disable`) to collect in one thread only: nothing until the youngest generation has
    passed its threshold (CPython's trigger); then a full collection if the oldest generation's count passed
    its threshold and it grew by a quarter since the last one (CPython's `long_lived_pending <
    long_lived_total / 4` rule), never while `sem_coleta_completa` holds it back; else the two young
    generations together. Returns the generation collected, or None.

    Why one thread: the collector runs in whichever thread's allocation tripped it, and a Qt object left in a
    reference cycle is then destroyed there. Its destructor takes Qt's signal lock and then waits for Python's
    GIL while the GUI thread, holding the GIL, waits for that lock in a `connect`: the window hung for good
    (seen once in the suite: the Painel's reading thread freed an old window's object while the new window
    was shown). pyqtgraph, calibre and novelWriter collect from a GUI-thread timer for this reason.

    Why both young generations at once, where CPython collects the middle one only every tenth time: a timer
    tick finds everything a worker made since the last tick in the youngest generation, where CPython would
    have collected it 700 objects at a time; collected alone, its survivors piled up in the middle
    generation, and every tenth tick walked ten ticks' worth (a worker reading a 92,000-row month: one
    collection of 50 ms, the window's worst freeze 109–158 ms against 78–110 ms with CPython's collector).
    Collected together, each tick walks one tick's worth once (3–17 ms there), and what survived a whole tick
    is old by CPython's measure anyway. The quarter rule's counts are kept as CPython keeps them: the young
    generations' survivors added up, the old generation listed only after a full collection."""
    global _vivos_apos_completa, _promovidos
    contagem = gc.get_count()
    limiares = gc.get_threshold()
    if contagem[0] <= limiares[0]:
        return None
    if contagem[2] > limiares[2] and _promovidos >= _vivos_apos_completa / 4:
        gc.collect(2)
        _vivos_apos_completa = len(gc.get_objects(2))
        _promovidos = 0
        return 2
    jovens = len(gc.get_objects(0)) + len(gc.get_objects(1))
    _promovidos += max(0, jovens - gc.collect(1))
    return 1
