"""Telegram in and out, in rooms by kind (docs/ARCHITECTURE.md): presentation, delivery, the door
for moves, the services, and the two doors (the chat's handlers, the Mini App)."""
