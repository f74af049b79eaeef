"""Call webhooks (docs/webhooks.md): the signature (`signing`), URL templates (`template`), retry
delays (`backoff`), the event bodies (`payload`), events turned into deliveries (`intake`), and
the sending (`sender`), which only the workers run."""
