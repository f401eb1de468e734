"""High Card, a toy game that tests add for the test only: an engine package (`engine`) and a
renderer (`renderer`), and nothing else, as docs/ARCHITECTURE.md's "add a game" says."""
