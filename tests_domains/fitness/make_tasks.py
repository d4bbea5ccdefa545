"""Builds fixtures/fitness/tasks.json with a `TaskWriter`: one template per kind of request, concrete
members and records picked from the initial DB with a seeded RNG. Every gold call runs as it is added,
and every figure a task asks for is read from what the tools returned.

    python -m tests_domains.fitness.make_tasks
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from pytest_tau import Kind, Output, TaskDraft, TaskWriter, output_told
from tests_domains.fitness.domain import DOMAIN, _freezes_in_last_year
from tests_domains.fitness.schema import Booking, ClassSession, Member, PTPackage

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
NOW = DOMAIN.now
LAST_BOOKABLE = (TODAY + timedelta(days=7)).isoformat()
MOODS = [
    "You are friendly and a little chatty.", "You are in a hurry and want short answers.",
    "You are calm and precise, and you answer only what you are asked.",
    "You are a bit anxious and ask the agent to repeat the key figure.", "You are polite but firm.",
]
GUESTS = [("Marisol", "Quintero"), ("Desmond", "Achterberg"), ("Priya", "Raman"), ("Tobias", "Lindgren"),
          ("Hana", "Okoro"), ("Callum", "Reyes"), ("Ines", "Barros"), ("Oskar", "Virtanen")]

BOOKINGS_BY_MEMBER: dict[str, list[Booking]] = defaultdict(list)
for _b in sorted(DB.bookings.values(), key=lambda b: b.booking_id):
    BOOKINGS_BY_MEMBER[_b.member_id].append(_b)
PACKAGES_BY_MEMBER: dict[str, list[PTPackage]] = defaultdict(list)
for _p in sorted(DB.pt_packages.values(), key=lambda p: p.package_id):
    PACKAGES_BY_MEMBER[_p.member_id].append(_p)
CLASSES_BY_CLUB_DAY: dict[tuple[str, str], list[ClassSession]] = defaultdict(list)
for _c in sorted(DB.classes.values(), key=lambda c: c.class_id):
    CLASSES_BY_CLUB_DAY[(_c.club_id, _c.date)].append(_c)
MEMBERS = sorted(DB.members.values(), key=lambda m: m.member_id)


def in_policy(value: Any, kind: Kind) -> bool:
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return output_told(Output(value=text, kind=kind), DOMAIN.policy)


def words(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%A, %B')} {d.day}"


def hm(t: str) -> str:
    h, m = int(t[:2]), t[3:]
    return f"{(h - 1) % 12 + 1}:{m} {'AM' if h < 12 else 'PM'}"


def start(c: ClassSession) -> datetime:
    return datetime.fromisoformat(f"{c.date}T{c.start_time}")


def booked(c: ClassSession) -> int:
    return sum(1 for b in DB.bookings.where(class_id=c.class_id) if b.status == "booked")


def upcoming(m: Member) -> list[Booking]:
    return [b for b in BOOKINGS_BY_MEMBER[m.member_id] if b.status in ("booked", "waitlisted") and start(DB.classes[b.class_id]) > NOW]


def balance(m: Member) -> float:
    return sum(c.amount for c in DB.charges.where(member_id=m.member_id) if c.status == "due")


def plain(m: Member) -> bool:
    """Active, no notice given, nothing owed: no other rule gets in the way."""
    return m.status == "active" and m.membership_ends_on is None and balance(m) == 0


def plan(m: Member) -> Any:
    return DB.plans[m.plan_code]


def passes_used(m: Member, month: str) -> int:
    return sum(1 for g in DB.guest_passes.where(member_id=m.member_id) if g.status != "void" and g.visit_date[:7] == month)


def unique_type(c: ClassSession) -> bool:
    return sum(1 for x in CLASSES_BY_CLUB_DAY[(c.club_id, c.date)] if x.class_type == c.class_type) == 1


def open_classes(m: Member, club: str, full: bool = False) -> list[ClassSession]:
    mine = {b.class_id for b in BOOKINGS_BY_MEMBER[m.member_id]}
    out = []
    for offset in range(1, 8):
        day = (TODAY + timedelta(days=offset)).isoformat()
        for c in CLASSES_BY_CLUB_DAY[(club, day)]:
            if c.status != "scheduled" or c.class_id in mine or not unique_type(c):
                continue
            if (booked(c) >= c.capacity) == full:
                out.append(c)
    return out


def off_peak_ok(c: ClassSession) -> bool:
    return date.fromisoformat(c.date).weekday() >= 5 or "09:00" <= c.start_time < "16:00"


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(20260316)
        self.used: set[str] = set()
        self.current_split = "test"

    def mood(self) -> str:
        return self.rng.choice(MOODS) + " Give information only when the agent asks for it."

    def task(self, task_id: str, m: Member, situation: str, script: list[str]) -> TaskDraft:
        who = (f"You are {m.first_name} {m.last_name}, an Ironleaf Fitness member; your email is {m.email} and your date of "
               f"birth is {date.fromisoformat(m.date_of_birth).strftime('%B %-d, %Y')}. You do not know your membership number.")
        return self.writer.task(task_id, instructions=f"{who} {self.mood()} {situation}", script=script, split=self.current_split)

    def run(self, name: str, n: int, cands: list[Any], write: Callable[[str, Any], bool], train: int = 0) -> None:
        items = [c for c in cands if self.key(c) not in self.used]
        items.sort(key=self.key)
        self.rng.shuffle(items)
        done = 0
        for item in items:
            if done == n + train:
                break
            split = "train" if done >= n else "test"
            task_id = f"{name}_{done + 1}" if split == "test" else f"train_{name}_{done - n + 1}"
            self.current_split = split
            try:
                ok = write(task_id, item)
            except Exception as error:  # a gold call the data does not allow: try the next candidate
                if "gold action" not in str(error):
                    raise
                self.writer.drafts.pop(task_id, None)
                ok = False
            if ok:
                self.used.add(self.key(item))
                done += 1
        if done < n + train:
            raise SystemExit(f"only {done} of {n + train} candidates for {name}")

    @staticmethod
    def key(item: Any) -> str:
        m = item[0] if isinstance(item, tuple) else item
        return str(m.member_id)


def hello(m: Member) -> str:
    return f"Hi, this is {m.first_name} {m.last_name}."


def verify(d: TaskDraft, m: Member) -> Any:
    return d.read("find_member", email=m.email, first_name=m.first_name, last_name=m.last_name, date_of_birth=m.date_of_birth)


def fits(d: TaskDraft, b: Builder, value: Any, kind: Kind) -> bool:
    if in_policy(value, kind):
        b.writer.discard(d)
        return False
    d.output(value, kind)
    return True


# -- freezes ----------------------------------------------------------------------------------------------
def freeze_ok(b: Builder, n: int, train: int = 0) -> None:
    cands = [m for m in MEMBERS if plain(m) and _freezes_in_last_year(m) < 2]

    def write(task_id: str, m: Member) -> bool:
        months = b.rng.choice([1, 2, 3])
        begin = (TODAY + timedelta(days=b.rng.randint(3, 25))).isoformat()
        d = b.task(task_id, m, f"You are travelling for work and want to freeze your membership for {months} month"
                   f"{'s' if months > 1 else ''} starting {words(begin)}. Before agreeing, ask what it costs and on which "
                   "date the freeze ends. Then agree.",
                   [f"{hello(m)} I'd like to freeze my gym membership.",
                    f"My email is {m.email}, date of birth {m.date_of_birth}.",
                    f"{months} month{'s' if months > 1 else ''}, starting {words(begin)}. What would that cost, and when does it end?",
                    "Yes, please go ahead."])
        d.one_end_state("The member is active with no notice given and fewer than two standard freezes in 12 months, and the "
                        "freeze starts within 30 days (15, 16), so the one freeze asked is set up after its quote (5, 17).")
        verify(d, m)
        q = d.read("quote_freeze", member_id=m.member_id, start_date=begin, months=months)
        d.write("freeze_membership", member_id=m.member_id, start_date=begin, months=months)
        return fits(d, b, q["end_date"], "date") and fits(d, b, q["freeze_fee"], "money")

    b.run("freeze", n, cands, write, train)


def freeze_third(b: Builder, n: int) -> None:
    cands = [m for m in MEMBERS if m.status == "active" and not m.membership_ends_on and _freezes_in_last_year(m) >= 2 and m.next_billing_date]

    def write(task_id: str, m: Member) -> bool:
        begin = (TODAY + timedelta(days=7)).isoformat()
        d = b.task(task_id, m, f"You want to freeze your membership for one month from {words(begin)} because of a long trip. "
                   "If the agent refuses, ask once whether an exception is possible, then accept and ask on which date your "
                   "next monthly payment will be taken. Then end the call.",
                   [f"{hello(m)} I need to freeze my membership for a month.", f"{m.email}, born {m.date_of_birth}.",
                    f"From {words(begin)}, one month.", "Can't you make an exception just this once?",
                    "OK. When is my next monthly payment, then?"])
        d.one_end_state("The member has already started two standard freezes in the last 12 months, so a third is refused, "
                        "with no exception (16); nothing changes, and the next billing date on the membership is what they "
                        "ask.")
        found = verify(d, m)
        d.forbid("freeze_membership", member_id=m.member_id, start_date=begin, months=1)
        return fits(d, b, found["next_billing_date"], "date")

    b.run("freeze_limit_reached", n, cands, write)


def medical_freeze(b: Builder, n: int) -> None:
    cands = [m for m in MEMBERS if plain(m)]

    def write(task_id: str, m: Member) -> bool:
        d = b.task(task_id, m, "You had knee surgery last week and your doctor has written a note saying no training for four "
                   "months. You want a medical freeze of four months starting today. You do not want a standard paid freeze. "
                   "If the agent offers to pass you to a colleague, accept.",
                   [f"{hello(m)} I need to freeze my membership for medical reasons.", f"{m.email}, {m.date_of_birth}.",
                    "Four months from today. I have a doctor's note.", "Yes, please put me through."])
        d.one_end_state("A medical freeze is never set up by this desk: the member is verified, their membership looked up, "
                        "and they are transferred (18, 32); a standard freeze is not what they ask for (6).")
        verify(d, m)
        d.require("find_member", email=m.email)
        d.transfer(f"Member {m.member_id} requests a four-month medical freeze with a doctor's note.")
        d.forbid("freeze_membership", member_id=m.member_id, start_date=TODAY.isoformat(), months=4)
        return True

    b.run("medical_freeze", n, cands, write)


# -- cancellation ---------------------------------------------------------------------------------------------
def cancel_with_fee(b: Builder, n: int, train: int = 0) -> None:
    cands = [m for m in MEMBERS if plain(m) and m.commitment_end and m.commitment_end > (TODAY + timedelta(days=75)).isoformat()]

    def write(task_id: str, m: Member) -> bool:
        # the reason is one the fee applies to: a member who moves more than 25 miles from every club cancels
        # without it under Washington's health studio law (policy 22), which is not this desk's to grant
        d = b.task(task_id, m, "You are not using the gym enough and want to cancel your membership (you are not moving). "
                   "You know there may be a fee: ask how much it is and what your last day will be before you agree. Then agree.",
                   [f"{hello(m)} I want to cancel my membership, I just don't use it enough.", f"Email {m.email}, born {m.date_of_birth}.",
                    "Is there a fee? And what would my last day be?", "Fine, go ahead and cancel."])
        verify(d, m)
        q = d.read("quote_cancellation", member_id=m.member_id)
        d.write("cancel_membership", member_id=m.member_id)
        return fits(d, b, q["early_termination_fee"], "money")

    b.run("cancel_in_term", n, cands, write, train)


def cancel_balance(b: Builder, n: int) -> None:
    cands = [m for m in MEMBERS if m.status == "active" and m.membership_ends_on is None and balance(m) > 0]

    def write(task_id: str, m: Member) -> bool:
        d = b.task(task_id, m, "You want to cancel your membership today; money is tight. If the agent says something must be "
                   "settled first, ask how much you owe, and accept being passed to the billing team.",
                   [f"{hello(m)} Please cancel my membership.", f"{m.email}, date of birth {m.date_of_birth}.",
                    "How much do I owe, exactly?", "OK, put me through to billing."])
        d.one_end_state("A balance is due, so the notice is not taken: the member hears the balance and goes to billing (23, "
                        "32), whatever else their membership allows.")
        found = verify(d, m)
        d.require("find_member", email=m.email)
        d.transfer(f"Member {m.member_id} wants to cancel but has a balance due of {found['balance_due']}.")
        d.forbid("cancel_membership", member_id=m.member_id)
        return fits(d, b, found["balance_due"], "money")

    b.run("cancel_with_balance", n, cands, write)


# -- classes ----------------------------------------------------------------------------------------------------
def late_cancel(b: Builder, n: int) -> None:
    cands = []
    for m in MEMBERS:
        if m.status != "active" or m.plan_code == "PRESTIGE":
            continue
        late = [x for x in upcoming(m) if x.status == "booked" and (start(DB.classes[x.class_id]) - NOW) < timedelta(hours=8)]
        if len(late) == 1 and unique_type(DB.classes[late[0].class_id]):
            cands.append((m, late[0]))

    def write(task_id: str, c: tuple[Member, Booking]) -> bool:
        m, bk = c
        cl = DB.classes[bk.class_id]
        d = b.task(task_id, m, f"You are booked into {cl.class_type} today at {hm(cl.start_time)} but a meeting came up. You want "
                   "to cancel it. Ask whether it costs anything; when you hear the amount, grumble a little but agree.",
                   [f"{hello(m)} I can't make my {cl.class_type} class today.", f"{m.email}, {m.date_of_birth}.",
                    "Will I be charged anything?", "Ugh. Fine, yes, cancel it anyway."])
        d.one_end_state("The member names the one class of that type they hold today, under 8 hours away on a plan that pays "
                        "the fee (14): the quote's fee is told before the cancellation they confirm.")
        verify(d, m)
        d.read("list_bookings", member_id=m.member_id)
        q = d.read("quote_booking_cancellation", booking_id=bk.booking_id)
        d.write("cancel_booking", booking_id=bk.booking_id)
        return fits(d, b, q["late_cancellation_fee"], "money")

    b.run("late_cancel", n, cands, write)


def busy_week(b: Builder, n: int, train: int = 0) -> None:
    """Cancel a booked class (free), book another, and get a guest pass: three writes, three tables."""
    cands = []
    march = TODAY.strftime("%Y-%m")
    for m in MEMBERS:
        if not plain(m) or plan(m).guest_passes_per_month - passes_used(m, march) < 1 or plan(m).off_peak_only:
            continue
        ups = upcoming(m)
        free = [x for x in ups if x.status == "booked" and start(DB.classes[x.class_id]) - NOW > timedelta(hours=30)
                and unique_type(DB.classes[x.class_id])]
        if len(ups) > 2 or not free:
            continue
        gone = DB.classes[free[0].class_id]
        options = [c for c in open_classes(m, m.home_club) if c.date != gone.date and c.date > (TODAY + timedelta(days=1)).isoformat()]
        if options:
            cands.append((m, free[0], options[0]))

    def write(task_id: str, c: tuple[Member, Booking, ClassSession]) -> bool:
        m, bk, new = c
        gone = DB.classes[bk.class_id]
        first, last = GUESTS[len(b.writer.drafts) % len(GUESTS)]
        club = DB.clubs[m.home_club]
        d = b.task(task_id, m, f"Three things for your week. (1) Cancel your {gone.class_type} class on {words(gone.date)}. "
                   f"(2) Book {new.class_type} at your home club, {club.name}, on {words(new.date)} at {hm(new.start_time)}. "
                   f"(3) Get a guest pass for your friend {first} {last} (an adult) to come with you to {club.name} on "
                   f"{words(new.date)}. Agree to each step when the agent asks.",
                   [f"{hello(m)} I have a few changes to my classes.", f"{m.email}, born {m.date_of_birth}.",
                    f"First, please cancel my {gone.class_type} on {words(gone.date)}.",
                    f"Then book me into {new.class_type} at {club.name} on {words(new.date)} at {hm(new.start_time)}.",
                    f"And a guest pass for {first} {last} for that day, same club.", "Yes, all good."])
        d.one_end_state("The class cancelled is more than 30 hours away, so free (14); the class booked is at the home club "
                        "the plan reaches, within 7 days, on a plan that is not Off-Peak, and leaves at most 3 places (11,"
                        " 12); the guest pass is for an adult, within 14 days, at that club, within the month's allowance "
                        "(28, 29).")
        verify(d, m)
        d.read("list_bookings", member_id=m.member_id)
        d.read("quote_booking_cancellation", booking_id=bk.booking_id)
        d.write("cancel_booking", booking_id=bk.booking_id)
        d.read("search_classes", club_id=m.home_club, on_date=new.date)
        d.write("book_class", member_id=m.member_id, class_id=new.class_id)
        d.write("issue_guest_pass", member_id=m.member_id, guest_first_name=first, guest_last_name=last, club_id=m.home_club,
                visit_date=new.date)
        return True

    b.run("busy_week", n, cands, write, train)


def waitlist_and_pt(b: Builder, n: int) -> None:
    """Join a full class's waitlist (position), buy a 5-session package and book the first session."""
    cands = []
    for m in MEMBERS:
        if not plain(m) or plan(m).off_peak_only or len(upcoming(m)) > 2 or PACKAGES_BY_MEMBER[m.member_id]:
            continue
        full = open_classes(m, m.home_club, full=True)
        if full:
            cands.append((m, full[0]))

    def write(task_id: str, c: tuple[Member, ClassSession]) -> bool:
        m, cl = c
        trainers = sorted(DB.trainers.where(club_id=m.home_club), key=lambda t: t.trainer_id)
        t = trainers[len(b.writer.drafts) % len(trainers)]
        when = (TODAY + timedelta(days=3)).isoformat()
        d = b.task(task_id, m, f"(1) You want {cl.class_type} at your home club on {words(cl.date)} at {hm(cl.start_time)}; if it "
                   "is full, join the waitlist and ask which position you are. (2) You want to start personal training with "
                   f"{t.first_name} {t.last_name} at your home club: a 5-session package. Ask the price before agreeing, then "
                   f"agree. (3) Book the first session on {words(when)} at 7:00 AM.",
                   [f"{hello(m)} I'd like to book a class and sort out some personal training.", f"{m.email}, {m.date_of_birth}.",
                    f"{cl.class_type} on {words(cl.date)} at {hm(cl.start_time)}, please.", "Yes, waitlist me. Which position am I?",
                    f"Also, a 5-session package with {t.first_name} {t.last_name}. How much is it?",
                    f"Yes, buy it, and book my first session on {words(when)} at 7 in the morning."])
        d.one_end_state("The class is full, so the member joins its waitlist, as they agree (13), within 3 places (11); the "
                        "package is from a trainer at the home club (25), priced by its quote, and the first session is more "
                        "than 24 hours ahead, between 06:00 and 20:00 (26).")
        verify(d, m)
        d.read("search_classes", club_id=m.home_club, on_date=cl.date)
        joined = d.write("book_class", member_id=m.member_id, class_id=cl.class_id)  # position said, not scored (small numbers are in the policy)
        d.read("list_trainers", club_id=m.home_club)
        q = d.read("quote_pt_package", trainer_id=t.trainer_id, sessions=5)
        pkg = d.write("buy_pt_package", member_id=m.member_id, trainer_id=t.trainer_id, sessions=5)
        d.write("book_pt_session", package_id=pkg["package_id"], on_date=when, start_time="07:00")
        assert joined["status"] == "waitlisted"
        return fits(d, b, q["package_price"], "money")

    b.run("waitlist_and_training", n, cands, write)


