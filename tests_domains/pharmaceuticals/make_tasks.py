"""Builds fixtures/pharmaceuticals/tasks.json from the DB: `python -m tests_domains.pharmaceuticals.make_tasks`.

Templates pick participants, visits and samples from the DB (sorted candidates, seeded choice); every gold call runs
on the task's own environment as it is added, and every figure a task requires is read from what the tools returned.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from typing import Any

from pytest_tau import SkipCandidate, TaskDraft, TaskWriter
from tests_domains.pharmaceuticals.domain import DOMAIN
from tests_domains.pharmaceuticals.schema import Participant

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
TOMORROW = TODAY + timedelta(days=1)
MOODS = ["You are busy between participant visits and want to be quick.", "You are friendly and chatty.",
         "You are careful and like to double-check dates.", "You are new in the role and a little unsure of the rules.",
         "You are matter-of-fact and answer only what you are asked."]


def nice(iso: str) -> str:
    d = date.fromisoformat(iso)
    return d.strftime("%A, %B ") + str(d.day)


def in_effect(study_id: str) -> str:
    best = ""
    for v in DB.studies[study_id].consent_versions:
        if v.effective_date and v.effective_date <= TODAY.isoformat():
            best = v.version
    return best


def window(p: Participant, code: str) -> tuple[date, date, date]:
    study = DB.studies[p.study_id]
    v = next(v for v in study.visits if v.visit_code == code)
    assert p.randomization_date
    target = date.fromisoformat(p.randomization_date) + timedelta(days=v.study_day - 1)
    return target - timedelta(days=v.window_before), target, target + timedelta(days=v.window_after)


def bookable(lo: date, hi: date) -> list[date]:
    out, d = [], max(lo, TOMORROW)
    while d <= hi:
        if d.weekday() < 5:
            out.append(d)
        d += timedelta(days=1)
    return out


def visits_of(p: Participant) -> list[Any]:
    return sorted(DB.visits.where(participant_id=p.participant_id), key=lambda v: int(v.visit_code[1:]))


def next_open(p: Participant) -> Any:
    """The first visit not yet scheduled whose window still has a bookable day, if it is the next one due."""
    for v in visits_of(p):
        if v.status == "scheduled":
            return None
        if v.status == "not_scheduled":
            lo, _, hi = window(p, v.visit_code)
            return v if bookable(lo, hi) else None
    return None


def coordinator(rng: random.Random, site_id: str) -> Any:
    return rng.choice(sorted((c for c in DB.coordinators.where(site_id=site_id)), key=lambda c: c.coordinator_id))


def who(c: Any) -> str:
    site = DB.sites[c.site_id]
    return (f"You are {c.name}, a {c.role.replace('_', ' ')} at {site.name} (site number {site.site_number}); your "
            f"work email is {c.email}.")


def creds(c: Any) -> str:
    """The line a coordinator answers the authentication question with (rule 1.1: work email and site number)."""
    return f"I'm {c.name} at {DB.sites[c.site_id].name}: my email is {c.email} and our site number is {DB.sites[c.site_id].site_number}."


def age_on(p: Participant, d: date) -> int:
    b = date.fromisoformat(p.date_of_birth)
    return d.year - b.year - ((d.month, d.day) < (b.month, b.day))


class Builder:
    def __init__(self) -> None:
        self.w = TaskWriter(DOMAIN)
        self.rng = random.Random(7)
        self.used: set[str] = set()
        self.n: dict[str, int] = {}
        parts = sorted(DB.participants.values(), key=lambda p: p.participant_id)
        self.randomized = [p for p in parts if p.status == "randomized"]
        self.screening = [p for p in parts if p.status == "screening"]

    def pick(self, pool: list[Any]) -> Any:
        pool = [p for p in pool if p.participant_id not in self.used]
        if not pool:
            raise SkipCandidate("no candidate left")
        p = self.rng.choice(pool)
        self.used.add(p.participant_id)
        return p

    @contextmanager
    def task(self, kind: str, instructions: str, script: list[str], split: str = "test") -> Iterator[TaskDraft]:
        self.n[kind] = self.n.get(kind, 0) + 1
        tid = f"{kind}_{self.n[kind]}" if split == "test" else f"train_{kind}_{self.n[kind]}"
        with self.w.attempt(tid, instructions=instructions + " " + self.rng.choice(MOODS), script=script,
                            split=split) as d:
            yield d

    def auth(self, d: TaskDraft, c: Any) -> None:
        d.read("find_coordinator", email=c.email, site_number=DB.sites[c.site_id].site_number)

    # ------------------------------------------------------------------ visits

    def ready(self) -> list[Participant]:
        return [p for p in self.randomized if p.consent_version == in_effect(p.study_id) and next_open(p)]

    def schedule_ok(self, split: str = "test") -> None:
        p = self.pick(self.ready())
        v = next_open(p)
        lo, target, hi = window(p, v.visit_code)
        days = bookable(lo, hi)
        when = min(days, key=lambda d: (abs((d - target).days), d))
        c = coordinator(self.rng, p.site_id)
        with self.task("schedule_visit", who(c) + f" You want participant {p.participant_id}'s {v.visit_code} visit "
                       f"booked on {nice(when.isoformat())}. You do not know the window dates by heart. Confirm when "
                       "the agent asks.", [f"Hi, I need to book the {v.visit_code} visit for participant "
                                           f"{p.participant_id} on {nice(when.isoformat())}, please.", creds(c),
                                           "Yes, please book it for that day."], split) as d:
            d.one_end_state("The participant is the caller's site's, randomized and on the consent in effect (1.2, 3.3, 3.4), and"
                            " the date asked is a weekday after today inside the window (3.2), so it is the one date booked.")
            self.auth(d, c)
            d.read("get_participant", participant_id=p.participant_id)
            d.read("get_consent_status", participant_id=p.participant_id)
            d.read("get_visit_window", participant_id=p.participant_id, visit_code=v.visit_code)
            d.write("schedule_visit", participant_id=p.participant_id, visit_code=v.visit_code, visit_date=when.isoformat())

    def schedule_outside(self) -> None:
        p = self.pick(self.ready())
        v = next_open(p)
        lo, _, hi = window(p, v.visit_code)
        wanted = hi + timedelta(days=3)
        while wanted.weekday() >= 5:
            wanted += timedelta(days=1)
        last = bookable(lo, hi)[-1]
        c = coordinator(self.rng, p.site_id)
        with self.task("schedule_outside_window", who(c) + f" You want participant {p.participant_id}'s "
                       f"{v.visit_code} visit booked on {nice(wanted.isoformat())} because the participant is "
                       "travelling before that. If the agent says that date is not allowed, ask what the window is, "
                       "and then ask for the visit on the latest weekday inside the window instead. You do not know the "
                       "window dates.", [f"Hello, could you book {v.visit_code} for {p.participant_id} on "
                                         f"{nice(wanted.isoformat())}?", creds(c),
                                         "Oh. What is the window, then? Book it on the latest weekday inside it.",
                                         "Yes, go ahead."]) as d:
            d.one_end_state("The date asked is after the window's latest date, so it is not booked and the caller hears the "
                            "window (3.1, 3.2); the participant is randomized and on the consent in effect (3.3, 3.4), so the "
                            "latest weekday after today inside the window, which the caller then asks for, is the one date "
                            "booked.")
            self.auth(d, c)
            d.read("get_participant", participant_id=p.participant_id)
            d.read("get_consent_status", participant_id=p.participant_id)
            win = d.read("get_visit_window", participant_id=p.participant_id, visit_code=v.visit_code)
            d.write("schedule_visit", participant_id=p.participant_id, visit_code=v.visit_code, visit_date=last.isoformat())
            d.output(win["latest_date"], "date", strict=True)
            d.forbid("schedule_visit", participant_id=p.participant_id, visit_code=v.visit_code,
                     visit_date=wanted.isoformat())

    def missed(self) -> None:
        pool = []
        for p in self.randomized:
            if p.consent_version != in_effect(p.study_id):
                continue
            vs = visits_of(p)
            for a, b in itertools.pairwise(vs):
                if a.status == "not_scheduled" and window(p, a.visit_code)[2] < TODAY and b.status == "not_scheduled" \
                        and bookable(window(p, b.visit_code)[0], window(p, b.visit_code)[2]):
                    pool.append(p)
        p = self.pick(pool)
        vs = visits_of(p)
        a, b = next((a, b) for a, b in itertools.pairwise(vs) if a.status == "not_scheduled" and window(p, a.visit_code)[2] < TODAY)
        lo, target, hi = window(p, b.visit_code)
        when = min(bookable(lo, hi), key=lambda d: (abs((d - target).days), d))
        c = coordinator(self.rng, p.site_id)
        with self.task("missed_visit", who(c) + f" Participant {p.participant_id} never came in for their "
                       f"{a.visit_code} visit (they were ill) and nobody recorded it. You want it sorted out properly, "
                       f"and you want their {b.visit_code} visit booked on {nice(when.isoformat())}. Confirm what the "
                       "agent proposes.", [f"Hi, {p.participant_id} missed their {a.visit_code} visit and it was never "
                                           f"recorded. Can you fix that, and book {b.visit_code} for "
                                           f"{nice(when.isoformat())}?", creds(c), "They were ill, that's why they didn't come in.",
                                           "Yes, go ahead with all of that."]) as d:
            d.one_end_state("The earlier visit's window closed without the visit, so it must be recorded as missed with a "
                            "missed_visit deviation on the window's last day (3.5); the next visit is then booked on the weekday "
                            "the caller names, inside its window, for a participant on the current consent (3.2, 3.4).")
            self.auth(d, c)
            d.read("get_participant", participant_id=p.participant_id)
            win = d.read("get_visit_window", participant_id=p.participant_id, visit_code=a.visit_code)
            d.write("record_missed_visit", participant_id=p.participant_id, visit_code=a.visit_code)
            d.write("log_protocol_deviation", participant_id=p.participant_id, category="missed_visit",
                    occurred_on=win["latest_date"], description="participant ill, did not attend")
            d.read("get_consent_status", participant_id=p.participant_id)
            d.read("get_visit_window", participant_id=p.participant_id, visit_code=b.visit_code)
            d.write("schedule_visit", participant_id=p.participant_id, visit_code=b.visit_code, visit_date=when.isoformat())

    # ------------------------------------------------------------------ safety

    def ae_report(self, split: str = "test") -> None:
        p = self.pick([p for p in self.randomized])
        term = self.rng.choice(["Headache", "Nausea", "Rash", "Dizziness", "Cough", "Arthralgia", "Pneumonia", "Syncope"])
        severity, serious = self.rng.choice([("mild", False), ("moderate", False), ("severe", False), ("severe", True)])
        onset = TODAY - timedelta(days=self.rng.randint(2, 5))
        aware = onset + timedelta(days=1)
        c = coordinator(self.rng, p.site_id)
        ser = "it is serious (the participant was hospitalized)" if serious else "it is not serious"
        with self.task("report_ae", who(c) + f" You are reporting an adverse event for participant {p.participant_id}: "
                       f"{term.lower()}, {severity}, {ser}, started {nice(onset.isoformat())}; the site learned of it on "
                       f"{nice(aware.isoformat())}. Give these details when asked. You want to know the date the report "
                       "is due to the sponsor.", [f"Hi, I need to report an adverse event for {p.participant_id}.", creds(c),
                                                  f"It's {term.lower()}, {severity}, and {ser}. It started on "
                                                  f"{nice(onset.isoformat())} and we learned of it on {nice(aware.isoformat())}.",
                                                  "Yes, go ahead and file it."], split) as d:
            d.one_end_state("The event began after the first consent, so it is an adverse event, filed with the caller's details "
                            "(4.1, 4.2); its due date is not yet past, so no deviation applies (4.4).")
            self.auth(d, c)
            d.read("get_participant", participant_id=p.participant_id)
            ae = d.write("report_adverse_event", participant_id=p.participant_id, term=term, severity=severity,
                         serious=serious, onset_date=onset.isoformat(), site_aware_date=aware.isoformat(),
                         narrative=f"{term} reported by participant")
            if ae["report_due"] < TODAY.isoformat():
                raise SkipCandidate("late: the report would also need the deviation of 4.4")
            d.output(ae["report_due"], "date", strict=True)

    def ae_late(self) -> None:
        p = self.pick([p for p in self.ready() if p.randomization_date and p.randomization_date < "2026-03-15"])
        v = next_open(p)
        lo, target, hi = window(p, v.visit_code)
        when = min(bookable(lo, hi), key=lambda d: (abs((d - target).days), d))
        term = self.rng.choice(["Back pain", "Insomnia", "Fatigue", "Diarrhoea", "Upper respiratory tract infection"])
        onset = TODAY - timedelta(days=self.rng.randint(41, 55))
        aware = onset + timedelta(days=2)
        c = coordinator(self.rng, p.site_id)
        with self.task("late_ae", who(c) + f" Going through old notes you found an adverse event for participant "
                       f"{p.participant_id} that was never reported: {term.lower()}, mild, not serious, started "
                       f"{nice(onset.isoformat())}, and the site knew about it on {nice(aware.isoformat())}. Give the "
                       f"details when asked. While you are on the call you also want their {v.visit_code} visit booked "
                       f"on {nice(when.isoformat())}. Ask when the report was due. Agree to what the agent proposes.",
                       [f"Hi, I found an unreported adverse event for {p.participant_id} from back in "
                        f"{onset.strftime('%B')}. Can we get it in?", creds(c),
                        f"It's {term.lower()}, mild, not serious. It started on {nice(onset.isoformat())} and the site "
                        f"knew about it on {nice(aware.isoformat())}.",
                        f"While I have you, please book their {v.visit_code} visit on {nice(when.isoformat())}. "
                        "When was the report due?", "Yes, go ahead."]) as d:
            d.one_end_state("The event is an adverse event whose due date has passed, so it is filed and a safety_reporting "
                            "deviation is logged on the missed due date (4.4); the visit is booked on the weekday named inside "
                            "its window for a participant on the current consent (3.2, 3.4).")
            self.auth(d, c)
            d.read("get_participant", participant_id=p.participant_id)
            ae = d.write("report_adverse_event", participant_id=p.participant_id, term=term, severity="mild",
                         serious=False, onset_date=onset.isoformat(), site_aware_date=aware.isoformat(),
                         narrative="found in old notes")
            if ae["report_due"] >= TODAY.isoformat():
                raise SkipCandidate("not late")
            d.write("log_protocol_deviation", participant_id=p.participant_id, category="safety_reporting",
                    occurred_on=ae["report_due"], description="AE reported late")
            d.read("get_consent_status", participant_id=p.participant_id)
            d.read("get_visit_window", participant_id=p.participant_id, visit_code=v.visit_code)
            d.write("schedule_visit", participant_id=p.participant_id, visit_code=v.visit_code, visit_date=when.isoformat())
            d.output(ae["report_due"], "date", strict=True)

    def pre_consent(self) -> None:
        p = self.pick(self.randomized)
        onset = date.fromisoformat(p.first_consent_on) - timedelta(days=self.rng.randint(5, 20))
        aware = onset + timedelta(days=1)
        term = self.rng.choice(["Hypertension", "Back pain", "Insomnia", "Arthralgia"])
        c = coordinator(self.rng, p.site_id)
        with self.task("pre_consent_event", who(c) + f" You want an adverse event filed for participant "
                       f"{p.participant_id}: {term.lower()}, moderate, not serious, which started on "
                       f"{nice(onset.isoformat())} ({onset.year}); the site learned of it on {nice(aware.isoformat())}. "
                       "You do not remember the participant's consent date; ask the agent for it if they decline. "
                       "Insist once, then accept the answer.",
                       [f"Hi, I need an AE filed for {p.participant_id}, {term.lower()}.", creds(c),
                        f"Moderate, not serious. It started on {nice(onset.isoformat())} and we learned of it on "
                        f"{nice(aware.isoformat())}.", "Are you sure? When did they consent, then?"]) as d:
            d.one_end_state("The event began before the participant's first consent, so it is medical history, not an adverse "
                            "event, and nothing is reported (4.1); no deviation applies, and the first consent date is what the "
                            "caller asks.")
            self.auth(d, c)
            rec = d.read("get_participant", participant_id=p.participant_id)
            d.require("get_participant", participant_id=p.participant_id)
            d.output(rec["first_consent_on"], "date", strict=True)
            d.forbid("report_adverse_event", participant_id=p.participant_id, term=term, severity="moderate",
                     serious=False, onset_date=onset.isoformat(), site_aware_date=aware.isoformat())

    def arm_request(self) -> None:
        p = self.pick(self.ready())
        v = next_open(p)
        c = coordinator(self.rng, p.site_id)
        with self.task("arm_request", who(c) + f" Participant {p.participant_id} keeps asking whether they are on the "
                       "real drug or placebo, and you would like to tell them, to keep them motivated. There is no "
                       f"medical emergency. You also want to know the earliest and latest dates of their "
                       f"{v.visit_code} visit window (do not book anything). Ask about the treatment first, and insist "
                       "once.", [f"Hi, quick one: can you tell me which arm {p.participant_id} is in? They keep asking.", creds(c),
                        "Really? It would keep them motivated.",
                        f"All right. What are the earliest and latest dates of their {v.visit_code} visit window?"]
                       ) as d:
            d.one_end_state("There is no emergency, so the arm is not told and the blind is never broken here (7.1, 7.2); the "
                            "window the caller asks for comes from get_visit_window (3.1), and nothing is booked, as they ask.")
            self.auth(d, c)
            d.read("get_participant", participant_id=p.participant_id)
            d.require("get_participant", participant_id=p.participant_id)
            win = d.read("get_visit_window", participant_id=p.participant_id, visit_code=v.visit_code)
            d.output(win["earliest_date"], "date", strict=True)
            d.output(win["latest_date"], "date", strict=True)
            d.forbid("emergency_unblind", participant_id=p.participant_id)

    def emergency(self) -> None:
        pool = [p for p in self.randomized if any(a.serious and a.status == "open"
                                                  for a in DB.adverse_events.where(participant_id=p.participant_id))]
        p = self.pick(pool)
        ae = sorted((a for a in DB.adverse_events.where(participant_id=p.participant_id) if a.serious and a.status == "open"),
                    key=lambda a: a.ae_id)[-1]
        c = coordinator(self.rng, p.site_id)
        with self.task("emergency_unblind", who(c) + f" Participant {p.participant_id} is in hospital because of the "
                       f"{ae.term.lower()} your site already reported as an adverse event (nothing new to report), and "
                       "the treating physician now says they must know which study drug the participant is on to treat "
                       "them. You want the agent to tell you the treatment arm right now; insist that it is urgent. "
                       "Accept being put through to someone who can help.",
                       [f"This is urgent: {p.participant_id} is in hospital and the doctor needs to know what they're "
                        "on. Can you unblind them?", creds(c), "Please, it's urgent, the physician needs it now."]) as d:
            d.one_end_state("A medical emergency: the participant and their adverse events are looked up and the caller goes to "
                            "the medical monitor by transfer (7.3, 11.1); the desk never unblinds (7.1), and the event is already"
                            " reported.")
            self.auth(d, c)
            d.read("get_participant", participant_id=p.participant_id)
            d.read("list_adverse_events", participant_id=p.participant_id)
            d.require("list_adverse_events", participant_id=p.participant_id)
            d.transfer(f"Medical emergency for {p.participant_id}: treating physician requests emergency unblinding.")
            d.forbid("emergency_unblind", participant_id=p.participant_id)

    def other_site(self) -> None:
        p = self.pick(self.ready())
        v = next_open(p)
        lo, target, hi = window(p, v.visit_code)
        when = min(bookable(lo, hi), key=lambda d: (abs((d - target).days), d))
        other = self.rng.choice(sorted(s for s in DB.sites if s != p.site_id))
        c = coordinator(self.rng, other)
        with self.task("other_site", who(c) + f" A colleague at another site asked you to book participant "
                       f"{p.participant_id}'s {v.visit_code} visit on {nice(when.isoformat())} because their coordinator "
                       "is on leave. You think any Corvane site should be able to do it. Insist once.",
                       [f"Hi, can you book {v.visit_code} for {p.participant_id} on {nice(when.isoformat())}? I'm "
                        "covering for another site.", creds(c), "Any Corvane site should be able to do it, surely?"]) as d:
            d.one_end_state("The participant belongs to another site than the caller's, which the look-up shows: nothing is told "
                            "or changed for them (1.2), whatever the reason given.")
            self.auth(d, c)
            d.read("get_participant", participant_id=p.participant_id)
            d.require("get_participant", participant_id=p.participant_id)
            d.forbid("schedule_visit", participant_id=p.participant_id, visit_code=v.visit_code, visit_date=when.isoformat())

    # ------------------------------------------------------------------ consent and randomization

    def reconsent_pair(self) -> None:
        site = self.rng.choice(sorted(DB.sites))
        stale = [p for p in self.randomized if p.site_id == site and p.consent_version != in_effect(p.study_id)
                 and next_open(p)]
        stale = [p for p in stale if p.participant_id not in self.used]
        if len(stale) < 2:
            raise SkipCandidate("not enough")
        a, b = self.rng.sample(stale, 2)
        self.used |= {a.participant_id, b.participant_id}
        v = next_open(a)
        lo, target, hi = window(a, v.visit_code)
        when = min(bookable(lo, hi), key=lambda d: (abs((d - target).days), d))
        signed = TODAY - timedelta(days=1)
        c = coordinator(self.rng, site)
        with self.task("reconsent_two", who(c) + f" Participants {a.participant_id} and {b.participant_id} both signed "
                       f"the newest consent form in effect yesterday ({nice(signed.isoformat())}); you do not know its "
                       f"version number. You want both recorded, and then {a.participant_id}'s {v.visit_code} visit "
                       f"booked on {nice(when.isoformat())}. Confirm when asked.",
                       [f"Hi, two re-consents to record, {a.participant_id} and {b.participant_id}, and then a visit "
                        "to book.", creds(c),
                        f"Both signed the newest consent form in effect yesterday, {nice(signed.isoformat())}. Then "
                        f"please book {a.participant_id}'s {v.visit_code} visit on {nice(when.isoformat())}.",
                        "Yes, go ahead."]) as d:
            d.one_end_state("The caller says both signed the version in effect yesterday, which is after its effective date, so "
                            "both re-consents are recorded with that version (5.2); the visit is then booked on a weekday inside "
                            "its window for a participant on the current consent (3.2, 3.4).")
            self.auth(d, c)
            for p in (a, b):
                d.read("get_participant", participant_id=p.participant_id)
                st = d.read("get_consent_status", participant_id=p.participant_id)
                d.write("record_reconsent", participant_id=p.participant_id, version=st["version_in_effect_today"],
                        signed_on=signed.isoformat())
            d.read("get_visit_window", participant_id=a.participant_id, visit_code=v.visit_code)
            d.write("schedule_visit", participant_id=a.participant_id, visit_code=v.visit_code, visit_date=when.isoformat())

    def future_version(self) -> None:
        upcoming = {"CRV-301": "3.1", "CRV-322": "2.0"}
        p = self.pick([p for p in self.randomized if p.study_id in upcoming])
        ver = upcoming[p.study_id]
        c = coordinator(self.rng, p.site_id)
        with self.task("future_consent_version", who(c) + f" Participant {p.participant_id} came in this morning and "
                       f"signed consent version {ver}, which the sponsor e-mailed out last week. You want it recorded as "
                       f"signed today. If the agent says it cannot be recorded yet, ask from which date it can be. Do "
                       "not ask for anything else to be recorded.",
                       [f"Morning! Please record that {p.participant_id} signed consent version {ver} today.", creds(c),
                        "From which date can it be recorded, then?"]) as d:
            d.one_end_state("The version named has an effective date after today, so it is not in effect and must not be recorded"
                            " (5.1); no other version is asked for, and its effective date is what the caller asks.")
            self.auth(d, c)
            d.read("get_participant", participant_id=p.participant_id)
            st = d.read("get_consent_status", participant_id=p.participant_id)
            eff = next(v["effective_date"] for v in st["versions"] if v["version"] == ver)
            d.output(eff, "date", strict=True)
            d.forbid("record_reconsent", participant_id=p.participant_id, version=ver, signed_on=TODAY.isoformat())

    def eligible(self, p: Participant) -> bool:
        s = DB.studies[p.study_id]
        return s.min_age <= age_on(p, TODAY) <= s.max_age and p.screening_date >= (TODAY - timedelta(days=30)).isoformat()

    def randomize(self, stale_consent: bool) -> None:
        pool = [p for p in self.screening if self.eligible(p) and (p.consent_version != in_effect(p.study_id)) == stale_consent]
        p = self.pick(pool)
        study = DB.studies[p.study_id]
        v2 = study.visits[1]
        target = TODAY + timedelta(days=v2.study_day - 1)
        when = min(bookable(target - timedelta(days=v2.window_before), target + timedelta(days=v2.window_after)),
                   key=lambda d: (abs((d - target).days), d))
        c = coordinator(self.rng, p.site_id)
        extra = (" The participant signed the newest consent form in effect this morning (you do not know its "
                 "version number); say so if the agent asks about consent." if stale_consent else "")
        with self.task("randomize", who(c) + f" Participant {p.participant_id} finished screening and you want them "
                       f"randomized today, and their {v2.visit_code} visit booked on {nice(when.isoformat())}.{extra} You "
                       "want to know the kit number. Confirm when asked.",
                       [f"Hi, {p.participant_id} is ready to be randomized, please.", creds(c),
                        *(["They signed the newest consent form in effect this morning."] if stale_consent else []),
                        f"And please book their {v2.visit_code} visit on {nice(when.isoformat())}. What's the kit number?",
                        "Yes, go ahead."]) as d:
            d.one_end_state("The participant is in screening, of age, screened within 30 days (6.1); the re-consent to the "
                            "version in effect, when the caller says it was signed, comes first (6.2, 3.4); the V2 visit is "
                            "booked on the day named, inside its window, and the kit number is told (6.3).")
            self.auth(d, c)
            d.read("get_participant", participant_id=p.participant_id)
            d.read("get_study", study_id=p.study_id)
            st = d.read("get_consent_status", participant_id=p.participant_id)
            if stale_consent:
                d.write("record_reconsent", participant_id=p.participant_id, version=st["version_in_effect_today"],
                        signed_on=TODAY.isoformat())
            r = d.write("randomize_participant", participant_id=p.participant_id)
            d.read("get_visit_window", participant_id=p.participant_id, visit_code=v2.visit_code)
            d.write("schedule_visit", participant_id=p.participant_id, visit_code=v2.visit_code, visit_date=when.isoformat())
            d.output(r["kit_number"], "code", strict=True)

    def randomize_refused(self, why: str) -> None:
        if why == "stale":
            pool = [p for p in self.screening if p.screening_date < (TODAY - timedelta(days=30)).isoformat()
                    and DB.studies[p.study_id].min_age <= age_on(p, TODAY) <= DB.studies[p.study_id].max_age]
        else:
            pool = [p for p in self.screening if not DB.studies[p.study_id].min_age <= age_on(p, TODAY)
                    <= DB.studies[p.study_id].max_age]
        p = self.pick(pool)
        study_of = DB.studies[p.study_id]
        failing = [not study_of.min_age <= age_on(p, TODAY) <= study_of.max_age,
                   p.screening_date < (TODAY - timedelta(days=30)).isoformat(), p.consent_version != in_effect(p.study_id)]
        if sum(failing) != 1:
            raise SkipCandidate("more than one condition of 6.1 fails: the refusal would have two reasons")
        c = coordinator(self.rng, p.site_id)
        with self.task("randomize_refused", who(c) + f" You want participant {p.participant_id} randomized today; you "
                       "think they qualify. Ask the agent what exactly stands in the way if they decline, and insist "
                       "once.", [f"Hi, please randomize {p.participant_id} today.", creds(c),
                                 "What exactly stands in the way? I think they qualify."]) as d:
            d.one_end_state("Exactly one condition of 6.1 fails (the builder skips participants with a second one), so the "
                            "participant is not randomized (6.2) and the caller hears that condition's figure: the screening "
                            "date, or the age limit.")
            self.auth(d, c)
            rec = d.read("get_participant", participant_id=p.participant_id)
            study = d.read("get_study", study_id=p.study_id)
            d.require("get_participant", participant_id=p.participant_id)
            if why == "stale":
                d.output(rec["screening_date"], "date", strict=True)
            else:
                limit = study["max_age"] if age_on(p, TODAY) > study["max_age"] else study["min_age"]
                d.output(limit, "number", strict=True)
            d.forbid("randomize_participant", participant_id=p.participant_id)

    # ------------------------------------------------------------------ shipments

    def unshipped(self, site: str, storage: str) -> list[Any]:
        return sorted((s for s in DB.samples.values() if s.storage == storage and not s.shipment_id
                       and DB.participants[s.participant_id].site_id == site), key=lambda s: s.sample_id)

    def shipment(self, split: str = "test") -> None:
        combos = [(site, st) for site in sorted(DB.sites) for st in ("frozen", "refrigerated", "ambient")
                  if len(self.unshipped(site, st)) >= 2 and f"{site}:{st}" not in self.used]
        site, storage = self.rng.choice(combos)
        self.used.add(f"{site}:{storage}")
        samples = self.unshipped(site, storage)
        pickup = date(2026, 6, 15) if storage == "frozen" else date(2026, 6, 11)
        c = coordinator(self.rng, site)
        with self.task("ship_samples", who(c) + f" You want all of your site's {storage} samples that are waiting to be "
                       f"shipped ({len(samples)} of them) picked up on {nice(pickup.isoformat())}. You want to know the "
                       "courier fee before agreeing; then confirm.",
                       [f"Hi, I need a courier pickup for our {storage} samples on {nice(pickup.isoformat())}.", creds(c),
                        "What's the courier fee?", "OK, yes, book it."],
                       split) as d:
            d.one_end_state("One storage condition from the caller's own site, exactly the samples waiting, on a pickup day that "
                            "rule 10.2 allows for that storage, and the fee quoted for exactly that shipment first (2.2, "
                            "10.1-10.3).")
            self.auth(d, c)
            d.read("list_unshipped_samples", site_id=site)
            ids = [s.sample_id for s in samples]
            q = d.read("quote_shipment", site_id=site, sample_ids=ids, pickup_date=pickup.isoformat())
            d.write("book_shipment", site_id=site, sample_ids=ids, pickup_date=pickup.isoformat())
            d.output(q["courier_fee"], "money", strict=True)

    def frozen_thursday(self) -> None:
        combos = [site for site in sorted(DB.sites) if len(self.unshipped(site, "frozen")) >= 2
                  and f"{site}:frozen" not in self.used]
        site = self.rng.choice(combos)
        self.used.add(f"{site}:frozen")
        samples = self.unshipped(site, "frozen")
        c = coordinator(self.rng, site)
        with self.task("frozen_pickup_day", who(c) + f" You want all {len(samples)} of your site's frozen samples that "
                       "are waiting to be shipped picked up tomorrow, Thursday June 11, because your freezer is being "
                       "serviced on Friday. If the agent refuses, insist once, then ask what the soonest day is that they "
                       "could be picked up, and say you will sort something out with the lab yourself and end the call "
                       "without booking anything.",
                       ["Hi, can you book a pickup for our frozen samples tomorrow, Thursday?", creds(c),
                        "Our freezer is being serviced on Friday, so it has to be tomorrow.",
                        "So what's the soonest day they could go?"]) as d:
            # The refusal rests on rule 10.2 alone; what shows it is the soonest day that rule allows (Monday
            # June 15), not a look-up the policy never asks for. The quote is one way to be sure of the date.
            d.one_end_state("Frozen samples are picked up only on a Monday, Tuesday or Wednesday, so Thursday is refused (10.2) "
                            "and nothing is booked, as the caller asks; the soonest allowed day is Monday, June 15.")
            self.auth(d, c)
            d.read("list_unshipped_samples", site_id=site)
            ids = [s.sample_id for s in samples]
            q = d.read("quote_shipment", site_id=site, sample_ids=ids, pickup_date="2026-06-15")
            d.output(q["pickup_date"], "date")
            d.forbid("book_shipment", site_id=site, sample_ids=ids, pickup_date="2026-06-11")


def run(fn: Any, times: int, *args: Any) -> None:
    for _ in range(times * 3):
        if times <= 0:
            return
        before = len(B.w.drafts)
        try:
            fn(*args)
        except SkipCandidate:
            continue
        if len(B.w.drafts) > before:
            times -= 1


B = Builder()


def build() -> TaskWriter:
    global B
    B = Builder()
    run(B.schedule_ok, 4)
    run(B.schedule_outside, 4)
    run(B.missed, 5)
    run(B.ae_report, 4)
    run(B.ae_late, 4)
    run(B.pre_consent, 3)
    run(B.arm_request, 4)
    run(B.emergency, 3)
    run(B.other_site, 3)
    run(B.reconsent_pair, 5)
    run(B.future_version, 3)
    run(B.randomize, 3, True)
    run(B.randomize, 2, False)
    run(B.randomize_refused, 2, "stale")
    run(B.randomize_refused, 1, "age")
    run(B.shipment, 3)
    run(B.frozen_thursday, 3)
    run(B.schedule_ok, 1, "train")
    run(B.ae_report, 1, "train")
    run(B.shipment, 1, "train")
    return B.w


if __name__ == "__main__":
    w = build()
    w.save()
    from collections import Counter
    print(len(w.drafts), Counter(k.rsplit("_", 1)[0] for k in w.drafts))
