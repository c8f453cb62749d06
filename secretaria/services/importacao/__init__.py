"""Day one: bringing the office's spreadsheets in.

`leitura` reads `.xlsx`/`.csv` files into plain rows (no database): the first visible sheet, the header
under any title rows, footers dropped, merged cells filled down; `valores` reads a cell as what it is
(numbers as numbers, pt-BR text, two-digit years by the field's sense); `colunas` finds each column by its
header; `comum` holds what every kind shares (the preview, the reading of a row's cells, the loop over
the rows, the one-transaction rule); `cadastros` previews and imports the registries, `autos` the paper
books' history. The office's words for the code lists live in `secretaria.vocabulario`.
"""
