"""Presentation: pure renderers of what players see (the seat, the table, the games' words), no I/O."""