def move_and_book(b: Builder, n: int) -> None:
    """Move home club (home-club plan, fee), book a class at the new club, and bring a guest there."""
    cands = []
    march = TODAY.strftime("%Y-%m")
    for m in MEMBERS:
        if (not plain(m) or m.plan_code != "CORE12" or passes_used(m, march) >= 1 or len(upcoming(m)) > 2
                or (m.last_club_transfer and m.last_club_transfer >= "2025-09-17")):
            continue
        home = DB.clubs[m.home_club]
        for club in sorted(DB.clubs.values(), key=lambda c: c.club_id):
            if club.club_id != home.club_id and club.city == home.city and not club.flagship:
                opts = open_classes(m, club.club_id)
                if opts:
                    cands.append((m, club.club_id, opts[0]))
                    break

    def write(task_id: str, c: tuple[Member, str, ClassSession]) -> bool:
        m, club_id, cl = c
        club = DB.clubs[club_id]
        first, last = GUESTS[(len(b.writer.drafts) + 3) % len(GUESTS)]
        d = b.task(task_id, m, f"You moved house and want your home club changed to {club.name} in {club.city}. Ask what it costs before "
                   f"agreeing, then agree. Once moved, book {cl.class_type} there on {words(cl.date)} at {hm(cl.start_time)}, "
                   f"and get a guest pass for your partner {first} {last} (an adult) to visit {club.name} with you that day.",
                   [f"{hello(m)} I've moved and want to switch my home gym.", f"{m.email}, born {m.date_of_birth}.",
                    f"To {club.name}, in {club.city}. Is there a fee?", "OK, do it.",
                    f"Now book me {cl.class_type} there on {words(cl.date)} at {hm(cl.start_time)}.",
                    f"And a guest pass that day for {first} {last}.", "Yes, thanks."])
        d.one_end_state("The member's last move is more than 180 days ago and the club is not a flagship, so the move is "
                        "allowed and its home-club-plan fee is quoted first (19-21); at the new home club the class is within"
                        " 7 days and the guest pass is for an adult within the month's one pass (11, 12, 28, 29).")
        verify(d, m)
        d.read("find_clubs", city=club.city)
        q = d.read("quote_club_transfer", member_id=m.member_id, club_id=club_id)
        d.write("transfer_home_club", member_id=m.member_id, club_id=club_id)
        d.read("search_classes", club_id=club_id, on_date=cl.date)
        d.write("book_class", member_id=m.member_id, class_id=cl.class_id)
        d.write("issue_guest_pass", member_id=m.member_id, guest_first_name=first, guest_last_name=last, club_id=club_id,
                visit_date=cl.date)
        return fits(d, b, q["transfer_fee"], "money")

    b.run("move_club_and_book", n, cands, write)


