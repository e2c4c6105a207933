"""The tournament use case: every pair of players over seeded deals, its CSV kept as deals finish.

A :class:`TournamentRun` checks the request before any work (conflicting
fields refused, fields that do not apply reported as warnings, the output
path checked, a CSV to resume read), then :meth:`TournamentRun.play` plays
the deals not yet in the CSV and answers the report.  Finished deals are in
the CSV as soon as they finish: an interrupted run keeps them
(:attr:`TournamentRun.saved` says how many), and ``resume`` plays only the
others.

>>> run = TournamentRun(TournamentRequest(("greedy", "random"), deals=1, jobs=4))
>>> run.jobs, [w.message for w in run.warnings]
(1, ['jobs 4: using 1 (one per core and per deal)'])
>>> TournamentRun(TournamentRequest(("greedy", "random"), resume=True))
Traceback (most recent call last):
    ...
solver.errors.QuintetError: resume needs csv="FILE" (the file to resume)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from solver.app.answers import Answer, Notice, answer_of
from solver.app.games_csv import GamesCsv, finished_deals
from solver.app.report import Output
from solver.app.report_games import tournament_report
from solver.errors import QuintetError
from solver.game.cards import Lang
from solver.game.rules import DEFAULT_RULES, Rules
from solver.play.tournament import (
    DASK_CONNECT_TIMEOUT,
    DealRecord,
    TournamentConfig,
    run,
    used_jobs,
)
from solver.schemas import versioned
from solver.util.files import check_output_path
from solver.util.language import Phrase

__all__ = ["TournamentRequest", "TournamentRun"]

_ALL_PLAYED = Phrase(
    "all {deals} deals are already in {csv}: nothing to play",
    "все сдачи ({deals}) уже есть в {csv}: играть нечего",
)
_RESUMED = Phrase(
    "resumed: {deals} deals were already in {csv} (in the CSV, not in this report)",
    "продолжено: сдачи ({deals}) уже были в {csv} (они в CSV, не в этом отчёте)",
)


@dataclass(frozen=True)
class TournamentRequest:
    """A tournament: players by name, deals, where to run it and where its CSV goes."""

    players: tuple[str, ...]
    deals: int = 100
    seed: int = 0
    rules: Rules = DEFAULT_RULES
    equilibrium_time_limit: float | None = None
    jobs: int = 1
    backend: str = "local"
    scheduler: str | None = None
    connect_timeout: float = DASK_CONNECT_TIMEOUT
    csv: str | None = None
    resume: bool = False


class TournamentRun:
    """A checked tournament request, ready to :meth:`play` (see the module)."""

    def __init__(self, request: TournamentRequest) -> None:
        self.request = request
        self.config = TournamentConfig(
            players=request.players,
            deals=request.deals,
            seed=request.seed,
            rules=request.rules,
            equilibrium_time_limit=request.equilibrium_time_limit,
        )
        self.jobs, self.warnings = self._checks()
        resumed = request.csv if request.resume else None  # checked: resume has a csv
        self.done = finished_deals(resumed, self.config) if resumed is not None else {}
        self.saved = len(self.done)

    def _checks(self) -> tuple[int, tuple[Notice, ...]]:
        """Refuse conflicting fields, warn about ignored ones; the jobs used."""
        request, notices = self.request, []
        if request.resume and request.csv is None:
            raise QuintetError('resume needs csv="FILE" (the file to resume)', argument="resume")
        if request.scheduler is not None and request.backend != "dask":
            raise QuintetError('scheduler needs backend="dask"', argument="scheduler")
        if request.csv is not None:
            check_output_path(request.csv)
        if request.scheduler is None and request.connect_timeout != DASK_CONNECT_TIMEOUT:
            notices.append(
                Notice(
                    "connect_timeout applies only to scheduler", ("connect_timeout", "scheduler")
                )
            )
        eq_players = [p for p in self.config.players if p.startswith("eq-")]
        if request.equilibrium_time_limit is not None and not eq_players:
            notices.append(
                Notice(
                    "equilibrium_time_limit applies only to eq-* players",
                    ("equilibrium_time_limit",),
                )
            )
        if request.backend == "dask":
            return request.jobs, tuple(notices)
        jobs = used_jobs(request.jobs, self.config.deals)
        if jobs < request.jobs:
            notices.append(
                Notice(f"jobs {request.jobs}: using {jobs} (one per core and per deal)", ("jobs",))
            )
        return jobs, tuple(notices)

    def play(self, on_deal: Callable[[int], None] | None = None) -> Answer:
        """Play the deals not yet in the CSV; ``on_deal`` sees each batch finished."""
        request, config, done = self.request, self.config, self.done
        if len(done) == config.deals:
            document = {"deals": config.deals, "resumed_deals": len(done), "csv": request.csv}
            return Answer(
                versioned("tournament", document),
                lambda lang: _ALL_PLAYED.text(lang).format(deals=config.deals, csv=request.csv),
                self.warnings,
            )
        with GamesCsv(request.csv, done) as sheet:

            def save(record: DealRecord) -> None:
                sheet.save(record)
                self.saved = sheet.deals

            result = run(
                config,
                jobs=self.jobs,
                backend=request.backend,
                scheduler=request.scheduler,
                connect_timeout=request.connect_timeout,
                on_deal=on_deal,
                on_record=save,
                skip=done,
            )
            sheet.finish(result.records)

        def report(lang: Lang | str) -> Output:
            output = tournament_report(result, lang, jobs=self.jobs)
            if not done:
                return output
            note = _RESUMED.text(lang).format(deals=len(done), csv=request.csv)
            return Output(f"{output.text}\n{note}", {**output.payload, "resumed_deals": len(done)})

        return answer_of(report, self.warnings, kind="tournament")
