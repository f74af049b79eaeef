"""The dashboard's rollups of the call rows: by hour and day, and by caller origin."""
