"""Which node (one Asterisk + its bridge, docs/scale.md) a call belongs to.

Each node's Asterisk is named by its node id (asterisk.conf `systemname`), which starts every
uniqueid it makes: a call's linkedid, on its row and in Asterisk's record (CEL) alike, is
`{node}-{epoch}.{sequence}`. A node without an id is the platform's only node and answers for
every call. Node ids hold no `-`, so one id is never the start of another's prefix.
"""


def linkedid_prefix(node_id: str) -> str:
    """What the linkedids of the node's calls start with ('' for the only node: every call)."""
    return f"{node_id}-" if node_id else ""


def owns(node_id: str, linkedid: str) -> bool:
    """Whether the call is the node's to follow, reconcile and hang up."""
    return linkedid.startswith(linkedid_prefix(node_id))


def node_of(linkedid: str) -> str:
    """The id of the node that holds the call ('' for the only node's calls)."""
    node, dash, _ = linkedid.partition("-")
    return node if dash else ""