def other_club(b: Builder, n: int) -> None:
    """Home-club plan asks for a class at another club; gold books the same kind of class at home."""
    cands = []
    for m in MEMBERS:
        if not plain(m) or plan(m).access != "home_club" or plan(m).off_peak_only or len(upcoming(m)) > 2:
            continue
        home_opts = {c.date: c for c in open_classes(m, m.home_club)}
        for club in sorted(DB.clubs.values(), key=lambda c: c.club_id):
            if club.club_id == m.home_club:
                continue
            hit = [c for c in open_classes(m, club.club_id) if c.date in home_opts]
            if hit:
                cands.append((m, hit[0], home_opts[hit[0].date]))
                break

    def write(task_id: str, c: tuple[Member, ClassSession, ClassSession]) -> bool:
        m, away, home = c
        aclub, hclub = DB.clubs[away.club_id], DB.clubs[home.club_id]
        d = b.task(task_id, m, f"You want to book {away.class_type} at {aclub.name} on {words(away.date)} at {hm(away.start_time)}. "
                   f"If the agent says you cannot, ask to be booked instead into {home.class_type} at your own club, "
                   f"{hclub.name}, at {hm(home.start_time)} that same day.",
                   [f"{hello(m)} Can you book me a class?", f"{m.email}, {m.date_of_birth}.",
                    f"{away.class_type} at {aclub.name}, {words(away.date)} at {hm(away.start_time)}.",
                    f"Oh. Then {home.class_type} at {hclub.name} at {hm(home.start_time)} that day, please.", "Yes."])
        d.one_end_state("A home-club plan reaches only the home club, so the class at the other club is refused (7, 12); the "
                        "member names the home-club class instead, within 7 days and 3 places (11).")
        verify(d, m)
        d.read("search_classes", club_id=home.club_id, on_date=home.date)
        d.write("book_class", member_id=m.member_id, class_id=home.class_id)
        d.forbid("book_class", member_id=m.member_id, class_id=away.class_id)
        return True

    b.run("class_at_other_club", n, cands, write)


