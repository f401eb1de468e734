"""Karata's pure rules engines: one package per game behind the protocol in engine.core."""
