from __future__ import annotations

import sys

from secretaria.cli import main

sys.exit(main())