def off_peak(b: Builder, n: int) -> None:
    cands = []
    for m in MEMBERS:
        if not plain(m) or not plan(m).off_peak_only or len(upcoming(m)) > 2:
            continue
        opts = open_classes(m, m.home_club)
        for peak in opts:
            if off_peak_ok(peak):
                continue
            ok = [c for c in opts if c.date == peak.date and off_peak_ok(c)]
            if ok:
                cands.append((m, peak, ok[0]))
                break

    def write(task_id: str, c: tuple[Member, ClassSession, ClassSession]) -> bool:
        m, peak, ok = c
        d = b.task(task_id, m, f"You want {peak.class_type} on {words(peak.date)} at {hm(peak.start_time)} at your home club. If "
                   f"the agent says your plan does not allow it, take {ok.class_type} at {hm(ok.start_time)} that same day instead.",
                   [f"{hello(m)} I'd like to book a class.", f"{m.email}, {m.date_of_birth}.",
                    f"{peak.class_type}, {words(peak.date)} at {hm(peak.start_time)}.",
                    f"Hmm, OK. Then {ok.class_type} at {hm(ok.start_time)} that day.", "Yes please."])
        d.one_end_state("An Off-Peak member books weekday classes only from 09:00 to 15:59, so the first class is refused (8,"
                        " 12) and the one the member names inside those hours is booked.")
        verify(d, m)
        d.read("search_classes", club_id=m.home_club, on_date=peak.date)
        d.write("book_class", member_id=m.member_id, class_id=ok.class_id)
        d.forbid("book_class", member_id=m.member_id, class_id=peak.class_id)
        return True

    b.run("off_peak_class", n, cands, write)


