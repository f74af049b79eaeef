"""`python -m pbx_bridge`: run the Stasis app until SIGINT/SIGTERM."""

import asyncio
import logging

from pbx_bridge.app import main

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
# httpx logs every ARI request at INFO: a dozen lines per call is noise, and CPU at high call rates.
logging.getLogger("httpx").setLevel(logging.WARNING)
asyncio.run(main())
