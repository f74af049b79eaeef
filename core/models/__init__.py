"""Every table of the product. Import from here so SQLModel.metadata is complete."""

from core.models.accounts import AdminAudit, AuthToken, ImpersonationAudit, StatusChange, User
from core.models.attribution import CallAttribution, TrafficSource
from core.models.billing import CreditReservation, Invoice, WalletTransaction
from core.models.calls import Call
from core.models.channel_events import ChannelEvent
from core.models.conversation import CallConversation, CallTranscript, KeywordRule
from core.models.dni import DniPool, DniSite
from core.models.inventory import Country, Number, NumberUploadBatch, Vendor
from core.models.notifications import Notification
from core.models.pbx_nodes import NodeLogin
from core.models.prompts import PromptAudio
from core.models.rating import Rate, Tariff
from core.models.report_views import ReportView
from core.models.rollups import CallRegionRollup, CallRegionRollupDay, CallRollup, CallRollupDay
from core.models.routing import BlockEntry, Buyer, Campaign, CampaignTarget, CatalogueVersion, Target, Trunk
from core.models.webhooks import Webhook, WebhookDelivery
from core.models.whisper import WhisperAudio

__all__ = [
    "AdminAudit",
    "AuthToken",
    "BlockEntry",
    "Buyer",
    "Call",
    "CallAttribution",
    "CallConversation",
    "CallRegionRollup",
    "CallRegionRollupDay",
    "CallRollup",
    "CallRollupDay",
    "CallTranscript",
    "Campaign",
    "CampaignTarget",
    "CatalogueVersion",
    "ChannelEvent",
    "Country",
    "CreditReservation",
    "DniPool",
    "DniSite",
    "ImpersonationAudit",
    "Invoice",
    "KeywordRule",
    "NodeLogin",
    "Notification",
    "Number",
    "NumberUploadBatch",
    "PromptAudio",
    "Rate",
    "ReportView",
    "StatusChange",
    "Target",
    "Tariff",
    "TrafficSource",
    "Trunk",
    "User",
    "Vendor",
    "WalletTransaction",
    "Webhook",
    "WebhookDelivery",
    "WhisperAudio",
]
