"""Campaign bodies: routing settings and IVR authentication settings."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from core.values.enums import DuplicateAction, RoutingStrategy, Status
from portal_api.deps import MAX_ID
from portal_api.schemas.common import NO_CONTROLS, NO_CONTROLS_PATTERN, Name, StrictBody
from portal_api.schemas.regions import CampaignRegionRules, CampaignRegionRulesOut

Pin = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,12}$")]


class CampaignIn(StrictBody):
    name: Name
    user_id: int | None = Field(default=None, ge=1, le=MAX_ID, description="Owner (admin only)")
    status: Status = Status.ACTIVE
    strategy: RoutingStrategy = RoutingStrategy.PRIORITY_WEIGHT
    ring_timeout: int = Field(default=30, ge=5, le=300, description="Seconds each target rings")
    buffer_seconds: int = Field(default=60, ge=0, le=86400, description="Talk time that makes a conversion")
    duplicate_window_seconds: int = Field(default=86400, ge=0, le=90 * 86400)
    duplicate_action: DuplicateAction = DuplicateAction.ALLOW
    record: bool = False
    region_rules: CampaignRegionRules = Field(
        default_factory=CampaignRegionRules, description="Callers blocked by region"
    )


class CampaignUpdate(StrictBody):
    not_null = (
        "name",
        "strategy",
        "ring_timeout",
        "buffer_seconds",
        "duplicate_window_seconds",
        "duplicate_action",
        "record",
    )
    name: Name | None = None
    strategy: RoutingStrategy | None = None
    ring_timeout: int | None = Field(default=None, ge=5, le=300)
    buffer_seconds: int | None = Field(default=None, ge=0, le=86400)
    duplicate_window_seconds: int | None = Field(default=None, ge=0, le=90 * 86400)
    duplicate_action: DuplicateAction | None = None
    record: bool | None = None
    # Left out: unchanged (null is refused: the rules always have a value).
    region_rules: CampaignRegionRules = Field(default_factory=CampaignRegionRules)


class IvrSettings(BaseModel):
    ivr_enabled: bool
    ivr_prompt: str | None
    ivr_pins: list[str]
    ivr_digits: int
    ivr_attempts: int


DEFAULT_DIGITS, MAX_DIGITS = 4, 12


def _pins_of_their_length() -> dict[str, object]:
    """_pins_fit as JSON Schema: an enabled IVR has a PIN, and every PIN has ivr_digits digits (4
    when left out)."""
    lengths = [
        {
            "properties": {
                "ivr_digits": {"const": n},
                "ivr_pins": {"items": {"type": "string", "pattern": f"^[0-9]{{{n}}}$"}},
            },
            **({} if n == DEFAULT_DIGITS else {"required": ["ivr_digits"]}),
        }
        for n in range(1, MAX_DIGITS + 1)
    ]
    enabled_has_pins = {
        "anyOf": [
            {"properties": {"ivr_enabled": {"const": False}}},
            {"required": ["ivr_pins"], "properties": {"ivr_pins": {"minItems": 1}}},
        ]
    }
    return {"allOf": [enabled_has_pins, {"anyOf": lengths}]}


class IvrEdit(StrictBody):
    rules = _pins_of_their_length()
    campaign_id: int = Field(ge=1, le=MAX_ID)
    ivr_enabled: bool
    ivr_prompt: (
        Annotated[
            str, StringConstraints(strip_whitespace=True, max_length=255), NO_CONTROLS, NO_CONTROLS_PATTERN
        ]
        | None
    ) = Field(
        default=None,
        description="What the caller hears: a value of GET /campaign/prompt/{id} (null: the platform's)",
    )
    ivr_pins: list[Pin] = Field(default_factory=list, max_length=1000, description="Accepted PINs")
    ivr_digits: int = Field(default=DEFAULT_DIGITS, ge=1, le=MAX_DIGITS, description="PIN length")
    ivr_attempts: int = Field(default=3, ge=1, le=10)

    @model_validator(mode="after")
    def _pins_fit(self) -> "IvrEdit":
        if self.ivr_enabled and not self.ivr_pins:
            raise ValueError("An enabled IVR needs at least one PIN in ivr_pins.")
        wrong = [p for p in self.ivr_pins if len(p) != self.ivr_digits]
        if wrong:
            raise ValueError(
                f"Every PIN must have {self.ivr_digits} digits (ivr_digits); {wrong[0]} does not."
            )
        return self


class CampaignOut(IvrSettings):
    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int
    name: str
    status: Status
    strategy: RoutingStrategy
    ring_timeout: int
    buffer_seconds: int
    duplicate_window_seconds: int
    duplicate_action: DuplicateAction
    record: bool
    region_rules: CampaignRegionRulesOut
    created_at: datetime


class CampaignBrief(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int
    name: str
    status: Status


class CampaignOwner(BaseModel):
    campaign_id: int
    user_id: int
    name: str
    email: str


class IvrRow(IvrSettings):
    model_config = ConfigDict(from_attributes=True)

    campaign_id: int = Field(validation_alias="id")
    user_id: int
    name: str
    status: Status
    customer_name: str | None = None
