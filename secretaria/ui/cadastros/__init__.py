"""Registry screens: operators and lines, vehicles, employees and agents, SMSU inspectors."""
