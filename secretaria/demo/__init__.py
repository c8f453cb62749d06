"""The synthetic city: the demo database (`secretaria demo`) and, at a larger scale, the benchmark's city.

`cidade.gerar_cidade(banco, escala)` writes a coherent city — registries, autos in every state of the
procedure with legal penalties and deadlines — from a fixed seed, with bulk inserts; `popular.popular_demo`
adds the demo's users first. The demo sits above the services (it uses them to hash passwords, write audit
rows and word penalties); the command line calls it, and no service imports it.
"""
