"""The values every room speaks in, with no I/O: the closed sets stored as text, money, phone numbers,
passwords, and the domain's errors."""
