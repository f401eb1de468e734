"""Pure renderers: what each message of a table shows, from the committed table, in a reader's language."""
