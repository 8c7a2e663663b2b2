"""The web table: rooms, seats, live per-seat views, durable storage (see ``docs/table.md``).

``ludica serve`` calls :func:`ludica.table.server.serve`; ``ludica verify`` calls
:func:`ludica.table.fairness.verify_record`. The table never imports a specific game: it uses the
core protocol and each game's ``web/view.html`` face (:mod:`ludica.table.faces`).
"""
