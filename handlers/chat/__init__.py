"""The chat door: Telegram updates in (commands, buttons, chat changes) and their answers."""
