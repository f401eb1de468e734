"""The Mini App's server side: initData check, snapshots of a seat's view, the API, live updates."""
