"""Day one: bringing the office's spreadsheets in (issue 17).

`leitura` reads `.xlsx`/`.csv` files into plain rows (no database); `colunas` finds each column by its
header; `cadastros` previews and imports the registries in one transaction.
"""
