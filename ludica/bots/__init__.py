"""Bots that play any registered game through the core protocol."""