# -- personal training -----------------------------------------------------------------------------------------------
def pt_refund(b: Builder, n: int) -> None:
    cands = []
    for m in MEMBERS:
        pk = [p for p in PACKAGES_BY_MEMBER[m.member_id] if p.status == "active" and p.sessions_used < p.sessions_total]
        if m.status == "active" and len(pk) == 1 and pk[0].purchased_on >= (TODAY - timedelta(days=55)).isoformat():
            cands.append((m, pk[0]))

    def write(task_id: str, c: tuple[Member, PTPackage]) -> bool:
        m, p = c
        t = DB.trainers[p.trainer_id]
        d = b.task(task_id, m, f"You bought a personal-training package with {t.first_name} {t.last_name} on "
                   f"{words(p.purchased_on)} but it is not working out. You want the unused sessions refunded. Ask how much you "
                   "will get back, then agree.",
                   [f"{hello(m)} I'd like a refund on my personal training package.", f"{m.email}, {m.date_of_birth}.",
                    f"The one with {t.first_name} {t.last_name}. How much would I get back?", "OK, yes, refund it."])
        verify(d, m)
        d.read("list_pt_packages", member_id=m.member_id)
        q = d.read("quote_pt_refund", package_id=p.package_id)
        d.write("refund_pt_package", package_id=p.package_id)
        return fits(d, b, q["refund_amount"], "money")

    b.run("training_refund", n, cands, write)


