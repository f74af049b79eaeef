"""A call: its record (state, row, live entry), the call table's partitions, where the caller is from,
why it ended (Q.850), its whisper, and the live calls in Redis."""
