"""The middle of the house: the table service, its storage and its timers (below handlers, above engines)."""
