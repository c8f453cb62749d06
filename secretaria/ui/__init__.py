"""PySide6 user interface: calls services only."""
