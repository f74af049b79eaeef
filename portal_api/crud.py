"""Moved to `portal_api.services.common`; these names stay only for the money routers (topup,
invoices, numbers), reworked in parallel, until they import from there."""

from portal_api.services.common import change_status as change_status
from portal_api.services.common import page_of as page_of
from portal_api.services.common import text_filter as text_filter
