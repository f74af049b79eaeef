"""`python -m pbx_bridge`: run the Stasis app until SIGINT/SIGTERM."""

import asyncio

from core.infra import logs
from pbx_bridge.app import main

logs.configure()
asyncio.run(main())
