"""A Lei Municipal nº 2.413/1978 (Pelotas) escrita como código.

Este pacote é o único lugar onde o programa decide o que a lei diz: o catálogo dos 55 dispositivos
(``catalogo``), a faixa de multa, a reincidência e a suspensão do art. 7º (``sancoes``), os prazos de
defesa e recurso (``prazos``), a URM e o valor por extenso (``urm``) e a conferência de CPF, CNPJ, placa e
RENAVAM (``documentos``). É puro de propósito: não importa Qt, SQLAlchemy nem nada do resto do projeto e não
faz E/S além de ler ``secretaria/resources/catalogo.csv``, para que um jurista possa lê-lo ao lado da lei e
os testes o verifiquem sem banco de dados nem tela.

Toda recusa por motivo jurídico é uma ``secretaria.lei.erros.ErroLei`` (subclasse de ``ValueError``) com a
mensagem, em português, que o usuário deve ler.
"""
