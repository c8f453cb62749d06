"""The synthetic city: the demo database (`secretaria demo`) and, at a larger scale, the benchmark's city.

`cidade.gerar_cidade(banco, escala)` writes a coherent city — registries, autos in every state of the
procedure with legal penalties and deadlines — from a fixed seed, with bulk inserts.
"""