def pt_refund_late(b: Builder, n: int) -> None:
    cands = []
    for m in MEMBERS:
        pk = [p for p in PACKAGES_BY_MEMBER[m.member_id] if p.status == "active" and p.sessions_used < p.sessions_total]
        if m.status == "active" and len(pk) == 1 and pk[0].purchased_on < (TODAY - timedelta(days=70)).isoformat():
            cands.append((m, pk[0]))

    def write(task_id: str, c: tuple[Member, PTPackage]) -> bool:
        m, p = c
        t = DB.trainers[p.trainer_id]
        d = b.task(task_id, m, f"You want your money back for the sessions you have not used in your personal-training package "
                   f"with {t.first_name} {t.last_name}. If the agent refuses, insist once, then give up and ask how many "
                   "sessions you still have and until which date you can use them.",
                   [f"{hello(m)} I want a refund for my unused PT sessions.", f"{m.email}, {m.date_of_birth}.",
                    f"With {t.first_name} {t.last_name}.", "That's not fair, I paid for them!",
                    "Fine. How many sessions do I have left, and until when?"])
        d.one_end_state("The package was bought more than 60 days ago, so no refund, with no exception (27); nothing changes,"
                        " and the sessions left and the expiry date are what the member asks.")
        verify(d, m)
        view = d.read("list_pt_packages", member_id=m.member_id)
        mine = next(v for v in view if v["package_id"] == p.package_id)
        d.forbid("refund_pt_package", package_id=p.package_id)
        return fits(d, b, mine["sessions_left"], "number") and fits(d, b, mine["expires_on"], "date")

    b.run("training_refund_too_late", n, cands, write)


def pt_buy_two(b: Builder, n: int) -> None:
    cands = [m for m in MEMBERS if plain(m) and not PACKAGES_BY_MEMBER[m.member_id]]

    def write(task_id: str, m: Member) -> bool:
        trainers = sorted(DB.trainers.where(club_id=m.home_club), key=lambda t: t.trainer_id)
        t = trainers[-1]
        size = b.rng.choice([10, 20])
        d1, d2 = (TODAY + timedelta(days=2)).isoformat(), (TODAY + timedelta(days=9)).isoformat()
        d = b.task(task_id, m, f"You want a {size}-session personal-training package with {t.first_name} {t.last_name} at your "
                   f"home club. Ask the price before agreeing, then agree. Then book two sessions: {words(d1)} at 6:00 PM and "
                   f"{words(d2)} at 6:00 PM.",
                   [f"{hello(m)} I want to buy personal training.", f"{m.email}, {m.date_of_birth}.",
                    f"{size} sessions with {t.first_name} {t.last_name}. What's the price?",
                    f"Yes, buy it. Then book me {words(d1)} at 6 PM and {words(d2)} at 6 PM.", "Yes, book both."])
        d.one_end_state("The trainer is at the member's home club and the package size is the one asked, priced by its quote "
                        "(25); both sessions are more than 24 hours ahead at 18:00, before the package expires (26).")
        verify(d, m)
        d.read("list_trainers", club_id=m.home_club)
        q = d.read("quote_pt_package", trainer_id=t.trainer_id, sessions=size)
        pkg = d.write("buy_pt_package", member_id=m.member_id, trainer_id=t.trainer_id, sessions=size)
        d.write("book_pt_session", package_id=pkg["package_id"], on_date=d1, start_time="18:00")
        d.write("book_pt_session", package_id=pkg["package_id"], on_date=d2, start_time="18:00")
        return fits(d, b, q["package_price"], "money")

    b.run("training_package", n, cands, write)


def pt_too_soon(b: Builder, n: int) -> None:
    cands = []
    for m in MEMBERS:
        pk = [p for p in PACKAGES_BY_MEMBER[m.member_id] if p.status == "active" and p.sessions_total - p.sessions_used >= 2
              and p.expires_on > (TODAY + timedelta(days=3)).isoformat()]
        if plain(m) and len(pk) == 1:
            cands.append((m, pk[0]))

    def write(task_id: str, c: tuple[Member, PTPackage]) -> bool:
        m, p = c
        t = DB.trainers[p.trainer_id]
        tomorrow = (TODAY + timedelta(days=1)).isoformat()
        d = b.task(task_id, m, f"You want a personal-training session with {t.first_name} {t.last_name} tomorrow, "
                   f"{words(tomorrow)}, at 7:00 AM. If the agent says that is too soon, take 6:00 PM tomorrow instead.",
                   [f"{hello(m)} Can I book a PT session for tomorrow morning?", f"{m.email}, {m.date_of_birth}.",
                    f"With {t.first_name} {t.last_name}, at 7 AM tomorrow.", "Alright, 6 PM tomorrow then.", "Yes."])
        d.one_end_state("7:00 tomorrow is less than 24 hours away, so it is not booked (26); 18:00 tomorrow is more than 24 "
                        "hours away and inside the hours, so the session the member falls back on is booked.")
        verify(d, m)
        d.read("list_pt_packages", member_id=m.member_id)
        d.write("book_pt_session", package_id=p.package_id, on_date=tomorrow, start_time="18:00")
        d.forbid("book_pt_session", package_id=p.package_id, on_date=tomorrow, start_time="07:00")
        return True

    b.run("training_session_too_soon", n, cands, write)


