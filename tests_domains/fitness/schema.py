"""Ironleaf Fitness, the member desk of a gym chain: the database (one table per field).

Clubs carry their weekly class timetable; dated classes are instances of it. Members hold one
membership plan, a home club, a freeze history and a cancellation notice when given. Class bookings
and waitlist places are bookings whose waitlist position is worked out when asked (never stored).
Personal-training packages count their sessions; guest passes, progress records and every charge
are records of their own.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, Formatted, FreeText, Table, Unordered

Weekday = Literal["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


class TimetableSlot(BaseModel):
    weekday: Weekday
    start_time: str  # HH:MM
    class_type: str  # e.g. "Spin", "Vinyasa Yoga"
    studio: str
    minutes: int
    capacity: int


class Club(BaseModel):
    club_id: str
    name: str  # e.g. "Ironleaf Harbour Point"
    city: str
    address: str
    phone: str
    flagship: bool  # flagship clubs: pool and spa; home club only on a Prestige plan
    opens: str  # HH:MM
    closes: str
    timetable: list[TimetableSlot]


class Plan(BaseModel):
    plan_code: str
    name: str
    monthly_fee: float
    access: Literal["home_club", "all_clubs"]
    off_peak_only: bool  # gym floor and classes 09:00-16:00 on weekdays, any time at weekends
    guest_passes_per_month: int
    commitment_months: int  # 0 = rolling month to month


class Freeze(BaseModel):
    start_date: str
    end_date: str  # last frozen day
    months: int
    fee: float
    kind: Literal["standard", "medical"]


class Member(BaseModel):
    member_id: str  # the number on the membership card, e.g. "IL-482913"
    first_name: str
    last_name: str
    email: str
    phone: str
    date_of_birth: Confidential[str]
    home_club: str
    plan_code: str
    status: Literal["active", "frozen", "cancelled"]
    joined_on: str
    commitment_end: str | None = None  # last day of the minimum term, None for rolling plans
    next_billing_date: str | None = None
    freezes: Unordered[Freeze] = []
    last_club_transfer: str | None = None
    cancellation_requested_on: str | None = None
    membership_ends_on: str | None = None  # set when notice is given


class ClassSession(BaseModel):
    class_id: str  # e.g. "CL-HBP-0317-0630"
    club_id: str
    class_type: str
    instructor: str
    studio: str
    date: str
    start_time: str
    minutes: int
    capacity: int
    status: Literal["scheduled", "cancelled"]


class Booking(BaseModel):
    booking_id: str
    member_id: str
    class_id: str
    status: Literal["booked", "waitlisted", "cancelled", "late_cancelled", "attended", "no_show"]
    booked_at: str  # YYYY-MM-DDTHH:MM; the waitlist is served in (booked_at, booking_id) order
    cancelled_at: str | None = None
    penalty: float = 0.0


class Trainer(BaseModel):
    trainer_id: str
    first_name: str
    last_name: str
    club_id: str
    level: Literal["coach", "senior", "master"]
    session_rate: float  # price of one 60-minute session before package discount
    specialties: Unordered[str]


class PTPackage(BaseModel):
    package_id: str
    member_id: str
    trainer_id: str
    sessions_total: int
    sessions_used: int
    price_paid: float
    purchased_on: str
    expires_on: str
    status: Literal["active", "expired", "refunded"]
    refund_amount: float | None = None


class PTSession(BaseModel):
    pt_session_id: str
    package_id: str
    date: str
    start_time: str
    status: Literal["scheduled", "completed", "cancelled", "forfeited"]


class GuestPass(BaseModel):
    pass_id: str
    member_id: str
    guest_first_name: Formatted
    guest_last_name: Formatted
    club_id: str
    visit_date: str
    status: Literal["issued", "used", "void"]


Measure = Literal["weight_kg", "body_fat_pct", "resting_heart_rate", "row_2k_seconds", "deadlift_kg", "waist_cm"]


class ProgressRecord(BaseModel):
    record_id: str
    member_id: str
    date: str
    measure: Measure
    value: float
    source: Literal["self", "trainer"]  # self-logged in the app, or a trainer's assessment
    trainer_id: str | None = None
    note: FreeText = ""


class Charge(BaseModel):
    charge_id: str
    member_id: str
    kind: Literal["monthly_fee", "joining_fee", "freeze_fee", "late_cancel", "no_show", "transfer_fee",
                  "early_termination", "pt_package", "pt_refund", "guest_pass"]
    amount: float  # positive: owed by the member; a refund is negative
    date: str
    status: Literal["paid", "due", "failed"]
    reference: str | None = None  # the booking, package or freeze it is for


class FitnessDB(BaseModel):
    clubs: Table[Club]
    plans: Table[Plan]
    members: Table[Member]
    classes: Table[ClassSession]
    bookings: Table[Booking]
    trainers: Table[Trainer]
    pt_packages: Table[PTPackage]
    pt_sessions: Table[PTSession]
    guest_passes: Table[GuestPass]
    progress: Table[ProgressRecord]
    charges: Table[Charge]
