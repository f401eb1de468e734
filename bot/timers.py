"""Turn timers on PTB's JobQueue (APScheduler): the timeout, the warning before it, the nudge.

Each job carries the table version it was scheduled for; a job that fires after the table has
moved on does nothing, so a stale timer can never act twice or act on a new turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from telegram.ext import ContextTypes, JobQueue

from bot.storage import TableRow

if TYPE_CHECKING:
    from bot.service import TableService


class Timers:
    def __init__(
        self,
        job_queue: JobQueue,
        service: TableService,
        warn_seconds: int,
        nudge_seconds: float,
        window_seconds: float = 120,
    ):
        self.job_queue = job_queue
        self.service = service
        self.warn_seconds = warn_seconds
        self.nudge_seconds = nudge_seconds
        # How long a clock-closed window (a Rule Vote, waiting for a champion) stays open.
        self.window_seconds = window_seconds

    def schedule_clock_actions(self, table_id: int, kinds: list[str]) -> None:
        """Arm one job per open window; a window keeps its first deadline until it closes."""
        prefix = f"clock:{table_id}:"
        for job in self.job_queue.jobs():
            if job.name and job.name.startswith(prefix) and job.name[len(prefix):] not in kinds:
                job.schedule_removal()
        for kind in kinds:
            name = prefix + kind
            if not self.job_queue.get_jobs_by_name(name):
                self.job_queue.run_once(self._on_clock_action, self.window_seconds, data=(table_id, kind), name=name)

    async def _on_clock_action(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        table_id, kind = context.job.data  # type: ignore[union-attr, misc]
        await self.service.clock_action(table_id, kind)

    @staticmethod
    def _names(table_id: int) -> tuple[str, str, str, str]:
        return (f"timeout:{table_id}", f"warn:{table_id}", f"nudge:{table_id}", f"pause:{table_id}")

    def cancel(self, table_id: int) -> None:
        for name in self._names(table_id):
            for job in self.job_queue.get_jobs_by_name(name):
                job.schedule_removal()

    def schedule(self, table: TableRow, now: float) -> None:
        self.cancel(table.table_id)
        data = (table.table_id, table.version)
        timeout_name, warn_name, nudge_name, pause_name = self._names(table.table_id)
        pause = max(0.0, (table.paused_until or now) - now)
        if table.paused_until is not None:
            self.job_queue.run_once(self._on_pause_end, pause, data=data, name=pause_name)
        if self.nudge_seconds > 0:
            self.job_queue.run_once(self._on_nudge, pause + self.nudge_seconds, data=data, name=nudge_name)
        if table.deadline is None:
            return
        remaining = max(0.0, table.deadline - now)
        self.job_queue.run_once(self._on_timeout, remaining, data=data, name=timeout_name)
        if self.warn_seconds and remaining > self.warn_seconds and not table.warned:
            self.job_queue.run_once(self._on_warn, remaining - self.warn_seconds, data=data, name=warn_name)

    async def _on_pause_end(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        table_id, _version = context.job.data  # type: ignore[union-attr, misc]
        await self.service.end_pause(table_id)

    async def _on_timeout(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        table_id, version = context.job.data  # type: ignore[union-attr, misc]
        await self.service.timeout(table_id, version)

    async def _on_warn(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        table_id, version = context.job.data  # type: ignore[union-attr, misc]
        await self.service.warn(table_id, version)

    async def _on_nudge(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        table_id, version = context.job.data  # type: ignore[union-attr, misc]
        await self.service.nudge(table_id, version)
