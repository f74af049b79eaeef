"""Domain errors: a rule of the business said no.

Each subclass has a stable `id` (for logs and programs; it never changes with the wording), a
message written for the person who asked, and a `kind` that says what went wrong without saying
how a service answers it: the API maps kinds to HTTP statuses in one place (portal_api.errors).
"""

from enum import StrEnum
from typing import ClassVar


class Kind(StrEnum):
    NOT_FOUND = "not_found"  # what was named does not exist (or is not the asker's to see)
    CONFLICT = "conflict"  # the request clashes with what is already recorded
    PAYMENT_REQUIRED = "payment_required"  # the balance does not cover it
    INVALID = "invalid"  # the request can't be done as asked


class DomainError(Exception):
    id: ClassVar[str] = "domain_error"
    kind: ClassVar[Kind] = Kind.INVALID

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        # The request field the message is about, when there is one (shown beside that field).
        self.field = field
