"""Delivery: what messages a table owns, and getting them to Telegram within its limits."""
