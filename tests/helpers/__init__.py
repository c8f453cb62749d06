"""Shared test builders and fixtures, imported like any module (`from tests.helpers.fabrica import Roteiro`).

`fixtures` is a pytest plugin registered by the root conftest (`pytest_plugins`); the other modules are plain
code. `trabalhador_numeracao` is the child process of a concurrency test, imported by name under "spawn".
"""
