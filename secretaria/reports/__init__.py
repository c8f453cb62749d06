"""Official documents (ReportLab PDFs) and the monthly spreadsheet (openpyxl), made from plain data.

Deliberately empty of imports: the window imports `secretaria` packages at start-up, and ReportLab or
openpyxl must only load when a document is actually made. Import the renderer modules directly
(`secretaria.reports.auto_infracao`, `...intimacao`, `...decisao`, `...ficha`, `...planilha_mensal`,
`...planilha`: the one xlsx writer, for the monthly report and every list export).
"""