# -- guest passes, progress, club moves ------------------------------------------------------------------------------
def guest_minor(b: Builder, n: int) -> None:
    march = TODAY.strftime("%Y-%m")
    cands = [m for m in MEMBERS if plain(m) and plan(m).guest_passes_per_month - passes_used(m, march) >= 2]

    def write(task_id: str, m: Member) -> bool:
        club = DB.clubs[m.home_club]
        visit = (TODAY + timedelta(days=5)).isoformat()
        first, last = GUESTS[len(b.writer.drafts) % len(GUESTS)]
        d = b.task(task_id, m, f"You want guest passes for {words(visit)} at {club.name} for your nephew Leo {m.last_name}, who is "
                   f"16, and your friend {first} {last}, who is 34. Say the ages only if asked. If the agent refuses one, "
                   "accept and keep the other.",
                   [f"{hello(m)} I'd like two guest passes.", f"{m.email}, {m.date_of_birth}.",
                    f"For {words(visit)} at {club.name}: my nephew Leo {m.last_name} and my friend {first} {last}.",
                    f"Leo is 16, {first} is 34.", "OK, just the one then."])
        d.one_end_state("A guest pass is only for an adult (29): the 16-year-old's is refused and the adult friend's is "
                        "issued, within the month's allowance, at the home club, within 14 days (28).")
        verify(d, m)
        d.write("issue_guest_pass", member_id=m.member_id, guest_first_name=first, guest_last_name=last, club_id=m.home_club,
                visit_date=visit)
        d.forbid("issue_guest_pass", member_id=m.member_id, guest_first_name="Leo", guest_last_name=m.last_name,
                 club_id=m.home_club, visit_date=visit)
        return True

    b.run("guest_pass_minor", n, cands, write)


def progress_fix(b: Builder, n: int) -> None:
    cands = []
    for m in MEMBERS:
        recs = sorted(DB.progress.where(member_id=m.member_id), key=lambda r: r.date)
        own = [r for r in recs if r.source == "self" and r.measure == "weight_kg"]
        trained = [r for r in recs if r.source == "trainer" and r.measure == "body_fat_pct"]
        if m.status == "active" and len(own) == 1 and trained:
            cands.append((m, own[0], trained[-1]))

    def write(task_id: str, c: tuple[Member, Any, Any]) -> bool:
        m, own, _fat = c
        fixed = round(own.value - 10.0, 1) if own.value > 70 else round(own.value + 10.0, 1)
        d = b.task(task_id, m, f"In the app you logged your weight on {words(own.date)} as {own.value:g} kg, but that was a typo: "
                   f"it should be {fixed:g} kg. You want it corrected. Also ask what body-fat percentage your trainer measured "
                   "at your most recent assessment.",
                   [f"{hello(m)} I made a typo in my progress log.", f"{m.email}, {m.date_of_birth}.",
                    f"My weight on {words(own.date)} says {own.value:g} kg; it should be {fixed:g} kg.", "Yes, correct it please.",
                    "And what was my body fat at my last trainer assessment?"])
        d.one_end_state("The weight record was logged by the member (source self), so its value is corrected as they say "
                        "(30); the body fat asked is the trainer's most recent assessment.")
        verify(d, m)
        d.read("list_progress_records", member_id=m.member_id, measure="weight_kg")
        d.write("update_progress_record", member_id=m.member_id, record_id=own.record_id, value=fixed)
        recs = d.read("list_progress_records", member_id=m.member_id, measure="body_fat_pct")
        latest = next(r for r in recs if r["source"] == "trainer")
        return fits(d, b, latest["value"], "percent")

    b.run("progress_correction", n, cands, write)


def progress_trainer(b: Builder, n: int) -> None:
    cands = []
    for m in MEMBERS:
        recs = sorted(DB.progress.where(member_id=m.member_id), key=lambda r: r.date)
        dl = [r for r in recs if r.measure == "deadlift_kg"]
        if m.status == "active" and len(dl) == 1 and dl[0].source == "trainer":
            cands.append((m, dl[0]))

    def write(task_id: str, c: tuple[Member, Any]) -> bool:
        m, r = c
        better = round(r.value + 15)
        d = b.task(task_id, m, f"Your deadlift was recorded lower than you think it was (you believe it was {better} kg). You want "
                   f"it changed to {better} kg. You do not know who recorded it. If the agent will not change it, ask which "
                   "trainer recorded it and what value they put down.",
                   [f"{hello(m)} My deadlift record is wrong.", f"{m.email}, {m.date_of_birth}.",
                    f"It should be {better} kg.", "Then who recorded it, and what did they put down?"])
        d.one_end_state("The deadlift record is a trainer's assessment, which this desk cannot change and does not transfer "
                        "(31): nothing changes, and the trainer and the value recorded are what the member asks.")
        verify(d, m)
        recs = d.read("list_progress_records", member_id=m.member_id, measure="deadlift_kg")
        d.forbid("update_progress_record", member_id=m.member_id, record_id=r.record_id, value=float(better))
        return fits(d, b, recs[0]["recorded_by"], "name") and fits(d, b, recs[0]["value"], "number")

    b.run("trainer_record_change", n, cands, write)


def move_too_soon(b: Builder, n: int) -> None:
    cands = []
    for m in MEMBERS:
        if plain(m) and m.last_club_transfer and m.last_club_transfer >= "2025-09-17":
            home = DB.clubs[m.home_club]
            for club in sorted(DB.clubs.values(), key=lambda c: c.club_id):
                if club.club_id != home.club_id and not club.flagship and club.city == home.city:
                    cands.append((m, club.club_id))
                    break

    def write(task_id: str, c: tuple[Member, str]) -> bool:
        m, club_id = c
        club = DB.clubs[club_id]
        d = b.task(task_id, m, f"You want to move your home club to {club.name}. If the agent refuses, accept it, and ask for "
                   f"the phone number of {club.name} so you can ask them about a trial visit.",
                   [f"{hello(m)} I'd like to change my home club.", f"{m.email}, {m.date_of_birth}.", f"To {club.name}.",
                    f"I see. What's the phone number for {club.name}?"])
        d.one_end_state("The member moved home club less than 180 days ago, so the move is refused (19), whatever the club; "
                        "the club's phone number is what they ask instead.")
        verify(d, m)
        clubs = d.read("find_clubs", name=club.name.replace("Ironleaf ", ""))
        d.forbid("transfer_home_club", member_id=m.member_id, club_id=club_id)
        return fits(d, b, clubs[0]["phone"], "phone")

    b.run("club_move_too_soon", n, cands, write)


