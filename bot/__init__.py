"""Karata's composition and services: settings, storage, the table service, timers, i18n, CLI."""
