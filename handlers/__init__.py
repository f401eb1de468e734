"""Telegram in and out: parse updates, check who may act, call the table service, render."""
