"""Traffic sources (issue 33, docs/billing.md "Publisher payout"): a customer's publishers and
channels, each with what its publisher is owed per converted call. A customer keeps its own; an
admin keeps any customer's. Names and utm_source values are each unique per customer whatever
their case (a visit's utm_source must name one source)."""

from collections.abc import Mapping

from sqlalchemy import func, select
from sqlmodel import Session

from core.models import Number, TrafficSource, User
from core.values.enums import Status
from core.values.errors import DomainError, ErrorId
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData, paginate
from portal_api.schemas.sources import SourceIn, SourceOut, SourceRow, SourceUpdate
from portal_api.services.common import create_row, delete_row, resolve_owner, text_filter, update_row
from portal_api.services.tenancy import get_visible, scoped

_LABEL = "Source"


def page(
    session: Session, principal: Principal, pg: PageParams, user_id: int | None, status: Status | None
) -> PageData[SourceRow]:
    """Sources by name (admin: all, or one customer's; customer: its own), `params` matching the
    name or the utm_source, each with its customer's name and how many numbers it has."""
    stmt = scoped(select(TrafficSource), TrafficSource, principal, user_id)
    stmt = text_filter(stmt, pg.params, TrafficSource.name, TrafficSource.utm_source)
    if status is not None:
        stmt = stmt.where(TrafficSource.status == status.value)
    stmt = stmt.order_by(func.lower(TrafficSource.name), TrafficSource.id)
    return paginate(session, stmt, pg.page, pg.perpage, lambda rows: _rows(session, rows))


def _rows(session: Session, sources: list[TrafficSource]) -> list[SourceRow]:
    """The page's sources with their customers' names and their numbers, two queries for the page."""
    owners = {s.user_id for s in sources}
    names = dict(session.execute(select(User.id, User.name).where(User.id.in_(owners))).all())
    counted = select(Number.source_id, func.count()).where(Number.source_id.in_([s.id for s in sources]))
    numbers = dict(session.execute(counted.group_by(Number.source_id)).all())
    return [
        SourceRow.model_validate(
            {
                **SourceOut.model_validate(s).model_dump(),
                "customer_name": names.get(s.user_id),
                "numbers": numbers.get(s.id, 0),
            }
        )
        for s in sources
    ]


def create(session: Session, principal: Principal, body: SourceIn) -> TrafficSource:
    owner_id = resolve_owner(session, principal, body.user_id)
    _check_free(session, owner_id, body.model_dump(exclude={"user_id"}))
    return create_row(session, TrafficSource(user_id=owner_id, **body.model_dump(exclude={"user_id"})))


def update(session: Session, principal: Principal, source_id: int, body: SourceUpdate) -> TrafficSource:
    source = get_visible(session, TrafficSource, source_id, principal, _LABEL)
    changes = body.model_dump(exclude_unset=True)
    # utm_source may be cleared (null: the source is static only); the rest can't (the schema's not_null).
    return update_row(
        session,
        source,
        changes,
        required=(),
        check=lambda: _check_free(session, source.user_id, changes, source_id),
    )


def delete(session: Session, principal: Principal, source_id: int) -> None:
    """Its numbers keep routing, with no source; a source calls name is kept (deactivate it)."""
    delete_row(session, TrafficSource, source_id, principal, _LABEL)


def _check_free(
    session: Session, owner_id: int, fields: Mapping[str, object], except_id: int | None = None
) -> None:
    """The name and the utm_source are the customer's only source's, whatever their case."""
    for field, error, what in (
        ("name", ErrorId.ROW_NAME_TAKEN, "name"),
        ("utm_source", ErrorId.SOURCE_UTM_TAKEN, "utm_source"),
    ):
        value = fields.get(field)
        if not isinstance(value, str):
            continue
        column = getattr(TrafficSource, field)
        stmt = select(TrafficSource.id).where(
            TrafficSource.user_id == owner_id, func.lower(column) == value.lower()
        )
        if except_id is not None:
            stmt = stmt.where(TrafficSource.id != except_id)
        if session.scalar(stmt) is not None:
            raise DomainError(error, f"Another of this customer's sources has this {what}.", field)
