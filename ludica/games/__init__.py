"""The games. Each package exposes ``GAME``; see ``ludica.core.registry``."""