def flagship(b: Builder, n: int) -> None:
    flag_city = {c.city for c in DB.clubs.values() if c.flagship}
    cands = [m for m in MEMBERS if plain(m) and m.plan_code in ("CORE12", "ANYCLUB", "FLEX") and DB.clubs[m.home_club].city in flag_city
             and not (m.last_club_transfer and m.last_club_transfer >= "2025-09-17")]

    def write(task_id: str, m: Member) -> bool:
        home = DB.clubs[m.home_club]
        target = next(c for c in sorted(DB.clubs.values(), key=lambda c: c.club_id) if c.flagship and c.city == home.city)
        d = b.task(task_id, m, f"You want to make {target.name} (it has a pool) your home club. If the agent says your plan does "
                   "not allow it, ask what the plan that would allow it costs per month, say you will think about it, and end "
                   "the call.",
                   [f"{hello(m)} I want to switch my home club to {target.name}.", f"{m.email}, {m.date_of_birth}.",
                    "What plan would I need, and what does it cost a month?", "I'll think about it, thanks."])
        d.one_end_state("A flagship club can be the home club only on a Prestige plan, and plans are not changed by phone (9,"
                        " 10, 21): nothing changes, and the Prestige monthly fee is what the member asks.")
        verify(d, m)
        d.read("find_clubs", name=target.name.replace("Ironleaf ", ""))
        plans = d.read("list_plans")
        prestige = next(p for p in plans if p["plan_code"] == "PRESTIGE")
        d.forbid("transfer_home_club", member_id=m.member_id, club_id=target.club_id)
        return fits(d, b, prestige["monthly_fee"], "money")

    b.run("flagship_move", n, cands, write)


def freeze_and_clear(b: Builder, n: int) -> None:
    """Freeze from tomorrow and cancel the two class places inside the freeze: three writes, three tables."""
    cands = []
    for m in MEMBERS:
        if not plain(m) or _freezes_in_last_year(m) >= 2:
            continue
        ups = upcoming(m)
        if len(ups) == 2 and all(DB.classes[x.class_id].date > TODAY.isoformat() for x in ups) and all(
                unique_type(DB.classes[x.class_id]) for x in ups):
            cands.append((m, ups[0], ups[1]))

    def write(task_id: str, c: tuple[Member, Booking, Booking]) -> bool:
        m, b1, b2 = c
        c1, c2 = DB.classes[b1.class_id], DB.classes[b2.class_id]
        begin = (TODAY + timedelta(days=1)).isoformat()
        d = b.task(task_id, m, f"You broke your wrist skiing and want to freeze your membership for one month starting tomorrow, "
                   f"{words(begin)} (a normal freeze is fine; you have no doctor's note). Ask what it costs and when it ends, "
                   f"then agree. Also cancel your two upcoming classes: {c1.class_type} on {words(c1.date)} and {c2.class_type} "
                   f"on {words(c2.date)}.",
                   [f"{hello(m)} I need to freeze my membership and cancel my classes.", f"{m.email}, {m.date_of_birth}.",
                    "One month from tomorrow. What's the cost and the end date?", "Yes, go ahead.",
                    f"And please cancel my {c1.class_type} and {c2.class_type} classes.", "Yes, both."])
        d.one_end_state("The member wants a standard freeze (no doctor's note, so not a medical one, 18), allowed with fewer "
                        "than two in 12 months (15, 16) and quoted first; both classes are more than 8 hours away, so their "
                        "cancellations are free (14), and a frozen member keeps no class to attend (11).")
        verify(d, m)
        q = d.read("quote_freeze", member_id=m.member_id, start_date=begin, months=1)
        d.write("freeze_membership", member_id=m.member_id, start_date=begin, months=1)
        d.read("list_bookings", member_id=m.member_id)
        d.read("quote_booking_cancellation", booking_id=b1.booking_id)
        d.read("quote_booking_cancellation", booking_id=b2.booking_id)
        d.write("cancel_booking", booking_id=b1.booking_id)
        d.write("cancel_booking", booking_id=b2.booking_id)
        return fits(d, b, q["end_date"], "date")

    b.run("freeze_and_cancel_classes", n, cands, write)


def build() -> TaskWriter:
    b = Builder()
    freeze_ok(b, 3, train=1)
    freeze_third(b, 3)
    medical_freeze(b, 2)
    cancel_with_fee(b, 3, train=1)
    cancel_balance(b, 3)
    late_cancel(b, 3)
    busy_week(b, 4, train=1)
    waitlist_and_pt(b, 4)
    move_and_book(b, 3)
    other_club(b, 3)
    off_peak(b, 2)
    pt_refund(b, 3)
    pt_refund_late(b, 3)
    pt_buy_two(b, 3)
    pt_too_soon(b, 2)
    guest_minor(b, 2)
    progress_fix(b, 2)
    progress_trainer(b, 3)
    move_too_soon(b, 2)
    flagship(b, 2)
    freeze_and_clear(b, 3)
    return b.writer


if __name__ == "__main__":
    build().save()
