"""The rules of money that refuse a request, as domain errors (core.values.errors)."""

from datetime import date
from decimal import Decimal

from core.values.errors import DomainError, ErrorId
from core.values.money import money_text


class InsufficientFunds(DomainError):
    """A debit the balance (less what live calls hold, where that counts) can't cover; nothing changed."""

    def __init__(self, balance: Decimal, needed: Decimal, what: str = "the charge") -> None:
        super().__init__(
            ErrorId.WALLET_INSUFFICIENT_FUNDS,
            f"The available balance ({money_text(balance)}) does not cover {what} "
            f"({money_text(needed)}); top up at least {money_text(needed - balance)} first.",
        )
        self.balance = balance
        self.needed = needed


class NoSuchCustomer(DomainError):
    """Money moves only in a customer's wallet: the id is unknown or not a customer's."""

    def __init__(self, user_id: int) -> None:
        super().__init__(
            ErrorId.WALLET_NO_SUCH_CUSTOMER, f"Customer {user_id} does not exist.", field="user_id"
        )


class NotACustomer(DomainError):
    """As NoSuchCustomer, worded for a user picked from all users (numbers are given to customers)."""

    def __init__(self, user_id: int) -> None:
        super().__init__(ErrorId.WALLET_NOT_A_CUSTOMER, f"User {user_id} is not a customer.", field="user_id")


class TooPrecise(DomainError):
    """A typed amount with more places than the currency's minor unit: refused, never rounded."""

    def __init__(self, problem: str, field: str = "amount") -> None:
        super().__init__(ErrorId.MONEY_TOO_PRECISE, f"{problem[0].upper()}{problem[1:]}.", field=field)


class ReferenceTaken(DomainError):
    """A top-up's idempotency key already credited another customer."""

    def __init__(self) -> None:
        super().__init__(
            ErrorId.TOPUP_REFERENCE_TAKEN,
            "This reference was already used for another customer.",
            field="reference",
        )


class MonthNotOver(DomainError):
    """A month is invoiced only once it has ended in the customer's time zone."""

    def __init__(self, month: date, timezone: str) -> None:
        super().__init__(
            ErrorId.INVOICE_MONTH_NOT_OVER,
            f"{month:%Y-%m} is not over yet for this customer ({timezone}); invoice it after.",
            field="month",
        )
