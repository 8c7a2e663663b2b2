"""Per-game action catalogues of the environments (see :mod:`ludica.env.encoding`).

Each module declares ``shapes(game, config, seats)``, every action shape the game can offer under
that config with the domain of each parameter, and ``max_chance_outcomes(config)``, the most
outcomes of one decomposed chance draw (:mod:`ludica.env.chance`).

They live here rather than in the games' packages because they are encoding choices (caps on
counted ids, which shapes are ranked), not rules, and a game never depends on the environments.
"""
