"""`python -m pbx_bridge`: run the Stasis app until SIGINT/SIGTERM."""

import asyncio
import logging

from pbx_bridge.app import main

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
asyncio.run(main())
