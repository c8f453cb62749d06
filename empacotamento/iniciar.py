"""The frozen program's main script (PyInstaller runs it as `__main__`): the same `main` as the `secretaria`
command. Not named secretaria.py: next to the package, that name would hide it."""

import sys

from secretaria.cli import main

if __name__ == "__main__":
    sys.exit(main())
