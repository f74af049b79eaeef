"""Write the API's OpenAPI document, the source of the web's generated client (`make client`).

`python -m portal_api.openapi_export web/openapi.json`; keys sorted, so a diff shows what changed."""

import json
import sys
from pathlib import Path

from portal_api.app import create_app


def document() -> str:
    return json.dumps(create_app().openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(document(), encoding="utf-8")
