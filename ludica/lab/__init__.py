"""Batch simulation, statistics and golden playthroughs for designers and tests."""
