"""Run the Application inside an existing event loop (the demo and end-to-end tests do this).

`Application.run_polling` owns the loop and calls `post_init` itself; starting by hand must do
the same steps in the same order, and undo them in reverse.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from telegram import Update
from telegram.ext import Application

from bot.app import build_application, webhook_options
from bot.settings import Settings


@contextlib.asynccontextmanager
async def running_application(settings: Settings) -> AsyncIterator[Application]:
    application = build_application(settings)
    await application.initialize()
    if application.post_init:
        await application.post_init(application)
    assert application.updater is not None
    if settings.mode.value == "webhook":
        await application.updater.start_webhook(**webhook_options(settings))  # type: ignore[arg-type]
    else:
        await application.updater.start_polling(poll_interval=0.0, timeout=1, allowed_updates=Update.ALL_TYPES)
    await application.start()
    try:
        yield application
    finally:
        await application.updater.stop()
        await application.stop()
        if application.post_stop:
            await application.post_stop(application)
        await application.shutdown()
        if application.post_shutdown:
            await application.post_shutdown(application)
